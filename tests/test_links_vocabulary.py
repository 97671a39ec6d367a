"""Each edition's English vocabulary is kept (kb.links.vocabularies) and read back only while the
rules, glossary and code it was built from are the same.

The full knowledge base of the fixtures was linked by its ingest, which kept every edition's
vocabulary; each test works in a transaction that it rolls back.
"""

from __future__ import annotations

import importlib
import pickle
import zlib
from collections.abc import Iterator

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from kb.links.term_vocabulary import english_vocabulary
from kb.models import LinkWalkState, Rule, RuleText
from kb.versions import english_editions

# The module (kb.links exports a function of the same name).
vocabularies = importlib.import_module("kb.links.vocabularies")


@pytest.fixture
def session(full_db) -> Iterator[Session]:
    with full_db.session() as session:
        yield session
        session.rollback()


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The editions whose vocabulary is built (not read back) from now on."""
    built: list[int] = []

    def counted(rules, glossary, language="en"):
        built.append(len(rules))
        return english_vocabulary(rules, glossary, language)

    monkeypatch.setattr(vocabularies, "english_vocabulary", counted)
    return built


def test_a_kept_vocabulary_is_read_back_equal_to_a_built_one(session, builds) -> None:
    editions = english_editions(session)
    assert len(editions) >= 3
    kept = [vocabularies.edition_vocabulary(session, edition) for edition in editions]
    assert builds == []  # the ingest's link run kept them all
    vocabularies.forget_vocabularies(session)
    built = [vocabularies.edition_vocabulary(session, edition) for edition in editions]
    assert len(builds) == len(editions)
    assert kept == built
    assert kept[-1].match("The Ring tempts you.") == built[-1].match("The Ring tempts you.")
    assert kept[-1].match("The Ring tempts you.")


def test_a_changed_rule_makes_its_edition_build_again(session, builds) -> None:
    newest = english_editions(session)[-1]
    text_id = session.scalar(
        select(RuleText.id)
        .join(Rule, Rule.id == RuleText.rule_id)
        .where(Rule.edition_id == newest.id, Rule.number == "701.54", RuleText.language == "en")
    )
    session.execute(update(RuleText).where(RuleText.id == text_id).values(title="Ring Dances"))
    session.flush()
    changed = vocabularies.edition_vocabulary(session, newest)
    assert len(builds) == 1
    assert changed.match("The Ring dances.")
    assert vocabularies.edition_vocabulary(session, newest) == changed  # kept again
    assert len(builds) == 1


@pytest.mark.parametrize("bad", ["classes", "garbage"])
def test_kept_vocabularies_are_plain_values_and_bad_ones_are_built(session, builds, bad) -> None:
    """A stored vocabulary naming a class is refused (reading one runs no code), as is garbage."""
    newest = english_editions(session)[-1]
    name = f"{vocabularies.KEPT}{newest.id}"
    vocabulary = vocabularies.edition_vocabulary(session, newest)
    data = zlib.compress(pickle.dumps(vocabulary)) if bad == "classes" else b"not a vocabulary"
    session.execute(update(LinkWalkState).where(LinkWalkState.name == name).values(data=data))
    session.flush()
    assert vocabularies.edition_vocabulary(session, newest) == vocabulary
    assert len(builds) == 1


def test_translated_titles_read_once_are_each_editions_own(session) -> None:
    """A run over every edition reads the translated rule titles once (``titles``), and each
    edition's French and Spanish vocabularies are those it builds alone."""
    titles: dict = {}
    learned: dict = {}
    for edition in english_editions(session):
        once = vocabularies.vocabularies(session, edition, ("en", "fr", "es"), learned, titles)
        alone = vocabularies.vocabularies(session, edition, ("en", "fr", "es"))
        assert once == alone
    assert set(titles) == {"es", "fr"}
    assert any(titles[language] for language in titles)  # the fixtures translate rule pages

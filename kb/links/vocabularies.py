"""The term vocabularies of an edition, read from the database (term_vocabulary builds them).

An edition's English vocabulary depends only on its rules and glossary, which never change once
it is loaded, and on the code that builds it; yet every run that walks the editions (relinking
one changed set, adding an edition) used to build all of them again: ~0.1 s each, 7 s at the
whole history. Each one built is kept in ``link_walk_state`` (row ``vocabulary:<edition id>``),
under a digest of the rules and glossary it was built from and of the source of
:mod:`kb.links`, and is read back instead of being built while that digest holds. Like the
walk's state it is stored as plain values (no pickled classes: reading it runs no code). ``kb
link`` from scratch drops every kept vocabulary first (:func:`forget_vocabularies`), so a full
rebuild always builds them afresh.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import zlib
from collections.abc import Iterable
from dataclasses import fields
from typing import TYPE_CHECKING

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from kb.models import Edition, GlossaryEntry, LinkWalkState, Rule, RuleText

from .learned import learned_names
from .term_vocabulary import GlossaryItem, RuleEntry, english_vocabulary, translated_vocabulary
from .terms import Term, Vocabulary
from .walk_state import code_digest, plain_values

if TYPE_CHECKING:
    from .ahead import VocabulariesAhead

__all__ = ["edition_vocabulary", "forget_vocabularies", "vocabularies", "with_translations"]

log = logging.getLogger(__name__)

KEPT = "vocabulary:"  # the rows' names in link_walk_state: vocabulary:<edition id>
FORMAT = 1  # of the stored values; a change makes the kept vocabularies unusable
_TERM_FIELDS = tuple(f.name for f in fields(Term))


def _inputs(session: Session, edition: Edition) -> tuple[list[RuleEntry], list[GlossaryItem]]:
    """An edition's English rules (in rule order) and glossary (in its order)."""
    rules = [
        RuleEntry(number, kind, title or "", body or "")
        for number, kind, title, body in session.execute(
            select(Rule.number, Rule.kind, RuleText.title, RuleText.body)
            .join(RuleText, RuleText.rule_id == Rule.id)
            .where(Rule.edition_id == edition.id, RuleText.language == "en")
            .order_by(Rule.sort_key)
        ).all()
    ]
    glossary = [
        GlossaryItem(term, definition, redirect, bool(obsolete))
        for term, definition, redirect, obsolete in session.execute(
            select(
                GlossaryEntry.term,
                GlossaryEntry.definition,
                GlossaryEntry.redirect,
                GlossaryEntry.obsolete,
            )
            .where(GlossaryEntry.edition_id == edition.id, GlossaryEntry.language == "en")
            .order_by(GlossaryEntry.position)
        ).all()
    ]
    return rules, glossary


def _stored(vocabulary: Vocabulary) -> bytes:
    return zlib.compress(pickle.dumps(_to_plain(vocabulary), protocol=5), 1)


def stored_vocabulary(session: Session, edition: Edition) -> tuple[str, bytes]:
    """An edition's English vocabulary built afresh, as kept: (its digest, its stored data).

    What kb.links.ahead's helper process builds and sends."""
    rules, glossary = _inputs(session, edition)
    return _digest(rules, glossary), _stored(english_vocabulary(rules, glossary))


def decoded(data: bytes) -> Vocabulary:
    """The vocabulary of a stored form (:func:`stored_vocabulary`'s data)."""
    return _from_plain(plain_values(zlib.decompress(data)))


def edition_vocabulary(
    session: Session, edition: Edition, ahead: VocabulariesAhead | None = None
) -> Vocabulary:
    """The English term vocabulary of one edition, from its rules and glossary (kept, above).

    ``ahead``: the helper building a full run's vocabularies (kb.links.ahead); what it sends is
    kept and decoded instead of built here.
    """
    built = ahead.take(edition.id) if ahead is not None else None
    if built is not None:
        digest, data = built
        _keep(session, edition, digest, data)
        return decoded(data)
    rules, glossary = _inputs(session, edition)
    digest = _digest(rules, glossary)
    name = f"{KEPT}{edition.id}"
    row = session.execute(
        select(LinkWalkState.inputs, LinkWalkState.data).where(LinkWalkState.name == name)
    ).first()
    if row is not None and row.inputs == digest:
        try:
            return _from_plain(plain_values(zlib.decompress(row.data)))
        except (pickle.UnpicklingError, zlib.error, TypeError, ValueError) as exc:
            log.warning("the kept vocabulary of %s is unusable (%s): building it", edition.key, exc)
    vocabulary = english_vocabulary(rules, glossary)
    _keep(session, edition, digest, _stored(vocabulary))
    return vocabulary


def _keep(session: Session, edition: Edition, digest: str, data: bytes) -> None:
    name = f"{KEPT}{edition.id}"
    session.execute(delete(LinkWalkState).where(LinkWalkState.name == name))
    session.add(
        LinkWalkState(name=name, inputs=digest, edition_date=edition.effective_date, data=data)
    )
    session.flush()


def forget_vocabularies(session: Session) -> None:
    """Drop every kept vocabulary (a full rebuild builds each one afresh)."""
    session.execute(delete(LinkWalkState).where(LinkWalkState.name.startswith(KEPT)))


def _digest(rules: list[RuleEntry], glossary: list[GlossaryItem]) -> str:
    digest = hashlib.sha256(f"{FORMAT}\0{code_digest()}\n".encode())
    for item in (*rules, *glossary):
        digest.update(repr(item).encode())
    return digest.hexdigest()


def _to_plain(vocabulary: Vocabulary) -> tuple:
    terms = [tuple(getattr(t, name) for name in _TERM_FIELDS) for t in vocabulary.terms]
    return (vocabulary.language, terms, vocabulary.concepts, sorted(vocabulary.numbers))


def _from_plain(values: tuple) -> Vocabulary:
    language, terms, concepts, numbers = values
    if not all(len(t) == len(_TERM_FIELDS) for t in terms):
        raise ValueError("terms of another shape")
    return Vocabulary(language, [Term(*t) for t in terms], dict(concepts), frozenset(numbers))


def vocabularies(
    session: Session,
    edition: Edition,
    languages: Iterable[str],
    learned: dict[str, dict[str, str]] | None = None,
    titles: dict[str, dict[int, dict[str, str]]] | None = None,
    ahead: VocabulariesAhead | None = None,
) -> dict[str, Vocabulary]:
    """Each language's vocabulary for an edition (French and Spanish built on the English one).

    ``learned``: the learned names per language, kept there once read (a run over every
    edition reads them once). ``titles``: the translated rule titles per language and English
    edition, kept there the same way: read per edition, the query scanned the rule texts once
    for each of ~100 editions at the whole history (~4% of ``kb link``). ``ahead``: the helper
    building a full run's English vocabularies (kb.links.ahead).
    """
    english = edition_vocabulary(session, edition, ahead)
    return with_translations(session, edition, english, languages, learned, titles)


def with_translations(
    session: Session,
    edition: Edition,
    english: Vocabulary,
    languages: Iterable[str],
    learned: dict[str, dict[str, str]] | None = None,
    titles: dict[str, dict[int, dict[str, str]]] | None = None,
) -> dict[str, Vocabulary]:
    """:func:`vocabularies` from the edition's English one (kb.links.ahead's helper builds the
    same in its own process; it only reads the database)."""
    learned = {} if learned is None else learned
    result = {"en": english}
    for language in sorted(set(languages) - {"en"}):
        if titles is None:
            own = _translated_titles(session, language, edition.id).get(edition.id, {})
        else:
            if language not in titles:
                titles[language] = _translated_titles(session, language)
            own = titles[language].get(edition.id, {})
        if language not in learned:
            learned[language] = learned_names(session, language)
        result[language] = translated_vocabulary(language, english, own, learned[language])
    return result


def _translated_titles(
    session: Session, language: str, edition_id: int | None = None
) -> dict[int, dict[str, str]]:
    """Per English edition (or for one), the titles of the translated rules that follow it."""
    query = (
        select(RuleText.follows_edition_id, Rule.number, RuleText.title)
        .join(RuleText, RuleText.rule_id == Rule.id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(
            Edition.kind == "translations",
            RuleText.language == language,
            RuleText.title != "",
        )
        .order_by(RuleText.id)
    )
    if edition_id is None:
        query = query.where(RuleText.follows_edition_id.is_not(None))
    else:
        query = query.where(RuleText.follows_edition_id == edition_id)
    found: dict[int, dict[str, str]] = {}
    for follows, number, title in session.execute(query):
        found.setdefault(follows, {})[number] = title
    return found

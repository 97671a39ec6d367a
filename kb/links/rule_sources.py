"""Explicit references from an edition's own texts and from the translations that follow it.

A rule text's body is stored once however many editions repeat it (``rule_texts.body_id``): its
references are parsed once per distinct body and language and resolved in each edition against
that edition's numbering (the link rows stay per edition: what "rule 702.19b" names depends on
it). Examples and glossary definitions are per edition and parsed as they come.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.models import Edition, Example, GlossaryEntry, Rule, RuleBody, RuleReference, RuleText

from .references import Reference, find_references


class BodyReferences:
    """The references of rule bodies, parsed once per (body, language) for a whole link run."""

    def __init__(self) -> None:
        self.parsed: dict[tuple[int, str], tuple[Reference, ...]] = {}
        self.parses = 0  # how many bodies were parsed (the rest came from an earlier edition)

    def of(self, session: Session, texts: Iterable[tuple[int, str, int | None]]) -> dict[int, Any]:
        """Per rule text id (of (id, language, body id) triples), its references."""
        texts = list(texts)
        wanted: dict[int, set[str]] = defaultdict(set)
        for _, language, body in texts:
            if body is not None and (body, language) not in self.parsed:
                wanted[body].add(language)
        bodies = sorted(wanted)
        for start in range(0, len(bodies), 900):
            for body_id, text in session.execute(
                select(RuleBody.id, RuleBody.text).where(
                    RuleBody.id.in_(bodies[start : start + 900])
                )
            ):
                for language in sorted(wanted[body_id]):
                    self.parsed[(body_id, language)] = tuple(find_references(text or "", language))
                    self.parses += 1
        return {
            text_id: self.parsed.get((body, language), ()) if body is not None else ()
            for text_id, language, body in texts
        }


@lru_cache(maxsize=1 << 16)
def _parsed(text: str, language: str) -> tuple[Reference, ...]:
    return tuple(find_references(text, language))


def edition_sources(session: Session, edition: Edition, rows: Any, bodies: BodyReferences) -> None:
    """Explicit references in the edition's rule texts, examples and glossary."""
    texts = session.execute(
        select(RuleText.id, RuleText.language, RuleText.body_id)
        .join(Rule, Rule.id == RuleText.rule_id)
        .where(Rule.edition_id == edition.id)
        .order_by(RuleText.id)
    ).all()
    found = bodies.of(session, texts)
    for text_id, language, _ in texts:
        rows.references("rule_text", text_id, language, found[text_id])
    for example_id, language, text in session.execute(
        select(Example.id, RuleText.language, Example.text)
        .join(RuleText, RuleText.id == Example.rule_text_id)
        .join(Rule, Rule.id == RuleText.rule_id)
        .where(Rule.edition_id == edition.id)
        .order_by(Example.id)
    ):
        rows.references("example", example_id, language, _parsed(text, language))
    for entry_id, language, definition in session.execute(
        select(GlossaryEntry.id, GlossaryEntry.language, GlossaryEntry.definition)
        .where(GlossaryEntry.edition_id == edition.id)
        .order_by(GlossaryEntry.id)
    ):
        rows.references("glossary", entry_id, language, _parsed(definition, language))


class TranslatedTexts:
    """The translated rule texts that follow each English edition, read once for a link run.

    ``rule_texts.follows_edition_id`` has no index: asked per edition, the query read every
    rule text once for each of ~100 editions at the whole history (~2% of ``kb link``).
    """

    def __init__(self) -> None:
        self.following: dict[int, list[Any]] | None = None

    def of(self, session: Session, edition: Edition) -> list[Any]:
        """(id, rule id, language, body id) of the texts following the edition, by id."""
        if self.following is None:
            self.following = defaultdict(list)
            for row in session.execute(
                _translated(RuleText.follows_edition_id.is_not(None)).add_columns(
                    RuleText.follows_edition_id
                )
            ):
                self.following[row[-1]].append(tuple(row[:-1]))
        return self.following.get(edition.id, [])


def _translated(condition: Any) -> Any:
    return (
        select(RuleText.id, RuleText.rule_id, RuleText.language, RuleText.body_id)
        .join(Rule, Rule.id == RuleText.rule_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(Edition.kind == "translations", condition)
        .order_by(RuleText.id)
    )


def translation_sources(
    session: Session,
    edition: Edition | None,
    rows: Any,
    bodies: BodyReferences,
    translated: TranslatedTexts | None = None,
) -> None:
    """Explicit references and sibling lists of the translated texts that follow the edition
    (``translated``: those texts, when a run reads them once for every edition)."""
    follows = RuleText.follows_edition_id
    if edition is not None and translated is not None:
        texts = translated.of(session, edition)
    else:
        condition = follows.is_(None) if edition is None else follows == edition.id
        texts = [tuple(row) for row in session.execute(_translated(condition))]
    found = bodies.of(session, [(text_id, lang, body) for text_id, _, lang, body in texts])
    by_rule: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for text_id, rule_id, language, _ in texts:
        rows.references("rule_text", text_id, language, found[text_id])
        by_rule[rule_id].append((text_id, language))
        rows.translation_ids.append(text_id)
    if not by_rule:
        return
    for rule_id, target in session.execute(
        select(RuleReference.rule_id, RuleReference.target)
        .where(RuleReference.rule_id.in_(list(by_rule)))
        .order_by(RuleReference.rule_id, RuleReference.position)
    ):
        for text_id, language in by_rule[rule_id]:
            rows.add("rule_text", text_id, language, target, "sibling", target)

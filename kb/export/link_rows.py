"""The link rows of a dump: each link's source and target by natural keys, not database ids.

A link starts from a rule text, an example, a glossary entry or a clarification text; a dump
names it by edition key, rule number, language, provenance, example position, term or
clarification key, so that a consumer can find it again in the same dump.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.corpus.numbers import sort_key
from kb.models import (
    Card,
    CardLocalization,
    Clarification,
    ClarificationText,
    Edition,
    Example,
    GlossaryEntry,
    Link,
    Rule,
)


@dataclass
class _Source:
    """What a link's source row is, by natural keys."""

    type: str
    edition: str | None = None
    language: str | None = None
    provenance: str | None = None
    number: str | None = None
    example: int | None = None
    term: str | None = None
    clarification: str | None = None
    card: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def _sources(
    session: Session, text_index: dict[int, dict[str, Any]]
) -> dict[tuple[str, int], _Source]:
    """Natural keys of every row a link can start from."""
    sources: dict[tuple[str, int], _Source] = {}
    for text_id, row in text_index.items():
        sources[("rule_text", text_id)] = _Source(
            "rule_text", row["edition"], row["language"], row["provenance"], row["number"]
        )
    for example_id, text_id, position in session.execute(
        select(Example.id, Example.rule_text_id, Example.position)
    ).all():
        row = text_index.get(text_id)
        if row is not None:
            sources[("example", example_id)] = _Source(
                "example",
                row["edition"],
                row["language"],
                row["provenance"],
                row["number"],
                example=position + 1,
            )
    edition_keys = dict(session.execute(select(Edition.id, Edition.key)).all())
    for gid, ed_id, lang, term in session.execute(
        select(
            GlossaryEntry.id, GlossaryEntry.edition_id, GlossaryEntry.language, GlossaryEntry.term
        )
    ).all():
        sources[("glossary", gid)] = _Source("glossary", edition_keys[ed_id], lang, term=term)
    for tid, key, lang, prov in session.execute(
        select(
            ClarificationText.id,
            Clarification.key,
            ClarificationText.language,
            ClarificationText.provenance,
        ).join(Clarification, Clarification.id == ClarificationText.clarification_id)
    ).all():
        sources[("clarification_text", tid)] = _Source(
            "clarification_text", language=lang, provenance=prov, clarification=key
        )
    for loc_id, key, lang in session.execute(
        select(CardLocalization.id, Card.key, CardLocalization.language).join(
            Card, Card.id == CardLocalization.card_id
        )
    ).all():
        sources[("card_text", loc_id)] = _Source("card_text", language=lang, card=key)
    return sources


def link_rows(
    session: Session,
    text_index: dict[int, dict[str, Any]],
    edition_keys: dict[int, str],
    exported: set[int],
) -> list[dict[str, Any]]:
    """Every link whose source and target are in the dump, in a fixed order."""
    sources = _sources(session, text_index)
    tail = (Link.kind, Link.matched, Link.resolved, Link.start, Link.end)
    rows = session.execute(
        select(Link.source_type, Link.source_id, Link.target, Link.target_edition_id, *tail).where(
            Link.target_lineage_id.is_(None)
        )
    ).all()
    # A ruling's or card's term link is stored once per rule lineage: the dump lists it in each
    # exported edition within its dates, under that edition's number (as kb.links.view reads it).
    rows += session.execute(
        select(Link.source_type, Link.source_id, Rule.number, Rule.edition_id, *tail)
        .join(Rule, Rule.lineage_id == Link.target_lineage_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(
            Rule.edition_id.in_(sorted(exported)),
            Link.first_date <= Edition.effective_date,
            Link.last_date >= Edition.effective_date,
        )
    ).all()
    out = []
    for source_type, source_id, target, target_ed, kind, matched, resolved, start, end in rows:
        if target_ed is not None and target_ed not in exported:
            continue
        source = sources.get((source_type, source_id))
        if source is None:
            continue  # its text is in an edition left out of this dump
        target_edition = edition_keys.get(target_ed) if target_ed else None
        item = {
            "source": source.as_dict(),
            "target": target,
            "target_edition": target_edition,
            "kind": kind,
            "matched": matched,
            "resolved": bool(resolved),
            "_order": (
                source_type,
                source.edition or "",
                source.clarification or source.card or "",
                sort_key(source.number) if source.number else "",
                source.language or "",
                source.provenance or "",
                source.example or 0,
                source.term or "",
                start,
                target,
                # a term link stored once per lineage is listed in each exported edition under
                # the same number: without its edition the order was the database's, which
                # PostgreSQL does not keep from one query to the next
                target_edition or "",
                kind,
                end,
                matched,
                bool(resolved),
            ),
        }
        out.append(item)
    out.sort(key=lambda i: i["_order"])
    for item in out:
        del item["_order"]
    return out

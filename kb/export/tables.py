"""The knowledge base as plain rows, for the JSON and CSV dumps (:mod:`kb.export.dump`).

Everything is read with plain Core queries (no ORM objects: a dump is tens of thousands of rows) and
written in a fixed order, so two dumps of the same database are byte-identical. Rows refer to
each other by natural keys (edition key, rule number, card key, clarification key), never by
database ids, which change from one ingest to the next. The shapes are documented in the README
and the JSON's in ``kb/schemas/export.schema.json``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.export.link_rows import link_rows
from kb.langs import PROVENANCE_ORDER
from kb.models import (
    CardClarification,
    Clarification,
    ClarificationText,
    Document,
    Edition,
    GlossaryEntry,
)
from kb.readmodel import (
    card_rows,
    card_text_rows,
    examples_by_text,
    printing_rows,
    rule_text_rows,
)

FORMAT_VERSION = 1

RULE_COLUMNS = (
    "edition",
    "language",
    "number",
    "kind",
    "parent",
    "provenance",
    "title",
    "text",
    "follows_edition",
    "follows_assumed",
)
TABLES: dict[str, tuple[str, ...]] = {
    "editions": ("key", "kind", "language", "effective_date", "source"),
    "rules": RULE_COLUMNS,
    "examples": ("edition", "language", "provenance", "number", "position", "text"),
    "glossary": (
        "edition",
        "language",
        "position",
        "term",
        "definition",
        "senses",
        "redirect",
        "obsolete",
        "provenance",
    ),
    "cards": ("key", "oracle_id", "name", "mana_value", "layout"),
    "card_names": ("card", "language", "name", "type_line", "text", "provenance"),
    "printings": ("card", "set", "number", "rarity"),
    "clarifications": ("key", "date", "source", "language", "provenance", "text"),
    "card_clarifications": ("card", "clarification"),
    "links": (
        "source_type",
        "source_edition",
        "source_language",
        "source_provenance",
        "source_number",
        "source_example",
        "source_term",
        "source_clarification",
        "source_card",
        "target",
        "target_edition",
        "kind",
        "matched",
        "resolved",
    ),
}


def _iso(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


@dataclass
class Dump:
    """Every table of the knowledge base as lists of plain rows, in their export order."""

    editions: list[dict[str, Any]] = field(default_factory=list)
    rules: list[dict[str, Any]] = field(default_factory=list)
    texts: dict[int, dict[str, Any]] = field(default_factory=dict)  # rule text id -> its row
    examples: dict[int, list[str]] = field(default_factory=dict)  # rule text id -> texts
    glossary: list[dict[str, Any]] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)
    card_names: list[dict[str, Any]] = field(default_factory=list)
    printings: list[dict[str, Any]] = field(default_factory=list)
    clarifications: list[dict[str, Any]] = field(default_factory=list)
    card_clarifications: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)


def _editions(session: Session, edition: str | None) -> list[tuple[Edition, str | None]]:
    rows = session.execute(
        select(Edition, Document.path).outerjoin(Document, Document.id == Edition.document_id)
    ).all()
    chosen = []
    for ed, path in rows:
        if edition and ed.kind == "comprules" and _iso(ed.effective_date) != edition:
            continue
        chosen.append((ed, PurePath(path).name if path else None))
    chosen.sort(
        key=lambda p: (
            p[0].kind != "comprules",
            p[0].language,
            _iso(p[0].effective_date) or "",
            p[0].key,
        )
    )
    return chosen


def collect(session: Session, edition: str | None = None) -> Dump:
    """Read the whole knowledge base (or one English edition and all translations)."""
    if edition:
        from kb.lookup import find_edition

        find_edition(session, edition)  # a clear error for an unknown date
    dump = Dump()
    editions = _editions(session, edition)
    keys = {ed.id: ed.key for ed, _ in editions}
    all_keys = dict(session.execute(select(Edition.id, Edition.key)).all())
    for ed, source in editions:
        dump.editions.append(
            {
                "key": ed.key,
                "kind": ed.kind,
                "language": ed.language,
                "effective_date": _iso(ed.effective_date),
                "source": source,
            }
        )
    text_rows = list(rule_text_rows(session, edition_ids=list(keys)))
    order = {key: index for index, key in enumerate(keys.values())}
    text_rows.sort(
        key=lambda r: (
            order[keys[r.edition_id]],
            r.sort_key,
            PROVENANCE_ORDER.get(r.provenance, 9),
            r.language,
        )
    )
    text_index: dict[int, dict[str, Any]] = {}
    for r in text_rows:
        row = {
            "edition": keys[r.edition_id],
            "language": r.language,
            "number": r.number,
            "kind": r.kind,
            "parent": r.parent_number,
            "provenance": r.provenance,
            "title": r.title,
            "text": r.body,
            "follows_edition": _iso(r.follows_date),
            "follows_assumed": r.follows_assumed if r.follows_date else False,
        }
        dump.rules.append(row)
        text_index[r.text_id] = row
    for text_id, examples in examples_by_text(session, edition_ids=list(keys)).items():
        if text_id in text_index:
            dump.examples[text_id] = examples
    dump.texts = text_index
    _glossary(session, dump, keys, order)
    _cards(session, dump)
    dump.links = link_rows(session, text_index, all_keys, set(keys))
    return dump


def _glossary(session: Session, dump: Dump, keys: dict[int, str], order: dict[str, int]) -> None:
    rows = session.execute(
        select(
            GlossaryEntry.edition_id,
            GlossaryEntry.language,
            GlossaryEntry.position,
            GlossaryEntry.term,
            GlossaryEntry.definition,
            GlossaryEntry.senses,
            GlossaryEntry.redirect,
            GlossaryEntry.obsolete,
            GlossaryEntry.provenance,
        ).where(GlossaryEntry.edition_id.in_(list(keys)))
    ).all()
    rows.sort(key=lambda r: (order[keys[r[0]]], r[1], r[2], r[3]))
    for ed_id, lang, position, term, definition, senses, redirect, obsolete, prov in rows:
        dump.glossary.append(
            {
                "edition": keys[ed_id],
                "language": lang,
                "position": position,
                "term": term,
                "definition": definition,
                "senses": [str(s) for s in senses or []],
                "redirect": redirect,
                "obsolete": bool(obsolete),
                "provenance": prov,
            }
        )


def _cards(session: Session, dump: Dump) -> None:
    cards = list(card_rows(session))
    card_keys = {cid: key for cid, key, *_ in cards}
    for _cid, key, oracle, name, mana, layout in sorted(cards, key=lambda c: c[1]):
        dump.cards.append(
            {"key": key, "oracle_id": oracle, "name": name, "mana_value": mana, "layout": layout}
        )
    locs = list(card_text_rows(session))
    for cid, lang, name, type_line, text, prov in sorted(
        locs, key=lambda r: (card_keys[r[0]], r[1])
    ):
        dump.card_names.append(
            {
                "card": card_keys[cid],
                "language": lang,
                "name": name,
                "type_line": type_line,
                "text": text,
                "provenance": prov,
            }
        )
    printings = list(printing_rows(session))
    seen: set[tuple[str, str, str]] = set()
    for cid, set_code, number, rarity in sorted(
        printings, key=lambda r: (card_keys[r[0]], r[1], _natural(r[2]), r[3])
    ):
        key = (card_keys[cid], set_code, number)
        if key not in seen:
            seen.add(key)
            dump.printings.append(
                {"card": key[0], "set": set_code, "number": number, "rarity": rarity}
            )
    clar_keys = dict(session.execute(select(Clarification.id, Clarification.key)).all())
    clars = session.execute(
        select(
            Clarification.key,
            Clarification.date,
            Clarification.source,
            ClarificationText.language,
            ClarificationText.provenance,
            ClarificationText.text,
        ).join(ClarificationText, ClarificationText.clarification_id == Clarification.id)
    ).all()
    for key, date, source, lang, prov, text in sorted(
        clars, key=lambda r: (r[1], r[0], r[3], PROVENANCE_ORDER.get(r[4], 9))
    ):
        dump.clarifications.append(
            {
                "key": key,
                "date": _iso(date),
                "source": source,
                "language": lang,
                "provenance": prov,
                "text": text,
            }
        )
    pairs = {
        (card_keys[cid], clar_keys[clid])
        for cid, clid in session.execute(
            select(CardClarification.card_id, CardClarification.clarification_id)
        ).all()
    }
    dump.card_clarifications = [{"card": c, "clarification": k} for c, k in sorted(pairs)]


def _natural(number: str) -> tuple[int, str]:
    digits = "".join(ch for ch in number if ch.isdigit())
    return (int(digits) if digits else 0, number)


def iter_table(dump: Dump, table: str) -> Iterator[dict[str, Any]]:
    """The flat rows of one CSV table."""
    if table == "rules":
        yield from dump.rules
    elif table == "examples":
        for text_id, row in dump.texts.items():
            for position, text in enumerate(dump.examples.get(text_id, []), 1):
                yield {
                    "edition": row["edition"],
                    "language": row["language"],
                    "provenance": row["provenance"],
                    "number": row["number"],
                    "position": position,
                    "text": text,
                }
    elif table == "glossary":
        for row in dump.glossary:
            yield {**row, "senses": "\n".join(row["senses"])}
    elif table == "links":
        for link in dump.links:
            source = link["source"]
            yield {
                "source_type": source["type"],
                "source_edition": source.get("edition"),
                "source_language": source.get("language"),
                "source_provenance": source.get("provenance"),
                "source_number": source.get("number"),
                "source_example": source.get("example"),
                "source_term": source.get("term"),
                "source_clarification": source.get("clarification"),
                "source_card": source.get("card"),
                "target": link["target"],
                "target_edition": link["target_edition"],
                "kind": link["kind"],
                "matched": link["matched"],
                "resolved": link["resolved"],
            }
    else:
        yield from getattr(dump, table)


def table_names(names: Sequence[str] = ()) -> list[str]:
    """Check table names (all of them by default)."""
    from kb.errors import KbUsageError

    unknown = [n for n in names if n not in TABLES]
    if unknown:
        raise KbUsageError(
            f"--table: unknown table {', '.join(unknown)} (tables: {', '.join(TABLES)})"
        )
    return list(names) or list(TABLES)

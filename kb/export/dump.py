"""``kb export json`` and ``kb export csv``: the knowledge base for other tools and bots.

JSON is one document (editions with their rules nested rule -> subrules, glossary, translation
status; cards; clarifications; links) that validates against ``kb/schemas/export.schema.json``.
CSV is one flat table per kind of row, UTF-8 with a header line. Both are deterministic.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from kb.errors import KbError
from kb.export.output import write_file
from kb.export.tables import FORMAT_VERSION, TABLES, Dump, collect, iter_table, table_names

SCHEMA_NAME = "export.schema.json"


def schema() -> dict[str, Any]:
    """The committed JSON Schema of ``kb export json``."""
    text = resources.files("kb").joinpath("schemas", SCHEMA_NAME).read_text(encoding="utf-8")
    return json.loads(text)


def _rule_nodes(dump: Dump, edition: str) -> list[dict[str, Any]]:
    """An edition's rules in document order, each rule's subrules nested under it."""
    nodes: dict[str, dict[str, Any]] = {}
    top: list[dict[str, Any]] = []
    for text_id, row in dump.texts.items():
        if row["edition"] != edition:
            continue
        node = nodes.get(row["number"])
        if node is None:
            node = {
                "number": row["number"],
                "kind": row["kind"],
                "parent": row["parent"],
                "texts": [],
            }
            if row["kind"] == "rule":
                node["subrules"] = []
            parent = nodes.get(row["parent"] or "")
            if row["kind"] == "subrule" and parent is not None and "subrules" in parent:
                parent["subrules"].append(node)
            else:
                top.append(node)
            nodes[row["number"]] = node
        node["texts"].append(
            {
                "language": row["language"],
                "provenance": row["provenance"],
                "title": row["title"],
                "text": row["text"],
                "examples": dump.examples.get(text_id, []),
                "follows_edition": row["follows_edition"],
                "follows_assumed": row["follows_assumed"],
            }
        )
    return top


def _status(session: Session, dump: Dump) -> dict[str, Any]:
    """For each translated language: which translations are current or stale today."""
    from kb.export import stages
    from kb.lookup import find_edition

    newest = find_edition(session)
    if not any(e["key"] == newest.key for e in dump.editions):
        return {}
    languages = sorted({e["language"] for e in dump.editions if e["kind"] == "translations"})
    out: dict[str, Any] = {}
    for lang in languages:
        status = stages.translation_status(session, lang, newest)
        out[lang] = {
            "edition": newest.effective_date.isoformat() if newest.effective_date else None,
            "current": sorted(
                (n for n, s in status.items() if s.get("status") == "current"), key=_order
            ),
            "stale": sorted(
                (n for n, s in status.items() if s.get("status") == "stale"), key=_order
            ),
        }
    return out


def _order(number: str) -> str:
    from kb.corpus.numbers import sort_key

    return sort_key(number)


def to_json(session: Session, edition: str | None = None) -> dict[str, Any]:
    """The knowledge base as one JSON-ready document (see the README for its shape)."""
    dump = collect(session, edition)
    glossary: dict[str, list[dict[str, Any]]] = {}
    for row in dump.glossary:
        entry = {k: v for k, v in row.items() if k != "edition"}
        glossary.setdefault(row["edition"], []).append(entry)
    names: dict[str, dict[str, Any]] = {}
    for row in dump.card_names:
        names.setdefault(row["card"], {})[row["language"]] = {
            k: row[k] for k in ("name", "type_line", "text", "provenance")
        }
    printings: dict[str, list[dict[str, Any]]] = {}
    for row in dump.printings:
        printings.setdefault(row["card"], []).append(
            {k: row[k] for k in ("set", "number", "rarity")}
        )
    by_card: dict[str, list[str]] = {}
    by_clar: dict[str, list[str]] = {}
    for pair in dump.card_clarifications:
        by_card.setdefault(pair["card"], []).append(pair["clarification"])
        by_clar.setdefault(pair["clarification"], []).append(pair["card"])
    clarifications: dict[str, dict[str, Any]] = {}
    for row in dump.clarifications:
        item = clarifications.setdefault(
            row["key"],
            {
                "key": row["key"],
                "date": row["date"],
                "source": row["source"],
                "texts": [],
                "cards": by_clar.get(row["key"], []),
            },
        )
        item["texts"].append({k: row[k] for k in ("language", "provenance", "text")})
    return {
        "format": "kb-export",
        "version": FORMAT_VERSION,
        "editions": [
            {
                **edition_row,
                "rules": _rule_nodes(dump, edition_row["key"]),
                "glossary": glossary.get(edition_row["key"], []),
            }
            for edition_row in dump.editions
        ],
        "translation_status": _status(session, dump),
        "cards": [
            {
                **card,
                "names": names.get(card["key"], {}),
                "printings": printings.get(card["key"], []),
                "clarifications": by_card.get(card["key"], []),
            }
            for card in dump.cards
        ],
        "clarifications": list(clarifications.values()),
        "links": dump.links,
    }


def write_json(session: Session, out: io.TextIOBase | Any, edition: str | None = None) -> None:
    """Write the JSON dump to a text stream (UTF-8, two-space indent, keys in a fixed order)."""
    json.dump(to_json(session, edition), out, ensure_ascii=False, indent=2)
    out.write("\n")


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def write_table(dump: Dump, table: str, out: Any) -> int:
    """Write one table as CSV to a text stream; return the number of rows."""
    writer = csv.DictWriter(out, fieldnames=TABLES[table], lineterminator="\n")
    writer.writeheader()
    count = 0
    for row in iter_table(dump, table):
        writer.writerow({k: _csv_value(row.get(k)) for k in TABLES[table]})
        count += 1
    return count


def write_csv(
    session: Session,
    out_dir: Path,
    tables: Sequence[str] = (),
    edition: str | None = None,
) -> dict[str, int]:
    """Write each table as ``<out_dir>/<table>.csv``; return the row count of each."""
    names = table_names(tables)
    dump = collect(session, edition)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KbError(f"--out: cannot create {out_dir}: {exc.strerror or exc}") from None
    counts = {}
    for name in names:
        buffer = io.StringIO(newline="")
        counts[name] = write_table(dump, name, buffer)
        write_file(out_dir / f"{name}.csv", buffer.getvalue().encode("utf-8"))
    return counts


def csv_to_stream(session: Session, table: str, out: Any, edition: str | None = None) -> int:
    """Write a single table to a stream (``kb export csv --table rules`` without ``--out``)."""
    (name,) = table_names([table])
    return write_table(collect(session, edition), name, out)

"""`kb card` on a SQLite knowledge base with the stdlib ``sqlite3`` (see kb.lookup_sqlite)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from kb.corpus.records import page_attributes
from kb.errors import NotFoundError
from kb.langs import LANGS, PROVENANCE_ORDER, fold


def _card_name(conn: sqlite3.Connection, card_id: int) -> str:
    return conn.execute("SELECT name FROM cards WHERE id = ?", (card_id,)).fetchone()[0]


def find_card(conn: sqlite3.Connection, query: str) -> int:
    """As :func:`kb.lookup.find_card`: the card's id."""
    wanted = query.strip()
    page = conn.execute("SELECT card_id FROM rulings_pages WHERE page_id = ?", (wanted,)).fetchone()
    if page is not None and page[0] is not None:
        return int(page[0])
    card = conn.execute(
        'SELECT id FROM cards WHERE oracle_id = ? OR "key" = ?', (wanted, wanted)
    ).fetchone()
    if card is not None:
        return int(card[0])
    named = [
        cid
        for (cid,) in conn.execute(
            "SELECT card_id FROM card_localizations WHERE name = ? "
            "UNION SELECT id FROM cards WHERE name = ?",
            (wanted, wanted),
        )
    ]
    if len(set(named)) == 1:
        return int(named[0])
    folded = fold(wanted)
    # The folded names are stored (migration 0009): one indexed look-up, and a scan of the
    # folded names (in SQLite, not Python) only when no name folds to exactly this.
    exact = _cards_folded(conn, "folded_name = ?", folded)
    if len(exact) == 1:
        return int(exact[0])
    partial = (
        _cards_folded(conn, "instr(folded_name, ?) > 0", folded) if folded and not exact else []
    )
    if len(exact) > 1 or len(partial) > 1:
        labels = sorted({_card_name(conn, cid) for cid in exact or partial})
        shown = ", ".join(labels[:10]) + (" …" if len(labels) > 10 else "")
        raise NotFoundError(f"{query!r} matches {len(labels)} cards: {shown}")
    if len(partial) == 1:
        return int(partial[0])
    raise NotFoundError(f"no card named {query!r} (nor with that oracle id or rulings page id)")


def _cards_folded(conn: sqlite3.Connection, condition: str, folded: str) -> list[int]:
    """The ids of the cards with a name in some language whose folded form meets the condition."""
    return sorted(
        {
            cid
            for (cid,) in conn.execute(
                f"SELECT card_id FROM card_localizations WHERE {condition} "
                f"UNION SELECT id FROM cards WHERE {condition}",
                (folded, folded),
            )
        }
    )


def _json(value: str | None) -> Any:
    return None if value is None else json.loads(value)


def card_view(conn: sqlite3.Connection, query: str) -> dict[str, Any]:
    """As :func:`kb.lookup.card_view`."""
    card_id = find_card(conn, query)
    key, oracle_id, name, mana_value, mana_cost, details, legalities, layout, faces = conn.execute(
        'SELECT "key", oracle_id, name, mana_value, mana_cost, face_details, legalities, '
        "layout, faces FROM cards WHERE id = ?",
        (card_id,),
    ).fetchone()
    locs = {
        lang: (loc_name, type_line, text)
        for lang, loc_name, type_line, text in conn.execute(
            "SELECT language, name, type_line, text FROM card_localizations WHERE card_id = ? "
            "ORDER BY id",
            (card_id,),
        )
    }
    pages = conn.execute(
        "SELECT page_id, language, recognised, attributes FROM rulings_pages WHERE card_id = ? "
        "ORDER BY page_id",
        (card_id,),
    ).fetchall()
    printings = sorted(
        set(conn.execute("SELECT set_code, number FROM printings WHERE card_id = ?", (card_id,)))
    )
    attributes = page_attributes([_json(page[3]) for page in pages], mana_value)
    return {
        "key": key,
        "oracle_id": oracle_id,
        "name": name,
        "names": {lang: locs[lang][0] for lang in LANGS if lang in locs},
        "type_lines": {lang: locs[lang][1] for lang in LANGS if lang in locs},
        "texts": {lang: locs[lang][2] for lang in LANGS if lang in locs},
        "mana_value": mana_value,
        "mana_cost": mana_cost,
        "face_details": [dict(d) for d in _json(details) or []],
        "legalities": dict(sorted((_json(legalities) or {}).items())),
        "layout": layout,
        "faces": list(_json(faces) or []),
        "attributes": attributes,
        "printings": [{"set": s, "number": n} for s, n in printings],
        "rulings_pages": [
            {"page_id": p, "language": lang, "recognised": bool(recognised)}
            for p, lang, recognised, _ in pages
        ],
        "rulings": clarifications_of(conn, card_id),
    }


def clarifications_of(conn: sqlite3.Connection, card_id: int) -> list[dict[str, Any]]:
    """As :func:`kb.lookup.clarifications_of`."""
    rows = conn.execute(
        "SELECT c.id, c.date, c.source, t.language, t.text, t.provenance FROM clarifications c "
        "LEFT JOIN clarification_texts t ON t.clarification_id = c.id WHERE c.id IN "
        "(SELECT clarification_id FROM card_clarifications WHERE card_id = ?) ORDER BY c.id, t.id",
        (card_id,),
    ).fetchall()
    found: dict[int, dict[str, Any]] = {}
    for cid, date, source, language, text, provenance in rows:
        item = found.setdefault(cid, {"id": cid, "date": date, "source": source, "all": []})
        if language is not None:
            item["all"].append((language, text, provenance))
    for item in found.values():
        first = sorted(item["all"], key=lambda t: (t[0] != "en", t[0]))
        item["first"] = first[0][1] if first else ""
    ordered = sorted(found.values(), key=lambda c: (c["date"], c["first"], c["id"]))
    return [
        {
            "id": c["id"],
            "date": c["date"],
            "source": c["source"],
            "texts": {
                language: {"text": text, "provenance": provenance}
                for language, text, provenance in sorted(
                    c["all"],
                    key=lambda t: (t[0], PROVENANCE_ORDER.get(t[2], 9)),
                    reverse=True,
                )
            },
        }
        for c in ordered
    ]

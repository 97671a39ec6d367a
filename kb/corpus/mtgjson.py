"""MTGJSON set files (``KHM.json``, ``CN2.json``): one CardRecord per oracle identity.

``{"meta": {...}, "data": {"name", "code", "releaseDate", "cards": [...], "tokens": [...]}}``

Decisions this module makes (see FORMATS.md section 4):

- Cards are grouped by ``identifiers.scryfallOracleId``: every printing and every face of one
  card shares it. A card without one is keyed ``name:<name>`` (its full ``A // B`` name), which
  is stable across files and cannot collide with a UUID.
- Faces are ordered by ``side`` (``a``, ``b``, …) and joined with `` // `` for names, texts and
  type lines. The mana value is the front face's (``manaValue``, else ``convertedManaCost``):
  MTGJSON 5.2 gives a modal DFC's back face its own value, but the card's is the front's.
- A printing is one (set, collector number); its ``uuid`` is the front face's.
- French and Spanish come from ``foreignData`` (English from the card itself). A language is
  kept only when every face has a name in it, so no half-translated ``A // ?`` name is stored;
  its text and type line likewise need every face (a vanilla card has no text in any language).
- Rulings are Wizards' (``source='wotc'``, English, ``official``), deduplicated per card since
  every printing repeats them; ``line`` is 0, JSON positions mean nothing to a reader.
- Tokens and Alchemy rebalanced (``A-``) cards: tokens are ignored (no oracle rulings to link,
  not cards a rulings page describes); ``A-`` cards have their own oracle ids and are kept as
  the distinct Arena cards they are.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from kb.errors import ParseError

from .records import CardRecord, CardSetDocument, PrintingRecord, RulingRecord

FOREIGN_LANGS = {"French": "fr", "Spanish": "es"}
_UUID_KEY = re.compile(r'"uuid"\s*:\s*"(?P<uuid>[^"]*)"')


class _BadCard(ValueError):
    """A card whose fields cannot be read; parse() turns it into a ParseError at the card."""


def looks_like(text: str) -> bool:
    """Cheap sniffing: a JSON object (the parser then says whether it is an MTGJSON set)."""
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def parse(text: str, path: str = "<text>") -> CardSetDocument:
    """Parse an MTGJSON set file; raise ParseError with the JSON error's line or the card's."""
    try:
        document = json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as error:
        raise ParseError(
            path, error.lineno, f"invalid JSON: {error.msg} (column {error.colno})"
        ) from None
    except RecursionError:
        raise ParseError(path, 1, "invalid JSON: nested too deeply") from None
    data = document.get("data") if isinstance(document, dict) else None
    if not isinstance(data, dict):
        raise ParseError(path, 1, 'not an MTGJSON set file: no "data" object')
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise ParseError(path, 1, 'not an MTGJSON set file: no "data.cards" list')
    code, name = data.get("code"), data.get("name")
    if not isinstance(code, str) or not code or not isinstance(name, str):
        raise ParseError(path, 1, 'MTGJSON set file without "data.code" or "data.name"')
    release = data.get("releaseDate")
    release_date = _iso_date(release, path, 1, "releaseDate") if release is not None else None
    groups: dict[str, list[dict[str, Any]]] = {}
    for index, card in enumerate(cards):
        _check_card(card, index, text, path)
        oracle_id = (card.get("identifiers") or {}).get("scryfallOracleId")
        key = oracle_id if isinstance(oracle_id, str) and oracle_id else f"name:{card['name']}"
        groups.setdefault(key, []).append(card)
    document_cards = []
    for key, entries in groups.items():
        try:
            document_cards.append(_card(key, entries))
        except _BadCard as error:
            line = _card_line(text, entries[0].get("uuid"))
            raise ParseError(path, line, f"card {entries[0]['name']!r}: {error}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            # JSON is untyped: a field of an unexpected type is still the file's fault.
            line = _card_line(text, entries[0].get("uuid"))
            raise ParseError(
                path, line, f"card {entries[0]['name']!r}: unexpected value ({error!r})"
            ) from None
    return CardSetDocument(code=code, name=name, release_date=release_date, cards=document_cards)


def _check_card(card: Any, index: int, text: str, path: str) -> None:
    """Check the fields grouping relies on, so later errors can name the card."""
    if not isinstance(card, dict):
        raise ParseError(path, 1, f"card #{index} is not a JSON object")
    uuid = card.get("uuid")
    if not isinstance(card.get("name"), str) or not card["name"].strip():
        raise ParseError(path, _card_line(text, uuid), f"card #{index} (uuid {uuid}) has no name")
    if not isinstance(card.get("identifiers") or {}, dict):
        raise ParseError(
            path, _card_line(text, uuid), f"card {card['name']!r}: identifiers is not an object"
        )


def _card(key: str, entries: list[dict[str, Any]]) -> CardRecord:
    """Merge every printing and face of one oracle identity into one record."""
    faces = _faces(entries)
    front = faces[0][1][0]
    face_names = [face for face, _ in faces] if len(faces) > 1 or front.get("faceName") else []
    mana_value = front.get("manaValue")
    if mana_value is None:
        mana_value = front.get("convertedManaCost")
    if isinstance(mana_value, bool) or not isinstance(mana_value, int | float):
        raise _BadCard("no numeric manaValue or convertedManaCost")
    record = CardRecord(
        oracle_id=key,
        name=front["name"],
        mana_value=float(mana_value),
        layout=str(front.get("layout", "")),
        faces=face_names,
    )
    record.names["en"] = front["name"]
    _put(record.texts, "en", [face[0].get("text") for _, face in faces])
    _put(record.type_lines, "en", [face[0].get("type") for _, face in faces])
    for language, lang in FOREIGN_LANGS.items():
        foreign = [_foreign(printings, language) for _, printings in faces]
        if any(entry is None or not entry.get("name") for entry in foreign):
            continue
        record.names[lang] = " // ".join(str(entry["name"]) for entry in foreign if entry)
        _put(record.texts, lang, [entry.get("text") for entry in foreign if entry])
        _put(record.type_lines, lang, [entry.get("type") for entry in foreign if entry])
    record.printings = _printings(entries)
    record.rulings = _rulings(entries)
    record.face_details = [_face_detail(name, face[0]) for name, face in faces]
    record.mana_cost = " // ".join(
        d["mana_cost"] for d in record.face_details if d.get("mana_cost")
    )
    record.legalities = _legalities(front)
    return record


# The per-face fields a card page shows; MTGJSON gives each as a string when the face has it.
FACE_FIELDS = {
    "manaCost": "mana_cost",
    "type": "type_line",
    "text": "text",
    "power": "power",
    "toughness": "toughness",
    "loyalty": "loyalty",
    "defense": "defense",
}


def _face_detail(name: str, face: dict[str, Any]) -> dict[str, str]:
    """One face's English mana cost, type line, text and numbers (only those it has)."""
    detail = {"name": name}
    for source, target in FACE_FIELDS.items():
        value = face.get(source)
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str) and value:
            detail[target] = value
    return detail


def _legalities(front: dict[str, Any]) -> dict[str, str]:
    """Format -> status (``Legal``, ``Banned``...) as MTGJSON gives it, in format order."""
    legalities = front.get("legalities") or {}
    if not isinstance(legalities, dict):
        raise _BadCard("legalities is not an object")
    return {
        str(fmt): str(status)
        for fmt, status in sorted(legalities.items())
        if isinstance(status, str) and status
    }


def _faces(entries: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Return (face name, entries of that face) in side order; one face for single-faced cards."""
    by_side: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        by_side.setdefault(str(entry.get("side") or ""), []).append(entry)
    return [
        (str(group[0].get("faceName") or group[0]["name"]), group)
        for _, group in sorted(by_side.items())
    ]


def _foreign(printings: list[dict[str, Any]], language: str) -> dict[str, Any] | None:
    """Return the first foreignData entry in a language among a face's printings."""
    for printing in printings:
        for entry in printing.get("foreignData") or ():
            if isinstance(entry, dict) and entry.get("language") == language:
                return entry
    return None


def _put(target: dict[str, str], lang: str, parts: list[Any]) -> None:
    """Store faces' values joined with `` // `` when every face has one."""
    if parts and all(isinstance(part, str) and part for part in parts):
        target[lang] = " // ".join(parts)


def _printings(entries: list[dict[str, Any]]) -> list[PrintingRecord]:
    """One printing per (set, collector number) in file order, with the front face's uuid."""
    printings: dict[tuple[str, str], PrintingRecord] = {}
    sides: dict[tuple[str, str], str] = {}
    for entry in entries:
        where = (str(entry.get("setCode", "")), str(entry.get("number", "")))
        side = str(entry.get("side") or "")
        if where not in printings or side < sides[where]:
            sides[where] = side
            printings[where] = PrintingRecord(
                set_code=where[0],
                number=where[1],
                uuid=str(entry.get("uuid", "")),
                rarity=str(entry.get("rarity", "")),
            )
    return list(printings.values())


def _rulings(entries: list[dict[str, Any]]) -> list[RulingRecord]:
    """Wizards' rulings of a card, each once although every printing and face repeats them."""
    seen: set[tuple[str, str]] = set()
    rulings: list[RulingRecord] = []
    for entry in entries:
        for ruling in entry.get("rulings") or ():
            date, text = ruling.get("date"), ruling.get("text")
            if not isinstance(text, str) or not text.strip():
                raise _BadCard(f"ruling of {date} has no text")
            if (str(date), text) in seen:
                continue
            seen.add((str(date), text))
            try:
                when = dt.date.fromisoformat(str(date))
            except ValueError:
                raise _BadCard(f"ruling date {date!r} is not an ISO date (YYYY-MM-DD)") from None
            rulings.append(
                RulingRecord(
                    date=when, source="wotc", texts={"en": text}, provenance={"en": "official"}
                )
            )
    return rulings


def _iso_date(value: Any, path: str, line: int, what: str) -> dt.date:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ParseError(path, line, f"{what} {value!r} is not an ISO date (YYYY-MM-DD)") from None


def _card_line(text: str, uuid: Any) -> int:
    """The line of a card's ``"uuid"`` key: computed only for errors, as it scans the text."""
    if isinstance(uuid, str) and uuid:
        for match in _UUID_KEY.finditer(text):
            if match["uuid"] == uuid:
                return text.count("\n", 0, match.start()) + 1
    return 1


__all__ = ["FOREIGN_LANGS", "looks_like", "parse"]

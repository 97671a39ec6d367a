"""MTGJSON set files (``KHM.json``) and AllPrintings: one CardRecord per oracle identity and set.

``{"meta": {...}, "data": {"name", "code", "releaseDate", "cards": [...], "tokens": [...]}}`` is a
set file; ``{"meta": {...}, "data": {"KHM": {set}, "STX": {set}, …}}`` is AllPrintings (574 sets,
226 MB): ``iter_sets`` reads either as a stream (kb.corpus.mtgjson_stream), one set at a time.

Decisions this module makes (see FORMATS.md section 4):

- Cards are grouped by ``identifiers.scryfallOracleId``: every printing and every face of one
  card shares it. A printing without one (ten Secret Lair reversible cards of AllPrintings)
  cannot be told apart from another card of the same name: it is skipped with a warning.
- A defective record inside a good document is skipped with a ``ParseWarning`` naming the set,
  the card and the field (an empty ruling, a ruling date that is not ISO, a card without a
  name or a numeric mana value), so one empty ruling no longer drops STX and PSTX whole. Only
  the document's own shape (no ``data``, a set without code or cards, bad JSON) is an error.
- Faces are ordered by ``side`` (``a``, ``b``, …) and joined with `` // `` for names, texts and
  type lines. The mana value is the front face's (``manaValue``, else ``convertedManaCost``):
  MTGJSON 5.2 gives a modal DFC's back face its own value, but the card's is the front's.
- A printing is one (set, collector number); its ``uuid`` is the front face's.
- French and Spanish come from ``foreignData`` (English from the card itself). A language is
  kept only when every face has a name in it, so no half-translated ``A // ?`` name is stored;
  its text and type line likewise need every face (a vanilla card has no text in any language).
- ``keywords`` (MTGJSON's keyword abilities and actions of a face) are merged over every face
  and printing, sorted: the terminology stage learns their French and Spanish names from them.
- Rulings are Wizards' (``source='wotc'``, English, ``official``), deduplicated per card since
  every printing repeats them; ``line`` is 0, JSON positions mean nothing to a reader.
- Tokens and Alchemy rebalanced (``A-``) cards: tokens are ignored (no oracle rulings to link,
  not cards a rulings page describes); ``A-`` cards have their own oracle ids and are kept as
  the distinct Arena cards they are.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from kb.errors import ParseError

from .records import CardRecord, CardSetDocument, ParseWarning, PrintingRecord, RulingRecord

FOREIGN_LANGS = {"French": "fr", "Spanish": "es"}


class _BadCard(ValueError):
    """A card whose fields cannot be read; set_document() skips it with a warning."""


def looks_like(text: str) -> bool:
    """Cheap sniffing: a JSON object (the parser then says whether it is an MTGJSON set)."""
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def parse(text: str, path: str = "<text>") -> CardSetDocument:
    """Parse an MTGJSON set file; raise ParseError with the JSON error's line or the set's.

    An AllPrintings text (several sets) is refused here: ``iter_sets`` streams it set by set.
    """
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
    if "cards" not in data and data and all(is_set(value) for value in data.values()):
        raise ParseError(
            path, 1, f"an AllPrintings file of {len(data)} sets: ingest it (it is read as a stream)"
        )
    return set_document(data, path)


def is_set(value: Any) -> bool:
    """Tell whether a value of AllPrintings' ``data`` object is a set (it has a cards list)."""
    return isinstance(value, dict) and isinstance(value.get("cards"), list)


def set_document(data: dict[str, Any], path: str) -> CardSetDocument:
    """Build one set's document from its decoded ``data`` object; skip defective cards."""
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise ParseError(path, 1, 'not an MTGJSON set file: no "data.cards" list')
    code, name = data.get("code"), data.get("name")
    if not isinstance(code, str) or not code or not isinstance(name, str):
        raise ParseError(path, 1, 'MTGJSON set file without "data.code" or "data.name"')
    release = data.get("releaseDate")
    release_date = _iso_date(release, path, 1, "releaseDate") if release is not None else None
    document = CardSetDocument(code=code, name=name, release_date=release_date)
    groups: dict[str, list[dict[str, Any]]] = {}
    for index, card in enumerate(cards):
        key = _card_key(card, index, document)
        if key is not None:
            groups.setdefault(key, []).append(card)
    for key, entries in groups.items():
        label = f"{code} {entries[0]['name']!r}"
        try:
            document.cards.append(_card(key, entries, document.warnings, label))
        except _BadCard as error:
            _warn(document, "bad_card", f"{label}: {error}: the card is skipped")
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            # JSON is untyped: a field of an unexpected type is a defect of that card only.
            _warn(
                document, "bad_card", f"{label}: unexpected value ({error!r}): the card is skipped"
            )
    return document


def _warn(document: CardSetDocument, kind: str, message: str) -> None:
    document.warnings.append(ParseWarning(line=0, kind=kind, message=message))


def _card_key(card: Any, index: int, document: CardSetDocument) -> str | None:
    """The oracle id a card entry is grouped by, or None (with a warning) to skip it."""
    where = f"{document.code} card #{index}"
    if not isinstance(card, dict):
        _warn(document, "bad_card", f"{where} is not a JSON object: skipped")
        return None
    uuid = card.get("uuid")
    if not isinstance(card.get("name"), str) or not card["name"].strip():
        _warn(document, "bad_card", f"{where} (uuid {uuid}) has no name: skipped")
        return None
    identifiers = card.get("identifiers") or {}
    if not isinstance(identifiers, dict):
        _warn(
            document, "bad_card", f"{where} {card['name']!r}: identifiers is not an object: skipped"
        )
        return None
    oracle_id = identifiers.get("scryfallOracleId")
    if not isinstance(oracle_id, str) or not oracle_id:
        _warn(
            document,
            "no_oracle_id",
            f"{document.code} {card['name']!r} (number {card.get('number', '?')}, uuid {uuid}): "
            "no identifiers.scryfallOracleId: the printing is skipped",
        )
        return None
    return oracle_id


def _card(
    key: str, entries: list[dict[str, Any]], warnings: list[ParseWarning], label: str
) -> CardRecord:
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
        record.names[lang] = _foreign_name([entry for entry in foreign if entry])
        _put(record.texts, lang, [entry.get("text") for entry in foreign if entry])
        _put(record.type_lines, lang, [entry.get("type") for entry in foreign if entry])
    record.printings = _printings(entries)
    record.rulings = _rulings(entries, warnings, label)
    record.keywords = _keywords(entries)
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


def _keywords(entries: list[dict[str, Any]]) -> list[str]:
    """MTGJSON's ``keywords`` of every face and printing, once each, sorted."""
    found: set[str] = set()
    for entry in entries:
        keywords = entry.get("keywords") or []
        if not isinstance(keywords, list):
            raise _BadCard("keywords is not a list")
        found.update(k.strip() for k in keywords if isinstance(k, str) and k.strip())
    return sorted(found)


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


def _foreign_name(faces: list[dict[str, Any]]) -> str:
    """A card's name in a language from its faces' entries, each face once.

    Newer MTGJSON gives every face's foreign entry the whole name (``A // B``) and the face's own
    in ``faceName``: joining the names would print ``A // B // A // B``.
    """
    names = [str(entry.get("faceName") or entry["name"]) for entry in faces]
    if len(names) > 1 and len(set(names)) == 1 and " // " in names[0]:
        return names[0]
    return " // ".join(names)


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


def _rulings(
    entries: list[dict[str, Any]], warnings: list[ParseWarning], label: str
) -> list[RulingRecord]:
    """Wizards' rulings of a card, each once although every printing and face repeats them.

    A ruling without text or with a date that is not ISO is skipped with one warning (not one
    per printing that repeats it).
    """
    seen: set[tuple[str, str]] = set()
    rulings: list[RulingRecord] = []
    for entry in entries:
        for ruling in entry.get("rulings") or ():
            if not isinstance(ruling, dict):
                raise _BadCard(f"a ruling is not a JSON object ({ruling!r})")
            date, text = ruling.get("date"), ruling.get("text")
            if (str(date), str(text)) in seen:
                continue
            seen.add((str(date), str(text)))
            if not isinstance(text, str) or not text.strip():
                message = f"{label}: ruling of {date} has no text: the ruling is skipped"
                warnings.append(ParseWarning(line=0, kind="empty_ruling", message=message))
                continue
            try:
                when = dt.date.fromisoformat(str(date))
            except ValueError:
                message = (
                    f"{label}: ruling date {date!r} is not an ISO date (YYYY-MM-DD): "
                    "the ruling is skipped"
                )
                warnings.append(ParseWarning(line=0, kind="bad_ruling_date", message=message))
                continue
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


__all__ = ["FOREIGN_LANGS", "is_set", "looks_like", "parse", "set_document"]

"""Card data -> rows, a set at a time: Core statements over whole sets, state kept in dicts.

AllPrintings is 574 sets and ~100,000 card printings; the ORM unit of work spent most of a full
ingest tracking one ``Card`` and ``CardLocalization`` object at a time and asking for each card's
rulings separately. Here a set costs a handful of statements: one lookup of the cards (and their
names and rulings) the document has not seen yet, one multi-row insert per table, and one
``executemany`` update for the rows whose values really changed. What the document already
wrote is remembered in dicts, so a card printed in 60 sets is looked up once, and a later set
updates it only when its values differ (the last set printing a card wins, as before).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import and_, bindparam, insert, select, update
from sqlalchemy.orm import Session

from kb.bulk import chunks, insert_many, insert_returning_ids
from kb.corpus.records import CardRecord, CardSetDocument, ParseWarning, RulingRecord
from kb.langs import fold, normalize_typography
from kb.models import (
    Card,
    CardClarification,
    CardLocalization,
    CardSet,
    Clarification,
    ClarificationText,
    Document,
    Printing,
)

_IN_CHUNK = 5000  # values per IN (...) list: far below SQLite's and PostgreSQL's limits
_CARD_FIELDS = (
    "name",
    "mana_value",
    "layout",
    "faces",
    "keywords",
    "mana_cost",
    "face_details",
    "legalities",
)
_cards = Card.__table__
_locs = CardLocalization.__table__
_texts = ClarificationText.__table__


def clarification_key(ruling: RulingRecord) -> str:
    """Content address of a ruling: its date and its original text, typography normalised."""
    lang = "en" if "en" in ruling.texts else sorted(ruling.texts)[0]
    text = normalize_typography(ruling.texts[lang]).casefold()
    return hashlib.sha256(f"{ruling.date.isoformat()}|{lang}|{text}".encode()).hexdigest()[:40]


class Clarifications:
    """Finds or creates shared clarification rows for the rulings of one document."""

    def __init__(self, session: Session, origin: str) -> None:
        self.session = session
        self.origin = origin
        # AllPrintings repeats a card's rulings in every set it is printed in: ask once.
        self.known: dict[str, int] = {}
        self.texts_done: set[int] = set()
        self._keys: dict[tuple[Any, ...], str] = {}

    def _key(self, ruling: RulingRecord) -> str:
        cache = (ruling.date, tuple(sorted(ruling.texts.items())))
        key = self._keys.get(cache)
        if key is None:
            key = self._keys[cache] = clarification_key(ruling)
        return key

    def ensure(self, rulings: Sequence[RulingRecord]) -> list[int]:
        """Return the clarification id of each ruling, creating rows and texts as needed."""
        keys = [self._key(r) for r in rulings]
        found = self.known
        unknown = {k for k in keys if k not in found}
        for chunk in chunks(sorted(unknown), _IN_CHUNK):
            found.update(
                self.session.execute(
                    select(Clarification.key, Clarification.id).where(Clarification.key.in_(chunk))
                ).all()
            )
        missing: dict[str, RulingRecord] = {}
        for key, ruling in zip(keys, rulings, strict=True):
            if key not in found:
                missing.setdefault(key, ruling)
        if missing:
            new_ids = insert_returning_ids(
                self.session,
                Clarification,
                [{"key": k, "date": r.date, "source": r.source} for k, r in missing.items()],
            )
            found.update(zip(missing, new_ids, strict=True))
        ids = [found[k] for k in keys]
        todo = [(i, r) for i, r in zip(ids, rulings, strict=True) if i not in self.texts_done]
        if todo:
            # Rows made just now have no texts yet: nothing to look up for them.
            fresh = {found[k] for k in missing}
            self._ensure_texts([i for i, _ in todo], [r for _, r in todo], fresh)
            self.texts_done.update(i for i, _ in todo)
        return ids

    def _ensure_texts(
        self, ids: list[int], rulings: Sequence[RulingRecord], fresh: set[int]
    ) -> None:
        existing: dict[tuple[int, str, str], tuple[int, str]] = {}
        for chunk in chunks(sorted(set(ids) - fresh), _IN_CHUNK):
            for row in self.session.execute(
                select(
                    _texts.c.id,
                    _texts.c.clarification_id,
                    _texts.c.language,
                    _texts.c.provenance,
                    _texts.c.origin,
                ).where(_texts.c.clarification_id.in_(chunk))
            ):
                existing[(row.clarification_id, row.language, row.provenance)] = (
                    row.id,
                    row.origin,
                )
        rows: dict[tuple[int, str, str], dict[str, Any]] = {}
        updates: dict[int, dict[str, Any]] = {}
        for clar_id, ruling in zip(ids, rulings, strict=True):
            for lang, text in ruling.texts.items():
                provenance = ruling.provenance.get(lang, "official" if lang == "en" else "machine")
                key = (clar_id, lang, provenance)
                current = existing.get(key)
                if current is None:
                    rows.setdefault(
                        key,
                        {
                            "clarification_id": clar_id,
                            "language": lang,
                            "text": text,
                            "provenance": provenance,
                            "origin": self.origin,
                        },
                    )
                elif self.origin == "mtgjson" and current[1] != "mtgjson":
                    # Wizards' own typography (curly quotes) wins over a page's straight ones.
                    updates.setdefault(current[0], {"b_id": current[0], "b_text": text})
        insert_many(self.session, ClarificationText, list(rows.values()))
        if updates:
            self.session.execute(
                update(_texts)
                .where(_texts.c.id == bindparam("b_id"))
                .values(text=bindparam("b_text"), origin=self.origin),
                list(updates.values()),
            )


def link_rows(doc: Document, card_id: int, clar_ids: list[int]) -> list[dict[str, Any]]:
    """The card_clarifications rows of one card's rulings, each clarification once."""
    seen: set[int] = set()
    rows = []
    for position, clar_id in enumerate(clar_ids):
        if clar_id not in seen:
            seen.add(clar_id)
            rows.append(
                {
                    "card_id": card_id,
                    "clarification_id": clar_id,
                    "document_id": doc.id,
                    "position": position,
                }
            )
    return rows


def _card_values(record: CardRecord) -> tuple[Any, ...]:
    """A card's stored values, in ``_CARD_FIELDS`` order, as the database returns them."""
    return (
        record.name,
        record.mana_value,
        record.layout,
        list(record.faces),
        list(record.keywords),
        record.mana_cost or None,
        [dict(d) for d in record.face_details] or None,
        dict(record.legalities) or None,
    )


class CardSetLoader:
    """Loads the sets of one MTGJSON document, remembering what it wrote across sets."""

    def __init__(self, session: Session, doc: Document) -> None:
        self.session = session
        self.doc = doc
        self.clarifications = Clarifications(session, "mtgjson")
        self.cards: dict[str, tuple[int, tuple[Any, ...]]] = {}  # key -> (id, values)
        self.locs: dict[tuple[int, str], tuple[str, str, str]] = {}  # (card, lang) -> values
        self.locs_known: set[int] = set()  # cards whose localizations are in self.locs
        self.linked: set[tuple[int, int]] = set()

    def load(self, parsed: CardSetDocument) -> None:
        """Load one set: cards by oracle id, their names and texts, printings and rulings."""
        wanted: dict[str, tuple[Any, ...]] = {}
        for record in parsed.cards:
            wanted[record.oracle_id] = _card_values(record)
        self._cards(wanted)
        self.session.execute(
            insert(CardSet.__table__).values(
                code=parsed.code,
                name=parsed.name,
                release_date=parsed.release_date,
                document_id=self.doc.id,
            )
        )
        ids = {key: self.cards[key][0] for key in wanted}
        self._localizations(parsed.cards, ids)
        printing_rows: list[dict[str, Any]] = []
        rulings: list[RulingRecord] = []
        for record in parsed.cards:
            printing_rows.extend(
                {
                    "card_id": ids[record.oracle_id],
                    "set_code": p.set_code,
                    "number": p.number,
                    "uuid": p.uuid,
                    "rarity": p.rarity,
                    "document_id": self.doc.id,
                }
                for p in record.printings
            )
            rulings.extend(record.rulings)
        insert_many(self.session, Printing, printing_rows)
        clar_ids = self.clarifications.ensure(rulings) if rulings else []
        links: list[dict[str, Any]] = []
        start = 0
        for record in parsed.cards:
            card_id = ids[record.oracle_id]
            own = clar_ids[start : start + len(record.rulings)]
            start += len(record.rulings)
            for row in link_rows(self.doc, card_id, own):
                if (card_id, row["clarification_id"]) not in self.linked:
                    self.linked.add((card_id, row["clarification_id"]))
                    links.append(row)
        insert_many(self.session, CardClarification, links)

    def _cards(self, wanted: dict[str, tuple[Any, ...]]) -> None:
        """Insert the set's new cards and update those whose values changed."""
        unknown = [key for key in wanted if key not in self.cards]
        columns = [_cards.c[name] for name in _CARD_FIELDS]
        for chunk in chunks(unknown, _IN_CHUNK):
            for row in self.session.execute(
                select(_cards.c.id, _cards.c.key, *columns).where(_cards.c.key.in_(chunk))
            ):
                self.cards[row.key] = (row.id, tuple(row[2:]))
        new = [key for key in unknown if key not in self.cards]
        if new:
            rows = [
                {
                    "key": key,
                    "oracle_id": key,
                    "folded_name": fold(wanted[key][0]),
                    **dict(zip(_CARD_FIELDS, wanted[key], strict=True)),
                }
                for key in new
            ]
            for key, card_id in zip(
                new, insert_returning_ids(self.session, Card, rows), strict=True
            ):
                self.cards[key] = (card_id, wanted[key])
                self.locs_known.add(card_id)  # a new card has no names yet
        changed = []
        for key, values in wanted.items():
            card_id, stored = self.cards[key]
            if stored != values:
                self.cards[key] = (card_id, values)
                changed.append(
                    {
                        "b_id": card_id,
                        "folded_name": fold(values[0]),
                        **dict(zip(_CARD_FIELDS, values, strict=True)),
                    }
                )
        if changed:
            self.session.execute(
                update(_cards)
                .where(_cards.c.id == bindparam("b_id"))
                .values({name: bindparam(name) for name in (*_CARD_FIELDS, "folded_name")}),
                changed,
            )

    def _localizations(self, records: Sequence[CardRecord], ids: dict[str, int]) -> None:
        """Insert the names and texts the set's cards lack; update those that changed."""
        unknown = sorted({ids[r.oracle_id] for r in records} - self.locs_known)
        for chunk in chunks(unknown, _IN_CHUNK):
            for row in self.session.execute(
                select(
                    _locs.c.card_id, _locs.c.language, _locs.c.name, _locs.c.type_line, _locs.c.text
                ).where(_locs.c.card_id.in_(chunk))
            ):
                self.locs[(row.card_id, row.language)] = (row.name, row.type_line, row.text)
        self.locs_known.update(unknown)
        wanted: dict[tuple[int, str], tuple[str, str, str]] = {}
        for record in records:
            card_id = ids[record.oracle_id]
            for lang, name in record.names.items():
                wanted[(card_id, lang)] = (
                    name,
                    record.type_lines.get(lang, ""),
                    record.texts.get(lang, ""),
                )
        new: list[dict[str, Any]] = []
        changed: list[dict[str, Any]] = []
        for (card_id, lang), values in wanted.items():
            stored = self.locs.get((card_id, lang))
            if stored == values:
                continue
            row = {
                "name": values[0],
                "folded_name": fold(values[0]),
                "type_line": values[1],
                "text": values[2],
            }
            if stored is None:
                new.append({"card_id": card_id, "language": lang, "provenance": "official", **row})
            else:
                changed.append({"b_card": card_id, "b_lang": lang, **row})
            self.locs[(card_id, lang)] = values
        insert_many(self.session, CardLocalization, new)
        if changed:
            self.session.execute(
                update(_locs)
                .where(
                    and_(
                        _locs.c.card_id == bindparam("b_card"),
                        _locs.c.language == bindparam("b_lang"),
                    )
                )
                .values(
                    name=bindparam("name"),
                    folded_name=bindparam("folded_name"),
                    type_line=bindparam("type_line"),
                    text=bindparam("text"),
                ),
                changed,
            )


def load_card_sets(
    session: Session, doc: Document, sets: Iterable[CardSetDocument]
) -> list[ParseWarning]:
    """Load the sets of one MTGJSON document (a set file, or AllPrintings' 574) one at a time.

    Cards are shared by oracle id across sets; a card's rulings are linked once per document
    however many sets print it. Returns the warnings of every set, for the document to store.
    """
    loader = CardSetLoader(session, doc)
    warnings: list[ParseWarning] = []
    for parsed in sets:
        loader.load(parsed)
        warnings.extend(parsed.warnings)
    return warnings

"""The cards the site shows, read in two passes so that memory stays flat in the number of cards.

Every card list, set page and shared ruling needs a few facts of every card (its key, names,
printings, the rulings it carries): :func:`card_index` reads those for all cards at once, in a
few bulk queries. What only the card's own page shows (texts, faces, legalities, rulings with
their texts) is read by :func:`card_details` for one batch of cards at a time, so a build of
all of MTGJSON holds a batch of full cards in memory, never all of them. A full card is its
index entry with the details added: the page builders read the same keys either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.bulk import chunks
from kb.corpus.records import page_attributes
from kb.langs import LANGS, fold
from kb.lookup import PROVENANCE_ORDER
from kb.models import (
    Card,
    CardClarification,
    CardLocalization,
    Clarification,
    ClarificationText,
    Printing,
    RulingsPage,
)

BATCH = 1000  # full cards held at once while the card pages are rendered
MENTIONS = 3  # card names a rulings page no card data names is titled with


def _printing_order(row: tuple[str, str, str]) -> tuple[str, int, str]:
    digits = "".join(c for c in row[1] if c.isdigit())
    return (row[0], int(digits) if digits else 0, row[1])


def card_index(session: Session) -> list[dict[str, Any]]:
    """Every card's key, names, printings and ruling ids, sorted by folded name then key.

    A rulings page no card data names (``is_page``) also gets its ruling dates and the card
    names its rulings mention, which its title is made of.
    """
    names: dict[int, dict[str, str]] = {}
    for card_id, lang, name in session.execute(
        select(CardLocalization.card_id, CardLocalization.language, CardLocalization.name)
    ).all():
        if lang in LANGS:
            names.setdefault(card_id, {})[lang] = name
    printings: dict[int, set[tuple[str, str, str]]] = {}
    for card_id, code, number, rarity in session.execute(
        select(Printing.card_id, Printing.set_code, Printing.number, Printing.rarity)
    ).all():
        printings.setdefault(card_id, set()).add((code, number, rarity or ""))
    rulings: dict[int, set[int]] = {}
    for card_id, clar_id in session.execute(
        select(CardClarification.card_id, CardClarification.clarification_id)
    ).all():
        rulings.setdefault(card_id, set()).add(clar_id)
    cards = []
    for card_id, key, name, oracle_id in session.execute(
        select(Card.id, Card.key, Card.name, Card.oracle_id).order_by(Card.key)
    ).all():
        own = names.get(card_id, {})
        cards.append(
            {
                "id": card_id,
                "key": key,
                "name": name,
                "names": {lang: own[lang] for lang in LANGS if lang in own},
                "printings": [
                    {"set": code, "number": number, "rarity": rarity}
                    for code, number, rarity in sorted(
                        printings.get(card_id, ()), key=_printing_order
                    )
                ],
                "is_page": oracle_id is None,
                "ruling_ids": sorted(rulings.get(card_id, ())),
            }
        )
    cards.sort(key=lambda c: (fold(c["name"]), c["key"]))
    _add_mentions(session, cards)
    return cards


def _add_mentions(session: Session, cards: list[dict[str, Any]]) -> None:
    """For each rulings page no card data names: its ruling dates and the known card names its
    rulings mention (the longest first, none inside another)."""
    pages = [c for c in cards if c["is_page"] and c["name"] == c["key"]]
    if not pages:
        return
    names = sorted(
        {c["name"] for c in cards if not c["is_page"] and len(c["name"]) >= 4},
        key=lambda n: (-len(n), n),
    )
    for card, full in zip(pages, card_details(session, pages), strict=True):
        card["ruling_dates"] = sorted(r["date"] for r in full["rulings"])
        text = " ".join(t["text"] for r in full["rulings"] for t in r["texts"].values())
        found: list[str] = []
        for name in names:
            at = text.find(name)
            if at < 0 or any(name in other for other in found):
                continue
            end = at + len(name)
            if (at and text[at - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
                continue
            found.append(name)
            if len(found) == MENTIONS:
                break
        card["mentions"] = sorted(found)


def ruling_counts(session: Session) -> tuple[int, dict[str, int]]:
    """How many rulings the cards carry, and how many of them have a text in each language."""
    carried = set(session.scalars(select(CardClarification.clarification_id).distinct()))
    texts: dict[str, int] = {}
    for clar_id, lang in session.execute(
        select(ClarificationText.clarification_id, ClarificationText.language).distinct()
    ).all():
        if clar_id in carried:
            texts[lang] = texts.get(lang, 0) + 1
    return len(carried), texts


def card_details(session: Session, cards: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The full cards (index entry and what only the card page shows) of a batch, same order."""
    ids = [c["id"] for c in cards]
    rows: dict[int, Any] = {}
    locs: dict[int, dict[str, Any]] = {}
    pages: dict[int, list[Any]] = {}
    for part in chunks(ids):
        for row in session.execute(
            select(
                Card.id,
                Card.mana_value,
                Card.mana_cost,
                Card.face_details,
                Card.legalities,
                Card.faces,
            ).where(Card.id.in_(part))
        ).all():
            rows[row.id] = row
        for loc in session.execute(
            select(
                CardLocalization.card_id,
                CardLocalization.language,
                CardLocalization.type_line,
                CardLocalization.text,
                CardLocalization.provenance,
            ).where(CardLocalization.card_id.in_(part))
        ).all():
            locs.setdefault(loc.card_id, {})[loc.language] = loc
        for page in session.execute(
            select(
                RulingsPage.card_id,
                RulingsPage.page_id,
                RulingsPage.language,
                RulingsPage.recognised,
                RulingsPage.machine_notice,
                RulingsPage.attributes,
            )
            .where(RulingsPage.card_id.in_(part))
            .order_by(RulingsPage.page_id)
        ).all():
            pages.setdefault(page.card_id, []).append(page)
    rulings = _rulings(session, sorted({i for c in cards for i in c["ruling_ids"]}))
    result = []
    for card in cards:
        row = rows[card["id"]]
        own = locs.get(card["id"], {})
        card_rulings = [rulings[i] for i in card["ruling_ids"] if i in rulings]
        card_rulings.sort(key=lambda r: (r["date"], _first_text(r["texts"]), r["id"]))
        card_pages = pages.get(card["id"], [])
        result.append(
            {
                **card,
                "type_lines": {lang: own[lang].type_line for lang in LANGS if lang in own},
                "texts": {lang: own[lang].text for lang in LANGS if lang in own},
                "text_provenance": {lang: own[lang].provenance for lang in LANGS if lang in own},
                "mana_value": row.mana_value,
                "mana_cost": row.mana_cost or "",
                "face_details": [dict(d) for d in row.face_details or []],
                "legalities": dict(sorted((row.legalities or {}).items())),
                "faces": list(row.faces or []),
                "attributes": page_attributes([p.attributes for p in card_pages], row.mana_value),
                "pages": [
                    {
                        "page_id": p.page_id,
                        "language": p.language,
                        "recognised": p.recognised,
                        "provenance": "machine" if p.machine_notice else "official",
                    }
                    for p in card_pages
                ],
                "rulings": card_rulings,
            }
        )
    return result


def _rulings(session: Session, ids: list[int]) -> dict[int, dict[str, Any]]:
    """Rulings by id: date, source and the best text per language (official before machine)."""
    texts: dict[int, dict[str, dict[str, str]]] = {}
    found: dict[int, dict[str, Any]] = {}
    for part in chunks(ids):
        for clar_id, lang, text, provenance in session.execute(
            select(
                ClarificationText.clarification_id,
                ClarificationText.language,
                ClarificationText.text,
                ClarificationText.provenance,
            ).where(ClarificationText.clarification_id.in_(part))
        ).all():
            current = texts.setdefault(clar_id, {}).get(lang)
            rank = PROVENANCE_ORDER.get(provenance, 9)
            if current is None or rank < PROVENANCE_ORDER.get(current["provenance"], 9):
                texts[clar_id][lang] = {"text": text, "provenance": provenance}
        for clar_id, date, source in session.execute(
            select(Clarification.id, Clarification.date, Clarification.source).where(
                Clarification.id.in_(part)
            )
        ).all():
            found[clar_id] = {
                "id": clar_id,
                "date": date.isoformat(),
                "source": source,
                "texts": dict(sorted(texts.get(clar_id, {}).items())),
            }
    return found


def _first_text(texts: dict[str, dict[str, str]]) -> str:
    if "en" in texts:
        return texts["en"]["text"]
    return next(iter(texts.values()))["text"] if texts else ""

"""Database -> index documents for cards and rulings (clarifications).

A card is found by its name in any language and by its text; a ruling carries the names of every
card it is about, so that searching a card's name also finds its rulings, and ``card:"…"`` and
``set:KHM`` filter rulings as well as cards.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.bulk import chunks
from kb.langs import LANGS
from kb.models import (
    CardClarification,
    Clarification,
    ClarificationText,
    Printing,
)
from kb.readmodel import card_rows, card_text_rows
from kb.search.documents import PROVENANCE_ORDER, clean_item, fill_text_fields, finish_item


def _card_facts(session: Session, scope: CardScope | None = None) -> dict[str, Any]:
    """Names, sets and rulings of every card (or of what ``scope`` needs), in a few queries.

    Scoped: the links of the scope's clarifications and of its cards (so that a card's ruling
    count and a ruling's cards are whole), and the facts of every card they name.
    """
    links: dict[int, set[int]] = defaultdict(set)  # clarification -> cards
    link_query = select(CardClarification.card_id, CardClarification.clarification_id)
    if scope is None:
        link_rows: list[Any] = list(session.execute(link_query).all())
    else:
        link_rows = []
        for column, ids in (
            (CardClarification.clarification_id, scope.clarifications),
            (CardClarification.card_id, scope.cards),
        ):
            for chunk in chunks(sorted(ids)):
                link_rows.extend(session.execute(link_query.where(column.in_(chunk))).all())
    for cid, clar_id in link_rows:
        links[clar_id].add(cid)
    wanted = None if scope is None else set(scope.cards) | {c for c, _ in link_rows}
    cards = {
        cid: {"key": key, "name": name, "mana_value": mv}
        for cid, key, _oracle, name, mv, _layout in card_rows(session, wanted)
    }
    locs: dict[int, dict[str, tuple[str, str, str, str]]] = defaultdict(dict)
    for cid, lang, name, type_line, text, prov in card_text_rows(session, wanted):
        locs[cid][lang] = (name, type_line, text, prov)
    sets: dict[int, set[str]] = defaultdict(set)
    set_query = select(Printing.card_id, Printing.set_code)
    for chunk in [None] if wanted is None else chunks(sorted(wanted)):
        query = set_query if chunk is None else set_query.where(Printing.card_id.in_(chunk))
        for cid, set_code in session.execute(query).all():
            sets[cid].add(set_code.upper())
    rulings_per_card: dict[int, int] = defaultdict(int)
    for card_ids in links.values():
        for cid in card_ids:
            rulings_per_card[cid] += 1
    return {
        "cards": cards,
        "locs": locs,
        "sets": sets,
        "links": links,
        "rulings_per_card": rulings_per_card,
    }


def _names(facts: dict[str, Any], cid: int) -> dict[str, str]:
    card = facts["cards"][cid]
    names = {lang: loc[0] for lang, loc in facts["locs"].get(cid, {}).items() if loc[0]}
    names.setdefault("en", card["name"])
    return {lang: names[lang] for lang in LANGS if lang in names}


@dataclass(frozen=True)
class CardScope:
    """The cards and clarifications (ids) whose items an ingest of card data may have changed."""

    cards: frozenset[int]
    clarifications: frozenset[int]


def card_items(session: Session, scope: CardScope | None = None) -> Iterator[dict[str, Any]]:
    """Card items, then ruling items: all of them, or those of the cards and clarifications of
    ``scope`` (the same items as the full build makes for them)."""
    facts = _card_facts(session, scope)
    yield from _card_items(facts, None if scope is None else scope.cards)
    yield from _ruling_items(session, facts, None if scope is None else scope.clarifications)


def _card_items(facts: dict[str, Any], only: frozenset[int] | None) -> Iterator[dict[str, Any]]:
    for cid, card in sorted(facts["cards"].items(), key=lambda kv: kv[1]["key"]):
        if only is not None and cid not in only:
            continue
        names = _names(facts, cid)
        texts: dict[str, dict[str, Any]] = {}
        for lang in LANGS:
            loc = facts["locs"].get(cid, {}).get(lang)
            if loc is None and lang != "en":
                continue
            name, type_line, text, prov = loc or (card["name"], "", "", "official")
            texts[lang] = {
                "title": name or names.get("en", ""),
                "text": "\n".join(p for p in (type_line, text) if p),
                "provenance": prov,
            }
        sets = sorted(facts["sets"].get(cid, ()))
        item: dict[str, Any] = {
            "key": f"card:{card['key']}",
            "type": "card",
            "bound": "none",
            "card": "\n".join(dict.fromkeys(names.values())),
            "set": " ".join(sets),
        }
        # The names of the other languages too, twice like a title: "Le vol du dieu-décepteur"
        # finds the card whatever language the query is in.
        others = [n for n in names.values() for _ in (0, 1)]
        fill_text_fields(item, texts, {}, others)
        finish_item(item, texts)
        item["data"] = {
            "card_key": card["key"],
            "name": card["name"],
            "names": names,
            "texts": texts,
            "sets": sets,
            "mana_value": card["mana_value"],
            "rulings": facts["rulings_per_card"].get(cid, 0),
        }
        yield clean_item(item)


def _ruling_items(
    session: Session, facts: dict[str, Any], only: frozenset[int] | None
) -> Iterator[dict[str, Any]]:
    clar_query = select(
        Clarification.id, Clarification.key, Clarification.date, Clarification.source
    )
    text_query = select(
        ClarificationText.clarification_id,
        ClarificationText.language,
        ClarificationText.text,
        ClarificationText.provenance,
    )
    if only is None:
        clars = list(session.execute(clar_query.order_by(Clarification.key)).all())
        rows = list(session.execute(text_query).all())
    else:
        clars, rows = [], []
        for chunk in chunks(sorted(only)):
            clars.extend(session.execute(clar_query.where(Clarification.id.in_(chunk))).all())
            rows.extend(
                session.execute(
                    text_query.where(ClarificationText.clarification_id.in_(chunk))
                ).all()
            )
        clars.sort(key=lambda row: row[1])  # by key (unique): each item alone is the same
    texts_of: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)
    for clar_id, lang, text, prov in sorted(
        rows, key=lambda r: (PROVENANCE_ORDER.get(r[3], 9), r[0], r[1])
    ):
        texts_of[clar_id].setdefault(lang, {"text": text, "provenance": prov})
    for clar_id, key, date, source in clars:
        texts = {lang: texts_of[clar_id][lang] for lang in LANGS if lang in texts_of[clar_id]}
        if not texts:
            continue
        card_ids = sorted(
            facts["links"].get(clar_id, ()), key=lambda c: (facts["cards"][c]["name"], c)
        )
        cards = [
            {"key": facts["cards"][c]["key"], "name": facts["cards"][c]["name"]} for c in card_ids
        ]
        names = [n for c in card_ids for n in _names(facts, c).values()]
        sets = sorted({s for c in card_ids for s in facts["sets"].get(c, ())})
        item: dict[str, Any] = {
            "key": f"ruling:{key}",
            "type": "ruling",
            "bound": "none",
            "card": "\n".join(dict.fromkeys(names)),
            "set": " ".join(sets),
            "source": source,
            "date": dt.datetime.combine(date, dt.time()),
        }
        fill_text_fields(item, texts, {}, list(dict.fromkeys(names)))
        finish_item(item, texts)
        item["data"] = {
            "ruling_key": key,
            "date": date.isoformat(),
            "source": source,
            "texts": texts,
            "cards": cards,
            "sets": sets,
        }
        yield clean_item(item)

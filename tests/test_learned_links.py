"""A changed set file relearns the terms, and French links follow the new terms everywhere."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select

from kb.models import CardLocalization, CardTerm, Link
from kb.pipeline import ingest, open_db


def _card(code: str, number: int, french: str, keyword: str | None) -> dict:
    english = "Deathtouch" if keyword else "Draw a card."
    return {
        "foreignData": [{"language": "French", "name": f"Carte {code}{number}", "text": french}],
        "identifiers": {
            "scryfallOracleId": f"{code.lower()}{number:07d}-0000-0000-0000-000000000000"
        },
        "keywords": [keyword] if keyword else [],
        "layout": "normal",
        "manaValue": 2.0,
        "name": f"Card {code}{number}",
        "number": str(number),
        "rarity": "common",
        "setCode": code,
        "text": english,
        "type": "Creature — Snake",
        "uuid": f"{code.lower()}{number:07d}-0000-0000-0000-00000000000{number % 10}",
    }


def _write(folder: Path, code: str, cards: list[dict]) -> Path:
    path = folder / f"{code}.json"
    data = {"name": code, "code": code, "releaseDate": "2021-01-01", "cards": cards}
    path.write_text(json.dumps({"meta": {"version": "5.2.0"}, "data": data}), "utf-8")
    return path


def _filler(code: str) -> list[dict]:
    return [_card(code, 10 + i, "Piochez une carte.", None) for i in range(6)]


def _french_links(settings) -> dict[str, set[str]]:
    """{French card name: words linked to 702.2}."""
    db = open_db(settings, create=False)
    try:
        with db.session() as session:
            rows = session.execute(
                select(CardLocalization.name, Link.matched)
                .join(Link, Link.source_id == CardLocalization.id)
                .where(
                    Link.source_type == "card_text",
                    CardLocalization.language == "fr",
                    Link.target == "702.2",
                )
            ).all()
            terms = dict(
                session.execute(
                    select(CardTerm.keyword, CardTerm.term).where(CardTerm.language == "fr")
                ).all()
            )
    finally:
        db.dispose()
    found: dict[str, set[str]] = {}
    for name, matched in rows:
        found.setdefault(name, set()).add(matched.casefold())
    return {"terms": terms, **found}  # type: ignore[dict-item]


def test_a_changed_set_relearns_terms_and_relinks_every_french_text(settings, cr_path, tmp_path):
    sets = tmp_path / "sets"
    sets.mkdir()
    changing = [_card("AAA", i, "Contact mortel", "Deathtouch") for i in range(1, 5)]
    path = _write(sets, "AAA", changing + _filler("AAA"))
    # Another set, never re-ingested, prints the name the other set will use.
    _write(sets, "BBB", [_card("BBB", 1, "Toucher fatal", "Deathtouch"), *_filler("BBB")])
    ingest(settings, [cr_path("2026-01-16"), sets])
    before = _french_links(settings)
    assert before["terms"]["Deathtouch"] == "contact mortel"
    assert before["Carte AAA1"] == {"contact mortel"}
    assert "Carte BBB1" not in before  # "toucher fatal" names nothing yet

    renamed = [_card("AAA", i, "Toucher fatal", "Deathtouch") for i in range(1, 5)]
    _write(sets, "AAA", renamed + _filler("AAA"))
    ingest(settings, [path])
    after = _french_links(settings)
    assert after["terms"]["Deathtouch"] == "toucher fatal"  # relearned from the changed set
    assert after["Carte AAA1"] == {"toucher fatal"}
    # The untouched set's card is relinked too: the learned names changed.
    assert after["Carte BBB1"] == {"toucher fatal"}

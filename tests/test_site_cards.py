"""Card-page fields: what the MTGJSON parser keeps for them, and the symbols they are shown with."""

from __future__ import annotations

from pathlib import Path

from kb.corpus import mtgjson
from kb.site.mana import symbol_name, symbols


def test_the_parser_keeps_mana_cost_faces_numbers_and_legalities(shared_corpus: Path):
    path = shared_corpus / "mtgjson" / "KHM.json"
    parsed = mtgjson.parse(path.read_text(encoding="utf-8"), str(path))
    cards = {c.name: c for c in parsed.cards}
    heist = cards["The Trickster-God's Heist"]
    assert heist.mana_cost == "{2}{U}{B}"
    assert heist.legalities["standard"] == "Legal" and "vintage" in heist.legalities
    (face,) = heist.face_details
    assert face["type_line"] == "Enchantment — Saga" and "lore counter" in face["text"]
    halvar = cards["Halvar, God of Battle // Sword of the Realms"]
    front, back = halvar.face_details
    assert (front["name"], front["power"], front["toughness"]) == (
        "Halvar, God of Battle",
        "4",
        "4",
    )
    assert back["name"] == "Sword of the Realms" and "power" not in back
    assert halvar.mana_cost == f"{front['mana_cost']} // {back['mana_cost']}"
    walker = next(f for c in parsed.cards for f in c.face_details if "loyalty" in f)
    assert walker["loyalty"].isdigit() and "Planeswalker" in walker["type_line"]


def test_symbols_are_labelled_text_and_the_rest_is_escaped():
    def french(message: str) -> str:
        return {"blue mana": "mana bleu", "%(count)s generic mana": "%(count)s mana générique"}.get(
            message, message
        )

    html = symbols("{2}{U} <b>{T}</b> {W/U} {G/P} {Z9}", french)
    assert 'aria-label="2 mana générique"' in html and 'aria-label="mana bleu"' in html
    assert "&lt;b&gt;" in html and 'aria-label="tap"' in html
    assert symbol_name("W/U", lambda m: m) == "white mana or blue mana"
    assert symbol_name("G/P", lambda m: m) == "green mana (Phyrexian)"
    assert "{Z9}" in html  # unknown: left as the text it was
    assert "<img" not in html

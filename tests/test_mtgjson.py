"""MTGJSON set files: the real KHM and CN2 files, a small synthetic set, and malformed JSON."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path

import pytest

from kb.corpus import mtgjson
from kb.corpus.records import CardSetDocument
from kb.errors import ParseError
from kb.langs import normalize_typography

DATA = Path(__file__).resolve().parent / "data"
MINI = DATA / "mtgjson" / "mini.json"


@pytest.fixture(scope="module")
def khm(shared_corpus: Path) -> CardSetDocument:
    path = shared_corpus / "mtgjson" / "KHM.json"
    return mtgjson.parse(path.read_text(encoding="utf-8"), str(path))


@pytest.fixture(scope="module")
def cn2(shared_corpus: Path) -> CardSetDocument:
    path = shared_corpus / "mtgjson" / "CN2.json"
    return mtgjson.parse(path.read_text(encoding="utf-8"), str(path))


def by_name(document: CardSetDocument, name: str):
    (card,) = [c for c in document.cards if c.name == name]
    return card


def test_khm_one_card_per_oracle_id(khm):
    # Established independently of the parser:
    # python -c "import json; d = json.load(open('KHM.json'))['data']['cards'];
    #   print(len(d), len({c['identifiers']['scryfallOracleId'] for c in d}))"   -> 459 325
    assert (khm.code, khm.name, khm.release_date.isoformat()) == ("KHM", "Kaldheim", "2021-02-05")
    assert len(khm.cards) == 325
    assert len({c.oracle_id for c in khm.cards}) == 325
    # 459 entries = 425 (set, number) printings + 34 back faces of modal double-faced cards.
    assert sum(len(c.printings) for c in khm.cards) == 425


def test_the_trickster_gods_heist(khm, seed):
    card = by_name(khm, "The Trickster-God's Heist")
    assert card.mana_value == 4
    assert card.layout == "saga"
    assert card.names == {
        "en": "The Trickster-God's Heist",
        "fr": "Le vol du dieu-décepteur",
        "es": "El robo del dios embaucador",
    }
    assert card.type_lines["fr"] == "Enchantement : saga"
    assert card.texts["es"].startswith("(En cuanto esta Saga entre")
    assert [(p.set_code, p.number, p.rarity) for p in card.printings] == [
        ("KHM", "232", "uncommon")
    ]
    # MTGJSON lists 7 rulings for it (the generic Saga ones); seed 003 shows those 7 plus 5 more.
    assert len(card.rulings) == 7
    assert {(r.source, r.date.isoformat()) for r in card.rulings} == {("wotc", "2021-02-05")}
    assert {tuple(r.provenance.items()) for r in card.rulings} == {(("en", "official"),)}
    page = seed("003").read_text(encoding="utf-8")
    page_texts = {normalize_typography(line) for line in page.splitlines()}
    assert all(normalize_typography(r.texts["en"]) in page_texts for r in card.rulings)


def test_a_modal_double_faced_card(khm):
    card = by_name(khm, "Halvar, God of Battle // Sword of the Realms")
    assert card.layout == "modal_dfc"
    assert card.faces == ["Halvar, God of Battle", "Sword of the Realms"]
    assert card.mana_value == 4  # the front face's; the back face's entry says 2
    assert card.type_lines["en"] == "Legendary Creature — God // Legendary Artifact — Equipment"
    assert " // Equipped creature gets +2/+0" in card.texts["en"]
    assert [p.number for p in card.printings] == ["15", "299"]
    assert card.names.keys() == {"en"}  # KHM has no French or Spanish data for the god cards
    texts = [r.texts["en"] for r in card.rulings]
    assert len(texts) == len(set(texts)) == 14  # both faces and both printings repeat them


def test_alchemy_cards_are_distinct_cards(khm):
    # 21 rebalanced entries: 20 cards, one of them (Alrund) with two faces.
    alchemy = [c for c in khm.cards if c.name.startswith("A-")]
    assert len(alchemy) == 20
    original = by_name(khm, "Alrund, God of the Cosmos // Hakka, Whispering Raven")
    rebalanced = by_name(khm, "A-Alrund, God of the Cosmos // A-Hakka, Whispering Raven")
    assert original.oracle_id != rebalanced.oracle_id
    assert rebalanced.printings[0].number == "A-40"
    assert rebalanced.rulings == [] and rebalanced.names.keys() == {"en"}


def test_rulings_are_deduplicated_and_foreign_data_is_partial(khm):
    for card in khm.cards:
        texts = [r.texts["en"] for r in card.rulings]
        assert len(texts) == len(set(texts)), card.name
    assert sum(1 for c in khm.cards if "fr" not in c.names) == 36
    # Basic lands have French names but no French text in the file.
    plains = by_name(khm, "Plains")
    assert "fr" in plains.names and "fr" not in plains.texts


def test_cn2_voting_cards(cn2):
    # python -c "...same one-liner on CN2.json"  -> 222 221 (Kaya, Ghost Assassin is printed twice)
    assert (cn2.code, len(cn2.cards)) == ("CN2", 221)
    kaya = by_name(cn2, "Kaya, Ghost Assassin")
    assert [p.number for p in kaya.printings] == ["75", "222"]
    expropriate = by_name(cn2, "Expropriate")
    assert expropriate.texts["en"].startswith("Council's dilemma")
    assert len(expropriate.rulings) == 9
    assert any("vote" in r.texts["en"] for r in expropriate.rulings)
    assert len(by_name(cn2, "Capital Punishment").rulings) == 9
    # CN2's foreign data holds only Chinese and Japanese: no French or Spanish at all.
    assert all(c.names.keys() == {"en"} for c in cn2.cards)


def test_mini_set():
    document = mtgjson.parse(MINI.read_text(encoding="utf-8"), str(MINI))
    saga, dfc, bear = document.cards
    assert [p.number for p in saga.printings] == ["1", "301"]
    assert len(saga.rulings) == 2  # repeated by the second printing
    assert dfc.names == {"en": "Front Face // Back Face", "fr": "Face avant // Face arrière"}
    assert "es" not in dfc.names  # only the front face has Spanish
    assert dfc.printings[0].uuid.endswith("0002")  # the front face's uuid
    assert dfc.mana_value == 3
    assert bear.oracle_id == "aaaaaaaa-0000-0000-0000-000000000003"
    # Its printing 303 has no scryfallOracleId: skipped, with a warning naming set, card, field.
    assert [p.number for p in bear.printings] == ["3"] and bear.rulings == []
    assert [(w.kind, w.message) for w in document.warnings] == [
        (
            "no_oracle_id",
            "TST 'Nameless Oracle Bear' (number 303, uuid 00000000-0000-0000-0000-000000000006): "
            "no identifiers.scryfallOracleId: the printing is skipped",
        )
    ]
    assert bear.mana_value == 2  # convertedManaCost when manaValue is missing
    assert "en" not in bear.texts and bear.type_lines["fr"] == "Créature : ours"
    assert "Treasure" not in {c.name for c in document.cards}  # tokens are ignored


def _mini() -> dict:
    return json.loads(MINI.read_text(encoding="utf-8"))


@pytest.mark.parametrize("face_names", [True, False])
def test_a_double_faced_cards_translated_name_names_each_face_once(face_names):
    # Newer MTGJSON (AllPrintings 5.2+) gives each face's foreign entry the whole name, and the
    # face's own name in faceName: "Graver // Mémoire", never "Graver // Mémoire // Graver // …".
    data = _mini()
    front, back = (c for c in data["data"]["cards"] if c.get("side"))
    for card, face in ((front, "Face avant"), (back, "Face arrière")):
        (french,) = [f for f in card["foreignData"] if f["language"] == "French"]
        french["name"] = "Face avant // Face arrière"
        if face_names:
            french["faceName"] = face
    document = mtgjson.parse(json.dumps(data), "mini.json")
    dfc = next(c for c in document.cards if c.faces)
    assert dfc.names["fr"] == "Face avant // Face arrière"
    assert dfc.names["en"] == "Front Face // Back Face"


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: d.pop("data"), 'no "data" object'),
        (lambda d: d["data"].pop("cards"), 'no "data.cards" list'),
        (lambda d: d["data"].pop("code"), "data.code"),
        (lambda d: d["data"].update(releaseDate="2021-13-01"), "not an ISO date"),
    ],
)
def test_structural_errors(mutate, words):
    document = _mini()
    mutate(document)
    with pytest.raises(ParseError) as caught:
        mtgjson.parse(json.dumps(document), "set.json")
    assert words in caught.value.reason


@pytest.mark.parametrize(
    ("mutate", "kind", "words", "cards"),
    [
        (lambda d: d["data"]["cards"].__setitem__(0, "a string"), "bad_card", "TST card #0", 3),
        (
            lambda d: d["data"]["cards"][0]["rulings"][0].update(date="05/02/2021"),
            "bad_ruling_date",
            "TST 'Test Saga': ruling date '05/02/2021' is not an ISO date",
            3,
        ),
        (
            lambda d: d["data"]["cards"][0]["rulings"][0].update(text=" "),
            "empty_ruling",
            "TST 'Test Saga': ruling of 2021-02-05 has no text: the ruling is skipped",
            3,
        ),
        (lambda d: d["data"]["cards"][0].update(rulings=[None]), "bad_card", "'Test Saga'", 2),
        (lambda d: d["data"]["cards"][3].pop("convertedManaCost"), "bad_card", "no numeric", 2),
        (lambda d: d["data"]["cards"][1].pop("name"), "bad_card", "card #1 (uuid", 3),
    ],
)
def test_defective_records_are_skipped_with_a_warning(mutate, kind, words, cards):
    document = _mini()
    mutate(document)
    parsed = mtgjson.parse(json.dumps(document), "set.json")
    assert len(parsed.cards) == cards  # the rest of the set loads
    found = [w for w in parsed.warnings if w.kind == kind]
    assert len(found) == 1 and words in found[0].message, parsed.warnings


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{\n  "data": {\n    "cards": [,]\n  }\n}', 3),
        ('{"meta": {}}\n\n}', 3),
        ("[]", 1),
        ('"just a string"', 1),
    ],
)
def test_invalid_json_and_wrong_shapes(text, line):
    with pytest.raises(ParseError) as caught:
        mtgjson.parse(text, "set.json")
    assert caught.value.line == line


def test_truncated_json_names_the_line():
    path = DATA / "bad" / "mtgjson_truncated.json"
    with pytest.raises(ParseError) as caught:
        mtgjson.parse(path.read_text(encoding="utf-8"), str(path))
    assert caught.value.line == 72
    assert caught.value.reason.startswith("invalid JSON")


def test_random_type_mutations_only_raise_parse_errors():
    import random

    rng = random.Random(7)
    original = _mini()
    replacements = [None, 0, 1.5, True, "", "x", [], {}, [None], {"a": None}]
    for _ in range(400):
        document = copy.deepcopy(original)
        node = document
        # Walk down a random path and replace one value with a value of another type.
        while isinstance(node, dict | list) and node:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            key = rng.choice(keys)
            child = node[key]
            if not isinstance(child, dict | list) or not child or rng.random() < 0.25:
                node[key] = rng.choice(replacements)
                break
            node = child
        with contextlib.suppress(ParseError):
            mtgjson.parse(json.dumps(document), "set.json")

"""General concepts are linked where a text is about them (kb.links.about), and the label sets.

The vocabulary is built from a few rules and glossary entries written like the real ones; the
labels files are checked against the 2026-01-16 Comprehensive Rules of the shared corpus.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from kb.corpus import comprules
from kb.links.about import is_about, is_verb
from kb.links.term_vocabulary import (
    GlossaryItem,
    RuleEntry,
    english_vocabulary,
    translated_vocabulary,
)

DATA = Path(__file__).parent / "data" / "links"

RULES = [
    RuleEntry("103.3", "subrule", "", "Each player shuffles their deck."),
    RuleEntry("111", "chapter", "Tokens", ""),
    RuleEntry("115", "chapter", "Targets", ""),
    RuleEntry("116", "chapter", "Special Actions", ""),
    RuleEntry("121", "chapter", "Drawing a Card", ""),
    RuleEntry("122", "chapter", "Counters", ""),
    RuleEntry("303.4b", "subrule", "", "The object an Aura is attached to is enchanted by it."),
    RuleEntry("406", "chapter", "Exile", ""),
    RuleEntry("501", "chapter", "Beginning Phase", ""),
    RuleEntry("601", "chapter", "Casting Spells", ""),
    RuleEntry("701.6", "rule", "Counter", ""),
    RuleEntry("701.24", "rule", "Shuffle", ""),
    RuleEntry("702.5", "rule", "Enchant", ""),
    RuleEntry("702.5a", "subrule", "", "Enchant is a static ability, written “Enchant [object].”"),
    RuleEntry("702.9", "rule", "Flying", ""),
    RuleEntry("702.29", "rule", "Cycling", ""),
    RuleEntry("702.29c", "subrule", "", "“When you cycle this card” means …"),
    RuleEntry("702.29d", "subrule", "", "Whenever a card is cycled, you may draw."),
    RuleEntry("702.48", "rule", "Offering", ""),
    RuleEntry("702.47", "rule", "Splice", ""),
    RuleEntry("702.47c", "subrule", "", "The spell has the text of each of the spliced cards."),
    RuleEntry("702.61", "rule", "Split Second", ""),
    RuleEntry("702.74", "rule", "Evoke", ""),
    RuleEntry("702.89", "rule", "Umbra Armor", ""),
    RuleEntry("810", "chapter", "Two-Headed Giant Variant", ""),
]
GLOSSARY = [
    GlossaryItem("Cast", "To take a card … See rule 601, “Casting Spells.”"),
    GlossaryItem(
        "Counter",
        "1. To cancel a spell or ability. See rule 701.6, “Counter.”\n"
        "2. A marker placed on an object. See rule 122, “Counters.”",
    ),
    GlossaryItem("Draw", "1. To put the top card … See rule 121, “Drawing a Card.”"),
    GlossaryItem("Enchant", "A keyword ability. See rule 702.5, “Enchant.”"),
    GlossaryItem("Evoke", "A keyword ability. See rule 702.74, “Evoke.”"),
    GlossaryItem("Exile", "A zone. See rule 406, “Exile.”"),
    GlossaryItem("Flying", "A keyword ability. See rule 702.9, “Flying.”"),
    GlossaryItem(
        "Set Aside",
        "“Set [something] aside” is an obsolete term for “exile [something].” Cards with that "
        "text have received errata in the Oracle card reference. See Exile.",
        obsolete=True,
    ),
    GlossaryItem(
        "Totem Armor",
        "An obsolete keyword ability that has been renamed. See rule 702.89, “Umbra Armor.”",
        obsolete=True,
    ),
    GlossaryItem(
        "Placed",
        "Some spells previously referred to a counter being “placed”. See rule 122, “Counters.”",
        obsolete=True,
    ),
    GlossaryItem("Play", "1. To play a land. See rule 116."),
    GlossaryItem("Shuffle", "To randomize the cards. See rule 103.3 and rule 701.24."),
    GlossaryItem("Splice", "A keyword ability. See rule 702.47, “Splice.”"),
    GlossaryItem("Split Second", "A keyword ability. See rule 702.61, “Split Second.”"),
    GlossaryItem("Target", "A preselected object. See rule 115, “Targets.”"),
    GlossaryItem("Token", "A marker. See rule 111, “Tokens.”"),
    GlossaryItem(
        "Two-Headed Giant Variant",
        "A multiplayer variant. See rule 810, “Two-Headed Giant Variant.”",
    ),
]


@pytest.fixture(scope="module")
def vocab():
    return english_vocabulary(RULES, GLOSSARY)


def targets(vocab, text: str) -> list[str]:
    return [n for m in vocab.match(text) for n in m.term.targets]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the ruling is about the concept
        ("Support can target a creature another player controls.", ["115"]),
        ("If a token is exiled this way, it will cease to exist.", ["111", "406"]),
        # quoted, and a player doing it (the verb phrase's own verb is the progressive)
        ("Without the word “draw,” you’re not drawing a card.", ["121", "121"]),
        ("For those two abilities, you don't have to control either target.", ["115"]),
        ("Spells that can't be countered are exiled by it.", ["701.6", "406"]),
        ("Counters on the land remain on it.", ["122"]),
        ("For more information about exile, see the rules.", ["406"]),
        # the object of a verb of choice: what the player chooses
        ("Its controller chooses targets for it, if any.", ["115"]),
        # mentioned on the way
        ("You cast it from your hand, then you draw a card.", []),
        ("The spell will resolve and you won't draw a card.", []),
        # "play with" is no play (116)
        ("You don't have to play with any conspiracy you drafted.", []),
        ("You can't play lands this turn.", ["116"]),
        # specific terms are linked wherever they are
        ("Split second doesn’t stop you from casting it.", ["702.61"]),
    ],
)
def test_general_concepts_only_where_the_text_is_about_them(vocab, text, expected) -> None:
    assert targets(vocab, text) == expected


def _about(text: str, word: str) -> bool:
    return is_about(text, text.index(word), text.index(word) + len(word))


@pytest.mark.parametrize(
    ("text", "word", "about"),
    [
        ("In that case, the requirement to block would do nothing.", "block", True),
        # a cost is what its ruling is about, not the action it is paid for
        ("It costs {1} less to cast.", "cast", False),
        ("Restrictions on which creatures can attack are checked.", "attack", True),
        # an action mentioned on the way: no constraint in its clause
        ("You may have it attack, then you draw a card.", "attack", False),
    ],
)
def test_the_action_a_constraint_is_for_is_about(text: str, word: str, about: bool) -> None:
    """The action a requirement or restriction of its clause is for is what the ruling is
    about (*the requirement to block*, 508.1c-d, 509.1b-c), as after a word of obligation; a
    cost is not (*costs {1} less to cast*)."""
    assert _about(text, word) is about


@pytest.mark.parametrize(
    ("text", "word", "about"),
    [
        # what a player must or need not do, as after a modal
        ("Other blocking creatures don’t have to block the same creature.", "block", True),
        ("A player with eleven permanents will need to sacrifice six of them.", "sacrifice", True),
        ("It would be too late to block with it.", "block", False),
        # the event a "When/Whenever" trigger watches for (508.3a, 509.3, 601.2i)
        ("When the equipped creature attacks, the first ability will trigger.", "attacks", True),
        ("When that ability resolves, you draw a card.", "draw", False),
        # what a spell or ability does (115.1); that it resolves only tells the story
        ("Its triggered ability targets a player but not a card.", "targets", True),
        ("This card targets the ability, and not the permanent itself.", "targets", True),
        ("If the card targeted by it leaves, nothing happens.", "targeted", False),
        ("It can't be targeted by spells and abilities that target a spell.", "target a", True),
        ("After the spell resolves, its controller draws.", "resolves", False),
        # how many of it there are (delirium counts card types)
        ("If there are four or more card types among them, it gets +1/+1.", "card types", True),
        ("You may choose more targets.", "targets", True),
        ("It has the card types of the copied card.", "card types", False),
        # what a spell requires (115.1, 601.2c)
        ("If any of them require targets, those are chosen later.", "targets", True),
        ("It requires that you pay {1} for each target.", "target", False),
        # the cost of a procedure
        ("You unattach it as part of the cost of activating the ability.", "activating", True),
        ("You reduce the cost of the spell by {1}.", "spell", False),
        # a later item of a list plays its first item's part, whatever the comma before it
        ("The copy won't have the same power, toughness, and abilities.", "toughness", False),
        (
            "It's a 2/2 creature with no name, mana cost, creature types, or abilities.",
            "mana cost",
            False,
        ),
        ("You can't cast spells, activate abilities, or attack this turn.", "attack", True),
        (
            "While you're casting a spell, playing a land, or activating an ability, you can't "
            "look at the new top card.",
            "activating",
            True,
        ),
        ("If it draws, its power and toughness change.", "power", True),
        # a capitalised word beside another in mid-sentence is another card's name
        (
            "Due to an effect such as the one Doubling Season creates, there are two.",
            "Doubling",
            False,
        ),
        ("It gets a replacement effect, such as Hidden Draw has.", "Draw", False),
        ("Doubling a creature's power means it gets +X/+0.", "Doubling", True),
        ("For the “Draw” effect, you draw a card.", "Draw", True),
        # an object's action that does not happen; not a player's, nor a future
        ("If both targets are illegal, the spell won't resolve.", "resolve", True),
        ("An Aura put onto the battlefield this way doesn't target it.", "target", True),
        ("The creature will not attack this turn.", "attack", True),
        ("You won't draw a card.", "draw", False),
        ("That player simply doesn't shuffle their library.", "shuffle", False),
        ("Those abilities will resolve as normal.", "resolve", False),
        # the infinitive a sentence defines with "means"; not one of purpose
        ("To play a card means to play a land or to cast a spell.", "play", True),
        ("To cast a spell, you pay its cost.", "cast", False),
        # what a player does in a time clause: when something happens in that action
        ("Once you activate the ability, it's too late to respond.", "activate", True),
        ("Once you’ve legally activated the last ability, it doesn’t matter.", "activated", True),
        ("You divide the damage as you cast it, not as it resolves.", "cast", True),
        ("It happens after a player has cast the spell.", "cast", True),
        # where the player's action begins or ends (601.2, 602.2)
        ("Once you begin casting a spell with escape, it moves to the stack.", "casting", True),
        ("No one can act until you're done casting the spell.", "casting", True),
        ("You draw after you've finished activating that ability.", "activating", True),
        ("It triggers as you finish casting an instant.", "casting", True),
        ("You will begin casting it later.", "casting", False),
        # not a time of the story, nor an object's
        ("It has 10 life when you cast it.", "cast", False),
        ("Reveal cards until you exile a nonland card.", "exile", False),
        ("Their colors are checked as they resolve.", "resolve", False),
    ],
)
def test_about_by_obligation_trigger_events_and_what_spells_do(text, word, about) -> None:
    assert _about(text, word) is about


def test_about_and_verb_tests_on_their_own() -> None:
    text = "Each creature is attacking. You're casting a spell."
    assert not is_about(text, text.index("attacking"), text.index("attacking") + 9)
    assert is_about(text, text.index("casting"), text.index("casting") + 7)
    text = "If the spell would counter it, put two +1/+1 counters on it."
    assert is_verb(text, text.index("counter"), text.index("counter") + 7)
    assert not is_verb(text, text.rindex("counters"), text.rindex("counters") + 8)


def test_a_verb_sense_before_what_it_acts_on() -> None:
    """701.6a: a spell or an ability is what is countered; *counters spells* is the verb,
    *counters on it* the noun."""
    text = "A spell that counters spells can target it. It has two counters on it."
    assert is_verb(text, text.index("counters"), text.index("counters") + 8)
    assert not is_verb(text, text.rindex("counters"), text.rindex("counters") + 8)


def test_a_regeneration_shield_is_regenerating() -> None:
    vocab = english_vocabulary(
        [RuleEntry("701.19", "rule", "Regenerate", "")],
        [GlossaryItem("Regenerate", "To replace a destruction. See rule 701.19, “Regenerate.”")],
    )
    assert targets(vocab, "A single regeneration shield is sufficient.") == ["701.19"]
    # the noun of the action, which the stemmer does not bring to "regenerate"
    assert targets(vocab, "Regeneration won't save it.") == ["701.19"]


def test_end_of_combat_is_the_end_of_combat_step() -> None:
    """511.2: abilities that trigger "at end of combat" trigger as that step begins."""
    vocab = english_vocabulary(
        [RuleEntry("511", "chapter", "End of Combat Step", "")],
        [GlossaryItem("End of Combat Step", "Part of the combat phase. See rule 511.")],
    )
    assert targets(vocab, "Destroy that creature at end of combat.") == ["511"]
    assert targets(vocab, "It's destroyed during the end of combat step.") == ["511"]


def test_an_adventure_and_the_generic_component_name_their_rules() -> None:
    """715.2a, 715.3: an adventurer card's inset spell is an Adventure; 118.7a: a reduction
    affects the generic (mana) component of a cost, which is generic mana (107.4)."""
    vocab = english_vocabulary(
        [
            RuleEntry("107.4", "rule", "", "The mana symbols are …"),
            RuleEntry("715", "chapter", "Adventurer Cards", ""),
        ],
        [
            GlossaryItem("Adventurer Card", "A card with an inset frame. See rule 715."),
            GlossaryItem("Generic Mana", "Mana in a cost paid with any type. See rule 107.4."),
        ],
    )
    assert targets(vocab, "You may choose the alternative Adventure name.") == ["715"]
    assert targets(vocab, "If it's cast as an Adventure, it's exiled.") == ["715"]
    assert targets(vocab, "It reduces only the generic component of that cost.") == ["107.4"]
    assert targets(vocab, "It can reduce only the generic portion of the total cost.") == ["107.4"]


def test_what_a_thing_is_no_longer_is_what_the_text_is_about() -> None:
    """*is no longer a creature type*: the text says what it stops being, as *is a* says what
    it is."""
    rules = [RuleEntry("205.3", "rule", "", "Subtypes …"), RuleEntry("205.3m", "subrule", "", "")]
    glossary = [
        GlossaryItem("Creature Type", "A subtype of creatures. See rule 205.3m."),
        GlossaryItem("Subtype", "A characteristic. See rule 205.3."),
    ]
    vocab = english_vocabulary(rules, glossary)
    assert targets(vocab, "“Legend” is no longer a creature type.") == ["205.3"]
    assert targets(vocab, "Each creature of the chosen creature type gets +1/+1.") == []


def test_a_verb_sense_after_a_card_name(vocab) -> None:
    """A card's name as the subject makes the word after it a verb: the spell counters
    (701.6), it puts no counters (122)."""
    found = vocab.match("Kadena’s Silencer counters only abilities.", mask=["Kadena's Silencer"])
    assert [m.term.targets for m in found] == [("701.6",)]


def test_senses_titles_and_variant_names(vocab) -> None:
    # a glossary headword's verb sense has its own rule; the noun sense keeps the other
    assert targets(vocab, "It can't be countered.") == ["701.6"]
    assert targets(vocab, "Each Saga can have two counters.") == ["122"]
    # "rule 103.3 and rule 701.24": the cited rule titled like the term wins
    assert targets(vocab, "That player must shuffle their library.") == ["701.24"]
    # a variant by its name alone
    assert targets(vocab, "In a Two-Headed Giant game, each team") == ["810"]
    # "of" breaks a phrase that has none
    assert targets(vocab, "after the beginning of that phase's first step") == []


def test_a_variant_of_several_words_is_named_in_lower_case() -> None:
    """ "Emperor" or "Archenemy" alone must be capitalised to name a variant; a phrase of
    several words names it as it is: "you may attack multiple players" (802)."""
    vocab = english_vocabulary(
        [
            RuleEntry("802", "rule", "Attack Multiple Players Option", ""),
            RuleEntry("809", "rule", "Emperor Variant", ""),
        ],
        [],
    )
    assert targets(vocab, "In a game in which you may attack multiple players") == ["802"]
    assert targets(vocab, "The emperor of that team") == []
    assert targets(vocab, "In an Emperor game") == ["809"]


def test_participle_of_a_keyword_whose_rules_use_it(vocab) -> None:
    """702.47c says "spliced": a spliced spell names Splice; 702.5 never says "enchanted", which
    names what an Aura is attached to (303.4), not the keyword."""
    assert targets(vocab, "If you copy a spliced spell, you copy the spliced text.") == [
        "702.47",
        "702.47",
    ]
    assert targets(vocab, "The enchanted creature gets +1/+1.") == []
    assert targets(vocab, "It has enchant creature.") == ["702.5"]


def test_participles_of_a_keyword_no_other_rule_uses(vocab) -> None:
    """No rule says "evoked": an evoked creature names Evoke, as "foretold" names Foretell;
    "enchanted" names what 303.4 says, not the keyword. A keyword named by a gerund (Cycling,
    Offering) has a verb of its own, named only where its rules use it (702.29d "cycled")."""
    assert targets(vocab, "When the evoked creature enters, you sacrifice it.") == ["702.74"]
    assert targets(vocab, "Any ability that triggers on a card being cycled") == ["702.29"]
    assert targets(vocab, "The player is offered a choice.") == []
    # capitalised in mid-sentence, or before another capital: part of a card's name
    assert targets(vocab, "It copies Evoked Wurm.") == []
    assert targets(vocab, "Evoked Wurm gains trample.") == []


def test_the_word_a_gerund_keyword_is_made_from(vocab) -> None:
    """702.29c says "you cycle this card": the verb names Cycling, as the rules use it (not
    after a determiner: *this cycle* of cards), and not after a name (*the Kaldra cycle*);
    702.48 never says "offer", which stays an ordinary verb."""
    assert targets(vocab, "You can cycle this card even if it has no targets.") == ["702.29"]
    assert targets(vocab, "If a player cycles a card, it triggers.") == ["702.29"]
    assert targets(vocab, "Each land in this cycle is colorless.") == []
    assert targets(vocab, "Helm of Kaldra is the third card in the Kaldra cycle.") == []
    assert targets(vocab, "You may offer a deal.") == []


def test_renamed_obsolete_terms_keep_their_rules(vocab) -> None:
    assert targets(vocab, "Totem Armor works as before.") == ["702.89"]
    assert targets(vocab, "The cards set aside this way stay there.") == ["406"]
    assert targets(vocab, "The card was placed there.") == []  # old wording, not a rename


def test_french_and_spanish_keyword_names(vocab) -> None:
    # The keyword names cards print ("Enchanter", "Vol", "Vuela") are learned from them
    # (kb.links.learned), no longer typed in the thesaurus.
    fr = translated_vocabulary("fr", vocab, {}, {"Enchanter": "Enchant", "Vol": "Flying"})
    es = translated_vocabulary("es", vocab, {}, {"Vuela": "Flying"})
    assert targets(fr, "Enchanter : créature") == ["702.5"]
    assert targets(fr, "La créature enchantée gagne +1/+1.") == []
    assert targets(fr, "Vol") == ["702.9"]
    assert targets(es, "La criatura encantada obtiene +1/+1.") == []
    assert targets(es, "Vuela, arrolla.") == ["702.9"]
    assert targets(es, "con la habilidad de volar") == ["702.9"]


@lru_cache(maxsize=2)
def _rule_numbers(path: Path) -> frozenset[str]:
    document = comprules.parse(path.read_text(encoding="utf-8-sig"), str(path))
    return frozenset(rule.number for rule in document.rules)


@pytest.mark.parametrize(
    "name",
    [
        "labelled_clarifications.json",
        "labelled_unseen.json",
        "labelled_dev2.json",
        "labelled_dev3.json",
        "labelled_dev4.json",
        "labelled_dev5.json",
        "labelled_dev6.json",
        "labelled_dev7.json",
        "labelled_dev8.json",
        "labelled_dev9.json",
        "labelled_dev10.json",
        "labelled_dev11.json",
        "labelled_dev12.json",
        "labelled_dev13.json",
        "labelled_dev14.json",
        "labelled_dev15.json",
        "labelled_dev16.json",
        "labelled_dev17.json",
        "labelled_dev18.json",
        "labelled_dev19.json",
        "labelled_dev20.json",
        "labelled_dev21.json",
        "labelled_dev22.json",
        "labelled_dev23.json",
        "labelled_dev24.json",
        "labelled_dev25.json",
        "labelled_dev26.json",
        "labelled_dev27.json",
        "labelled_dev28.json",
        "labelled_dev29.json",
        "labelled_dev30.json",
        "labelled_dev31.json",
        "labelled_dev32.json",
        "labelled_dev33.json",
        "labelled_dev34.json",
        "labelled_dev35.json",
        "labelled_card_texts.json",
        "labelled_card_texts_held_out.json",
        "labelled_translations.json",
    ],
)
def test_labels_name_rules_of_their_edition(name: str, cr_path) -> None:
    labels = json.loads((DATA / name).read_text(encoding="utf-8"))
    numbers = _rule_numbers(cr_path(labels["edition"]))
    ids = [item["id"] for item in labels["items"]]
    assert len(ids) == len(set(ids))
    for item in labels["items"]:
        for key in ("rules", "related", "implied"):
            for number in item[key]:
                assert number in numbers, f"{name} {item['id']}: {number} is no rule"


def test_unseen_set_is_drawn_from_sets_never_tuned_on_and_split_once() -> None:
    labels = json.loads((DATA / "labelled_unseen.json").read_text(encoding="utf-8"))
    old = json.loads((DATA / "labelled_clarifications.json").read_text(encoding="utf-8"))
    tuned = {i["source"] for i in old["items"]} | {"LTR"}
    items = labels["items"]
    assert len(items) >= 200
    assert not {i["source"] for i in items} & tuned
    assert str(20261201) in labels["sample"]
    # the split the draw script makes: the first 12 drawn of each set are dev
    for item in items:
        rank = int(re.sub(r"^.*-", "", item["id"]))
        assert item["split"] == ("dev" if rank <= 12 else "test"), item["id"]
    assert Counter(i["split"] for i in items) == {"dev": 96, "test": 104}


@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("dev2", 20261210),
        ("dev3", 20261202),
        ("dev4", 20261207),
        ("dev5", 20261212),
        ("dev6", 20261214),
        ("dev7", 20261221),
        ("dev8", 20261228),
        ("dev9", 20270104),
        ("dev10", 20270111),
        ("dev11", 20270118),
        ("dev12", 20270125),
        ("dev13", 20270201),
        ("dev14", 20270208),
        ("dev15", 20270215),
        ("dev16", 20270222),
        ("dev17", 20270301),
        ("dev18", 20270308),
        ("dev19", 20270315),
        ("dev20", 20270322),
        ("dev21", 20270329),
        ("dev22", 20270405),
        ("dev23", 20270412),
        ("dev24", 20270419),
        ("dev25", 20270426),
        ("dev26", 20270503),
        ("dev27", 20270510),
        ("dev28", 20270517),
        ("dev29", 20270524),
        ("dev30", 20270531),
        ("dev31", 20270607),
        ("dev32", 20270614),
        ("dev33", 20270621),
        ("dev34", 20270628),
        ("dev35", 20270705),
    ],
)
def test_further_dev_sets_share_no_set_and_no_text_with_other_labels(name: str, seed: int) -> None:
    dev = json.loads((DATA / f"labelled_{name}.json").read_text(encoding="utf-8"))
    others = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(DATA.glob("labelled_*.json"))
        if path.name != f"labelled_{name}.json"
    ]
    seen_sets = {"KHM", "CN2", "LTR"}
    for data in others:
        seen_sets |= set(data.get("sets") or ())
        seen_sets |= {i["source"] for i in data["items"] if i.get("source")}
    seen_texts = {" ".join(i["text"].split()).casefold() for d in others for i in d["items"]}
    assert str(seed) in dev["sample"]
    assert len(dev["items"]) >= 80
    assert not set(dev["sets"]) & seen_sets
    assert {i["split"] for i in dev["items"]} == {"dev"}
    assert not {" ".join(i["text"].split()).casefold() for i in dev["items"]} & seen_texts


def test_land_types_are_linked_where_the_text_is_about_them() -> None:
    """A land type is a general concept, no basic noun (305.6, 305.7: effects set and remove
    them): a ruling saying a land loses them, or counting them, is about them; one naming a land
    by its chosen land type only mentions it."""
    rules = [RuleEntry("305", "chapter", "Lands", "")]
    glossary = [GlossaryItem("Land Type", "A subtype of lands. See rule 305, “Lands.”")]
    vocab = english_vocabulary(rules, glossary)
    assert targets(vocab, "The enchanted land loses its existing land types.") == ["305"]
    assert targets(vocab, "If a land has more than one land type, it counts once.") == ["305"]
    assert targets(vocab, "Each land of the chosen land type untaps.") == []


@pytest.mark.parametrize(
    ("text", "word", "about"),
    [
        # what a player chooses the state to be (508.4: put onto the battlefield attacking)
        ("You choose which player the token is attacking.", "attacking", True),
        ("You choose which players or planeswalkers the tokens are attacking.", "attacking", True),
        # a progressive alone is a state; a time clause opens another clause
        ("The token is attacking that player.", "attacking", False),
        ("You choose which cards to return while the spell is resolving.", "resolving", False),
    ],
)
def test_a_chosen_state_is_what_the_text_is_about(text: str, word: str, about: bool) -> None:
    assert _about(text, word) is about


@pytest.mark.parametrize(
    ("text", "about"),
    [
        # "the target creature" is the targeted one, as "the targeted creature" is
        ("If the target creature is an illegal target, it won't resolve.", False),
        # "the target" alone is the noun, the subject of its clause
        ("If the target changes, the spell still resolves.", True),
    ],
)
def test_target_before_what_is_targeted_picks_the_object(text: str, about: bool) -> None:
    assert _about(text, "target") is about


@pytest.mark.parametrize(
    "text",
    [
        "Each of the activated abilities replaces all creature types it had.",
        "This effect overwrites all creature types the creature has.",
    ],
)
def test_what_an_effect_replaces_or_overwrites_is_what_it_changes(text: str) -> None:
    """Replacing and overwriting are changes: their object is what the text says changes, as
    after *removes* or *loses*."""
    assert _about(text, "creature types")


def test_creature_types_are_subtypes_linked_where_the_text_is_about_them() -> None:
    """A creature type is a subtype (205.3), though the glossary cites 302 "Creatures" first;
    like a land type it is a general concept: a ruling saying an effect doesn't affect them is
    about them, one naming creatures by their chosen type only mentions it."""
    rules = [
        RuleEntry("205.3", "rule", "Subtypes", ""),
        RuleEntry("302", "chapter", "Creatures", ""),
    ]
    glossary = [
        GlossaryItem("Subtype", "A characteristic. See rule 205.3, “Subtypes.”"),
        GlossaryItem(
            "Creature Type",
            "A subtype that’s correlated to the creature card type. See rule 302, “Creatures.”",
        ),
    ]
    vocab = english_vocabulary(rules, glossary)
    assert targets(vocab, "It doesn't affect its creature types.") == ["205.3"]
    assert targets(vocab, "Each creature of the chosen creature type gets +1/+1.") == []
    # so is an artifact type, not an artifact (301); a land type stays with 305.6 and 305.7
    artifacts = english_vocabulary(
        [
            *rules,
            RuleEntry("301", "chapter", "Artifacts", ""),
            RuleEntry("305", "chapter", "Lands", ""),
        ],
        [
            *glossary,
            GlossaryItem("Artifact Type", "A subtype. See rule 301, “Artifacts.”"),
            GlossaryItem("Land Type", "A subtype. See rule 305, “Lands.”"),
        ],
    )
    assert targets(artifacts, "Food is an artifact type.") == ["205.3"]
    assert targets(artifacts, "It loses its land types.") == ["305"]


def test_permanent_cards_are_linked_where_the_text_is_about_them() -> None:
    """110.4a: what a permanent card is, where a ruling says so; a ruling that only picks one
    (*any permanent card in your graveyard*, *put permanent cards with morph onto the
    battlefield*) mentions it on the way."""
    rules = [RuleEntry("110.4a", "subrule", "", "A permanent card is a card that could be put …")]
    glossary = [GlossaryItem("Permanent Card", "A card that could be put. See rule 110.4a.")]
    vocab = english_vocabulary(rules, glossary)
    assert targets(vocab, "A permanent card is a card with one or more card types.") == ["110.4a"]
    assert targets(vocab, "You can target any permanent card in your graveyard.") == []
    assert targets(vocab, "You put permanent cards with morph onto the battlefield.") == []


def test_characteristics_are_linked_where_the_text_is_about_them() -> None:
    """109.3: a ruling says the word on the way (*copies the original characteristics of that
    token*); it is about them where they are its subject or what a thing becomes."""
    rules = [RuleEntry("109.3", "rule", "", "An object's characteristics are …")]
    glossary = [GlossaryItem("Characteristics", "Information that defines an object. See 109.3.")]
    vocab = english_vocabulary(rules, glossary)
    assert targets(vocab, "The token copies the original characteristics of that token.") == []
    assert targets(vocab, "Characteristics are not copied from the card.") == ["109.3"]


def test_a_designation_participle_with_its_agent_is_the_verb() -> None:
    """700.9: a creature *is modified* (a counter, an Equipment, an Aura); the characteristics
    *modified by eternalize* and a draw *modified by a replacement effect* are the verb."""
    vocab = english_vocabulary(
        [RuleEntry("700.9", "rule", "", "A modified creature is a creature that has a counter.")],
        [GlossaryItem("Modified", "A modified creature has a counter on it. See rule 700.9.")],
    )
    assert targets(vocab, "A creature with a counter on it is considered modified.") == ["700.9"]
    assert targets(vocab, "If a modified creature stops being a creature, it's not.") == ["700.9"]
    assert targets(vocab, "Except the characteristics specifically modified by eternalize.") == []
    assert targets(vocab, "The number of cards drawn is modified by Notion Thief.") == []


def test_a_glossary_term_is_linked_where_the_rules_say_what_it_is() -> None:
    """ "Lethal Damage" cites 120.4a first, which only uses the term (excess damage), then 120.6,
    which says what it is: a ruling that names it links 120.6 (DEFINED_AT)."""
    vocab = english_vocabulary(
        [
            RuleEntry(
                "120.4a",
                "subrule",
                "",
                "The excess damage is the amount greater than lethal damage.",
            ),
            RuleEntry(
                "120.6",
                "rule",
                "",
                "If the total damage marked on a creature is greater than or equal to its "
                "toughness, that creature has been dealt lethal damage.",
            ),
        ],
        [GlossaryItem("Lethal Damage", "An amount of damage. See rules 120.4a and 120.6.")],
    )
    assert targets(vocab, "Lethal damage won't destroy it.") == ["120.6"]

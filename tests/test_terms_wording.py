"""When a concept is linked: the wording rules of kb.links.about and kb.links.wording.

Each rule has a sentence it links and one it leaves, written like the rulings of unseen sets.
"""

from __future__ import annotations

import pytest

from kb.links.about import is_about
from kb.links.term_vocabulary import GlossaryItem, RuleEntry, english_vocabulary
from kb.links.wording import distributed, symbol_mana

RULES = [
    RuleEntry("107.3", "rule", "", "Many objects use the letter X as a placeholder."),
    RuleEntry("107.4", "rule", "", "The mana symbols are …"),
    RuleEntry("107.5", "rule", "", "The tap symbol is {T}."),
    RuleEntry("113.3", "rule", "", "There are four general categories of abilities."),
    RuleEntry("115", "chapter", "Targets", ""),
    RuleEntry("121", "chapter", "Drawing a Card", ""),
    RuleEntry("406", "chapter", "Exile", ""),
    RuleEntry("601", "chapter", "Casting Spells", ""),
    RuleEntry("608", "chapter", "Resolving Spells and Abilities", ""),
    RuleEntry("508.1", "rule", "", "First, the active player declares attackers."),
    RuleEntry("609.4", "rule", "", "Some effects allow a player to take an action …"),
    RuleEntry("609.7", "rule", "", "Some effects apply to damage from a source …"),
    RuleEntry("615", "chapter", "Prevention Effects", ""),
    RuleEntry("701.8", "rule", "Destroy", ""),
    RuleEntry("701.21", "rule", "Sacrifice", ""),
    RuleEntry("702.5", "rule", "Enchant", ""),
    RuleEntry("708", "chapter", "Face-Down Spells and Permanents", ""),
    RuleEntry("709", "chapter", "Split Cards", ""),
]
GLOSSARY = [
    GlossaryItem("As Though", "Effects that allow actions as though … See rule 609.4."),
    GlossaryItem("Cast", "To take a card … See rule 601, “Casting Spells.”"),
    GlossaryItem("Declare Attackers", "To choose which creatures will attack. See rule 508.1."),
    GlossaryItem("Source of Damage", "The object that dealt damage. See rule 609.7."),
    GlossaryItem("Destroy", "To move a permanent to its owner's graveyard. See rule 701.8."),
    GlossaryItem("Draw", "1. To put the top card … See rule 121, “Drawing a Card.”"),
    GlossaryItem("Enchant", "A keyword ability. See rule 702.5, “Enchant.”"),
    GlossaryItem("Exile", "A zone. See rule 406, “Exile.”"),
    GlossaryItem("Phyrexian Mana Symbol", "A mana symbol that … See rule 107.4f."),
    GlossaryItem("Prevent", "A word used by prevention effects. See rule 615."),
    GlossaryItem("Sacrifice", "To move a permanent you control to … See rule 701.21."),
    GlossaryItem("X", "A placeholder for a number. See rule 107.3."),
    GlossaryItem("Spell Ability", "An ability that's followed as instructions. See rule 113.3a."),
    GlossaryItem("Split Cards", "Cards with two halves. See rule 709, “Split Cards.”"),
    GlossaryItem("Tap Symbol", "The tap symbol {T} in an activation cost. See rule 107.5."),
    GlossaryItem("Target", "A preselected object. See rule 115, “Targets.”"),
]
RULES.append(RuleEntry("113.3a", "subrule", "", "Spell abilities are …"))
RULES.append(RuleEntry("107.4f", "subrule", "", "Phyrexian mana symbols are …"))


@pytest.fixture(scope="module")
def vocab():
    return english_vocabulary(RULES, GLOSSARY)


def targets(vocab, text: str, mask: tuple[str, ...] = ()) -> list[str]:
    return sorted({n for m in vocab.match(text, mask) for n in m.term.targets})


@pytest.mark.parametrize(
    ("text", "mask", "expected"),
    [
        # a pronoun's clitic is a form of be: "it's destroyed" says how it happens
        ("It’s destroyed as part of the ability’s resolution.", (), ["701.8"]),
        ("Its controller destroyed nothing.", (), []),
        # a card the ruling is about is a name at the start of a sentence too
        ("Strionic Resonator targets a triggered ability.", ("Strionic Resonator",), ["115"]),
        ("Strionic Resonator targets a triggered ability.", (), []),
        # the event after "when/whenever" that follows a trigger, anywhere in the clause
        ("Its ability triggers whenever you sacrifice a permanent.", (), ["701.21"]),
        ("Your team has 10 life when you sacrifice it.", (), []),
        # only spells and abilities target (115.1): a pronoun before "target" stands for one
        ("This doesn’t target that opponent.", (), ["115"]),
        ("It doesn’t draw a card.", (), []),
        ("Magmaquake doesn't target any creature.", ("Magmaquake",), ["115"]),
        ("Magmaquake’s controller doesn't target any creature.", ("Magmaquake",), []),
        # counted, zero too
        ("Fireball can have zero targets.", (), ["115"]),
        # a progressive after a player is the action, uncontracted too; after an object a state
        ("If you tap it while you are casting a spell, it triggers.", (), ["601"]),
        ("If the spell is casting a shadow, nothing happens.", (), []),
        # what a player is allowed to do
        ("Furnace Celebration doesn’t allow you to sacrifice any permanents.", (), ["701.21"]),
        ("It lets players sacrifice nothing else.", (), []),
        # an event verb made a noun, after a determiner and one adjective, or an article
        ("The additional draw is separate from any other draw.", (), ["121"]),
        ("It is not a draw effect.", (), ["121"]),
        ("If both players run out of cards, the game is a draw.", (), []),
        ("This effect will have that player draw two cards.", (), []),
    ],
)
def test_about_rules(vocab, text, mask, expected) -> None:
    assert targets(vocab, text, mask) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a determiner opens a second noun phrase: no noun compound across it
        ("If the spell the ability copies is modal, the copy is modal.", []),
        ("Spell abilities are followed as instructions.", ["113.3a"]),
        ("That player may ask for advice on how to split the cards.", []),
        ("All split cards have two halves.", ["709"]),
        # "prevent X from doing" is a restriction, not damage prevention
        ("This ability will prevent it from being untapped.", []),
        ("A Fog-like effect prevents it from dealing damage.", ["615"]),
        # Prevent is "what damage will not be dealt": with no damage, the everyday verb
        ("The effect prevents spells or abilities of permanents from targeting it.", []),
        ("Auras already attached are not prevented.", []),
        ("Paying the cost prevents that damage.", ["615"]),
        # the keyword is written with its object, a bare noun; the verb takes an article
        ("An Aura with enchant opponent can't be attached to a permanent.", ["702.5"]),
        ("It loses enchant creature.", ["702.5"]),
        ("If the creature this Aura would enchant is an illegal target, it stays.", []),
        ("It can target and enchant a tapped creature.", ["115"]),
        # the keyword is written in its base form: "enchants" is the verb, whatever follows
        ("The creature it enchants as the turn ends is tapped.", []),
        ("Enchant creature is the keyword.", ["702.5"]),
        # a phrase's "of" takes the noun's determiner in a text (508.1, 609.7); another "of"
        # between a phrase's words still opens another phrase
        ("It's an additional cost on the declaration of the attacker.", ["508.1"]),
        ("It affects only the declaration of attackers.", ["508.1"]),
        ("It doesn't change the source of the damage.", ["609.7"]),
        ("It doesn't change the source of that damage.", ["609.7"]),
        ("The source of its own ability deals no damage.", []),
        # a cost symbol inside a quoted ability is the card's wording
        ("It gains the ability “{T}: Add {R}.”", []),
        ("The tap symbol {T} is in its cost.", ["107.5"]),
        # and so is the variable X (107.3), which the ruling names outside the quote
        ("It has “{2}: This creature has base power X/X.”", []),
        ("If X is 0, nothing happens.", ["107.3"]),
        # a title's modifier distributes over its coordinated nouns
        ("If a face-down permanent leaves the battlefield, reveal it.", ["708"]),
        ("Nothing happens between the modes of a resolving spell.", ["608"]),
        # a term of function words only is everyday English: linked where quoted
        ("Treat it as though its only text is the chosen mode.", []),
        ("An effect that says “as though” lets you ignore a rule.", ["609.4"]),
        # a mana symbol's glossary entry names the mana
        ("Phyrexian mana is not a new color.", ["107.4f"]),
    ],
)
def test_wording_rules(vocab, text, expected) -> None:
    assert targets(vocab, text) == expected


def test_heading_names_on_their_own() -> None:
    assert distributed("Face-Down Spells and Permanents") == [
        "Face-Down Spells",
        "Face-Down Permanents",
    ]
    assert distributed("Numbers and Symbols") == []
    assert distributed("Ending Turns and Phases") == ["Ending Turns", "Ending Phases"]
    assert symbol_mana("Hybrid Mana Symbols") == "Hybrid Mana"
    assert symbol_mana("Tap Symbol") is None


def test_names_are_blanked_with_their_possessive() -> None:
    text = "Loaming Shaman’s ability targets a player."
    at = text.index("targets")
    assert is_about(text, at, at + 7, [(0, len("Loaming Shaman"))])

"""Classes of term-link errors the tuning sets showed, fixed as classes (issue 14).

A one-word keyword capitalised beside another capitalised word is part of a card's name, not the
keyword (*such as Lifecrafter’s Gift does*, dev6); old rulings capitalise a keyword alone (*the
Reach ability*, *have Flying*), which still names it. (The action a requirement or restriction
is for, *the requirement to block*, is tested with the other aboutness cases in
test_terms_about.py.) And a glossary symbol that cites no rule (Energy Symbol) is the rule that
says what it is, which the counter it represents names too.
"""

from __future__ import annotations

import pytest

from kb.links.term_vocabulary import GlossaryItem, RuleEntry, english_vocabulary

RULES = [
    RuleEntry("702", "chapter", "Keyword Abilities", ""),
    RuleEntry("702.9", "rule", "Flying", ""),
    RuleEntry("702.17", "rule", "Reach", ""),
    RuleEntry("702.174", "rule", "Gift", ""),
]
GLOSSARY = [
    GlossaryItem("Gift", "A keyword ability. See rule 702.174, “Gift.”"),
    GlossaryItem("Reach", "A keyword ability. See rule 702.17, “Reach.”"),
    GlossaryItem("Flying", "A keyword ability. See rule 702.9, “Flying.”"),
]


@pytest.fixture(scope="module")
def vocab():
    return english_vocabulary(RULES, GLOSSARY)


def targets(vocab, text: str) -> list[str]:
    return [n for m in vocab.match(text) for n in m.term.targets]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It applies to each instruction, such as Lifecrafter’s Gift does.", []),
        ("Return Gift of Paradise to your hand.", []),
        ("Creatures with the Reach ability don’t actually have Flying.", ["702.17", "702.9"]),
        ("You may promise a gift as you cast this spell.", ["702.174"]),
    ],
)
def test_a_keyword_beside_a_capitalised_word_is_a_name(vocab, text: str, expected) -> None:
    assert targets(vocab, text) == expected


def test_a_symbol_citing_no_rule_is_its_rule_and_names_its_counter() -> None:
    """The glossary's "Energy Symbol" cites no rule; 107.14 says what the symbol is, and the
    counter the symbol represents is the same concept (*how many energy counters each player
    has*)."""
    rules = [
        RuleEntry("107", "chapter", "Numbers and Symbols", ""),
        RuleEntry(
            "107.14", "rule", "", "The energy symbol is {E}. It represents one energy counter."
        ),
    ]
    glossary = [
        GlossaryItem(
            "Energy Symbol",
            "The energy symbol {E} represents one energy counter. To pay {E}, a player removes "
            "one energy counter from themselves.",
        )
    ]
    vocab = english_vocabulary(rules, glossary)
    assert targets(vocab, "Keep track of how many energy counters each player has.") == ["107.14"]
    assert targets(vocab, "You get only one {E}.") == ["107.14"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the verb: what an Aura is attached to (303.4b), where the ruling is about it
        ("It can only enchant a creature you control.", ["303.4"]),
        ("The Curse must be legally able to enchant the player.", ["303.4"]),
        # the keyword, written with a bare noun (702.5a)
        ("Enchant creature", ["702.5"]),
    ],
)
def test_the_verb_enchant_is_the_aura_rule(text: str, expected: list[str]) -> None:
    rules = [
        RuleEntry("303", "chapter", "Enchantments", ""),
        RuleEntry("303.4", "rule", "", "Some enchantments have the subtype “Aura.”"),
        RuleEntry("702.5", "rule", "Enchant", ""),
    ]
    glossary = [GlossaryItem("Enchant", "A keyword ability. See rule 702.5, “Enchant.”")]
    assert targets(english_vocabulary(rules, glossary), text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("You may keep count by using a die.", []),
        ("The result of the die roll is 7 on a six-sided die.", []),
        ("If it would die, exile it instead.", ["700.4"]),
        ("Count each creature that died this turn.", ["700.4"]),
    ],
)
def test_the_noun_die_is_no_dying(text: str, expected: list[str]) -> None:
    """706's die and 700.4's verb share a word: after a determiner, a number or a size it is
    the noun."""
    rules = [RuleEntry("700.4", "rule", "", "The term dies means “is put into a graveyard.”")]
    glossary = [GlossaryItem("Dies", "Is put into a graveyard. See rule 700.4.")]
    vocab = english_vocabulary(rules, glossary)
    assert sorted({n for m in vocab.match(text) for n in m.term.targets}) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Creature types appear after the dash on the type line of creatures.", []),
        ("Suspend puts the number before the dash in time counters.", []),
        ("If you pay the dash cost to cast a creature spell, it returns.", ["702.109"]),
        ("Creatures with dash can attack the turn they come under your control.", ["702.109"]),
    ],
)
def test_the_punctuation_dash_is_no_keyword(text: str, expected: list[str]) -> None:
    """A type line's dash is punctuation; Dash (702.109) is named by its cost or as a keyword."""
    rules = [RuleEntry("702.109", "rule", "Dash", "")]
    glossary = [GlossaryItem("Dash", "A keyword ability. See rule 702.109, “Dash.”")]
    vocab = english_vocabulary(rules, glossary)
    assert sorted({n for m in vocab.match(text) for n in m.term.targets}) == expected

"""Rules a ruling applies without naming them (kb.links.implied) and the word forms that name rules.

The vocabulary is built from a few rules and glossary entries written like the real ones.
"""

from __future__ import annotations

import pytest

from kb.links.implied import CardContext, TextEvidence, implied_matches
from kb.links.term_vocabulary import GlossaryItem, RuleEntry, english_vocabulary

RULES = [
    RuleEntry("101.4", "rule", "", "Active player, nonactive player order."),
    RuleEntry("102.1", "rule", "", "The active player is the player whose turn it is."),
    RuleEntry("120", "chapter", "Damage", ""),
    RuleEntry("120.4a", "subrule", "", "Lethal damage."),
    RuleEntry("120.6", "rule", "", "… that creature has been dealt lethal damage …"),
    RuleEntry("121", "chapter", "Drawing a Card", ""),
    RuleEntry("509", "chapter", "Declare Blockers Step", ""),
    RuleEntry("601", "chapter", "Casting Spells", ""),
    RuleEntry("602", "chapter", "Activating Activated Abilities", ""),
    RuleEntry("613", "chapter", "Interaction of Continuous Effects", ""),
    RuleEntry("614", "chapter", "Replacement Effects", ""),
    RuleEntry("615", "chapter", "Prevention Effects", ""),
    RuleEntry("616", "chapter", "Interaction of Replacement and/or Prevention Effects", ""),
    RuleEntry("702.48", "rule", "Offering", ""),
    RuleEntry("702.49", "rule", "Ninjutsu", ""),
    RuleEntry("704", "chapter", "State-Based Actions", ""),
    RuleEntry("704.5g", "subrule", "", "… that creature has been dealt lethal damage …"),
    RuleEntry("8", "section", "Multiplayer Rules", ""),
    RuleEntry("800", "chapter", "General", ""),
]
GLOSSARY = [
    GlossaryItem("Activate", "To put an activated ability onto the stack. See rule 602."),
    GlossaryItem("Active Player", "The player whose turn it is. See rule 102.1."),
    GlossaryItem("Active Player, Nonactive Player Order", "A system. See rule 101.4."),
    GlossaryItem("Block", "To send a creature into combat defensively. See rule 509."),
    GlossaryItem("Cast", "To take a card … See rule 601, “Casting Spells.”"),
    GlossaryItem("Draw", "1. To put the top card … See rule 121, “Drawing a Card.”"),
    GlossaryItem("Lethal Damage", "Damage. See rules 120.4a, 120.6 and 704.5g."),
    GlossaryItem("Multiplayer Game", "A game. See section 8, “Multiplayer Rules.”"),
    GlossaryItem("Ninjutsu", "A keyword ability. See rule 702.49, “Ninjutsu.”"),
    GlossaryItem("Offering", "A keyword ability. See rule 702.48, “Offering.”"),
    GlossaryItem("Prevention Effect", "An effect. See rule 615, “Prevention Effects.”"),
    GlossaryItem("Replacement Effect", "An effect. See rule 614, “Replacement Effects.”"),
]


@pytest.fixture(scope="module")
def vocab():
    return english_vocabulary(RULES, GLOSSARY)


def targets(vocab, text: str, context: CardContext | None = None) -> list[str]:
    found = vocab.match(text)
    found += implied_matches(vocab, text, found, context)
    return sorted({n for m in found for n in m.term.targets})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a section stands for its general rule
        ("In a multiplayer game, each opponent chooses.", ["800"]),
        # a headword part that has its own entry keeps that entry's rule
        ("The active player chooses first.", ["102.1"]),
        # a keyword's name is written whole
        ("Each opponent may accept the offer.", []),
        ("Goblin offering lets you cast it.", ["702.48"]),
        # lethal damage is what a state-based action checks
        ("Both creatures are dealt lethal damage at once.", ["120.6", "704.5g"]),
        ("It is dealt lethal combat damage.", ["120.6", "704.5g"]),
        # the subject of a passive verb, in any clause
        ("The ability resolves before blockers are chosen.", ["509"]),
        ("It resolves before blockers block.", []),
        # as part of a procedure, let someone do it, an event verb as a noun
        ("You sacrifice it as part of casting a spell or activating an ability.", ["601", "602"]),
        ("Each opponent has the option to let you draw a card.", ["121"]),
        ("You'll discard a card even if another effect replaces the draw.", ["121", "614"]),
        ("You discard a card, then you draw a card.", []),
        # a quoted word is talked about; a quoted ability's first word is card text
        ("Without the word “draw,” it is not drawing.", ["121"]),
        ("It has “Draw a card, then discard a card.”", []),
        # casting or activating what a keyword's own rule governs
        (
            "The ninjutsu ability can be activated only after blockers are declared.",
            [
                "509",
                "702.49",
            ],
        ),
    ],
)
def test_word_forms_and_aboutness(vocab, text: str, expected: list[str]) -> None:
    assert targets(vocab, text) == expected


def test_replacement_effects_applied_without_the_words(vocab) -> None:
    # the glossary's "an event that would happen": what happens if something would
    assert targets(vocab, "The creature will be exiled if it would die this turn.") == ["614"]
    assert targets(vocab, "That spell would resolve before it.") == []
    assert targets(vocab, "Each Warrior enters the battlefield with a +1/+1 counter.") == ["614"]
    # entering with a characteristic or an ability is a state, no replaced event
    assert "614" not in targets(vocab, "The token enters the battlefield with toughness 0.")
    assert "614" not in targets(vocab, "It enters the battlefield with haste.")
    assert targets(vocab, "If you cast a spell that would target it, it resolves.") == []
    assert "614" not in targets(vocab, "If damage would be dealt to it, prevent that damage.")
    # events said to happen at once, where nothing happens instead (indestructibility it grants)
    only = "If Aegis Angel and the permanent would be destroyed simultaneously, only one is."
    assert "614" not in targets(vocab, only)
    instead = (
        "If a red permanent would die at the same time as it, that permanent is exiled instead."
    )
    assert "614" in targets(vocab, instead)
    # a card worded as 614.1 says (instead, enters with) whose effect the ruling says applies
    pir = CardContext(
        (
            "If another permanent would enter with counters, it enters with that "
            "many plus one instead.",
        )
    )
    text = "Pir’s effect can’t apply to itself as it’s entering the battlefield."
    assert targets(vocab, text, pir) == ["614"]
    assert targets(vocab, text) == []
    plain = CardContext(("Draw a card.",))
    assert targets(vocab, text, plain) == []
    # a counterfactual "would" is no event watched for: a state, or a past that did not happen
    for text in (
        "You can redirect it if such a target choice would be legal.",
        "It resolves fully even if the 1 damage would be enough to destroy it.",
        "You can turn it face up if it would have morph while face up.",
    ):
        assert "614" not in targets(vocab, text), text
    # nor what a thing "would just be" or "would end up with", said of a card worded "instead"
    doubling = CardContext(("If counters would be put on it, twice that many are put instead.",))
    for text in (
        "If the target land is a basic Mountain, a copy of that creature would just be a Mountain.",
        "If it had three +1/+1 counters on it, it would end up with six +1/+1 counters on it.",
    ):
        assert "614" not in targets(vocab, text, doubling), text
    assert "614" in targets(vocab, "If it would get counters, it gets twice that many.", doubling)
    fight = CardContext(("It deals 10 damage divided as you choose among any targets instead.",))
    lost = "The damage that would have been dealt to the illegal targets is lost."
    assert "614" not in targets(vocab, lost, fight)


def test_state_based_actions_by_their_conditions(vocab) -> None:
    assert targets(vocab, "If your life total is brought to 0 or less, you lose.") == ["704"]
    assert targets(vocab, "A creature with 0 toughness enters the battlefield.") == ["704"]
    assert targets(vocab, "A creature with 0 power can attack.") == []
    # and by what 704.5m and 704.5n do to attachments, in their words
    auras = "Auras attached to the exiled permanent will be put into their owners’ graveyards."
    assert targets(vocab, auras) == ["704"]
    equipment = "Any Equipment will become unattached and remain on the battlefield."
    assert targets(vocab, equipment) == ["704"]
    assert targets(vocab, "The creature card is put into its owner’s graveyard.") == []


def test_layers_when_an_effect_changes_two_kinds_of_characteristic(vocab) -> None:
    text = "This effect changes only the power and creature type. It keeps its abilities."
    assert targets(vocab, text) == ["613"]
    assert targets(vocab, "This effect changes only its power and toughness.") == []
    assert targets(vocab, "Its power and its types are printed on it.") == []


def test_interaction_of_replacement_effects(vocab) -> None:
    text = "If replacement or prevention effects would modify damage, its controller chooses."
    assert "616" in targets(vocab, text)
    text = "Replacement effects that modify how it enters are applied in the following order."
    assert targets(vocab, text) == ["614", "616"]
    assert targets(vocab, "Replacement effects modify how it enters.") == ["614"]


def test_implied_links_are_english_only(vocab) -> None:
    from kb.links.term_vocabulary import translated_vocabulary

    fr = translated_vocabulary("fr", vocab, {})
    assert implied_matches(fr, "si elle devait mourir", [], None) == []


# Rulings every pattern of kb.links.implied (and one of kb.links.described) concerns.
_EVIDENCE_TEXTS = [
    ("The creature will be exiled if it would die this turn.", None),
    ("Pir’s effect can’t apply to itself as it’s entering the battlefield.", "enters with"),
    ("If your life total is brought to 0 or less, you lose.", None),
    ("This effect changes only the power and creature type. It keeps its abilities.", None),
    ("Replacement effects that modify how it enters are applied in the following order.", None),
    ("If replacement or prevention effects would modify damage, its controller chooses.", None),
    ("You don't need to find a basic land card. Replacement effects apply.", None),
    ("Nothing in this ruling shows a rule.", None),
]


def _renumbered() -> object:
    """The same rules with the implied ones moved or gone: other rules for the same evidence."""
    moved = {"614": "615", "704": "613", "613": "704"}
    rules = [
        RuleEntry(moved.get(r.number, r.number), r.kind, r.title, r.body)
        for r in RULES
        if r.number != "616"
    ]
    glossary = [*GLOSSARY, GlossaryItem("Search", "To look for a card. See rule 701.23.")]
    return english_vocabulary(rules, glossary)


def test_kept_evidence_gives_the_matches_found_without_it(vocab) -> None:
    """One TextEvidence per ruling, asked in vocabularies that name other rules and with other
    term matches (what the link walk does edition after edition), gives the very matches a
    fresh call gives each time."""
    other = _renumbered()
    kept = {}
    differ = 0
    for vocabulary in (vocab, other, vocab):
        for text, card in _EVIDENCE_TEXTS:
            context = CardContext(
                (f"If it would die, it {card} a counter instead.",) if card else ()
            )
            evidence = kept.setdefault(text, TextEvidence(text, context))
            own = vocabulary.match(text)
            for found in (own, []):
                fresh = implied_matches(vocabulary, text, found, context)
                assert implied_matches(vocabulary, text, found, context, evidence) == fresh
                differ += fresh != implied_matches(
                    other if vocabulary is vocab else vocab, text, found, context
                )
    assert differ  # the vocabularies do give other matches for the same evidence
    assert any(isinstance(place, tuple) for e in kept.values() for place in e.described.found)


def test_evidence_of_a_ruling_reads_the_ruling_and_its_cards_only(vocab) -> None:
    """The same ruling with other card texts is other evidence: where the card decides."""
    text = "Pir’s effect can’t apply to itself as it’s entering the battlefield."
    worded = TextEvidence(text, CardContext(("It enters with a counter instead.",)))
    plain = TextEvidence(text, CardContext(("Draw a card.",)))
    assert worded.replacement is not None
    assert plain.replacement is None
    assert implied_matches(vocab, text, [], evidence=plain) == []

"""The term vocabulary and its inflection-tolerant matcher, on small inputs."""

from __future__ import annotations

import pytest

from kb.links.term_vocabulary import (
    GlossaryItem,
    RuleEntry,
    english_vocabulary,
    translated_vocabulary,
)
from kb.links.words import english_stem

RULES = [
    RuleEntry("113", "chapter", "Abilities", ""),
    RuleEntry("113.3a", "subrule", "", "Spell abilities are abilities followed as instructions."),
    RuleEntry("114", "chapter", "Emblems", ""),
    RuleEntry("303.4b", "subrule", "", "The object an Aura is attached to is enchanted by it."),
    RuleEntry("505", "chapter", "Main Phase", ""),
    RuleEntry("603", "chapter", "Handling Triggered Abilities", ""),
    RuleEntry("608.2b", "subrule", "", "If the spell or ability specifies targets, …"),
    RuleEntry("701.15", "rule", "Goad", ""),
    RuleEntry("701.38", "rule", "Vote", ""),
    RuleEntry("701.54", "rule", "The Ring Tempts You", ""),
    RuleEntry("702.5", "rule", "Enchant", ""),
    RuleEntry("702.170", "rule", "Plot", ""),
    RuleEntry("704", "chapter", "State-Based Actions", ""),
    RuleEntry("714", "chapter", "Saga Cards", ""),
    RuleEntry(
        "714.2",
        "rule",
        "",
        "A chapter symbol represents a triggered ability referred to as a chapter ability.",
    ),
    RuleEntry("719", "chapter", "Case Cards", ""),
    RuleEntry("723", "chapter", "Ending Turns and Phases", ""),
]
GLOSSARY = [
    GlossaryItem("Emblem", "A marker. See rule 114, “Emblems.”"),
    GlossaryItem("End the Turn", "To end the turn. See rule 723, “Ending Turns and Phases.”"),
    GlossaryItem("Goad", "A keyword action. See rule 701.15, “Goad.”"),
    GlossaryItem("Goaded", "A designation. See rule 701.15, “Goad.”"),
    GlossaryItem("Illegal Target", "A target that no longer exists. See rule 608.2b."),
    GlossaryItem("Spell Ability", "An ability of an instant or sorcery. See rule 113.3a."),
    GlossaryItem(
        "Triggered Ability",
        "A kind of ability. See rule 113, “Abilities,” and rule 603, “Handling Triggered "
        "Abilities.”",
    ),
    GlossaryItem("The Ring", "An emblem. See rule 701.54, “The Ring Tempts You.”"),
    GlossaryItem("Ring-bearer", "A designation. See rule 701.54, “The Ring Tempts You.”"),
    GlossaryItem("Vote", "Players vote. See rule 701.38, “Vote.”"),
    GlossaryItem("Deal", "See Damage.", redirect="Damage"),
    GlossaryItem("Creature", "A card type. See rule 302, “Creatures.”"),
    GlossaryItem("At End of Turn", "Old wording. See rule 513.", obsolete=True),
]


@pytest.fixture(scope="module")
def vocab():
    return english_vocabulary(RULES, GLOSSARY)


def linked(vocab, text: str, mask=()) -> list[tuple[str, tuple[str, ...]]]:
    return [(m.matched, m.term.targets) for m in vocab.match(text, mask=mask)]


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("tempts", "tempt"),
        ("tempted", "tempt"),
        ("tempting", "tempt"),
        ("votes", "vot"),
        ("voting", "vot"),
        ("voted", "vot"),
        ("vote", "vot"),
        ("abilities", "ability"),
        ("copied", "copy"),
        ("requirement", "requirement"),
        ("initiative", "initiativ"),
    ],
)
def test_english_stem_strips_inflections_only(word: str, stem: str) -> None:
    assert english_stem(word) == stem


def test_inflections_match(vocab) -> None:
    assert linked(vocab, "Each time the Ring tempts you, choose.")[0] == (
        "Ring tempts",
        ("701.54",),
    )
    assert linked(vocab, "The Ring won't tempt you.") == [("Ring won't tempt", ("701.54",))]
    assert linked(vocab, "cause the Ring to tempt you") == [("Ring to tempt", ("701.54",))]
    for text in ("Each player votes.", "In non-secret voting", "once all players have voted"):
        assert [t for _, t in linked(vocab, text)] == [("701.38",)], text


def test_glossary_title_choice_and_redirects(vocab) -> None:
    # Triggered Ability cites 113 and 603: the one whose title shares its words wins.
    assert linked(vocab, "a triggered ability") == [("triggered ability", ("603",))]
    assert linked(vocab, "an illegal target") == [("illegal target", ("608.2b",))]


def test_longest_phrase_wins_and_defined_terms(vocab) -> None:
    assert linked(vocab, "A chapter ability triggers.") == [("chapter ability", ("714.2",))]
    assert linked(vocab, "the chapter II ability") == [("chapter II ability", ("714.2",))]


def test_conjunctions_and_small_words_end_or_shape_phrases(vocab) -> None:
    # "spell or ability" is not the glossary's "Spell Ability"
    assert linked(vocab, "the spell or ability resolves") == []
    # "End the Turn" needs its "the": "until end of turn" is something else
    assert linked(vocab, "gets +1/+1 until end of turn") == []
    assert linked(vocab, "Time Stop ends the turn") == [("ends the turn", ("723",))]
    # "The Ring" needs its article: "Rings of Brighthearth" is a card
    assert linked(vocab, "Rings of Brighthearth copies it") == []


def test_capitalised_heads_participles_and_keyword_forms(vocab) -> None:
    assert linked(vocab, "Sacrifice the Saga.") == [("Saga", ("714",))]
    assert linked(vocab, "In the case of a tie") == []  # "Case Cards" needs "Case"
    assert linked(vocab, "That creature is goaded.") == [("goaded", ("701.15",))]
    assert linked(vocab, "Goad target creature.") == [("Goad", ("701.15",))]
    assert linked(vocab, "the enchanted creature") == []  # not the Enchant keyword
    assert linked(vocab, "Enchant creature") == [("Enchant", ("702.5",))]
    assert linked(vocab, "it has five or more plot counters") == []  # counters, not Plot
    # only right before "counter" or "token": small words between end the compound
    assert linked(vocab, "If you goad that token, it attacks.") == [("goad", ("701.15",))]


def test_basic_concepts_and_obsolete_terms_are_not_linked(vocab) -> None:
    assert linked(vocab, "Target creature deals damage") == []
    assert linked(vocab, "at end of turn") == []


def test_card_names_are_masked(vocab) -> None:
    text = "Council's Vote Engine makes each player vote."
    assert [m for m, _ in linked(vocab, text)] == ["Vote", "vote"]
    assert [m for m, _ in linked(vocab, text, mask=["Council's Vote Engine"])] == ["vote"]


def test_card_names_are_masked_whichever_apostrophe_they_write(vocab) -> None:
    """Card names are stored as MTGJSON writes them, rulings mostly curly: "Urza’s Saga" in a
    ruling is still the card "Urza's Saga", not a Saga."""
    text = "Urza’s Saga makes each player vote."
    assert [m for m, _ in linked(vocab, text, mask=["Urza's Saga"])] == ["vote"]


def test_french_and_spanish_vocabularies(vocab) -> None:
    es = translated_vocabulary("es", vocab, {"701.54": "El Anillo te tienta"})
    fr = translated_vocabulary("fr", vocab, {})
    assert [t for _, t in linked(es, "Cada vez que el Anillo te tiente, elige.")] == [("701.54",)]
    assert [t for _, t in linked(es, "Los jugadores votan en orden de turno.")] == [("701.38",)]
    assert [t for _, t in linked(fr, "Chaque fois que l'Anneau vous tente")] == [("701.54",)]
    assert [t for _, t in linked(fr, "les joueurs votent")] == [("701.38",)]
    assert [t for _, t in linked(fr, "Cette action basée sur un état")] == [("704",)]


def test_learned_card_terms_name_their_keyword_in_french_and_spanish(vocab) -> None:
    fr = translated_vocabulary("fr", vocab, {}, {"enchanter": "Enchant"})
    assert linked(fr, "Enchanter : créature") == [("Enchanter", ("702.5",))]
    assert linked(fr, "la créature enchantée") == []  # a participle, not the keyword
    assert [t.source for t in fr.terms if t.phrase == "enchanter"] == ["learned"]
    # A thesaurus alias outranks a learned name of the same words.
    both = translated_vocabulary("es", vocab, {}, {"votar": "Enchant"})
    assert linked(both, "votar") == [("votar", ("701.38",))]


def test_a_hyphenated_kind_of_card_is_named_in_lower_case() -> None:
    """ "Saga" and "Case" are words too, named capitalised; "double-faced" is no other word: a
    double-faced or melded permanent is one of 712's, not a doubling (701.10)."""
    vocab = english_vocabulary(
        [
            RuleEntry("701.10", "rule", "Double", ""),
            RuleEntry("712", "chapter", "Double-Faced Cards", ""),
        ],
        [GlossaryItem("Double", "A keyword action. See rule 701.10, “Double.”")],
    )
    text = "If it is a double-faced or melded permanent, it copies the face shown."
    assert linked(vocab, text) == [("double-faced", ("712",))]


def test_surveilled_and_flashed_back() -> None:
    """ "surveilled" doubles its l, which "called" does not; a card "flashed back" was cast with
    flashback (702.34), not with flash (702.8)."""
    vocab = english_vocabulary(
        [
            RuleEntry("701.25", "rule", "Surveil", ""),
            RuleEntry("702.8", "rule", "Flash", ""),
            RuleEntry("702.34", "rule", "Flashback", ""),
        ],
        [GlossaryItem("Flashback", "A keyword ability. See rule 702.34, “Flashback.”")],
    )
    assert linked(vocab, "If you surveilled this turn") == [("surveilled", ("701.25",))]
    assert linked(vocab, "If the card was flashed back") == [("flashed back", ("702.34",))]


def test_a_keyword_of_several_words_ending_in_ing_and_a_rule_by_its_name() -> None:
    """The last word of "City’s Blessing" is the keyword's own word, no gerund of another;
    the glossary's "Summoning Sickness Rule" is named "summoning sickness", as "X Variant" is
    "X" (not "legend" for the "Legend Rule": a basic noun)."""
    vocab = english_vocabulary(
        [RuleEntry("702.131", "rule", "Ascend", ""), RuleEntry("302.6", "rule", "", "…")],
        [
            GlossaryItem("City’s Blessing", "A designation. See rule 702.131, “Ascend.”"),
            GlossaryItem("Summoning Sickness Rule", "Informal term. See rule 302.6."),
            GlossaryItem("Legend Rule", "Informal term. See rule 302.6."),
        ],
    )
    assert linked(vocab, "You get the city's blessing.") == [("city's blessing", ("702.131",))]
    assert linked(vocab, "It has summoning sickness.") == [("summoning sickness", ("302.6",))]
    assert linked(vocab, "Each legend is unique.") == []


def test_multiplayer_game_in_french_and_spanish() -> None:
    english = english_vocabulary(
        [RuleEntry("800", "chapter", "General", "")],
        [GlossaryItem("Multiplayer Game", "A game with more than two players. See rule 800.")],
    )
    fr = translated_vocabulary("fr", english, {})
    es = translated_vocabulary("es", english, {})
    assert linked(fr, "Dans une partie multijoueur, le monarque part.")[0][1] == ("800",)
    assert linked(es, "En una partida multijugador, el monarca se va.")[0][1] == ("800",)

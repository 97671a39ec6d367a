"""Term spans carried across editions give exactly the matches a fresh match would."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kb.links.carry import CarriedMatches, Feed
from kb.links.term_vocabulary import GlossaryItem, RuleEntry, english_vocabulary


@dataclass(frozen=True)
class _Text:
    language: str
    text: str
    mask: tuple[str, ...] = ()


TEXTS = [
    _Text("en", "Each player votes for one choice. The Ring tempts you."),
    _Text("en", "Put a lore counter on each Saga you control."),
    _Text("en", "If you goad a creature, it attacks each combat if able."),
    _Text("en", "Blizzard Brawl fights nothing here; plot it later.", ("Blizzard Brawl",)),
    _Text("en", "Nothing in this text names a rule."),
]

# Three editions: the same rules renumbered (Vote 701.32 -> 701.38), then a term added (Plot).
EDITIONS = [
    ([RuleEntry("701.32", "rule", "Vote", ""), RuleEntry("714", "chapter", "Saga Cards", "")], []),
    ([RuleEntry("701.38", "rule", "Vote", ""), RuleEntry("714", "chapter", "Saga Cards", "")], []),
    (
        [
            RuleEntry("701.15", "rule", "Goad", ""),
            RuleEntry("701.38", "rule", "Vote", ""),
            RuleEntry("701.54", "rule", "The Ring Tempts You", ""),
            RuleEntry("702.170", "rule", "Plot", ""),
            RuleEntry("714", "chapter", "Saga Cards", ""),
        ],
        [GlossaryItem("Goad", "A keyword action. See rule 701.15, “Goad.”")],
    ),
]


def _plain(matches: list) -> list[tuple]:
    return [(m.start, m.end, m.matched, m.term.words, m.term.targets) for m in matches]


def test_carried_matches_equal_fresh_matches_edition_after_edition() -> None:
    carried = CarriedMatches(TEXTS)
    for rules, glossary in EDITIONS:
        vocabulary = english_vocabulary(rules, glossary)
        got = {i: _plain(m) for i, m in carried.matches({"en": vocabulary})}
        fresh = {i: _plain(vocabulary.match(t.text, mask=t.mask)) for i, t in enumerate(TEXTS)}
        assert got == fresh
    # The renumbering changed no term's words: the second edition matched no text again; the
    # third added terms whose words three of the texts hold.
    assert carried.rematched == len(TEXTS) + 3
    assert any(targets == ("701.38",) for *_, targets in got[0])


def test_a_term_is_matched_again_only_where_its_words_come_in_a_row() -> None:
    """Holding a new term's words apart, or with a break between them, is not enough to be
    matched again (the term cannot match there); holding them in a row, small words aside, is."""
    texts = [
        _Text("en", "Each player votes. The turn ends after that."),  # the words apart
        _Text("en", "Each player votes. Then you end the turn."),  # in a row
        _Text("en", "Each player votes at the end, and then the turn passes."),  # a break
    ]
    carried = CarriedMatches(texts)
    before = english_vocabulary([RuleEntry("701.38", "rule", "Vote", "")], [])
    after = english_vocabulary(
        [RuleEntry("701.38", "rule", "Vote", ""), RuleEntry("723", "rule", "End the Turn", "")],
        [],
    )
    list(carried.matches({"en": before}))
    assert carried.stale({"en": after}) == {1}
    carried.shapes = {"en": before.shape()}  # as before the call above
    got = {i: _plain(m) for i, m in carried.matches({"en": after})}
    assert got == {i: _plain(after.match(t.text, mask=t.mask)) for i, t in enumerate(texts)}
    assert carried.rematched == len(texts) + 1
    assert any(targets == ("723",) for *_, targets in got[1])


def test_a_restored_state_finds_the_same_texts_to_match_again() -> None:
    """The word sequences are not kept with the state: they are made again when needed."""
    carried = CarriedMatches(TEXTS)
    first = english_vocabulary(*EDITIONS[0])
    list(carried.matches({"en": first}))
    restored = CarriedMatches(TEXTS)
    restored.restore(carried.state())
    third = english_vocabulary(*EDITIONS[2])
    assert restored.stale({"en": third}) == carried.stale({"en": third}) != set()


def test_kept_about_answers_give_the_spans_found_without_them() -> None:
    """What kb.links.about.is_about said of a text is kept per place for the walk: matched
    again in other vocabularies, the text gives the spans a fresh match gives, and what is
    kept is of the text alone (not in the state kept between runs)."""
    texts = [
        _Text("en", "You may cast it. Cast Blizzard Brawl only as a sorcery.", ("Blizzard Brawl",)),
        _Text("en", "Its controller may sacrifice it to draw a card; the cost is paid."),
        _Text("en", "The spell's target is chosen as you cast it."),
    ]
    glossary = [
        GlossaryItem("Cast", "To take a spell … See rule 601, “Casting Spells.”"),
        GlossaryItem("Draw", "To put the top card … See rule 121, “Drawing a Card.”"),
        GlossaryItem("Target", "A preselected object. See rule 115, “Targets.”"),
    ]
    vocabularies = [
        english_vocabulary([RuleEntry("601", "chapter", "Casting Spells", "")], glossary[:1]),
        english_vocabulary(
            [RuleEntry("121", "chapter", "Drawing a Card", ""), RuleEntry("115", "rule", "", "")],
            glossary,
        ),
        english_vocabulary([RuleEntry("601", "chapter", "Casting Spells", "")], glossary[:1]),
    ]
    carried = CarriedMatches(texts)
    for vocabulary in vocabularies:
        for i, text in enumerate(texts):
            spans = carried.rematch(i, vocabulary)
            assert spans == vocabulary.spans(text.text, text.mask)
    assert all(carried.about)  # asked, and kept, for every text
    assert carried.rematched == 3 * len(texts)
    assert "about" not in carried.state()


def _walked(carried: CarriedMatches, feeds: list | None = None) -> list[dict[int, list]]:
    """Each edition's spans of every text, as the link walk reads them (kb.links.walk)."""
    found = []
    for k, (rules, glossary) in enumerate(EDITIONS):
        vocabulary = {"en": english_vocabulary(rules, glossary)}
        stale = carried.stale(vocabulary, feeds[k] if feeds else None)
        for i in range(len(TEXTS)):
            if carried.spans[i] is None or i in stale:
                carried.rematch(i, vocabulary["en"])
        found.append(dict(enumerate(carried.spans)))
    return found


@pytest.mark.parametrize("share", [0.0, 0.3, 0.6, 1.0])
def test_a_walk_fed_by_a_helper_has_the_spans_and_words_of_one_matching_alone(share) -> None:
    """A helper (kb.links.ahead) walks the same texts through the same editions and sends
    each edition's stale texts and the spans it matched; the walk matches the first ``share``
    of them itself. Spans, stale texts and the word index come out as the walk's alone."""
    alone = CarriedMatches(TEXTS)
    expected = _walked(alone)
    helper = CarriedMatches(TEXTS)
    sent: list[tuple[list[int] | None, dict]] = []
    for rules, glossary in EDITIONS:
        stale: list[list[int]] = []
        spans = helper.feed({"en": english_vocabulary(rules, glossary)}, share, stale.append)
        sent.append((stale[0] if stale else None, spans))
    assert sent[0][0] is None  # the first edition: every text is matched, none stale
    assert len(sent[0][1]) == len(TEXTS) - int(len(TEXTS) * share)
    with_spans = [k for k, (_, spans) in enumerate(sent) if spans]
    taken: list[int] = []

    def feed(k: int) -> Feed:
        def take() -> dict:
            taken.append(k)
            return sent[k][1]

        return Feed(share, lambda: sent[k][0], take)

    fed = CarriedMatches(TEXTS)
    assert _walked(fed, [feed(k) for k in range(len(EDITIONS))]) == expected
    assert fed.rematched == alone.rematched
    assert taken == with_spans  # waited for where the helper matched any
    fed.take_word_index(helper.word_index())
    assert fed.state() == alone.state()


def test_a_helper_that_stops_sending_leaves_the_walk_to_match() -> None:
    """Nothing received (the helper failed): the walk finds the stale texts and matches them
    itself, its word index made from the texts."""
    alone = CarriedMatches(TEXTS)
    expected = _walked(alone)
    fed = CarriedMatches(TEXTS)
    nothing = Feed(0.3, lambda: None, lambda: None)
    assert _walked(fed, [nothing] * len(EDITIONS)) == expected
    assert fed.state() == alone.state()

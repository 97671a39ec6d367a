"""The fast paths of analysis and highlighting give what the slow ones give, to the character."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kb.search import highlight
from kb.search.analysis import analyze, name_analyzer, term_spans, text_analyzer
from tests.test_search_analysis import TEXTS as ANALYSED

# The analysis tests' texts, and two with the words that trip snippets up.
TEXTS = [
    *ANALYSED,
    "'s l' qu' ’ 's's _a __ 3rd 10.5b_x 1.2.3 12.a a’’b",
    "A library with no cards in it; No card. no no cards in, no cards could be drawn. no cards",
]
# Letters (some accented), digits, the characters a token may hold inside, and separators.
_TEXT = st.text(alphabet="abeéinorstuvARÉ0123456789'’._- ,;:\n", max_size=120)


def _analyzers() -> list[Any]:
    return [text_analyzer("en"), text_analyzer("fr"), text_analyzer("es"), name_analyzer()]


def _slow_spans(analyzer: Any, text: str, terms: set[str]) -> list[tuple[int, int]]:
    return [(start, end) for start, end, term in term_spans(analyzer, text) if term in terms]


def _slow_window(text: str, found: list[tuple[int, int]]) -> int:
    """The window's start as counted before bisection: every match, for every start."""
    best, best_count = 0, -1
    for start, _ in found:
        begin = max(0, start - highlight.LEAD)
        count = sum(1 for s, e in found if s >= begin and e <= begin + highlight.WINDOW)
        if count > best_count:
            best, best_count = begin, count
    return best


@pytest.mark.parametrize("index", range(4))
def test_analyze_gives_whooshs_terms(index: int) -> None:
    for text in TEXTS:
        analyzer = _analyzers()[index]  # fresh: no cache filled by the other path
        assert analyze(analyzer, text) == [t.text for t in analyzer(text)]
        assert analyze(analyzer, text) == [t.text for t in analyzer(text)]  # from the cache


@given(text=_TEXT)
def test_analyze_gives_whooshs_terms_for_any_text(text: str) -> None:
    for analyzer in _analyzers():
        assert analyze(analyzer, text) == [t.text for t in analyzer(text)]


def _term_sets(analyzer: Any, text: str) -> list[set[str]]:
    terms = [term for _, _, term in term_spans(analyzer, text)]
    return [
        set(terms),
        set(terms[::2]),
        set(terms[1::3]),
        {""},
        {"", *terms[:1]},
        {"empti"},
        {"empti", "card"},
    ]


@pytest.mark.parametrize("index", range(4))
def test_highlight_spans_are_term_spans(index: int) -> None:
    analyzer = _analyzers()[index]
    for text in TEXTS:
        for terms in _term_sets(analyzer, text):
            assert highlight.spans(analyzer, text, terms) == _slow_spans(analyzer, text, terms)
    # a paraphrase's term ("no cards in" is also "empty", stem "empti") is marked where it stands
    text = TEXTS[-1]
    assert highlight.spans(analyzer, text, {"empti"}) == _slow_spans(analyzer, text, {"empti"})


@given(text=_TEXT, pick=st.integers(0, 6))
def test_highlight_spans_are_term_spans_for_any_text(text: str, pick: int) -> None:
    for analyzer in _analyzers():
        terms = _term_sets(analyzer, text)[pick]
        assert highlight.spans(analyzer, text, terms) == _slow_spans(analyzer, text, terms)


@given(
    gaps=st.lists(st.tuples(st.integers(0, 90), st.integers(1, 30)), min_size=1, max_size=40),
)
def test_window_holds_the_most_matches_as_counted_one_by_one(gaps: list[tuple[int, int]]) -> None:
    found, cursor = [], 0
    for gap, size in gaps:  # spans in the text's order, as the analyzer gives them
        found.append((cursor + gap, cursor + gap + size))
        cursor += gap + size
    found += found[-1:]  # a paraphrase's span repeats the word's
    text = "x" * (cursor + 10)  # no space: the window starts where the matches put it
    begin, _ = highlight._window(text, found)
    assert begin == (_slow_window(text, found) if len(text) > highlight.WINDOW else 0)


def test_a_paraphrase_and_its_own_words_are_shown_once() -> None:
    """ "no cards in" is also indexed as "empty", on the word "cards": a search for both terms
    finds the same span twice, and the snippet shows the word once ("cardscards" before)."""
    analyzer = text_analyzer("en")
    text = "Its owner loses if a library with no cards in it is drawn from."
    on_cards = {term for s, e, term in term_spans(analyzer, text) if text[s:e] == "cards"}
    assert len(on_cards) == 2  # the word's own term and the paraphrase's
    assert len(highlight.spans(analyzer, text, on_cards)) == 2
    segments = highlight.snippet(analyzer, text, on_cards)
    assert highlight.as_text(segments) == text
    assert [part for part, hit in segments if hit] == ["cards"]

"""The words every match of a pattern holds (kb.links.literals), the test before a search."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kb.links.described import _NEEDED, DESCRIPTIONS, Shown, _shown
from kb.links.literals import CASE_SPECIAL, may_match, required


@pytest.mark.parametrize(
    ("pattern", "needed"),
    [
        (r"\billegal\b|\bno longer (?:a )?legal\b", {"illegal", "no longer "}),
        (r"\b(?:divide|divided|announce)\b[^.]*\bas you cast\b", {"as you cast"}),
        (r"\bexil\w*\b[^.]{0,30}?\bface[- ](?:up|down)\b", {"exil"}),
        (r"\b(?:replaces?|loses?)\b", {"replace", "lose"}),
        (r"\bCosts? (?:less|more)\b", {"cost"}),
        (r"(?:a|b)?c", {"c"}),
        (r"[ab]+|x", None),  # one branch needs no word: nothing is needed
        (r"\w+", None),
    ],
)
def test_required_words(pattern: str, needed: set[str] | None) -> None:
    found = required(re.compile(pattern, re.IGNORECASE))
    assert (set(found) if found is not None else None) == needed


def test_the_case_special_characters_are_the_re_modules() -> None:
    """The characters that match an ASCII letter under re.IGNORECASE but lower-case otherwise."""
    special = set()
    for letter in string.ascii_lowercase:
        matches = re.compile(letter, re.IGNORECASE).fullmatch
        special |= {chr(c) for c in range(0x80, 0x30000) if matches(chr(c))}
    assert special == set(CASE_SPECIAL)


_WORDS = sorted({w for needed in _NEEDED if needed for w in needed} | {"Costs", "ſ", "K"})


@given(st.lists(st.sampled_from([*_WORDS, " ", ".", "’", "a", "X", "İ"]), max_size=12))
def test_a_text_without_the_words_has_no_match(parts: list[str]) -> None:
    text = "".join(parts)
    for k, description in enumerate(DESCRIPTIONS):
        if not may_match(_NEEDED[k], text.lower()):
            assert description.shown.search(text) is None, (description.shown.pattern, text)


def test_shown_is_the_same_with_the_test() -> None:
    texts = [
        "If the target is illegal as it tries to resolve, it doesn't resolve.",
        "You may cast it by paying {2}. It costs {1} less. The game is a draw.",
        "Exile it face down. In turn order, each player chooses. ſo it goes",
        "THE GAME ENDS IN A DRAW. Its power and toughness switch.",
        "Nothing here.",
    ]
    for text in texts:
        shown = Shown(text)
        for k, description in enumerate(DESCRIPTIONS):
            assert shown.at(k) == _shown(description, text, ()), (k, text)

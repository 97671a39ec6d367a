"""The word diff's matcher gives difflib's answers: the same longest matches, blocks and opcodes.

Checked against ``difflib.SequenceMatcher(None, a, b, autojunk=False)`` on the rule texts of the
real editions (every rule whose text changed between two editions) and on random
token lists, whitespace-heavy ones and ones with neighbouring whitespace tokens among them.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from kb.corpus import parse_file
from kb.versions.diff import _TOKENS
from kb.versions.matcher import WordMatcher


def _texts(path) -> dict[str, str]:
    """Each rule's text as the edition diff compares it (title, text, examples)."""
    document = parse_file(path)
    return {
        r.number: "\n".join(
            p for p in (r.title, r.text, *(f"Example: {e}" for e in r.examples)) if p
        )
        for r in document.rules
    }


def _same_as_difflib(a: list[str], b: list[str]) -> None:
    ours, theirs = WordMatcher(a, b), SequenceMatcher(None, a, b, autojunk=False)
    assert ours.get_opcodes() == theirs.get_opcodes()


def test_real_rule_changes_give_difflibs_opcodes(cr_path) -> None:
    editions = [_texts(cr_path(d)) for d in ("2021-02-05", "2025-11-14", "2026-01-16")]
    pairs = [
        (old[number], new[number])
        for old, new in pairwise(editions)
        for number in sorted(set(old) & set(new))
        if old[number] != new[number]
    ]
    assert len(pairs) > 200  # the 2021 → 2025 editions changed hundreds of rules
    for old, new in pairs:
        a, b = _TOKENS.findall(old), _TOKENS.findall(new)
        _same_as_difflib(a, b)


_PIECES = ["the", "Ring", "tempts", "you", "701.54a", ",", ".", " ", " ", " ", "\n", "  "]


@given(
    st.lists(st.sampled_from(_PIECES), max_size=40), st.lists(st.sampled_from(_PIECES), max_size=40)
)
def test_tokenised_texts_give_difflibs_answers(a: list[str], b: list[str]) -> None:
    old, new = _TOKENS.findall("".join(a)), _TOKENS.findall("".join(b))
    _same_as_difflib(old, new)


@given(
    st.lists(st.sampled_from(["a", "b", " ", "\n"]), max_size=30),
    st.lists(st.sampled_from(["a", "b", " ", "\n"]), max_size=30),
    st.data(),
)
def test_longest_match_of_any_ranges_is_difflibs(a: list[str], b: list[str], data) -> None:
    """Tokenised texts, or raw token lists with neighbouring whitespace tokens (which are left
    to difflib's own search)."""
    if data.draw(st.booleans()):
        a, b = _TOKENS.findall("".join(a)), _TOKENS.findall("".join(b))
    alo = data.draw(st.integers(0, len(a)))
    ahi = data.draw(st.integers(alo, len(a)))
    blo = data.draw(st.integers(0, len(b)))
    bhi = data.draw(st.integers(blo, len(b)))
    ours, theirs = WordMatcher(a, b), SequenceMatcher(None, a, b, autojunk=False)
    assert ours.find_longest_match(alo, ahi, blo, bhi) == theirs.find_longest_match(
        alo, ahi, blo, bhi
    )
    assert ours.get_opcodes() == theirs.get_opcodes()

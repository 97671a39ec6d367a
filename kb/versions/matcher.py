"""difflib's matcher for word diffs, with the same answers and less work on whitespace.

The word diff (:func:`kb.versions.diff.word_ops`) tokenises a text into words, punctuation and
runs of whitespace, and lets :class:`difflib.SequenceMatcher` (no junk, no autojunk) find the
matching blocks. Its ``find_longest_match`` looks at every pair of equal tokens, and the single
space is about half the tokens of a rule's text: most of its work (most of the CPU of the rule
history and edition diffs at the whole history) goes to pairs of spaces.

:class:`WordMatcher` answers ``find_longest_match`` exactly as difflib does, the longest block,
then the earliest in ``a``, then the earliest in ``b``, so its matching blocks and opcodes are
difflib's. It looks only at the pairs of equal non-whitespace tokens: a run of whitespace is never
next to another one in ``a`` (the tokeniser makes each run one token), so a match through a space
is counted from the token before it, and a block ending on a space from the row before it. A
sequence where two whitespace tokens are neighbours is left to difflib's own search.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from difflib import Match, SequenceMatcher
from itertools import pairwise


class WordMatcher(SequenceMatcher):
    """``SequenceMatcher(None, a, b, autojunk=False)`` for token lists, faster on whitespace."""

    def __init__(self, a: Sequence[str], b: Sequence[str]) -> None:
        super().__init__(None, a, b, autojunk=False)  # type: ignore[arg-type]
        self._space = space = [token.isspace() for token in a]
        self._apart = not any(x and y for x, y in pairwise(space))

    def find_longest_match(  # type: ignore[override]
        self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None
    ) -> Match:
        """difflib's longest matching block of a[alo:ahi] and b[blo:bhi] (see the module)."""
        if not self._apart:
            return super().find_longest_match(alo, ahi, blo, bhi)
        a, b, b2j, space = self.a, self.b, self.b2j, self._space
        ahi = len(a) if ahi is None else ahi
        bhi = len(b) if bhi is None else bhi
        besti, bestj, bestsize = alo, blo, 0
        # The lengths of the blocks ending at (i - 1, j) and (i - 2, j), by j, for the tokens of
        # ``a`` that are not whitespace ({} for a whitespace token, whose row is never kept).
        row1: dict[int, int] = {}
        row2: dict[int, int] = {}
        nothing: list[int] = []
        for i in range(alo, ahi):
            token = a[i]
            if space[i]:
                # Blocks ending on this space: those ending on the token before it, one longer.
                # In the order difflib meets them (by j, after row i - 1, before row i + 1).
                for j, k in row1.items():
                    if j + 1 < bhi and b[j + 1] == token and k >= bestsize:
                        besti, bestj, bestsize = i - k, j + 1 - k, k + 1
                row1, row2 = {}, row1
                continue
            js = b2j.get(token, nothing)
            new: dict[int, int] = {}
            if i > alo and space[i - 1]:
                # Through the space before: two longer than the block ending at (i - 2, j - 2).
                before, get = a[i - 1], row2.get
                for p in range(bisect_left(js, blo), len(js)):
                    j = js[p]
                    if j >= bhi:
                        break
                    k = new[j] = get(j - 2, 0) + 2 if j > blo and b[j - 1] == before else 1
                    if k > bestsize:
                        besti, bestj, bestsize = i - k + 1, j - k + 1, k
            else:
                get = row1.get
                for p in range(bisect_left(js, blo), len(js)):
                    j = js[p]
                    if j >= bhi:
                        break
                    k = new[j] = get(j - 1, 0) + 1
                    if k > bestsize:
                        besti, bestj, bestsize = i - k + 1, j - k + 1, k
            row1, row2 = new, row1
        if bestsize > 1:
            return Match(besti, bestj, bestsize)
        # No block of two tokens: difflib's answer is the first token of a[alo:ahi] found in
        # b[blo:bhi], whitespace included, at its first place there.
        for i in range(alo, ahi):
            js = b2j.get(a[i], nothing)
            p = bisect_left(js, blo)
            if p < len(js) and js[p] < bhi:
                return Match(i, js[p], 1)
        return Match(alo, blo, 0)

"""Scoring the documents a term plan matched, as Whoosh's BM25F and coordination bonus would.

The scoring half of kb's term engine (:class:`kb.search.engine.TermEngine` mixes it in): each
document's score is the sum of its matched terms' BM25F scores, in the plan's order, times the
boosts, with Whoosh's bonus for each further term of a some-of-the-words pass. The same
operations in the same order as Whoosh's matchers, so that scores are equal, not only close.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import repeat
from operator import add, mul
from typing import Any

from kb.search.plan import Leaf, Plan
from kb.search.postings import field_norms


class Scoring:
    """Scores of a plan's matched documents, over the engine's segments and length norms."""

    segments: list[tuple[Any, int]]
    offsets: list[int]
    doc_count_all: int
    _norms: dict[tuple[str, float, float, float], list[float]]
    _shared: Callable[[Any, Callable[[], Any]], Any] | None

    def _scores(self, plan: Plan, docs: set[int]) -> dict[int, float] | None:
        """Each document's score: the sum of its matched terms' BM25F scores, times boosts.

        None for a plan of one scored term, which :meth:`_one_term` ranks in one pass.
        """
        if len(plan.leaves) == 1 and plan.leaves[0].bm25 is not None and not plan.scale:
            return None
        scores = dict.fromkeys(docs, 0.0)
        for clause in plan.clauses:
            mine = docs & clause.docs
            if mine:
                for leaf in clause.leaves:
                    self._add_scores(scores, mine, leaf)
        if plan.scale:
            self._coordinate(plan, scores)
        return scores

    def _one_term(
        self, leaf: Leaf, docs: set[int], priors: Sequence[float] | None
    ) -> list[tuple[float, int]]:
        """(minus the score, document) of each document of a one-term query, prior applied.

        The same operations in the same order as :meth:`_add_scores` then the prior, in one pass.
        """
        assert leaf.bm25 is not None
        postings, boost = leaf.postings, leaf.boost
        idf, k1, b, avgfl = leaf.bm25
        k = k1 + 1
        norms = self._norm_list(leaf.fieldname, b, k1, avgfl)
        if boost == 1.0 and priors is not None and len(priors) >= self.doc_count_all:
            return [
                (-(idf * ((postings[d] * k) / (postings[d] + norms[d])) * priors[d]), d)
                for d in docs
            ]
        scores = {d: idf * ((postings[d] * k) / (postings[d] + norms[d])) for d in docs}
        if boost != 1.0:
            scores = {d: score * boost for d, score in scores.items()}
        if priors is None:
            return [(-score, d) for d, score in scores.items()]
        count = len(priors)
        return [(-(s * priors[d] if d < count else s), d) for d, s in scores.items()]

    def _add_scores(self, scores: dict[int, float], docs: set[int], leaf: Leaf) -> None:
        """Add a term's score to each of ``docs`` (all hold the term), as Whoosh's scorer would."""
        postings, boost = leaf.postings, leaf.boost
        if leaf.bm25 is None:  # a field that is not scored: the posting's weight (WeightScorer)
            for d in docs:
                scores[d] += postings[d] * boost
            return
        idf, k1, b, avgfl = leaf.bm25
        k = k1 + 1
        norms = self._norm_list(leaf.fieldname, b, k1, avgfl)
        # whoosh.scoring.bm25, with its length part computed beforehand for every document.
        if boost == 1.0:
            for d in docs:
                w = postings[d]
                scores[d] += idf * ((w * k) / (w + norms[d]))
        else:
            for d in docs:
                w = postings[d]
                scores[d] += idf * ((w * k) / (w + norms[d])) * boost

    def _coordinate(
        self, plan: Plan, scores: dict[int, float], matching: Counter[int] | None = None
    ) -> None:
        """Whoosh's coordination bonus (CoordMatcher): more of the terms, a higher score.

        It counts the query's terms that the document's segment holds, as Whoosh's matcher does
        when it is built. (Whoosh recounts whenever a term's postings run out midway through a
        search, so that there a document's bonus depends on the documents before it.)
        ``matching``: how many of the terms each document holds, when the caller counted them.
        """
        scale = plan.scale
        assert scale is not None
        leaves = [leaf for leaf in plan.leaves if leaf.found]
        termcount = self._term_counts(plan)
        if matching is None:
            # How many of the terms each document holds, counted a term at a time (in C): the
            # words of a phrase count where the phrase matches.
            matching = Counter()
            for clause in plan.clauses:
                for leaf in clause.leaves:
                    if leaf.found:
                        held = clause.docs if clause.phrase else leaf.postings.keys()
                        matching.update(held & scores.keys())
        offsets = self.offsets
        if len(offsets) == 1:  # one segment: every document's
            parts: list[tuple[int, Any]] = [(offsets[0], list(scores))]
        else:  # the documents of each segment, whose term count is the segment's
            ordered = sorted(scores)
            bounds = [bisect_left(ordered, offset) for offset in offsets] + [len(ordered)]
            parts = [
                (offset, ordered[bounds[i] : bounds[i + 1]]) for i, offset in enumerate(offsets)
            ]
        for offset, docs in parts:
            count = termcount[offset]
            if count == 0 or count == scale:
                scores.update(dict.fromkeys(docs, 0))
                continue
            # (score + (held - 1) / (count - scale) ** 2) * ((count - 1) / count), in C
            bonus = [(m - 1) / (count - scale) ** 2 for m in range(len(leaves) + 1)]
            factor = (count - 1) / count
            held = map(bonus.__getitem__, map(matching.__getitem__, docs))
            with_bonus = map(add, map(scores.__getitem__, docs), held)
            coordinated = list(map(mul, with_bonus, repeat(factor)))
            scores.update(zip(docs, coordinated, strict=True))

    def _term_counts(self, plan: Plan) -> dict[int, int]:
        """The number of the plan's terms each segment holds (by its first document number)."""
        termcount = dict.fromkeys(self.offsets, 0)
        for clause in plan.clauses:
            for offset in termcount:
                # A term counts where its segment holds it; a phrase missing a word in a
                # segment has no term matchers there (Whoosh's Phrase matches nothing).
                held = [any(o == offset for _, o, _ in leaf.found) for leaf in clause.leaves]
                if not clause.phrase:
                    termcount[offset] += sum(held)
                elif all(held):
                    termcount[offset] += len(held)
        return termcount

    def _norm_list(self, fieldname: str, b: float, k1: float, avgfl: float) -> list[float]:
        """``K1 * ((1 - B) + B * length / avgfl)`` of every document, by document number."""
        key = (fieldname, b, k1, avgfl)
        norms = self._norms.get(key)
        if norms is None:

            def make() -> list[float]:
                made: list[float] = []
                for segment, _ in self.segments:
                    made.extend(
                        field_norms(segment, fieldname, lambda n: k1 * ((1 - b) + b * n / avgfl))
                    )
                return made

            shared = self._shared
            norms = self._norms[key] = make() if shared is None else shared(("norms", key), make)
        return norms

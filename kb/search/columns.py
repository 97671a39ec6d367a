"""The some-of-the-words pass scored a column of candidates at a time, each term's part kept.

A question is ranked by all of its words among the documents holding one of its rarer words:
some 3,000 candidates at full history, each scored by up to 17 terms ("player", "control" among
them, in 10,000 documents). Scored a document and a term at a time, in Python, that is most of
a question's time. Here each term's part of a document's score (its BM25F score before the
boosts) is computed once per open index, for every document holding it, and kept
(:class:`PartCache`: a server's questions share their common words); a search then looks the
candidates up in each term's parts and adds the columns with ``map``, in C.

The scores are the term engine's to the last bit: the same numbers are added in the same order
(a term a document lacks adds 0.0, which changes no sum), then Whoosh's coordination bonus is
applied with the same operations. Only a scaled OR (the some-of-the-words pass) of terms and
phrases goes this way, among a filter's candidates, and only once the engine is warm: a one-off
search computes only the parts its candidates need, as before.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from itertools import compress, repeat
from operator import add, mul, neg
from typing import TYPE_CHECKING, Any

from kb.search.plan import Clause, Leaf, Plan
from kb.search.postings import read_term

if TYPE_CHECKING:
    from kb.search.engine import DocSet, TermEngine

# Columns cost a step per candidate and term; the exhaustive path a step per posting read. The
# columns go first when the terms' postings among the candidates would be at least this share of
# candidates x terms.
DENSE_SHARE = 0.2


class PartCache:
    """Each term's part of the scores of the documents holding it, at most ``budget`` postings.

    Keyed by field, term and BM25F's parameters (a generation of the index has one set of
    segments); shared by the threads over one generation, the oldest terms dropped first.
    """

    def __init__(self, budget: int = 600_000) -> None:
        self.budget = budget
        self.size = 0
        self.parts: dict[Any, dict[int, float]] = {}
        self._lock = threading.Lock()

    def get(self, key: Any) -> dict[int, float] | None:
        return self.parts.get(key)

    def put(self, key: Any, parts: dict[int, float]) -> None:
        with self._lock:
            if key in self.parts:
                return
            self.parts[key] = parts
            self.size += len(parts)
            while self.size > self.budget and len(self.parts) > 1:
                oldest = next(iter(self.parts))
                self.size -= len(self.parts.pop(oldest))


def dense(plan: Plan, allowed: DocSet | set[int] | None) -> bool:
    """Whether a plan is a scaled OR of terms and phrases whose postings fill enough of the
    filter's candidates for columns to be quicker than scoring posting by posting."""
    if not plan.scale or len(plan.groups) != 1 or allowed is None:
        return False
    docs = allowed if isinstance(allowed, set) else allowed.docs
    if not docs:
        return False
    if any(len(clause.leaves) > 1 and not clause.phrase for clause in plan.clauses):
        return False
    filled = sum(min(leaf.df, len(docs)) for leaf in plan.leaves if leaf.found)
    return filled >= DENSE_SHARE * len(docs) * len(plan.leaves)


def ranked_columns(
    engine: TermEngine, plan: Plan, filt: DocSet | set[int], parts: PartCache
) -> tuple[list[tuple[float, int]], int]:
    """(minus the score, document) of every document of ``filt`` matching the plan (in document
    order), and how many they are: the term engine's scores, with the coordination bonus."""
    scale = plan.scale
    assert scale is not None
    candidates: list[int] = sorted(filt) if isinstance(filt, set) else filt.ordered
    live = engine.live
    if live is not None:
        candidates = list(compress(candidates, map(live.__contains__, candidates)))
    size = len(candidates)
    scores: Any = [0.0] * size
    held: Any = [0] * size
    for clause in plan.clauses:
        clause.df = min(leaf.df for leaf in clause.leaves)
        if not clause.df:
            clause.docs = set()
            continue
        for leaf, part in _clause_parts(engine, clause, candidates, parts):
            column: Any = map(part.get, candidates, repeat(0.0))
            if leaf.boost != 1.0:
                column = map(mul, column, repeat(leaf.boost))
            scores = list(map(add, scores, column))
            held = list(map(add, held, map(part.__contains__, candidates)))
    finals = _coordinated(engine, plan, candidates, scores, held)
    matched = list(compress(zip(map(neg, finals), candidates, strict=True), held))
    return matched, len(matched)


def _clause_parts(
    engine: TermEngine, clause: Clause, candidates: list[int], parts: PartCache
) -> list[tuple[Leaf, dict[int, float]]]:
    """Each found term of a clause with its parts; a phrase's only where the phrase matches.

    ``clause.docs`` is set to the documents holding the clause (its hits' matched terms).
    """
    found = [(leaf, term_parts(engine, leaf, parts)) for leaf in clause.leaves if leaf.found]
    if not clause.phrase:
        leaf, part = found[0]
        leaf.postings = part  # only its keys are read from here on
        clause.docs = part.keys()
        return found
    if len(found) < len(clause.leaves):
        clause.docs = set()
        return []
    docs = engine._clause_docs(clause, candidates)
    clause.docs = docs
    return [(leaf, {d: part[d] for d in docs}) for leaf, part in found]


def term_parts(engine: TermEngine, leaf: Leaf, parts: PartCache) -> dict[int, float]:
    """A term's part of the score of every document holding it (deleted ones included): its
    BM25F score, or its weight in a field that is not scored; computed once, then kept."""
    key = (leaf.fieldname, leaf.text, leaf.bm25)
    found = parts.get(key)
    if found is not None:
        return found
    postings: dict[int, float] = {}
    for segment, offset, terminfo in leaf.found:
        read_term(
            segment, offset, leaf.fieldname, leaf.text, terminfo, None, postings, engine.cache
        )
    if leaf.bm25 is None:
        made = postings
    else:
        idf, k1, b, avgfl = leaf.bm25
        k = k1 + 1
        norms = engine._norm_list(leaf.fieldname, b, k1, avgfl)
        # The very expression of TermEngine._add_scores, before the boost.
        made = {d: idf * ((w * k) / (w + norms[d])) for d, w in postings.items()}
    parts.put(key, made)
    return made


def _coordinated(
    engine: TermEngine, plan: Plan, candidates: list[int], scores: list[float], held: list[int]
) -> list[Any]:
    """Whoosh's coordination bonus on a column of scores, segment by segment, as
    ``TermEngine._coordinate`` applies it to each document."""
    scale = plan.scale
    assert scale is not None
    termcount = engine._term_counts(plan)
    offsets = engine.offsets
    finals: list[Any] = []
    for i, offset in enumerate(offsets):
        start = bisect_left(candidates, offset)
        end = bisect_left(candidates, offsets[i + 1]) if i + 1 < len(offsets) else len(candidates)
        if start >= end:
            continue
        count = termcount[offset]
        if count == 0 or count == scale:
            finals += [0] * (end - start)
            continue
        bonus = [(m - 1) / (count - scale) ** 2 for m in range(len(plan.leaves) + 1)]
        factor = (count - 1) / count
        with_bonus = map(add, scores[start:end], map(bonus.__getitem__, held[start:end]))
        finals += map(mul, with_bonus, repeat(factor))
    return finals

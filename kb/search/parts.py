"""The some-of-the-words pass scored from each term's part of the scores, kept per open index.

A question is ranked by all of its words among the documents holding one of its rarer words:
some 3,000 candidates at full history, each scored by up to 17 terms ("player", "control" among
them, in 10,000 documents). Reading those terms' postings for the candidates and computing
BM25F for each (document, term) was most of a question's time. Here each term's part of a
document's score (its BM25F score before the boosts, or its weight in a field that is not
scored) is computed once per open index, for every document holding it, and kept
(:class:`PartCache`: a server's questions share their common words, "player", "battlefield");
a search then adds the parts of its candidates.

The scores are the term engine's to the last bit: the same numbers, added in the same order,
then Whoosh's coordination bonus by the engine's own code. Only a scaled OR (the
some-of-the-words pass) of terms and phrases goes this way, and only once the engine is warm: a
one-off search reads only the postings its candidates need, as before.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import TYPE_CHECKING, Any

from kb.search.plan import Leaf, Plan
from kb.search.postings import read_term

if TYPE_CHECKING:
    from kb.search.engine import DocSet, TermEngine


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


def by_parts(plan: Plan) -> bool:
    """Whether a plan is a scaled OR of terms and phrases (the some-of-the-words pass)."""
    return (
        bool(plan.scale)
        and len(plan.groups) == 1
        and all(clause.phrase or len(clause.leaves) == 1 for clause in plan.clauses)
    )


def matched_by_parts(
    engine: TermEngine, plan: Plan, filt: DocSet | set[int] | None, parts: PartCache
) -> set[int]:
    """The documents of ``filt`` (None: of the index) matching the plan, unscored."""
    return _held(engine, plan, filt, parts)[0]


def scored_by_parts(
    engine: TermEngine, plan: Plan, filt: DocSet | set[int] | None, parts: PartCache
) -> dict[int, float]:
    """The score of every document of ``filt`` (None: of the index) matching the plan: the
    term engine's scores (``TermEngine._scores``), the coordination bonus included."""
    docs, chosen = _held(engine, plan, filt, parts)
    scores = dict.fromkeys(docs, 0.0)
    matching: Counter[int] = Counter()  # how many of the terms each document holds
    for mine, found in chosen:  # in the plan's order, as TermEngine._add_scores adds them
        for leaf, part in found:
            matching.update(mine)
            boost = leaf.boost
            if boost == 1.0:
                for d in mine:
                    scores[d] += part[d]
            else:
                for d in mine:
                    scores[d] += part[d] * boost
    if scores:
        engine._coordinate(plan, scores, matching)
    return scores


def _held(
    engine: TermEngine, plan: Plan, filt: DocSet | set[int] | None, parts: PartCache
) -> tuple[set[int], list[tuple[set[int], list[tuple[Leaf, dict[int, float]]]]]]:
    """The documents matching the plan, and each clause's (in order) with its terms' parts.

    Sets each clause's ``docs`` (its hits' matched terms) and each term's ``postings`` (the
    keys of its parts: the coordination bonus counts them).
    """
    allowed: set[int] | None = filt if filt is None or isinstance(filt, set) else filt.docs
    live = engine.live
    within = None if allowed is None else sorted(allowed) if isinstance(filt, set) else filt.ordered
    chosen: list[tuple[set[int], list[tuple[Leaf, dict[int, float]]]]] = []
    docs: set[int] = set()
    for clause in plan.clauses:
        clause.df = min(leaf.df for leaf in clause.leaves)
        if not clause.df:
            clause.docs = set()
            continue
        found = [(leaf, term_parts(engine, leaf, parts)) for leaf in clause.leaves]
        if clause.phrase:  # where the words stand in a row (their postings read as before)
            clause.docs = engine._clause_docs(clause, within)
        else:
            leaf, part = found[0]
            leaf.postings = part  # only read from here on
            clause.docs = part.keys()
        mine: set[int] = clause.docs & allowed if allowed is not None else set(clause.docs)
        if live is not None:
            mine &= live
        docs |= mine
        chosen.append((mine, found))
    return docs, chosen


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

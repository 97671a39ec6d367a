"""The some-of-the-words pass scored from each term's part of the scores, kept per open index.

A question is ranked by all of its words among the documents holding one of its rarer words:
some 3,000 candidates at full history, each scored by up to 17 terms ("player", "control" among
them, in 10,000 documents). Reading those terms' postings for the candidates and computing
BM25F for each (document, term) was most of a question's time. Here each term's part of a
document's score (its BM25F score before the boosts, or its weight in a field that is not
scored) is computed once per open index, for every document holding it, and kept
(:class:`PartCache`: a server's questions share their common words, "player", "battlefield");
a search then adds the parts of its candidates. Without priors, the documents holding only
the weakest words are counted but not scored when even the most those words can give stays
below the best few's scores (MaxScore: each term's highest part is kept beside its parts).

The scores are the term engine's to the last bit: the same numbers, added in the same order,
then Whoosh's coordination bonus by the engine's own code. Only a scaled OR (the
some-of-the-words pass) of terms and phrases goes this way, and only once the engine is warm: a
one-off search reads only the postings its candidates need, as before.
"""

from __future__ import annotations

import heapq
import threading
from collections import Counter
from typing import TYPE_CHECKING, Any, Protocol

from kb.search.plan import Leaf, Plan
from kb.search.postings import read_term

# Matches per wanted document from which the weakest clauses' documents are bounded, not scored.
PRUNE_FROM = 4
# The strongest clauses' documents scored first, to find a score the others must reach: at
# least this many per wanted document.
FIRST = 2
# A bound is raised by this share before it is compared with a score: both add the same numbers,
# in different orders.
MARGIN = 1e-9

if TYPE_CHECKING:
    from kb.search.engine import DocSet, TermEngine


class Priors(Protocol):
    """Each document's prior by number (fewer: the rest count 1), and the highest of them."""

    highest: float

    def __len__(self) -> int: ...

    def __getitem__(self, docnum: int) -> float: ...


class PartCache:
    """Each term's part of the scores of the documents holding it, at most ``budget`` postings.

    Keyed by field, term and BM25F's parameters (a generation of the index has one set of
    segments); shared by the threads over one generation, the oldest terms dropped first.
    """

    def __init__(self, budget: int = 600_000) -> None:
        self.budget = budget
        self.size = 0
        # key -> (each document's part, the highest of them)
        self.parts: dict[Any, tuple[dict[int, float], float]] = {}
        # (term key, lasting filter) -> the term's documents among the filter's (read only)
        self.amongs: dict[Any, set[int]] = {}
        self.among_size = 0
        self._lock = threading.Lock()

    def get(self, key: Any) -> tuple[dict[int, float], float] | None:
        return self.parts.get(key)

    def among(self, leaf: Leaf, part: dict[int, float], filt: DocSet | set[int]) -> set[int]:
        """The documents of a term's parts among a filter's (kept for a lasting filter)."""
        if isinstance(filt, set):
            return part.keys() & filt
        if not filt.lasting:
            return part.keys() & filt.docs
        key = (leaf.fieldname, leaf.text, leaf.bm25, filt.lasting)
        found = self.amongs.get(key)
        if found is None:
            found = part.keys() & filt.docs
            with self._lock:
                self.amongs[key] = found
                self.among_size += len(found)
                while self.among_size > self.budget and len(self.amongs) > 1:
                    self.among_size -= len(self.amongs.pop(next(iter(self.amongs))))
        return found

    def put(self, key: Any, parts: dict[int, float]) -> tuple[dict[int, float], float]:
        kept = (parts, max(parts.values(), default=0.0))
        with self._lock:
            if key in self.parts:
                return self.parts[key]
            self.parts[key] = kept
            self.size += len(parts)
            while self.size > self.budget and len(self.parts) > 1:
                oldest = next(iter(self.parts))
                self.size -= len(self.parts.pop(oldest)[0])
        return kept


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
    engine: TermEngine,
    plan: Plan,
    filt: DocSet | set[int] | None,
    parts: PartCache,
    limit: int | None = None,
    priors: Priors | None = None,
) -> tuple[dict[int, float], int]:
    """The scores of the documents of ``filt`` (None: of the index) matching the plan, and how
    many match: the term engine's scores (``TermEngine._scores``), the coordination bonus
    included. With ``limit``, only the documents that may be among the best ``limit`` are
    scored (:func:`_contenders`), their scores times ``priors`` if given; the others are
    counted."""
    docs, chosen = _held(engine, plan, filt, parts)
    total = len(docs)
    kept = docs
    if limit is not None and total > PRUNE_FROM * limit:
        kept = _contenders(engine, plan, chosen, docs, limit, priors)
    return _scored(engine, plan, chosen, kept, kept is not docs), total


Chosen = list[tuple[set[int], list[tuple[Leaf, dict[int, float], float]]]]


def _scored(
    engine: TermEngine, plan: Plan, chosen: Chosen, docs: set[int], some: bool
) -> dict[int, float]:
    """The scores of ``docs`` (``some``: only some of the matches) from the clauses' parts."""
    scores = dict.fromkeys(docs, 0.0)
    matching: Counter[int] = Counter()  # how many of the terms each document holds
    for held, found in chosen:  # in the plan's order, as TermEngine._add_scores adds them
        mine = held & docs if some else held
        for leaf, part, _top in found:
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


def _contenders(
    engine: TermEngine,
    plan: Plan,
    chosen: Chosen,
    docs: set[int],
    limit: int,
    priors: Priors | None = None,
) -> set[int]:
    """The matches that may be among the best ``limit`` (MaxScore): all but those holding only
    the weakest clauses, whose most (each term's highest part, and the bonus of holding them
    all) is below the worst of the best ``limit`` scores of the strongest clauses' documents.

    With ``priors``, the scores compared are times each document's prior, and the most a weak
    document can reach is times the highest prior (a product of positive numbers rounds no
    higher when either factor is lower).
    """
    scale = plan.scale
    assert scale is not None
    if any(not leaf.boost > 0 for _, found in chosen for leaf, _, _ in found):
        return docs
    counts = [c for c in engine._term_counts(plan).values() if c != 0 and c != scale]
    if not counts:
        return docs
    tops = [sum(top * leaf.boost for leaf, _, top in found) for _, found in chosen]
    order = sorted(range(len(chosen)), key=tops.__getitem__, reverse=True)
    first: set[int] = set()
    for i in order:
        first |= chosen[i][0]
        if len(first) >= FIRST * limit:
            break
    if len(first) < limit or len(first) == len(docs):
        return docs
    scores = _scored(engine, plan, chosen, first, True)
    ceiling = 1.0
    if priors is not None:
        ceiling = priors.highest if len(priors) >= engine.doc_count_all else max(priors.highest, 1)
        if not ceiling > 0:
            return docs
        count = len(priors)
        scores = {d: s * priors[d] if d < count else s for d, s in scores.items()}
    floor = heapq.nlargest(limit, scores.values())[-1]  # the worst of the best ``limit``
    if priors is not None:
        bounded = (order, tops, counts, ceiling)
        return _contenders_by_prior(plan, chosen, bounded, first, floor, priors)
    most, terms, weak = 0.0, 0, 0
    for i in reversed(order):  # the weakest clauses first
        top, held = most + tops[i], terms + len(chosen[i][1])
        bound = max((top + (held - 1) / (c - scale) ** 2) * ((c - 1) / c) for c in counts)
        if (bound + abs(bound) * MARGIN + 1e-12) * ceiling >= floor:
            break
        most, terms, weak = top, held, weak + 1
    if not weak:
        return docs
    return first.union(*(chosen[i][0] for i in order[: len(order) - weak]))


def _contenders_by_prior(
    plan: Plan,
    chosen: Chosen,
    bounded: tuple[list[int], list[float], list[int], float],
    first: set[int],
    floor: float,
    priors: Priors,
) -> set[int]:
    """:func:`_contenders` with priors: a document holding only the ``m`` weakest clauses
    scores at most their bound times its own prior. A question's weakest words are on many
    cards (prior 0.4): those are counted, not scored, while a rule holding the same words is
    scored (one bound times the highest prior would keep them all).
    """
    scale = plan.scale
    assert scale is not None
    order, tops, counts, ceiling = bounded  # the clauses strongest first, their most, …
    bounds: list[float] = []  # bounds[m - 1]: the most of a document of the m weakest clauses
    most, terms = 0.0, 0
    for i in reversed(order):
        most, terms = most + tops[i], terms + len(chosen[i][1])
        bound = max((most + (terms - 1) / (c - scale) ** 2) * ((c - 1) / c) for c in counts)
        bounds.append(bound + abs(bound) * MARGIN + 1e-12)
    lowest = getattr(priors, "lowest", 0.0)
    count = len(priors)
    kept, seen = set(first), set(first)
    for j, i in enumerate(order):  # the strongest clause of each document decides its bound
        new = chosen[i][0] - seen
        if not new:
            continue
        seen |= new
        bound = bounds[len(order) - j - 1]
        if lowest > 0 and bound * lowest >= floor:
            kept |= new  # even the lowest prior may reach the best
        elif bound < 0 or bound * ceiling >= floor:  # each document by its own prior
            many = getattr(priors, "many", None)
            if many is not None and max(new) < count:
                kept.update(d for d, p in zip(new, many(new), strict=True) if bound * p >= floor)
            else:
                kept.update(d for d in new if bound * (priors[d] if d < count else 1.0) >= floor)
    return kept


def _held(
    engine: TermEngine, plan: Plan, filt: DocSet | set[int] | None, parts: PartCache
) -> tuple[set[int], Chosen]:
    """The documents matching the plan, and each clause's (in order) with its terms' parts.

    Sets each clause's ``docs`` (its hits' matched terms) and each term's ``postings`` (the
    keys of its parts: the coordination bonus counts them).
    """
    allowed: set[int] | None = filt if filt is None or isinstance(filt, set) else filt.docs
    deleted = engine.deleted
    chosen: Chosen = []
    docs: set[int] = set()
    for clause in plan.clauses:
        clause.df = min(leaf.df for leaf in clause.leaves)
        if not clause.df:
            clause.docs = set()
            continue
        found = [(leaf, *term_parts(engine, leaf, parts)) for leaf in clause.leaves]
        if clause.phrase:  # where the words stand in a row (their postings read as before)
            within = (
                None if filt is None else sorted(filt) if isinstance(filt, set) else filt.ordered
            )
            clause.docs = engine._clause_docs(clause, within)
            mine: set[int] = clause.docs & allowed if allowed is not None else set(clause.docs)
            if deleted is not None:
                mine = mine - deleted  # walks the smaller side (``-=`` walks the deleted)
        else:  # a term's parts hold its live documents only
            leaf, part, _ = found[0]
            leaf.postings = part  # only read from here on
            clause.docs = part.keys()
            mine = parts.among(leaf, part, filt) if allowed is not None else set(part)
        docs |= mine
        chosen.append((mine, found))
    return docs, chosen


def term_parts(engine: TermEngine, leaf: Leaf, parts: PartCache) -> tuple[dict[int, float], float]:
    """A term's part of the score of every live document holding it: its
    BM25F score, or its weight in a field that is not scored; computed once, then kept. With
    the highest of them."""
    key = (leaf.fieldname, leaf.text, leaf.bm25)
    found = parts.get(key)
    if found is not None:
        return found
    postings: dict[int, float] = {}
    for segment, offset, terminfo in leaf.found:
        read_term(
            segment, offset, leaf.fieldname, leaf.text, terminfo, None, postings, engine.cache
        )
    deleted = engine.deleted
    if deleted is not None:  # deleted documents never match
        postings = {d: w for d, w in postings.items() if d not in deleted}
    if leaf.bm25 is None:
        made = postings
    else:
        idf, k1, b, avgfl = leaf.bm25
        k = k1 + 1
        norms = engine._norm_list(leaf.fieldname, b, k1, avgfl)
        # The very expression of TermEngine._add_scores, before the boost.
        made = {d: idf * ((w * k) / (w + norms[d])) for d, w in postings.items()}
    return parts.put(key, made)

"""Warm searches scored from each term's part of the scores, kept per open index.

A question is ranked by all of its words among the documents holding one of them: tens of
thousands of candidates at full history (35,000 for a long Spanish question), each scored by up
to 17 terms ("player", "control" among them, in 10,000 documents); and every search first asks
for the documents holding all its words. Reading those terms' postings and computing BM25F for
each (document, term) in Python was most of a search's time, and bounding the weakest terms'
documents (MaxScore) still left the p95 of a full search at 30-60 ms. Here each term's part of a
document's score (its BM25F score before the boosts, or its weight in a field that is not
scored) is computed once per open index, for every document holding it, as two arrays (the
documents in order, their parts), and kept (:class:`PartCache`: a server's searches share their
common words, "player", "battlefield"); a search adds the parts of its terms into one array over
the index, keeps the documents holding a clause of every group (an AND's words; an OR is one
group) and takes the best few.

The scores are the term engine's to the last bit: the same float64 operations (IEEE, element by
element, never regrouped), added in the same order (the plan's), then Whoosh's coordination
bonus for a scaled OR as the engine computes it. Only once the engine is warm: a one-off search
reads only the postings its candidates need, and never imports numpy (~80 ms of a cold search).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from kb.search.plan import Clause, Leaf, Plan
from kb.search.postings import read_term

# Candidates fewer than the index's documents over FEW are added up by themselves; more, over
# arrays the size of the index (cheaper then than bisecting each clause's documents).
FEW = 8

if TYPE_CHECKING:
    import numpy as np

    from kb.search.engine import DocSet, TermEngine


class Part:
    """A term's part of the scores: its live documents in order and each one's part."""

    __slots__ = ("docs", "values")

    def __init__(self, docs: np.ndarray, values: np.ndarray) -> None:
        self.docs = docs
        self.values = values

    def __len__(self) -> int:
        return len(self.docs)

    def among(self, docnums: list[int]) -> set[int]:
        """Which of ``docnums`` hold the term: one look-up for all of a ranking's hits (what
        they read of their matched terms), not one numpy call per hit and clause."""
        import numpy as np

        if not docnums or not len(self.docs):
            return set()
        wanted = np.array(docnums, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.docs, wanted), len(self.docs) - 1)
        return set(wanted[self.docs[at] == wanted].tolist())


class PartCache:
    """Each term's part of the scores of the documents holding it, at most ``budget`` postings.

    Keyed by field, term and BM25F's parameters (a generation of the index has one set of
    segments); shared by the threads over one generation, the oldest terms dropped first. At 16
    bytes a posting, the default holds the common words of a few hundred questions in ~50 MB.
    Beside them, what only the generation's data make up: each lasting filter's documents as a
    mask over the index, the length norms as arrays.
    """

    def __init__(self, budget: int = 3_000_000) -> None:
        self.budget = budget
        self.size = 0
        self.parts: dict[Any, Part] = {}
        self.masks: dict[int, np.ndarray] = {}  # lasting filter -> its documents, as a mask
        self.arrays: dict[Any, np.ndarray] = {}  # ("norms", field, b, k1, avgfl) -> array
        self._lock = threading.Lock()

    def get(self, key: Any) -> Part | None:
        return self.parts.get(key)

    def put(self, key: Any, part: Part) -> Part:
        with self._lock:
            if key in self.parts:
                return self.parts[key]
            self.parts[key] = part
            self.size += len(part)
            while self.size > self.budget and len(self.parts) > 1:
                oldest = next(iter(self.parts))
                self.size -= len(self.parts.pop(oldest))
        return part

    def kept(self, key: Any, make: Any) -> Any:
        """An array made once (``make()``) and kept for the generation."""
        found = self.arrays.get(key)
        if found is None:
            found = make()
            with self._lock:
                found = self.arrays.setdefault(key, found)
        return found

    def mask(self, engine: TermEngine, filt: DocSet | set[int]) -> np.ndarray:
        """A filter's documents as a mask over the index (kept for a lasting filter)."""
        lasting = 0 if isinstance(filt, set) else filt.lasting
        if lasting:
            found = self.masks.get(lasting)
            if found is not None:
                return found
        made = _mask(engine.doc_count_all, filt if isinstance(filt, set) else filt.docs)
        if lasting:
            with self._lock:
                made = self.masks.setdefault(lasting, made)
        return made


def _mask(count: int, docs: set[int]) -> np.ndarray:
    import numpy as np

    mask = np.zeros(count, dtype=bool)
    if docs:
        mask[np.fromiter(docs, dtype=np.int64, count=len(docs))] = True
    return mask


def matched_by_parts(
    engine: TermEngine, plan: Plan, filt: DocSet | set[int] | None, parts: PartCache
) -> set[int]:
    """The documents of ``filt`` (None: of the index) matching the plan, unscored."""
    docs, _, _ = _added(engine, plan, filt, parts, scored=False)
    return set(docs.tolist())


def scored_by_parts(
    engine: TermEngine,
    plan: Plan,
    filt: DocSet | set[int] | None,
    parts: PartCache,
    limit: int | None = None,
    priors: Any = None,
) -> tuple[dict[int, float], int]:
    """The scores of the documents of ``filt`` (None: of the index) matching the plan, and how
    many match: the term engine's scores (``TermEngine._scores``), the coordination bonus
    included. With ``limit``, only the documents that may be among the best ``limit`` (their
    scores times ``priors``, by document number, if given) are returned: those scoring at least
    the ``limit``-th best, ties included; the others are counted."""
    import numpy as np

    docs, mine, held = _added(engine, plan, filt, parts, scored=True)
    total = len(docs)
    if not total:
        return {}, 0
    assert mine is not None
    if plan.scale:
        mine = _coordinated(engine, plan, docs, mine, held)
    if limit is not None and total > limit:
        if limit <= 0:
            return {}, total
        ranked = mine if priors is None else mine * _priors(priors, engine.doc_count_all)[docs]
        kth = np.partition(ranked, total - limit)[total - limit]  # the limit-th best
        best = ranked >= kth
        docs, mine = docs[best], mine[best]
    return dict(zip(docs.tolist(), mine.tolist(), strict=True)), total


def _added(
    engine: TermEngine, plan: Plan, filt: DocSet | set[int] | None, parts: PartCache, scored: bool
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """The matches in order (a clause of every group among the filter's documents), each one's
    sum of its matched terms' parts times their boosts (``scored``), added in the plan's order
    as ``TermEngine._scores`` adds them, and how many of the terms each holds (the coordination
    bonus counts them).

    Worked out over the matches only where they are few: an And of a question's eight words
    matches a handful of the tens of thousands of documents holding its common words, and
    arrays over the whole index (73,000 documents at full history), made and scanned for each
    pass of a search, were much of its scoring. The candidates are the smallest group's
    documents, narrowed by each other group by bisection; when even they are many (an Or of
    common words, a small index), the parts are added up over the index
    (:func:`_added_over_index`).

    Sets each clause's ``docs`` (the hits read their matched terms from them: a term's
    :class:`Part`, narrowed to the hits by ``TermEngine._best``).
    """
    import numpy as np

    count = engine.doc_count_all
    mask = None if filt is None else parts.mask(engine, filt)
    # The filter as this search's clause memo knows it: none, or a lasting one (a filter made
    # for one call has no lasting name, and its clauses are worked out afresh).
    among: int | None = 0 if filt is None else (getattr(filt, "lasting", 0) or None)
    memo = engine.clause_memo if among is not None else None
    found = [
        [_memo_parts(engine, clause, mask, parts, memo, among) for clause in group]
        for group in plan.groups
    ]
    sizes = [sum(len(docs) for docs, _ in group) for group in found]
    several = len(found) > 1
    if min(sizes) * FEW >= count:  # many candidates (an Or of common words): over the index
        return _added_over_index(found, plan, count, scored)
    smallest = sizes.index(min(sizes))
    matches = _union([docs for docs, _ in found[smallest]])
    for number, group in enumerate(found):
        if number == smallest or not len(matches):
            continue
        keep = np.zeros(len(matches), dtype=bool)
        for docs, _ in group:
            keep |= _holds(docs, matches)
        matches = matches[keep]
    scores = np.zeros(len(matches)) if scored else None
    held = np.zeros(len(matches), dtype=np.int32)
    if not len(matches):
        return matches, scores, held
    for group, clauses in zip(found, plan.groups, strict=True):
        for (docs, values), clause in zip(group, clauses, strict=True):
            if several:  # only the matches are added up (the same sums for them)
                # looked up from the matches, the fewer: the places of those the clause holds
                within = _places(docs, matches)
                at = np.flatnonzero(within >= 0)
                values = [value[within[at]] for value in values]
            else:
                at = np.searchsorted(matches, docs)
            for leaf, value in zip(clause.leaves, values, strict=True):
                held[at] += 1
                if scores is not None:
                    scores[at] += value if leaf.boost == 1.0 else value * leaf.boost
    return matches, scores, held


def _added_over_index(
    found: list[list[tuple[np.ndarray, list[np.ndarray]]]], plan: Plan, count: int, scored: bool
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """:func:`_added` over arrays the size of the index, for many candidates."""
    import numpy as np

    scores = np.zeros(count) if scored else None
    held = np.zeros(count, dtype=np.int32)
    every: np.ndarray | None = None  # with several groups: the documents holding each one
    if len(found) > 1:
        for group in found:
            mine = np.zeros(count, dtype=bool)
            for docs, _ in group:
                mine[docs] = True
            every = mine if every is None else every & mine
    for group, clauses in zip(found, plan.groups, strict=True):
        for (docs, values), clause in zip(group, clauses, strict=True):
            if every is not None:  # only the matches are added up (the same sums for them)
                inside = every[docs]
                docs, values = docs[inside], [value[inside] for value in values]
            for leaf, value in zip(clause.leaves, values, strict=True):
                held[docs] += 1
                if scores is not None:
                    scores[docs] += value if leaf.boost == 1.0 else value * leaf.boost
    matches = np.flatnonzero(held)
    return matches, None if scores is None else scores[matches], held[matches]


def _union(arrays: list[np.ndarray]) -> np.ndarray:
    """The documents of any of ``arrays`` (each in order, without repeats), in order."""
    import numpy as np

    arrays = [docs for docs in arrays if len(docs)]
    if not arrays:
        return np.zeros(0, dtype=np.int64)
    if len(arrays) == 1:
        return arrays[0]
    joined = np.concatenate(arrays)
    joined.sort()  # then without repeats: np.unique hashes first, slower on sorted runs
    if not len(joined):
        return joined
    keep = np.empty(len(joined), dtype=bool)
    keep[0] = True
    np.not_equal(joined[1:], joined[:-1], out=keep[1:])
    return joined[keep]


def _places(docs: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Where each of ``wanted`` stands among ``docs`` (in order, without repeats); -1: not there."""
    import numpy as np

    if not len(docs):
        return np.full(len(wanted), -1, dtype=np.int64)
    at = np.minimum(np.searchsorted(docs, wanted), len(docs) - 1)
    return np.where(docs[at] == wanted, at, -1)  # type: ignore[no-any-return]


def _holds(docs: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Which of ``wanted`` are among ``docs`` (in order, without repeats), as a mask."""
    import numpy as np

    if not len(docs):
        return np.zeros(len(wanted), dtype=bool)
    at = np.minimum(np.searchsorted(docs, wanted), len(docs) - 1)
    return docs[at] == wanted  # type: ignore[no-any-return]


def _memo_parts(
    engine: TermEngine,
    clause: Clause,
    mask: np.ndarray | None,
    parts: PartCache,
    memo: dict[Any, Any] | None,
    among: int | None,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """:func:`_clause_parts`, worked out once per search for a clause of the same terms among
    the same lasting filter (``among``: 0 for the whole index): a search's passes (every word,
    its rarer words, some of them) hold the same clauses, and a split word's or a phrase's
    documents are an intersection of long posting lists, a phrase's a walk of positions."""
    if memo is None:
        return _clause_parts(engine, clause, mask, parts)
    key = (
        among,
        clause.phrase,
        tuple((leaf.fieldname, leaf.text, leaf.bm25) for leaf in clause.leaves),
    )
    known = memo.get(key)
    if known is None:
        found = _clause_parts(engine, clause, mask, parts)
        memo[key] = (found, clause.df, clause.docs)
        return found
    found, clause.df, clause.docs = known
    return found  # type: ignore[no-any-return]


def _clause_parts(
    engine: TermEngine, clause: Clause, mask: np.ndarray | None, parts: PartCache
) -> tuple[np.ndarray, list[np.ndarray]]:
    """The filter's live documents holding a clause, in order, and each of its terms' parts
    for them; sets the clause's ``docs``."""
    import numpy as np

    clause.df = min(leaf.df for leaf in clause.leaves)
    if not clause.df:
        clause.docs = set()
        return np.zeros(0, dtype=np.int64), [np.zeros(0) for _ in clause.leaves]
    found = [term_parts(engine, leaf, parts) for leaf in clause.leaves]
    if len(found) == 1 and not clause.phrase:  # a term's part holds its live documents only
        part = found[0]
        clause.docs = part
        if mask is None:
            return part.docs, [part.values]
        inside = mask[part.docs]
        return part.docs[inside], [part.values[inside]]
    docs = found[0].docs  # the documents holding every term (of a split word, of a phrase)
    for part in found[1:]:
        docs = np.intersect1d(docs, part.docs, assume_unique=True)
    if mask is not None:
        docs = docs[mask[docs]]
    if clause.phrase:  # where the words stand in a row
        clause.docs = engine._phrase_among(clause, set(docs.tolist())) if len(docs) else set()
        docs = np.array(sorted(clause.docs), dtype=np.int64)
    else:
        clause.docs = set(docs.tolist())
    # Each term's part where the clause holds (every such document holds each term).
    return docs, [part.values[np.searchsorted(part.docs, docs)] for part in found]


def _coordinated(
    engine: TermEngine, plan: Plan, docs: np.ndarray, scores: np.ndarray, held: np.ndarray
) -> np.ndarray:
    """Whoosh's coordination bonus on the matches' scores, as ``Scoring._coordinate`` gives it:
    ``(score + (held - 1) / (count - scale) ** 2) * ((count - 1) / count)``, where ``count`` is
    the number of the plan's terms the document's segment holds (no bonus, a score of 0, when
    the segment holds none of them or exactly ``scale``)."""
    import numpy as np

    scale = plan.scale
    assert scale is not None
    leaves = len([leaf for leaf in plan.leaves if leaf.found])
    termcount = engine._term_counts(plan)
    offsets = engine.offsets
    bounds = [*np.searchsorted(docs, offsets).tolist(), len(docs)]
    out = np.empty(len(docs))
    for i, offset in enumerate(offsets):
        start, stop = bounds[i], bounds[i + 1]
        if start == stop:
            continue
        count = termcount[offset]
        if count == 0 or count == scale:
            out[start:stop] = 0.0
            continue
        bonus = np.array([(m - 1) / (count - scale) ** 2 for m in range(leaves + 1)])
        out[start:stop] = (scores[start:stop] + bonus[held[start:stop]]) * ((count - 1) / count)
    return out


def _priors(priors: Any, count: int) -> np.ndarray:
    """Every document's prior by number, as an array (a document past them counts 1): the
    index's type priors keep theirs (``dense``)."""
    import numpy as np

    dense = getattr(priors, "dense", None)
    if dense is not None:
        return dense()  # type: ignore[no-any-return]
    ordered = range(min(len(priors), count))
    many = getattr(priors, "many", None)
    values = many(ordered) if many is not None else [priors[d] for d in ordered]
    made = np.ones(count)
    made[: len(values)] = values
    return made


def term_parts(engine: TermEngine, leaf: Leaf, parts: PartCache) -> Part:
    """A term's part of the score of every live document holding it: its BM25F score, or its
    weight in a field that is not scored; computed once, then kept."""
    import numpy as np

    key = (leaf.fieldname, leaf.text, leaf.bm25)
    found = parts.get(key)
    if found is not None:
        return found
    postings: dict[int, float] = {}
    for segment, offset, terminfo in leaf.found:
        read_term(
            segment, offset, leaf.fieldname, leaf.text, terminfo, None, postings, engine.cache
        )
    size = len(postings)
    docs = np.fromiter(postings, dtype=np.int64, count=size)
    weights = np.fromiter(postings.values(), dtype=np.float64, count=size)
    if size > 1 and not bool((docs[1:] > docs[:-1]).all()):
        order = np.argsort(docs, kind="stable")
        docs, weights = docs[order], weights[order]
    deleted = engine.deleted
    if deleted is not None:  # deleted documents never match
        live = ~np.isin(docs, np.fromiter(deleted, dtype=np.int64, count=len(deleted)))
        docs, weights = docs[live], weights[live]
    if leaf.bm25 is None:
        values = weights
    else:
        idf, k1, b, avgfl = leaf.bm25
        k = k1 + 1
        norms = parts.kept(
            ("norms", leaf.fieldname, b, k1, avgfl),
            lambda: np.array(engine._norm_list(leaf.fieldname, b, k1, avgfl), dtype=np.float64),
        )
        # The very expression of TermEngine._add_scores, before the boost, element by element.
        values = idf * ((weights * k) / (weights + norms[docs]))
    return parts.put(key, Part(docs, values))

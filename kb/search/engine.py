"""Ranking word queries over Whoosh's posting lists with set operations, a block at a time.

Whoosh runs a query through a tree of matchers that advance posting by posting, several Python
calls for every posting of every word: on this corpus, milliseconds for two common words. Most
searches are words, each looked for in one or more text fields: an ``And`` of ``Or``s of
``Term``s (one ``Or`` of them for the some-of-the-words pass). For those, this module reads
the same posting lists of the same index a block at a time, intersects them as Python sets
(rarest word first, skipping the blocks of a common word that hold none of the documents left),
and scores only the documents left, with Whoosh's BM25F formula, statistics and boosts: the
documents, scores, order and matched terms ``Searcher.search`` gives (the tests compare them,
on the real corpus too). Any other query (phrases, prefixes, ranges, NOT, fuzzy terms) gets
None, and the caller runs it through Whoosh.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from whoosh import query as wq
from whoosh.reading import TermNotFound
from whoosh.scoring import BM25F

from kb.search.postings import field_lengths, open_postings, read_postings


@dataclass
class Leaf:
    """One term of the query, with the product of the boosts above it."""

    fieldname: str
    text: Any  # str as parsed, bytes once looked up
    boost: float
    df: int = 0
    # (segment, offset, term info) of each segment holding the term
    found: list[tuple[Any, int, Any]] = field(default_factory=list)
    postings: dict[int, float] = field(default_factory=dict)
    # BM25F's parameters (idf, K1, B, average length); None for a field that is not scored
    bm25: tuple[float, float, float, float] | None = None


@dataclass
class Clause:
    """Terms a document must all hold: one term, or the words of a hyphenated word."""

    leaves: list[Leaf]
    docs: set[int] = field(default_factory=set)

    @property
    def df(self) -> int:
        return min((leaf.df for leaf in self.leaves), default=0)


@dataclass
class Plan:
    """A query as groups of clauses: a document matches a clause of every group."""

    groups: list[list[Clause]]
    scale: float | None = None  # the coordination bonus of a scaled Or (Whoosh's CoordMatcher)

    @property
    def clauses(self) -> list[Clause]:
        return [clause for group in self.groups for clause in group]

    @property
    def leaves(self) -> list[Leaf]:
        return [leaf for clause in self.clauses for leaf in clause.leaves]


class DocSet(set[int]):
    """A filter's document numbers, with their sorted list (to skip the blocks it excludes)."""

    def __init__(self, docs: Any = ()) -> None:
        super().__init__(docs)
        self.ordered = sorted(self)


class Hit:
    """A ranked document, read like a Whoosh hit by the result records."""

    def __init__(self, searcher: Any, docnum: int, score: float, terms: list[Any]) -> None:
        self.searcher = searcher
        self.docnum = docnum
        self.score = score
        self._terms = terms
        self._fields: dict[str, Any] | None = None

    def fields(self) -> dict[str, Any]:
        """The stored fields (read once)."""
        if self._fields is None:
            self._fields = self.searcher.stored_fields(self.docnum)
        return self._fields

    def matched_terms(self) -> list[Any]:
        """The ``(fieldname, term bytes)`` of the query terms this document holds."""
        return self._terms

    def __getitem__(self, name: str) -> Any:
        return self.fields()[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields().get(name, default)


@dataclass
class Ranking:
    """The best documents (best first) and how many documents matched in all."""

    hits: list[Hit]
    total: int

    def __len__(self) -> int:
        return self.total

    def __iter__(self) -> Iterator[Hit]:
        return iter(self.hits)


# --- queries as plans ----------------------------------------------------------------------------


def plan_query(q: Any) -> Plan | None:
    """The groups of a query made of terms, ANDs and ORs; None for any other query."""
    if type(q) is wq.And:
        groups: list[list[Clause]] = []
        return Plan(groups) if _required_groups(q, 1.0, groups) else None
    clauses: list[Clause] = []
    if not _alternatives(q, 1.0, clauses, top=True):
        return None
    scale = getattr(q, "scale", None) if type(q) is wq.Or and len(q.subqueries) > 1 else None
    if scale and any(len(clause.leaves) > 1 for clause in clauses):
        return None
    return Plan([clauses], scale=scale or None)


def _own_boost(q: Any) -> float:
    # Whoosh applies a compound query's boost only when it has more than one subquery.
    return float(q.boost) if len(q.subqueries) > 1 else 1.0


def _required_groups(q: Any, boost: float, groups: list[list[Clause]]) -> bool:
    """Each child of an AND (nested ANDs flattened) as a group of alternative clauses."""
    boost *= _own_boost(q)
    for child in q.subqueries:
        if type(child) is wq.And:
            if not _required_groups(child, boost, groups):
                return False
            continue
        clauses: list[Clause] = []
        if not _alternatives(child, boost, clauses):
            return False
        groups.append(clauses)
    return True


def _alternatives(q: Any, boost: float, clauses: list[Clause], top: bool = False) -> bool:
    """The clauses under an OR (nested ORs flattened); False if anything else is there."""
    if type(q) is wq.Term:
        leaf = _leaf(q, boost)
        if leaf is not None:
            clauses.append(Clause([leaf]))
        return leaf is not None
    if type(q) is wq.And:
        leaves: list[Leaf] = []
        if not _conjunction(q, boost, leaves):
            return False
        clauses.append(Clause(leaves))
        return True
    if type(q) is not wq.Or or getattr(q, "minmatch", 0):
        return False
    if getattr(q, "scale", None) and not top and len(q.subqueries) > 1:
        return False  # a coordination bonus below the top: left to Whoosh
    boost *= _own_boost(q)
    return all(_alternatives(child, boost, clauses) for child in q.subqueries)


def _conjunction(q: Any, boost: float, leaves: list[Leaf]) -> bool:
    """The terms of an AND under an OR (nested ANDs flattened); False for anything else."""
    boost *= _own_boost(q)
    for child in q.subqueries:
        if type(child) is wq.And:
            if not _conjunction(child, boost, leaves):
                return False
            continue
        leaf = _leaf(child, boost) if type(child) is wq.Term else None
        if leaf is None:
            return False
        leaves.append(leaf)
    return True


def _leaf(q: Any, boost: float) -> Leaf | None:
    if not isinstance(q.text, str | bytes) or q.minquality:
        return None
    return Leaf(q.fieldname, q.text, boost * q.boost)


# --- the engine ----------------------------------------------------------------------------------


class TermEngine:
    """Ranks term queries over one open searcher (its segments, lengths and statistics)."""

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self.reader = searcher.reader()
        self.schema = searcher.schema
        self.segments = sorted(self.reader.leaf_readers(), key=lambda pair: pair[1])
        self.offsets = [offset for _, offset in self.segments]
        self._norms: dict[tuple[str, float, float, float], list[float]] = {}
        self.live: set[int] | None = None
        if any(segment.has_deletions() for segment, _ in self.segments):
            self.live = set(self.reader.all_doc_ids())

    def search(
        self,
        q: Any,
        *,
        limit: int,
        allowed: set[int] | None = None,
        priors: Sequence[float] | None = None,
        weighting: Any = None,
    ) -> Ranking | None:
        """The top ``limit`` documents for ``q`` among ``allowed``; None for other queries.

        ``priors`` multiplies each document's score (as a weighting's ``final`` would);
        ``weighting`` (the searcher's by default) must be Whoosh's BM25F.
        """
        weighting = weighting or self.searcher.weighting
        if not isinstance(weighting, BM25F) or type(weighting).scorer is not BM25F.scorer:
            return None
        plan = plan_query(q)
        if plan is None:
            return None
        self._look_up(plan, weighting)
        docs = self._match(plan, allowed)
        if not docs:
            return Ranking([], 0)
        scores = self._scores(plan, docs)
        if priors is not None:
            count = len(priors)
            scores = {d: s * priors[d] if d < count else s for d, s in scores.items()}
        # Best score first, then the lower document number, as Whoosh's collector orders them.
        best = heapq.nsmallest(limit, ((-s, d) for d, s in scores.items()))
        clauses = plan.clauses
        hits = [
            Hit(
                self.searcher,
                docnum,
                -negated,
                [
                    (leaf.fieldname, leaf.text)
                    for clause in clauses
                    if docnum in clause.docs
                    for leaf in clause.leaves
                ],
            )
            for negated, docnum in best
        ]
        return Ranking(hits, len(docs))

    def _look_up(self, plan: Plan, weighting: Any) -> None:
        """Find each term in each segment; note its frequency and BM25F's parameters."""
        field_b = getattr(weighting, "_field_B", {})
        for leaf in plan.leaves:
            try:
                fieldobj = self.schema[leaf.fieldname]
                leaf.text = fieldobj.to_bytes(leaf.text)
            except (KeyError, ValueError):
                continue  # Whoosh matches nothing for it either
            for segment, offset in self.segments:
                try:
                    terminfo = segment.term_info(leaf.fieldname, leaf.text)
                except TermNotFound:
                    continue
                leaf.found.append((segment, offset, terminfo))
                leaf.df += terminfo.doc_frequency()
            if leaf.found and fieldobj.scorable:
                # What BM25F.scorer gives its BM25FScorer (idf cached by Whoosh's searcher).
                leaf.bm25 = (
                    self.searcher.idf(leaf.fieldname, leaf.text),
                    weighting.K1,
                    field_b.get(leaf.fieldname, weighting.B),
                    self.searcher.avg_field_length(leaf.fieldname) or 1,
                )

    # --- matching ------------------------------------------------------------------------------

    def _match(self, plan: Plan, allowed: set[int] | None) -> set[int]:
        """The documents matching a clause of every group (rarest first), among ``allowed``."""
        groups = sorted(plan.groups, key=lambda group: sum(clause.df for clause in group))
        docs: set[int] | None = None
        for group in groups:
            if docs is not None:
                within: list[int] | None = sorted(docs)
            else:  # the filter's documents: blocks holding none of them are not read
                within = getattr(allowed, "ordered", None)
            found: set[int] = set()
            for clause in group:
                clause.docs = self._clause_docs(clause, within) if clause.df else set()
                found |= clause.docs
            if docs is None:
                docs = found
                if allowed is not None:
                    docs &= allowed
                if self.live is not None:
                    docs &= self.live
            else:
                docs &= found
            if not docs:
                return set()
        return docs or set()

    def _clause_docs(self, clause: Clause, within: list[int] | None) -> set[int]:
        """The documents holding every term of a clause (its rarest term read first)."""
        docs: set[int] | None = None
        for leaf in sorted(clause.leaves, key=lambda leaf: leaf.df):
            leaf.postings = {}
            for segment, offset, terminfo in leaf.found:
                matcher = open_postings(segment, leaf.fieldname, leaf.text, terminfo)
                read_postings(matcher, offset, within, leaf.postings)
            docs = set(leaf.postings) if docs is None else docs.intersection(leaf.postings)
            if not docs:
                return set()
            within = sorted(docs)
        return docs or set()

    # --- scoring -------------------------------------------------------------------------------

    def _scores(self, plan: Plan, docs: set[int]) -> dict[int, float]:
        """Each document's score: the sum of its matched terms' BM25F scores, times boosts."""
        scores = dict.fromkeys(docs, 0.0)
        for clause in plan.clauses:
            mine = docs & clause.docs
            if mine:
                for leaf in clause.leaves:
                    self._add_scores(scores, mine, leaf)
        if plan.scale:
            self._coordinate(plan, scores)
        return scores

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

    def _coordinate(self, plan: Plan, scores: dict[int, float]) -> None:
        """Whoosh's coordination bonus (CoordMatcher): more of the terms, a higher score.

        It counts the query's terms that the document's segment holds, as Whoosh's matcher does
        when it is built. (Whoosh recounts whenever a term's postings run out midway through a
        search, so that there a document's bonus depends on the documents before it.)
        """
        scale = plan.scale
        assert scale is not None
        leaves = [leaf for leaf in plan.leaves if leaf.found]
        termcount = {
            offset: sum(1 for leaf in leaves for _, o, _ in leaf.found if o == offset)
            for offset in self.offsets
        }
        for d, score in scores.items():
            count = termcount[self.offsets[bisect_right(self.offsets, d) - 1]]
            if count == 0 or count == scale:
                scores[d] = 0
                continue
            matching = sum(1 for leaf in leaves if d in leaf.postings)
            scores[d] = (score + ((matching - 1) / (count - scale) ** 2)) * ((count - 1) / count)

    def _norm_list(self, fieldname: str, b: float, k1: float, avgfl: float) -> list[float]:
        """``K1 * ((1 - B) + B * length / avgfl)`` of every document, by document number."""
        key = (fieldname, b, k1, avgfl)
        norms = self._norms.get(key)
        if norms is None:
            norms = []
            for segment, _ in self.segments:
                norms.extend(
                    k1 * ((1 - b) + b * length / avgfl) if length is not None else 0.0
                    for length in field_lengths(segment, fieldname)
                )
            self._norms[key] = norms
        return norms

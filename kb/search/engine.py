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
import itertools
from collections.abc import Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from math import log
from operator import neg
from typing import Any

from whoosh.query import QueryError
from whoosh.scoring import BM25F, WeightingModel

from kb.search.parts import Part, PartCache, matched_by_parts, scored_by_parts
from kb.search.phrases import PhraseCache, ValueCache, phrase_docs
from kb.search.plan import Clause, Plan, plan_query
from kb.search.postings import BlockCache, TermTable, read_term
from kb.search.scoring import Scoring
from kb.search.stored import StoredFields

# The whoosh-reloaded versions whose on-disk format (W3 codec: term tables, posting blocks,
# length columns) this engine was verified on; pyproject.toml allows only these.
VERIFIED_WHOOSH = ((2, 7, 5),)


def unsupported(searcher: Any) -> str | None:
    """Why the term engine cannot read this index safely (None when it can).

    Checked when an index is opened: another Whoosh version, or a segment in another format,
    and kb searches through Whoosh's public API instead (same results, slower).
    """
    import whoosh
    from whoosh.codec.whoosh3 import W3Codec, W3PerDocReader, W3TermsReader

    version = tuple(getattr(whoosh, "__version__", ())[:3])
    if version not in VERIFIED_WHOOSH:
        shown = ".".join(map(str, version)) or "unknown"
        return f"whoosh-reloaded {shown} is not a version the term engine was verified on"
    for segment, _offset in searcher.reader().leaf_readers():
        parts = (
            (getattr(segment, "_codec", None), W3Codec),
            (getattr(segment, "_terms", None), W3TermsReader),
            (getattr(segment, "_perdoc", None), W3PerDocReader),
        )
        if any(type(part) is not kind for part, kind in parts):
            return f"segment {getattr(segment, 'segment', lambda: '?')()!r} is not in the W3 format"
        if not hasattr(segment._terms, "_tindex") or not hasattr(segment._terms, "_postfile"):
            return "the W3 term reader lacks the tables the term engine reads"
    return None


class DocSet:
    """A filter's document numbers: the set, and its sorted list (to skip the blocks it excludes).

    Not a set subclass: ``set & dict.keys()`` walks the smaller side only for exact sets.
    """

    __slots__ = ("_ordered", "docs", "lasting")

    _made = itertools.count(1)

    def __init__(self, docs: Any = (), *, lasting: bool = False) -> None:
        self.docs: set[int] = set(docs)
        self._ordered: list[int] | None = None
        # A filter kept for the index's lifetime (the default ones): its number, never reused,
        # keys what is kept of it (each term's documents among its own, kb.search.parts).
        self.lasting = next(DocSet._made) if lasting else 0

    @property
    def ordered(self) -> list[int]:
        """The documents in order (sorted when first asked: the kept parts need no order)."""
        if self._ordered is None:
            self._ordered = sorted(self.docs)
        return self._ordered


def as_set(allowed: DocSet | set[int] | None) -> set[int] | None:
    """The set of a filter, as Whoosh takes it."""
    return allowed.docs if isinstance(allowed, DocSet) else allowed


class Hit:
    """A ranked document, read like a Whoosh hit by the result records."""

    def __init__(
        self,
        read: Callable[[int], dict[str, Any]],
        docnum: int,
        score: float,
        clauses: list[Clause],
    ) -> None:
        self._read = read  # the stored fields of a document number (kb.search.stored)
        self.docnum = docnum
        self.score = score
        self._clauses = clauses
        self._fields: dict[str, Any] | None = None

    def fields(self) -> dict[str, Any]:
        """The stored fields (read once)."""
        if self._fields is None:
            self._fields = self._read(self.docnum)
        return self._fields

    def matched_terms(self) -> list[Any]:
        """The ``(fieldname, term bytes)`` of the query terms this document holds."""
        return [
            (leaf.fieldname, leaf.text)
            for clause in self._clauses
            if self.docnum in clause.docs
            for leaf in clause.leaves
        ]

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


# --- the engine ----------------------------------------------------------------------------------


WARM_AFTER = 3  # searches before the term dictionaries are loaded into memory


class TermEngine(Scoring):
    """Ranks term queries over one open searcher (its segments, lengths and statistics)."""

    def __init__(
        self,
        searcher: Any,
        cache: BlockCache | None = None,
        shared: Callable[[Any, Callable[[], Any]], Any] | None = None,
    ) -> None:
        self.searcher = searcher
        # Decoded posting blocks, shared with the other threads' engines over the same index.
        self.cache = cache if cache is not None else BlockCache()
        # ``shared(key, make)``: a value made once for every engine over the same index
        # generation (readers.Snapshot.shared), for the tables and norms only data make up.
        self._shared = shared
        # Posting values (positions) of phrase words' blocks, shared the same way.
        self.values: ValueCache = shared("posting values", ValueCache) if shared else ValueCache()
        # The documents found to hold a phrase (once warm), shared the same way.
        self.phrases: PhraseCache = shared("phrases", PhraseCache) if shared else PhraseCache()
        self.reader = searcher.reader()
        self.schema = searcher.schema
        # The hits' stored fields, each document read once per search (begun and ended with
        # the clause memo, by SearchIndex.search).
        self.stored = StoredFields(searcher)
        self.segments = sorted(self.reader.leaf_readers(), key=lambda pair: pair[1])
        self.offsets = [offset for _, offset in self.segments]
        self.doc_count_all = self.reader.doc_count_all()
        self._norms: dict[tuple[str, float, float, float], list[float]] = {}
        self._avg_lengths: dict[str, float] = {}
        self._fieldobjs: dict[str, Any] = {}
        self._tables: list[TermTable] | None = None
        self._searches = 0
        self._loaded = False
        # The some-of-the-words pass from the terms' parts kept (kb.search.parts) once warm.
        self.parts_kept = True
        # Set for the length of one search (SearchIndex.search): its clauses' documents and
        # parts among a lasting filter, worked out once for its several passes.
        self.clause_memo: dict[Any, Any] | None = None
        self.parts: PartCache = shared("term parts", PartCache) if shared else PartCache()
        # The deleted documents (global numbers), or None: a set as large as the deletions, not
        # as the index, so that opening one costs no work per document (a live set of every
        # document took ~0.25 s of a cold search at the whole history). Every number a posting
        # gives is below doc_count_all, so "not deleted" is "live".
        self.deleted: frozenset[int] | None = None
        if any(segment.has_deletions() for segment, _ in self.segments):
            self.deleted = frozenset(
                offset + docnum
                for segment, offset in self.segments
                for docnum in segment.deleted_docs_set
            )

    def search(
        self,
        q: Any,
        *,
        limit: int,
        allowed: DocSet | set[int] | None = None,
        priors: Sequence[float] | None = None,
        weighting: Any = None,
    ) -> Ranking | None:
        """The top ``limit`` documents for ``q`` among ``allowed``; None for other queries.

        ``priors`` multiplies each document's score (as a weighting's ``final`` would);
        ``weighting`` (the searcher's by default) must be Whoosh's BM25F.
        """
        plan = plan_query(q)
        if plan is None:
            return None
        return self.rank(plan, limit=limit, allowed=allowed, priors=priors, weighting=weighting)

    def rank(
        self,
        plan: Plan,
        *,
        limit: int,
        allowed: DocSet | set[int] | None = None,
        priors: Sequence[float] | None = None,
        weighting: Any = None,
    ) -> Ranking | None:
        """The top ``limit`` documents of a plan (see :meth:`search`); None for a weighting
        other than BM25F."""
        weighting = weighting or self.searcher.weighting
        if not isinstance(weighting, BM25F) or type(weighting).scorer is not BM25F.scorer:
            return None
        self._look_up(plan, weighting)
        if self._loaded and self.parts_kept:
            # Warm: from each term's part of the scores, kept; only the best ``limit`` (priors
            # applied) and their ties come back.
            scores, total = scored_by_parts(self, plan, allowed, self.parts, limit, priors)
            docs: AbstractSet[int] = scores.keys()
        else:
            docs = self._match(plan, allowed)
            total = len(docs)
            scores = self._scores(plan, docs) if docs else {}  # type: ignore[assignment]
        if not docs:
            return Ranking([], total)
        # Best score first, then the lower document number, as Whoosh's collector orders them.
        if scores is None:  # one term: scored and ranked in one pass
            ranked = self._one_term(plan.leaves[0], docs, priors)
        elif priors is None:
            ranked = list(zip(map(neg, scores.values()), scores, strict=True))
        elif len(priors) >= self.doc_count_all:
            many = getattr(priors, "many", None)
            if many is not None:  # the priors of all the documents in one call
                ranked = [
                    (-(s * p), d)
                    for (d, s), p in zip(scores.items(), many(scores.keys()), strict=True)
                ]
            else:
                ranked = [(-(s * priors[d]), d) for d, s in scores.items()]
        else:
            count = len(priors)
            ranked = [(-(s * priors[d] if d < count else s), d) for d, s in scores.items()]
        return self._best(plan, ranked, total, limit)

    def _best(self, plan: Plan, ranked: list[tuple[float, int]], total: int, limit: int) -> Ranking:
        """The best ``limit`` of (minus the score, document) pairs, as hits."""
        if len(ranked) <= 4 * limit:  # a few: sorting them all is quicker than a heap
            best = sorted(ranked)[:limit]
        else:
            best = heapq.nsmallest(limit, ranked)
        clauses = plan.clauses
        docnums = [docnum for _, docnum in best]
        for clause in clauses:
            if isinstance(clause.docs, Part):  # what the hits read: which of them hold it
                clause.docs = clause.docs.among(docnums)
        read = self.stored
        hits = [Hit(read, docnum, -negated, clauses) for negated, docnum in best]
        return Ranking(hits, total)

    def matching(self, plan: Plan, allowed: DocSet | set[int] | None = None) -> set[int]:
        """The documents matching a plan, among ``allowed``'s, unscored."""
        self._look_up(plan, self.searcher.weighting)
        if self._loaded and self.parts_kept:
            return matched_by_parts(self, plan, allowed, self.parts)
        return self._match(plan, allowed)

    def _term_tables(self) -> list[TermTable]:
        """The segments' term dictionaries: Whoosh's on disk for the first few searches (a
        one-off ``kb search`` does not load them), in memory from then on (a server)."""
        loaded = self._searches > WARM_AFTER
        if self._tables is None or (loaded and not self._loaded):

            def make() -> list[TermTable]:
                return [TermTable(segment, load=loaded) for segment, _ in self.segments]

            tables = None
            if loaded and self._shared is not None:
                tables = self._shared("term tables", make)
                # Shared only when held in memory: one that asks Whoosh reads its own segment.
                if any(getattr(table, "_table", None) is None for table in tables):
                    tables = None
            self._tables = tables or make()
            self._loaded = loaded
        return self._tables

    def doc_frequency(self, fieldname: str, text: str) -> int:
        """How many documents hold a term (deleted ones included, as Whoosh counts)."""
        term = text.encode("utf-8")
        found = (table.info(fieldname, term) for table in self._term_tables())
        return sum(info.doc_frequency() for info in found if info is not None)

    def term_docs(self, fieldname: str, text: str) -> set[int]:
        """The live documents holding a term, read straight from its posting blocks (a filter
        of every item of the newest edition is built this way when an index opens)."""
        term = self.schema[fieldname].to_bytes(text)
        found: dict[int, float] = {}
        for (segment, offset), table in zip(self.segments, self._term_tables(), strict=True):
            terminfo = table.info(fieldname, term)
            if terminfo is not None:
                read_term(segment, offset, fieldname, term, terminfo, None, found, self.cache)
        docs = set(found)
        return docs if self.deleted is None else docs - self.deleted

    def _look_up(self, plan: Plan, weighting: Any) -> None:
        """Find each term in each segment; note its frequency and BM25F's parameters.

        A phrase in a field without positions raises Whoosh's error for it.
        """
        for clause in plan.clauses:
            if clause.phrase:
                fieldname = clause.leaves[0].fieldname
                if fieldname in self.schema and not self._positions(fieldname):
                    raise QueryError(f"Phrase search: {fieldname!r} field has no positions")
        self._searches += 1
        field_b = getattr(weighting, "_field_B", {})
        own_idf = type(weighting).idf is not WeightingModel.idf
        places = list(zip(self.segments, self._term_tables(), strict=True))
        for leaf in plan.leaves:
            fieldobj = self._fieldobjs.get(leaf.fieldname)
            if fieldobj is None:
                try:
                    fieldobj = self._fieldobjs[leaf.fieldname] = self.schema[leaf.fieldname]
                except KeyError:
                    continue  # Whoosh matches nothing for it either
            try:
                leaf.text = fieldobj.to_bytes(leaf.text)
            except ValueError:
                continue
            for (segment, offset), table in places:
                terminfo = table.info(leaf.fieldname, leaf.text)
                if terminfo is not None:
                    leaf.found.append((segment, offset, terminfo))
                    leaf.df += terminfo.doc_frequency()
            if leaf.found and fieldobj.scorable:
                # What BM25F.scorer hands its BM25FScorer: WeightingModel.idf, the average length.
                idf = (
                    self.searcher.idf(leaf.fieldname, leaf.text)
                    if own_idf
                    else log(self.doc_count_all / (leaf.df + 1)) + 1
                )
                leaf.bm25 = (
                    idf,
                    weighting.K1,
                    field_b.get(leaf.fieldname, weighting.B),
                    self._avgfl(leaf.fieldname),
                )

    def _positions(self, fieldname: str) -> Any:
        """The decoder of a field's posting positions (None when it stores none)."""
        fmt = self.schema[fieldname].format
        return fmt.decode_positions if fmt is not None and fmt.supports("positions") else None

    def _avgfl(self, fieldname: str) -> float:
        """A field's average length over the documents (deleted ones included), as Whoosh's."""
        avgfl = self._avg_lengths.get(fieldname)
        if avgfl is None:
            avgfl = self._avg_lengths[fieldname] = self.searcher.avg_field_length(fieldname) or 1
        return avgfl

    # --- matching ------------------------------------------------------------------------------

    def _match(self, plan: Plan, filt: DocSet | set[int] | None) -> set[int]:
        """The documents matching a clause of every group (rarest first), among ``filt``'s."""
        allowed = as_set(filt)
        for clause in plan.clauses:
            clause.df = min(leaf.df for leaf in clause.leaves)
        groups = sorted(plan.groups, key=lambda group: sum(clause.df for clause in group))
        docs: set[int] | None = None
        for group in groups:
            if docs is not None:
                within: list[int] | None = sorted(docs)
            else:  # the filter's documents: blocks holding none of them are not read
                within = filt.ordered if isinstance(filt, DocSet) else None
            for clause in group:
                clause.docs = self._clause_docs(clause, within) if clause.df else set()
            # Only the documents still wanted are copied: ``&`` walks the smaller side.
            wanted = docs if docs is not None else allowed
            if wanted is None:
                found = set().union(*(clause.docs for clause in group))
            elif len(group) == 1:
                found = wanted & group[0].docs
            else:
                found = set().union(*(wanted & clause.docs for clause in group))
            if docs is None and self.deleted is not None:
                found = found - self.deleted  # walks the smaller side (``-=`` walks the deleted)
            docs = found
            if not docs:
                return set()
        return docs or set()

    def _clause_docs(self, clause: Clause, within: list[int] | None) -> AbstractSet[int]:
        """The documents holding every term of a clause (its rarest term read first)."""
        leaves = clause.leaves
        if len(leaves) > 1:
            leaves = sorted(leaves, key=lambda leaf: leaf.df)
        docs: AbstractSet[int] | None = None
        for leaf in leaves:
            if docs is not None:
                within = sorted(docs)
            leaf.postings = {}
            for segment, offset, terminfo in leaf.found:
                read_term(
                    segment,
                    offset,
                    leaf.fieldname,
                    leaf.text,
                    terminfo,
                    within,
                    leaf.postings,
                    self.cache,
                )
            docs = leaf.postings.keys() if docs is None else docs & leaf.postings.keys()
            if not docs:
                return set()
        if clause.phrase and docs:
            return self._phrase_among(clause, docs)
        return docs or set()

    def _phrase_among(self, clause: Clause, candidates: AbstractSet[int]) -> set[int]:
        """The candidates (documents holding every word of a phrase) where its words stand in
        a row: their positions walked, or, once warm, what is known of them (PhraseCache)."""
        decode = self._positions(clause.leaves[0].fieldname)

        def find(unknown: AbstractSet[int]) -> set[int]:
            return phrase_docs(clause.leaves, unknown, decode, self.cache, self.values)

        if not self._loaded:  # a one-off search: nothing to keep
            return find(candidates)
        key = (clause.leaves[0].fieldname, tuple(leaf.text for leaf in clause.leaves))
        return self.phrases.holding(key, candidates, find)

"""What each thread searches with: its own Whoosh searchers (Whoosh's posting readers seek a
file they share, so a searcher serves one thread at a time), and what the threads share per
generation of the index: the type priors they score with, the term engine's tables.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from itertools import filterfalse
from typing import Any

from whoosh.scoring import BM25F
from whoosh.searching import Searcher

from kb.search.engine import TermEngine
from kb.search.postings import BlockCache
from kb.search.schema import QUESTION_PRIOR, TYPE_PRIOR


class LazyPriors:
    """Type priors read from the type column as documents are scored (no work per document when
    an index opens: a one-off ``kb search`` scores a few hundred of them)."""

    def __init__(self, types: Any, count: int, table: dict[str, float] = TYPE_PRIOR) -> None:
        self._types = types
        self._count = count
        self._table = table
        self._known: dict[int, float] = {}
        self._kinds: dict[int, str] = {}  # the types read so far, by document
        self._dense: Any = None
        self._lock = threading.Lock()  # the column reader reads a file shared by the threads

    def __len__(self) -> int:
        return self._count

    def many(self, docs: Collection[int]) -> list[float]:
        """The priors of ``docs``, in their order: one call for thousands of candidates (a
        question's), not one each."""
        known = self._known
        # Each of ``docs`` looked up (not ``docs - known.keys()``: a set minus a dict's keys
        # walks every key, tens of thousands at full history, on every call).
        missing = list(filterfalse(known.__contains__, docs))
        if missing:
            with self._lock:
                table, types = self._table, self._types
                for docnum in missing:
                    known[docnum] = table.get(types[docnum], 1.0)
        return list(map(known.__getitem__, docs))

    def dense(self) -> Any:
        """Every document's prior as a numpy array, made once: a warm server's questions
        rank tens of thousands of matches at a time (kb.search.parts)."""
        if self._dense is None:
            import numpy as np

            with self._lock:  # the column read in order: 0.13 s at the whole history, once
                if self._dense is None:
                    table = self._table
                    values = [table.get(kind, 1.0) for kind in self._types]
                    self._dense = np.array(values[: self._count], dtype=np.float64)
        return self._dense

    def kind(self, hit: Any) -> str:
        """A hit's type, read from the type column (its stored fields are left unread)."""
        return self.type_of(hit.docnum)

    def type_of(self, docnum: int) -> str:
        """A document's type, read from the type column (once: a search asks the type of each
        of its hits several times, for the named rule, a question's rules and their order)."""
        kind = self._kinds.get(docnum)
        if kind is None:
            with self._lock:
                kind = self._kinds[docnum] = str(self._types[docnum])
        return kind

    def __getitem__(self, docnum: int) -> float:
        prior = self._known.get(docnum)
        if prior is None:
            with self._lock:
                prior = self._known[docnum] = self._table.get(self._types[docnum], 1.0)
        return prior


@dataclass
class Snapshot:
    """One generation of the open index: what every thread's readers of it share."""

    ix: Any
    build: Any
    schema: Any  # read once: Whoosh's ``ix.schema`` rereads the table of contents from disk
    doc_count: int
    editions: list[str]
    vocabulary: Any
    filters: dict[Any, Any] = field(default_factory=dict)
    # The manifest's default scope: {"edition": newest, "docs": how many are numbered first}.
    scope: dict[str, Any] | None = None
    blocks: BlockCache = field(default_factory=BlockCache)  # posting blocks already decoded
    _priors: LazyPriors | None = None
    _question_priors: LazyPriors | None = None
    _shared: dict[Any, Any] = field(default_factory=dict)
    _shared_lock: Any = field(default_factory=threading.Lock)

    def shared(self, key: Any, make: Callable[[], Any]) -> Any:
        """A read-only value made once per generation (by the first thread that asks, the others
        waiting for it): the term engine's term tables and length norms, so that 32 server
        threads do not each load their own after every refresh."""
        found = self._shared.get(key)
        if found is None:
            with self._shared_lock:
                found = self._shared.get(key)
                if found is None:
                    found = self._shared[key] = make()
        return found

    def priors(self, searcher: Any) -> LazyPriors:
        """The type prior of every document, by document number (shared by the threads)."""
        if self._priors is None:
            reader = searcher.reader()
            self._priors = LazyPriors(reader.column_reader("type"), reader.doc_count_all())
        return self._priors

    def question_priors(self, searcher: Any) -> LazyPriors:
        """The prior of every document's type when a question is asked (QUESTION_PRIOR)."""
        if self._question_priors is None:
            reader = searcher.reader()
            self._question_priors = LazyPriors(
                reader.column_reader("type"), reader.doc_count_all(), QUESTION_PRIOR
            )
        return self._question_priors


class Readers:
    """One thread's searchers over the open index: Whoosh's, plain BM25F's, kb's term engine."""

    def __init__(self, snapshot: Snapshot, generation: int, term_engine: bool) -> None:
        self.snapshot = snapshot
        self.generation = generation
        self.searcher = snapshot.ix.searcher()
        self.searcher.weighting = PriorWeighting(snapshot.priors(self.searcher))
        self.plain = Searcher(self.searcher.reader(), weighting=BM25F(), closereader=False)
        self.engine = (
            TermEngine(self.searcher, snapshot.blocks, snapshot.shared) if term_engine else None
        )
        self._weighted: list[tuple[Any, Searcher]] = []

    def weighted(self, priors: Any) -> Searcher:
        """A searcher whose BM25F scores are multiplied by ``priors`` (Whoosh's public path of a
        some-of-the-words pass: the prior counts before the best are chosen)."""
        if priors is self.searcher.weighting.priors:
            return self.searcher
        for known, searcher in self._weighted:
            if known is priors:
                return searcher
        searcher = Searcher(
            self.searcher.reader(), weighting=PriorWeighting(priors), closereader=False
        )
        self._weighted.append((priors, searcher))
        return searcher

    def close(self) -> None:
        for _, searcher in self._weighted:
            searcher.close()
        self.plain.close()
        self.searcher.close()


class ReaderSets:
    """A server's sets of readers, each taken by one search for its length, in whatever thread
    received the request: at most ``count`` searches at once (more would only take turns under
    the GIL), and ``count`` sets to open and warm after a rewrite of the index however many
    threads the server has. A set of an older generation is closed when it is next taken or
    given back; the most recently used set is taken first (its caches are the warmest)."""

    def __init__(self, count: int) -> None:
        self._slots = threading.BoundedSemaphore(count)
        self._lock = threading.Lock()
        self._free: list[Readers] = []  # not in use, the most recently used last
        self._newest: tuple[Snapshot, int, bool] | None = None
        self._closed = False

    def publish(self, readers: Readers) -> None:
        """A new generation's first set (made by the thread that reopened the index): the sets
        not in use are of the old one and closed; those in use are closed when given back."""
        with self._lock:
            for stale in self._free:
                stale.close()
            self._free = [readers]
            self._newest = (readers.snapshot, readers.generation, readers.engine is not None)

    def take(self) -> Readers:
        """A set of the newest generation that no other search uses (waiting while all are)."""
        self._slots.acquire()
        try:
            with self._lock:
                assert self._newest is not None
                snapshot, generation, engine = self._newest
                while self._free:
                    readers = self._free.pop()
                    if readers.generation == generation:
                        return readers
                    readers.close()
            return Readers(snapshot, generation, engine)  # opened outside the lock
        except BaseException:
            self._slots.release()
            raise

    def give_back(self, readers: Readers) -> None:
        """Return a set :meth:`take` gave (closed if the index was reopened or closed since)."""
        with self._lock:
            newest = self._newest
            if not self._closed and newest is not None and readers.generation == newest[1]:
                self._free.append(readers)
            else:
                readers.close()
        self._slots.release()

    def open_sets(self) -> list[Readers]:
        """The sets not in use now (figures and tests)."""
        with self._lock:
            return list(self._free)

    def close(self) -> None:
        """Close the sets not in use; those in use are closed when given back."""
        with self._lock:
            self._closed = True
            for readers in self._free:
                readers.close()
            self._free = []


class PriorWeighting(BM25F):
    """BM25F, multiplied by the prior of the document's type (rules before examples)."""

    use_final = True

    def __init__(self, priors: list[float]) -> None:
        super().__init__()
        self.priors = priors

    def final(self, searcher: Any, docnum: int, score: float) -> float:
        return score * self.priors[docnum] if docnum < len(self.priors) else score

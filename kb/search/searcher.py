"""An open index: its warm searchers, generations and default filters (ranking: :mod:`ranking`).

:class:`SearchIndex` keeps one Whoosh searcher warm (the server reuses it across requests and
reopens it when ``kb index`` or ``kb ingest`` rewrote the index), with kb's term engine over it:
word queries are ranked by the engine (:mod:`kb.search.engine`), the others by Whoosh's matchers.
``search`` returns plain, JSON-ready dicts: the CLI prints them, the server sends them.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh import query as wq

from kb.errors import KbError
from kb.search.engine import DocSet, TermEngine, unsupported
from kb.search.indexer import MANIFEST, check_index, read_manifest
from kb.search.lane import search_scope
from kb.search.learned import load_learned_terms
from kb.search.query import QueryContext, WordMemo, default_filter
from kb.search.ranking import Ranker
from kb.search.readers import Readers, ReaderSets, Snapshot
from kb.search.schema import INDEX_NAME, NO_EDITION
from kb.search.spelling import Vocabulary

log = logging.getLogger(__name__)


class SearchIndex(Ranker):
    """An open index with a warm searcher (searching and ranking: :class:`Ranker`)."""

    def __init__(self, index_dir: Path, *, term_engine: bool = True, reader_sets: int = 0) -> None:
        """``reader_sets``: 0, each thread searches with readers of its own (a CLI, a test); N,
        each search takes one of N sets for its length (a server, :class:`ReaderSets`)."""
        self.index_dir = Path(index_dir)
        self._use_engine = term_engine
        check_index(self.index_dir)
        manifest = read_manifest(self.index_dir) or {}
        # No lock around searching: a search reads with readers no other thread uses meanwhile
        # (Whoosh's posting readers seek a shared file); this lock only guards opening them
        # and reopening the index.
        self._lock = threading.RLock()
        self._local = threading.local()
        self._readers: list[Readers] = []
        self._sets = ReaderSets(reader_sets) if reader_sets > 0 else None
        self._generation = 0
        self._snapshot: Snapshot
        self._open(manifest)

    def _open(self, manifest: dict[str, Any]) -> None:
        """Open the index on disk as a new generation, published whole: a search sees the
        editions, counts and vocabulary of the readers it searches with, never a mix."""
        try:
            ix = whoosh_index.open_dir(str(self.index_dir), indexname=INDEX_NAME)
        except Exception as exc:
            raise KbError(
                f"cannot open the search index in {self.index_dir} ({exc}): run `kb index`"
            ) from None
        snapshot = Snapshot(
            ix=ix,
            build=manifest.get("build"),
            schema=ix.schema,
            doc_count=0,
            editions=[],
            vocabulary=Vocabulary(self.index_dir),
            scope=manifest.get("scope"),
        )
        with self._lock:
            generation = self._generation + 1
        # This thread's readers of the new generation, made before it is published: no other
        # thread can see the snapshot until its counts and editions are filled in.
        readers = Readers(snapshot, generation, self._use_engine)
        if self._use_engine:
            reason = unsupported(readers.searcher)
            if reason:
                log.warning("%s: searching through Whoosh's public API instead", reason)
                self._use_engine = False
                readers.engine = None
        snapshot.doc_count = readers.searcher.doc_count()
        snapshot.editions = sorted(
            e.decode("utf-8")
            for e in readers.searcher.reader().lexicon("edition")
            if e.decode("utf-8") != NO_EDITION
        )
        load_learned_terms(self.index_dir)
        with self._lock:
            old: Readers | None = getattr(self._local, "readers", None)
            if old is not None:
                old.close()
                self._readers.remove(old)
            self._stamp = self._manifest_stamp()
            self._snapshot = snapshot
            self._generation = generation
            if self._sets is not None:
                self._sets.publish(readers)  # the new generation's first set, warm already
                return
            self._readers.append(readers)
        self._local.readers = readers

    def _thread_readers(self) -> Readers:
        """This thread's readers of the index (opened on first use, renewed after a refresh)."""
        pinned: Readers | None = getattr(self._local, "pinned", None)
        if pinned is not None:
            return pinned  # one search reads one generation of the index from start to end
        readers: Readers | None = getattr(self._local, "readers", None)
        if readers is not None and readers.generation == self._generation:
            return readers
        with self._lock:
            if readers is not None:
                readers.close()
                self._readers.remove(readers)
            readers = Readers(self._snapshot, self._generation, self._use_engine)
            self._readers.append(readers)
        self._local.readers = readers
        return readers

    @property
    def _state(self) -> Snapshot:
        """The generation of the index this thread searches (its pinned readers' one)."""
        return self._thread_readers().snapshot

    @property
    def ix(self) -> Any:
        return self._state.ix

    @property
    def build(self) -> Any:
        return self._state.build

    @property
    def schema(self) -> Any:
        return self._state.schema

    @property
    def editions(self) -> list[str]:
        return self._state.editions

    @property
    def _doc_count(self) -> int:
        return self._state.doc_count

    @property
    def _vocabulary(self) -> Vocabulary:
        return self._state.vocabulary

    @property
    def searcher(self) -> Any:
        """This thread's Whoosh searcher (scoring with the type priors)."""
        return self._thread_readers().searcher

    @property
    def _plain(self) -> Any:
        return self._thread_readers().plain

    @property
    def _engine(self) -> TermEngine | None:
        return self._thread_readers().engine

    def _filter(self, context: QueryContext, types: list[str] | None) -> Any:
        """The document set of the default filter (cached: Whoosh would recompute it per query)."""
        filters = self._state.filters
        key = (tuple(types or ()), "edition" in context.filters, context.newest)
        if key not in filters:
            scoped = None if types or "edition" in context.filters else self._scope(context)
            if scoped is not None:
                filters[key] = scoped
                return scoped
            filt = default_filter(context, types)
            # A plain set (Whoosh tests a filter's truth on every search, which walks a BitSet),
            # sorted too: kb's term engine skips the posting blocks that hold none of it.
            docs = None if filt is None else self._filter_docs(filt)
            filters[key] = None if docs is None else DocSet(docs, lasting=True)
        return filters[key]

    def _scope(self, context: QueryContext) -> DocSet | None:
        """The default filter without reading a posting: the documents of the newest edition
        or of none are numbered first by a full build, which counted them in the manifest.
        None when the index is not that build's any more (an update adds and deletes)."""
        scope = self._state.scope
        if not scope or scope.get("edition") != context.newest:
            return None
        reader = self.searcher.reader()
        segments = list(reader.leaf_readers())
        count = self._doc_count
        if len(segments) != 1 or reader.has_deletions() or reader.doc_count_all() != count:
            return None
        docs = scope.get("docs")
        if not isinstance(docs, int) or not 0 <= docs <= count:
            return None
        return DocSet(range(docs), lasting=True)

    def _filter_docs(self, q: Any) -> Any:
        """The documents of a filter: by the term engine when it is terms, ORs and ANDs (the
        posting blocks decoded at once, not a document at a time as Whoosh's matchers do)."""
        engine = self._engine
        if engine is not None:
            docs = _term_set(engine, q)
            if docs is not None:
                return docs
        return self.searcher.docs_for_query(q)

    def _manifest_stamp(self) -> int:
        try:
            return (self.index_dir / MANIFEST).stat().st_mtime_ns
        except OSError:
            return 0

    def refresh(self) -> None:
        """Reopen the index if it was rebuilt or updated since it was opened."""
        with self._lock:
            if self._manifest_stamp() == self._stamp:
                return
            manifest = read_manifest(self.index_dir)
            if manifest is None:
                return  # being swapped: keep serving the old one
            # Other threads renew their readers on their next search (the generation moved on).
            self._open(manifest)

    def close(self) -> None:
        """Release every thread's searchers and the index."""
        with self._lock:
            for readers in self._readers:
                readers.close()
            self._readers.clear()
            if self._sets is not None:
                self._sets.close()
            self._generation += 1
            self._snapshot.ix.close()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- searching -------------------------------------------------------------------------------

    def search(self, text: str, **options: Any) -> dict[str, Any]:
        """Search; return the response dict (raise QueryError on a bad query or parameter).

        The search's readers are pinned for its whole length: an index rewritten meanwhile (an
        ingest, ``kb index``) is seen by the next search, never half-way through this one.
        """
        sets = self._sets
        readers = self._local.pinned = self._thread_readers() if sets is None else sets.take()
        # What this search works out of its words, for its later passes over them (this
        # search's only: the next one starts afresh).
        self._local.words = WordMemo()
        engine = readers.engine
        if engine is not None:
            engine.clause_memo = {}
            engine.stored.begin()
        try:
            with search_scope():  # a broad search's place in the broad lane, given back here
                return self._search(text, **options)
        finally:
            self._local.pinned = None
            self._local.words = None
            if engine is not None:
                engine.clause_memo = None
                engine.stored.end()
            if sets is not None:
                sets.give_back(readers)


def _term_set(engine: TermEngine, q: Any) -> set[int] | None:
    """The documents of a query of terms, ORs and ANDs; None for any other query."""
    if type(q) is wq.Term:
        return engine.term_docs(q.fieldname, q.text)
    if type(q) in (wq.Or, wq.And) and q.subqueries:
        parts = [_term_set(engine, sub) for sub in q.subqueries]
        if any(part is None for part in parts):
            return None
        sets: list[set[int]] = parts  # type: ignore[assignment]
        return set().union(*sets) if type(q) is wq.Or else set.intersection(*sets)
    return None


def open_index(index_dir: Path) -> SearchIndex:
    """Open the index in a folder for searching (KbError if there is none)."""
    return SearchIndex(index_dir)

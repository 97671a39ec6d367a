"""Full-text search of rules, examples, glossary, rulings and cards in English, French and Spanish.

The public functions import the database models lazily, and Whoosh is imported without the
modules it names but never calls (:mod:`kb.search.deferred`), so that a cold ``kb search``
stays fast.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.search.deferred import import_whoosh
from kb.search.storage import lazy_buffer_files

import_whoosh()
lazy_buffer_files()  # an index opens without copying its files (kb.search.storage)

if TYPE_CHECKING:
    from kb.db import Database
    from kb.search.indexer import IndexReport
    from kb.search.searcher import SearchIndex


def __getattr__(name: str) -> Any:
    # The classes callers need by name (the API server), imported on first use like the rest.
    if name == "QueryError":
        from kb.search.query import QueryError

        return QueryError
    if name == "LaneBusy":
        from kb.search.lane import LaneBusy

        return LaneBusy
    if name == "SearchIndex":
        from kb.search.searcher import SearchIndex

        return SearchIndex
    if name == "BroadWorkers":
        from kb.search.worker import BroadWorkers

        return BroadWorkers
    raise AttributeError(name)


def build_index(db: Database, index_dir: Path) -> IndexReport:
    """Index the whole database afresh (the new index replaces the old one atomically)."""
    from kb.search.indexer import build_index as build

    return build(db, index_dir)


def update_index(
    db: Database,
    index_dir: Path,
    changed: Any = (),
    *,
    cards: Collection[int] | None = None,
    clarifications: Collection[int] | None = None,
    rules_only: bool = False,
    new_edition: int | None = None,
) -> IndexReport:
    """Rewrite only the items that changed (a full build if there is no index).

    ``cards`` and ``clarifications`` (ids, given together): only card data changed since the
    index was last in step, in these cards and clarifications and nothing else (the learned
    terms included); then only their items are rebuilt and compared.
    ``rules_only``: only Comprehensive Rules documents changed since the index was last in
    step; then only the rule, example and glossary items are rebuilt and compared.
    ``new_edition`` (with ``rules_only``): the run only added this English edition, newer than
    the others, and the learned rule titles did not change; then only the items of it and of
    the edition before it are built.
    """
    from kb.search.indexer import update_index as update

    scope = None
    if cards is not None and clarifications is not None:
        from kb.search.card_docs import CardScope

        scope = CardScope(frozenset(cards), frozenset(clarifications))
    return update(db, index_dir, changed, scope, rules_only, new_edition)


def index_in_step(index_dir: Path) -> IndexReport:
    """The report of ``kb index`` when the database marks the index as in step: nothing built."""
    from kb.search.indexer import in_step_report

    return in_step_report(index_dir)


def index_ready(index_dir: Path) -> bool:
    """True when the folder holds an index this version of kb can search."""
    from kb.search.indexer import index_ready as ready

    return ready(index_dir)


def open_index(index_dir: Path) -> SearchIndex:
    """Open an index for searching (keep it open to search many times)."""
    from kb.search.searcher import SearchIndex

    return SearchIndex(index_dir)


def search(index_dir: Path, query: str, **options: Any) -> dict[str, Any]:
    """Open the index, run one search and close it (see :meth:`SearchIndex.search`)."""
    with open_index(index_dir) as index:
        return index.search(query, **options)


def search_unless_broad(index: SearchIndex, query: str, **options: Any) -> dict[str, Any] | None:
    """One search in this process, or None when it is broad (stopped before its broad work).

    A server answers the None by handing the search to its broad worker process
    (:class:`BroadWorkers`), so a broad query never holds one of the server's own threads.
    """
    from kb.search import lane

    try:
        with lane.elsewhere():
            return index.search(query, **options)
    except lane.Diverted:
        return None

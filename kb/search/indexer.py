"""Build the index from the database, or bring it in step with what changed.

A full build writes a new index beside the old one and swaps it in, so a server reading the old
one never sees half an index. An update rebuilds the items from the database (about a second
for the whole real corpus), compares each item's hash with the one indexed, and rewrites only
the items that changed — those of the documents an ingest loaded or removed, of a translation
catalog just imported, of a rulings page recognised as its card — and deletes the ones that are
gone. The Whoosh work, which is what costs, is done for those items only.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.code_digest import files_digest
from kb.errors import KbError
from kb.search.learned import save_learned_terms
from kb.search.rules_update import write_words
from kb.search.schema import INDEX_NAME, SCHEMA_VERSION, build_schema

if TYPE_CHECKING:  # the database is only needed to build: searching must not import SQLAlchemy
    from kb.db import Database
    from kb.search.card_docs import CardScope

log = logging.getLogger(__name__)

MANIFEST = "kb-manifest.json"
REBUILD_SHARE = 0.3
# The modules that decide how a text becomes index terms: the analyzers, each language's stop
# words, stemming and bridge (kb/search/lang/), and the keyword names its learned terms take in.
ANALYSIS_FILES = ("analysis.py", "schema.py", "learned.py")


@cache
def analysis_digest() -> str:
    """A digest of the modules that make an index's terms (ANALYSIS_FILES and the languages).

    An index built by a kb whose analysis differs holds other terms than its queries look for
    (a stop word, a bridge's word, a keyword's name): it is another version's index, rebuilt by
    `kb ingest` and `kb index` and refused when opened, as a schema change is. The schema number
    alone missed such changes, and `kb index` called an index analysed otherwise up to date.
    """
    here = Path(__file__).resolve().parent
    files = [here / name for name in ANALYSIS_FILES] + sorted((here / "lang").glob("*.py"))
    return files_digest(files)


@dataclass
class IndexReport:
    """What a build or an update did."""

    full: bool
    items: int = 0
    written: int = 0
    removed: int = 0
    changed_documents: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "full": self.full,
            "items": self.items,
            "written": self.written,
            "removed": self.removed,
            "changed_documents": self.changed_documents,
            "seconds": round(self.seconds, 3),
        }


def read_manifest(index_dir: Path) -> dict[str, Any] | None:
    """The manifest of an index folder, or None when there is no usable index there."""
    try:
        data = json.loads((Path(index_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def index_ready(index_dir: Path) -> bool:
    """True when the folder holds an index of this version of kb."""
    return _of_this_version(read_manifest(index_dir))


def _of_this_version(manifest: dict[str, Any] | None) -> bool:
    """Whether a manifest is of an index of this version of kb: its schema and its analysis."""
    return bool(
        manifest
        and manifest.get("schema") == SCHEMA_VERSION
        and manifest.get("analysis") == analysis_digest()
    )


def in_step_report(index_dir: Path) -> IndexReport:
    """The report of an update that had nothing to do: no item built, the manifest's count.

    For an index the database marks as in step with its documents (``derived_state``), as
    ``kb ingest`` trusts it: building every item to compare hashes costs 21 s at the whole
    history; ``kb index --rebuild`` is the full check.
    """
    manifest = read_manifest(index_dir) or {}
    return IndexReport(full=False, items=int(manifest.get("items") or 0))


def _write_manifest(index_dir: Path, count: int, scope: dict[str, Any] | None = None) -> None:
    """Write the manifest last: a reader takes a changed manifest as "reopen the index".

    ``scope`` (a full build only): the newest edition, and how many documents the default
    filter keeps (they are numbered first: :func:`index_order`).
    """
    manifest: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "analysis": analysis_digest(),
        "build": uuid.uuid4().hex,
        "items": count,
    }
    if scope is not None:
        manifest["scope"] = scope
    tmp = index_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, index_dir / MANIFEST)


def item_hash(item: dict[str, Any]) -> str:
    """A stable hash of an item's content (every field, display data included)."""
    payload = json.dumps(item, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha1(payload.encode("utf-8")).hexdigest()


def all_items(db: Database) -> Iterator[dict[str, Any]]:
    """Every item of the database, each with its hash, in a deterministic order."""
    from kb.search.card_docs import card_items
    from kb.search.documents import glossary_items, rule_items
    from kb.search.editions import merge_editions

    seen: set[str] = set()
    with db.session() as session:
        built = [*rule_items(session), *glossary_items(session)]
        for items in (merge_editions(built), card_items(session)):
            for item in items:
                if item["key"] in seen:
                    log.warning(
                        "two items share the key %s; only the first is indexed", item["key"]
                    )
                    continue
                seen.add(item["key"])
                item["hash"] = item_hash(item)
                yield item


def index_order(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items in the order the index numbers them: what a search sees by default first.

    Searches are restricted to the newest edition unless told otherwise: with the items of the
    newest edition and those of no edition (cards, rulings) numbered together, then each older
    edition (newest first), kb's term engine skips the posting blocks of the older editions
    without reading them. The order changes nothing else (ties aside, which go to the lower
    number, as in Whoosh).
    """
    from kb.search.editions import newest_edition

    bound = [i for i in items if i.get("bound") == "edition"]
    editions = sorted({newest_edition(i) for i in bound}, reverse=True)
    place = {edition: rank for rank, edition in enumerate(editions)}

    def rank(item: dict[str, Any]) -> int:
        return place.get(newest_edition(item), 0) if item.get("bound") == "edition" else 0

    return sorted(items, key=rank)


def default_scope(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The newest edition and how many of the items (in index order) a search sees by default:
    those of the newest edition or of none, numbered first by :func:`index_order`."""
    from kb.search.editions import newest_edition

    newest = max((newest_edition(i) for i in items if i.get("bound") == "edition"), default="")
    docs = 0
    for item in items:
        if item.get("bound") == "edition" and newest_edition(item) != newest:
            break
        docs += 1
    return {"edition": newest, "docs": docs}


def build_index(db: Database, index_dir: Path) -> IndexReport:
    """Index every item of the database into a fresh index and swap it in place of the old one."""
    from whoosh import index as whoosh_index

    from kb.collector import cycles_paused

    with cycles_paused():
        return _build_index(db, index_dir, whoosh_index)


def _build_index(db: Database, index_dir: Path, whoosh_index: Any) -> IndexReport:
    import shutil  # here, as in _swap: a search, which imports this module, never removes a folder

    from kb.search.writing import use_term_pool

    started = time.perf_counter()
    index_dir = Path(index_dir)
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = index_dir.with_name(index_dir.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    count = 0
    try:
        ix = whoosh_index.create_in(str(staging), build_schema(), indexname=INDEX_NAME)
        writer = ix.writer(limitmb=256)
        lengths_once(writer)
        use_term_pool(writer)
        items = index_order(list(all_items(db)))
        try:
            for item in items:
                writer.add_document(**item)
        except BaseException:
            writer.cancel()
            raise
        writer.commit(optimize=True)
        ix.close()
        count = len(items)
        write_words(staging, items)
        save_learned_terms(db, staging)
        _write_manifest(staging, count, default_scope(items))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _swap(staging, index_dir)
    report = IndexReport(full=True, items=count, written=count)
    report.seconds = time.perf_counter() - started
    log.info("indexed %d items in %.1f s", count, report.seconds)
    return report


class _Lengths:
    """The field lengths Whoosh's writer asks of every posting it writes (for its blocks' length
    bounds), read once per field.

    Whoosh reads a length per posting, and for a field that keeps none (``edition``, ``set``,
    ``key``…: not scorable) looks for its lengths file each time, a file-system ``stat``; it
    answers 0 then, as here.
    """

    def __init__(self, reader: Any, scorable: frozenset[str]) -> None:
        self._reader = reader
        self._scorable = scorable
        self._lengths: dict[str, list[int | None]] = {}

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> int:
        if fieldname not in self._scorable:
            return default
        lengths = self._lengths.get(fieldname)
        if lengths is None:
            from kb.search.postings import perdoc_lengths

            lengths = self._lengths[fieldname] = perdoc_lengths(self._reader, fieldname)
        length = lengths[docnum]
        return default if length is None else length

    def close(self) -> None:
        self._reader.close()


def lengths_once(writer: Any) -> None:
    """Give a Whoosh segment writer the :class:`_Lengths` reader when it writes its postings."""
    scorable = frozenset(name for name, field in writer.schema.items() if field.scorable)
    opened = writer.per_document_reader

    def reader() -> _Lengths:
        return _Lengths(opened(), scorable)

    writer.per_document_reader = reader


def _swap(staging: Path, index_dir: Path) -> None:
    """Replace ``index_dir`` by ``staging`` (two renames; the old folder is removed after)."""
    import shutil

    old = index_dir.with_name(index_dir.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if index_dir.exists():
        os.replace(index_dir, old)
    os.replace(staging, index_dir)
    shutil.rmtree(old, ignore_errors=True)


def update_index(
    db: Database,
    index_dir: Path,
    changed: Iterable[str] = (),
    scope: CardScope | None = None,
    rules_only: bool = False,
    new_edition: int | None = None,
) -> IndexReport:
    """Rewrite only the items that differ from the database; build afresh if there is no index.

    ``changed`` names the corpus documents an ingest loaded or removed (for the report).
    ``scope``: only card data changed, in these cards and clarifications, and the index was in
    step before; then only their items are built and compared (:mod:`kb.search.card_update`).
    ``rules_only``: only Comprehensive Rules documents changed and the index was in step
    before; then only the rules' items are built and compared (:mod:`kb.search.rules_update`);
    ``new_edition``: of them, only the items of this added edition and of the one before it.
    """
    from whoosh import index as whoosh_index

    index_dir = Path(index_dir)
    if not index_ready(index_dir):
        return build_index(db, index_dir)
    started = time.perf_counter()
    try:
        ix = whoosh_index.open_dir(str(index_dir), indexname=INDEX_NAME)
    except Exception as exc:  # a damaged index: start again rather than fail
        log.warning("the search index in %s cannot be opened (%s); rebuilding it", index_dir, exc)
        return build_index(db, index_dir)
    report = IndexReport(full=False, changed_documents=sorted(set(changed)))
    try:
        applied = None
        if scope is not None:
            from kb.search.card_update import apply_card_scope

            applied = apply_card_scope(db, ix, index_dir, scope)
        elif rules_only:
            from kb.search.rules_update import apply_rules_scope

            applied = apply_rules_scope(db, ix, index_dir, new_edition)
        if applied is None:
            applied = _apply(db, ix, index_dir)
        report.written, report.removed, report.items, rebuild = applied
    finally:
        ix.close()
    if rebuild:  # most items changed (a new edition, a new kb): a fresh build is faster
        rebuilt = build_index(db, index_dir)
        rebuilt.changed_documents, rebuilt.removed = report.changed_documents, report.removed
        return rebuilt
    if report.written or report.removed:
        save_learned_terms(db, index_dir)
        _write_manifest(index_dir, report.items)
    report.seconds = time.perf_counter() - started
    log.info(
        "search index: %d items rewritten, %d removed in %.2f s",
        report.written,
        report.removed,
        report.seconds,
    )
    return report


def indexed_hashes(reader: Any) -> dict[str, str]:
    """Key -> hash of every live document of an index."""
    keys = reader.column_reader("key")
    hashes = reader.column_reader("hash")
    return {keys[docnum]: hashes[docnum] for docnum in reader.all_doc_ids()}


def compare(
    current: dict[str, str], expected: dict[str, dict[str, Any]], stale: list[str]
) -> tuple[list[str], int, bool]:
    """(the expected items' changed keys, the items the index will hold, whether to rebuild
    instead): the rule every update follows, whether it compared every item or a scope's.

    Rebuilding is chosen when more than REBUILD_SHARE of the items would change: it is then
    cheaper than deleting and re-adding them one by one.
    """
    changed = [key for key, item in expected.items() if current.get(key) != item["hash"]]
    total = len(current) - len(stale) + sum(1 for key in expected if key not in current)
    return changed, total, len(changed) + len(stale) > REBUILD_SHARE * max(total, 1)


def write_changes(ix: Any, stale: list[str], items: list[dict[str, Any]]) -> None:
    """Delete the stale items' keys and rewrite the given items, in one commit (none on error).

    The one writer of an index update, whether every item was compared or one set's only.
    """
    writer = ix.writer(limitmb=128)
    lengths_once(writer)
    try:
        for key in stale:
            writer.delete_by_term("key", key)
        for item in items:
            writer.update_document(**item)
    except BaseException:
        writer.cancel()
        raise
    writer.commit()


def _apply(db: Database, ix: Any, index_dir: Path) -> tuple[int, int, int, bool]:
    """Rewrite the changed items, delete the stale ones; return (written, removed, total, False).

    When :func:`compare` says to rebuild, nothing is written and the last value is True.
    """
    with ix.searcher() as searcher:
        current = indexed_hashes(searcher.reader())
    expected = {item["key"]: item for item in all_items(db)}
    stale = sorted(set(current) - set(expected))
    changed, total, rebuild = compare(current, expected, stale)
    if not stale and not changed:
        return 0, 0, len(current), False
    if rebuild:
        return len(changed), len(stale), total, True

    write_changes(ix, stale, [expected[key] for key in changed])
    write_words(index_dir, expected.values())
    return len(changed), len(stale), len(expected), False


def check_index(index_dir: Path) -> None:
    """Raise KbError when the folder holds no index this version of kb can use."""
    manifest = read_manifest(index_dir)
    if manifest is None:
        raise KbError(f"no search index in {index_dir}: run `kb index` (or `kb build`) first")
    if not _of_this_version(manifest):
        raise KbError(
            f"the search index in {index_dir} was made by another version of kb: "
            "run `kb index --rebuild`"
        )

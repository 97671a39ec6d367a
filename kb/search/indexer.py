"""Build the index from the database, or bring it in step with the documents that changed.

A full build writes a new index beside the old one and swaps it in, so a server reading the old
one never sees half an index. An update rebuilds only the items of the corpus documents whose
sha256 differs from the manifest the index keeps (``kb-manifest.json``), then sweeps the keys.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

from kb.db import Database
from kb.errors import KbError
from kb.models import Document
from kb.search.schema import INDEX_NAME, SCHEMA_VERSION, build_schema

log = logging.getLogger(__name__)

MANIFEST = "kb-manifest.json"


@dataclass
class IndexReport:
    """What a build or an update did."""

    full: bool
    documents: int = 0
    added: int = 0
    deleted: int = 0
    changed_documents: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "full": self.full,
            "documents": self.documents,
            "added": self.added,
            "deleted": self.deleted,
            "changed_documents": self.changed_documents,
            "seconds": round(self.seconds, 3),
        }


def read_manifest(index_dir: Path) -> dict[str, Any] | None:
    """The manifest of an index folder, or None when there is no usable index there."""
    try:
        data = json.loads((index_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def index_ready(index_dir: Path) -> bool:
    """True when the folder holds an index of this version of kb."""
    manifest = read_manifest(index_dir)
    return bool(manifest and manifest.get("schema") == SCHEMA_VERSION)


def _write_manifest(index_dir: Path, documents: dict[str, str], count: int) -> None:
    manifest = {
        "schema": SCHEMA_VERSION,
        "build": uuid.uuid4().hex,
        "items": count,
        "documents": dict(sorted(documents.items())),
    }
    tmp = index_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, index_dir / MANIFEST)


def _loaded_documents(db: Database) -> dict[str, str]:
    with db.session() as session:
        return dict(
            session.execute(
                select(Document.path, Document.sha256).where(Document.status == "loaded")
            ).all()
        )


def _all_items(db: Database, scope: Any = None) -> Iterator[dict[str, Any]]:
    from kb.search.card_docs import card_items
    from kb.search.documents import glossary_items, rule_items

    with db.session() as session:
        yield from rule_items(session, scope)
        yield from glossary_items(session, scope)
        yield from card_items(session, scope)


def build_index(db: Database, index_dir: Path) -> IndexReport:
    """Index every item of the database into a fresh index and swap it in place of the old one."""
    from whoosh import index as whoosh_index

    started = time.perf_counter()
    documents = _loaded_documents(db)
    index_dir = Path(index_dir)
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = index_dir.with_name(index_dir.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        ix = whoosh_index.create_in(str(staging), build_schema(), indexname=INDEX_NAME)
        writer = ix.writer(limitmb=256)
        count = 0
        seen: set[str] = set()
        for item in _all_items(db):
            if item["key"] in seen:
                log.warning("two items share the key %s; the second is not indexed", item["key"])
                continue
            seen.add(item["key"])
            writer.add_document(**item)
            count += 1
        writer.commit(optimize=True)
        ix.close()
        _write_manifest(staging, documents, count)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _swap(staging, index_dir)
    report = IndexReport(full=True, documents=count, added=count)
    report.changed_documents = sorted(documents)
    report.seconds = time.perf_counter() - started
    log.info("indexed %d items in %.1f s", count, report.seconds)
    return report


def _swap(staging: Path, index_dir: Path) -> None:
    """Replace ``index_dir`` by ``staging`` (two renames; the old folder is removed after)."""
    old = index_dir.with_name(index_dir.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if index_dir.exists():
        os.replace(index_dir, old)
    os.replace(staging, index_dir)
    shutil.rmtree(old, ignore_errors=True)


def update_index(
    db: Database, index_dir: Path, changed: Iterable[str] = (), *, rebuild_if_missing: bool = True
) -> IndexReport:
    """Reindex only the items of documents that changed since the index was last written.

    ``changed`` adds document paths an ingest reports (loaded or removed) to those found by
    comparing the manifest's sha256 with the database. An index of another schema version, or
    none at all, is rebuilt in full (unless ``rebuild_if_missing`` is false).
    """
    from whoosh import index as whoosh_index

    index_dir = Path(index_dir)
    manifest = read_manifest(index_dir)
    if not manifest or manifest.get("schema") != SCHEMA_VERSION:
        if not rebuild_if_missing:
            raise KbError(f"no search index in {index_dir}: run `kb index`")
        return build_index(db, index_dir)
    started = time.perf_counter()
    documents = _loaded_documents(db)
    previous: dict[str, str] = manifest.get("documents", {})
    paths = set(changed)
    paths |= {p for p, sha in documents.items() if previous.get(p) != sha}
    paths |= set(previous) - set(documents)
    report = IndexReport(full=False, changed_documents=sorted(paths))
    try:
        ix = whoosh_index.open_dir(str(index_dir), indexname=INDEX_NAME)
    except Exception as exc:  # a damaged index: start again rather than fail the ingest
        log.warning("the search index in %s cannot be opened (%s); rebuilding it", index_dir, exc)
        return build_index(db, index_dir)
    try:
        report.added, report.deleted, report.documents = _apply(db, ix, paths)
    finally:
        ix.close()
    _write_manifest(index_dir, documents, report.documents)
    report.seconds = time.perf_counter() - started
    log.info(
        "search index: %d items reindexed, %d removed (%d documents changed) in %.2f s",
        report.added,
        report.deleted,
        len(paths),
        report.seconds,
    )
    return report


def _apply(db: Database, ix: Any, paths: set[str]) -> tuple[int, int, int]:
    """Delete and re-add the items in scope; return (added, removed for good, items indexed)."""
    from kb.search.documents import Scope, doc_hash
    from kb.search.sources import expected_keys, scope_of_documents

    with ix.searcher() as searcher:
        indexed = {k.decode("utf-8") for k in searcher.reader().lexicon("key")}
        old_keys: set[str] = set()
        for path in paths:
            for docnum in searcher.document_numbers(docs=doc_hash(path)):
                old_keys.add(searcher.stored_fields(docnum)["key"])
    with db.session() as session:
        scope = scope_of_documents(session, paths) if paths else Scope()
        wanted = expected_keys(session)
    stale = (indexed - wanted) | old_keys
    for key in sorted(stale | (wanted - indexed)):
        scope.add_key(key)
    if not scope and not stale:
        return 0, 0, len(indexed)
    writer = ix.writer(limitmb=128)
    try:
        for key in sorted(stale):
            writer.delete_by_term("key", key)
        for edition in sorted(scope.editions):
            writer.delete_by_term("edition", edition)
        added = 0
        for item in _all_items(db, scope):
            writer.update_document(**item)
            added += 1
        writer.commit()
    except BaseException:
        writer.cancel()
        raise
    with ix.searcher() as searcher:
        total = searcher.doc_count()
    return added, len(indexed - wanted), total

"""Corpus files -> database: idempotent by sha256, one transaction per document.

A run reads every file, skips those whose bytes are unchanged since they last loaded, parses the
rest outside any transaction, then loads each parsed document in a transaction of its own: the
old rows the document owned are deleted and the new ones inserted, or nothing happens at all.
A file that fails keeps whatever an earlier version of it loaded and is recorded as failed with
its line and reason; the other files of the run load regardless.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session

from kb.collector import cycles_paused
from kb.corpus import PARSER_VERSIONS, decode_file, detect_format, mtgjson_stream, parse_text
from kb.corpus.records import (
    CardSetDocument,
    CompRulesDocument,
    ParsedDocument,
    ParseWarning,
    RulePageDocument,
    RulingsPageDocument,
)
from kb.db import Database, derived_current, mark_derived
from kb.errors import KbError, ParseError
from kb.loaders import (
    load_card_sets,
    load_comprules,
    load_rule_page,
    load_rulings_page,
    place_assumed_translations,
)

# Public: the edition of a language's translations, which `kb import po` stores community
# texts in (the export stage reaches the ingest stage only through this module).
from kb.loaders import translations_edition as translations_edition
from kb.models import Document, IngestWarning
from kb.recognise import collect_garbage, reattach_translations, recognise_pages
from kb.versions import update_lineages

log = logging.getLogger(__name__)

# Editions first (translations attach to them), then card data (pages are recognised against it).
_LOAD_ORDER = {"comprules": 0, "rule_page": 1, "mtgjson": 2, "rulings_page": 3}


@dataclass
class Failure:
    """A document that did not load: where and why."""

    path: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"


@dataclass
class Warned:
    """A defect kb repaired or skipped inside a document that loaded."""

    path: str
    line: int
    kind: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass
class _Pending:
    """A document read and ready to load: parsed already, a CR text to parse, or MTGJSON to stream.

    A Comprehensive Rules text is parsed only when it loads, so that a run over the whole history
    (104 editions) holds one edition's records at a time, not all of them.
    """

    key: str
    digest: str
    size: int
    encoding: str
    format: str
    stat: str | None  # kb.ingest.file_stat when the file was read
    parsed: ParsedDocument | None = None
    stream: Path | None = None
    text: str | None = None


@dataclass
class IngestReport:
    """What a run did, for the summary and for the stages that follow (links, index)."""

    files: int = 0
    loaded: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[Failure] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    warnings: list[Warned] = field(default_factory=list)
    # unchanged files parsed again because a newer parser reads their format (PARSER_VERSIONS)
    reparsed: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """True when the database content changed in this run."""
        return bool(self.loaded or self.removed)


ProgressHook = Callable[[str, int, int], None]


def sha256_of(data: bytes) -> str:
    """Hex sha256 of a file's bytes (the document's identity for idempotency)."""
    return hashlib.sha256(data).hexdigest()


def document_key(path: Path) -> str:
    """The path a document is stored under: absolute and POSIX, so reruns find it again."""
    return path.resolve().as_posix()


def ingest_paths(
    db: Database,
    paths: Iterable[Path],
    *,
    progress: ProgressHook | None = None,
    before_load: Callable[[Session, str, str], None] | None = None,
) -> IngestReport:
    """Ingest files and folders into the database; return what was loaded, skipped and failed.

    ``before_load(session, path, format)`` runs in each document's transaction before its old
    rows go (the link stage notes what a changed set file held, to relink only that). The cycle
    collector is held meanwhile (:mod:`kb.collector`): the parsed sets and editions are
    millions of live objects that its passes walk for nothing.
    """
    with cycles_paused():
        return _ingest_paths(db, paths, progress=progress, before_load=before_load)


def _ingest_paths(
    db: Database,
    paths: Iterable[Path],
    *,
    progress: ProgressHook | None,
    before_load: Callable[[Session, str, str], None] | None,
) -> IngestReport:
    from kb.corpus import iter_corpus_files

    files = iter_corpus_files(paths)
    report = IngestReport(files=len(files))
    with db.session() as session:
        known = {
            row.path: row
            for row in session.execute(
                select(
                    Document.path,
                    Document.sha256,
                    Document.status,
                    Document.error_line,
                    Document.error,
                    Document.file_stat,
                    Document.format,
                    Document.parser_version,
                )
            )
        }

    pending: list[_Pending] = []
    restat: dict[str, str] = {}  # unchanged files whose stat changed (or was not known)
    for index, path in enumerate(files, 1):
        key = document_key(path)
        if progress:
            progress(key, index, len(files) * 2)
        previous = known.get(key)
        if previous is not None and _parsed_by_other_code(previous):
            report.reparsed.append(key)
            previous = None  # its rows are what older code made of it: parse it again
        try:
            stat = file_stat(path)
            if previous is not None and stat is not None and previous.file_stat == stat:
                _unchanged(report, key, previous)  # same size, times and inode: same bytes
                continue
            digest, size, data = _read(path)
        except OSError as exc:
            report.failed.append(Failure(key, 1, f"cannot read file: {exc.strerror or exc}"))
            continue
        if previous is not None and previous.sha256 == digest:
            if stat is not None:
                restat[key] = stat
            _unchanged(report, key, previous)
            continue
        try:
            pending.append(_prepare(path, key, digest, size, data, stat))
        except ParseError as exc:
            _record_failure(db, key, digest, size, exc.line, exc.reason, stat)
            report.failed.append(Failure(key, exc.line, exc.reason))
    if restat:
        _record_stats(db, restat)

    pending.sort(key=lambda item: (_LOAD_ORDER[item.format], item.key))
    for index, item in enumerate(pending, 1):
        key = item.key
        if progress:
            progress(key, len(files) + index, len(files) + len(pending))
        try:
            with db.session() as session, session.begin():
                if before_load is not None:
                    before_load(session, key, item.format)
                warnings = _load_document(session, item)
        except OperationalError:
            # A full disk, an I/O error or a lost server is not the document's fault: recording
            # it as failed would keep it from being retried, so the run stops here instead.
            raise
        except (KbError, SQLAlchemyError) as exc:
            line, reason = _describe(exc)
            log.warning("%s:%s: %s", key, line, reason)
            _record_failure(db, key, item.digest, item.size, line, reason, item.stat)
            report.failed.append(Failure(key, line, reason))
            continue
        report.loaded.append(key)
        report.warnings.extend(Warned(key, w.line, w.kind, w.message) for w in warnings)

    # Also when nothing loaded but a run was killed after its documents committed and before
    # this upkeep: the "upkeep" derived state then lags the documents. A run that changed
    # nothing, after one that finished, does no upkeep at all (no scan of the card data).
    with db.session() as session, session.begin():
        if report.loaded or not derived_current(session, "upkeep"):
            update_lineages(session)
            reattach_translations(session)
            place_assumed_translations(session)
            recognise_pages(session)
            collect_garbage(session)
            mark_derived(session, "upkeep")
    return report


def _parser_version(format: str | None) -> int:
    """The parser version a document of this format is made by today.

    A document that never parsed has no format: it is owed a new try by any newer parser, so its
    number is the sum of all of them, which every raise of one changes.
    """
    if format is None:
        return sum(PARSER_VERSIONS.values())
    return PARSER_VERSIONS.get(format, 0)


def _parsed_by_other_code(previous: Any) -> bool:
    """True when a stored document's rows (or its failure) came from another parser version."""
    return previous.parser_version != _parser_version(previous.format)


def _unchanged(report: IngestReport, key: str, previous: Any) -> None:
    """An unchanged file: loaded as before, or failed as before (with the same reason)."""
    if previous.status == "loaded":
        report.unchanged.append(key)
    else:
        report.failed.append(Failure(key, previous.error_line or 1, previous.error or "failed"))


# A file bigger than this is hashed in chunks and never held whole (plain AllPrintings: 226 MB).
_WHOLE = 32 * 1024 * 1024
_HEAD = 64
# A file changed less than this long ago is hashed on every run: a write in the same tick of the
# file system's clock after it was read would leave its stat as it was (git's "racy" files).
SETTLE_NS = 2_000_000_000


def file_stat(path: Path) -> str | None:
    """The file's size, mtime, ctime and inode, or None when it changed too recently to trust.

    Equal to the stat stored with the document, the file holds the bytes it held when its
    sha256 was taken: rewriting a file changes its mtime and ctime (the ctime even when a tool
    sets the mtime back), replacing it changes its inode.
    """
    st = path.stat()
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < SETTLE_NS:
        return None
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"


def _record_stats(db: Database, stats: dict[str, str]) -> None:
    """Store the stats of files found unchanged by their sha256, for the next run to trust."""
    table = Document.__table__
    with db.session() as session, session.begin():
        session.execute(
            update(table)
            .where(table.c.path == bindparam("b_path"))
            .values(file_stat=bindparam("b_stat")),
            [{"b_path": key, "b_stat": stat} for key, stat in sorted(stats.items())],
        )


def _read(path: Path) -> tuple[str, int, bytes]:
    """The file's sha256, size, and bytes (only the first few of a big file)."""
    size = path.stat().st_size
    if size <= _WHOLE:
        data = path.read_bytes()
        return sha256_of(data), len(data), data
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        head = stream.read(_HEAD)
        digest.update(head)
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest(), size, head


def _prepare(
    path: Path, key: str, digest: str, size: int, data: bytes, stat: str | None
) -> _Pending:
    """Decode and parse a text document now; an MTGJSON file is streamed when it loads."""
    if mtgjson_stream.looks_like(data[:_HEAD]):
        encoding = mtgjson_stream.encoding_of(data[:_HEAD])
        return _Pending(key, digest, size, encoding, "mtgjson", stat, stream=path)
    if len(data) < size:  # a big file that is not MTGJSON: read it whole after all
        data = path.read_bytes()
    text, encoding = decode_file(path, data)
    if detect_format(text, str(path)) == "comprules":
        return _Pending(key, digest, size, encoding, "comprules", stat, text=text)
    parsed = parse_text(text, str(path))
    log.debug("parsed %s as %s (%s)", path, parsed.format, encoding)
    return _Pending(key, digest, size, encoding, parsed.format, stat, parsed=parsed)


def forget_documents(db: Database, keys: Iterable[str]) -> list[str]:
    """Remove documents (and everything they own) from the database; return those removed."""
    removed = []
    with db.session() as session, session.begin():
        for key in keys:
            doc = session.scalar(select(Document).where(Document.path == key))
            if doc is not None:
                session.execute(delete(Document).where(Document.id == doc.id))
                removed.append(key)
        if removed:
            update_lineages(session)
            reattach_translations(session)
            collect_garbage(session)
            mark_derived(session, "upkeep")
    return removed


def _load_document(session: Session, item: _Pending) -> list[ParseWarning]:
    """Replace whatever the document loaded before with the new one (inside a transaction)."""
    session.execute(delete(Document).where(Document.path == item.key))
    parsed = item.parsed
    if parsed is None and item.text is not None:
        parsed, item.text = parse_text(item.text, item.key), None
    doc = Document(
        path=item.key,
        sha256=item.digest,
        format=item.format,
        language=getattr(parsed, "language", None),
        status="loaded",
        size=item.size,
        encoding=item.encoding,
        file_stat=item.stat,
        parser_version=_parser_version(item.format),
    )
    session.add(doc)
    session.flush()
    warnings: list[ParseWarning] = list(getattr(parsed, "warnings", []))
    if item.stream is not None:
        warnings = load_card_sets(session, doc, mtgjson_stream.iter_sets(item.stream))
    elif isinstance(parsed, CompRulesDocument):
        load_comprules(session, doc, parsed)
    elif isinstance(parsed, RulePageDocument):
        load_rule_page(session, doc, parsed)
    elif isinstance(parsed, CardSetDocument):
        load_card_sets(session, doc, [parsed])
    elif isinstance(parsed, RulingsPageDocument):
        load_rulings_page(session, doc, parsed, Path(item.key).stem)
    else:  # pragma: no cover - the dispatcher only returns the four formats
        raise KbError(f"no loader for {type(parsed).__name__}")
    if warnings:
        rows = [
            {
                "document_id": doc.id,
                "position": i,
                "line": w.line,
                "kind": w.kind,
                "message": w.message,
            }
            for i, w in enumerate(warnings)
        ]
        session.execute(insert(IngestWarning), rows)
    for w in warnings:
        log.info("%s:%s: %s", item.key, w.line, w.message)
    return warnings


def _record_failure(
    db: Database,
    key: str,
    digest: str,
    size: int,
    line: int,
    reason: str,
    stat: str | None = None,
) -> None:
    """Mark a document failed; rows an earlier version of it loaded stay as they were."""
    with db.session() as session, session.begin():
        doc = session.scalar(select(Document).where(Document.path == key))
        if doc is None:
            doc = Document(path=key, sha256=digest, status="failed", size=size)
            session.add(doc)
        doc.sha256, doc.size, doc.file_stat = digest, size, stat
        doc.parser_version = _parser_version(doc.format)
        doc.status, doc.error_line, doc.error = "failed", line, reason


def _describe(exc: Exception) -> tuple[int, str]:
    if isinstance(exc, ParseError):
        return exc.line, exc.reason
    if isinstance(exc, SQLAlchemyError):
        orig = getattr(exc, "orig", None)
        return 1, f"database refused the document: {orig or exc.__class__.__name__}"
    return 1, str(exc)

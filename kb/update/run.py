"""The ``kb update`` job: check the sources, download what is new, install it, ingest, report.

Order matters for the promise that a failing source changes nothing: every check and download
(with its verification) happens first, into the data folder; only then are files moved into the
corpus folder (atomically, under their official names) and ingested through ``kb.pipeline``.
A downloaded file that kb then fails to load is taken out again and the database put back.
"""

from __future__ import annotations

import datetime as dt
import errno
import logging
import os
import shutil
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.config import Settings
from kb.errors import DatabaseError, KbError

from . import sources
from .fetch import DownloadProgress, Fetcher, SourceError, Validators, discard_part
from .state import STATE_FILE, file_state, load_state, local_checksum, save_state, update_lock

if TYPE_CHECKING:  # the database side loads only when something is to be ingested
    from kb.ingest import ProgressHook

log = logging.getLogger(__name__)

SOURCES = ("rules", "cards")


@dataclass
class Pending:
    """A file to fetch: where from, where it goes, and why it is needed."""

    source: str
    url: str
    target: Path
    reason: str
    checksum: str | None = None
    checksum_url: str | None = None
    part: Path | None = None
    effective: dt.date | None = None
    backup: Path | None = None
    installed: bool = False


@dataclass
class UpdateReport:
    """What a run found, fetched and changed (``as_dict`` is the ``--json`` output)."""

    dry_run: bool = False
    checked: list[dict[str, Any]] = field(default_factory=list)
    installed: list[dict[str, Any]] = field(default_factory=list)
    rules: dict[str, Any] | None = None
    cards: dict[str, Any] | None = None
    since: list[dict[str, Any]] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data."""
        return {
            "dry_run": self.dry_run,
            "checked": self.checked,
            "installed": self.installed,
            "rules": self.rules,
            "cards": self.cards,
            "since": self.since,
        }


def update(
    settings: Settings,
    *,
    only: tuple[str, ...] = SOURCES,
    dry_run: bool = False,
    since: dt.date | None = None,
    progress: DownloadProgress | None = None,
    ingest_progress: ProgressHook | None = None,
    fetcher: Fetcher | None = None,
) -> UpdateReport:
    """Bring the corpus and the knowledge base up to date with Wizards' and MTGJSON's files."""
    if not settings.corpus:
        raise KbError("no corpus folder is configured (set corpus in kb.toml)")
    if settings.corpus[0].exists() and not settings.corpus[0].is_dir():
        raise KbError(f"{settings.corpus[0]}: the corpus folder is a file; nothing was fetched")
    report = UpdateReport(dry_run=dry_run)
    state = load_state(settings)
    with update_lock(settings), fetcher or Fetcher() as http:
        pending: list[Pending] = []
        if "rules" in only:
            pending += _check_rules(settings, http, state, report)
        if "cards" in only:
            pending += _check_cards(settings, http, state, report)
        if dry_run:
            return report
        for item in pending:
            _download(settings, http, item, progress)
        if pending:
            _install_and_ingest(settings, pending, report, ingest_progress)
        for item in pending:
            if item.source == "cards":
                state[item.url] = file_state(item.target, item.checksum)
        save_state(settings, state)
    if since is not None:
        report.since = changes_since(settings, since)
    return report


def changes_since(settings: Settings, since: dt.date) -> list[dict[str, Any]]:
    """Every loaded edition effective after ``since`` with its changes (``kb changes``)."""
    from kb.pipeline import open_db

    from . import changes

    db = open_db(settings, create=False)
    try:
        with db.session() as session:
            return changes.changes_since(session, since)
    finally:
        db.dispose()


def _check_rules(
    settings: Settings, http: Fetcher, state: dict[str, Any], report: UpdateReport
) -> list[Pending]:
    """Find the newest edition the rules page links; pending if the corpus lacks it."""
    page_url = settings.rules_page_url
    known = state.get(page_url) or {}
    link_state = known.get("link") if isinstance(known.get("link"), dict) else None
    fetched = http.get(page_url, Validators.load(known) if link_state else None)
    if fetched.not_modified and link_state:
        url = str(link_state.get("url", ""))
        date = sources.name_date(sources.file_name(url))
        if date is None:
            raise SourceError(page_url, f"the saved link is damaged: delete {STATE_FILE}")
        link = sources.RulesLink(url, sources.file_name(url), date)
    else:
        assert fetched.body is not None
        link = sources.newest_rules_link(fetched.body, fetched.url)
        state[page_url] = {**fetched.validators.as_dict(), "link": {"url": link.url}}
    present = sources.local_rules_dates(settings.corpus).get(link.date)
    entry = {"source": "rules", "url": link.url, "name": link.name, "date": link.date.isoformat()}
    if present is not None:
        report.checked.append({**entry, "status": "current", "path": str(present)})
        return []
    target = settings.corpus[0] / link.name
    reason = f"new Comprehensive Rules {link.name} (dated {link.date.isoformat()})"
    report.checked.append({**entry, "status": "new", "path": str(target), "reason": reason})
    return [Pending("rules", link.url, target, reason)]


def _check_cards(
    settings: Settings, http: Fetcher, state: dict[str, Any], report: UpdateReport
) -> list[Pending]:
    """Compare MTGJSON's published checksum with our copy's; pending if they differ."""
    url = settings.mtgjson_url
    checksum_url = url + ".sha256"
    known = state.get(checksum_url) or {}
    had = isinstance(known.get("sha256"), str)
    fetched = http.get(checksum_url, Validators.load(known) if had else None)
    if fetched.not_modified:
        published = str(known["sha256"])
    else:
        assert fetched.body is not None
        published = sources.parse_checksum(fetched.body, checksum_url)
        state[checksum_url] = {**fetched.validators.as_dict(), "sha256": published}
    name = sources.file_name(url)
    target = settings.corpus[0] / name
    local = local_checksum(target, state.get(url))
    entry = {"source": "cards", "url": url, "name": name, "sha256": published}
    if local == published:
        report.checked.append({**entry, "status": "current", "path": str(target)})
        return []
    reason = f"new {name} from MTGJSON" if local else f"{name}: no copy in the corpus yet"
    report.checked.append({**entry, "status": "new", "path": str(target), "reason": reason})
    return [Pending("cards", url, target, reason, checksum=published, checksum_url=checksum_url)]


def _download(
    settings: Settings, http: Fetcher, item: Pending, progress: DownloadProgress | None
) -> None:
    """Fetch one file into the data folder and verify it (a file that fails is dropped)."""
    item.part = settings.home / "downloads" / (item.target.name + ".part")
    try:
        _validators, content_type = http.download(item.url, item.part, progress=progress)
    except OSError as exc:
        where = exc.filename or item.part
        raise KbError(
            f"cannot write {where}: {exc.strerror or exc}; nothing was installed"
        ) from None
    try:
        if item.source == "rules":
            item.effective = sources.verify_rules(item.part, item.url, content_type)
        else:
            assert item.checksum and item.checksum_url
            sources.verify_card_data(item.part, item.url, item.checksum, item.checksum_url)
    except SourceError:
        discard_part(item.part)
        raise


def _install_and_ingest(
    settings: Settings,
    pending: list[Pending],
    report: UpdateReport,
    ingest_progress: ProgressHook | None,
) -> None:
    """Move the verified files into the corpus, ingest them, and summarise what changed."""
    from kb import pipeline
    from kb.ingest import document_key

    before = _before(settings, pending)
    for item in pending:
        try:
            _install(item)
        except OSError as exc:
            _roll_back(settings, pending, database=False)
            raise KbError(
                f"cannot write {exc.filename or item.target}: {exc.strerror or exc}; "
                "nothing was installed"
            ) from None
        report.installed.append({"source": item.source, "url": item.url, "path": str(item.target)})
    try:
        result = pipeline.ingest(
            settings, [item.target for item in pending], progress=ingest_progress
        )
    except BaseException:
        try:
            _roll_back(settings, pending)
        except Exception as exc:  # the original failure is the one to report
            log.warning("could not take the new files out again: %s", exc)
        raise
    failed = {failure.path: failure for failure in result.failed}
    broken = [item for item in pending if document_key(item.target) in failed]
    if broken:
        _roll_back(settings, broken)
        failure = failed[document_key(broken[0].target)]
        kept = [item.target.name for item in pending if item not in broken]
        also = f" ({', '.join(kept)} was installed and loaded)" if kept else ""
        reason = " ".join(str(failure.reason).split())  # one line, whatever the reader said
        raise KbError(
            f"{broken[0].url}: kb could not load the downloaded file (line {failure.line}: "
            f"{reason}); it was taken out of the corpus again{also}"
        )
    for item in pending:
        if item.backup is not None:
            item.backup.unlink(missing_ok=True)
    _summarise(settings, pending, before, report)


def _before(settings: Settings, pending: list[Pending]) -> dict[str, Any]:
    """What the knowledge base holds before the ingest: the edition to diff, stale, cards."""
    from kb.pipeline import open_db
    from kb.versions import edition_label, english_editions

    from . import changes

    before: dict[str, Any] = {"previous": None, "stale": {}, "cards": changes.CardSnapshot()}
    try:
        db = open_db(settings, create=False)
    except DatabaseError:
        return before  # nothing loaded yet: everything is new
    try:
        with db.session() as session:
            for item in pending:
                if item.source == "rules" and item.effective:
                    older = [
                        e
                        for e in english_editions(session)
                        if e.effective_date and e.effective_date < item.effective
                    ]
                    if older:
                        before["previous"] = edition_label(older[-1])
                        before["stale"] = changes.stale_keys(session, older[-1])
                elif item.source == "cards":
                    before["cards"] = changes.card_snapshot(session)
    finally:
        db.dispose()
    return before


def _summarise(
    settings: Settings, pending: list[Pending], before: dict[str, Any], report: UpdateReport
) -> None:
    from kb.pipeline import open_db

    from . import changes

    db = open_db(settings, create=False)
    try:
        with db.session() as session:
            for item in pending:
                if item.source == "rules" and item.effective:
                    report.rules = changes.edition_changes(
                        session, before["previous"], item.effective.isoformat(), before["stale"]
                    )
                elif item.source == "cards":
                    report.cards = changes.card_changes(session, before["cards"])
    finally:
        db.dispose()


def _install(item: Pending) -> None:
    """Put a verified download in place atomically; keep the file it replaces until the end."""
    assert item.part is not None
    target = item.target
    target.parent.mkdir(parents=True, exist_ok=True)
    staged = target.with_name(f".{target.name}.kb-new")
    try:
        os.replace(item.part, staged)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        shutil.copyfile(item.part, staged)
        item.part.unlink()
    discard_part(item.part)
    if target.exists():
        item.backup = target.with_name(f".{target.name}.kb-previous")
        os.replace(target, item.backup)
    os.replace(staged, target)
    item.installed = True


def _roll_back(settings: Settings, items: list[Pending], *, database: bool = True) -> None:
    """Take installed files out again and (``database``) put the database back as it was."""
    from kb import pipeline
    from kb.ingest import document_key, forget_documents

    restored, added = [], []
    for item in items:
        if not item.installed:
            with suppress(OSError):  # a staged copy left by a failed move
                item.target.with_name(f".{item.target.name}.kb-new").unlink(missing_ok=True)
            if item.backup is not None and not item.target.exists():
                os.replace(item.backup, item.target)  # failed between the two moves
            continue
        item.target.unlink(missing_ok=True)
        if item.backup is not None:
            os.replace(item.backup, item.target)
            restored.append(item.target)
        else:
            added.append(document_key(item.target))
    if not database:
        return
    if added:
        with pipeline.writer_lock(settings), pipeline.storage_errors(settings):
            db = pipeline.open_db(settings, create=False)
            try:
                forget_documents(db, added)
            finally:
                db.dispose()
    if restored:
        pipeline.ingest(settings, restored)

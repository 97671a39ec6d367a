"""The jobs that chain stages: ingest (then link and index what changed), and the full build.

Stages never import each other's internals; this module, like the CLI, sits on top and calls
their public functions in order. A writer lock keeps two ingests from interleaving.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import exists, select
from sqlalchemy.exc import OperationalError

from kb.config import Settings
from kb.db import (
    Database,
    SchemaState,
    derived_current,
    make_engine,
    mark_derived,
    missing_sqlite_file,
    open_database,
    schema_state,
    upgrade_schema,
)
from kb.errors import DatabaseError, KbError
from kb.ingest import IngestReport, ProgressHook, ingest_paths
from kb.models import Link
from kb.relink import added_edition, card_changes, relink_after_ingest, rules_documents_only

if TYPE_CHECKING:
    from kb.export import ImportReport
    from kb.links import CardChanges
    from kb.search import IndexReport
    from kb.site import BuildReport as SiteReport

log = logging.getLogger(__name__)


@contextmanager
def writer_lock(settings: Settings, *, wait: bool = True) -> Iterator[None]:
    """Hold the data folder's writer lock: a second writer waits for it, or refuses."""
    path = settings.home / "writer.lock"
    try:
        settings.home.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+")  # noqa: SIM115 - closed below, after the OSError check
    except OSError as exc:
        raise KbError(
            f"cannot write to the data folder {settings.home}: {exc.strerror or exc}"
        ) from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            if not wait:
                raise KbError(
                    f"another kb process ({holder}) is writing to {settings.home}; try again later"
                ) from None
            log.warning("waiting for another kb process (%s) to finish writing", holder)
            fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        handle.truncate()
        try:
            handle.write(f"pid {os.getpid()}\n")
            handle.flush()
        except OSError as exc:  # a full disk: the lock is held all the same
            log.warning("cannot record the writer's pid in %s: %s", path, exc.strerror or exc)
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)


def open_db(settings: Settings, *, create: bool = True) -> Database:
    """Open the configured database."""
    return open_database(settings.database, create=create)


def ingest(
    settings: Settings,
    paths: Sequence[Path] | None = None,
    *,
    progress: ProgressHook | None = None,
    wait: bool = True,
) -> IngestReport:
    """Ingest files or folders (default: the configured corpus) and bring derived data in step."""
    targets = list(paths) if paths else list(settings.corpus)
    with writer_lock(settings, wait=wait), storage_errors(settings):
        db = open_db(settings)
        try:
            with db.writer_lock(wait=wait):
                links_were_in_step = _in_step(db, "links")
                index_was_in_step = _in_step(db, "index") and _has_index(settings)
                changes = card_changes(db) if links_were_in_step else None
                report = ingest_paths(
                    db,
                    targets,
                    progress=progress,
                    before_load=changes.before_load if changes else None,
                )
                # Terms first: rule titles and the search vocabulary read them.
                terms = rebuild_terms_if_stale(db)
                # Also when nothing changed but an earlier run was killed before catching up.
                cards_only = False
                if report.changed or not _in_step(db, "links"):
                    cards_only = relink_after_ingest(db, report, changes, rebuild=rebuild_links)
                # Relearned terms name keywords in French and Spanish texts: relink those.
                relink_learned_terms(db)
                if report.changed or not _in_step(db, "index") or not _has_index(settings):
                    # An ingest leaves a working index: built when there is none yet.
                    changed = [*report.loaded, *report.removed]
                    # Card data alone changed, the learned rule titles did not, and the index
                    # was in step before: only the touched cards' and rulings' items can differ.
                    scoped = cards_only and index_was_in_step and not _titles_changed(terms)
                    # Rules documents alone changed: the card and ruling items did not.
                    rules_only = index_was_in_step and rules_documents_only(db, report)
                    # One English edition added after the others: only its items and those of
                    # the edition before it can differ (the rule titles read in every edition
                    # did not change).
                    added = None
                    if rules_only and not _titles_changed(terms):
                        added = added_edition(db, report)
                    _update_search_index(
                        settings,
                        db,
                        changed,
                        build_missing=True,
                        scope=changes if scoped else None,
                        rules_only=rules_only,
                        new_edition=added,
                    )
                _keep_counts(db)
                return report
        finally:
            db.dispose()


def _keep_counts(db: Database) -> None:
    """Keep the knowledge base's counts for the summary, under the writer lock (kb.stats):
    the next no-op ingest prints them without counting again."""
    from kb.stats import keep_counts

    with db.session() as session, session.begin():
        keep_counts(session)


def rebuild_links(db: Database) -> dict[str, object]:
    """Rebuild every link (references, term links, siblings); return the counts.

    One transaction per English edition, each recorded in ``derived_state``: a rebuild that is
    killed keeps the editions it finished, and the next run (an ingest that finds the links
    behind, or ``kb link``) carries on from there. The ``links`` stage is marked at the end.
    """
    from kb.links import build_links

    with db.session() as session:
        try:
            # Not in step until the last edition is done, whatever happens in between.
            mark_derived(session, "links", inputs="")
            session.commit()
            counts = build_links(session, commit_each=True)
            mark_derived(session, "links")
            session.commit()
        except BaseException:
            session.rollback()
            raise
        return counts


def rebuild_terms_if_stale(db: Database, *, force: bool = False) -> dict[str, object] | None:
    """Relearn the keyword terms when the card or rules documents changed (or when forced).

    Unforced, the stored terms are kept when what they are learned from did not change.
    """
    from kb.terminology import rebuild_terms, terms_current

    with db.session() as session, session.begin():
        if not force and terms_current(session):
            return None
        return rebuild_terms(session, reuse=not force)


def _titles_changed(terms: dict[str, object] | None) -> bool:
    """Whether a terms step changed the learned rule titles (None: it did not run)."""
    return terms is not None and bool(terms.get("titles_changed", True))


def relink_learned_terms(db: Database) -> dict[str, object] | None:
    """Relink French and Spanish term links when the learned names they use changed."""
    from kb.links import relink_learned

    with db.session() as session:
        if not session.scalar(select(exists(select(Link.id)))):
            return None  # nothing linked yet: the link step links with the current names
        try:
            return relink_learned(session)
        except BaseException:
            session.rollback()
            raise


def relearn_terms(settings: Settings, *, wait: bool = True) -> dict[str, object]:
    """Relearn the keyword terms now (``kb terms --rebuild``), under the writer lock."""
    with writer_lock(settings, wait=wait), storage_errors(settings):
        db = open_db(settings, create=False)
        try:
            with db.writer_lock(wait=wait):
                counts = rebuild_terms_if_stale(db, force=True)
                assert counts is not None
                relinked = relink_learned_terms(db)
                if relinked is not None:
                    counts = {**counts, "relinked": relinked}
                return counts
        finally:
            db.dispose()


def _in_step(db: Database, stage: str) -> bool:
    """Whether a derived stage was last brought in step with the documents now loaded."""
    with db.session() as session:
        return derived_current(session, stage)


def _mark_in_step(db: Database, stage: str) -> None:
    with db.session() as session, session.begin():
        mark_derived(session, stage)


def link(settings: Settings, *, wait: bool = True) -> dict[str, object]:
    """Rebuild the links on their own (``kb link``), under the writer lock."""
    with writer_lock(settings, wait=wait), storage_errors(settings):
        db = open_db(settings, create=False)
        try:
            with db.writer_lock(wait=wait):
                return rebuild_links(db)
        finally:
            db.dispose()


def _has_index(settings: Settings) -> bool:
    from kb.search import index_ready

    return index_ready(settings.index_dir)


def _update_search_index(
    settings: Settings,
    db: Database,
    changed: list[str],
    *,
    build_missing: bool = False,
    scope: CardChanges | None = None,
    rules_only: bool = False,
    new_edition: int | None = None,
) -> None:
    """Keep the search index in step: reindex only what the changed documents hold.

    No index yet: ``build_missing`` (an ingest) builds it, else there is nothing to keep in step.
    A failure here leaves the database loaded and the index as it was; the next ``kb index``
    or ingest rewrites whatever differs.
    """
    from kb.search import update_index

    if not build_missing and not _has_index(settings):
        return
    try:
        if scope is None:
            update_index(
                db, settings.index_dir, changed, rules_only=rules_only, new_edition=new_edition
            )
        else:
            update_index(
                db,
                settings.index_dir,
                changed,
                cards=scope.cards,
                clarifications=scope.clarifications,
            )
    except (KbError, OSError) as exc:
        log.warning("the search index was not updated (%s): run `kb index`", exc)
        return
    _mark_in_step(db, "index")


def index(settings: Settings, *, rebuild: bool = False, wait: bool = True) -> IndexReport:
    """Build the search index (``rebuild``, or when there is none) or bring it in step.

    An index the database marks as in step with its documents is trusted, as ``kb ingest``
    trusts it: nothing is built or compared. ``rebuild`` is the full check.
    """
    from kb.search import build_index, index_in_step, update_index

    with writer_lock(settings, wait=wait), storage_errors(settings):
        db = open_db(settings, create=False)
        try:
            with db.writer_lock(wait=wait):
                if rebuild:
                    report = build_index(db, settings.index_dir)
                elif _in_step(db, "index") and _has_index(settings):
                    return index_in_step(settings.index_dir)
                else:
                    report = update_index(db, settings.index_dir)
                _mark_in_step(db, "index")
            return report
        finally:
            db.dispose()


@contextmanager
def storage_errors(settings: Settings) -> Iterator[None]:
    """Turn a full disk, a read-only folder or a database that refuses writes into a KbError.

    Each document loads in its own transaction, so what was committed before the failure stays
    and the rest is rolled back: the previous database is left as it was, never half-written.
    """
    try:
        yield
    except OperationalError as exc:
        reason = str(exc.orig or exc).strip().splitlines()[0]
        raise DatabaseError(
            f"the database refused a write ({reason}): check the free disk space and write "
            "access; what was loaded before is intact, rerun to load the rest"
        ) from None
    except OSError as exc:
        where = exc.filename or settings.home
        raise KbError(
            f"cannot write {where}: {exc.strerror or exc}; what was there before is intact"
        ) from None


def upgrade_database(settings: Settings) -> tuple[str | None, str]:
    """Create or upgrade the schema in place (``kb db upgrade``); return (before, after)."""
    with writer_lock(settings), storage_errors(settings):
        engine = make_engine(settings.database)
        try:
            return upgrade_schema(engine)
        finally:
            engine.dispose()


def database_state(settings: Settings) -> SchemaState:
    """Where the configured database stands against this kb's migrations (``kb db current``)."""
    if missing_sqlite_file(settings.database):  # a reader never creates the file
        from kb.migrations import head_revision

        return SchemaState(current=None, head=head_revision(), legacy=False, empty=True)
    engine = make_engine(settings.database, create=False)
    try:
        return schema_state(engine)
    finally:
        engine.dispose()


@dataclass
class BuildOutcome:
    """What ``kb build`` did: the ingest run, the derived stages it refreshed, the site."""

    ingest: IngestReport
    stages: list[str]
    site: SiteReport


def build(
    settings: Settings,
    out: Path | None = None,
    *,
    strict: bool = False,
    search: bool = True,
    force: bool = False,
    progress: ProgressHook | None = None,
    wait: bool = True,
) -> BuildOutcome:
    """The main job: ingest the configured corpus if it changed, link and index, render the site."""
    from kb.site import build_site

    report = ingest(settings, progress=progress, wait=wait)
    with writer_lock(settings, wait=wait), storage_errors(settings):
        db = open_db(settings)
        try:
            with db.writer_lock(wait=wait):
                stages = _refresh_derived(db, report, relinked=report.changed)
                stages += _ensure_index(settings, db)
            site = build_site(
                db,
                out or settings.site_dir,
                strict=strict,
                search=search,
                force=force,
                cache_dir=settings.home / "site-cache",
            )
        finally:
            db.dispose()
    return BuildOutcome(report, stages, site)


def _refresh_derived(db: Database, report: IngestReport, *, relinked: bool = False) -> list[str]:
    """Rebuild the links when the corpus changed (or were never built), through the link stage.

    ``relinked``: the ingest that produced ``report`` already rebuilt them (``ingest`` does).
    """
    import importlib

    done = []
    links = importlib.import_module("kb.links")
    if getattr(links, "build_links", None) is None:
        log.warning("the link stage (kb.links.build_links) is missing: links are not rebuilt")
        return done
    with db.session() as session:
        if relinked:
            done.append("links")
        elif (
            report.changed
            or not session.scalar(select(exists(select(Link.id))))  # not a count of millions
            or not derived_current(session, "links")
        ):
            session.close()
            rebuild_links(db)
            done.append("links")
    return done


def _ensure_index(settings: Settings, db: Database) -> list[str]:
    """Build the search index when there is none (``ingest`` keeps an existing one in step)."""
    from kb.search import build_index, index_ready

    if index_ready(settings.index_dir):
        return []
    build_index(db, settings.index_dir)
    _mark_in_step(db, "index")
    return ["index"]


def import_translations(
    settings: Settings,
    path: Path,
    *,
    language: str | None = None,
    skip_untranslated: bool = False,
    dry_run: bool = False,
    wait: bool = True,
) -> ImportReport:
    """Import a translator's PO catalog (``kb import po``) in one transaction, then relink."""
    from kb.export import import_po

    with writer_lock(settings, wait=wait), storage_errors(settings):
        db = open_db(settings, create=False)
        try:
            with db.writer_lock(wait=wait), db.session() as session:
                report = import_po(
                    session,
                    path,
                    language=language,
                    skip_untranslated=skip_untranslated,
                    dry_run=dry_run,
                )
                if dry_run:
                    session.rollback()
                    return report
                from kb.stats import forget_counts

                forget_counts(session)  # counted translations may change, no document does
                session.commit()
                if report.imported or report.updated:
                    rebuild_links(db)  # the new texts' rule references
                    _update_search_index(settings, db, [])
                return report
        finally:
            db.dispose()

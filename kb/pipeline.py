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
from pathlib import Path

from kb.config import Settings
from kb.db import Database, open_database
from kb.errors import KbError
from kb.ingest import IngestReport, ProgressHook, ingest_paths

log = logging.getLogger(__name__)


@contextmanager
def writer_lock(settings: Settings, *, wait: bool = True) -> Iterator[None]:
    """Hold the data folder's writer lock: a second writer waits for it, or refuses."""
    settings.home.mkdir(parents=True, exist_ok=True)
    path = settings.home / "writer.lock"
    with open(path, "a+") as handle:
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
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
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
    with writer_lock(settings, wait=wait):
        db = open_db(settings)
        try:
            return ingest_paths(db, targets, progress=progress)
        finally:
            db.dispose()

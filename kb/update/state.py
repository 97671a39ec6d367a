"""What ``kb update`` remembers between runs, and the lock that keeps two runs apart.

``<data folder>/update-state.json`` holds the validators (ETag, Last-Modified) each source last
answered, the rules page's newest link, MTGJSON's published checksum and the size, mtime and
sha256 of our AllPrintings copy (so a no-op run does not hash hundreds of megabytes).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kb.config import Settings
from kb.errors import KbError

from . import sources

log = logging.getLogger(__name__)

STATE_FILE = "update-state.json"


def local_checksum(target: Path, known: Any) -> str | None:
    """Our copy's sha256: from the state file when size and mtime still match, else hashed."""
    if not target.is_file():
        return None
    stat = target.stat()
    if (
        isinstance(known, dict)
        and known.get("size") == stat.st_size
        and known.get("mtime_ns") == stat.st_mtime_ns
        and isinstance(known.get("sha256"), str)
    ):
        return str(known["sha256"])
    return sources.sha256_file(target)


def file_state(path: Path, checksum: str | None) -> dict[str, Any]:
    """What the state file records of an installed file."""
    stat = path.stat()
    return {"sha256": checksum, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def load_state(settings: Settings) -> dict[str, Any]:
    """Validators and checksums of the last successful run (a damaged file means none)."""
    path = settings.home / STATE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.warning("%s: unreadable (%s); checking every source from scratch", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


def save_state(settings: Settings, state: dict[str, Any]) -> None:
    """Write the state file atomically (after a run that succeeded)."""
    path = settings.home / STATE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_name(path.name + ".tmp")
    staged.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(staged, path)


@contextmanager
def update_lock(settings: Settings) -> Iterator[None]:
    """Refuse a second ``kb update`` on the same data folder while one runs."""
    settings.home.mkdir(parents=True, exist_ok=True)
    with open(settings.home / "update.lock", "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise KbError(f"another kb update is running on {settings.home}") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)

"""The atomic, incremental writer of the built site.

Pages are collected in memory, then written into a temporary folder beside the output, which
replaces the output only once everything (Pagefind, the link check) succeeded: a failed build
leaves the previous site as it was. Pages whose bytes did not change are hard-linked from the
previous site instead of rewritten, and a build that changes nothing touches nothing. Paths are
checked: nothing is ever written outside the output folder, and no path is written twice.
A build that was killed leaves its temporary folder (``.site.tmp-<pid>``) beside the output; the
next build removes those whose process is gone, and puts back a previous site a build killed
between its two renames had moved aside (``.site.old-<pid>``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from kb.errors import KbError

log = logging.getLogger(__name__)

MARKER = ".kb-site"
# Folders of the output that a build regenerates as a whole (never compared page by page).
GENERATED = ("pagefind",)


@dataclass
class WriteReport:
    """What a commit did to the output folder."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    swapped: bool = False


def check_output(out: Path) -> Path:
    """Refuse an output folder that is not empty and not a site kb built (it will be replaced)."""
    resolved = out.expanduser().resolve()
    if resolved == Path(resolved.anchor) or resolved == Path.home().resolve():
        raise KbError(f"refusing to build the site into {resolved}: choose a dedicated folder")
    if resolved.exists():
        if not resolved.is_dir():
            raise KbError(f"--out {out}: exists and is not a folder")
        if any(resolved.iterdir()) and not (resolved / MARKER).is_file():
            raise KbError(
                f"--out {out}: the folder is not empty and was not built by kb "
                f"(no {MARKER} file); refusing to replace it"
            )
    if Path.cwd().resolve().is_relative_to(resolved):
        raise KbError(f"--out {out}: the output folder would contain the current folder")
    return resolved


def safe_path(path: str) -> PurePosixPath:
    """Check that a page path stays inside the output folder; return it as a POSIX path."""
    pure = PurePosixPath(path)
    if (
        not path
        or pure.is_absolute()
        or "\\" in path
        or any(part in ("", ".", "..") for part in path.split("/"))
        or pure.parts[0] in GENERATED
        or pure.name == MARKER
    ):
        raise KbError(f"refusing to write {path!r}: it is not a plain path inside the site")
    return pure


_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<kind>tmp|old)-(?P<pid>\d{1,10})$")


def _alive(pid: int) -> bool:
    """Whether a process with this id runs (one we may not signal runs too: keep its folder)."""
    if pid == os.getpid():
        return False  # this build's own name: a leftover of an earlier process with our pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return pid > 0


def clean_leftovers(out: Path) -> list[Path]:
    """Remove the temporary folders of killed builds of ``out``; return what was removed.

    Only real folders (not symlinks) named ``.<out>.tmp-<pid>`` or ``.<out>.old-<pid>`` beside
    the output, whose process no longer runs, are touched. When the output itself is missing,
    a killed build had moved the previous site aside: that folder is renamed back instead.
    """
    try:
        entries = sorted(out.parent.iterdir())
    except OSError:
        return []
    stale = []
    for entry in entries:
        match = _LEFTOVER.match(entry.name)
        if not match or match["name"] != out.name or entry.is_symlink() or not entry.is_dir():
            continue
        if not _alive(int(match["pid"])):
            stale.append((match["kind"], entry))
    if not out.exists():
        for kind, entry in stale:
            if kind == "old" and (entry / MARKER).is_file():
                os.rename(entry, out)
                log.warning("put back the site a killed build had moved to %s", entry)
                stale.remove((kind, entry))
                break
    removed = []
    for _, entry in stale:
        shutil.rmtree(entry, ignore_errors=True)
        log.info("removed %s, left by a killed build", entry)
        removed.append(entry)
    return removed


def read_marker(out: Path) -> dict[str, object]:
    """The build record kept in the output folder (empty when there is none)."""
    try:
        data = json.loads((out / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}

"""Where an export goes: a regular file replaced atomically, or standard output.

``--out PATH`` is written whole or not at all (a temporary file beside the target, then a
rename), but only over a regular file or nothing: a device (``/dev/full``), a FIFO, a socket or
a folder is refused, since a rename would silently replace it by a file. A symlink is followed
and the file it points at is replaced, so the link stays. A new file gets the permissions the
umask gives (``0666 & ~umask``, as a shell redirection would); a replaced one keeps its own.
A failed write (full disk, closed pipe) is one ``KbError`` line, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path

from kb.errors import KbError

_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def _umask() -> int:
    """The process's umask (read by setting it and putting it back: the CLI is one thread)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def target_of(path: Path, option: str = "--out") -> Path:
    """The regular file an output path names (symlinks followed), or a clear refusal."""
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise KbError(f"{option}: cannot use {path}: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode):
        return target
    kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
    shown = f"{path} (a link to {target})" if target != Path(os.path.abspath(path)) else str(path)
    hint = (
        "; give a file name"
        if stat.S_ISDIR(mode)
        else ("; kb replaces only regular files (leave out --out to write to standard output)")
    )
    raise KbError(f"{option}: {shown} is {kind}{hint}")


def write_file(path: Path, data: bytes, option: str = "--out") -> Path:
    """Write bytes atomically to the regular file ``path`` names; return the file written."""
    target = target_of(path, option)
    tmp: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        handle, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            os.fchmod(out.fileno(), mode)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise KbError(f"{option}: cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return target


def write_stdout(data: bytes) -> None:
    """Write bytes to standard output; a full disk or a closed pipe is one error line."""
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except OSError as exc:
        silence_stdout()
        raise KbError(f"cannot write to standard output: {exc.strerror or exc}") from None


def silence_stdout() -> None:
    """Point standard output at /dev/null, so that the exit's own flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real descriptor (tests' captured output)
        pass

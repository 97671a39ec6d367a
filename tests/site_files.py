"""Reading a built site back, for the tests that compare two builds byte for byte."""

from __future__ import annotations

from pathlib import Path


def read_site(folder: Path) -> dict[str, bytes]:
    """The files of a built site, keyed by their POSIX path inside it."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }

"""A digest of source files, so that state kept by one version of kb is not trusted by another.

The counts (:mod:`kb.stats`) and the link walk's kept state (:mod:`kb.links.walk_state`) are
reused only while the code that made them is the same; each names the files it depends on and
this hashes them the one way both have always used (file name, a NUL, the bytes), so a digest
kept by an earlier kb stays comparable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def files_digest(paths: Iterable[Path]) -> str:
    """The sha256 of the files in the given order, each as its name, a NUL and its bytes."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()

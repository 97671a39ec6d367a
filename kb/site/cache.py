"""What one build of the site remembers for the next: each page's input digest and its links.

A page is rendered from its template and its context only (plain data, see
:mod:`kb.site.data`), so a page whose context digest, template and site code are those of the
page already in the output folder would come out byte for byte the same: it is neither
rendered nor rewritten, and its ids and link targets (for the link check) come from here. The
rule history and edition diffs depend only on the rules documents: they are kept too, keyed by
those documents' hashes. The cache lives in the knowledge base's home (never in the published
site); a missing, unreadable or foreign cache only means a full render.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import zlib
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

VERSION = 4


def page_digest(path: str, template: str, lang: str | None, context: dict[str, Any]) -> str:
    """The digest of everything one page is rendered from (besides the site code)."""
    digest = hashlib.sha256()
    digest.update(json.dumps([path, template, lang]).encode())
    # Contexts are plain data: dicts, lists, strings (Markup is a str), numbers, None.
    digest.update(json.dumps(context, sort_keys=True, ensure_ascii=False, default=_refuse).encode())
    return digest.hexdigest()


def _refuse(value: Any) -> Any:
    raise TypeError(f"a page context holds a {type(value).__name__}: only plain data is cached")


class SiteCache:
    """The page digests and link data of the last build of one output folder."""

    def __init__(self, file: Path | None, code: str) -> None:
        self.file = file
        self.code = code
        # path -> (digest, ids and links, unresolved): the ids' lines, NUL, the links' lines,
        # compressed (one object per page, a fraction of the text: the pages repeat their menu
        # and folder prefixes, and the cache of 75,000 pages is held through the whole build);
        # unresolved: the rule references a lazily built page showed as text, with their counts
        self.previous: dict[str, tuple[str, bytes, dict[str, int] | None]] = {}
        self.pages: dict[str, tuple[str, bytes, dict[str, int] | None]] = {}
        self.extras_previous: tuple[str, Any] | None = None
        self.extras: tuple[str, Any] | None = None
        self.stamp: str | None = None  # the fingerprint of the build the cache describes
        # The broken links the build found, (page, href, reason): its kept pages still have them.
        self.broken_previous: list[tuple[str, str, str]] = []
        self.broken: list[tuple[str, str, str]] = []
        if file is None or not file.is_file():
            return
        try:
            with file.open("rb") as handle:
                # kb's own file in kb's own home (written below), never one from elsewhere
                stored = pickle.load(handle)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError) as exc:
            log.warning("ignoring the site cache %s: %s", file, exc)
            return
        if not isinstance(stored, dict) or stored.get("version") != VERSION:
            return
        if stored.get("code") != code:  # other templates, catalogs or site code: render all
            return
        self.stamp = stored.get("stamp")
        self.previous = stored.get("pages") or {}
        self.extras_previous = stored.get("extras")
        self.broken_previous = [tuple(b) for b in stored.get("broken") or []]

    def lookup(self, path: str, digest: str) -> tuple[list[str], list[str]] | None:
        """The ids and links of the page if the last build rendered it from the same inputs."""
        return self.previous_links(path) if self.has(path, digest) else None

    def has(self, path: str, digest: str) -> bool:
        """Whether the last build rendered the page from the same inputs."""
        found = self.previous.get(path)
        return found is not None and found[0] == digest

    def previous_links(self, path: str) -> tuple[list[str], list[str]] | None:
        """The ids and links of the page as the last build wrote it (None: not known)."""
        found = self.previous.get(path)
        if found is None:
            return None
        ids, links = zlib.decompress(found[1]).decode().split("\0")
        return _lines(ids), _lines(links)

    def kept_broken(self, kept: set[str]) -> bool:
        """Whether a page kept from the last build had a link that build found broken."""
        return any(page in kept for page, _href, _reason in self.broken_previous)

    def record(
        self,
        path: str,
        digest: str,
        ids: list[str],
        links: list[str],
        unresolved: dict[str, int] | None = None,
    ) -> None:
        """Remember a page of this build."""
        if any("\n" in item or "\0" in item for item in (*ids, *links)):
            return  # not representable as lines: such a page is simply rendered next time
        text = "\n".join(ids) + "\0" + "\n".join(links)
        self.pages[path] = (digest, zlib.compress(text.encode(), 1), unresolved or None)

    def keep(self, path: str) -> dict[str, int]:
        """Carry a page the build kept over to this build's cache as it was (not compressed
        again); return the unresolved rule references it showed."""
        found = self.previous[path]
        self.pages[path] = found
        return dict(found[2] or {})

    def cached_extras(self, key: str) -> Any:
        """The rule history and diffs of the last build if its rules documents were the same."""
        if self.extras_previous is not None and self.extras_previous[0] == key:
            return self.extras_previous[1]
        return None

    def save(self) -> None:
        """Write this build's cache (atomically: a killed build leaves the old one)."""
        if self.file is None:
            return
        self.file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_name(f"{self.file.name}.tmp-{os.getpid()}")
        stored = {"version": VERSION, "code": self.code, "pages": self.pages}
        stored.update(stamp=self.stamp, extras=self.extras, broken=self.broken)
        try:
            with tmp.open("wb") as handle:
                pickle.dump(stored, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.file)
        except OSError as exc:
            log.warning("cannot write the site cache %s: %s", self.file, exc)
            tmp.unlink(missing_ok=True)


def _lines(text: str) -> list[str]:
    return text.split("\n") if text else []


def cache_file(folder: Path, out: Path) -> Path:
    """The cache of one output folder, in the knowledge base's home."""
    name = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]
    return folder / f"{name}.pickle"

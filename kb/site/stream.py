"""The streaming writer of the built site: each page is compared and written as it is rendered.

Memory stays flat in the number of pages: a page's bytes are dropped once written. A page
equal to the one already in the output folder is not written; the others go into a temporary
folder beside the output, which gets the unchanged pages hard-linked in and replaces the output
only once everything (Pagefind, the link check) succeeded, so a failed build leaves the previous
site as it was and a build that changes nothing touches nothing. The link check is streamed too:
each page's ids and link targets are kept (not its bytes) and checked at the end.
"""

from __future__ import annotations

import html
import json
import logging
import os
import posixpath
import re
import shutil
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from kb.errors import KbError
from kb.site.check import BrokenLink
from kb.site.writer import (
    GENERATED,
    MARKER,
    WriteReport,
    check_output,
    clean_leftovers,
    safe_path,
)

log = logging.getLogger(__name__)

ID = re.compile(rb'\bid="([^"]*)"')
LINK = re.compile(rb'\b(?:href|src)="([^"]*)"')
# The same attributes found by their literal names, which re scans for far faster than a
# pattern opening with \b or an alternation; the word boundary is checked by hand.
_LITERAL_ID = re.compile(rb'id="([^"]*)"')
_LITERAL_LINKS = (re.compile(rb'href="([^"]*)"'), re.compile(rb'src="([^"]*)"'))
_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
# The previous build's ids and links of one of its pages (None: not known).
Previous = Callable[[str], "tuple[list[str], list[str]] | None"]


def _values(pattern: re.Pattern[bytes], data: bytes) -> list[tuple[int, bytes]]:
    """``(position, value)`` of each ``name="value"`` not preceded by a word character."""
    return [
        (m.start(), m.group(1))
        for m in pattern.finditer(data)
        if not m.start() or data[m.start() - 1] not in _WORD
    ]


def extract(page: str, data: bytes) -> tuple[list[str], list[str]]:
    """An HTML page's ids and its distinct link targets as written (in page order).

    What :data:`ID` and :data:`LINK` find (attribute values hold no raw quote: they are
    escaped), each distinct raw value decoded once.
    """
    if not page.endswith(".html"):
        return [], []
    ids = sorted({html.unescape(v.decode()) for v in {v for _, v in _values(_LITERAL_ID, data)}})
    found = [_values(pattern, data) for pattern in _LITERAL_LINKS]
    links = found[0] if not found[1] else sorted(found[0] + found[1])
    raws = dict.fromkeys(value for _, value in links)
    hrefs = list(dict.fromkeys(html.unescape(raw.decode()) for raw in raws))
    return ids, hrefs


# A link urlsplit would read as a path and a fragment only: no scheme, query, host, whitespace
# or control character (what the pages' own links are): split by hand, the same parts.
_PLAIN_LINK = re.compile(r"[^:?\x00-\x20\x7f]*\Z")


@lru_cache(maxsize=262144)  # the pages of one folder share most of their links (menus, assets)
def _resolve(base: str, href: str) -> tuple[str, str] | None:
    """The (file, anchor) a link from folder ``base`` leads to: None if external, file "" if
    the link is to the page itself."""
    if _PLAIN_LINK.match(href) and not href.startswith("//"):
        path, _, fragment = href.partition("#")
    else:
        parts = urlsplit(href)
        if parts.scheme or href.startswith("//"):
            return None
        path, fragment = parts.path, parts.fragment
    if not path:
        return ("", unquote(fragment))
    target = posixpath.normpath(posixpath.join(base, unquote(path)))
    return (target, unquote(fragment) if target.endswith(".html") else "")


class LinkCollector:
    """Every page's ids and every distinct internal link target, for one check at the end.

    The ids are kept as one set of hashes of ``page NUL id`` (an int each, not a set of strings
    per page: the site has about a million ids); two different anchors sharing a 64-bit hash
    would let one broken anchor pass, a chance too small to weigh.

    A page kept from the previous build (:meth:`add_kept`) is noted by its path only: its links
    were checked by that build and are the same, and its ids are read (from ``kept_links``,
    the build cache) only when a link of a rendered page points into it. :meth:`check_kept`
    adds the kept pages' own links when something they may point to went away.
    """

    def __init__(self, kept_links: Previous | None = None) -> None:
        self.paths: set[str] = set()
        self.ids: set[int] = set()
        self.targets: dict[tuple[str, str], tuple[str, str]] = {}  # (file, anchor) -> first use
        self.external: list[BrokenLink] = []
        self.kept: set[str] = set()
        self.kept_links = kept_links
        self._kept_ids: set[str] = set()  # the kept pages whose ids were read
        self._kept_checked = False

    def add(self, page: str, data: bytes) -> tuple[list[str], list[str]]:
        """Note a file; for an HTML page, its ids and the links it holds (returned)."""
        ids, hrefs = extract(page, data)
        self.add_extracted(page, ids, hrefs)
        return ids, hrefs

    def add_extracted(self, page: str, ids: list[str], hrefs: list[str]) -> None:
        """Note a file whose ids and links are known (a page the build did not re-render)."""
        self.paths.add(page)
        self.ids.update(hash(f"{page}\0{anchor}") for anchor in ids)
        base = posixpath.dirname(page)
        for href in hrefs:
            key = _resolve(base, href)
            if key is None:
                self.external.append(BrokenLink(page, href, "external link"))
                continue
            if not key[0]:  # "#anchor": this page's own
                key = (page, key[1] if page.endswith(".html") else "")
            if key not in self.targets:
                self.targets[key] = (page, href)

    def add_kept(self, page: str) -> None:
        """Note a page kept as the previous build wrote it (its ids and links are in the cache)."""
        if self.kept_links is None:
            raise KbError(f"{page}: a kept page needs the previous build's links")
        self.paths.add(page)
        self.kept.add(page)

    def check_kept(self) -> None:
        """Check the kept pages' own links again too (a file or anchor they may use is gone)."""
        if self._kept_checked or self.kept_links is None:
            return
        for page in sorted(self.kept):
            self.add_extracted(page, *(self.kept_links(page) or ([], [])))
        self._kept_ids |= self.kept
        self._kept_checked = True

    def _has_id(self, page: str, anchor: str) -> bool:
        if page in self.kept and page not in self._kept_ids and self.kept_links is not None:
            self._kept_ids.add(page)
            ids, _hrefs = self.kept_links(page) or ([], [])
            self.ids.update(hash(f"{page}\0{found}") for found in ids)
        return hash(f"{page}\0{anchor}") in self.ids

    def broken(self) -> list[BrokenLink]:
        """The links to a file or anchor the site does not have (first page using each)."""
        result = list(self.external)
        for (target, anchor), (page, href) in sorted(self.targets.items()):
            if target.startswith("../") or target not in self.paths:
                result.append(BrokenLink(page, href, "no such file"))
            elif anchor and not self._has_id(target, anchor):
                result.append(BrokenLink(page, href, "no such anchor"))
        return result

    def clear(self) -> None:
        """Forget everything noted (the check is done: the memory goes back before Pagefind)."""
        self.paths, self.ids, self.targets, self.external = set(), set(), {}, []
        self.kept, self._kept_ids, self._kept_checked = set(), set(), False


class StreamWriter:
    """Writes a build's files as they come, then swaps the result in place of the output."""

    def __init__(self, out: Path, previous: Previous | None = None) -> None:
        """``previous``: the ids and links of the previous build's pages (the build cache), when
        pages may be kept as that build wrote them (:meth:`reuse`)."""
        # the folders of killed builds go first (a site one had moved aside is put back)
        clean_leftovers(Path(out))
        self.out = check_output(out)
        self.tmp = self.out.parent / f".{self.out.name}.tmp-{os.getpid()}"
        self.old = self.out.parent / f".{self.out.name}.old-{os.getpid()}"
        for leftover in (self.tmp, self.old):
            shutil.rmtree(leftover, ignore_errors=True)
        self.tmp.mkdir(parents=True)
        self.report = WriteReport()
        self.previous = previous
        self.links = LinkCollector(previous)
        # Whether an id of a page the previous build wrote is gone (a kept page may link to it).
        self.lost_ids = False
        self.files = 0
        self.bytes = 0
        self._seen: set[str] = set()
        self._folders: set[Path] = set()
        self._existing_files: set[str] | None = None

    def _claim(self, path: str, key: str | None = None) -> str:
        key = key if key is not None else str(safe_path(path))
        if key in self._seen:
            raise KbError(f"two pages were built at the same path {key}")
        self._seen.add(key)
        return key

    def reuse(self, path: str) -> bool:
        """Keep the output's page as it is (its inputs did not change); False if it is gone.

        Its links are not read again: the previous build checked them (see :meth:`gone`).
        """
        key = str(safe_path(path))
        try:
            size = os.stat(os.path.join(self.out, key)).st_size
        except OSError:
            return False
        self._claim(path, key)
        self.files += 1
        self.bytes += size
        self.links.add_kept(key)
        self.report.unchanged.append(key)
        return True

    def add(self, path: str, data: bytes) -> tuple[list[str], list[str]]:
        """Compare one file with the output's and write it beside the output if it changed.

        Returns the page's ids and links (for the cache of the next build).
        """
        key = self._claim(path)
        self.files += 1
        self.bytes += len(data)
        found = self.links.add(key, data)
        old = self.out / key
        try:
            same = old.is_file() and old.stat().st_size == len(data) and old.read_bytes() == data
        except OSError:
            same = False
        if same:
            self.report.unchanged.append(key)
            return found
        if self.previous is not None and not self.lost_ids and key.endswith(".html"):
            self._note_lost(key, old, found[0])
        target = self.tmp / key
        if target.parent not in self._folders:  # a folder made once, not stat'ed per page
            target.parent.mkdir(parents=True, exist_ok=True)
            self._folders.add(target.parent)
        target.write_bytes(data)
        self.report.written.append(key)
        return found

    def _note_lost(self, key: str, old: Path, ids: list[str]) -> None:
        """Note whether the previous version of a rewritten page had an id this one lacks."""
        before = self.previous(key) if self.previous is not None else None
        if before is None:  # a page the cache does not describe: read what was written
            try:
                before = extract(key, old.read_bytes()) if old.is_file() else ([], [])
            except OSError:
                before = ([], [])
        if not set(before[0]) <= set(ids):
            self.lost_ids = True

    def gone(self) -> bool:
        """Whether a file or an anchor of the previous site is not in this one.

        If not, the links of the pages kept as the previous build wrote them still hold: every
        file and anchor they led to is still there (the pages that build found broken aside,
        which the cache remembers).
        """
        return self.lost_ids or bool(self._existing() - self._seen)

    def _existing(self) -> set[str]:
        """The files of the output folder (its marker and generated folders aside), listed once."""
        if self._existing_files is None:
            self._existing_files = self._list_existing()
        return self._existing_files

    def _list_existing(self) -> set[str]:
        if not self.out.is_dir():
            return set()
        found = set()
        root = str(self.out)
        for folder, dirs, files in os.walk(root):
            rel = os.path.relpath(folder, root).replace(os.sep, "/")
            prefix = "" if rel == "." else rel + "/"
            if not prefix:
                dirs[:] = [d for d in dirs if d not in GENERATED]
            for name in files:
                path = prefix + name
                if not prefix and name in GENERATED:
                    continue
                if path != MARKER and os.path.isfile(os.path.join(folder, name)):
                    found.add(path)
        return found

    def commit(
        self, marker: dict[str, object], post: Callable[[Path], None] | None = None
    ) -> WriteReport:
        """Run ``post`` on the complete new site and swap it in; keep the output if unchanged."""
        report = self.report
        report.removed = sorted(self._existing() - self._seen)
        self._existing_files = None  # not held through ``post`` (Pagefind)
        marker_bytes = json.dumps(marker, sort_keys=True, indent=1).encode() + b"\n"
        generated_ok = post is None or all((self.out / g).is_dir() for g in GENERATED)
        try:
            if (
                not report.written
                and not report.removed
                and (self.out / MARKER).is_file()
                and (self.out / MARKER).read_bytes() == marker_bytes
                and generated_ok
            ):
                log.info("site unchanged: nothing written")
                shutil.rmtree(self.tmp, ignore_errors=True)
                return report
            self._link_unchanged(report.unchanged)
            (self.tmp / MARKER).write_bytes(marker_bytes)
            if post is not None:
                post(self.tmp)
            if self.out.exists():
                os.rename(self.out, self.old)
            try:
                os.rename(self.tmp, self.out)
            except OSError:
                if self.old.exists():
                    os.rename(self.old, self.out)
                raise
        except BaseException:
            self.abort()
            raise
        shutil.rmtree(self.old, ignore_errors=True)
        report.swapped = True
        return report

    def _link_unchanged(self, keys: list[str]) -> None:
        """Hard-link the unchanged files into the new site (plain strings: one call per file,
        tens of thousands of them after a small change)."""
        out, tmp = str(self.out), str(self.tmp)
        made = {"", *(folder.relative_to(self.tmp).as_posix() for folder in self._folders)}
        for key in keys:
            folder = key.rpartition("/")[0]
            if folder not in made:
                os.makedirs(f"{tmp}/{folder}", exist_ok=True)
                made.add(folder)
                self._folders.add(self.tmp / folder)
            try:
                os.link(f"{out}/{key}", f"{tmp}/{key}")
            except OSError:
                shutil.copy2(f"{out}/{key}", f"{tmp}/{key}")

    def abort(self) -> None:
        """Drop what was written: the output folder stays as it was."""
        shutil.rmtree(self.tmp, ignore_errors=True)

"""Build the whole static site: read the knowledge base once, render every page, write atomically.

A build whose inputs (documents, derived links, templates, catalogs, site code) are those of the
site already in the output folder renders nothing at all; otherwise the pages are rendered and
written one at a time (memory stays flat in the number of pages) and only the pages whose bytes
changed are written.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

import kb
from kb import i18n
from kb.db import Database
from kb.errors import KbError
from kb.langs import LANGS
from kb.models import Document, Link
from kb.site import data, extras
from kb.site.cache import SiteCache, cache_file
from kb.site.env import TEMPLATES
from kb.site.pagefind import indexed_path, reuse_index, run_pagefind
from kb.site.render import PageCounter, iter_site, render_site
from kb.site.stream import StreamWriter
from kb.site.writer import check_output, read_marker

log = logging.getLogger(__name__)

__all__ = ["BuildReport", "build_site", "iter_site", "render_site"]

SITE_CODE = Path(__file__).resolve().parent


@dataclass
class BuildReport:
    """What a build did, with the figures the benchmark prints."""

    out: Path
    pages: int = 0
    files: int = 0
    bytes: int = 0
    written: int = 0
    unchanged: int = 0
    removed: int = 0
    up_to_date: bool = False
    seconds_load: float = 0.0
    seconds_render: float = 0.0
    cpu_seconds_render: float = 0.0
    seconds_pagefind: float = 0.0
    seconds_total: float = 0.0
    broken: list[str] = field(default_factory=list)
    unresolved_references: int = 0
    edition: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        result = dict(self.__dict__)
        result["out"] = str(self.out)
        return result


def _hash_files(digest: Any, folder: Path, pattern: str) -> None:
    for path in sorted(folder.rglob(pattern)):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())


def fingerprint(db: Database, langs: tuple[str, ...], search: bool, code: str = "") -> str:
    """A digest of everything a build depends on: if it is unchanged, so is the site."""
    digest = hashlib.sha256()
    digest.update((code or code_fingerprint(langs, search)).encode())
    with db.session() as session:
        for row in session.execute(
            select(Document.path, Document.sha256, Document.status).order_by(Document.path)
        ).all():
            digest.update(repr(tuple(row)).encode())
        digest.update(
            repr(
                tuple(session.execute(select(func.count(Link.id), func.max(Link.id))).one())
            ).encode()
        )
    return digest.hexdigest()


RENDERERS = ("jinja2", "babel", "markupsafe", "pagefind", "pagefind-bin")
# The documents the rule history, diffs and translation states are made of (not card data).
CARD_FORMATS = ("mtgjson", "rulings_page")


def rules_fingerprint(db: Database, code: str) -> str:
    """A digest of the rules documents: the history and diffs of the pages depend on these only."""
    digest = hashlib.sha256(code.encode())
    with db.session() as session:
        for row in session.execute(
            select(Document.path, Document.sha256, Document.status)
            .where(Document.format.is_(None) | Document.format.not_in(CARD_FORMATS))
            .order_by(Document.path)
        ).all():
            digest.update(repr(tuple(row)).encode())
    return digest.hexdigest()


def code_fingerprint(langs: tuple[str, ...], search: bool) -> str:
    """A digest of what renders the pages: kb's version, templates, catalogs, site code."""
    digest = hashlib.sha256()
    digest.update(json.dumps([kb.__version__, list(langs), search]).encode())
    for package in RENDERERS:  # a new Jinja2, Babel (locale data) or Pagefind renders anew
        try:
            digest.update(f"{package}={metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package}=none".encode())
    _hash_files(digest, TEMPLATES, "*")
    _hash_files(digest, i18n.LOCALES, "*.po")
    _hash_files(digest, SITE_CODE, "*.py")
    package = SITE_CODE.parent
    for stage in ("links", "versions"):  # the stages whose answers the pages show
        _hash_files(digest, package / stage, "*.py")
    for module in ("urls.py", "lookup.py", "langs.py", "resources.py"):
        digest.update((package / module).read_bytes())
    return digest.hexdigest()


def build_site(
    db: Database,
    out: Path,
    *,
    strict: bool = False,
    search: bool = True,
    langs: tuple[str, ...] = LANGS,
    force: bool = False,
    cache_dir: Path | None = None,
) -> BuildReport:
    """Build the static site of the knowledge base into ``out`` (atomically, incrementally).

    With ``cache_dir`` (kb's home), a page whose inputs are those of the page already in
    ``out`` is neither rendered nor rewritten, and Pagefind runs only when an indexed page
    changed: the result is byte for byte what a build from scratch writes.
    """
    start = time.perf_counter()
    report = BuildReport(out=check_output(out))
    code = code_fingerprint(langs, search)
    stamp = fingerprint(db, langs, search, code)
    marker = read_marker(report.out)
    if not force and marker.get("fingerprint") == stamp:
        report.up_to_date = True
        report.pages = int(marker.get("pages", 0))  # type: ignore[call-overload]
        report.edition = marker.get("edition")  # type: ignore[assignment]
        report.seconds_total = time.perf_counter() - start
        log.info("site up to date in %s: nothing rendered", report.out)
        return report
    cache = SiteCache(cache_file(cache_dir, report.out) if cache_dir else None, code)
    if force or marker.get("fingerprint") != cache.stamp:  # the output is not the cache's
        cache.previous = {}
    rules_key = rules_fingerprint(db, code)
    # The session stays open while the pages are rendered: the card pages read their data
    # from it a batch at a time (kb.site.card_data).
    with db.session() as session:
        site_data = data.load(session)
        site_extras = extras.load(session, site_data, cache.cached_extras(rules_key))
        cache.extras = (rules_key, extras.version_part(site_extras))
        report.edition = site_data.edition
        report.seconds_load = time.perf_counter() - start
        render_start, render_cpu = time.perf_counter(), time.process_time()
        unresolved: dict[str, int] = {}
        # With a cache of this output, pages are kept as the previous build wrote them: the
        # link check reads their ids and links from the cache only where it needs them.
        writer = StreamWriter(out, cache.previous_links if cache.previous else None)
        counter = PageCounter()
        digests: dict[str, str] = {}

        kept: dict[str, int] = {}  # the unresolved references of the lazy pages kept as they were

        def skip(path: str, digest: str) -> bool:
            if cache.has(path, digest) and writer.reuse(path):
                notes = cache.keep(path)
                for numbers, count in notes.items():
                    kept[numbers] = kept.get(numbers, 0) + count
                return True
            digests[path] = digest
            return False

        indexed: set[str] = set()
        noted: dict[str, dict[str, int]] = {}
        try:
            for path, content in iter_site(
                site_data, site_extras, langs, unresolved, counter, skip, indexed, noted
            ):
                if content is None:
                    continue
                ids, hrefs = writer.add(path, content)
                if path in digests:
                    cache.record(path, digests.pop(path), ids, hrefs, noted.pop(path, None))
            for numbers, count in kept.items():
                unresolved[numbers] = unresolved.get(numbers, 0) + count
            report.pages = counter.pages
            report.unresolved_references = sum(unresolved.values())
            log.info(
                "rendered %d pages in %s (edition %s, %d unresolved rule references)",
                report.pages,
                ", ".join(langs),
                site_data.edition or "none",
                report.unresolved_references,
            )
            report.seconds_render = time.perf_counter() - render_start
            report.cpu_seconds_render = time.process_time() - render_cpu
            report.files = writer.files
            report.bytes = writer.bytes
            kept = writer.links.kept
            if kept and (writer.gone() or cache.kept_broken(kept)):
                writer.links.check_kept()  # what a kept page links to may be gone: check it too
            broken = writer.links.broken()
            cache.broken = [(b.page, b.href, b.reason) for b in broken]
            report.broken = [str(b) for b in broken]
            if report.broken:
                message = f"{len(report.broken)} broken internal link(s), e.g. " + "; ".join(
                    report.broken[:5]
                )
                if strict:
                    raise KbError(message + " (the previous site is left as it was)")
                log.warning(message)
        except BaseException:
            writer.abort()
            raise
    # Pagefind runs next, beside this process: what only the render needed goes first.
    writer.links.clear()
    del site_data, site_extras
    gc.collect()

    def post(folder: Path) -> None:
        changed = [p for p in (*writer.report.written, *writer.report.removed) if indexed_path(p)]
        keep = not force and not changed and marker.get("code") == code
        if keep and reuse_index(report.out, folder):
            return
        report.seconds_pagefind = run_pagefind(folder)

    result = writer.commit(
        {
            "code": code,
            "fingerprint": stamp,
            "pages": report.pages,
            "edition": report.edition,
            "generator": f"kb {kb.__version__}",
        },
        post if search else None,
    )
    cache.stamp = stamp
    cache.save()
    report.written = len(result.written)
    report.unchanged = len(result.unchanged)
    report.removed = len(result.removed)
    report.seconds_total = time.perf_counter() - start
    log.info(
        "site in %s: %d files written, %d unchanged, %d removed",
        report.out,
        report.written,
        report.unchanged,
        report.removed,
    )
    return report

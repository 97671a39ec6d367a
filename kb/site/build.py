"""Build the whole static site: read the knowledge base once, render every page, write atomically.

A build whose inputs (documents, derived links, templates, catalogs, site code) are those of the
site already in the output folder renders nothing at all; otherwise the pages are rendered and
written one at a time (memory stays flat in the number of pages) and only the pages whose bytes
changed are written.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

import kb
from kb import i18n
from kb.db import Database
from kb.errors import KbError
from kb.langs import LANGS, language_name
from kb.models import Document, Link
from kb.site import cite, data, extras
from kb.site.cache import SiteCache, cache_file, page_digest
from kb.site.env import TEMPLATES, base_context, make_environment
from kb.site.pagefind import indexed_path, reuse_index, run_pagefind
from kb.site.pages import LanguageSite, Page, english_texts
from kb.site.rules import LazyPage
from kb.site.stream import StreamWriter
from kb.site.writer import check_output, read_marker

log = logging.getLogger(__name__)

STATIC = TEMPLATES / "static"
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


def render_site(
    site_data: data.SiteData,
    site_extras: extras.Extras,
    langs: tuple[str, ...] = LANGS,
    unresolved: dict[str, int] | None = None,
) -> tuple[dict[str, bytes], int]:
    """Render every page and asset of the site into memory; return the files and the page count.

    For tests and small sites: ``build_site`` streams :func:`iter_site` instead.
    """
    counter = PageCounter()
    files = {
        path: content
        for path, content in iter_site(site_data, site_extras, langs, unresolved, counter)
        if content is not None
    }
    return files, counter.pages


@dataclass
class PageCounter:
    """How many pages a streamed render produced (assets are not pages)."""

    pages: int = 0


def iter_site(
    site_data: data.SiteData,
    site_extras: extras.Extras,
    langs: tuple[str, ...] = LANGS,
    unresolved: dict[str, int] | None = None,
    counter: PageCounter | None = None,
    skip: Callable[[str, str], bool] | None = None,
    indexed: set[str] | None = None,
    noted: dict[str, dict[str, int]] | None = None,
) -> Iterator[tuple[str, bytes | None]]:
    """Render every page and asset of the site one at a time: ``(path, bytes)``.

    ``unresolved`` (if given) receives the rule references shown as text because the edition
    has no such rule, with how often each occurs; ``counter`` counts the pages. ``skip`` is
    asked with each page's input digest whether the page is kept as built before: such a page
    comes as ``(path, None)``, not rendered (a :class:`LazyPage`'s context is not even
    computed). ``indexed`` receives the pages Pagefind indexes; ``noted`` the unresolved rule
    references each rendered lazy page added (a build that keeps the page counts them again).
    """
    counter = counter if counter is not None else PageCounter()
    summaries: dict[str, dict[str, Any]] = {}
    sites = {}
    for lang in langs:
        env = make_environment(lang)
        gettext = i18n.translations(lang).gettext
        sites[lang] = (env, LanguageSite(site_data, site_extras, lang, gettext))
        summaries[lang] = sites[lang][1].coverage()
    for lang, (env, site) in sites.items():
        common = {"edition": site_data.edition, "editions": site_data.editions}
        for page in site.pages(summaries):
            counter.pages += 1
            lazy = isinstance(page, LazyPage)
            if indexed is not None and not lazy and page.context.get("indexed"):
                indexed.add(page.path)
            if skip is not None:
                inputs = {"inputs": page.inputs} if lazy else page.context
                digest = page_digest(page.path, page.template, page.lang, {**common, **inputs})
                if skip(page.path, digest):
                    yield page.path, None
                    continue
            if not lazy:
                yield page.path, _render(env, page, common)
                continue
            before = dict(site.linker.unresolved)
            content = _render(env, page, common)
            if noted is not None:
                delta = {
                    k: n - before.get(k, 0)
                    for k, n in site.linker.unresolved.items()
                    if n != before.get(k, 0)
                }
                if delta:
                    noted[page.path] = delta
            yield page.path, content
        search = json.dumps(
            site.search_data(), ensure_ascii=False, sort_keys=True, separators=(",", ":")
        )
        yield f"assets/search-{lang}.js", f"window.KB_SEARCH = {search};\n".encode()
        cards = json.dumps(
            site.card_search_data(), ensure_ascii=False, sort_keys=True, separators=(",", ":")
        )
        yield f"assets/search-cards-{lang}.js", f"window.KB_CARDS = {cards};\n".encode()
        if unresolved is not None:
            for numbers, count in site.linker.unresolved.items():
                unresolved[numbers] = unresolved.get(numbers, 0) + count
    if len(site_data.editions) > 1 and "en" in sites:
        numbers = [n for n, node in site_data.nodes.items() if node.english is not None]
        yield (
            "assets/cite-map.js",
            cite.cite_script(
                cite.cite_map(site_data.editions, site_extras.diffs, site_extras.versions, numbers)
            ),
        )
        env, site = sites["en"]
        common = {"edition": site_data.edition, "editions": site_data.editions}
        yield "cite.html", _render(env, site.cite_page("cite.html"), common)
        counter.pages += 1
    english = json.dumps(
        english_texts(site_data), ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )
    yield "assets/search-text.js", f"window.KB_TEXTS = {english};\n".encode()
    root_env = make_environment("en")
    blurbs = {}
    for code in langs:
        env = sites[code][0]
        blurbs[code] = env.from_string(
            "{{ _('The Magic: The Gathering Comprehensive Rules and card rulings') }}"
        ).render()
    yield (
        "index.html",
        (
            root_env.get_template("root.html")
            .render(
                lang="en",
                names={code: language_name(code, code) for code in langs},
                blurbs=blurbs,
                edition=site_data.edition,
                edition_date=root_env.filters["date"](site_data.edition),
                editions=site_data.editions,
                LANGS=langs,
            )
            .encode()
        ),
    )
    counter.pages += 1
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            yield "assets/" + path.relative_to(STATIC).as_posix(), path.read_bytes()


def _render(env: Any, page: Page | LazyPage, common: dict[str, Any]) -> bytes:
    lang = page.lang or "en"
    # A paginated list's later pages switch language to the list's first page.
    context = dict(page.context)
    subpath = context.pop("alt_subpath", None) or page.path.split("/", 1)[-1]
    context = base_context(lang, page.path, subpath=subpath, **common, **context)
    try:
        return env.get_template(page.template).render(context).encode("utf-8")
    except Exception as exc:
        raise KbError(f"cannot render {page.path} with {page.template}: {exc}") from exc


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
    with db.session() as session:
        site_data = data.load(session)
        site_extras = extras.load(session, site_data, cache.cached_extras(rules_key))
    cache.extras = (rules_key, extras.version_part(site_extras))
    report.edition = site_data.edition
    report.seconds_load = time.perf_counter() - start
    render_start, render_cpu = time.perf_counter(), time.process_time()
    unresolved: dict[str, int] = {}
    writer = StreamWriter(out)
    counter = PageCounter()
    digests: dict[str, str] = {}

    kept: dict[str, int] = {}  # the unresolved references of the lazy pages kept as they were

    def skip(path: str, digest: str) -> bool:
        found = cache.lookup(path, digest)
        if found is not None and writer.reuse(path, *found):
            notes = cache.noted(path)
            cache.record(path, digest, *found, notes)
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
        report.broken = [str(b) for b in writer.links.broken()]
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
            "edition": site_data.edition,
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

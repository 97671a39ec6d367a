"""Render every page and asset of the site, one at a time, in an order that keeps memory flat.

The pages of the rules, glossary and changes come first, language by language; then the card
pages, a batch of cards at a time (read from the database once for the three languages, with
the batch's shard of the offline card search written beside them); then the card lists and
the search files. Nothing grows with the number of cards but the card index itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from kb import i18n
from kb.errors import KbError
from kb.langs import LANGS, language_name
from kb.site import cite, data, extras
from kb.site.cache import page_digest
from kb.site.env import TEMPLATES, base_context, make_environment
from kb.site.pages import LanguageSite, Page, english_texts
from kb.site.rules import LazyPage

STATIC = TEMPLATES / "static"


@dataclass
class PageCounter:
    """How many pages a streamed render produced (assets are not pages)."""

    pages: int = 0


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


def _script(name: str, value: Any) -> bytes:
    """A classic script setting ``window.<name>`` (it loads from file:// as well)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"window.{name} = {text};\n".encode()


def card_shard_script(lang: str, number: int, value: Any) -> bytes:
    """One shard of a language's offline card search: it files itself under its name."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f'(window.KB_CARDS = window.KB_CARDS || {{}})["{lang}-{number}"] = {text};\n'.encode()


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
    common = {"edition": site_data.edition, "editions": site_data.editions}

    def emit(env: Any, site: LanguageSite, page: Page | LazyPage) -> tuple[str, bytes | None]:
        counter.pages += 1
        lazy = isinstance(page, LazyPage)
        if indexed is not None and not lazy and page.context.get("indexed"):
            indexed.add(page.path)
        if skip is not None:
            inputs = {"inputs": page.inputs} if lazy else page.context
            digest = page_digest(page.path, page.template, page.lang, {**common, **inputs})
            if skip(page.path, digest):
                return page.path, None
        if not lazy:
            return page.path, _render(env, page, common)
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
        return page.path, content

    for env, site in sites.values():
        for page in site.pages(summaries):
            yield emit(env, site, page)
    shards = 0
    for batch in site_data.card_batches():
        shared: dict[str, str] | None = None  # the same in every language
        for lang, (env, site) in sites.items():
            shared = shared if shared is not None else site.shared_card_inputs(batch)
            for page in site.card_pages(batch, shared):
                yield emit(env, site, page)
            search = site.card_search_data(batch)
            yield f"assets/search-cards-{lang}-{shards}.js", card_shard_script(lang, shards, search)
        shards += 1
    for lang, (_env, site) in sites.items():
        yield f"assets/search-{lang}.js", _script("KB_SEARCH", site.search_data(shards))
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
        yield emit(env, site, site.cite_page("cite.html"))
    yield "assets/search-text.js", _script("KB_TEXTS", english_texts(site_data))
    yield "index.html", _root_page(site_data, langs, {code: sites[code][0] for code in langs})
    counter.pages += 1
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            yield "assets/" + path.relative_to(STATIC).as_posix(), path.read_bytes()


def _root_page(site_data: data.SiteData, langs: tuple[str, ...], envs: dict[str, Any]) -> bytes:
    """The landing page at the site's root: the languages and the edition."""
    root_env = make_environment("en")
    blurbs = {
        code: envs[code]
        .from_string("{{ _('The Magic: The Gathering Comprehensive Rules and card rulings') }}")
        .render()
        for code in langs
    }
    return (
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
    )


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

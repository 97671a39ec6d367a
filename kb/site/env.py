"""The Jinja2 environment of one site language: templates, Babel translations, filters, links.

Links are written root-absolute by :mod:`kb.urls` (the shapes search results use too) and made
relative to the page being rendered here, so the built folder works from ``file://``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.dates import format_date
from babel.numbers import format_decimal, format_percent
from jinja2 import (
    BytecodeCache,
    Environment,
    FileSystemLoader,
    StrictUndefined,
    pass_context,
)
from jinja2.bccache import Bucket
from jinja2.runtime import Context
from jinja2.utils import missing
from markupsafe import Markup, escape

from kb.errors import KbError
from kb.i18n import translations
from kb.langs import LANGS, language_name, locale
from kb.resources import templates_dir
from kb.urls import glossary_slug, site_url

TEMPLATES = templates_dir()


def N_(message: str) -> str:
    """Mark a string for extraction; it is translated when an environment is made."""
    return message


BADGES = {
    "official": N_("official"),
    "machine": N_("machine translation"),
    "community": N_("community translation"),
    "stale": N_("stale"),
    "missing": N_("missing"),
    "added": N_("added"),
    "changed": N_("changed"),
    "removed": N_("removed"),
    "renumbered": N_("renumbered"),
}


def relative(url: str, root: str) -> str:
    """Turn a site-absolute URL (``/en/rules/701.html#701.54a``) into one relative to a page."""
    return root + url.lstrip("/")


@lru_cache(maxsize=65536)
def _url(kind: str, lang: str, name: str, value: str) -> str:
    return site_url(kind, lang, **{name: value})


def cached_url(kind: str, lang: str, **keys: str) -> str:
    """:func:`kb.urls.site_url`, remembered: a page links the same rules and cards as its
    neighbours (menus, shared rulings), and each URL costs a language check and a fold."""
    if len(keys) != 1:
        return site_url(kind, lang, **keys)
    ((name, value),) = keys.items()
    return _url(kind, lang, name, value)


def _root(ctx: Context) -> str:
    return str(ctx["root"])


@pass_context
def href(ctx: Context, url: str) -> str:
    """A site-absolute path, relative to the current page."""
    return relative(url, _root(ctx))


@pass_context
def rule_href(ctx: Context, number: str, lang: str | None = None) -> str:
    """Where a rule, subrule, chapter or part is, from the current page."""
    return relative(_url("rule", lang or ctx["lang"], "number", number), _root(ctx))


@pass_context
def card_href(ctx: Context, key: str, lang: str | None = None) -> str:
    """Where a card's page is, from the current page."""
    return relative(_url("card", lang or ctx["lang"], "key", key), _root(ctx))


@pass_context
def glossary_href(ctx: Context, term: str, lang: str | None = None) -> str:
    """Where a glossary entry is, from the current page."""
    return relative(_url("glossary", lang or ctx["lang"], "term", term), _root(ctx))


class _SharedBytecode(BytecodeCache):
    """Compiled templates shared by the three languages' environments (compiled once, not 3x)."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Load the compiled template if this source was compiled before."""
        data = self.store.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep a freshly compiled template."""
        self.store[bucket.key] = bucket.bytecode_to_string()


_BYTECODE = _SharedBytecode()
_DICT_ATTRIBUTES = frozenset(dir(dict))


class SiteEnvironment(Environment):
    """Jinja2's environment, with ``view.field`` looked up as a key first on plain dicts.

    Page contexts are dicts: Jinja2 tries ``getattr`` first and gets the key only after an
    ``AttributeError``, millions of times a build. A name that is no attribute of ``dict``
    can only be found as a key, so looking it up as a key first gives the same answer.
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute`` in a template (same answer as Jinja2's, found sooner on a dict)."""
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def _remembered_gettext(env: Environment) -> None:
    """Make ``_()`` and ``gettext()`` answer a message without variables from a table.

    The page chrome asks the same few dozen messages on every page; Jinja2's newstyle gettext
    translates, wraps in Markup and formats each time. The answer for a message and the
    escaping mode never changes within an environment, so it is kept (variables: as Jinja2).
    """
    translate = env.globals["gettext"]
    answers: dict[tuple[str, bool], Any] = {}

    @pass_context
    def gettext(__context: Context, __string: str, **variables: Any) -> str:
        if variables:
            return translate(__context, __string, **variables)  # type: ignore[operator,no-any-return]
        key = (__string, __context.eval_ctx.autoescape)
        found = answers.get(key)
        if found is None:
            found = answers[key] = translate(__context, __string)  # type: ignore[operator]
        return found  # type: ignore[no-any-return]

    env.globals.update(gettext=gettext, _=gettext)


SUBPATH = "\x00subpath\x00"  # stands for the page's own subpath in a kept piece of chrome


def _kept_chrome(env: Environment) -> None:
    """Add ``chrome(name)``: a piece of every page's frame, rendered once and kept.

    The header, menus and footer (``_chrome_*.html``) depend only on the page's language, its
    depth (``root``), its kind, whether it is indexed and the edition, besides its subpath in the
    language links; each piece is rendered once per such key with a marker standing for the
    subpath, which each page then puts back escaped, as ``{{ subpath }}`` would print it. The
    bytes are those of the pieces rendered in place; the few dozen calls and escapes they cost
    on each of 75,000 pages are not paid again.
    """
    kept: dict[tuple[Any, ...], str] = {}

    @pass_context
    def chrome(ctx: Context, name: str) -> Markup:
        indexed = ctx.resolve_or_missing("indexed")
        flag = False if indexed is missing else bool(indexed)
        key = (name, ctx["lang"], ctx["root"], ctx["page_kind"], ctx["edition"], flag)
        text = kept.get(key)
        if text is None:
            text = kept[key] = env.get_template(name).render(
                lang=key[1],
                root=key[2],
                page_kind=key[3],
                edition=key[4],
                indexed=flag,
                subpath=SUBPATH,
            )
        return Markup(text.replace(SUBPATH, escape(ctx["subpath"])))

    env.globals["chrome"] = chrome


def make_environment(lang: str, templates: Path = TEMPLATES) -> Environment:
    """A Jinja2 environment with the UI translated into ``lang`` and its locale's formats."""
    if not (templates / "base.html").is_file():
        raise KbError(f"the site templates are missing from {templates}: reinstall kb")
    env = SiteEnvironment(
        loader=FileSystemLoader(str(templates)),
        autoescape=True,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=_BYTECODE,
    )
    catalog = translations(lang)
    env.install_gettext_translations(catalog, newstyle=True)  # type: ignore[attr-defined]
    _remembered_gettext(env)
    _kept_chrome(env)
    badges = {
        kind: Markup('<span class="badge badge-{}">{}</span>').format(kind, catalog.gettext(label))
        for kind, label in BADGES.items()
    }
    loc = locale(lang)

    # Babel's formatting is slow beside a lookup and pages show the same few hundred dates,
    # numbers and language names again and again: each answer is remembered (per type, as
    # 1 and 1.0 are equal keys but could be formatted differently).
    @lru_cache(maxsize=4096)
    def format_day(kind: type, value: Any, width: str) -> str:
        day = value if isinstance(value, dt.date) else dt.date.fromisoformat(value)
        return format_date(day, width, locale=loc)

    @lru_cache(maxsize=4096)
    def format_number(kind: type, value: float | int) -> str:
        return format_decimal(value, locale=loc)

    def date_filter(value: str | dt.date | None, width: str = "long") -> str:
        if not value:
            return ""
        return format_day(type(value), value, width)

    def number_filter(value: float | int | None) -> str:
        if value is None:
            return ""
        return format_number(type(value), value)

    def percent_filter(value: float) -> str:
        return format_percent(value, "#,##0.#%", locale=loc)

    @lru_cache(maxsize=256)
    def name_of(kinds: tuple[type, type], code: str, in_lang: str | None) -> str:
        return language_name(code, in_lang or lang)

    @lru_cache(maxsize=256)
    def inline_name_of(kind: type, code: str) -> str:
        # Inside a sentence: French and Spanish write language names in lower case.
        return locale(code).get_display_name(loc) or code

    def language_filter(code: str, in_lang: str | None = None) -> str:
        return name_of((type(code), type(in_lang)), code, in_lang)

    def language_inline(code: str) -> str:
        return inline_name_of(type(code), code)

    env.filters.update(
        date=date_filter,
        number=number_filter,
        percent=percent_filter,
        language=language_filter,
        language_inline=language_inline,
        slug=glossary_slug,
    )
    env.globals.update(
        href=href,
        rule_href=rule_href,
        card_href=card_href,
        glossary_href=glossary_href,
        LANGS=LANGS,
        lang=lang,
        badges=badges,
        Markup=Markup,
    )
    return env


def page_root(path: str) -> str:
    """The prefix that leads from a page (``en/rules/701.html``) back to the site root."""
    return "../" * path.count("/")


def base_context(lang: str, path: str, **extra: Any) -> dict[str, Any]:
    """What every template gets: its language, its path and the way back to the root."""
    return {"lang": lang, "path": path, "root": page_root(path), **extra}


def pager(number: int, total: int, url: Callable[[int], str]) -> dict[str, Any]:
    """Previous / next / every page of a paginated list, ``url(n)`` giving page n's address."""
    return {
        "number": number,
        "total": total,
        "previous": url(number - 1) if number > 1 else None,
        "next": url(number + 1) if number < total else None,
        "pages": [{"number": n, "url": url(n)} for n in range(1, total + 1)] if total > 1 else [],
    }

"""The interface catalogs of the site and the sheets: extract, update, compile, load them.

Like mkdocs' ``localization.py``: Babel ``Translations`` are installed into the Jinja2
environment through ``jinja2.ext.i18n``. A ``.po`` file is compiled to ``.mo`` by
``kb i18n compile`` (or at install time); when the ``.mo`` is missing or older than its
``.po``, the build compiles the catalog in memory so that a fresh checkout still builds.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import NullTranslations, Translations

import kb
from kb.errors import KbError
from kb.langs import LANGS
from kb.resources import SOURCE_ROOT, locales_dir, source_checkout

log = logging.getLogger(__name__)

ROOT = SOURCE_ROOT
LOCALES = locales_dir()
DOMAIN = "messages"
PROJECT = "kb"
# Fixed header dates: a catalog file changes only when its strings do.
_EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class CatalogStatus:
    """How complete one language's catalog is."""

    lang: str
    path: Path
    total: int
    untranslated: tuple[str, ...]
    fuzzy: tuple[str, ...]


def pot_path(locales: Path = LOCALES) -> Path:
    """The template catalog every ``.po`` file is updated from."""
    return locales / f"{DOMAIN}.pot"


def po_path(lang: str, locales: Path = LOCALES) -> Path:
    """The ``.po`` file of one language."""
    return locales / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _read_po(path: Path, lang: str | None = None) -> Catalog:
    try:
        with path.open("rb") as handle:
            return read_po(handle, locale=lang, domain=DOMAIN)
    except FileNotFoundError:
        raise KbError(f"{path}: missing catalog (run `kb i18n update`)") from None
    except Exception as exc:  # babel raises plain errors with a line number in the message
        raise KbError(f"{path}: not a valid PO file: {exc}") from None


def _write_po(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=True)
    data = buffer.getvalue()
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def extract(root: Path = ROOT, locales: Path = LOCALES) -> Path:
    """Collect the marked UI strings of templates and site code into ``messages.pot``."""
    if root == ROOT and source_checkout() is None:
        raise KbError(
            "kb i18n extract reads the templates of a source checkout (templates/ beside kb/); "
            f"this kb is installed in {ROOT}"
        )
    cfg = locales / "babel.cfg"
    with cfg.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, str(cfg))
    catalog = Catalog(project=PROJECT, version=kb.__version__, charset="utf-8", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        root,
        method_map,
        options_map,
        comment_tags=("Translators:",),
        strip_comment_tags=True,
        directory_filter=lambda d: not Path(d).name.startswith((".", "_")),
    ):
        catalog.add(
            message,
            None,
            [(Path(filename).as_posix(), lineno)],
            auto_comments=comments,
            context=context,
        )
    # No creation date: the file must only change when the strings do.
    catalog.creation_date = catalog.revision_date = _EPOCH
    path = pot_path(locales)
    _write_po(catalog, path)
    log.info("extracted %d messages into %s", len(catalog), path)
    return path


def update(langs: tuple[str, ...] = LANGS, locales: Path = LOCALES) -> list[Path]:
    """Merge ``messages.pot`` into each language's ``.po`` (created when missing)."""
    written = []
    for lang in langs:
        # Read afresh per language: Catalog.update shares the template's message objects.
        template = _read_po(pot_path(locales))
        path = po_path(lang, locales)
        if path.exists():
            catalog = _read_po(path, lang)
        else:
            catalog = Catalog(locale=lang, project=PROJECT, domain=DOMAIN, fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.creation_date = catalog.revision_date = _EPOCH
        catalog.obsolete.clear()
        if lang == "en":  # the source language: every message is its own translation
            for message in catalog:
                if not message.id:
                    continue
                if isinstance(message.id, tuple):
                    if not all(message.string):
                        message.string = tuple(message.id)
                elif not message.string:
                    message.string = message.id
        _write_po(catalog, path)
        written.append(path)
    return written


def compile_catalogs(langs: tuple[str, ...] = LANGS, locales: Path = LOCALES) -> list[Path]:
    """Compile each ``.po`` to ``.mo`` beside it (what an install or ``kb i18n compile`` does)."""
    written = []
    for lang in langs:
        catalog = _read_po(po_path(lang, locales), lang)
        path = po_path(lang, locales).with_suffix(".mo")
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        if not path.exists() or path.read_bytes() != buffer.getvalue():
            path.write_bytes(buffer.getvalue())
        written.append(path)
    return written


def status(lang: str, locales: Path = LOCALES) -> CatalogStatus:
    """Which messages of ``messages.pot`` a language's catalog leaves untranslated or fuzzy."""
    template = _read_po(pot_path(locales))
    path = po_path(lang, locales)
    catalog = _read_po(path, lang)
    untranslated, fuzzy = [], []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        label = message.id if isinstance(message.id, str) else message.id[0]
        if found is None:
            untranslated.append(label)
            continue
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        if not all(strings):
            untranslated.append(label)
        elif found.fuzzy:
            fuzzy.append(label)
    return CatalogStatus(lang, path, len(template) - 1, tuple(untranslated), tuple(fuzzy))


def translations(lang: str, locales: Path = LOCALES) -> NullTranslations:
    """The UI translations of a language: the compiled ``.mo``, or the ``.po`` compiled now."""
    po = po_path(lang, locales)
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return Translations(handle, domain=DOMAIN)
    catalog = _read_po(po, lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)

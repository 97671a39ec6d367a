"""The sheet as one standalone HTML page (screen) or the HTML that WeasyPrint lays out (print).

The sheet's own words come from the Babel catalogs of its first language, through
``jinja2.ext.i18n`` and the catalogs the site compiles (``kb.i18n.translations``). Every
text from the corpus is escaped by Jinja2's autoescape.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from kb.export.sheet import Cell, Sheet
from kb.langs import format_long_date, language_name
from kb.resources import templates_dir

TEMPLATES = templates_dir() / "export"
PAPERS = ("a4", "letter")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Labels:
    """The sheet's translated labels, with ``{name}`` placeholders filled in on demand."""

    def __init__(self, lang: str, texts: dict[str, str]) -> None:
        self.lang = lang
        self.texts = texts

    def __call__(self, name: str, **values: Any) -> str:
        """The label ``name`` in the sheet's language, its placeholders replaced by ``values``."""
        text = self.texts[name]
        return _PLACEHOLDER.sub(lambda m: str(values.get(m[1], m[0])), text)

    def date(self, iso: str) -> str:
        """A date as the label language writes it (``16 janvier 2026``)."""
        import datetime as dt

        return format_long_date(dt.date.fromisoformat(iso), self.lang) if iso else ""


@cache
def environment(lang: str) -> Environment:
    """The Jinja2 environment of the sheet templates with the UI catalog of ``lang`` installed."""
    from kb.i18n import translations

    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


@cache
def labels(lang: str) -> Labels:
    """The sheet's labels in a language (read from ``templates/export/labels.html``)."""
    module = environment(lang).get_template("labels.html").module
    return Labels(lang, {k: str(v) for k, v in module.labels.items()})  # type: ignore[attr-defined]


def css_string(text: str) -> Markup:
    """A CSS string literal (for ``@page`` margin boxes): quotes, backslashes, newlines escaped."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\a ")
    escaped = escaped.replace("<", "\\3c ").replace(">", "\\3e ")
    return Markup(f'"{escaped}"')


def page_counter(label: str) -> Markup:
    """``Page {page} of {pages}`` as a CSS ``content`` value with the page counters in it."""
    parts: list[str] = []
    pos = 0
    for match in _PLACEHOLDER.finditer(label):
        if match.start() > pos:
            parts.append(css_string(label[pos : match.start()]))
        parts.append("counter(page)" if match[1] == "page" else "counter(pages)")
        pos = match.end()
    if pos < len(label):
        parts.append(css_string(label[pos:]))
    return Markup(" ".join(parts))


def spans(cells: list[Cell]) -> list[list[Cell]]:
    """Adjacent cells that show the very same text, merged: a row whose French and Spanish are
    missing shows the English once across the three columns, badged for each language, instead
    of three copies (less paper, and much less for WeasyPrint to lay out)."""
    groups: list[list[Cell]] = []
    for cell in cells:
        if groups and _same_text(groups[-1][0], cell):
            groups[-1].append(cell)
        else:
            groups.append([cell])
    return groups


def _same_text(a: Cell, b: Cell) -> bool:
    return (a.shown_language, a.title, a.text, a.examples, a.term) == (
        b.shown_language,
        b.title,
        b.text,
        b.examples,
        b.term,
    )


def linker(known: set[str]) -> Any:
    """Escape a text and turn its references to rules on the sheet into links to their rows."""
    from markupsafe import escape

    from kb.export import stages

    def link(text: str, language: str) -> Markup:
        out: list[str] = []
        pos = 0
        for ref in stages.find_references(text, language):
            target = next((n for n in ref.numbers if n in known), None)
            if ref.start < pos or target is None:
                continue
            out.append(escape(text[pos : ref.start]))
            out.append(
                Markup('<a class="ref" href="#r-{}">{}</a>').format(
                    target, text[ref.start : ref.end]
                )
            )
            pos = ref.end
        out.append(escape(text[pos:]))
        return Markup("".join(out))

    return link


def coverage_lines(sheet: Sheet, words: Labels) -> list[str]:
    """One line per translated language: how many of the sheet's rules are current/stale/missing
    (or, for a language with no text at all, that the English is shown: said once, not per row,
    with the terms of its keyword rules learned from official card translations, if any)."""
    lines = [
        words("untranslated", language=language_name(lang, sheet.label_language))
        if lang in sheet.untranslated
        else words(
            "coverage",
            language=language_name(lang, sheet.label_language),
            current=tally["current"],
            stale=tally["stale"],
            missing=tally["missing"],
        )
        for lang, tally in sheet.counts.items()
    ]
    for index, lang in enumerate(sheet.languages):
        terms = [f"{r.number} {r.cells[index].term}" for r in sheet.rows if r.cells[index].term]
        if lang in sheet.untranslated and terms:
            lines.append(
                words(
                    "card_terms",
                    language=language_name(lang, sheet.label_language),
                    terms=", ".join(terms),
                )
            )
    return lines


def heading(sheet: Sheet) -> str:
    """The sheet's items with their names (``701.54 The Ring Tempts You · 702.2 Deathtouch``)."""
    return " · ".join(
        f"{item} {sheet.names[item]}" if item in sheet.names else item for item in sheet.items
    )


def shown_badges(sheet: Sheet, cell: Cell) -> list[str]:
    """A cell's badges, less ``missing`` where the sheet says once that the language has none."""
    if cell.language in sheet.untranslated:
        return [b for b in cell.badges if b != "missing"]
    return cell.badges


def render_html(
    sheet: Sheet, *, paper: str = "a4", landscape: bool = False, print_: bool = False
) -> str:
    """The sheet as a standalone HTML document (``print_`` adds the paged-media rules)."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}")
    words = labels(sheet.label_language)
    template = environment(sheet.label_language).get_template("sheet.html")
    columns = sheet.columns
    return template.render(
        sheet=sheet,
        L=words,
        print=print_,
        paper=paper.upper() if paper == "a4" else paper,
        landscape=landscape,
        css_string=css_string,
        page_content=page_counter(words("page", page="{page}", pages="{pages}")),
        edition_date=words.date(sheet.edition),
        language_names={
            lang: language_name(lang, sheet.label_language) for lang in sheet.languages
        },
        heading=heading(sheet),
        columns=[sheet.languages[i] for i in columns],
        pick=lambda cells: [cells[i] for i in columns],
        shown_badges=lambda cell: shown_badges(sheet, cell),
        coverage=coverage_lines(sheet, words),
        spans=spans,
        link=linker({row.number for row in sheet.rows}),
        card_names=lambda card, group: list(dict.fromkeys(card.names[c.language] for c in group)),
        is_fallback=lambda group: (
            not any(c.shown_language == c.language for c in group)
            and not all(c.language in sheet.untranslated for c in group)
        ),
    )

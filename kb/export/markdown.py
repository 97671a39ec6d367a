"""The sheet as Markdown: one section per language (a player reads only theirs), CommonMark-safe.

Every corpus text is escaped, so that a ``*`` or ``[`` in a rule never turns into markup and a
line that starts with ``1.`` or ``-`` never becomes a list.
"""

from __future__ import annotations

import re

from kb.export.html import Labels, coverage_lines, heading, labels, shown_badges
from kb.export.sheet import Cell, ClarificationRow, Row, Sheet
from kb.langs import language_name

_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#&!])")
_LINE_START = re.compile(r"^(\s*)(\d+)([.)])|^(\s*)([-+=>])", re.MULTILINE)


def escape(text: str, *, line_start: bool = False) -> str:
    """Escape a text so that CommonMark renders it literally (``line_start``: it opens a line)."""
    out = _SPECIAL.sub(r"\\\1", text)
    if not line_start:
        return out
    return _LINE_START.sub(
        lambda m: f"{m[1]}{m[2]}\\{m[3]}" if m[2] is not None else f"{m[4]}\\{m[5]}", out
    )


def _badges(sheet: Sheet, cell: Cell, words: Labels) -> str:
    if cell.language == "en":
        return ""
    shown = [words(badge) for badge in shown_badges(sheet, cell)]
    if cell.follows and cell.shown_language == cell.language:
        assumed = f" ({words('assumed')})" if cell.assumed else ""
        shown.append(words("follows", date=words.date(cell.follows)) + assumed)
    return " *[" + escape(", ".join(shown)) + "]*" if shown else ""


def _paragraphs(text: str) -> list[str]:
    return [escape(line.strip(), line_start=True) for line in text.splitlines() if line.strip()]


def _levels(sheet: Sheet) -> dict[str, str]:
    """Each row's heading level under a language's ``##``: one step deeper per enclosing part or
    chapter that the sheet itself holds, so that levels never jump (``##`` then ``####``)."""
    numbers = {row.number for row in sheet.rows}
    levels: dict[str, str] = {}
    for row in sheet.rows:
        chapter = row.number.split(".")[0]
        depth = 3
        if row.kind != "part" and chapter[:1] in numbers:
            depth += 1
        if row.kind not in ("part", "chapter") and chapter in numbers:
            depth += 1
        levels[row.number] = "#" * depth
    return levels


def _rule(sheet: Sheet, row: Row, cell: Cell, words: Labels, levels: dict[str, str]) -> list[str]:
    badges = _badges(sheet, cell, words)
    if row.kind in ("part", "chapter") or (cell.title and not cell.text):
        level = levels[row.number]
        title = escape(cell.title) if cell.title else ""
        return [f"{level} {row.number}. {title}{badges}".rstrip(), "", *_term(cell, words)]
    number = f"{row.number}." if row.kind == "rule" else row.number
    paras = _paragraphs(cell.text) or [""]
    lines = [f"**{number}** {paras[0]}{badges}".rstrip(), "", *_term(cell, words)]
    for para in paras[1:]:
        lines += [para, ""]
    for example in cell.examples:
        lines += [f"> *{escape(words('example'))}* {escape(example)}", ""]
    return lines


def _term(cell: Cell, words: Labels) -> list[str]:
    """The learned term of an untranslated keyword rule, with its own provenance."""
    if not cell.term:
        return []
    return [f"*{escape(cell.term)}* *[{escape(words('card-term'))}]*", ""]


def _ruling(sheet: Sheet, row: ClarificationRow, cell: Cell, words: Labels) -> list[str]:
    head = f"**{row.date}** · {escape(words('source_label'))} {escape(row.source)}"
    if row.rules:
        head += f" · {escape(words('rules'))} {', '.join(row.rules)}"
    if row.cards:
        names = "; ".join(escape(c.names[cell.language]) for c in row.cards)
        head += f" · {escape(words('cards'))} {names}"
    lines = [f"- {head}{_badges(sheet, cell, words)}"]
    lines += [f"  {para}" for para in _paragraphs(cell.text)]
    return [*lines, ""]


def render_markdown(sheet: Sheet) -> str:
    """The sheet as a Markdown document."""
    words = labels(sheet.label_language)
    items = escape(heading(sheet))
    edition = words("edition", date=words.date(sheet.edition))
    out = [
        f"# {escape(words('title'))} · {items}",
        "",
        f"{escape(edition)} · {sheet.edition_key}",
        "",
    ]
    out += [f"- {escape(line)}" for line in coverage_lines(sheet, words)]
    if sheet.counts:
        out.append("")
    levels = _levels(sheet)
    for index in sheet.columns:
        lang = sheet.languages[index]
        out += [f"## {escape(language_name(lang, sheet.label_language))}", ""]
        for row in sheet.rows:
            out += _rule(sheet, row, row.cells[index], words, levels)
        out += [f"### {escape(words('clarifications'))}", ""]
        if not sheet.clarifications:
            out += [f"*{escape(words('no_clarifications'))}*", ""]
        for ruling in sheet.clarifications:
            out += _ruling(sheet, ruling, ruling.cells[index], words)
        for section in sheet.cards:
            name = section.card.names[lang]
            out += [f"### {escape(words('card_rulings', card=name))}", ""]
            if not section.rulings:
                out += [f"*{escape(words('no_rulings'))}*", ""]
            for ruling in section.rulings:
                out += _ruling(sheet, ruling, ruling.cells[index], words)
    source = words("source", source=sheet.source or sheet.edition_key)
    out += ["---", "", f"{escape(edition)} · {sheet.edition_key} · {escape(source)}", ""]
    out += [escape(words("policy")), ""]
    return "\n".join(out)

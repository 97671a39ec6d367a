"""`kb rule` and `kb card` printed: what they say (one builder), and a plain layout when piped.

The builders say what a lookup prints once, as console markup for rich (a terminal) or as plain
text: every styled piece goes through a ``style(name, markup)`` and every corpus text through an
``escape``, which the rich printers (:mod:`kb.cli.reports`) make markup of and the plain layout
leaves as text. Piped or written to a file there is no colour to show, yet rich's table of a
chapter (750 rows) cost a whole second of a lookup, and importing rich a tenth: here the same
lines are laid out without it, as rich 13-15 lays them out (its column widths, word division,
padding and borders) for texts whose every character rich measures one cell wide. For anything
else (wide or control characters, a possible emoji code, a backslash, a console too narrow)
the layout returns None and rich prints. Tests compare the two.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from kb.cli.plain_output import console_width, one_cell, plain_wanted, wrap
from kb.langs import LANGS, language_name

Style = Callable[[str, str], str]
Escape = Callable[[str], str]

BADGES = {
    "official": "official",
    "machine": "machine translation",
    "community": "community",
    "card-term": "term from official card translations",
}
_EMOJI = re.compile(r":\S*?:")  # what rich might read as an emoji code
NUMBER_HEADER = "number"
MIN_COLUMN = 8  # the narrowest text column laid out here (a header word must fit)


def plain(_style: str, markup: str) -> str:
    """The ``style`` of the plain layout: no style at all."""
    return markup


def same(text: str) -> str:
    """The ``escape`` of the plain layout: texts are printed as they are."""
    return text


# --- what a lookup says ------------------------------------------------------------------------


def badge(text: dict[str, Any]) -> str:
    """A translation's provenance, staleness and the edition it follows, in words."""
    shown = BADGES.get(text["provenance"], text["provenance"])
    if text.get("status") == "stale":
        shown += ", STALE: the English changed since"
    if text.get("follows_edition"):
        assumed = ", assumed" if text.get("follows_assumed") else ""
        shown += f"; follows {text['follows_edition']}{assumed}"
    return shown


def _body(text: dict[str, Any], style: Style, escape: Escape) -> str:
    parts = [p for p in (text["title"], text["text"]) if p]
    lines = [escape(" ".join(parts))]
    lines.extend(f"{style('italic', 'Example:')} {escape(e)}" for e in text["examples"])
    return "\n".join(lines)


def rule_heading(view: dict[str, Any], style: Style, escape: Escape) -> list[str]:
    """The lines above a rule's table: its number and edition, where it stands today."""
    number = escape(view["number"])
    lines = [f"{style('bold', f'Rule {number}')} — edition {view['edition']}"]
    lang = view["language"]
    today = view.get("today")
    if today and today["number"] != view["number"]:
        now = (
            f"rule {escape(today['number'])} in the {today['edition']} edition"
            if today["number"]
            else f"removed in the {today['removed_in']} edition"
        )
        lines.append(
            f"{style('cyan', f'today: {now}')} (kb trace {number} --edition {view['edition']})"
        )
    if lang != "en" and view["missing"] == len(view["rules"]):
        lines.append(
            style(
                "yellow",
                f"no {language_name(lang, 'en')} text for rule {number}: English shown",
            )
        )
    return lines


def rule_headers(view: dict[str, Any]) -> list[str]:
    """The table's column headers: the number, English and the language asked for."""
    lang = view["language"]
    return [NUMBER_HEADER, "English"] + ([language_name(lang, "en")] if lang != "en" else [])


def number_width(view: dict[str, Any]) -> int:
    """The width of the number column: every number fits, unbroken."""
    numbers = max(len(i["number"]) for i in view["rules"]) if view["rules"] else 0
    return max(numbers, len(NUMBER_HEADER))


def rule_rows(view: dict[str, Any], style: Style, escape: Escape) -> list[list[str]]:
    """The table's rows: each rule's number, English and translation (or why there is none)."""
    lang = view["language"]
    name = language_name(lang, "en")
    shown_badge = None
    rows = []
    for item in view["rules"]:
        row = [
            style("bold", escape(item["number"])),
            _body(item["english"], style, escape) if item["english"] else "",
        ]
        if lang != "en":
            translation = item["translation"]
            if translation:
                said = badge(translation)
                # The badge is the same for a whole rule page: say it once, then when it changes.
                suffix = f"\n{style('dim', f'({escape(said)})')}" if said != shown_badge else ""
                shown_badge = said
                row.append(_body(translation, style, escape) + suffix)
            elif item.get("card_term"):
                term = item["card_term"]
                note = f"({escape(term['note'])}; no {name} text of the rule)"
                row.append(f"{style('bold', escape(term['title']))}\n{style('dim', note)}")
            else:
                row.append(style("dim", f"no {name} text"))
        rows.append(row)
    return rows


def card_lines(view: dict[str, Any], style: Style, escape: Escape) -> list[tuple[int, str]]:
    """A card's lines, each with its indent (0: printed as is; else a hanging indent): names,
    facts, type lines and texts (Oracle first), then each ruling text with language and
    provenance."""
    lines = [(0, style("bold", escape(view["name"])))]
    for lang in LANGS:
        if lang in view["names"]:
            lines.append((2, f"{language_name(lang, 'en')}: {escape(view['names'][lang])}"))
    facts = []
    if view["mana_value"] is not None:
        facts.append(f"mana value {view['mana_value']:g}")
    if view["oracle_id"]:
        facts.append(f"oracle id {view['oracle_id']}")
    facts.extend(f"{k} {v}" for k, v in sorted(view["attributes"].items()))
    if view["printings"]:
        facts.append(
            "printings " + ", ".join(f"{p['set']} #{p['number']}" for p in view["printings"])
        )
    facts.extend(f"rulings page {page['page_id']}" for page in view["rulings_pages"])
    lines.extend((2, escape(fact)) for fact in facts)
    texts = view.get("texts") or {}
    type_lines = view.get("type_lines") or {}
    for lang in [code for code in LANGS if code in texts or code in type_lines]:
        label = "Oracle text" if lang == "en" else f"{language_name(lang, 'en')} printed text"
        lines.append((0, style("bold", label)))
        if type_lines.get(lang):
            lines.append((2, style("italic", escape(type_lines[lang]))))
        lines.extend(
            (2, escape(line)) for line in (texts.get(lang) or "").splitlines() if line.strip()
        )
    lines.append((0, style("bold", f"{len(view['rulings'])} rulings")))
    for ruling in view["rulings"]:
        lines.append((0, f"{style('cyan', ruling['date'])} · {escape(ruling['source'])}"))
        for lang, text in sorted(ruling["texts"].items(), key=lambda kv: kv[0] != "en"):
            said = BADGES.get(text["provenance"], text["provenance"])
            lines.append((2, f"{style('dim', f'{lang} ({escape(said)}):')} {escape(text['text'])}"))
    return lines


# --- the plain layout --------------------------------------------------------------------------


def _printable(text: str, newlines: bool = False) -> bool:
    """Whether rich would print this text as it is, one cell per character."""
    chars = text.replace("\n", "") if newlines else text
    return one_cell(chars) and "\\" not in text and not _EMOJI.search(text)


def _line(text: str, width: int) -> list[str] | None:
    """A paragraph as ``console.print`` wraps it (None: rich must print it)."""
    return wrap(text, width) if _printable(text) else None


def _indented(text: str, indent: int, width: int) -> list[str] | None:
    """reports.indented's lines: rich's Padding (not expanded) around the wrapped text, each
    line padded to the text's width."""
    if not text or not _printable(text):
        return None
    inner = min(len(text) + indent, width) - indent
    if inner < 1:
        return None
    return [" " * indent + line.ljust(inner) for line in wrap(text, inner)]


def ratio_distribute(total: int, ratios: list[int], minimums: list[int]) -> list[int]:
    """rich._ratio.ratio_distribute: an integer total in parts by ratios, each at least its
    minimum."""
    ratios = [ratio if minimum else 0 for ratio, minimum in zip(ratios, minimums, strict=True)]
    total_ratio, remaining = sum(ratios), total
    parts = []
    for ratio, minimum in zip(ratios, minimums, strict=True):
        part = max(minimum, -(-ratio * remaining // total_ratio)) if total_ratio else remaining
        parts.append(part)
        total_ratio -= ratio
        remaining -= part
    return parts


def column_widths(view: dict[str, Any], width: int) -> list[int] | None:
    """The widths (padding included) rich gives the rule table's columns at a console width:
    the number column's own, the others share the rest equally (expand, ratio 1)."""
    columns = len(rule_headers(view))
    available = width - (columns + 1)  # a border left, right and between columns
    first = number_width(view) + 2
    widths = [first, *ratio_distribute(available - first, [1] * (columns - 1), [3] * (columns - 1))]
    if sum(widths) != available or min(widths[1:]) - 2 < MIN_COLUMN:
        return None  # rich would collapse columns: too narrow to lay out here
    return widths


def _cell(text: str, width: int) -> list[str] | None:
    """A cell's lines, each padded to the cell (a word wider than the cell is cut to ``…``)."""
    if not _printable(text, newlines=True):
        return None
    inner = width - 2
    lines = []
    for paragraph in text.split("\n"):
        lines.extend(f" {line.ljust(inner)} " for line in wrap(paragraph, inner, "ellipsis"))
    return lines


def plain_rule_lines(view: dict[str, Any], width: int) -> list[str] | None:
    """The printed lines of a rule view (None when only rich can print it exactly)."""
    widths = column_widths(view, width)
    if widths is None:
        return None
    lines: list[str] = []
    for markup in rule_heading(view, plain, same):
        found = _line(markup, width)
        if found is None:
            return None
        lines.extend(found)
    header = [_cell(text, w) for text, w in zip(rule_headers(view), widths, strict=True)]
    if any(cell is None or len(cell) != 1 for cell in header):
        return None
    lines.append("┏" + "┳".join("━" * w for w in widths) + "┓")
    lines.append("┃" + "┃".join(cell[0] for cell in header if cell) + "┃")
    lines.append("┡" + "╇".join("━" * w for w in widths) + "┩")
    between = "├" + "┼".join("─" * w for w in widths) + "┤"
    for index, row in enumerate(rule_rows(view, plain, same)):
        cells = [_cell(text, w) for text, w in zip(row, widths, strict=True)]
        if any(cell is None for cell in cells):
            return None
        height = max(len(cell) for cell in cells if cell is not None)
        if index:
            lines.append(between)
        for line_no in range(height):
            parts = [
                cell[line_no] if cell is not None and line_no < len(cell) else " " * w
                for cell, w in zip(cells, widths, strict=True)
            ]
            lines.append("│" + "│".join(parts) + "│")
    lines.append("└" + "┴".join("─" * w for w in widths) + "┘")
    return lines


def plain_card_lines(view: dict[str, Any], width: int) -> list[str] | None:
    """The printed lines of a card view (None when only rich can print it exactly)."""
    lines: list[str] = []
    for indent, text in card_lines(view, plain, same):
        found = _indented(text, indent, width) if indent else _line(text, width)
        if found is None:
            return None
        lines.extend(found)
    return lines


def _box_drawable() -> bool:
    """Whether rich would draw the table's box as it is (standard output encodes UTF-8)."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    return encoding.lower().startswith("utf")


def print_rule_view(view: dict[str, Any]) -> None:
    """Print a rule: laid out here when piped, else (or when it cannot be) by rich."""
    if plain_wanted() and _box_drawable():
        lines = plain_rule_lines(view, console_width())
        if lines is not None:
            sys.stdout.write("".join(line + "\n" for line in lines))
            return
    from kb.cli.app import console
    from kb.cli.reports import print_rule

    print_rule(console(), view)


def print_card_view(view: dict[str, Any]) -> None:
    """Print a card: laid out here when piped, else (or when it cannot be) by rich."""
    if plain_wanted():
        lines = plain_card_lines(view, console_width())
        if lines is not None:
            sys.stdout.write("".join(line + "\n" for line in lines))
            return
    from kb.cli.app import console
    from kb.cli.reports import print_card

    print_card(console(), view)

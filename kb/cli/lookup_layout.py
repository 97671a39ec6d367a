"""`kb rule` and `kb card` laid out without rich, exactly as rich lays them out.

rich's table of a chapter (750 rows, ``kb rule 702``) cost a whole second of a lookup, and
importing rich a tenth. For the one table and the hanging indents a lookup prints, this module
computes what rich would: its column widths (expand, fixed number column, the rest shared),
its word division (:mod:`kb.cli.plain_output`), padding and box, and on a terminal the same SGR
codes around the same styled runs. It does so only where rich's output is known for sure: texts
whose every character rich measures one cell wide, no possible emoji code nor backslash, a
console wide enough for the columns, piped output or a plain colour terminal (no NO_COLOR,
FORCE_COLOR, TTY_COMPATIBLE, dumb terminal); anything else returns None and rich prints. Tests
compare the two on real rules and cards, piped and on a terminal.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from kb.cli.lookup_output import card_lines, number_width, rule_headers, rule_heading, rule_rows
from kb.cli.plain_output import console_width, one_cell, plain_wanted, wrap_bounds

_OPEN, _SEP, _CLOSE = "\x01", "\x02", "\x03"  # control characters: never in a printable text
_MARK = re.compile("\x01([a-z]+)\x02([^\x01\x02\x03]*)\x03")
_EMOJI = re.compile(r":\S*?:")  # what rich might read as an emoji code
# The console styles a lookup uses, as rich renders them on any colour terminal.
SGR = {"bold": "1", "dim": "2", "italic": "3", "cyan": "36", "yellow": "33"}
MIN_COLUMN = 8  # the narrowest text column laid out here (a header word must fit)

Spans = list[tuple[int, int, str]]


def marked(name: str, markup: str) -> str:
    """The ``style`` of the builders for this layout: the styled piece between marks."""
    return f"{_OPEN}{name}{_SEP}{markup}{_CLOSE}"


def same(text: str) -> str:
    """The ``escape`` of the builders for this layout: texts are printed as they are."""
    return text


def _parse(text: str) -> tuple[str, Spans] | None:
    """The text without its marks and the styled spans (None when they nest, or rich might not
    print the text as it is)."""
    parts: list[str] = []
    spans: Spans = []
    position = length = 0
    for match in _MARK.finditer(text):
        before = text[position : match.start()]
        parts.append(before)
        length += len(before)
        name, inner = match.groups()
        if name not in SGR or not inner:
            return None
        spans.append((length, length + len(inner), name))
        parts.append(inner)
        length += len(inner)
        position = match.end()
    parts.append(text[position:])
    found = "".join(parts)
    if {_OPEN, _SEP, _CLOSE} & set(found) or "\\" in found or _EMOJI.search(found):
        return None
    return (found, spans) if one_cell(found.replace("\n", "")) else None


def _paint(line: str, begin: int, spans: Spans, styled: bool) -> str:
    """A line of the text (starting at ``begin``) with its styled runs in SGR codes."""
    if not styled or not spans:
        return line
    end = begin + len(line)
    pieces = []
    at = begin
    for start, stop, name in spans:
        start, stop = max(start, begin), min(stop, end)
        if start >= stop:
            continue
        pieces.append(line[at - begin : start - begin])
        pieces.append(f"\x1b[{SGR[name]}m{line[start - begin : stop - begin]}\x1b[0m")
        at = stop
    pieces.append(line[at - begin :])
    return "".join(pieces)


def _wrapped(
    text: str, spans: Spans, width: int, styled: bool, overflow: str = "fold"
) -> list[tuple[str, int]]:
    """Each wrapped line painted, with its length. A line cut to ``…`` keeps the styles of its
    places, as rich trims a text's spans to its new length."""
    return [
        (_paint(line, begin, spans, styled), len(line))
        for begin, line in wrap_bounds(text, width, overflow)
    ]


def _printed(markup: str, width: int, styled: bool) -> list[str] | None:
    """A paragraph as ``console.print`` wraps it."""
    parsed = _parse(markup)
    if parsed is None or "\n" in parsed[0]:
        return None
    return [line for line, _ in _wrapped(*parsed, width, styled)]


def _indented(markup: str, indent: int, width: int, styled: bool) -> list[str] | None:
    """reports.indented's lines: rich's Padding (not expanded) around the wrapped text, each
    line padded to the text's width."""
    parsed = _parse(markup)
    if parsed is None or not parsed[0] or "\n" in parsed[0]:
        return None
    inner = min(len(parsed[0]) + indent, width) - indent
    if inner < 1:
        return None
    found = _wrapped(*parsed, inner, styled)
    return [" " * indent + line + " " * (inner - length) for line, length in found]


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


def _cell(markup: str, width: int, styled: bool) -> list[str] | None:
    """A cell's lines, each padded to the cell (a word wider than the cell is cut to ``…``)."""
    parsed = _parse(markup)
    if parsed is None:
        return None
    text, spans = parsed
    inner = width - 2
    lines = []
    start = 0
    for paragraph in text.split("\n"):
        own = [(a - start, b - start, name) for a, b, name in spans]
        found = _wrapped(paragraph, own, inner, styled, "ellipsis")
        lines.extend(f" {line}{' ' * (inner - length)} " for line, length in found)
        start += len(paragraph) + 1
    return lines


def _header(text: str, width: int, styled: bool) -> str | None:
    """A header cell: one line, bold as a whole (its padding too) on a terminal."""
    if _parse(text) != (text, []) or len(text) > width - 2:
        return None
    if not styled:
        return f" {text.ljust(width - 2)} "
    bold = "\x1b[1m{}\x1b[0m"
    return bold.format(" ") + bold.format(text.ljust(width - 2)) + bold.format(" ")


def rule_lines(view: dict[str, Any], width: int, styled: bool = False) -> list[str] | None:
    """The printed lines of a rule view (None when only rich can print it exactly)."""
    widths = column_widths(view, width)
    if widths is None:
        return None
    lines: list[str] = []
    for markup in rule_heading(view, marked, same):
        found = _printed(markup, width, styled)
        if found is None:
            return None
        lines.extend(found)
    header = [_header(text, w, styled) for text, w in zip(rule_headers(view), widths, strict=True)]
    if None in header:
        return None
    lines.append("┏" + "┳".join("━" * w for w in widths) + "┓")
    lines.append("┃" + "┃".join(cell or "" for cell in header) + "┃")
    lines.append("┡" + "╇".join("━" * w for w in widths) + "┩")
    between = "├" + "┼".join("─" * w for w in widths) + "┤"
    for index, row in enumerate(rule_rows(view, marked, same)):
        cells = [_cell(text, w, styled) for text, w in zip(row, widths, strict=True)]
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


def card_view_lines(view: dict[str, Any], width: int, styled: bool = False) -> list[str] | None:
    """The printed lines of a card view (None when only rich can print it exactly)."""
    lines: list[str] = []
    for indent, markup in card_lines(view, marked, same):
        found = (
            _indented(markup, indent, width, styled) if indent else _printed(markup, width, styled)
        )
        if found is None:
            return None
        lines.extend(found)
    return lines


def plain_terminal(stream: Any = None) -> bool:
    """Whether rich would print to this terminal with nothing but the standard SGR styles."""
    stream = stream if stream is not None else sys.stdout
    environ = os.environ
    if sys.platform == "win32" or environ.get("NO_COLOR", "") != "":
        return False
    if {"TTY_COMPATIBLE", "TTY_INTERACTIVE", "FORCE_COLOR", "JPY_PARENT_PID"} & set(environ):
        return False
    if environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _layout() -> bool | None:
    """False to lay out plain text, True with SGR styles, None to leave it to rich."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if not encoding.lower().startswith("utf"):
        return None  # rich would draw the box in ASCII
    if plain_wanted():
        return False
    return True if plain_terminal() else None


def _write(lines: list[str]) -> None:
    """Write and flush, as rich does: a closed pipe fails here, where kb's group reports it."""
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


def print_rule_view(view: dict[str, Any]) -> None:
    """Print a rule: laid out here when that is sure to be rich's output, else by rich."""
    _print_view(view, rule_lines, "print_rule")


def print_card_view(view: dict[str, Any]) -> None:
    """Print a card: laid out here when that is sure to be rich's output, else by rich."""
    _print_view(view, card_view_lines, "print_card")


def _print_view(view: dict[str, Any], lines_of: Any, rich_printer: str) -> None:
    styled = _layout()
    lines = None if styled is None else lines_of(view, console_width(), styled)
    if lines is not None:
        _write(lines)
        return
    from kb.cli import reports  # rich, only when the layout here cannot be sure to match it
    from kb.cli.app import console

    getattr(reports, rich_printer)(console(), view)

"""Search results piped: the lines rich would print, written without importing rich.

A one-off ``kb search`` whose output goes to a pipe or a file has no colour to show, yet rich
costs it a fifth of its time (importing it, then rendering). This module turns the same console
markup (:mod:`kb.cli.search_output`) into plain lines wrapped as rich 13-15 wraps them (its word
division, folding of long words and hanging indents) for texts whose every character is one cell
wide; for anything else (wide or zero-width characters, control characters, emoji codes, a
console too narrow for the indents) it returns None and rich prints, as on a terminal. Tests
compare the two on real results.
"""

from __future__ import annotations

import os
import re
import sys
from itertools import pairwise
from typing import Any

# Characters one cell wide: rich's single-cell ranges, and the general punctuation kb prints
# (dashes, curly quotes, bullets, the ellipsis), whose width rich also measures as one.
_ONE_CELL = frozenset(
    chr(code)
    for start, end in ((0x20, 0x7E), (0xA0, 0xAC), (0xAE, 0x2FF), (0x370, 0x482), (0x2010, 0x2027))
    for code in range(start, end + 1)
)
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")  # rich.markup.RE_TAGS
_EMOJI = re.compile(r":\S*?:")  # what rich might read as an emoji code
_WORD = re.compile(r"\s*\S+\s*")  # rich._wrap.re_word
_TRAILING = re.compile(r"\s+$")
MIN_WIDTH = 20  # search_output.Hanging's narrowest text column


def one_cell(text: str) -> bool:
    """Whether rich measures every character of the text one cell wide (the common ones are
    known here; rich's own table is asked about the others, such as ``∞``)."""
    others = set(text) - _ONE_CELL
    if not others:
        return True
    from rich.cells import get_character_cell_size

    return all(get_character_cell_size(char) == 1 for char in others)


def markup_text(markup: str) -> str | None:
    """The text of console markup, tags dropped and escapes undone (rich.markup._parse)."""
    if _EMOJI.search(markup):
        return None
    parts: list[str] = []
    position = 0
    for match in _TAGS.finditer(markup):
        full, escapes, _tag = match.groups()
        start, end = match.span()
        if start > position:
            parts.append(markup[position:start])
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            parts.append("\\" * backslashes)
            if escaped:
                parts.append(full[len(escapes) :])
    parts.append(markup[position:])
    text = "".join(parts)
    return text if _ONE_CELL.issuperset(text) else None


def wrap(text: str, width: int, overflow: str = "fold") -> list[str]:
    """Lines of ``text`` at most ``width`` wide, as rich's ``Text.wrap`` divides them: a word
    wider than that folded across lines, or (``overflow="ellipsis"``, a table cell's) alone on
    its line and cut to ``…``."""
    return [line for _start, line in wrap_bounds(text, width, overflow)]


def wrap_bounds(text: str, width: int, overflow: str = "fold") -> list[tuple[int, str]]:
    """:func:`wrap`'s lines, each with where it starts in ``text`` (for styles laid over it)."""
    breaks: list[int] = []
    offset = 0
    match = _WORD.match(text, 0)
    while match is not None:
        start, end = match.span()
        word = match.group()
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width and overflow == "ellipsis":  # alone on its line, cut below
            if start:
                breaks.append(start)
            offset = len(word)
        elif length > width:  # folded across lines
            pieces = [word[i : i + width] for i in range(0, len(word), width)]
            for index, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if index == len(pieces) - 1:
                    offset = len(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
        match = _WORD.match(text, end)
    bounds = [0, *breaks, len(text)]
    lines = []
    for begin, stop in pairwise(bounds):
        line = text[begin:stop]
        if len(line) > width:  # rstrip_end, then truncate
            trailing = _TRAILING.search(line)
            if trailing is not None:
                line = line[: len(line) - min(len(trailing.group()), len(line) - width)]
            if len(line) > width:
                line = line[: width - 1] + "…" if overflow == "ellipsis" else line[:width]
        lines.append((begin, line))
    return lines or [(0, "")]


def _hanging(prefix: str, body: str, indent: int, width: int) -> list[str] | None:
    """search_output.Hanging's lines: the body wrapped beside its prefix, then under it."""
    margin = indent + len(prefix)
    if width - margin < MIN_WIDTH:
        return None
    lines = []
    for index, line in enumerate(wrap(body, width - margin)):
        head = " " * indent + prefix if index == 0 else " " * margin
        lines.extend(wrap(head + line.rstrip(), width))
    return lines


def console_width() -> int:
    """The width rich's console would take: the terminal's (of any standard stream), $COLUMNS."""
    width = None
    for descriptor in (0, 1, 2):
        try:
            width = os.get_terminal_size(descriptor).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    return width or 80


def plain_wanted(stream: Any = None) -> bool:
    """Whether rich would print without colour here (a pipe or file; nothing forcing colour)."""
    stream = stream if stream is not None else sys.stdout
    if sys.platform == "win32" or os.environ.get("TTY_COMPATIBLE", "") in ("0", "1"):
        return False
    if os.environ.get("FORCE_COLOR") is not None or "JPY_PARENT_PID" in os.environ:
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:
        return False


def plain_lines(response: dict[str, Any], width: int) -> list[str] | None:
    """The printed lines of a response (None when only rich can print it exactly)."""
    from kb.cli.search_output import rank_prefix, response_lines, result_lines

    def text(markup: str) -> str | None:
        found = markup_text(markup)
        return None if found is None or "\n" in found or "\t" in found else found

    lines: list[str] = []
    for markup in response_lines(response):
        found = text(markup)
        if found is None:
            return None
        lines.extend(wrap(found, width))
    for result in response["results"]:
        first, *rest = result_lines(result, response["lang"])
        prefix = rank_prefix(result)
        lines.append("")
        for indent, head, markup in [(0, prefix, first)] + [(len(prefix), "", m) for m in rest]:
            found = text(markup)
            block = None if found is None else _hanging(head, found, indent, width)
            if block is None:
                return None
            lines.extend(block)
    return lines

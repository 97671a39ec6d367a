"""Snippets: the part of a text around the words that matched, with those words marked.

The matched index terms come from Whoosh (``hit.matched_terms()``); the text is re-analysed
with the same analyzer so that ``tempts`` is marked when the index term was ``tempt``. A snippet
is a list of ``(text, matched)`` segments, rendered as plain text, HTML or terminal markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

from kb.search.analysis import term_spans

Segments = list[tuple[str, bool]]

WINDOW = 240  # characters of context shown around the matches
LEAD = 60  # characters kept before the first match of the window


def spans(analyzer: Any, text: str, terms: set[str]) -> list[tuple[int, int]]:
    """Character spans of the tokens of ``text`` whose index term is one of ``terms``."""
    if not terms or not text:
        return []
    return [(start, end) for start, end, term in term_spans(analyzer, text) if term in terms]


def _window(text: str, found: list[tuple[int, int]]) -> tuple[int, int]:
    """The stretch of ``text`` of about WINDOW characters that holds the most matches."""
    if len(text) <= WINDOW:
        return 0, len(text)
    if not found:
        space = text.rfind(" ", 0, WINDOW)
        return 0, space if space > 0 else WINDOW
    best, best_count = 0, -1
    for start, _ in found:
        begin = max(0, start - LEAD)
        count = sum(1 for s, e in found if s >= begin and e <= begin + WINDOW)
        if count > best_count:
            best, best_count = begin, count
    end = min(len(text), best + WINDOW)
    if best > 0:  # start on a word
        space = text.find(" ", best)
        best = space + 1 if 0 <= space < best + 20 else best
    if end < len(text):
        space = text.rfind(" ", best, end)
        end = space if space > best else end
    return best, end


def snippet(analyzer: Any, text: str, terms: set[str]) -> Segments:
    """The best stretch of ``text`` as segments, matched words flagged."""
    text = text.strip()
    found = spans(analyzer, text, terms)
    begin, end = _window(text, found)
    segments: Segments = []
    if begin > 0:
        segments.append(("…", False))
    cursor = begin
    for start, stop in found:
        if start < begin or stop > end:
            continue
        if start > cursor:
            segments.append((text[cursor:start], False))
        segments.append((text[start:stop], True))
        cursor = stop
    if cursor < end:
        segments.append((text[cursor:end], False))
    if end < len(text):
        segments.append(("…", False))
    return _merge(segments)


def _merge(segments: Iterable[tuple[str, bool]]) -> Segments:
    merged: Segments = []
    for text, hit in segments:
        if merged and merged[-1][1] == hit:
            merged[-1] = (merged[-1][0] + text, hit)
        elif text:
            merged.append((text, hit))
    return merged


def as_text(segments: Segments) -> str:
    """Plain text of a snippet."""
    return "".join(text for text, _ in segments)


def as_html(segments: Segments) -> str:
    """HTML of a snippet: text escaped, matches in ``<mark>``."""
    return "".join(
        f"<mark>{html.escape(text)}</mark>" if hit else html.escape(text) for text, hit in segments
    )


_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def markup_escape(text: str) -> str:
    """``rich.markup.escape`` (the same regular expression), without importing rich."""
    text = _MARKUP_TAG.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", text)
    if text.endswith("\\") and not text.endswith("\\\\"):
        return text + "\\"
    return text


def as_markup(segments: Segments, style: str = "bold yellow") -> str:
    """Rich console markup of a snippet: text escaped, matches styled."""
    escape = markup_escape
    return "".join(
        f"[{style}]{escape(text)}[/{style}]" if hit else escape(text) for text, hit in segments
    )

"""Snippets: the part of a text around the words that matched, with those words marked.

The matched index terms come from Whoosh (``hit.matched_terms()``); the text is re-analysed
with the same analyzer so that ``tempts`` is marked when the index term was ``tempt``. A snippet
is a list of ``(text, matched)`` segments, rendered as plain text, HTML or terminal markup.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from itertools import accumulate, compress
from operator import itemgetter
from typing import Any

from kb.search.analysis import (
    TOKEN_PATTERN,
    NormalizeFilter,
    StemmingFilter,
    own_chain,
    term_spans,
    word_entry,
)

Segments = list[tuple[str, bool]]

WINDOW = 240  # characters of context shown around the matches
LEAD = 60  # characters kept before the first match of the window


# The text split around its tokens: gap, token, gap, …, gap (the tokens of TOKEN_PATTERN).
_AROUND_TOKENS = re.compile(f"({TOKEN_PATTERN})")
_TERM = itemgetter(0)


def spans(analyzer: Any, text: str, terms: set[str]) -> list[tuple[int, int]]:
    """Character spans of the tokens of ``text`` whose index term is one of ``terms``.

    What :func:`term_spans` gives of them. Every result's snippet is analysed on every search,
    and most of its words match nothing: for kb's own analyzers the words are looked up in C
    (one split of the text, a map over the per-word cache) and only the matches' places are
    worked out in Python. A paraphrase's term among ``terms`` takes :func:`term_spans`' path.
    """
    terms = terms - {""} if "" in terms else terms
    if not terms or not text:
        return []
    chain = own_chain(analyzer)
    if chain is None or not terms.isdisjoint(paraphrase_terms(*chain)):
        return [(start, end) for start, end, term in term_spans(analyzer, text) if term in terms]
    normalize, stemmer = chain
    parts = _AROUND_TOKENS.split(text)
    raws = parts[1::2]
    cache = normalize.span_cache(stemmer)
    entries = list(map(cache.get, raws))
    if None in entries:
        entries = [
            entry if entry is not None else word_entry(normalize, stemmer, cache, raw)
            for raw, entry in zip(raws, entries, strict=True)
        ]
    found = list(compress(range(len(raws)), map(terms.__contains__, map(_TERM, entries))))
    if not found:
        return []
    ends = list(accumulate(map(len, parts)))  # token i is part 2i + 1
    return [(ends[2 * i] + entries[i][1], ends[2 * i + 1] - entries[i][2]) for i in found]


def paraphrase_terms(normalize: NormalizeFilter, stemmer: StemmingFilter | None) -> frozenset[str]:
    """The index terms the filter's paraphrases may add (kept on the filter, out of pickles)."""
    key = stemmer.lang if stemmer is not None else ""
    kept: dict[str, frozenset[str]] = normalize.__dict__.setdefault("_paraphrase_terms", {})
    found = kept.get(key)
    if found is None:
        said = normalize._paraphrases.values()
        found = kept[key] = frozenset(w if stemmer is None else stemmer.stem(w) for w in said)
    return found


def _window(text: str, found: list[tuple[int, int]]) -> tuple[int, int]:
    """The stretch of ``text`` of about WINDOW characters that holds the most matches.

    ``found`` is in the text's order (starts and ends never decrease): the matches within a
    stretch are counted by bisection, not by walking them all for each.
    """
    if len(text) <= WINDOW:
        return 0, len(text)
    if not found:
        space = text.rfind(" ", 0, WINDOW)
        return 0, space if space > 0 else WINDOW
    starts = [s for s, _ in found]
    ends = [e for _, e in found]
    best, best_count = 0, -1
    for start in starts:
        begin = max(0, start - LEAD)
        # the matches starting at ``begin`` or later, and ending by ``begin + WINDOW``
        count = max(0, bisect_right(ends, begin + WINDOW) - bisect_left(starts, begin))
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
        # A paraphrase's span covers its words' own ("no cards in" is also "empty"): the part
        # already shown is not shown again.
        start = max(start, cursor)
        if stop <= start:
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

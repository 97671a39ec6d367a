"""The words a regular expression's every match must hold: a cheap test before running it.

The rulings' descriptions (kb.links.described) are case-insensitive patterns with many
alternatives, searched in every English ruling at the whole history (~24,000 texts, 29
patterns): ~6% of ``kb link``, although most patterns match in few rulings. Every match of
``\\b(?:divide|divided|announce…)\\b[^.]*\\b(?:as|when) …`` holds "divide", "announce", … or one
of the others, so a ruling that holds none of them cannot match, and ``str.__contains__`` on its
lower-cased text says so far faster than the pattern's search.

:func:`required` reads the pattern with the standard library's own parser (``re._parser``,
Python 3.11+); anything it cannot reason about gives no requirement, and the pattern is
searched as before. :func:`may_match` keeps the test sound under ``re.IGNORECASE``: Unicode has
four characters that match an ASCII letter case-insensitively but are not it lower-cased
(İ, ı, K, ſ), and a text holding one is searched whatever its words.
"""

from __future__ import annotations

import re
from typing import Any

try:  # the standard library's parser of patterns (sre_parse before Python 3.11)
    from re import _constants as _c
    from re import _parser
except ImportError:  # pragma: no cover - another Python: no requirements, patterns searched
    _parser = None  # type: ignore[assignment]

__all__ = ["may_match", "required"]

# Characters that match an ASCII letter under re.IGNORECASE without lower-casing to it
# (tests/test_links_literals.py checks the list against the re module itself).
CASE_SPECIAL = frozenset("\u0130\u0131\u212a\u017f")


def required(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Lower-case strings one of which every match of ``pattern`` holds, or None (unknown)."""
    if _parser is None or pattern.flags & re.VERBOSE:
        return None
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # a pattern the parser reads otherwise: no requirement
        return None
    found = _sequence(list(parsed))
    return frozenset(found) if found else None


def may_match(needed: frozenset[str] | None, lowered: str) -> bool:
    """Whether a text (lower-cased) may hold a match of a pattern needing ``needed``."""
    if needed is None or not CASE_SPECIAL.isdisjoint(lowered):
        return True
    return any(word in lowered for word in needed)


def _sequence(items: list[tuple[Any, Any]]) -> set[str] | None:
    """The best requirement of a sequence of pattern items (each must match, in order)."""
    candidates: list[set[str]] = []
    run = ""
    for op, value in items:
        if op is _c.LITERAL and _caseless_or_ascii(chr(value)):
            run += chr(value).lower()
            continue
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):  # zero width: the run goes on
            continue
        if run:
            candidates.append({run})
            run = ""
        inner: set[str] | None = None
        if op is _c.SUBPATTERN:
            inner = _sequence(list(value[-1]))
        elif op is _c.BRANCH:
            branches = [_sequence(list(branch)) for branch in value[1]]
            if all(branches):
                inner = set().union(*branches)  # type: ignore[arg-type]
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and value[0] >= 1:
            inner = _sequence(list(value[2]))
        if inner:
            candidates.append(inner)
    if run:
        candidates.append({run})
    if not candidates:
        return None
    return max(candidates, key=lambda words: (min(map(len, words)), -len(words)))


def _caseless_or_ascii(char: str) -> bool:
    """A pattern's literal whose case-insensitive matches are known: ASCII, or without case."""
    return char.isascii() or char.lower() == char.upper()

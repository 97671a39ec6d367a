"""Comprehensive Rules numbers: their shape, their order, subrule letters and ranges.

``7`` is a part, ``701`` a chapter, ``701.54`` a rule, ``701.54a`` a subrule. Subrule letters
skip ``l`` and ``o`` (they look like 1 and 0), so ``704.5k`` is followed by ``704.5m``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

NumberKind = Literal["part", "chapter", "rule", "subrule"]

SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"  # no l, no o
NUMBER_RE = re.compile(r"^(?P<chapter>\d{3})(?:\.(?P<rule>\d{1,3})(?P<letter>[a-z])?)?$")
PART_RE = re.compile(r"^[1-9]$")
# The same few thousand numbers come back in every edition (and the parser asks several times
# per line): the answers of these pure functions are memoised.
_MEMO = 1 << 16


@lru_cache(maxsize=_MEMO)
def kind_of(number: str) -> NumberKind:
    """Return what a rule number designates; raise ValueError if it is not one."""
    if PART_RE.match(number):
        return "part"
    match = NUMBER_RE.match(number)
    if not match:
        raise ValueError(f"not a rule number: {number!r}")
    if match["rule"] is None:
        return "chapter"
    return "subrule" if match["letter"] else "rule"


def is_rule_number(number: str) -> bool:
    """Tell whether a string is a part, chapter, rule or subrule number."""
    try:
        kind_of(number)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=_MEMO)
def parent_of(number: str) -> str | None:
    """Return the number one level up: ``701.54a`` -> ``701.54`` -> ``701`` -> ``7`` -> None."""
    kind = kind_of(number)
    if kind == "part":
        return None
    if kind == "chapter":
        return number[0]
    if kind == "rule":
        return number.split(".")[0]
    return number[:-1]


@lru_cache(maxsize=_MEMO)
def sort_key(number: str) -> str:
    """A string that sorts rule numbers in document order (``701.9`` before ``701.10``)."""
    kind = kind_of(number)
    if kind == "part":
        return f"{number}"
    match = NUMBER_RE.match(number)
    assert match is not None
    key = f"{match['chapter'][0]}.{match['chapter']}"
    if match["rule"] is not None:
        key += f".{int(match['rule']):03d}"
    if match["letter"]:
        key += f".{letter_index(match['letter']):02d}"
    return key


def subrule_letter(index: int) -> str:
    """Return the letter of the ``index``-th subrule (0-based), skipping l and o."""
    if not 0 <= index < len(SUBRULE_LETTERS):
        raise ValueError(f"a rule cannot have more than {len(SUBRULE_LETTERS)} lettered subrules")
    return SUBRULE_LETTERS[index]


def letter_index(letter: str) -> int:
    """Return the 0-based position of a subrule letter; ``l`` and ``o`` are not letters."""
    try:
        return SUBRULE_LETTERS.index(letter)
    except ValueError:
        raise ValueError(f"{letter!r} is not a subrule letter") from None


def expand_range(start: str, end: str) -> list[str]:
    """Expand ``601.2f``–``h`` or ``701.54a``–``701.54c`` into every number in between.

    ``end`` may be a bare letter (``h``), a rule number of the same chapter (``704.5``..``704.7``)
    or a full subrule number. Raises ValueError if the range runs backwards or mixes rules.
    """
    if re.fullmatch(r"[a-z]", end):
        end = start[:-1] + end if kind_of(start) == "subrule" else start + end
    kind_start, kind_end = kind_of(start), kind_of(end)
    if kind_start == "subrule" and kind_end == "subrule":
        if start[:-1] != end[:-1]:
            raise ValueError(f"range {start}–{end} spans two rules")
        first, last = letter_index(start[-1]), letter_index(end[-1])
        if last < first:
            raise ValueError(f"range {start}–{end} runs backwards")
        return [start[:-1] + SUBRULE_LETTERS[i] for i in range(first, last + 1)]
    if kind_start == kind_end == "rule":
        chap_a, num_a = start.split(".")
        chap_b, num_b = end.split(".")
        if chap_a != chap_b or int(num_b) < int(num_a):
            raise ValueError(f"range {start}–{end} is not a range of rules")
        return [f"{chap_a}.{n}" for n in range(int(num_a), int(num_b) + 1)]
    if kind_start == kind_end == "chapter":
        if int(end) < int(start):
            raise ValueError(f"range {start}–{end} runs backwards")
        return [str(n) for n in range(int(start), int(end) + 1)]
    raise ValueError(f"range {start}–{end} mixes kinds of numbers")

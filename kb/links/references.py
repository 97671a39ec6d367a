"""Explicit rule references in a text: ``rule 701.54a``, ``rules 601.2f–h``, ``See section 9``.

Pure text work, no database: the link builder resolves what this finds, and the site and the
exports use it to hyperlink the same spans they show. Three shapes are recognised, in English,
French and Spanish:

- a keyword and a list: ``rule 701.54a``, ``rules 613.2, 707.2, and 707.3``, ``la règle 701.54a``,
  ``las reglas 601.2f–h y 601.3``, ``See section 9`` / ``sección 9`` (a section is a part, 1–9);
- a bare rule or subrule number, which cannot be anything else: ``the actions in 701.54a``,
  ``(see 601.3d)``, ranges ``601.2a–h`` included;
- a bare chapter right after "see": ``See 718, “Prototype Cards.”`` (``exactly 100 cards`` is not
  one: three digits alone are a chapter only when "see" introduces them).

A range (``601.2f–h``, ``903.6–903.11``, with an en dash or a hyphen) is one reference whose
``numbers`` are every number it spans; a range that cannot be expanded keeps its two ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kb.corpus.numbers import SUBRULE_LETTERS, expand_range, is_rule_number

_RULE = r"\d{3}(?:\.\d{1,3}[a-z]?)?"  # chapter, rule or subrule
_LETTER = rf"[{SUBRULE_LETTERS}]"
_DASH = r"\s?[–—-]\s?"
_END = r"(?![\w.]\d|\w)"  # not glued to more digits or letters ("601.2fx", "100.5.3")

# A number or range inside a keyword list (the keyword says what kind of number it is).
_RULE_ITEM = rf"{_RULE}(?:{_DASH}(?:{_RULE}|{_LETTER}))?{_END}"
_SECTION_ITEM = rf"[1-9](?:{_DASH}[1-9])?{_END}"

_CONJ = r"(?:and|or|et|ou|y|e|o|u)"
_SEP = rf"(?:\s?,\s?(?:{_CONJ}\s)?|\s{_CONJ}\s)"

_RULE_WORDS = r"rules?|règles?|reglas?"
_SECTION_WORDS = r"sections?|secci[oó]n|secciones"
_SEE_WORDS = r"see|voir|véase|vea|ver|consulte|cf\."

KEYWORD_LIST = re.compile(
    rf"\b(?P<kw>(?:{_RULE_WORDS})\s(?P<rules>{_RULE_ITEM}(?:{_SEP}{_RULE_ITEM})*)"
    rf"|(?:{_SECTION_WORDS})\s(?P<sections>{_SECTION_ITEM}(?:{_SEP}{_SECTION_ITEM})*))",
    re.IGNORECASE,
)
ITEM = re.compile(rf"(?P<start>{_RULE}|[1-9])(?:{_DASH}(?P<end>{_RULE}|{_LETTER}|[1-9]))?{_END}")
BARE = re.compile(
    rf"(?<![\w.,/])(?P<start>\d{{3}}\.\d{{1,3}}{_LETTER}?)(?:{_DASH}(?P<end>{_RULE}|{_LETTER}))?{_END}"
)
_DIGIT = re.compile(r"\d")
SEE_CHAPTER = re.compile(rf"\b(?:{_SEE_WORDS})\s(?P<start>\d{{3}}){_END}", re.IGNORECASE)


@dataclass(frozen=True)
class Reference:
    """One explicit reference: the span to hyperlink and the rule numbers it names."""

    start: int
    end: int
    text: str
    numbers: tuple[str, ...]


def expand(start: str, end: str | None) -> tuple[str, ...]:
    """Every number a reference names: one, or all those a range spans (its ends if it cannot)."""
    if end is None:
        return (start,)
    if start.isdigit() and end.isdigit() and len(start) == len(end) == 1:
        first, last = int(start), int(end)
        return tuple(str(n) for n in range(first, last + 1)) if first <= last else (start, end)
    try:
        return tuple(expand_range(start, end))
    except ValueError:
        full_end = end if len(end) > 1 else start[:-1] + end
        return (start, full_end)


def _items(text: str, offset: int, body: str, first_start: int) -> list[Reference]:
    """Split a keyword list into references; the first one's span includes the keyword."""
    found = []
    for index, item in enumerate(ITEM.finditer(body)):
        start = offset + item.start() if index else first_start
        end = offset + item.end()
        numbers = expand(item["start"], item["end"])
        if all(is_rule_number(n) for n in numbers):
            found.append(Reference(start, end, text[start:end], numbers))
    return found


def find_references(text: str, language: str = "en") -> list[Reference]:
    """Every explicit rule reference in a text, in order (``language`` is en, fr or es)."""
    del language  # the keywords of the three languages never collide, so all are looked for
    return list(_find(text))


@lru_cache(maxsize=32768)
def _find(text: str) -> tuple[Reference, ...]:
    """The references of a text (cached: editions repeat most of their texts)."""
    if not _DIGIT.search(text):
        return ()
    found: list[Reference] = []
    taken: list[tuple[int, int]] = []
    for match in KEYWORD_LIST.finditer(text):
        group = "rules" if match["rules"] else "sections"
        refs = _items(text, match.start(group), match[group], match.start())
        found.extend(refs)
        taken.append((match.start(), match.end()))
    for pattern in (BARE, SEE_CHAPTER):
        for match in pattern.finditer(text):
            start, end = match.start("start"), match.end()
            if any(a <= start < b for a, b in taken):
                continue
            numbers = expand(match["start"], match.groupdict().get("end"))
            if all(is_rule_number(n) for n in numbers):
                found.append(Reference(start, end, text[start:end], numbers))
                taken.append((start, end))
    found.sort(key=lambda r: (r.start, r.end))
    return tuple(found)

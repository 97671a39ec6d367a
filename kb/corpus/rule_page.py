"""Rule pages (seed ``004``): one rule, its subrules in one language, and its sibling rules.

::

    701.54. El Anillo te tienta          number, period, title
    Subreglas                            label (fr "Sous-règles", en "Subrules"): the language
    <paragraph>                          one paragraph per subrule: 701.54a, 701.54b, …
    Otras reglas de este apartado        label: the sibling list follows
    - 701.1

Decisions this module makes (see FORMATS.md section 2):

- The page language is read from the labels, which are fixed strings per language
  (``langs.info().subrules_label`` / ``siblings_label``); they are compared folded (case, accents
  and typography ignored). Two labels of different languages on one page are an error.
- Letters are not printed, so they are assigned in order, skipping ``l`` and ``o``
  (``numbers.subrule_letter``); a 25th subrule has no letter left and is an error.
- A paragraph starting ``Example:`` / ``Exemple :`` / ``Ejemplo:`` belongs to the subrule above
  it, as in the Comprehensive Rules, and does not take a letter.
- Siblings are kept as references (``RulePageDocument.siblings``), never as rules: they may not
  exist in any loaded edition.
- Provenance is ``official`` and ``follows_edition`` None: no page seen so far carries a
  machine-translation notice or names the edition it follows.
"""

from __future__ import annotations

import re
from typing import cast

from kb.errors import ParseError
from kb.langs import LANGS, fold, info

from .numbers import SUBRULE_LETTERS, kind_of, subrule_letter
from .records import Lang, RulePageDocument, RuleRecord

_NUMBER_LINE = re.compile(r"^(?P<number>\d{3}\.\d{1,3})\.\s+(?P<title>\S.*?)\s*$")
_SIBLING = re.compile(r"^[-–—•*]\s*(?P<number>\d{3}\.\d{1,3})\.?$")
_EXAMPLE = re.compile(r"^(?:example|exemple|ejemplo)\s*:\s*(?P<text>.*)$", re.IGNORECASE)
_SUBRULES_LABELS: dict[str, str] = {fold(info(lang).subrules_label): lang for lang in LANGS}
_SIBLINGS_LABELS: dict[str, str] = {fold(info(lang).siblings_label): lang for lang in LANGS}


def _label(line: str, labels: dict[str, str]) -> str | None:
    """Return the language of a label line (``Sous-règles``, ``subrules:``), or None."""
    return labels.get(fold(line).rstrip(":").strip())


def looks_like(text: str) -> bool:
    """Cheap sniffing: a ``NNN.N. Title`` line, then a label-like line or a sibling list.

    A misspelt label still counts as label-like (short, not a sentence), so that the parser,
    not the detector, reports it with its line.
    """
    lines = [line.strip() for line in text.lstrip("\ufeff").splitlines()[:200] if line.strip()]
    if len(lines) < 2 or not _NUMBER_LINE.match(lines[0]):
        return False
    second = lines[1]
    if len(second) <= 40 and not second[0].isdigit() and not second.endswith((".", ":", ";")):
        return True
    return any(_label(line, _SIBLINGS_LABELS) or _SIBLING.match(line) for line in lines[1:])


def parse(text: str, path: str = "<text>") -> RulePageDocument:
    """Parse a rule page; raise ParseError naming the line of the first problem."""
    numbered = [
        (n, line.strip())
        for n, line in enumerate(text.lstrip("\ufeff").splitlines(), 1)
        if line.strip()
    ]
    if not numbered:
        raise ParseError(path, 1, "empty file")
    first_line, first = numbered[0]
    match = _NUMBER_LINE.match(first)
    if not match or _kind_or_none(match["number"]) != "rule":
        raise ParseError(
            path,
            first_line,
            f"bad number line {_shorten(first)!r}: a rule page starts with e.g. "
            "'701.54. The Ring Tempts You'",
        )
    number, title = match["number"], match["title"]
    if len(numbered) < 2 or _label(numbered[1][1], _SUBRULES_LABELS) is None:
        line_no, line = numbered[1] if len(numbered) > 1 else (first_line, "")
        expected = ", ".join(repr(info(lang).subrules_label) for lang in LANGS)
        raise ParseError(
            path,
            line_no,
            f"unknown label {_shorten(line)!r} after the number line (expected {expected})",
        )
    label_line, label = numbered[1]
    lang = cast(Lang, _label(label, _SUBRULES_LABELS))
    page = RulePageDocument(language=lang, number=number, title=title)
    rest = numbered[2:]
    end = next((i for i, (_, line) in enumerate(rest) if _label(line, _SIBLINGS_LABELS)), len(rest))
    page.subrules = _subrules(rest[:end], number, path)
    if not page.subrules:
        raise ParseError(path, label_line, f"rule page has no subrules (rule {number})")
    if end < len(rest):
        page.siblings = _siblings(rest[end:], lang, number.split(".")[0], path)
    return page


def _kind_or_none(number: str) -> str | None:
    """Return ``numbers.kind_of(number)``, or None when it is not a rule number at all."""
    try:
        return kind_of(number)
    except ValueError:
        return None


def _subrules(paragraphs: list[tuple[int, str]], number: str, path: str) -> list[RuleRecord]:
    """Letter the paragraphs in order; ``Example:`` paragraphs attach to the subrule above."""
    subrules: list[RuleRecord] = []
    for line_no, paragraph in paragraphs:
        example = _EXAMPLE.match(paragraph)
        if example:
            if not subrules:
                raise ParseError(path, line_no, "an example comes before the first subrule")
            subrules[-1].examples.append(example["text"].strip())
            continue
        if _SIBLING.match(paragraph):
            raise ParseError(
                path,
                line_no,
                f"sibling {paragraph!r} before the label {info('en').siblings_label!r} "
                "(or its French or Spanish form)",
            )
        try:
            letter = subrule_letter(len(subrules))
        except ValueError:
            raise ParseError(
                path,
                line_no,
                f"rule {number} has more than {len(SUBRULE_LETTERS)} subrules: the letters a–z "
                "(without l and o) run out",
            ) from None
        subrules.append(
            RuleRecord(
                number=f"{number}{letter}",
                kind="subrule",
                text=paragraph,
                parent=number,
                line=line_no,
            )
        )
    return subrules


def _siblings(lines: list[tuple[int, str]], lang: Lang, chapter: str, path: str) -> list[str]:
    """Read the sibling list after its label; anything but ``- NNN.N`` lines is junk."""
    (label_line, label), *items = lines
    label_lang = _label(label, _SIBLINGS_LABELS)
    if label_lang != lang:
        raise ParseError(
            path,
            label_line,
            f"label {label!r} is not in the page's language ({lang}): "
            f"expected {info(lang).siblings_label!r}",
        )
    siblings: list[str] = []
    for line_no, line in items:
        match = _SIBLING.match(line)
        if not match or _kind_or_none(match["number"]) != "rule":
            raise ParseError(
                path,
                line_no,
                f"unexpected line {_shorten(line)!r} in the sibling list (expected '- 701.1')",
            )
        if not match["number"].startswith(chapter + "."):
            raise ParseError(
                path, line_no, f"sibling {match['number']} is not in section {chapter}"
            )
        if match["number"] in siblings:
            raise ParseError(path, line_no, f"sibling {match['number']} listed twice")
        siblings.append(match["number"])
    return siblings


def _shorten(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


__all__ = ["looks_like", "parse"]

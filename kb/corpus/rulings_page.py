"""Rulings pages (seeds ``000`` and ``003``): a header, dated rulings, optional attribute lines.

The page is one card's official clarifications as a multilingual site publishes them::

    Clarifications officielles de Wizards of the Coast. La traduction FR ci-dessous est …
    16 juin 2023 · source : wotc
    <ruling text, one or more lines, until the next date line>
    …
    CMC 4

Decisions this module makes (see FORMATS.md section 1):

- The page language comes from the header's words scored per language (``langs.info().header_words``
  plus a ``FR``/``ES`` code in the header), never from one exact sentence, so a reworded header
  still parses. A first line that scores for no language is an error, not a guess.
- Every paragraph of a ruling is language-detected on its own. English is the original
  (provenance ``official``); a French or Spanish paragraph is the site's translation, which it
  only ever publishes machine-made, so it is stored as ``machine`` whether or not the header
  repeats the notice. Paragraphs of one language are joined with ``\\n`` in page order.
- A ruling that carries only a translation is kept (its ``texts`` hold that language alone): the
  text is still the page's only statement of the ruling, and dropping it would hide data.
- Attribute lines (``CMC 4``) are recognised only at the very end of the page, after the last
  ruling's text, and only in the strict shape ``UPPERCASE-KEY value`` with no sentence
  punctuation at the end, so a one-line ruling is never mistaken for one.
- The page id is the file stem, ``NNN_<16 hex>`` (``003_c5873bb13b9e08b7``): that is how the
  rulings site names its pages and how users quote them; lookups also accept the hex alone.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import PurePath
from typing import cast

from kb.errors import ParseError
from kb.langs import LANGS, detect_language, fold, info, language_name, parse_long_date

from .records import Lang, RulingRecord, RulingsPageDocument

# `16 juin 2023 · source : wotc`, `June 16, 2023 · source: wotc`,
# `16 de junio de 2023 · fuente: wotc`
_DATE_LINE = re.compile(
    r"^(?P<date>[^·]*?\d{4})\s*·\s*(?P<label>[^\W\d_]+)\s*:\s*(?P<source>\S.*?)\s*$"
)
# Something that starts like a date line: a year then the middle dot, within the first words.
_DATE_LIKE = re.compile(r"^[^·]{0,40}\d{4}\s*·")
_SOURCE_LABELS = frozenset(fold(info(lang).source_label) for lang in LANGS)
# `CMC 4`: an upper-case key, one space, a short value that does not end like a sentence.
_ATTRIBUTE = re.compile(
    r"^(?P<key>[A-Z][A-Z0-9_]{1,15})[ \t]+(?P<value>[^\s.!?:;,](?:[^\t]{0,38}[^\s.!?:;,\"')])?)$"
)
_MAX_HEADER = 400  # a header is one sentence or two; a longer first line is something else
_HEADER_TOKEN = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_HEADER_WORDS = {lang: frozenset(fold(w) for w in info(lang).header_words) for lang in LANGS}
_LANG_CODE = re.compile(r"\b(?P<code>EN|FR|ES)\b")
# Words that make a header a machine-translation notice, folded (accents and case removed).
_TRANSLATION_WORDS = frozenset({"traduction", "traduccion", "translation", "translated"})
_MACHINE_WORDS = frozenset(
    {"automatiquement", "automaticamente", "automatically", "automatic", "machine", "ia", "ai"}
)
# The header must name who the rulings are from or what they are, in some language.
_HEADER_ANCHORS = frozenset(
    {"wizards", "clarifications", "aclaraciones", "rulings", "officielles", "oficiales", "official"}
)


def is_date_line(line: str) -> bool:
    """Tell whether a line has the shape of a ruling's date line (any language)."""
    match = _DATE_LINE.match(line.strip())
    return bool(match) and fold(match["label"]) in _SOURCE_LABELS


def header_language(header: str) -> tuple[Lang, bool] | None:
    """Return (page language, machine-translation notice) read from a header, or None.

    Scores each language's header words rather than matching one sentence, because the site
    words its header slightly differently per language and may reword it.
    """
    if len(header) > _MAX_HEADER or header.lstrip().startswith(("{", "[")):
        return None
    words = {fold(w) for w in _HEADER_TOKEN.findall(header)}
    words |= {part for word in words for part in word.split("-")}
    if not words & _HEADER_ANCHORS:
        return None
    scores = {lang: float(len(words & _HEADER_WORDS[lang])) for lang in LANGS}
    code = _LANG_CODE.search(header)
    if code:
        scores[code["code"].lower()] += 2.0
    best = max(LANGS, key=lambda lang: (scores[lang], lang == "en"))
    if scores[best] < 2:
        return None
    notice = bool(words & _TRANSLATION_WORDS) and bool(words & _MACHINE_WORDS)
    return cast(Lang, best), notice


def looks_like(text: str) -> bool:
    """Cheap sniffing: a recognisable header, or a date line among the first few lines."""
    lines = [line for line in text.lstrip("\ufeff").splitlines()[:6] if line.strip()]
    if not lines:
        return False
    if header_language(lines[0]) is not None:
        return True
    return any(is_date_line(line) for line in lines[:4])


def page_id_from_path(path: str) -> str:
    """Return the page id of a file: its stem, ``NNN_<16 hex>`` for the site's pages."""
    return PurePath(path).stem


def parse(text: str, path: str = "<text>") -> RulingsPageDocument:
    """Parse a rulings page; raise ParseError naming the line of the first problem."""
    lines = text.lstrip("\ufeff").splitlines()
    numbered = [(n, line.strip()) for n, line in enumerate(lines, 1) if line.strip()]
    if not numbered:
        raise ParseError(path, 1, "empty file")
    header_line, header = numbered[0]
    found = header_language(header)
    if found is None and is_date_line(header):
        raise ParseError(
            path,
            header_line,
            "missing header: the page starts with a date line, but a rulings page starts with a "
            "line such as 'Official clarifications from Wizards of the Coast.'",
        )
    if found is None:
        raise ParseError(
            path,
            header_line,
            f"unknown header {_shorten(header)!r}: a rulings page starts with a line such as "
            "'Official clarifications from Wizards of the Coast.' (or its French or Spanish form)",
        )
    lang, notice = found
    page = RulingsPageDocument(
        page_id=page_id_from_path(path),
        language=lang,
        machine_translation_notice=notice,
        header=header,
    )
    blocks = _split_rulings(numbered[1:], path)
    if not blocks:
        raise ParseError(
            path, header_line, "rulings page has no rulings (no date line follows the header)"
        )
    page.attributes = _take_attributes(blocks[-1][1], path)
    for date_line, body in blocks:
        page.rulings.append(_ruling(date_line, body, lang, path))
    return page


def _split_rulings(
    numbered: list[tuple[int, str]], path: str
) -> list[tuple[tuple[int, str], list[tuple[int, str]]]]:
    """Group lines into (date line, text lines) blocks; text before the first date is an error."""
    blocks: list[tuple[tuple[int, str], list[tuple[int, str]]]] = []
    for number, line in numbered:
        if is_date_line(line):
            blocks.append(((number, line), []))
        elif _DATE_LIKE.match(line):
            raise ParseError(
                path,
                number,
                f"malformed date line {_shorten(line)!r} "
                "(expected e.g. '16 juin 2023 · source : wotc' or 'June 16, 2023 · source: wotc')",
            )
        elif not blocks:
            raise ParseError(
                path,
                number,
                f"text before the first date line: {_shorten(line)!r} "
                "(expected e.g. 'June 16, 2023 · source: wotc')",
            )
        else:
            blocks[-1][1].append((number, line))
    return blocks


def _take_attributes(body: list[tuple[int, str]], path: str) -> dict[str, str]:
    """Pop the trailing ``KEY value`` lines off the last ruling and return them in page order."""
    trailing: list[tuple[int, str]] = []
    while body and _ATTRIBUTE.match(body[-1][1]):
        trailing.insert(0, body.pop())
    attributes: dict[str, str] = {}
    for number, line in trailing:
        match = _ATTRIBUTE.match(line)
        assert match is not None
        key, value = match["key"], match["value"].strip()
        if key in attributes:
            raise ParseError(path, number, f"attribute {key} given twice")
        attributes[key] = value
    return attributes


def _ruling(
    date_line: tuple[int, str], body: list[tuple[int, str]], lang: Lang, path: str
) -> RulingRecord:
    """Build one ruling: parse its date in the page language, detect each paragraph's language."""
    number, line = date_line
    match = _DATE_LINE.match(line)
    assert match is not None
    date = _parse_date(match["date"], lang, path, number)
    if not body:
        raise ParseError(path, number, "ruling has no text (a date line must be followed by text)")
    source = match["source"].strip().lower()
    paragraphs: dict[str, list[str]] = {}
    for _, paragraph in body:
        paragraphs.setdefault(detect_language(paragraph), []).append(paragraph)
    texts = {code: "\n".join(parts) for code, parts in paragraphs.items()}
    provenance = {code: ("official" if code == "en" else "machine") for code in texts}
    return RulingRecord(date=date, source=source, texts=texts, provenance=provenance, line=number)


def _parse_date(raw: str, lang: Lang, path: str, line: int) -> dt.date:
    """Parse a date in the page language; a date in another language is an error that says so."""
    try:
        return parse_long_date(raw, lang)
    except ValueError as error:
        for other in LANGS:
            if other == lang:
                continue
            try:
                parse_long_date(raw, other)
            except ValueError:
                continue
            raise ParseError(
                path,
                line,
                f"date {raw.strip()!r} is written in {language_name(other, 'en')} but the page is "
                f"{language_name(lang, 'en')}",
            ) from None
        reason = str(error)
        if reason.startswith("unknown month"):
            reason += f" (the page is {language_name(lang, 'en')}: expected one of its month names)"
        raise ParseError(path, line, reason) from None


def _shorten(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


__all__ = ["header_language", "is_date_line", "looks_like", "page_id_from_path", "parse"]

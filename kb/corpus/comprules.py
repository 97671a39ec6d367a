"""The official Comprehensive Rules text (``MagicCompRules_YYYYMMDD.txt``, FORMATS.md section 3).

::

    Magic: The Gathering Comprehensive Rules
    These rules are effective as of January 16, 2026.     the edition's date
    Contents  1. Game Concepts  100. General  …           skipped: the body starts at the
    1. Game Concepts                                      SECOND part-1 heading
    100. General                                          chapter
    100.1. These Magic rules apply …                      rule (trailing period)
    100.1a A two-player game is …                         subrule (no period)
    Example: …                                            belongs to the number above (after
                                                          a blank line too: 701.67b)
    Glossary  term / definition lines / blank line        until the second ``Credits``

Decisions this module makes (the tests check each against the three real editions):

- Lines are split on CRLF, bare CR and LF only, so line numbers are those a text editor shows.
  ``\\r\\r\\n`` (2026 edition) is a CR then a CRLF: two line breaks, as ``str.splitlines`` and
  editors count it. Unlike ``splitlines`` we do not break at ``\\v \\f \\x1c-\\x1e \\x85 U+2028
  U+2029``, which editors show inside a line; the real files contain none of them.
- Slips in the numbering are accepted: a subrule with a period (``119.1d.``) and a rule without
  one (``606.5 If …``). Any other line starting ``digits.`` must be a valid number, come after
  the previous number in document order, and have its parent above it, or it is an error.
- A rule is *title only* (``701.54. The Ring Tempts You``: ``title`` set, ``text`` empty) when it
  has subrules, is one line without examples, and does not end a sentence: its last character,
  closing quotes and brackets aside, is not ``.`` or ``:``. That keeps ``For Mirrodin!`` and
  ``∞ (Infinity)`` as titles and ``There are twelve special actions:`` as text.
- Continuation lines (a few indented second paragraphs, e.g. 205.4c) are appended to the rule's
  text with ``\\n``, leading indentation dropped; right under an ``Example:`` line they extend it.
- Glossary: senses numbered ``1.`` ``2.`` when the first definition line is ``1. …``; an
  unnumbered line after them (``See rule 113 …``) joins the last sense with ``\\n`` so that
  ``GlossaryRecord.definition`` prints as the file does. A lone ``See X.`` (not ``See rule``/
  ``See section``) is a redirect. ``Term (Obsolete)``, or a one-sense definition starting
  ``(Obsolete)`` (``Placed``), marks the term obsolete; the marker is removed. ``(Obsolete)``
  before one sense of a living term (``Play`` 3–5) stays in that sense.
- A file that stops before its ``Glossary`` or ``Credits`` heading is an error naming its last
  non-blank line: half an edition in the database is worse than none.
- Typography is kept; trailing spaces are stripped.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from dataclasses import dataclass, field

from kb.errors import ParseError
from kb.langs import parse_long_date

from .numbers import SUBRULE_LETTERS, kind_of, parent_of, sort_key
from .records import CompRulesDocument, GlossaryRecord, RuleRecord

log = logging.getLogger(__name__)

TITLE_LINE = "Magic: The Gathering Comprehensive Rules"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")  # as kb.corpus sniffs bytes; ESC aside
_EFFECTIVE = re.compile(r"^These rules are effective as of (?P<date>.+?)\.?$")
_NUMBERED = re.compile(r"^(?P<number>\d+\.\d+[a-z]?|\d+)(?P<dot>\.?)(?:\s+(?P<text>.*))?$")
_FIRST_PART = re.compile(r"^1\.\s+\S")
_EXAMPLE = "Example:"
_SENSE = re.compile(r"^(?P<n>\d+)\.\s+(?P<text>.*)$")
_REDIRECT = re.compile(r"^See (?!rules?\b|section\b)(?P<target>.+)\.$")
_OBSOLETE = "(Obsolete)"
_CLOSERS = "”’\"')]"
# looks_like(): lines start after a CR or LF (``re.M`` would not see bare-CR line starts).
_SNIFF_DATE = re.compile(r"(?:^|[\r\n])\s*These rules are effective as of ")
_SNIFF_RULE = re.compile(r"(?:^|[\r\n])\d{3}\.\d+\.? \S")


def looks_like(text: str) -> bool:
    """Tell cheaply (first 64 KB) whether decoded text is a Comprehensive Rules document."""
    head = text[:65536].lstrip("\ufeff \t\r\n")
    if _LINE_BREAK.split(head, maxsplit=1)[0].strip() == TITLE_LINE:
        return True
    return bool(_SNIFF_DATE.search(head) and _SNIFF_RULE.search(head))


def parse(text: str, path: str = "<text>") -> CompRulesDocument:
    """Parse a whole Comprehensive Rules text; raise ParseError naming the first bad line."""
    reader = _Reader(text.removeprefix("\ufeff"), str(path))
    try:
        return reader.read()
    except (ValueError, IndexError, KeyError) as exc:  # a bug must not escape as a crash
        raise ParseError(path, reader.lineno, f"unreadable Comprehensive Rules: {exc}") from exc


def _shorten(line: str, width: int = 60) -> str:
    """Cut a line for an error message (a junk line may be megabytes long)."""
    return line if len(line) <= width else line[: width - 1] + "…"


def _ends_sentence(text: str) -> bool:
    """Tell whether a rule's text ends like a sentence (``.`` or ``:`` before closers)."""
    return text.rstrip(_CLOSERS).endswith((".", ":"))


@dataclass
class _Open:
    """A rule being read: its record, and its text and examples as lists of lines."""

    record: RuleRecord
    text: list[str] = field(default_factory=list)
    examples: list[list[str]] = field(default_factory=list)
    in_example: bool = False  # the last non-blank line was (part of) an example


class _Reader:
    """One parse: the lines, the path, and the line being read (for error messages)."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.lines = [line.rstrip() for line in _LINE_BREAK.split(text)]
        self.lineno = 1

    def error(self, line: int, reason: str) -> ParseError:
        """Build the ParseError of this file at a 1-based line."""
        return ParseError(self.path, line, reason)

    def find(self, wanted: str, start: int) -> int | None:
        """Return the index of the first line equal to ``wanted`` (spaces aside) from ``start``."""
        for i in range(start, len(self.lines)):
            if self.lines[i].strip() == wanted:
                return i
        return None

    def last_line(self) -> int:
        """The 1-based number of the last non-blank line (1 for an empty file)."""
        for i in range(len(self.lines) - 1, -1, -1):
            if self.lines[i].strip():
                return i + 1
        return 1

    def read(self) -> CompRulesDocument:
        """Locate the sections, then read the date, the rules and the glossary."""
        junk = _CONTROL.search(self.text)
        if junk:
            line = len(_LINE_BREAK.findall(self.text, 0, junk.start())) + 1
            raise self.error(line, f"binary data (control character U+{ord(junk[0]):04X})")
        date = self.effective_date()
        body = self.body_start()
        glossary = self.find("Glossary", body)
        if glossary is None:
            raise self.error(self.last_line(), "the file ends before the Glossary: truncated?")
        credits = self.find("Credits", glossary + 1)
        if credits is None:
            raise self.error(self.last_line(), "the glossary has no Credits after it: truncated?")
        rules = self.rules(body, glossary)
        entries = self.glossary(glossary + 1, credits)
        if not entries:
            raise self.error(glossary + 1, "the glossary is empty")  # the heading's line
        return CompRulesDocument(language="en", effective_date=date, rules=rules, glossary=entries)

    def effective_date(self) -> dt.date:
        """Read the first ``These rules are effective as of <date>.`` line."""
        for i, line in enumerate(self.lines):
            match = _EFFECTIVE.match(line.strip())
            if match:
                self.lineno = i + 1
                try:
                    return parse_long_date(match["date"][:100], "en")
                except ValueError as exc:  # the date was cut to 100 characters: short message
                    raise self.error(i + 1, f"bad effective date: {exc}") from None
        raise self.error(1, "no 'These rules are effective as of <date>.' line")

    def body_start(self) -> int:
        """Index of the body's first line: the part-1 heading after the contents' one."""
        contents = self.find("Contents", 0)
        start = 0 if contents is None else contents + 1
        first = next(
            (i for i in range(start, len(self.lines)) if _FIRST_PART.match(self.lines[i])), None
        )
        if first is None:
            raise self.error(self.last_line(), "no body: no '1. …' part heading")
        if contents is None:
            return first
        heading = self.lines[first].strip()
        body = self.find(heading, first + 1)
        if body is None:
            reason = f"no body: the contents' {_shorten(heading)!r} never comes again"
            raise self.error(first + 1, reason)
        return body

    def rules(self, start: int, end: int) -> list[RuleRecord]:
        """Read the numbered lines, examples and continuations between two line indexes."""
        opened: list[_Open] = []
        lines_of: dict[str, int] = {}
        current: _Open | None = None
        previous_key = ""
        for i in range(start, end):
            line = self.lines[i]
            self.lineno = i + 1
            if not line.strip():
                continue
            match = _NUMBERED.match(line)
            if match and ("." in match["number"] or match["dot"]):
                current = self.numbered(match, i + 1, lines_of, previous_key)
                previous_key = sort_key(current.record.number)
                lines_of[current.record.number] = i + 1
                opened.append(current)
            elif current is None:
                raise self.error(i + 1, f"text before the first rule: {_shorten(line)!r}")
            elif line.startswith(_EXAMPLE):
                current.examples.append([line[len(_EXAMPLE):].strip()])
                current.in_example = True
            elif current.in_example and self.lines[i - 1].strip():
                current.examples[-1].append(line.strip())
            else:
                current.text.append(line.strip())
                current.in_example = False
        if not opened:
            raise self.error(start + 1, "no rules in the body")
        return _close(opened)

    def numbered(
        self, match: re.Match[str], line: int, lines_of: dict[str, int], previous_key: str
    ) -> _Open:
        """Check one numbered line (number, order, parent) and open its record."""
        number, text = match["number"], (match["text"] or "").strip()
        try:
            kind = kind_of(number)
        except ValueError:
            raise self.error(line, f"{_shorten(number)!r} is not a rule number") from None
        if kind == "subrule" and number[-1] not in SUBRULE_LETTERS:
            raise self.error(line, f"subrule {number}: letters skip l and o")
        if not text:
            raise self.error(line, f"{kind} {number} has no text")
        if number in lines_of:
            raise self.error(line, f"duplicate number {number} (first at line {lines_of[number]})")
        parent = parent_of(number)
        if parent is not None and parent not in lines_of:
            raise self.error(line, f"{kind} {number} comes without its parent {parent} above it")
        if sort_key(number) <= previous_key:
            raise self.error(line, f"{kind} {number} is out of order")
        if kind in ("rule", "subrule") and (kind == "rule") != bool(match["dot"]):
            log.debug("%s:%d: numbering slip %r accepted", self.path, line, number + match["dot"])
        record = RuleRecord(number=number, kind=kind, parent=parent, line=line)
        if kind in ("part", "chapter"):
            record.title = text
            return _Open(record)
        return _Open(record, text=[text])

    def glossary(self, start: int, end: int) -> list[GlossaryRecord]:
        """Read the blank-line separated glossary entries between two line indexes."""
        entries: list[GlossaryRecord] = []
        first_line: dict[str, int] = {}
        paragraph: list[tuple[int, str]] = []
        for i in range(start, end + 1):
            line = self.lines[i].strip() if i < end else ""
            self.lineno = i + 1
            if line:
                paragraph.append((i + 1, line))
                continue
            if not paragraph:
                continue
            entry = self.entry(paragraph)
            if entry.term in first_line:
                raise self.error(
                    entry.line,
                    f"glossary term {_shorten(entry.term)!r} repeats line {first_line[entry.term]}",
                )
            first_line[entry.term] = entry.line
            entries.append(entry)
            paragraph = []
        return entries

    def entry(self, paragraph: list[tuple[int, str]]) -> GlossaryRecord:
        """Read one glossary entry: term line, then senses, a redirect or a definition."""
        line, term = paragraph[0]
        self.lineno = line
        obsolete = term.endswith(_OBSOLETE)
        if obsolete:
            term = term[: -len(_OBSOLETE)].rstrip()
        if not term:
            raise self.error(line, "glossary entry without a term")
        if len(paragraph) < 2:
            raise self.error(line, f"glossary term {_shorten(term)!r} has no definition")
        senses: list[list[str]] = []
        first = _SENSE.match(paragraph[1][1])
        numbered = first is not None and first["n"] == "1"
        for def_line, text in paragraph[1:]:
            sense = _SENSE.match(text) if numbered else None
            if sense and sense["n"] == str(len(senses) + 1):
                senses.append([sense["text"]])
            elif sense:
                raise self.error(
                    def_line, f"sense {_shorten(sense['n'])} follows sense {len(senses)}"
                )
            elif senses:
                senses[-1].append(text)
            else:
                senses.append([text])
        joined = ["\n".join(parts) for parts in senses]
        redirect = _REDIRECT.match(joined[0]) if not numbered and len(paragraph) == 2 else None
        if redirect:
            target = redirect["target"]
            return GlossaryRecord(term=term, redirect=target, obsolete=obsolete, line=line)
        if not numbered and joined[0].startswith(_OBSOLETE + " "):
            obsolete = True
            joined[0] = joined[0][len(_OBSOLETE) :].lstrip()
        return GlossaryRecord(term=term, senses=joined, obsolete=obsolete, line=line)


def _close(opened: list[_Open]) -> list[RuleRecord]:
    """Join each rule's lines, and move the text of title-only rules into their title."""
    with_subrules = {o.record.parent for o in opened if o.record.kind == "subrule"}
    records = []
    for item in opened:
        record = item.record
        record.text = "\n".join(item.text)
        record.examples = ["\n".join(parts) for parts in item.examples]
        if (
            record.kind == "rule"
            and record.number in with_subrules
            and len(item.text) == 1
            and not record.examples
            and not _ends_sentence(record.text)
        ):
            record.title, record.text = record.text, ""
        records.append(record)
    return records

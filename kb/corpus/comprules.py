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

from .numbers import SUBRULE_LETTERS, kind_of, letter_index, parent_of, sort_key
from .records import CompRulesDocument, GlossaryRecord, ParseWarning, RuleRecord

log = logging.getLogger(__name__)

TITLE_LINE = "Magic: The Gathering Comprehensive Rules"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")  # as kb.corpus sniffs bytes; ESC aside
# "effective as of" since mid-2009, "current as of" before.
_EFFECTIVE = re.compile(r"^These rules are (?:effective|current) as of (?P<date>.+?)\.?$")
_NUMBERED = re.compile(r"^(?P<number>\d+\.\d+[a-z]?|\d+)(?P<dot>\.?)(?:\s+(?P<text>.*))?$")
# ``901.4.All …``: a rule number glued to its text (a slip of 2023 editions).
_GLUED = re.compile(r"^(?P<number>\d{3}\.\d+[a-z]?)\.(?P<text>[A-Z“\"(].*)$")
# ``606. 8b`` (2005-10-01): a space inside a subrule number; ``306.b`` (2008-10-01): no rule.
_SPACED = re.compile(r"^(?P<chapter>\d{3})\.\s+(?P<rest>\d+[a-z]?)(?P<dot>\.?)\s+(?P<text>\S.*)$")
_NO_RULE = re.compile(r"^(?P<chapter>\d{3})\.(?P<letter>[a-z])(?P<dot>\.?)\s+(?P<text>\S.*)$")
_REFERENCE_END = re.compile(r"\b(?:rules?|and|or|to|of|in|see|See)$")
_PART = re.compile(r"^[1-9]\.\s+\S")
_RULE_LINE = re.compile(r"^\s*\d{3}\.\d+[a-z]?\.?\s+\S")
_EXAMPLE = "Example:"
_SENSE = re.compile(r"^(?P<n>\d+)\.\s+(?P<text>.*)$")
_REDIRECT = re.compile(r"^See (?!rules?\b|section\b)(?P<target>.+)\.$")
_OBSOLETE = "(Obsolete)"
_CLOSERS = "”’\"')]"
_STOPS = (".", ":", "?", "!", ";")  # a line ending so was not cut short by hand
# looks_like(): lines start after a CR or LF (``re.M`` would not see bare-CR line starts).
_SNIFF_DATE = re.compile(r"(?:^|[\r\n])\s*These rules are (?:effective|current) as of ")
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
        self.opened: list[_Open] = []
        self.lines_of: dict[str, int] = {}
        self.warnings: list[ParseWarning] = []
        self.chapter: str | None = None
        self.rule: str | None = None
        self.first_rule = 0

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
        glossary = self.find("Glossary", self.first_rule)
        if glossary is None:
            raise self.error(self.last_line(), "the file ends before the Glossary: truncated?")
        credits = self.find("Credits", glossary + 1)
        if credits is None:
            raise self.error(self.last_line(), "the glossary has no Credits after it: truncated?")
        rules = self.rules(body, glossary)
        entries = self.glossary(glossary + 1, credits)
        if not entries:
            raise self.error(glossary + 1, "the glossary is empty")  # the heading's line
        return CompRulesDocument(
            language="en",
            effective_date=date,
            rules=rules,
            glossary=entries,
            warnings=self.warnings,
        )

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
        raise self.error(1, "no 'These rules are effective (or current) as of <date>.' line")

    def body_start(self) -> int:
        """Index of the body's first line: the last part heading before the first rule line.

        A contents section lists parts and chapters but never a rule (``100.1.``), whatever its
        shape: 2009-07-11 names part 1 differently in its contents and its body, some have none.
        """
        first_rule = next((i for i, line in enumerate(self.lines) if _RULE_LINE.match(line)), None)
        if first_rule is None:
            raise self.error(self.last_line(), "no body: no numbered rule such as '100.1. …'")
        self.first_rule = first_rule
        part = next((i for i in range(first_rule - 1, -1, -1) if _PART.match(self.lines[i])), None)
        if part is None:
            reason = "no body: no '1. …' part heading before the first rule"
            raise self.error(first_rule + 1, reason)
        return part

    def split_number(self, line: str, lineno: int) -> tuple[str, str, str] | None:
        """(number, trailing dot, text) of a numbered line, or None for a line of text.

        Parts and chapters start the line; rules and subrules may be indented (`` 611.2.``).
        Three slips of the official files are read with a warning: a number glued to its text
        (``901.4.All``), a space inside it (``606. 8b``), a subrule without its rule (``306.b``).
        """
        bare = line.lstrip()
        match = _NUMBERED.match(bare)
        if match and "." not in match["number"] and (bare != line or not match["dot"]):
            match = None
        chapter = self.current_chapter()
        spaced = _SPACED.match(line)
        if match and spaced and chapter == spaced["chapter"] and match["number"] == chapter:
            number = f"{chapter}.{spaced['rest']}"
            self.warn(
                lineno,
                "space_in_number",
                f"'{chapter}. {spaced['rest']}' read as {number}: a space inside the number",
            )
            return number, spaced["dot"], spaced["text"].strip()
        if match:
            return match["number"], match["dot"], (match["text"] or "").strip()
        glued = _GLUED.match(bare)
        if glued:
            self.warn(
                lineno,
                "no_space_after_number",
                f"{_shorten(bare, 24)!r} read as rule {glued['number']} followed by its "
                "text: no space after the number",
            )
            return glued["number"], ".", glued["text"].strip()
        lost = _NO_RULE.match(bare)
        rule = self.current_rule()
        if lost and rule is not None and rule.partition(".")[0] == lost["chapter"]:
            number = rule + lost["letter"]
            self.warn(
                lineno,
                "rule_missing_from_number",
                f"'{lost['chapter']}.{lost['letter']}' kept as {number}: the rule is missing "
                "from the number",
            )
            return number, lost["dot"], lost["text"].strip()
        return None

    def current_chapter(self) -> str | None:
        """The number of the last chapter heading read."""
        return self.chapter

    def current_rule(self) -> str | None:
        """The number of the last rule read since the last heading (a subrule's due parent)."""
        return self.rule

    def track(self, record: RuleRecord) -> None:
        """Remember the chapter and rule a record opens, for the lines that follow."""
        if record.kind in ("part", "chapter"):
            self.rule = None
            self.chapter = record.number if record.kind == "chapter" else None
        elif record.kind == "rule":
            self.rule = record.number

    def wrapped(self, index: int, number: str) -> bool:
        """Tell whether a line that starts with a number continues the line above it.

        Editions of 2003-2004 wrap their lines: ``See rule`` / ``103.4. If a player …`` is one
        sentence. A number is read as text when the line above is not blank, does not end a
        sentence, and ends with ``rule``/``rules`` or leaves the number misplaced.
        """
        above = self.lines[index - 1].strip() if index > 0 else ""
        if not above or _ends_sentence(above) or not self.opened:
            return False
        if _REFERENCE_END.search(above):
            return True
        try:
            return self.problem(number, kind_of(number)) is not None
        except ValueError:
            return True

    def warn(self, line: int, kind: str, message: str) -> None:
        """Record a defect of the file that kb repaired, and log it."""
        log.info("%s:%d: %s", self.path, line, message)
        self.warnings.append(ParseWarning(line=line, kind=kind, message=message))

    def rules(self, start: int, end: int) -> list[RuleRecord]:
        """Read the numbered lines, examples and continuations between two line indexes."""
        current: _Open | None = None
        for i in range(start, end):
            line = self.lines[i]
            self.lineno = i + 1
            if not line.strip():
                continue
            numbered = self.split_number(line, i + 1)
            if numbered is not None and self.wrapped(i, numbered[0]):
                numbered = None
            if numbered is not None:
                opened = self.numbered(*numbered, i + 1)
                if opened is not None:
                    current = opened
                    self.opened.append(current)
                    self.track(current.record)
                    self.lines_of[current.record.number] = i + 1
            elif current is None:
                raise self.error(i + 1, f"text before the first rule: {_shorten(line)!r}")
            elif line.lstrip().startswith(_EXAMPLE):
                current.examples.append([line.lstrip()[len(_EXAMPLE) :].strip()])
                current.in_example = True
            elif current.in_example and self.lines[i - 1].strip():
                _extend(current.examples[-1], line.strip(), self.lines[i - 1])
            else:
                _extend(current.text, line.strip(), self.lines[i - 1])
                current.in_example = False
        if not self.opened:
            raise self.error(start + 1, "no rules in the body")
        return _close(self.opened)

    def numbered(self, number: str, dot: str, text: str, line: int) -> _Open | None:
        """Check one numbered line (number, order, parent) and open its record.

        None means the line repeats a heading already read (a warning says so).
        """
        try:
            kind = kind_of(number)
        except ValueError:
            raise self.error(line, f"{_shorten(number)!r} is not a rule number") from None
        if kind == "subrule" and number[-1] not in SUBRULE_LETTERS:
            raise self.error(line, f"subrule {number}: letters skip l and o")
        if not text:
            raise self.error(line, f"{kind} {number} has no text")
        if number in self.lines_of and kind in ("part", "chapter"):
            first = self.opened_record(number)
            if first is not None and first.title.casefold() == text.casefold():
                self.warn(
                    line,
                    "duplicate_heading",
                    f"{kind} heading {number}. {_shorten(text, 40)} repeats line "
                    f"{self.lines_of[number]}: the repeat is ignored",
                )
                return None
        problem = self.problem(number, kind)
        if problem is not None and self.renumber_previous(number, kind):
            problem = self.problem(number, kind)
        if problem is not None:
            due = self.due_number(number, kind)
            if due is None or self.problem(due, kind) is not None:
                raise self.error(line, problem)
            before = self.opened[-1].record.number
            self.warn(
                line,
                "number_out_of_sequence",
                f"{number}{dot} kept as {due}: number out of sequence ({before} before it)",
            )
            number = due
        if kind in ("rule", "subrule") and (kind == "rule") != bool(dot):
            log.debug("%s:%d: numbering slip %r accepted", self.path, line, number + dot)
        record = RuleRecord(number=number, kind=kind, parent=parent_of(number), line=line)
        if kind in ("part", "chapter"):
            record.title = text
            return _Open(record)
        return _Open(record, text=[text])

    def opened_record(self, number: str) -> RuleRecord | None:
        """The record already read under a number, if any."""
        return next((o.record for o in self.opened if o.record.number == number), None)

    def problem(self, number: str, kind: str) -> str | None:
        """Why a number cannot come where it is (duplicate, orphan, out of order), or None."""
        if number in self.lines_of:
            return f"duplicate number {number} (first at line {self.lines_of[number]})"
        parent = parent_of(number)
        if parent is not None and parent not in self.lines_of:
            return f"{kind} {number} comes without its parent {parent} above it"
        if self.opened and sort_key(number) <= sort_key(self.opened[-1].record.number):
            return f"{kind} {number} is out of order"
        return None

    def due_number(self, number: str, kind: str) -> str | None:
        """The number a misplaced line most likely stands for, or None if that is unclear.

        A subrule is the next letter of the current rule when its own letter is that letter
        (``432.2b`` under 423.2a) or repeats the subrule before it (a second ``702.30d``); a
        rule is the next rule of the current chapter when only its chapter differs (``501.2.``
        after 510.1).
        """
        if kind == "subrule":
            rule = self.current_rule()
            if rule is None:
                return None
            last = self.opened[-1].record
            index = letter_index(last.number[-1]) + 1 if last.kind == "subrule" else 0
            if index >= len(SUBRULE_LETTERS):
                return None
            due = rule + SUBRULE_LETTERS[index]
            return due if number[-1] == due[-1] or number == last.number else None
        if kind == "rule":
            chapter = self.current_chapter()
            if chapter is None:
                return None
            numbers = [
                int(o.record.number.partition(".")[2])
                for o in self.opened
                if o.record.kind == "rule" and o.record.parent == chapter
            ]
            due = f"{chapter}.{(max(numbers) if numbers else 0) + 1}"
            return due if number.partition(".")[2] == due.partition(".")[2] else None
        return None

    def renumber_previous(self, number: str, kind: str) -> bool:
        """Repair a typo'd rule number (``505.54.`` for 505.5) that makes ``number`` misfit.

        The last line read must be a rule that breaks the sequence of its chapter (505.4 was
        read before it, so 505.5 was due) and the due number must fit ``number`` (its subrule
        505.5a, or the next rule 505.6); the rule is then kept under the due number.
        """
        if not self.opened or self.opened[-1].record.kind != "rule":
            return False
        last = self.opened[-1].record
        chapter = last.number.partition(".")[0]
        earlier = [
            int(o.record.number.partition(".")[2])
            for o in self.opened[:-1]
            if o.record.kind == "rule" and o.record.number.partition(".")[0] == chapter
        ]
        due = f"{chapter}.{(earlier[-1] if earlier else 0) + 1}"
        if due == last.number or due in self.lines_of:
            return False
        fits = parent_of(number) == due if kind == "subrule" else sort_key(due) < sort_key(number)
        if not fits or (kind == "rule" and number.partition(".")[0] != chapter):
            return False
        self.warn(
            last.line,
            "number_out_of_sequence",
            f"{last.number}. kept as {due}: number out of sequence "
            f"({f'{chapter}.{earlier[-1]}' if earlier else chapter} before it, {number} after it)",
        )
        del self.lines_of[last.number]
        last.number = due
        self.lines_of[due] = last.line
        self.track(last)
        return True

    def glossary(self, start: int, end: int) -> list[GlossaryRecord]:
        """Read the blank-line separated glossary entries between two line indexes."""
        paragraphs: list[list[tuple[int, str]]] = [[]]
        for i in range(start, end):
            line = self.lines[i].strip()
            if line:
                paragraphs[-1].append((i + 1, line))
            elif paragraphs[-1]:
                paragraphs.append([])
        paragraphs = [p for p in paragraphs if p]
        entries: list[GlossaryRecord] = []
        first_line: dict[str, int] = {}
        for index, paragraph in enumerate(paragraphs):
            self.lineno = paragraph[0][0]
            after = paragraphs[index + 1] if index + 1 < len(paragraphs) else None
            if entries and entries[-1].senses and self.continues(paragraph, after):
                # 2003 editions go on with an indented table after a blank line.
                entries[-1].senses[-1] += "".join("\n" + text for _, text in paragraph)
                continue
            entry = self.entry(paragraph)
            if entry.term in first_line:
                raise self.error(
                    entry.line,
                    f"glossary term {_shorten(entry.term)!r} repeats line {first_line[entry.term]}",
                )
            first_line[entry.term] = entry.line
            entries.append(entry)
        return entries

    def continues(
        self, paragraph: list[tuple[int, str]], after: list[tuple[int, str]] | None
    ) -> bool:
        """Tell whether a paragraph goes on with the entry above rather than starting one.

        It does when its first line is indented (a term line never is), or when it is one line
        (a term always has a definition) heading an indented paragraph (2003's table of sets).
        """
        if self.indented(paragraph):
            return True
        return len(paragraph) == 1 and after is not None and self.indented(after)

    def indented(self, paragraph: list[tuple[int, str]]) -> bool:
        """Tell whether a paragraph's first line starts with a space or a tab."""
        return self.lines[paragraph[0][0] - 1][:1].isspace()

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


def _extend(paragraphs: list[str], line: str, above: str) -> None:
    """Add a line to a rule's text: a new paragraph, or the rest of a line wrapped by hand.

    2003-2004 editions wrap their lines (``… in conjunction with the word "spell,"`` / ``means
    a spell …``): a line right under one that does not end a sentence continues it.
    """
    if paragraphs and above.strip() and not above.rstrip(_CLOSERS).endswith(_STOPS):
        paragraphs[-1] += " " + line
    else:
        paragraphs.append(line)


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

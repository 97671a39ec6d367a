"""A strict reading of a PO file's syntax, line by line, before Babel reads its content.

Babel's reader is forgiving: an unterminated string becomes an empty one and a duplicate entry
silently replaces the first. A translator's catalog must be refused instead, with the line to
fix, the way ``msgfmt --check`` would; this pass finds those faults. It also reads the header's
``Content-Type`` charset and ``Language`` before Babel does, since Babel decodes the rest of the
file with whatever charset the header names and fails on a nonsense one with a traceback.

Memory stays proportional to the file: the string pattern uses possessive repeats, so that one
50 MB string costs a few copies of itself, not Python's backtracking stack for every character.
"""

from __future__ import annotations

import codecs
import io
import re
from dataclasses import dataclass

_KEYWORD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[ \t]+(".*)$')
_STRING = re.compile(r'^"((?:[^"\\]++|\\.)*+)"[ \t]*$')
_BAD_ESCAPE = re.compile(r'\\(?![\\"ntrabfv]|[0-7]{1,3}|x[0-9A-Fa-f]+)')
_ORDER = {"msgctxt": 0, "msgid": 1, "msgid_plural": 2, "msgstr": 3}
_CHARSET = re.compile(r"charset\s*=\s*([^;\s]*)", re.IGNORECASE)
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*(?:@[A-Za-z0-9]{1,16})?$")


@dataclass(frozen=True)
class SyntaxProblem:
    """A line of the file that is not valid PO, and why."""

    line: int
    reason: str


@dataclass
class _Entry:
    line: int
    keys: dict[str, list[str]]
    last: str | None = None


def _unquote(raw: str) -> str:
    return raw.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")


def check_syntax(text: str) -> list[SyntaxProblem]:
    """Every syntax fault of a PO text: bad lines, strings, keyword order, duplicate entries."""
    problems: list[SyntaxProblem] = []
    seen: dict[tuple[str | None, str], int] = {}
    entry: _Entry | None = None

    def finish(current: _Entry | None) -> None:
        if current is None:
            return
        if "msgid" not in current.keys:
            problems.append(SyntaxProblem(current.line, "entry without msgid"))
            return
        if not any(k.startswith("msgstr") for k in current.keys):
            problems.append(SyntaxProblem(current.line, "msgid without msgstr"))
        ctx = current.keys.get("msgctxt")
        key = ("".join(ctx) if ctx is not None else None, "".join(current.keys["msgid"]))
        if key in seen:
            where = f"context {key[0]!r}" if key[0] is not None else "no context"
            problems.append(
                SyntaxProblem(
                    current.line,
                    f"duplicate entry ({where}): first defined at line {seen[key]}",
                )
            )
        else:
            seen[key] = current.line

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            finish(entry)
            entry = None
            continue
        if line.startswith("#"):
            if line.startswith("#~"):
                continue  # obsolete entries are not read
            if entry is not None and entry.last is not None:
                finish(entry)  # a comment after msgstr starts the next entry
                entry = None
            continue
        keyword = _KEYWORD.match(line)
        if keyword:
            name, rest = keyword[1], keyword[2]
            base = "msgstr" if name.startswith("msgstr") else name
            if entry is None or (
                entry.last is not None and _ORDER[base] < _ORDER[_base(entry.last)]
            ):
                finish(entry)
                entry = _Entry(line=number, keys={})
            if name in entry.keys:
                problems.append(SyntaxProblem(number, f"{name} given twice in one entry"))
            entry.keys[name] = []
            entry.last = name
            string = rest
        elif line.startswith('"'):
            if entry is None or entry.last is None:
                problems.append(SyntaxProblem(number, "string outside any entry"))
                continue
            string = line
        else:
            problems.append(
                SyntaxProblem(number, f'not a PO line (expected msgid, msgstr, "…" or #): {raw!r}')
            )
            continue
        match = _STRING.match(string)
        if not match:
            problems.append(SyntaxProblem(number, "string not closed by a double quote"))
            continue
        bad = _BAD_ESCAPE.search(match[1])
        if bad:
            problems.append(
                SyntaxProblem(number, f"invalid escape {match[1][bad.start() : bad.start() + 2]!r}")
            )
            continue
        assert entry is not None and entry.last is not None
        entry.keys[entry.last].append(_unquote(match[1]))
    finish(entry)
    return problems


def _base(name: str) -> str:
    return "msgstr" if name.startswith("msgstr") else name


def header_fields(text: str) -> dict[str, tuple[int, str]]:
    """The header entry's fields (``msgid ""`` first in the file): lowercased name -> (line, value).

    Reads lines lazily and stops at the end of the header, whatever the size of the file.
    """
    fields: dict[str, tuple[int, str]] = {}
    state = "before"  # then "msgid" (msgid "" seen), "msgstr" (reading the fields)
    pending, start = "", 0
    for number, raw in enumerate(io.StringIO(text), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if state == "msgstr":
                break
            continue
        keyword = _KEYWORD.match(line)
        if keyword:
            string = _STRING.match(keyword[2])
            if string is None:
                break
            if state == "before" and keyword[1] == "msgid" and string[1] == "":
                state = "msgid"
                continue
            if state == "msgid" and keyword[1] == "msgstr":
                state, line = "msgstr", keyword[2]
            else:
                break  # no header entry, or its end
        elif state != "msgstr":
            break  # msgid "" continued: not a header
        string = _STRING.match(line)
        if string is None:
            break
        if not pending:
            start = number
        pending += _unquote(string[1])
        while "\n" in pending:
            field, pending = pending.split("\n", 1)
            name, colon, value = field.partition(":")
            if colon:
                fields.setdefault(name.strip().lower(), (start, value.strip()))
            start = number
    return fields


def check_header(fields: dict[str, tuple[int, str]]) -> list[SyntaxProblem]:
    """A charset other than UTF-8 (kb reads catalogs as UTF-8) or a Language that is no code."""
    problems = []
    if "content-type" in fields:
        line, value = fields["content-type"]
        found = _CHARSET.search(value)
        charset = found[1].strip("\"'") if found else ""
        if found and charset.upper() != "CHARSET":  # the gettext template's placeholder
            try:
                name = codecs.lookup(charset).name
            except (LookupError, ValueError):
                name = ""
            if not name:
                problems.append(
                    SyntaxProblem(line, f"Content-Type: unknown charset {charset!r} (use UTF-8)")
                )
            elif name != "utf-8":
                problems.append(
                    SyntaxProblem(
                        line,
                        f"Content-Type: charset {charset!r}: kb reads catalogs as UTF-8 "
                        "(save the file as UTF-8 and say charset=UTF-8)",
                    )
                )
    if "language" in fields:
        line, value = fields["language"]
        if value and not _LANGUAGE.match(value):
            problems.append(
                SyntaxProblem(
                    line, f"Language: {value!r} is not a language code (expected e.g. fr or es_ES)"
                )
            )
    return problems

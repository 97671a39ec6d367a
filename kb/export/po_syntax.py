"""A strict reading of a PO file's syntax, line by line, before Babel reads its content.

Babel's reader is forgiving: an unterminated string becomes an empty one and a duplicate entry
silently replaces the first. A translator's catalog must be refused instead, with the line to
fix, the way ``msgfmt --check`` would; this pass finds those faults.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_KEYWORD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[ \t]+(".*)$')
_STRING = re.compile(r'^"((?:[^"\\]|\\.)*)"[ \t]*$')
_BAD_ESCAPE = re.compile(r'\\(?![\\"ntrabfv]|[0-7]{1,3}|x[0-9A-Fa-f]+)')
_ORDER = {"msgctxt": 0, "msgid": 1, "msgid_plural": 2, "msgstr": 3}


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

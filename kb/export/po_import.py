"""``kb import po``: a translator's catalog back into the knowledge base, all or nothing.

Each rule's translation (its text and all its examples) becomes a ``community`` text that
follows the English edition whose text its ``msgid`` reproduces, so drift detection sees it go
stale when the English changes. Community texts live in their own edition of kind
``translations`` (key ``fr:community``): rule pages own the ``fr:translations`` rows, and a
re-ingest of a page must neither delete a translator's work nor clash with it.

Every problem (bad syntax, unknown rule, an ``msgid`` that is no English text of that rule,
empty or fuzzy ``msgstr``) is reported as ``file:line: reason`` and nothing is written.
"""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.pofile import PoFileError, read_po
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from kb.bodies import body_id
from kb.corpus.numbers import is_rule_number, kind_of, parent_of, sort_key
from kb.errors import KbError
from kb.export.po import PROJECT, parse_context
from kb.export.po_syntax import check_header, check_syntax, header_fields
from kb.ingest import translations_edition
from kb.langs import check_lang
from kb.models import Edition, Example, Rule, RuleText


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the catalog, where it is."""

    path: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"


class ImportProblems(KbError):
    """The catalog was refused; every problem is listed (nothing was imported)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        if len(problems) == 1:  # one line, as every single error of kb
            super().__init__(f"{problems[0]} (nothing was imported)")
            return
        shown = "\n".join(str(p) for p in problems[:50])
        more = f"\n… and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(
            f"{len(problems)} problem(s) in the catalog; nothing was imported:\n{shown}{more}"
        )


@dataclass
class ImportReport:
    """What an import did (or, with ``dry_run``, would do)."""

    path: str
    language: str
    imported: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[Problem] = field(default_factory=list)
    follows: dict[str, int] = field(default_factory=dict)
    dry_run: bool = False

    def as_dict(self) -> dict:
        """Plain data for ``--json``."""
        return {
            "path": self.path,
            "language": self.language,
            "imported": self.imported,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "skipped": [{"line": p.line, "reason": p.reason} for p in self.skipped],
            "follows": dict(sorted(self.follows.items())),
            "dry_run": self.dry_run,
        }


@dataclass
class _Group:
    """A rule's messages in the catalog: its text and its examples."""

    number: str
    line: int = 0
    main: tuple[str, str] | None = None  # (msgid, msgstr)
    examples: dict[int, tuple[str, str, int]] = field(default_factory=dict)


def _read(path: Path, language: str | None) -> tuple[list, str, str | None]:
    """The catalog's messages, its language and the edition its header names."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KbError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportProblems([Problem(str(path), line, "not UTF-8 text")]) from None
    fields = header_fields(text)
    syntax = check_syntax(text) or check_header(fields)
    if syntax:
        raise ImportProblems([Problem(str(path), p.line, p.reason) for p in syntax])
    del text
    try:
        catalog = read_po(io.BytesIO(data), abort_invalid=True, charset="utf-8")
    except PoFileError as exc:
        raise ImportProblems([Problem(str(path), exc.lineno + 1, str(exc))]) from None
    except (LookupError, ValueError) as exc:  # a header Babel refuses that check_header let by
        raise ImportProblems([Problem(str(path), 1, f"header: {exc}")]) from None
    del data
    header_lang = str(catalog.locale) if catalog.locale else None
    lang_line = fields.get("language", (1, ""))[0]
    lang = language or header_lang
    if not lang:
        raise ImportProblems([Problem(str(path), 1, "no Language header: give --lang")])
    try:
        lang = check_lang(lang)
    except ValueError as exc:
        line = 1 if language else lang_line
        raise ImportProblems([Problem(str(path), line, f"Language: {exc}")]) from None
    if lang == "en":
        raise ImportProblems([Problem(str(path), 1, "a catalog of English: nothing to import")])
    if language and header_lang and check_lang(header_lang) != lang:
        raise ImportProblems(
            [
                Problem(
                    str(path), lang_line, f"the header says Language: {header_lang}, not {language}"
                )
            ]
        )
    version = catalog.version if catalog.project == PROJECT else None
    return [m for m in catalog if m.id], lang, version


def _english(session: Session, numbers: list[str]) -> dict[str, list[tuple[Edition, RuleText]]]:
    """Every English official text of those numbers, newest edition first."""
    found: dict[str, list[tuple[Edition, RuleText]]] = {}
    for start in range(0, len(numbers), 500):
        rows = session.execute(
            select(Edition, RuleText)
            .join(Rule, Rule.edition_id == Edition.id)
            .join(RuleText, RuleText.rule_id == Rule.id)
            .where(
                Edition.kind == "comprules",
                Edition.language == "en",
                RuleText.language == "en",
                Rule.number.in_(numbers[start : start + 500]),
            )
            .options(selectinload(RuleText.examples), selectinload(RuleText.rule))
        ).all()
        for edition, text in rows:
            found.setdefault(text.rule.number, []).append((edition, text))
    for pairs in found.values():
        pairs.sort(key=lambda p: p[0].effective_date or dt.date.min, reverse=True)
    return found


def _groups(path: str, messages: list, skip: bool, report: ImportReport) -> tuple[dict, list]:
    problems: list[Problem] = []
    groups: dict[str, _Group] = {}
    bad: set[str] = set()
    for message in messages:
        line = message.lineno or 1
        if isinstance(message.id, tuple) or isinstance(message.string, tuple):
            problems.append(Problem(path, line, "plural entries are not rule texts"))
            continue
        if not message.context:
            problems.append(Problem(path, line, "no msgctxt: the rule number is missing"))
            continue
        number, example = parse_context(message.context)
        if not is_rule_number(number):
            problems.append(
                Problem(path, line, f"msgctxt {message.context!r} is not a rule number")
            )
            continue
        fault = None
        if not message.string.strip():
            fault = "empty msgstr: translate it, or delete the entry"
        elif message.fuzzy:
            fault = "still fuzzy: review it against the English and remove the fuzzy flag"
        if fault:
            if skip:
                report.skipped.append(Problem(path, line, f"{message.context}: {fault}"))
                bad.add(number)
            else:
                problems.append(Problem(path, line, f"{message.context}: {fault}"))
                bad.add(number)
            continue
        group = groups.setdefault(number, _Group(number=number, line=line))
        if example is None:
            group.main, group.line = (message.id, message.string.strip()), line
        else:
            group.examples[example] = (message.id, message.string.strip(), line)
    for number in bad:
        groups.pop(number, None)
    return groups, problems


def _match(
    group: _Group, english: list[tuple[Edition, RuleText]], version: str | None
) -> tuple[Edition, RuleText] | str:
    """The English edition whose text the group's msgids reproduce, or why there is none."""
    if group.main is None:
        return "examples without the rule's own text (msgctxt without 'example')"
    matching = []
    for edition, text in english:
        if (text.title or text.body) != group.main[0]:
            continue
        originals = [e.text for e in text.examples]
        if any(
            index > len(originals) or originals[index - 1] != msgid
            for index, (msgid, _, _) in group.examples.items()
        ):
            continue
        matching.append((edition, text))
    if not matching:
        return (
            f"msgid is not the English text of {group.number} in any loaded edition "
            "(was the msgid edited, or is its edition not loaded?)"
        )
    for edition, text in matching:
        if version and edition.effective_date and edition.effective_date.isoformat() == version:
            return edition, text
    return matching[0]


def import_po(
    session: Session,
    path: Path,
    *,
    language: str | None = None,
    skip_untranslated: bool = False,
    dry_run: bool = False,
) -> ImportReport:
    """Import a catalog as community translations in one transaction (the caller commits)."""
    messages, lang, version = _read(path, language)
    report = ImportReport(path=str(path), language=lang, dry_run=dry_run)
    groups, problems = _groups(str(path), messages, skip_untranslated, report)
    english = _english(session, sorted(groups))
    plans: list[tuple[_Group, Edition, RuleText]] = []
    for number in sorted(groups, key=sort_key):
        group = groups[number]
        if number not in english:
            problems.append(Problem(str(path), group.line, f"unknown rule number {number}"))
            continue
        found = _match(group, english[number], version)
        if isinstance(found, str):
            problems.append(Problem(str(path), group.line, f"{number}: {found}"))
            continue
        edition, text = found
        missing = [i for i in range(1, len(text.examples) + 1) if i not in group.examples]
        if missing:
            where = ", ".join(f"example {i}" for i in missing)
            reason = f"{number}: the English has {len(text.examples)} example(s); {where} missing"
            if skip_untranslated:
                report.skipped.append(Problem(str(path), group.line, reason))
                continue
            problems.append(Problem(str(path), group.line, reason))
            continue
        plans.append((group, edition, text))
    if problems:
        problems.sort(key=lambda p: p.line)
        raise ImportProblems(problems)
    if not plans:
        raise KbError(f"{path}: no translated entry to import")
    target = translations_edition(session, lang, "community")
    for group, edition, text in plans:
        _store(session, target, lang, group, edition, text, report)
        date = edition.effective_date.isoformat() if edition.effective_date else edition.key
        report.follows[date] = report.follows.get(date, 0) + 1
    session.flush()
    return report


def _store(
    session: Session,
    target: Edition,
    lang: str,
    group: _Group,
    edition: Edition,
    english: RuleText,
    report: ImportReport,
) -> None:
    """Create or replace one rule's community text and its examples."""
    assert group.main is not None
    number = group.number
    rule = session.scalar(select(Rule).where(Rule.edition_id == target.id, Rule.number == number))
    if rule is None:
        rule = Rule(
            edition_id=target.id,
            number=number,
            kind=kind_of(number),
            parent_number=parent_of(number),
            sort_key=sort_key(number),
        )
        session.add(rule)
        session.flush()
    title, body = (group.main[1], "") if english.title else ("", group.main[1])
    examples = [group.examples[i][1] for i in sorted(group.examples)]
    if _already_there(session, lang, number, title, body, examples, edition):
        report.unchanged.append(number)
        return
    existing = session.scalar(
        select(RuleText)
        .where(RuleText.rule_id == rule.id, RuleText.language == lang)
        .where(RuleText.provenance == "community")
        .options(selectinload(RuleText.examples))
    )
    if existing is not None:
        existing.examples.clear()
        session.flush()
        existing.title, existing.body_id = title, body_id(session, body)
        existing.follows_edition_id, existing.follows_assumed = edition.id, False
        text = existing
        report.updated.append(number)
    else:
        text = RuleText(
            rule_id=rule.id,
            language=lang,
            title=title,
            body_id=body_id(session, body),
            provenance="community",
            follows_edition_id=edition.id,
            follows_assumed=False,
            line=group.line,
        )
        session.add(text)
        session.flush()
        report.imported.append(number)
    for position, example in enumerate(examples):
        session.add(Example(rule_text_id=text.id, position=position, text=example))


def _already_there(
    session: Session,
    lang: str,
    number: str,
    title: str,
    body: str,
    examples: list[str],
    edition: Edition,
) -> bool:
    """Whether a translation with this very text, made from the same English, is loaded."""
    texts = session.scalars(
        select(RuleText)
        .join(Rule, Rule.id == RuleText.rule_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(Edition.kind == "translations", Rule.number == number, RuleText.language == lang)
        .options(selectinload(RuleText.examples))
    ).all()
    return any(
        t.title == title
        and t.body == body
        and [e.text for e in t.examples] == examples
        and t.follows_edition_id == edition.id
        for t in texts
    )

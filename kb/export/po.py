"""The translator's catalog: the rules of an edition as a gettext PO file, written with Babel.

One message per rule text (``msgctxt`` the rule number, ``msgid`` the English title or body,
``msgstr`` the translation shown today) and one per example (``msgctxt "701.54a example 1"``).
A stale translation is ``fuzzy`` with the English it was made from as ``#| msgid`` (what
Poedit and Lokalize show as the change to review) and a word diff in the comments. The header's
``Project-Id-Version`` names the English edition (``kb-rules 2026-01-16``), which ``kb import
po`` uses to tie the translations to the English they follow.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from babel.messages.catalog import Catalog
from babel.messages.pofile import normalize, write_po
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from kb.errors import KbUsageError
from kb.export import stages
from kb.export.selection import select_rules
from kb.export.translations import Translation, translations
from kb.langs import check_lang, language_name
from kb.lookup import find_edition
from kb.models import Document, Edition, Rule, RuleText
from kb.terminology import OfficialTerms
from kb.versions import word_ops

PROJECT = "kb-rules"
ONLY = ("missing", "stale", "current", "all")
_EXAMPLE = re.compile(r"^(?P<number>\S+) example (?P<index>[1-9]\d*)$")


@dataclass(frozen=True)
class PoExport:
    """What was written: the catalog's bytes and how many messages of each state it holds."""

    data: bytes
    language: str
    edition: str
    counts: dict[str, int]


def context_of(number: str, example: int | None = None) -> str:
    """The ``msgctxt`` of a rule's text, or of its ``example``-th example (1-based)."""
    return number if example is None else f"{number} example {example}"


def parse_context(context: str) -> tuple[str, int | None]:
    """``"701.54a"`` -> ``("701.54a", None)``; ``"701.54a example 2"`` -> ``("701.54a", 2)``."""
    match = _EXAMPLE.match(context)
    if match:
        return match["number"], int(match["index"])
    return context, None


def word_diff(old: str, new: str) -> str:
    """A wdiff-style word diff: ``[-removed-]`` and ``{+added+}`` around what changed.

    The changes are the versions stage's (:func:`kb.versions.word_ops`, what the site's history
    shows), written as one line of plain text for a translator's comment.
    """
    out: list[str] = []
    previous = "equal"
    for op, text in word_ops(old, new):
        if op == "equal" or not text.strip():  # a change of spacing alone is no change
            out.append(text)
        else:
            lead, words, trail = _split_space(text)
            gap = " " if previous != "equal" and not lead else lead
            mark = ("[-", "-]") if op == "delete" else ("{+", "+}")
            out.append(gap + mark[0] + " ".join(words.split()) + mark[1] + trail)
        previous = op
    return " ".join("".join(out).split())


def _split_space(text: str) -> tuple[str, str, str]:
    """``" a b "`` -> ``(" ", "a b", " ")``: the markers go round the words, not the spaces."""
    words = text.strip()
    if not words:
        return text, "", ""
    start = text.index(words)
    return text[:start], words, text[start + len(words) :]


def _text_of(text: RuleText | Translation) -> str:
    if isinstance(text, Translation):
        return text.title or text.body
    return text.title or text.body


def _english_then(
    session: Session, numbers: list[str], editions: set[str]
) -> dict[tuple[str, str], RuleText]:
    """English texts of numbers in the editions that stale translations followed."""
    if not editions or not numbers:
        return {}
    found: dict[tuple[str, str], RuleText] = {}
    rows = session.scalars(
        select(RuleText)
        .join(Rule, Rule.id == RuleText.rule_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(
            Edition.kind == "comprules",
            Edition.language == "en",
            Edition.effective_date.in_([dt.date.fromisoformat(d) for d in editions]),
            Rule.number.in_(numbers),
        )
        .options(
            selectinload(RuleText.examples), selectinload(RuleText.rule).selectinload(Rule.edition)
        )
    ).all()
    for text in rows:
        date = text.rule.edition.effective_date
        assert date is not None
        found[(text.rule.number, date.isoformat())] = text
    return found


def _catalog(language: str, edition: Edition, source: str) -> Catalog:
    date = dt.datetime.combine(edition.effective_date or dt.date(2000, 1, 1), dt.time(), dt.UTC)
    catalog = Catalog(
        locale=language,
        project=PROJECT,
        version=edition.effective_date.isoformat() if edition.effective_date else edition.key,
        creation_date=date,
        revision_date=date,
        msgid_bugs_address="",
        last_translator="kb export po",
        language_team=language_name(language, "en"),
        charset="utf-8",
        fuzzy=False,
        header_comment=(
            f"# {language_name(language, 'en')} translation of the Magic: The Gathering "
            f"Comprehensive Rules effective {edition.effective_date} ({source}).\n"
            "# msgctxt is the rule number; msgid the English text; msgstr the translation.\n"
            "# Fill in each msgstr; review each fuzzy entry against the English change shown\n"
            "# above it and remove its fuzzy flag; then: kb import po THIS_FILE.po\n"
            "# Translations come back as 'community' translations of this English edition."
        ),
    )
    return catalog


def export_po(
    session: Session,
    language: str,
    *,
    only: Sequence[str] = ("all",),
    items: Sequence[str] = (),
    edition: str | None = None,
) -> PoExport:
    """Write the catalog of a language's rule translations (all rules, or the items given)."""
    language = check_lang(language)
    if language == "en":
        raise KbUsageError("--lang: English is the source language; choose a translation (fr, es)")
    wanted = set(only) or {"all"}
    unknown = wanted - set(ONLY)
    if unknown:
        raise KbUsageError(
            f"--only: unknown state {', '.join(sorted(unknown))} (use {', '.join(ONLY)})"
        )
    if "all" in wanted:
        wanted = {"missing", "stale", "current"}
    ed = find_edition(session, edition)
    if items:
        numbers = [s.number for s in select_rules(session, ed, items)]
    else:
        numbers = list(
            session.scalars(
                select(Rule.number).where(Rule.edition_id == ed.id).order_by(Rule.sort_key)
            )
        )
    english = {
        t.rule.number: t
        for t in session.scalars(
            select(RuleText)
            .join(Rule, Rule.id == RuleText.rule_id)
            .where(Rule.edition_id == ed.id, RuleText.language == "en")
            .options(selectinload(RuleText.examples), selectinload(RuleText.rule))
        )
    }
    shown = translations(session, language, ed, numbers)
    stale = stages.stale_translations(session, language, ed) if "stale" in wanted else {}
    then = _english_then(
        session,
        [n for n in numbers if shown[n].status == "stale"],
        {t.follows for t in shown.values() if t.status == "stale" and t.follows},
    )
    doc = session.get(Document, ed.document_id) if ed.document_id else None
    source = PurePath(doc.path).name if doc else ed.key
    catalog = _catalog(language, ed, source)
    official = OfficialTerms(session, language)
    counts = {"missing": 0, "stale": 0, "current": 0, "messages": 0}
    for number in numbers:
        text, chosen = english.get(number), shown[number]
        if text is None or chosen.status not in wanted or not _text_of(text):
            continue
        counts[chosen.status] += 1
        old = then.get((number, chosen.follows or ""))
        _add_rule(catalog, number, text, chosen, old, stale.get(number), ed, source, official)
    counts["messages"] = len(catalog)
    return PoExport(
        data=_write(catalog),
        language=language,
        edition=str(catalog.version),
        counts=counts,
    )


def _official_comment(official: OfficialTerms, english: str) -> list[str]:
    """The official terms of the keywords a text names, so a translator uses Wizards' words."""
    found = official.find(english)
    if not found:
        return []
    pairs = "; ".join(f"{keyword} = {term}" for keyword, term in found)
    return [f"Official terms (from Wizards' card translations): {pairs}"]


def _write(catalog: Catalog) -> bytes:
    """The catalog as PO bytes, each stale entry's old English as a ``#| msgid`` line.

    Babel wraps ``#|`` lines as prose, which breaks the quoting; they are written here instead,
    one unwrapped quoted line each, just before the entry's ``msgctxt``.
    """
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, sort_output=False, include_previous=False)
    previous = {
        f"msgctxt {normalize(m.context, width=0)}": "#| msgid "
        + normalize(m.previous_id[0], width=0)
        for m in catalog
        if m.id and m.context and m.previous_id
    }
    lines = buffer.getvalue().decode("utf-8").split("\n")
    out: list[str] = []
    for line in lines:
        if line in previous:
            out.append(previous[line])
        out.append(line)
    return "\n".join(out).encode("utf-8")


def _add_rule(
    catalog: Catalog,
    number: str,
    english: RuleText,
    chosen: Translation,
    old: RuleText | None,
    stale: dict | None,
    edition: Edition,
    source: str,
    official: OfficialTerms,
) -> None:
    """Add a rule's text and examples to the catalog, with their state in the comments."""
    is_stale = chosen.status == "stale"
    comments = [f"English: {edition.effective_date} edition, {english.rule.kind} {number}"]
    if chosen.status == "missing":
        comments.append("Not translated yet.")
    else:
        follows = chosen.follows or "unknown"
        assumed = " (assumed)" if chosen.assumed else ""
        comments.append(
            f"Translation: {chosen.provenance}, made from the English of {follows}{assumed}"
        )
    previous_main: str | None = None
    if is_stale:
        then_text = (stale or {}).get("english_then") or (_text_of(old) if old else None)
        if then_text and then_text != _text_of(english):
            previous_main = then_text
            comments.append(f"STALE: the English changed since {chosen.follows}:")
            comments.append(word_diff(then_text, _text_of(english)))
        else:
            comments.append(f"STALE: the English of this rule changed since {chosen.follows}.")
    comments.extend(_official_comment(official, _text_of(english)))
    locations = [(source, english.line)] if english.line else []
    catalog.add(
        _text_of(english),
        _text_of(chosen) if chosen.status != "missing" else "",
        locations=locations,
        flags=("fuzzy",) if is_stale else (),
        auto_comments=comments,
        previous_id=previous_main,
        context=context_of(number),
    )
    old_examples = [e.text for e in old.examples] if old else []
    for index, example in enumerate(english.examples, 1):
        translated = (
            chosen.examples[index - 1]
            if chosen.status != "missing" and index <= len(chosen.examples)
            else ""
        )
        previous = old_examples[index - 1] if is_stale and index <= len(old_examples) else None
        example_comments = [f"Example {index} of {number}."]
        example_comments.extend(_official_comment(official, example.text))
        if previous is not None and previous != example.text:
            example_comments.append(word_diff(previous, example.text))
        catalog.add(
            example.text,
            translated,
            locations=locations,
            flags=("fuzzy",) if is_stale and translated else (),
            auto_comments=example_comments,
            previous_id=previous if previous is not None and previous != example.text else None,
            context=context_of(number, index),
        )

"""What changed between two editions: added, removed, changed and renumbered rules, glossary.

Rules are paired by content (:mod:`kb.versions.align`), so a renumbered rule is reported as
renumbered, not as one rule removed and another added. A change whose only difference is a rule
number it cites, where that number follows a renumbering, is flagged ``reference_only``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.errors import KbError
from kb.models import Edition, GlossaryEntry

from .align import Alignment, RuleContent, align_editions
from .editions import EditionRef, edition_label, resolve_edition
from .matcher import WordMatcher

_TOKENS = re.compile(r"\s+|\d{3}\.\d{1,3}[a-z]?(?![\w])|\w+|[^\w\s]")
_NUMBER = re.compile(r"^\d{3}(?:\.\d{1,3}[a-z]?)?$")


def word_ops(old: str, new: str) -> list[list[str]]:
    """A word-level diff: [[op, text], …] with op in equal / insert / delete.

    Joining the equal and delete texts gives the old text, the equal and insert texts the new
    one. Each run of changes is one delete then one insert; a lone space between two changes is
    folded into them, so the diff reads by phrases rather than word by word. Each distinct pair
    of texts is diffed once per process (see :func:`_cached_ops`); the lists are the caller's.
    """
    return [list(op) for op in _cached_ops(old, new)]


@lru_cache(maxsize=1 << 14)
def _cached_ops(old: str, new: str) -> tuple[tuple[str, str], ...]:
    """The word diff of one pair of texts, computed once: the same pair comes back in the
    edition diffs, the rule histories and each language's stale translations, and a diff of
    long texts costs milliseconds (difflib compares every pair of equal tokens; the matcher
    skips the pairs of spaces, with difflib's answers: :mod:`kb.versions.matcher`)."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    raw: list[list[str]] = []
    for tag, i1, i2, j1, j2 in WordMatcher(a, b).get_opcodes():
        if tag == "equal":
            raw.append(["equal", "".join(a[i1:i2])])
            continue
        if i2 > i1:
            raw.append(["delete", "".join(a[i1:i2])])
        if j2 > j1:
            raw.append(["insert", "".join(b[j1:j2])])
    for i in range(1, len(raw) - 1):
        op, text = raw[i]
        if op == "equal" and not text.strip() and raw[i - 1][0] != "equal" != raw[i + 1][0]:
            raw[i] = ["both", text]
    ops: list[list[str]] = []
    pending = {"delete": "", "insert": ""}

    def flush() -> None:
        for kind in ("delete", "insert"):
            if pending[kind]:
                ops.append([kind, pending[kind]])
                pending[kind] = ""

    for op, text in raw:
        if op == "equal":
            flush()
            ops.append([op, text])
        elif op == "both":
            pending["delete"] += text
            pending["insert"] += text
        else:
            pending[op] += text
    flush()
    return tuple((op, text) for op, text in ops)


def reference_only(old: RuleContent, new: RuleContent, alignment: Alignment) -> bool:
    """Tell whether two texts differ only in rule numbers that follow the renumbering."""
    if old.full == new.full or old.blanked != new.blanked:
        return False
    a, b = _TOKENS.findall(old.full), _TOKENS.findall(new.full)
    numbers_a = [t for t in a if _NUMBER.match(t)]
    numbers_b = [t for t in b if _NUMBER.match(t)]
    return len(numbers_a) == len(numbers_b) and all(
        x == y or alignment.pairs.get(x) == y for x, y in zip(numbers_a, numbers_b, strict=True)
    )


def _rule_item(rule: RuleContent) -> dict[str, Any]:
    return {
        "number": rule.number,
        "kind": rule.kind,
        "title": rule.label,
        "text": rule.full,
    }


def _glossary(session: Session, edition: Edition) -> dict[str, str]:
    return dict(
        session.execute(
            select(GlossaryEntry.term, GlossaryEntry.definition).where(
                GlossaryEntry.edition_id == edition.id, GlossaryEntry.language == "en"
            )
        ).all()
    )


def diff_editions(session: Session, old: EditionRef, new: EditionRef) -> dict[str, Any]:
    """Compare two English editions rule by rule (by content) and term by term."""
    old_ed, new_ed = resolve_edition(session, old), resolve_edition(session, new)
    if old_ed.kind != "comprules" or new_ed.kind != "comprules":
        raise KbError("kb diff compares Comprehensive Rules editions (give effective dates)")
    alignment = align_editions(session, old_ed, new_ed)
    changed = []
    renumbered = []
    for old_number, new_number in sorted(
        alignment.pairs.items(), key=lambda kv: alignment.new[kv[1]].sort_key
    ):
        a, b = alignment.old[old_number], alignment.new[new_number]
        if old_number != new_number:
            renumbered.append(
                {
                    "old_number": old_number,
                    "new_number": new_number,
                    "kind": b.kind,
                    "title": b.label,
                    "changed": a.full != b.full,
                }
            )
        if a.full != b.full:
            changed.append(
                {
                    "old_number": old_number,
                    "new_number": new_number,
                    "kind": b.kind,
                    "title": b.label,
                    "old_text": a.full,
                    "new_text": b.full,
                    "ops": word_ops(a.full, b.full),
                    "reference_only": reference_only(a, b, alignment),
                }
            )
    old_terms, new_terms = _glossary(session, old_ed), _glossary(session, new_ed)
    glossary_changed = [
        {
            "term": term,
            "old": old_terms[term],
            "new": new_terms[term],
            "ops": word_ops(old_terms[term], new_terms[term]),
        }
        for term in sorted(set(old_terms) & set(new_terms), key=str.casefold)
        if old_terms[term] != new_terms[term]
    ]
    added = [_rule_item(alignment.new[n]) for n in alignment.added]
    removed = [_rule_item(alignment.old[n]) for n in alignment.removed]
    numbers_added = sorted(
        set(alignment.new) - set(alignment.old), key=lambda n: alignment.new[n].sort_key
    )
    numbers_removed = sorted(
        set(alignment.old) - set(alignment.new), key=lambda n: alignment.old[n].sort_key
    )
    return {
        "old": edition_label(old_ed),
        "new": edition_label(new_ed),
        "added": added,
        "removed": removed,
        "changed": changed,
        "renumbered": renumbered,
        "glossary": {
            "added": sorted(set(new_terms) - set(old_terms), key=str.casefold),
            "removed": sorted(set(old_terms) - set(new_terms), key=str.casefold),
            "changed": glossary_changed,
        },
        "numbers": {"added": numbers_added, "removed": numbers_removed},
        "summary": {
            "added": len(added),
            "removed": len(removed),
            "changed": len(changed),
            "reference_only": sum(1 for c in changed if c["reference_only"]),
            "renumbered": len(renumbered),
            "glossary_added": len(set(new_terms) - set(old_terms)),
            "glossary_removed": len(set(old_terms) - set(new_terms)),
            "glossary_changed": len(glossary_changed),
        },
    }

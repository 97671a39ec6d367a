"""``kb check``: references that resolve to nothing, and translations that do not fit the English.

A reference is unresolved when its edition has no such number (the real 2025 and 2026 glossaries
cite a rule 110.10 that does not exist; a rule page's sibling list names rules 701.69–701.71 no
loaded edition has). A translated rule page does not fit when its subrules are not those of the
English rule it follows: a different count means the letters the page was given are wrong.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.corpus.numbers import parent_of
from kb.models import Document, Edition, IngestWarning, Link, Rule, RuleReference, RuleText
from kb.versions import (
    EditionRef,
    edition_contents,
    edition_label,
    english_editions,
    resolve_edition,
)

from .queries import KIND_ORDER, SOURCE_ORDER, _safe_key
from .sources import describe_sources


def unresolved(
    session: Session, edition: EditionRef = None, *, all_editions: bool = False
) -> list[dict[str, Any]]:
    """References to numbers the edition does not have, with where each occurs (``kb check``)."""
    eds = english_editions(session) if all_editions else [resolve_edition(session, edition)]
    query = select(Link).where(Link.resolved.is_(False))
    ids = [e.id for e in eds]
    if all_editions:
        query = query.where(Link.target_edition_id.in_(ids) | Link.target_edition_id.is_(None))
    else:
        query = query.where(Link.target_edition_id.in_(ids))
    links = list(session.scalars(query))
    sources = describe_sources(session, links)
    labels = {e.id: edition_label(e) for e in eds}
    result = []
    for link in links:
        who = sources.get((link.source_type, link.source_id), {})
        result.append(
            {
                "target": link.target,
                "edition": labels.get(link.target_edition_id) if link.target_edition_id else None,
                "kind": link.kind,
                "source_type": link.source_type,
                "source_id": link.source_id,
                "language": link.source_language,
                "label": who.get("label", ""),
                "number": who.get("number"),
                "term": who.get("term"),
                "clarification_id": who.get("clarification_id"),
                "source_edition": who.get("edition"),
                "matched": link.matched,
            }
        )
    result.sort(
        key=lambda r: (
            r["edition"] or "",
            KIND_ORDER[r["kind"]],
            _safe_key(r["target"]),
            SOURCE_ORDER[r["source_type"]],
            r["label"],
            r["language"],
        )
    )
    return result


def translation_problems(session: Session) -> list[dict[str, Any]]:
    """Translated rules whose subrules differ from those of the English rule they follow."""
    editions = {e.id: e for e in english_editions(session)}
    rows = session.execute(
        select(Rule.number, Rule.kind, RuleText.language, RuleText.follows_edition_id)
        .join(RuleText, RuleText.rule_id == Rule.id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(Edition.kind == "translations")
        .order_by(RuleText.language, Rule.sort_key)
    ).all()
    pages: dict[tuple[str, str, int | None], list[str]] = defaultdict(list)
    for number, kind, language, follows in rows:
        head = number if kind != "subrule" else parent_of(number) or number
        key = (language, head, follows)
        if kind == "subrule":
            pages[key].append(number)
        else:
            pages.setdefault(key, [])
    problems = []
    for (language, head, follows_id), subrules in sorted(pages.items(), key=lambda kv: kv[0][:2]):
        follows = editions.get(follows_id) if follows_id else None
        if follows is None:
            problems.append(
                {
                    "language": language,
                    "number": head,
                    "follows": None,
                    "problem": "follows no loaded English edition: cannot be checked",
                }
            )
            continue
        english = edition_contents(session, follows)
        if head not in english:
            problems.append(
                {
                    "language": language,
                    "number": head,
                    "follows": edition_label(follows),
                    "problem": f"rule {head} is not in the {edition_label(follows)} edition",
                }
            )
            continue
        wanted = [n for n in english if parent_of(n) == head and english[n].kind == "subrule"]
        if len(wanted) != len(subrules):
            problems.append(
                {
                    "language": language,
                    "number": head,
                    "follows": edition_label(follows),
                    "problem": f"{len(subrules)} subrules translated, the English has "
                    f"{len(wanted)}: the letters given to the translated paragraphs are wrong",
                }
            )
    return problems


def newer_translations(session: Session) -> list[dict[str, Any]]:
    """Translated rules that follow an English edition newer than any loaded, and the proof."""
    rows = session.execute(
        select(RuleText.id, Rule.id, Rule.number, RuleText.language, RuleText.follows_edition_id)
        .join(Rule, Rule.id == RuleText.rule_id)
        .where(RuleText.follows_newer.is_(True), Rule.kind != "subrule")
        .order_by(RuleText.language, Rule.sort_key)
    ).all()
    labels = {e.id: edition_label(e) for e in english_editions(session)}
    result = []
    for _text_id, rule_id, number, language, follows_id in rows:
        follows = follows_id and labels.get(follows_id)
        known = set(session.scalars(select(Rule.number).where(Rule.edition_id == follows_id)))
        named = session.scalars(
            select(RuleReference.target)
            .where(RuleReference.rule_id == rule_id)
            .order_by(RuleReference.position)
        )
        lacking = [target for target in named if target not in known]
        result.append(
            {
                "language": language,
                "number": number,
                "newer_than": follows,
                "lacking": lacking,
                "problem": f"follows an English edition newer than {follows}, the newest "
                f"loaded: it names {', '.join(lacking)}, which {follows} lacks",
            }
        )
    return result


def ingest_warnings(session: Session) -> list[dict[str, Any]]:
    """Defects kb repaired or skipped in the documents that loaded (stored by the ingest)."""
    rows = session.execute(
        select(Document.path, IngestWarning.line, IngestWarning.kind, IngestWarning.message)
        .join(Document, Document.id == IngestWarning.document_id)
        .where(Document.status == "loaded")
        .order_by(Document.path, IngestWarning.position)
    ).all()
    return [
        {"path": path, "line": line, "kind": kind, "message": message}
        for path, line, kind, message in rows
    ]


def check(session: Session) -> dict[str, Any]:
    """Everything ``kb check`` reports: unresolved references in every edition, and misfits.

    References made by a translation that follows a newer English edition than any loaded are
    listed apart (``newer``): they are expected to resolve once that edition is ingested. The
    ingest's warnings are listed too; they are repaired defects and do not make it fail.
    """
    newer = newer_translations(session)
    newer_texts = set(session.scalars(select(RuleText.id).where(RuleText.follows_newer.is_(True))))
    found = [
        item
        for item in unresolved(session, all_editions=True)
        if not (item["source_type"] == "rule_text" and item["source_id"] in newer_texts)
    ]
    # A translation that follows no loaded English edition (only rule pages are loaded, as with
    # the bundled seeds) has nothing to be checked against: it is said, not counted a failure.
    missing = [item for item in found if item["edition"] is not None]
    unchecked = sorted(
        {(item["language"], item["number"] or "?") for item in found}
        - {(item["language"], item["number"] or "?") for item in missing}
    )
    newer_heads = {(item["language"], item["number"]) for item in newer}
    problems = [
        item
        for item in translation_problems(session)
        if (item["language"], item["number"]) not in newer_heads
    ]
    misfits = [item for item in problems if item["follows"] is not None]
    unchecked_pages = [item for item in problems if item["follows"] is None]
    warnings = ingest_warnings(session)
    by_kind: dict[str, int] = defaultdict(int)
    for item in missing:
        by_kind[item["kind"]] += 1
    return {
        "unresolved": missing,
        "translations": misfits,
        "unchecked": unchecked_pages
        or [
            {"language": lang, "number": number, "follows": None, "problem": "cannot be checked"}
            for lang, number in unchecked
        ],
        "newer": newer,
        "warnings": warnings,
        "counts": {
            "unresolved": len(missing),
            **{f"unresolved_{k}": v for k, v in sorted(by_kind.items())},
            "translations": len(misfits),
            "unchecked": len(unchecked_pages) or len(unchecked),
            "newer": len(newer),
            "warnings": len(warnings),
        },
        "ok": not missing and not misfits,
    }

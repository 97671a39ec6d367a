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
from kb.models import Edition, Link, Rule, RuleText
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


def check(session: Session) -> dict[str, Any]:
    """Everything ``kb check`` reports: unresolved references in every edition, and misfits."""
    missing = unresolved(session, all_editions=True)
    misfits = translation_problems(session)
    by_kind: dict[str, int] = defaultdict(int)
    for item in missing:
        by_kind[item["kind"]] += 1
    return {
        "unresolved": missing,
        "translations": misfits,
        "counts": {
            "unresolved": len(missing),
            **{f"unresolved_{k}": v for k, v in sorted(by_kind.items())},
            "translations": len(misfits),
        },
        "ok": not missing and not misfits,
    }

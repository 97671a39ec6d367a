"""The link and version stages' public queries, as the site uses them.

The site calls only the public functions of :mod:`kb.links` and :mod:`kb.versions` (never
their internals); this module is the one place that imports them, and reshapes their answers
into what the page builders look up.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.corpus.numbers import is_rule_number, parent_of, sort_key
from kb.models import ClarificationText, Rule


def links() -> Any:
    """The link stage (imported when first needed: ``kb i18n`` never loads it)."""
    import kb.links

    return kb.links


def versions() -> Any:
    """The version stage (imported when first needed)."""
    import kb.versions

    return kb.versions


def find_references(text: str, language: str) -> list[Any]:
    """Every explicit rule reference in a text, as the link stage finds them."""
    return list(links().find_references(text, language))


def translation_status(session: Session, lang: str, edition: str | None) -> dict[str, Any]:
    """current / stale / missing per rule number of the edition."""
    return dict(versions().translation_status(session, lang, edition))


def preferred_translations(session: Session, lang: str, edition: int | str | None) -> dict:
    """Per rule number: the translation the version stage chose to show, its state and text."""
    return dict(versions().preferred_translations(session, lang, edition))


def stale_translations(session: Session, lang: str, edition: str | None) -> list[dict[str, Any]]:
    """The stale translations with the English then and now."""
    return list(versions().stale_translations(session, lang, edition))


def family_texts(session: Session) -> list[dict[str, str]]:
    """Per English edition (oldest first): each rule's text with its subrules', as one text.

    A rule's own text is often only its title (701.38 "Vote"): its history is that of the rule
    and its subrules together, each subrule on its own line after its letter.
    """
    from kb.models import Edition

    result = []
    for edition in session.scalars(
        select(Edition)
        .where(Edition.kind == "comprules", Edition.language == "en")
        .where(Edition.effective_date.is_not(None))
        .order_by(Edition.effective_date)
    ):
        contents = versions().edition_contents(session, edition)
        lines: dict[str, list[tuple[str, str]]] = {}
        for number, content in contents.items():
            if content.kind == "rule":
                lines.setdefault(number, []).append((content.sort_key, content.full))
            elif content.kind == "subrule":
                rule = number.rstrip("abcdefghijklmnopqrstuvwxyz")
                # The letter only: a renumbered rule whose words stay is the same version.
                letter = number[len(rule) :]
                lines.setdefault(rule, []).append((content.sort_key, f"({letter}) {content.full}"))
        result.append(
            {
                number: "\n".join(text for _key, text in sorted(parts))
                for number, parts in lines.items()
            }
        )
    return result


def word_ops(old: str, new: str) -> list[list[str]]:
    """The version stage's word diff of two texts."""
    return list(versions().word_ops(old, new))


def _number_of(item: Any) -> str:
    return str(item["number"] if isinstance(item, dict) else item)


def _label_of(item: Any) -> str:
    if isinstance(item, dict):
        return str(item.get("title") or item.get("text") or "")
    return ""


def _term_of(item: Any) -> str:
    return str(item["term"] if isinstance(item, dict) else item)


def diffs(
    session: Session, editions: list[str], known: set[str], terms: set[str]
) -> list[dict[str, Any]]:
    """The diff of each pair of consecutive English editions, oldest first."""
    result = []
    for old, new in itertools.pairwise(editions):
        diff = versions().diff_editions(session, old, new)
        added = [
            {"number": _number_of(i), "text": _label_of(i), "current": _number_of(i) in known}
            for i in diff.get("added", [])
        ]
        removed = [{"number": _number_of(i), "text": _label_of(i)} for i in diff.get("removed", [])]
        changed = [{**c, "current": c["new_number"] in known} for c in diff.get("changed", [])]
        renumbered = [
            {**r, "current": r["new_number"] in known} for r in diff.get("renumbered", [])
        ]
        glossary = {"added": [], "removed": [], "changed": [], **(diff.get("glossary") or {})}
        changed_terms = {
            key: [{"term": _term_of(t), "current": _term_of(t) in terms} for t in glossary[key]]
            for key in ("added", "removed", "changed")
        }
        result.append(
            {
                "slug": f"{old}_{new}",
                "old": old,
                "new": new,
                "added": added,
                "removed": removed,
                "changed": changed,
                "renumbered": renumbered,
                "glossary": changed_terms if any(changed_terms.values()) else None,
                "counts": {
                    "added": len(added),
                    "removed": len(removed),
                    "changed": len(changed),
                    "renumbered": len(renumbered),
                },
            }
        )
    return result


def _targets(session: Session, edition_id: int | None, source_types: tuple[str, ...]) -> set[str]:
    return set(links().linked_numbers(session, edition_id, source_types))


def _ancestors(number: str) -> list[str]:
    """The number and every number it lies inside (701.54c, 701.54, 701, 7)."""
    found = []
    current: str | None = number
    while current is not None and is_rule_number(current):
        found.append(current)
        current = parent_of(current)
    return found


def links_within(
    session: Session, edition_id: int, source_types: tuple[str, ...], wanted: set[str]
) -> dict[str, list[Any]]:
    """Per wanted rule number: the links into it or anything inside it, by id, read at once.

    The same links as the link stage's per-rule queries (``backlinks``,
    ``clarifications_for_rule`` with their subrules) give for each number: a resolved link
    through its target rule, an unresolved one through its target number. Rows carry the
    link as the edition reads it (kb.links.view.EditionLink: lineage rows numbered in it).
    """
    rows = links().edition_links(session, edition_id, source_types=source_types)
    # The edition's rules by id: a resolved link counts only through a rule of this edition.
    numbers = dict(
        session.execute(select(Rule.id, Rule.number).where(Rule.edition_id == edition_id)).all()
    )
    result: dict[str, list[Any]] = {}
    for row in rows:
        if row.target_rule_id is None and row.resolved:
            continue
        for number in _ancestors(row.target):
            if number not in wanted:
                continue
            if row.target_rule_id is not None and not str(
                numbers.get(row.target_rule_id, "\0")
            ).startswith(number):
                continue
            result.setdefault(number, []).append(row)
    return result


class _Source(NamedTuple):
    """What ``describe_sources`` reads of a link."""

    source_type: str
    source_id: int


def _chunks(items: list[Any], size: int = 2000) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def clarifications_by_rule(
    session: Session, edition: str | None, edition_id: int | None, known: set[str]
) -> dict[str, list[dict[str, Any]]]:
    """The rulings linked to each rule (its subrules' included), for the rules shown.

    What ``clarifications_for_rule`` gives per rule, asked once for all of them.
    """
    wanted = {
        t if len(t) <= 3 or t[-1].isdigit() else t[:-1]
        for t in _targets(session, edition_id, ("clarification_text",))
    } & known
    if not wanted:
        return {}
    from kb.links.queries import KIND_ORDER, _clarification_dicts

    ed = versions().resolve_edition(session, edition)
    by_rule = links_within(session, ed.id, ("clarification_text",), wanted)
    text_ids = sorted({row.source_id for found in by_rule.values() for row in found})
    clar_of: dict[int, int] = {}
    for chunk in _chunks(text_ids):
        clar_of.update(
            session.execute(
                select(ClarificationText.id, ClarificationText.clarification_id).where(
                    ClarificationText.id.in_(chunk)
                )
            ).all()
        )
    dicts: dict[int, dict[str, Any]] = {}
    for chunk in _chunks(sorted(set(clar_of.values()))):
        for item in _clarification_dicts(session, chunk, ed):
            dicts[item["id"]] = item
    result = {}
    for number in sorted(by_rule):
        kind: dict[int, str] = {}
        for row in by_rule[number]:
            if not row.resolved:
                continue
            clar_id = clar_of[row.source_id]
            if clar_id not in kind or KIND_ORDER[row.kind] < KIND_ORDER[kind[clar_id]]:
                kind[clar_id] = row.kind
        found = sorted((dicts[c] for c in kind), key=lambda d: (d["date"], d["id"]))
        if found:
            result[number] = [{**item, "kind": kind[item["id"]]} for item in found]
    return dict(sorted(result.items()))


def rules_by_clarification(
    clarifications: dict[str, list[dict[str, Any]]], known: set[str]
) -> dict[int, list[str]]:
    """The rule numbers each ruling is linked to, from the rulings found for the rules."""
    result: dict[int, list[str]] = {}
    for found in clarifications.values():
        for clar in found:
            numbers = [n for n in clar.get("rules", []) if n in known]
            if numbers:
                result[int(clar["id"])] = sorted(set(numbers), key=sort_key)
    return dict(sorted(result.items()))


CITING = ("rule_text", "example", "glossary", "card_text")


def cited_by(
    session: Session, edition: str | None, edition_id: int | None, known: set[str]
) -> dict[str, list[dict[str, Any]]]:
    """What cites each rule or its subrules: rules, examples, glossary entries, card texts.

    What ``backlinks`` gives per rule (its own citations from inside it left out), asked once
    for all the rules: one query for the links, one per kind of source and chunk of ids.
    """
    rules = {
        t if len(t) <= 3 or t[-1].isdigit() else t[:-1]
        for t in _targets(session, edition_id, CITING)
    }
    wanted = rules & known
    if not wanted:
        return {}
    from kb.links.queries import KIND_ORDER, SOURCE_ORDER, _safe_key
    from kb.links.sources import describe_sources

    ed = versions().resolve_edition(session, edition)
    by_rule = links_within(session, ed.id, CITING, wanted)
    by_rule = {n: [r for r in rows if r.kind != "sibling"] for n, rows in by_rule.items()}
    sources: dict[tuple[str, int], dict[str, Any]] = {}
    distinct = sorted({(r.source_type, r.source_id) for rows in by_rule.values() for r in rows})
    for chunk in _chunks(distinct):
        sources.update(describe_sources(session, [_Source(*item) for item in chunk]))
    result: dict[str, list[dict[str, Any]]] = {}
    for number in sorted(by_rule):
        groups: dict[tuple[str, int, str], str] = {}
        for row in by_rule[number]:  # by link id: a group's language is its first link's
            groups.setdefault((row.source_type, row.source_id, row.kind), row.source_language)
        entries = []
        for (source_type, source_id, kind), language in groups.items():
            who = sources.get((source_type, source_id), {})
            citing = who.get("number")
            if citing and source_type in ("rule_text", "example") and number in _ancestors(citing):
                continue
            label = str(who.get("label", ""))
            order = (
                SOURCE_ORDER[source_type],
                KIND_ORDER[kind],
                _safe_key(citing) if citing else "",
                who.get("term") or "",
                label.casefold() if source_type == "card_text" else "",
                language,
                source_id,
            )
            entries.append((order, source_type, who))
        entries.sort(key=lambda entry: entry[0])
        seen: set[tuple[str, str]] = set()
        cites = []
        for _order, source_type, who in entries:
            card = who.get("card_key") if source_type == "card_text" else None
            if source_type == "card_text" and not card:
                continue
            cite = {
                "label": str(who.get("label") or who.get("number") or who.get("term") or ""),
                "number": None if card else who.get("number"),
                "term": None if card else who.get("term"),
                "card": card,
            }
            key = (cite["label"], str(cite["card"] or cite["number"] or cite["term"]))
            if cite["label"] and key not in seen and (card or cite["number"] != number):
                seen.add(key)
                cites.append(cite)
        if cites:
            result[number] = cites
    return result

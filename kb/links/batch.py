"""Rulings and citations of many rules at once, as one edition reads them (the site's rule pages).

What :func:`kb.links.queries.clarifications_for_rule` and :func:`kb.links.queries.backlinks` give
for one rule, asked once for every rule shown: the links are read in one pass through
:mod:`kb.links.view` (lineage rows numbered in the edition), then the sources they come from in
chunks, instead of one query per rule (633 backlink queries on the small corpus).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.bulk import chunks
from kb.corpus.numbers import is_rule_number, parent_of
from kb.models import ClarificationText, Rule
from kb.versions import resolve_edition

from .queries import KIND_ORDER, SOURCE_ORDER, _clarification_dicts, _safe_key
from .sources import describe_sources
from .view import edition_links, linked_numbers


def _targets(session: Session, edition_id: int | None, source_types: tuple[str, ...]) -> set[str]:
    return set(linked_numbers(session, edition_id, source_types))


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
    rows = edition_links(session, edition_id, source_types=source_types)
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
    ed = resolve_edition(session, edition)
    by_rule = links_within(session, ed.id, ("clarification_text",), wanted)
    text_ids = sorted({row.source_id for found in by_rule.values() for row in found})
    clar_of: dict[int, int] = {}
    for chunk in chunks(text_ids, 2000):
        clar_of.update(
            session.execute(
                select(ClarificationText.id, ClarificationText.clarification_id).where(
                    ClarificationText.id.in_(chunk)
                )
            ).all()
        )
    dicts: dict[int, dict[str, Any]] = {}
    for chunk in chunks(sorted(set(clar_of.values())), 2000):
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
    ed = resolve_edition(session, edition)
    by_rule = links_within(session, ed.id, CITING, wanted)
    by_rule = {n: [r for r in rows if r.kind != "sibling"] for n, rows in by_rule.items()}
    sources: dict[tuple[str, int], dict[str, Any]] = {}
    distinct = sorted({(r.source_type, r.source_id) for rows in by_rule.values() for r in rows})
    for chunk in chunks(distinct, 2000):
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

"""Read the links: what cites a rule, a rule's rulings, a ruling's rules, what does not resolve.

Every function returns plain dicts in a deterministic order, for the CLI, the site and exports.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.corpus.numbers import is_rule_number, parent_of, sort_key
from kb.errors import KbUsageError, NotFoundError
from kb.langs import PROVENANCE_ORDER
from kb.models import (
    Card,
    CardLocalization,
    Clarification,
    ClarificationText,
    Edition,
    Rule,
    RuleText,
)
from kb.versions import EditionRef, resolve_edition

from .sources import clarification_cards, describe_sources
from .view import EditionLink, edition_links, reading_order

SOURCE_ORDER = {
    "rule_text": 0,
    "example": 1,
    "glossary": 2,
    "clarification_text": 3,
    "card_text": 4,
}
KIND_ORDER = {"explicit": 0, "term": 1, "sibling": 2}


def _check_number(number: str) -> str:
    number = number.strip().rstrip(".")
    if not is_rule_number(number):
        raise KbUsageError(f"{number!r} is not a rule number (e.g. 701.54, 701.54a, 701, 7)")
    return number


def within(number: str, ancestor: str) -> bool:
    """Tell whether a rule number is ``ancestor`` or lies inside it (701.54c in 701 and 7)."""
    current: str | None = number
    while current is not None:
        if current == ancestor:
            return True
        current = parent_of(current) if is_rule_number(current) else None
    return False


def _safe_key(number: str) -> str:
    try:
        return sort_key(number)
    except ValueError:
        return number


def _links_into(
    session: Session, number: str, edition: Edition, include_subrules: bool
) -> list[EditionLink]:
    if not include_subrules:
        return edition_links(session, edition, number=number)
    # Not ``target LIKE '701%'`` on the links: under a collation such as C.UTF-8 no index serves
    # it (PostgreSQL scanned the table per rule page). Resolved links are found through the
    # edition's rules inside the number (the target_rule_id index), unresolved ones apart.
    rules = select(Rule.id).where(
        Rule.edition_id == edition.id,
        (Rule.number == number) | Rule.number.startswith(number, autoescape=True),
    )
    found = edition_links(session, edition, rule_ids=rules)
    found += edition_links(session, edition, resolved=False)
    found.sort(key=reading_order)
    return [link for link in found if within(link.target, number)]


def backlinks(session: Session, number: str, edition: EditionRef = None) -> list[dict[str, Any]]:
    """What cites a rule (or anything inside it): rules, examples, glossary, rulings, card texts.

    ``source_type`` is ``rule_text``, ``example``, ``glossary``, ``clarification_text`` or
    ``card_text`` (a card's rules text naming the rule's keyword: its ``card_key`` is set).

    Citations from inside the rule itself (701.54d naming 701.54a, when 701.54 is asked) are left
    out; one entry per citing text and kind, with every number of the rule it names.
    """
    number = _check_number(number)
    ed = resolve_edition(session, edition)
    links = [
        link
        for link in _links_into(session, number, ed, include_subrules=True)
        if link.kind != "sibling"
    ]
    sources = describe_sources(session, links)
    grouped: dict[tuple[str, int, str], list[EditionLink]] = defaultdict(list)
    for link in links:
        grouped[(link.source_type, link.source_id, link.kind)].append(link)
    result = []
    for (source_type, source_id, kind), group in grouped.items():
        who = sources.get((source_type, source_id), {})
        citing = who.get("number")
        if citing and source_type in ("rule_text", "example") and within(citing, number):
            continue
        targets = sorted({link.target for link in group}, key=_safe_key)
        result.append(
            {
                "source_type": source_type,
                "source_id": source_id,
                "language": group[0].source_language,
                "kind": kind,
                "label": who.get("label", ""),
                "number": citing,
                "term": who.get("term"),
                "clarification_id": who.get("clarification_id"),
                "date": who.get("date"),
                "cards": who.get("cards", []),
                "matched": sorted({link.matched for link in group}),
                "targets": targets,
                "edition": who.get("edition"),
                "card_key": who.get("card_key"),
            }
        )
    result.sort(
        key=lambda r: (
            SOURCE_ORDER[r["source_type"]],
            KIND_ORDER[r["kind"]],
            _safe_key(r["number"]) if r["number"] else "",
            r["term"] or "",
            r["date"] or "",
            r["clarification_id"] or 0,
            r["label"].casefold() if r["source_type"] == "card_text" else "",
            r["language"],
            r["source_id"],
        )
    )
    return result


def cards_for_rule(
    session: Session, number: str, edition: EditionRef = None
) -> list[dict[str, Any]]:
    """The cards whose rules text uses a rule's terms (keywords, designations), by name."""
    number = _check_number(number)
    ed = resolve_edition(session, edition)
    links = [
        link
        for link in _links_into(session, number, ed, include_subrules=True)
        if link.source_type == "card_text"
    ]
    if not links:
        return []
    by_loc: dict[int, list[EditionLink]] = defaultdict(list)
    for link in links:
        by_loc[link.source_id].append(link)
    cards: dict[str, dict[str, Any]] = {}
    for loc_id, key, name, language in session.execute(
        select(CardLocalization.id, Card.key, Card.name, CardLocalization.language)
        .join(Card, Card.id == CardLocalization.card_id)
        .where(CardLocalization.id.in_(list(by_loc)))
    ):
        card = cards.setdefault(key, {"key": key, "name": name, "languages": [], "matched": []})
        card["languages"].append(language)
        for link in by_loc[loc_id]:
            if link.matched not in card["matched"]:
                card["matched"].append(link.matched)
    for card in cards.values():
        card["languages"].sort()
    return sorted(cards.values(), key=lambda c: (c["name"].casefold(), c["key"]))


def _clarification_dicts(
    session: Session, clar_ids: list[int], edition: Edition
) -> list[dict[str, Any]]:
    # Plain rows, not ORM objects: the site asks this of every ruling linked to a rule (tens
    # of thousands at the whole history), where building the objects cost more than the query.
    clarifications = session.execute(
        select(Clarification.id, Clarification.date, Clarification.source).where(
            Clarification.id.in_(clar_ids)
        )
    ).all()
    texts_of: dict[int, list[Any]] = defaultdict(list)
    for text in session.execute(
        select(
            ClarificationText.id,
            ClarificationText.clarification_id,
            ClarificationText.language,
            ClarificationText.text,
            ClarificationText.provenance,
        )
        .where(ClarificationText.clarification_id.in_(clar_ids))
        .order_by(ClarificationText.id)
    ):
        texts_of[text.clarification_id].append(text)
    text_to_clar = {t.id: c.id for c in clarifications for t in texts_of[c.id]}
    rules: dict[int, dict[str, str]] = defaultdict(dict)
    for link in edition_links(
        session,
        edition,
        source_types=["clarification_text"],
        source_ids=list(text_to_clar),
        resolved=True,
    ):
        clar_id = text_to_clar[link.source_id]
        previous = rules[clar_id].get(link.target)
        if previous is None or KIND_ORDER[link.kind] < KIND_ORDER[previous]:
            rules[clar_id][link.target] = link.kind
    cards = clarification_cards(session, clar_ids)
    result = []
    for c in sorted(clarifications, key=lambda c: (c.date, c.id)):
        texts = sorted(
            texts_of[c.id], key=lambda t: (t.language, PROVENANCE_ORDER.get(t.provenance, 9))
        )
        chosen: dict[str, dict[str, str]] = {}
        for t in texts:
            chosen.setdefault(t.language, {"text": t.text, "provenance": t.provenance})
        result.append(
            {
                "id": c.id,
                "date": c.date.isoformat(),
                "source": c.source,
                "texts": chosen,
                "cards": cards.get(c.id, []),
                "rules": sorted(rules[c.id], key=_safe_key),
                "kinds": dict(sorted(rules[c.id].items(), key=lambda kv: _safe_key(kv[0]))),
            }
        )
    return result


def clarifications_for_rule(
    session: Session, number: str, edition: EditionRef = None, include_subrules: bool = True
) -> list[dict[str, Any]]:
    """The rulings linked to a rule (and its subrules), oldest first, with texts and cards.

    ``kind`` is how the ruling reaches the rule: ``explicit`` if it names the number, else
    ``term``.
    """
    number = _check_number(number)
    ed = resolve_edition(session, edition)
    links = [
        link
        for link in _links_into(session, number, ed, include_subrules)
        if link.source_type == "clarification_text" and link.resolved
    ]
    if not links:
        return []
    text_ids = {link.source_id for link in links}
    clar_of = dict(
        session.execute(
            select(ClarificationText.id, ClarificationText.clarification_id).where(
                ClarificationText.id.in_(text_ids)
            )
        ).all()
    )
    kind: dict[int, str] = {}
    for link in links:
        clar_id = clar_of[link.source_id]
        if clar_id not in kind or KIND_ORDER[link.kind] < KIND_ORDER[kind[clar_id]]:
            kind[clar_id] = link.kind
    result = _clarification_dicts(session, sorted(kind), ed)
    for item in result:
        item["kind"] = kind[item["id"]]
    return result


def rules_for_clarification(
    session: Session, clarification_id: int, edition: EditionRef = None
) -> list[dict[str, Any]]:
    """The rules a ruling is linked to in an edition: [{"number", "kind", "matched", "title"}]."""
    ed = resolve_edition(session, edition)
    if session.get(Clarification, clarification_id) is None:
        raise NotFoundError(f"no clarification has the id {clarification_id}")
    text_ids = select(ClarificationText.id).where(
        ClarificationText.clarification_id == clarification_id
    )
    found: dict[str, dict[str, Any]] = {}
    for link in edition_links(
        session, ed, source_types=["clarification_text"], source_ids=text_ids, resolved=True
    ):
        item = found.setdefault(
            link.target, {"number": link.target, "kind": link.kind, "matched": []}
        )
        if KIND_ORDER[link.kind] < KIND_ORDER[item["kind"]]:
            item["kind"] = link.kind
        if link.matched not in item["matched"]:
            item["matched"].append(link.matched)
    titles = _titles(session, ed, list(found))
    result = sorted(found.values(), key=lambda r: _safe_key(r["number"]))
    for item in result:
        item["title"] = titles.get(item["number"], "")
    return result


def _titles(session: Session, edition: Edition, numbers: list[str]) -> dict[str, str]:
    """A short English title per number: its own title, else the start of its text."""
    titles = {}
    for number, title, body in session.execute(
        select(Rule.number, RuleText.title, RuleText.body)
        .join(RuleText, RuleText.rule_id == Rule.id)
        .where(Rule.edition_id == edition.id, Rule.number.in_(numbers), RuleText.language == "en")
    ):
        text = title or body or ""
        titles[number] = text if len(text) <= 80 else text[:79].rstrip() + "…"
    return titles

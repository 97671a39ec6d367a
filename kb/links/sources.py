"""Who a link starts from: a rule, an example, a glossary term, a ruling and its cards, a card.

Shared by the queries (backlinks) and ``kb check`` (where an unresolved reference occurs).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.models import (
    Card,
    CardClarification,
    CardLocalization,
    Clarification,
    ClarificationText,
    Edition,
    Example,
    GlossaryEntry,
    Rule,
    RuleText,
)


def clarification_cards(session: Session, ids: Iterable[int]) -> dict[int, list[dict[str, str]]]:
    """The cards carrying each clarification: [{"key", "name"}], by name."""
    cards: dict[int, dict[str, str]] = defaultdict(dict)
    for clar_id, key, name in session.execute(
        select(CardClarification.clarification_id, Card.key, Card.name)
        .join(Card, Card.id == CardClarification.card_id)
        .where(CardClarification.clarification_id.in_(list(set(ids))))
    ):
        cards[clar_id][key] = name
    return {
        clar_id: [{"key": k, "name": n} for k, n in sorted(found.items(), key=lambda kv: kv[::-1])]
        for clar_id, found in cards.items()
    }


def describe_sources(session: Session, links: list[Any]) -> dict[tuple[str, int], dict[str, Any]]:
    """Who each (source_type, source_id) of some links is: rule number, term, ruling, card."""
    ids: dict[str, set[int]] = defaultdict(set)
    for link in links:
        ids[link.source_type].add(link.source_id)
    found: dict[tuple[str, int], dict[str, Any]] = {}
    if ids["rule_text"]:
        for text_id, number, key in session.execute(
            select(RuleText.id, Rule.number, Edition.key)
            .join(Rule, Rule.id == RuleText.rule_id)
            .join(Edition, Edition.id == Rule.edition_id)
            .where(RuleText.id.in_(ids["rule_text"]))
        ):
            found[("rule_text", text_id)] = {"number": number, "label": number, "edition": key}
    if ids["example"]:
        for example_id, number, key in session.execute(
            select(Example.id, Rule.number, Edition.key)
            .join(RuleText, RuleText.id == Example.rule_text_id)
            .join(Rule, Rule.id == RuleText.rule_id)
            .join(Edition, Edition.id == Rule.edition_id)
            .where(Example.id.in_(ids["example"]))
        ):
            found[("example", example_id)] = {"number": number, "label": number, "edition": key}
    if ids["glossary"]:
        for entry_id, term in session.execute(
            select(GlossaryEntry.id, GlossaryEntry.term).where(
                GlossaryEntry.id.in_(ids["glossary"])
            )
        ):
            found[("glossary", entry_id)] = {"term": term, "label": term}
    if ids["clarification_text"]:
        rows = session.execute(
            select(ClarificationText.id, ClarificationText.clarification_id, Clarification.date)
            .join(Clarification, Clarification.id == ClarificationText.clarification_id)
            .where(ClarificationText.id.in_(ids["clarification_text"]))
        ).all()
        cards = clarification_cards(session, [clar_id for _, clar_id, _ in rows])
        for text_id, clar_id, date in rows:
            names = [c["name"] for c in cards.get(clar_id, [])]
            found[("clarification_text", text_id)] = {
                "clarification_id": clar_id,
                "date": date.isoformat(),
                "cards": names,
                "label": ", ".join(names) or f"ruling {clar_id}",
            }
    if ids["card_text"]:
        for loc_id, key, name, local in session.execute(
            select(CardLocalization.id, Card.key, Card.name, CardLocalization.name)
            .join(Card, Card.id == CardLocalization.card_id)
            .where(CardLocalization.id.in_(ids["card_text"]))
        ):
            found[("card_text", loc_id)] = {
                "label": local or name,
                "cards": [name],
                "card_key": key,
            }
    return found

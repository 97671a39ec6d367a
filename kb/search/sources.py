"""Which index items a set of changed corpus documents touches, and which items should exist.

An ingest reports the documents it loaded or removed; the items those documents own now (from
the database) and owned before (from the ``docs`` field of the index) are rebuilt. Loading card
data can also move rulings from one card to another (a rulings page recognised as its card), so a
card in scope brings its rulings along, and a final sweep compares the keys the database implies
with the keys the index holds.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kb.models import (
    Card,
    CardClarification,
    Clarification,
    ClarificationText,
    Document,
    Edition,
    Example,
    GlossaryEntry,
    Printing,
    Rule,
    RuleText,
    RulingsPage,
)
from kb.search.documents import NO_EDITION, Scope
from kb.urls import glossary_slug


def _official_dates(session: Session) -> tuple[dict[int, str], str | None]:
    dates = {
        ed_id: date.isoformat()
        for ed_id, date in session.execute(
            select(Edition.id, Edition.effective_date).where(
                Edition.kind == "comprules", Edition.language == "en"
            )
        ).all()
        if date is not None
    }
    return dates, max(dates.values(), default=None)


def scope_of_documents(session: Session, paths: Iterable[str]) -> Scope:
    """The items that the given (currently loaded) documents contribute to."""
    scope = Scope()
    doc_ids = [
        d
        for (d,) in session.execute(
            select(Document.id).where(Document.path.in_(sorted(set(paths))))
        ).all()
    ]
    if not doc_ids:
        return scope
    dates, newest = _official_dates(session)
    for (ed_id,) in session.execute(
        select(Edition.id).where(Edition.document_id.in_(doc_ids))
    ).all():
        if ed_id in dates:
            scope.editions.add(dates[ed_id])
    for number, follows in session.execute(
        select(Rule.number, RuleText.follows_edition_id)
        .join(RuleText, RuleText.rule_id == Rule.id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(Edition.kind == "translations", RuleText.document_id.in_(doc_ids))
    ).all():
        edition = dates.get(follows) if follows else newest
        scope.rules[edition or NO_EDITION].add(number)
    card_ids = {
        c
        for (c,) in session.execute(
            select(Printing.card_id).where(Printing.document_id.in_(doc_ids))
        )
    }
    card_ids |= {
        c
        for (c,) in session.execute(
            select(RulingsPage.card_id).where(RulingsPage.document_id.in_(doc_ids))
        )
        if c is not None
    }
    clar_ids = set()
    for card_id, clar_id in session.execute(
        select(CardClarification.card_id, CardClarification.clarification_id).where(
            CardClarification.document_id.in_(doc_ids)
        )
    ).all():
        card_ids.add(card_id)
        clar_ids.add(clar_id)
    add_cards(session, scope, card_ids, clar_ids)
    return scope


def add_cards(session: Session, scope: Scope, card_ids: set[int], clar_ids: set[int]) -> None:
    """Put cards and rulings in scope, with the cards' rulings and the rulings' cards."""
    if card_ids:
        clar_ids |= {
            c
            for (c,) in session.execute(
                select(CardClarification.clarification_id).where(
                    CardClarification.card_id.in_(sorted(card_ids))
                )
            )
        }
    if clar_ids:
        card_ids |= {
            c
            for (c,) in session.execute(
                select(CardClarification.card_id).where(
                    CardClarification.clarification_id.in_(sorted(clar_ids))
                )
            )
        }
    if card_ids:
        scope.cards |= set(session.scalars(select(Card.key).where(Card.id.in_(sorted(card_ids)))))
    if clar_ids:
        scope.rulings |= set(
            session.scalars(select(Clarification.key).where(Clarification.id.in_(sorted(clar_ids))))
        )


def expected_keys(session: Session) -> set[str]:
    """Every item key the database implies (what a full build would index)."""
    dates, newest = _official_dates(session)
    keys: set[str] = set()
    numbers: dict[tuple[str, str], None] = {}
    for ed_id, number in session.execute(
        select(Rule.edition_id, Rule.number)
        .join(RuleText, RuleText.rule_id == Rule.id)
        .where(Rule.edition_id.in_(list(dates)), RuleText.language == "en")
    ).all():
        numbers[(dates[ed_id], number)] = None
    for follows, number in session.execute(
        select(RuleText.follows_edition_id, Rule.number)
        .join(Rule, Rule.id == RuleText.rule_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(Edition.kind == "translations")
    ).all():
        edition = (dates.get(follows) if follows else newest) or NO_EDITION
        numbers[(edition, number)] = None
    keys |= {f"rule:{ed}:{number}" for ed, number in numbers}
    example_counts: dict[tuple[str, str], int] = {}
    for ed_id, follows, kind, number, count in session.execute(
        select(
            Rule.edition_id,
            RuleText.follows_edition_id,
            Edition.kind,
            Rule.number,
            func.count(Example.id),
        )
        .join(RuleText, RuleText.id == Example.rule_text_id)
        .join(Rule, Rule.id == RuleText.rule_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(
            ((Edition.kind == "comprules") & (RuleText.language == "en"))
            | (Edition.kind == "translations")
        )
        .group_by(Rule.edition_id, RuleText.follows_edition_id, Edition.kind, Rule.number)
    ).all():
        if kind == "comprules":
            edition = dates.get(ed_id)
        else:
            edition = (dates.get(follows) if follows else newest) or NO_EDITION
        if edition is None:
            continue
        slot = (edition, number)
        example_counts[slot] = max(example_counts.get(slot, 0), count)
    keys |= {
        f"example:{ed}:{number}:{i}"
        for (ed, number), count in example_counts.items()
        for i in range(count)
    }
    for ed_id, lang, term in session.execute(
        select(GlossaryEntry.edition_id, GlossaryEntry.language, GlossaryEntry.term)
    ).all():
        if ed_id in dates:
            keys.add(f"glossary:{dates[ed_id]}:{lang}:{glossary_slug(term)}")
    keys |= {f"card:{k}" for k in session.scalars(select(Card.key))}
    keys |= {
        f"ruling:{k}"
        for k in session.scalars(
            select(Clarification.key)
            .join(ClarificationText, ClarificationText.clarification_id == Clarification.id)
            .distinct()
        )
    }
    return keys

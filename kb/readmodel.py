"""The read model: the one set of row queries that site, export and search read rules and cards by.

Each function streams plain rows (named tuples, fetched in batches), so a caller that walks them
holds one batch at a time; a caller that needs an order of its own sorts what it kept. Bodies are
joined from ``rule_bodies`` (stored once) rather than read row by row.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Iterator
from typing import Any, NamedTuple

from sqlalchemy import Select, select
from sqlalchemy.orm import Session, aliased

from kb.models import (
    Card,
    CardLocalization,
    Edition,
    Example,
    Printing,
    Rule,
    RuleBody,
    RuleText,
)

_BATCH = 2000
_IN_CHUNK = 900  # ids per IN (...): within every backend's parameter limit


class RuleTextRow(NamedTuple):
    """One rule text with its rule: what every reader of rules needs."""

    edition_id: int
    rule_id: int
    number: str
    kind: str
    parent_number: str | None
    sort_key: str
    text_id: int
    language: str
    title: str
    body: str
    provenance: str
    follows_edition_id: int | None
    follows_date: dt.date | None
    follows_assumed: bool


class CardTextRow(NamedTuple):
    """A card's name, type line and text in one language."""

    card_id: int
    language: str
    name: str
    type_line: str
    text: str
    provenance: str


def _stream(session: Session, query: Select) -> Iterator:  # type: ignore[type-arg]
    return iter(session.execute(query.execution_options(yield_per=_BATCH)))


def rule_text_rows(
    session: Session,
    *,
    edition_ids: Collection[int] | None = None,
    edition_kind: str | None = None,
    language: str | None = None,
) -> Iterator[RuleTextRow]:
    """Rule texts (of these editions, of editions of this kind, in this language), by text id."""
    follows = aliased(Edition)
    query = (
        select(
            Rule.edition_id,
            Rule.id,
            Rule.number,
            Rule.kind,
            Rule.parent_number,
            Rule.sort_key,
            RuleText.id,
            RuleText.language,
            RuleText.title,
            RuleBody.text,
            RuleText.provenance,
            RuleText.follows_edition_id,
            follows.effective_date,
            RuleText.follows_assumed,
        )
        .join(RuleText, RuleText.rule_id == Rule.id)
        .join(RuleBody, RuleBody.id == RuleText.body_id)
        .outerjoin(follows, follows.id == RuleText.follows_edition_id)
        .order_by(RuleText.id)
    )
    if edition_ids is not None:
        query = query.where(Rule.edition_id.in_(sorted(edition_ids)))
    if edition_kind is not None:
        query = query.join(Edition, Edition.id == Rule.edition_id).where(
            Edition.kind == edition_kind
        )
    if language is not None:
        query = query.where(RuleText.language == language)
    for row in _stream(session, query):
        yield RuleTextRow(*row[:-1], bool(row[-1]))


def examples_by_text(
    session: Session, *, edition_ids: Collection[int] | None = None
) -> dict[int, list[str]]:
    """Rule text id -> its examples in order (of these editions, else of all)."""
    query = select(Example.rule_text_id, Example.text).order_by(
        Example.rule_text_id, Example.position
    )
    if edition_ids is not None:
        query = (
            query.join(RuleText, RuleText.id == Example.rule_text_id)
            .join(Rule, Rule.id == RuleText.rule_id)
            .where(Rule.edition_id.in_(sorted(edition_ids)))
        )
    examples: dict[int, list[str]] = defaultdict(list)
    for text_id, text in _stream(session, query):
        examples[text_id].append(text)
    return dict(examples)


def card_rows(
    session: Session, card_ids: Collection[int] | None = None
) -> Iterator[tuple[int, str, str | None, str, float | None, str | None]]:
    """(id, key, oracle id, name, mana value, layout) of every card (or of ``card_ids``), by id."""
    query = select(Card.id, Card.key, Card.oracle_id, Card.name, Card.mana_value, Card.layout)
    for row in _by_ids(session, query, Card.id, card_ids, (Card.id,)):
        yield tuple(row)  # type: ignore[misc]


def card_text_rows(
    session: Session, card_ids: Collection[int] | None = None
) -> Iterator[CardTextRow]:
    """Every card's localizations (or those of ``card_ids``), by card and language."""
    query = select(
        CardLocalization.card_id,
        CardLocalization.language,
        CardLocalization.name,
        CardLocalization.type_line,
        CardLocalization.text,
        CardLocalization.provenance,
    )
    order = (CardLocalization.card_id, CardLocalization.language)
    for row in _by_ids(session, query, CardLocalization.card_id, card_ids, order):
        yield CardTextRow(*row)


def _by_ids(
    session: Session,
    query: Select,  # type: ignore[type-arg]
    column: Any,
    ids: Collection[int] | None,
    order: tuple[Any, ...],
) -> Iterator:  # type: ignore[type-arg]
    """The query's rows in ``order``: all of them, or those whose ``column`` is in ``ids``
    (asked in chunks in ascending id order, so the rows come in the same order either way
    when ``column`` leads ``order``)."""
    if ids is None:
        yield from _stream(session, query.order_by(*order))
        return
    wanted = sorted(set(ids))
    for start in range(0, len(wanted), _IN_CHUNK):
        chunk = wanted[start : start + _IN_CHUNK]
        yield from _stream(session, query.where(column.in_(chunk)).order_by(*order))


def printing_rows(session: Session) -> Iterator[tuple[int, str, str, str]]:
    """(card id, set code, collector number, rarity) of every printing."""
    query = select(Printing.card_id, Printing.set_code, Printing.number, Printing.rarity).order_by(
        Printing.id
    )
    for row in _stream(session, query):
        yield tuple(row)  # type: ignore[misc]

"""The links of one edition as its readers see them: lineage rows numbered in that edition.

A term link from a ruling or a card text is stored once per rule lineage (kb.links.lineage_rows);
in an edition within its dates (``first_date``..``last_date``) it reads as a resolved link to the
rule of that lineage the edition has, under the edition's number. Every other link is stored for
its edition and reads as stored. The queries, the site and the dump read links through here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, select, true
from sqlalchemy.orm import Session

from kb.models import Edition, Link, Rule


@dataclass(frozen=True)
class EditionLink:
    """One link as read in one edition (the attributes of a Link row that readers use)."""

    id: int
    source_type: str
    source_id: int
    source_language: str
    target: str
    target_rule_id: int | None
    kind: str
    matched: str
    start: int
    end: int
    resolved: bool
    lineage: bool = False  # read from a lineage row (kb.links.lineage_rows)


def reading_order(link: EditionLink) -> tuple[Any, ...]:
    """The order readers get an edition's links in: the edition's own rows as they were
    written, then the lineage rows by what they say. Not the lineage rows' ids: an
    incremental relink updates the rows that carry on and adds the new ones after, where a
    rebuild writes them all in order; both must read the same.
    """
    if not link.lineage:
        return (0, link.id)
    return (
        1,
        link.source_type,
        link.source_id,
        link.source_language,
        link.matched,
        link.start,
        link.end,
        link.target,
    )


_COMMON = (
    Link.id,
    Link.source_type,
    Link.source_id,
    Link.source_language,
)
_TAIL = (Link.kind, Link.matched, Link.start, Link.end)
MANY = 200  # source ids from which the lineage rows are numbered here rather than by a join


def _filtered(
    query: Select[Any],
    target: Any,
    rule_id: Any,
    *,
    source_types: Iterable[str] | None,
    source_ids: Any,
    number: str | None,
    rule_ids: Any,
) -> Select[Any]:
    if source_types is not None:
        query = query.where(Link.source_type.in_(sorted(source_types)))
    if source_ids is not None:
        query = query.where(Link.source_id.in_(source_ids))
    if number is not None:
        query = query.where(target == number)
    if rule_ids is not None:
        query = query.where(rule_id.in_(rule_ids))
    return query


def edition_links(
    session: Session,
    edition: Edition | int,
    *,
    source_types: Iterable[str] | None = None,
    source_ids: Any = None,
    number: str | None = None,
    rule_ids: Any = None,
    resolved: bool | None = None,
) -> list[EditionLink]:
    """The links into an edition, optionally only some sources, one number, or some rules.

    ``source_ids`` and ``rule_ids`` are lists or SELECTs of ids; ``resolved`` keeps only the
    resolved (True) or unresolved (False) links. In :func:`reading_order`.
    """
    edition_id, day = _edition(session, edition)
    options = {
        "source_types": None if source_types is None else list(source_types),
        "source_ids": source_ids,
        "number": number,
        "rule_ids": rule_ids,
    }
    own = select(*_COMMON, Link.target, Link.target_rule_id, *_TAIL, Link.resolved).where(
        Link.target_edition_id == edition_id
    )
    if resolved is not None:
        own = own.where(Link.resolved.is_(resolved))
    queries = [_filtered(own, Link.target, Link.target_rule_id, **options)]
    found: list[EditionLink] = []
    # Many sources (the whole edition, or a long list of ids): the lineage rows are numbered
    # by the edition's rules read once (see _lineage_links); one rule or a few sources: by SQL.
    many = source_ids is None or (isinstance(source_ids, list) and len(source_ids) > MANY)
    if resolved is not False and day is not None and many and number is None and rule_ids is None:
        found = _lineage_links(session, edition_id, day, options["source_types"], source_ids)
    elif resolved is not False and day is not None:
        by_lineage = (
            select(*_COMMON, Rule.number, Rule.id, *_TAIL, true())
            .join(
                Rule,
                (Rule.lineage_id == Link.target_lineage_id) & (Rule.edition_id == edition_id),
            )
            .where(Link.first_date <= day, Link.last_date >= day)
        )
        queries.append(_filtered(by_lineage, Rule.number, Rule.id, **options))
    found += [
        EditionLink(*row[:-1], bool(row[-1]), lineage=place > 0)
        for place, query in enumerate(queries)
        for row in session.execute(query)
    ]
    found.sort(key=reading_order)
    return found


def _lineage_links(
    session: Session,
    edition_id: int,
    day: dt.date,
    source_types: list[str] | None,
    source_ids: list[int] | None,
) -> list[EditionLink]:
    """Every lineage row within its dates on ``day``, numbered in the edition: the join of the
    query above done here, by the edition's rules per lineage.

    Asked of a whole edition or of many sources, the database looks up the rules of each
    lineage row's lineage (one per edition, a hundred editions at the whole history) and keeps
    the edition's: some hundred times the rows (6 s of a site build's 7 s reading the rulings'
    links). The edition's rules are read once instead (a few thousand rows).
    """
    rules: dict[int, list[tuple[str, int]]] = {}
    for rule_id, number, lineage_id in session.execute(
        select(Rule.id, Rule.number, Rule.lineage_id).where(
            Rule.edition_id == edition_id, Rule.lineage_id.is_not(None)
        )
    ):
        rules.setdefault(lineage_id, []).append((number, rule_id))
    query = select(*_COMMON, Link.target_lineage_id, *_TAIL).where(
        Link.target_lineage_id.is_not(None), Link.first_date <= day, Link.last_date >= day
    )
    if source_types is not None:
        query = query.where(Link.source_type.in_(sorted(source_types)))
    if source_ids is not None:
        query = query.where(Link.source_id.in_(source_ids))
    found = []
    for link_id, source_type, source_id, language, lineage_id, *tail in session.execute(query):
        for number, rule_id in rules.get(lineage_id, ()):
            found.append(
                EditionLink(
                    link_id, source_type, source_id, language, number, rule_id, *tail, True, True
                )
            )
    return found


def linked_numbers(
    session: Session, edition_id: int | None, source_types: Iterable[str]
) -> set[str]:
    """The rule numbers resolved links from these sources reach (in one edition, or in any)."""
    types = sorted(source_types)
    own = select(Link.target).where(
        Link.resolved.is_(True), Link.source_type.in_(types), Link.target_lineage_id.is_(None)
    )
    by_lineage = (
        select(Rule.number)
        .join(Link, Link.target_lineage_id == Rule.lineage_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(
            Link.source_type.in_(types),
            Link.first_date <= Edition.effective_date,
            Link.last_date >= Edition.effective_date,
        )
    )
    if edition_id is not None:
        own = own.where(Link.target_edition_id == edition_id)
        by_lineage = by_lineage.where(Rule.edition_id == edition_id)
    numbers = set(session.scalars(own.distinct()))
    numbers.update(session.scalars(by_lineage.distinct()))
    return numbers


def _edition(session: Session, edition: Edition | int) -> tuple[int, dt.date | None]:
    if isinstance(edition, int):
        return edition, session.scalar(select(Edition.effective_date).where(Edition.id == edition))
    return edition.id, edition.effective_date

"""Rule lineages: each English edition's rules tied to the same rule in the edition before.

The content alignment of ``kb diff`` (kb.versions.align) is computed once, when an edition
arrives, between it and its predecessor by effective date; a rule paired with an older rule takes
that rule's lineage, any other starts a new one. An edition is aligned again when its
predecessor changed (one loaded in between, or the old one removed or re-ingested): the lineages
its rules take are then renamed in it and in every later edition, so a lineage always runs
unbroken through consecutive editions. Adding the newest edition aligns one pair of editions.
"""

from __future__ import annotations

import logging

from sqlalchemy import bindparam, delete, exists, insert, select, update
from sqlalchemy.orm import Session

from kb.models import Edition, Lineage, Rule

from .align import RuleContent, align, load_contents

log = logging.getLogger(__name__)


def _english(session: Session) -> list[Edition]:
    return list(
        session.scalars(
            select(Edition)
            .where(Edition.kind == "comprules", Edition.language == "en")
            .order_by(Edition.effective_date, Edition.id)
        )
    )


def _needs_alignment(session: Session, edition: Edition, previous: Edition | None) -> bool:
    expected = previous.id if previous else None
    if edition.lineage_after_id != expected:
        return True
    unassigned = select(Rule.id).where(Rule.edition_id == edition.id, Rule.lineage_id.is_(None))
    return session.scalar(select(exists(unassigned))) or False


def _lineages(session: Session, edition: Edition) -> dict[str, int | None]:
    return dict(
        session.execute(
            select(Rule.number, Rule.lineage_id).where(Rule.edition_id == edition.id)
        ).all()
    )


def _new_lineages(session: Session, count: int) -> list[int]:
    if not count:
        return []
    ids = session.execute(
        insert(Lineage).returning(Lineage.id, sort_by_parameter_order=True), [{}] * count
    )
    return list(ids.scalars())


def update_lineages(session: Session) -> int:
    """Bring every English edition's rule lineages in step; return how many were aligned."""
    editions = _english(session)
    aligned = 0
    previous: Edition | None = None
    contents = _Contents(session)
    for index, edition in enumerate(editions):
        if _needs_alignment(session, edition, previous):
            _align_with(session, edition, previous, editions[index:], contents)
            aligned += 1
        previous = edition
    if aligned:
        session.execute(delete(Lineage).where(~exists().where(Rule.lineage_id == Lineage.id)))
        log.info("rule lineages: %d edition(s) aligned", aligned)
    return aligned


class _Contents:
    """The rules of the editions being aligned, each loaded once: an edition aligned as the new
    side of one pair is the old side of the next (a cold ingest aligns every pair in turn)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.held: dict[int, dict[str, RuleContent]] = {}

    def of(self, edition: Edition) -> dict[str, RuleContent]:
        found = self.held.get(edition.id)
        if found is None:
            if len(self.held) >= 2:  # only the pair at hand and the next one's old side
                self.held.pop(next(iter(self.held)))
            found = self.held[edition.id] = load_contents(self.session, edition)
        return found


def _align_with(
    session: Session,
    edition: Edition,
    previous: Edition | None,
    onwards: list[Edition],
    contents: _Contents,
) -> None:
    """Give an edition's rules their predecessor's lineages (or new ones), renaming onwards."""
    current = _lineages(session, edition)
    wanted: dict[str, int | None] = {}
    if previous is not None:
        before = _lineages(session, previous)
        pairs = align(contents.of(previous), contents.of(edition)).pairs
        for old, new in pairs.items():
            if new in current and before.get(old) is not None:
                wanted[new] = before[old]
        held_before = {lineage for lineage in before.values() if lineage is not None}
    else:
        held_before = set()
    # An unpaired rule keeps its lineage when nothing before holds it and no pair claims it.
    claimed = set(wanted.values())
    fresh: list[str] = []
    for number, lineage in sorted(current.items()):
        if number in wanted:
            continue
        if lineage is not None and lineage not in held_before and lineage not in claimed:
            wanted[number] = lineage
            claimed.add(lineage)
        else:
            fresh.append(number)
    wanted.update(zip(fresh, _new_lineages(session, len(fresh)), strict=True))
    renames = {
        old: wanted[number]
        for number, old in current.items()
        if old is not None and old != wanted[number]
    }
    rows = [
        {"id": rule_id, "lineage": wanted[number]}
        for number, rule_id in session.execute(
            select(Rule.number, Rule.id).where(Rule.edition_id == edition.id)
        )
        if current[number] != wanted[number]
    ]
    if renames and len(onwards) > 1:  # later editions follow: their rules carry the same lineages
        later = [e.id for e in onwards[1:]]
        for rule_id, lineage in session.execute(
            select(Rule.id, Rule.lineage_id).where(
                Rule.edition_id.in_(later), Rule.lineage_id.in_(list(renames))
            )
        ):
            rows.append({"id": rule_id, "lineage": renames[lineage]})
    _set_lineages(session, rows)
    edition.lineage_after_id = previous.id if previous else None
    session.flush()


def _set_lineages(session: Session, rows: list[dict[str, int]]) -> None:
    """Point rules at lineages: one prepared UPDATE run for every row (executemany)."""
    if not rows:
        return
    table = Rule.__table__
    statement = (
        update(table).where(table.c.id == bindparam("rule")).values(lineage_id=bindparam("lineage"))
    )
    for start in range(0, len(rows), 5000):
        chunk = [{"rule": r["id"], "lineage": r["lineage"]} for r in rows[start : start + 5000]]
        session.execute(statement, chunk)


def lineage_of(session: Session, edition: Edition, number: str) -> int | None:
    """The lineage of a rule number in an edition (None when the edition has no such rule)."""
    return session.scalar(
        select(Rule.lineage_id).where(Rule.edition_id == edition.id, Rule.number == number)
    )


def numbers_of(session: Session, lineage: int) -> dict[str, str]:
    """A lineage's number in each English edition that has it: edition key -> number."""
    return dict(
        session.execute(
            select(Edition.key, Rule.number)
            .join(Edition, Edition.id == Rule.edition_id)
            .where(Rule.lineage_id == lineage)
            .order_by(Edition.effective_date)
        ).all()
    )

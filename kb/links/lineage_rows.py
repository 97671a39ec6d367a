"""Term links from rulings and card texts, stored once per rule lineage instead of per edition.

A ruling that says "vote" matches the Vote rule in every edition, numbered 701.32 in 2021 and
701.38 today: one row per (text, span, lineage) says so for all of them, and a reader takes the
number of the edition it shows (kb.links.view). A row holds from the effective date of the first
edition that matched to that of the last (``first_date``, ``last_date``): an edition in between
whose vocabulary did not match splits it in two, so every edition reads exactly the links its own
matching gave. The rows are collected while the editions are linked, in any order, and written at
the end; ``target`` is the number in the newest edition of the run, so a rebuild and an
incremental relink write the same rows.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from kb.bulk import chunks, insert_many, update_many
from kb.models import DerivedState, Edition, Link, Rule
from kb.versions import english_editions

# The texts whose term links do not depend on the edition they are read in.
LINEAGE_SOURCES = frozenset({"clarification_text", "card_text"})

_Key = tuple[str, int, str, str, int, int, int]  # type, id, language, matched, start, end, lineage
# A stored row by (key, first date): (its id, last date, number).
_Stored = dict[tuple[_Key, dt.date | None], tuple[int, dt.date | None, str]]


class LineageLinks:
    """The lineage rows found so far: per (text, span, lineage), its runs of editions.

    A run is [first place, last place, number in the last] (places among the English editions,
    oldest first); editions linked in order extend the last run, others are merged in.
    """

    def __init__(self, editions: Sequence[Any]) -> None:
        self.orders = {edition.id: i for i, edition in enumerate(editions)}
        self.ids = [edition.id for edition in editions]
        self.dates: list[dt.date | None] = [edition.effective_date for edition in editions]
        self.found: dict[_Key, list[list[Any]]] = {}
        # The stored rows ``load`` read, and the ids of rows stored twice: once read, the rows
        # are written as changes to these (``replace_all``).
        self.stored: _Stored | None = None
        self.doubled: list[int] = []

    @classmethod
    def of(cls, session: Session) -> LineageLinks:
        """An empty collection for the English editions stored now (oldest first)."""
        return cls(english_editions(session))

    def add(
        self,
        order: int,
        source: Any,
        lineage: int,
        number: str,
        matched: str,
        start: int,
        end: int,
    ) -> None:
        """Note one match in the edition at ``order`` (its place among the English editions)."""
        key = (source.source_type, source.source_id, source.language, matched, start, end, lineage)
        runs = self.found.setdefault(key, [])
        if runs and runs[-1][1] == order - 1:
            runs[-1][1], runs[-1][2] = order, number
        elif not runs or runs[-1][1] < order - 1:
            runs.append([order, order, number])
        else:
            _merge_in(runs, order, number)

    def load(self, session: Session, relinked: set[int]) -> None:
        """Start from the stored lineage rows, less the editions (ids) linked again now.

        Some 275,000 rows at the whole history, read on every edition added: the loop does
        the least per row (most runs hold no relinked edition and are the only run of their
        key, so they are neither split nor sorted).
        """
        skip = {self.orders[i] for i in relinked if i in self.orders}
        lowest, highest = (min(skip), max(skip)) if skip else (0, -1)
        place = {day: i for i, day in enumerate(self.dates)}
        unknown: dict[int, set[int]] = {}  # place -> lineages whose number there is needed
        found = self.found
        stored: _Stored = {}
        doubled: list[int] = []
        for row in session.execute(
            select(
                Link.id,
                Link.source_type,
                Link.source_id,
                Link.source_language,
                Link.matched,
                Link.start,
                Link.end,
                Link.target_lineage_id,
                Link.first_date,
                Link.last_date,
                Link.target,
            )
            .where(Link.target_lineage_id.is_not(None))
            .order_by(Link.first_date, Link.id)
        ):
            link_id, first, last, number = row[0], row[8], row[9], row[10]
            key: _Key = row[1:8]  # type: ignore[assignment]
            written = (key, first)
            if written in stored:
                doubled.append(link_id)
            else:
                stored[written] = (link_id, last, number)
            low, high = place.get(first), place.get(last)
            if low is None or high is None:
                continue  # an edition of the run is gone: the rows are not reusable
            runs = found.get(key)
            if runs is None:
                runs = found[key] = []
            if high < lowest or low > highest:
                runs.append([low, high, number])
                continue
            for a, b in _without(low, high, skip):
                runs.append([a, b, number if b == high else None])
                if b != high:
                    unknown.setdefault(b, set()).add(key[-1])
        for runs in found.values():
            if len(runs) > 1:
                _normalise(runs)
        self.stored, self.doubled = stored, doubled
        self._fill(session, unknown)

    def _fill(self, session: Session, unknown: dict[int, set[int]]) -> None:
        """The numbers of runs that now end before a relinked edition (from the rules)."""
        if not unknown:
            return
        numbers: dict[tuple[int, int], str] = {}
        for order, lineages in unknown.items():
            for lineage, number in session.execute(
                select(Rule.lineage_id, Rule.number).where(
                    Rule.edition_id == self.ids[order], Rule.lineage_id.in_(sorted(lineages))
                )
            ):
                numbers[(order, lineage)] = number
        for key, runs in self.found.items():
            for run in runs:
                if run[2] is None:
                    run[2] = numbers.get((run[1], key[-1]), "")

    def rows(self) -> list[dict[str, Any]]:
        """The Link rows, one per run of consecutive editions, in a fixed order."""
        return [
            self._row(key, first, last, number)
            for key, runs in sorted(self.found.items())
            for first, last, number in runs
        ]

    def _row(self, key: _Key, first: int, last: int, number: str) -> dict[str, Any]:
        source_type, source_id, language, matched, start, end, lineage = key
        return {
            "source_type": source_type,
            "source_id": source_id,
            "source_language": language,
            "target": number,
            "target_edition_id": None,
            "target_rule_id": None,
            "target_lineage_id": lineage,
            "first_date": self.dates[first],
            "last_date": self.dates[last],
            "kind": "term",
            "matched": matched,
            "start": start,
            "end": end,
            "resolved": True,
        }

    def replace_all(self, session: Session) -> int:
        """Put these rows in place of every lineage row; return how many there are now.

        After ``load``, only what differs is written: a new edition extends the runs that
        reached the one before it (their last date and number change) and adds or ends a few,
        so most of the ~275,000 rows of the whole history stay as they are, where deleting
        and inserting them all again took a sixth of adding the edition. Readers order the
        rows by their content, not their ids (kb.links.view), so the two ways read the same.
        """
        if self.stored is None:
            session.execute(delete(Link).where(Link.target_lineage_id.is_not(None)))
            return self._write(session)
        stored, dates = self.stored, self.dates
        added: list[tuple[_Key, int, int, str]] = []
        changed: list[tuple[int, dt.date | None, str]] = []
        total = 0
        for key, runs in self.found.items():
            total += len(runs)
            for first, last, number in runs:
                old = stored.pop((key, dates[first]), None)
                if old is None:
                    added.append((key, first, last, number))
                elif old[1] != dates[last] or old[2] != number:
                    changed.append((old[0], dates[last], number))
        for chunk in chunks(sorted([*self.doubled, *(old[0] for old in stored.values())])):
            session.execute(delete(Link).where(Link.id.in_(chunk)))
        update_many(session, Link, ("last_date", "target"), changed)
        added.sort(key=lambda run: (run[0], run[1]))
        insert_many(session, Link, [self._row(*run) for run in added])
        self.stored, self.doubled = None, []
        return total

    def replace_sources(self, session: Session, ids: dict[str, set[int]]) -> int:
        """Put these rows in place of the lineage rows of some texts (per source type)."""
        for source_type, source_ids in ids.items():
            for chunk in chunks(sorted(source_ids)):
                session.execute(
                    delete(Link).where(
                        Link.target_lineage_id.is_not(None),
                        Link.source_type == source_type,
                        Link.source_id.in_(chunk),
                    )
                )
        return self._write(session)

    def replace_languages(self, session: Session, languages: Iterable[str]) -> int:
        """Put these rows in place of the lineage rows of texts in some languages."""
        session.execute(
            delete(Link).where(
                Link.target_lineage_id.is_not(None), Link.source_language.in_(sorted(languages))
            )
        )
        return self._write(session)

    def _write(self, session: Session) -> int:
        rows = self.rows()
        insert_many(session, Link, rows)
        return len(rows)


def _without(low: int, high: int, skip: set[int]) -> list[tuple[int, int]]:
    """The stretch low..high of edition places with some places taken out: (0, 4) less {2}."""
    parts: list[tuple[int, int]] = []
    start = low
    for place in sorted(p for p in skip if low <= p <= high):
        if place > start:
            parts.append((start, place - 1))
        start = place + 1
    if start <= high:
        parts.append((start, high))
    return parts


def _merge_in(runs: list[list[Any]], order: int, number: str) -> None:
    """Add one place to sorted runs, joining the runs it makes consecutive."""
    for run in runs:
        if run[0] <= order <= run[1]:
            if order == run[1]:
                run[2] = number
            return
    runs.append([order, order, number])
    _normalise(runs)


def _normalise(runs: list[list[Any]]) -> None:
    """Sort runs and join those that touch; a joined run keeps the number of its last place."""
    runs.sort(key=lambda run: (run[0], run[1]))
    merged: list[list[Any]] = []
    for run in runs:
        if merged and run[0] <= merged[-1][1] + 1:
            if run[1] >= merged[-1][1]:
                merged[-1][1] = run[1]
                merged[-1][2] = run[2] if run[2] is not None else merged[-1][2]
        else:
            merged.append(list(run))
    runs[:] = merged


STAGE = "lineage-links:"  # per English edition (by its date): the digest of its rules' lineages


def lineage_digests(session: Session) -> dict[int, str]:
    """Per English edition, a digest of its rules' (number, lineage): what its rows rely on.

    A lineage is named by its oldest (edition date, number), not its id: ids depend on the order
    things were loaded in (and on PostgreSQL on sequences an interrupted run advanced), so two
    knowledge bases with the same content give the same digests.
    """
    rows = session.execute(
        select(Rule.edition_id, Edition.effective_date, Rule.number, Rule.lineage_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(Edition.kind == "comprules", Edition.language == "en")
        .order_by(Edition.effective_date, Rule.edition_id, Rule.number)
    ).all()
    names: dict[int, str] = {}
    for _edition_id, day, number, lineage in rows:
        if lineage is not None and lineage not in names:
            names[lineage] = f"{day}/{number}"
    digests: dict[int, Any] = {}
    for edition_id, _day, number, lineage in rows:
        digest = digests.get(edition_id)
        if digest is None:
            digest = digests[edition_id] = hashlib.sha256()
        digest.update(f"{number}\0{names.get(lineage, '')}\n".encode())
    return {edition_id: digest.hexdigest() for edition_id, digest in digests.items()}


def _edition_dates(session: Session) -> dict[int, str]:
    """The English editions' dates by id: the records name an edition by its date, not its id,
    so that two knowledge bases with the same content hold the same records (ids depend on the
    order things were loaded in)."""
    return {
        e.id: e.effective_date.isoformat() for e in english_editions(session) if e.effective_date
    }


def reusable(session: Session, digests: dict[int, str], relinked: set[int]) -> bool:
    """Whether the stored lineage rows still hold for every edition not linked again now."""
    ids = {day: edition_id for edition_id, day in _edition_dates(session).items()}
    stored: dict[int, str] = {}
    for stage, inputs in session.execute(
        select(DerivedState.stage, DerivedState.inputs).where(DerivedState.stage.startswith(STAGE))
    ):
        edition_id = ids.get(stage[len(STAGE) :])
        if edition_id is None:
            return False  # an edition they counted is gone (or an older record)
        stored[edition_id] = inputs
    if not stored or set(stored) - set(digests):
        return False  # never recorded, or an edition they counted is gone
    return all(stored.get(i) == digest for i, digest in digests.items() if i not in relinked)


def record_digests(session: Session, digests: dict[int, str]) -> None:
    """Note the lineages the lineage rows were made with (kb.links.build reuses them)."""
    session.execute(delete(DerivedState).where(DerivedState.stage.startswith(STAGE)))
    dates = _edition_dates(session)
    for edition_id, digest in sorted(digests.items()):
        if edition_id in dates:
            session.add(DerivedState(stage=f"{STAGE}{dates[edition_id]}", inputs=digest))

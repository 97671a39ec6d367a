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
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session

from kb.bulk import insert_many
from kb.models import Link
from kb.versions import english_editions

# The texts whose term links do not depend on the edition they are read in.
LINEAGE_SOURCES = frozenset({"clarification_text", "card_text"})

_Key = tuple[str, int, str, str, int, int, int]  # type, id, language, matched, start, end, lineage


def _chunks(values: Iterable[int], size: int = 900) -> list[list[int]]:
    items = sorted(values)
    return [items[i : i + size] for i in range(0, len(items), size)]


class LineageLinks:
    """The lineage rows found so far: per (text, span, lineage), the editions and numbers seen."""

    def __init__(self, editions: Sequence[Any]) -> None:
        self.orders = {edition.id: i for i, edition in enumerate(editions)}
        self.dates: list[dt.date | None] = [edition.effective_date for edition in editions]
        self.found: dict[_Key, dict[int, str]] = {}

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
        self.found.setdefault(key, {})[order] = number

    def rows(self) -> list[dict[str, Any]]:
        """The Link rows, one per run of consecutive editions, in a fixed order."""
        rows = []
        for key, seen in sorted(self.found.items()):
            source_type, source_id, language, matched, start, end, lineage = key
            for first, last in _runs(sorted(seen)):
                rows.append(
                    {
                        "source_type": source_type,
                        "source_id": source_id,
                        "source_language": language,
                        "target": seen[last],
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
                )
        return rows

    def replace_all(self, session: Session) -> int:
        """Put these rows in place of every lineage row; return how many were written."""
        session.execute(delete(Link).where(Link.target_lineage_id.is_not(None)))
        return self._write(session)

    def replace_sources(self, session: Session, ids: dict[str, set[int]]) -> int:
        """Put these rows in place of the lineage rows of some texts (per source type)."""
        for source_type, source_ids in ids.items():
            for chunk in _chunks(source_ids):
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


def _runs(orders: list[int]) -> list[tuple[int, int]]:
    """Consecutive stretches of sorted edition places: [0, 1, 2, 5, 6] -> [(0, 2), (5, 6)]."""
    runs: list[tuple[int, int]] = []
    for order in orders:
        if runs and runs[-1][1] == order - 1:
            runs[-1] = (runs[-1][0], order)
        else:
            runs.append((order, order))
    return runs

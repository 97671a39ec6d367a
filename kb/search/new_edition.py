"""The rules' index items after an ingest that added one English edition, newer than the rest.

An index item stands for one distinct text and lists every edition holding it
(:mod:`kb.search.editions`). A new edition changes what two editions contribute: its own
items, and those of the edition before it, which loses the translations that follow no edition
(they are shown with the newest one). No other edition's items change (the card terms that
title keyword rules are the caller's to check: they are read by number, in every edition). So
the items of those two editions are built, before and after, and set against what the index
holds: an item whose text the new edition repeats is the same text with one more edition (its
key, date and display data those of the newest), an item only the previous edition held and no
longer holds is gone, a text no item holds is new. The other editions' lists come from the
index's stored ``edition`` field: building every edition's items to learn them took about 15 s
at the whole history (103 editions, 221k rule rows).

An item of the index is matched to a built one by its hash: the built item given the indexed
item's editions must hash as the indexed item does. That matches a rule whose text returns to
an older wording as well (an item of the same number the previous edition did not hold).
The result is what a build of every edition would compare, in the order it would write them
(the first edition holding an item, then its place in that edition), so the update writes the
same documents in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kb.search.rules_update import is_rule_key
from kb.search.schema import NO_EDITION

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from kb.db import Database

_Sig = tuple[str, str]  # (type, signature)


@dataclass
class EditionChanges:
    """What the new edition changes among the rules' items."""

    expected: dict[str, dict[str, Any]]  # key -> item (with its hash), in the order of a build
    stale: list[str]  # indexed keys that are gone
    removed: list[dict[str, Any]] = field(default_factory=list)  # texts no item holds any more
    added: list[dict[str, Any]] = field(default_factory=list)  # texts no item held before


def _split(key: str) -> tuple[str, str, str]:
    kind, edition, rest = key.split(":", 2)
    return kind, edition, rest


def stamped(item: dict[str, Any], editions: list[str]) -> dict[str, Any]:
    """An item as a build of every edition makes it when ``editions`` (newest first) hold its
    text: the newest one's key, date and display data, every one in ``edition``; hashed."""
    from kb.search.editions import restamp
    from kb.search.indexer import item_hash

    out = {k: v for k, v in item.items() if k != "hash"}
    restamp(out, editions[0])
    out["edition"] = " ".join(editions)
    out["data"] = dict(out["data"], editions=editions)
    out["hash"] = item_hash(out)
    return out


def _by_text(items: Iterable[dict[str, Any]]) -> dict[_Sig, dict[str, Any]]:
    """One edition's items by (type, text signature); the first of a text, as a build keeps."""
    from kb.search.editions import signature

    found: dict[_Sig, dict[str, Any]] = {}
    for item in items:
        if item.get("bound") == "edition":
            found.setdefault((item["type"], signature(item)), item)
    return found


def _edition_items(session: Session, edition_id: int, newest: str) -> dict[_Sig, dict[str, Any]]:
    from kb.search.documents import glossary_items, rule_items

    return _by_text(
        [*rule_items(session, [edition_id], newest), *glossary_items(session, [edition_id])]
    )


def new_edition_changes(
    db: Database, reader: Any, current: dict[str, str], edition_id: int
) -> EditionChanges | None:
    """The rules' items that differ once the English edition ``edition_id`` was added, or None
    when the index does not hold what this needs (then every rules' item is built)."""
    from kb.search.documents import edition_dates

    with db.session() as session:
        dates, newest = edition_dates(session)
        new = dates.get(edition_id)
        others = {d: i for i, d in dates.items() if i != edition_id}
        if new is None or new != newest or not others or len(others) != len(dates) - 1:
            return None
        previous = max(others)
        held = {_split(k)[1] for k in current if is_rule_key(k)} - {NO_EDITION}
        if new in held or max(held, default="") != previous:
            return None  # the index is not that of the editions before this one
        before = _edition_items(session, others[previous], previous)
        after = _edition_items(session, others[previous], new)
        added = _edition_items(session, edition_id, new)
        return _changes(session, reader, current, dates, previous, new, before, after, added)


def _changes(
    session: Session,
    reader: Any,
    current: dict[str, str],
    dates: dict[int, str],
    previous: str,
    new: str,
    before: dict[_Sig, dict[str, Any]],
    after: dict[_Sig, dict[str, Any]],
    added: dict[_Sig, dict[str, Any]],
) -> EditionChanges | None:
    docnums = _docnums(reader)
    by_rest: dict[tuple[str, str], list[str]] = {}
    for key in current:
        if is_rule_key(key):
            kind, edition, rest = _split(key)
            if edition != NO_EDITION:
                by_rest.setdefault((kind, rest), []).append(key)

    def indexed(key: str) -> list[str]:
        return str(reader.stored_fields(docnums[key]).get("edition") or "").split()

    held: dict[_Sig, tuple[str, list[str]]] = {}  # text -> (its indexed key, its editions)
    kept: dict[_Sig, dict[str, Any]] = {}  # the indexed items, as built again
    for sig, item in before.items():  # the previous edition's texts: keyed at it
        kind, _, rest = _split(item["key"])
        key = f"{kind}:{previous}:{rest}"
        editions = indexed(key) if key in docnums else []
        if not editions:
            return None  # the index does not hold the previous edition's item
        kept[sig] = stamped(item, editions)
        if kept[sig]["hash"] != current[key]:
            return None  # not the item a build of the editions before made
        held[sig] = (key, editions)
    for sig, item in {**after, **added}.items():  # a text an older edition held (or none)
        if sig in held:
            continue
        kind, _, rest = _split(item["key"])
        for key in by_rest.get((kind, rest), ()):
            editions = indexed(key)
            if previous not in editions and stamped(item, editions)["hash"] == current[key]:
                held[sig] = (key, editions)
                break

    keyed_before = {key for key, _ in held.values() if _split(key)[1] == previous}
    if keyed_before != {k for k in current if is_rule_key(k) and _split(k)[1] == previous}:
        return None  # an item of the previous edition that its items do not account for
    accounted = {key for key, _ in held.values()}
    changes = EditionChanges(expected={}, stale=[])
    items: dict[str, dict[str, Any]] = {}
    stale: set[str] = set()
    for sig in {**before, **after, **added}:
        key, editions = held.get(sig, (None, []))
        now = set(editions) - {previous}
        if sig in after:
            now.add(previous)
        if sig in added:
            now.add(new)
        item = added.get(sig) or after.get(sig) or before[sig]
        if not now:
            changes.removed.append(item)
            stale.add(str(key))
            continue
        if not editions:
            changes.added.append(item)
        listed = sorted(now, reverse=True)
        made = kept[sig] if sig in kept and listed == editions else stamped(item, listed)
        if made["key"] in items or (made["key"] in current and made["key"] not in accounted):
            return None  # two texts under one key: a build keeps the first (leave it to one)
        items[made["key"]] = made
        if key is not None and key != made["key"]:
            stale.add(key)
    changes.stale = sorted(stale - set(items))
    # The changed items in the order a build lists them (the order they are written in).
    changed = [item for key, item in items.items() if current.get(key) != item["hash"]]
    order = _Order(session, dates, changed)
    changed.sort(key=order.place)
    changes.expected = {item["key"]: item for item in changed}
    changes.expected.update(
        (key, item) for key, item in items.items() if key not in changes.expected
    )
    return changes


class _Order:
    """Where a build of every edition lists an item: rules and examples by their first edition
    (date), then number and place in the rule; glossary entries after them, by their first
    edition (id: the order they are read in) and place in its glossary."""

    def __init__(
        self, session: Session, dates: dict[int, str], items: list[dict[str, Any]]
    ) -> None:
        from sqlalchemy import select

        from kb.models import GlossaryEntry

        self._ids = {date: edition_id for edition_id, date in dates.items()}
        firsts = {self._first(i) for i in items if i["type"] == "glossary"}
        self._positions: dict[tuple[int, str, str], int] = {}
        query = select(
            GlossaryEntry.edition_id,
            GlossaryEntry.language,
            GlossaryEntry.term,
            GlossaryEntry.position,
        ).where(GlossaryEntry.edition_id.in_(sorted(firsts)))
        for row in session.execute(query) if firsts else ():
            place = tuple(row[:3])
            self._positions[place] = min(row[3], self._positions.get(place, row[3]))

    def _first(self, item: dict[str, Any]) -> int:
        return min(self._ids[e] for e in item["data"]["editions"])

    def place(self, item: dict[str, Any]) -> tuple[Any, ...]:
        """The item's place in a build's order."""
        from kb.corpus.numbers import sort_key

        data = item["data"]
        if item["type"] != "glossary":
            within = 0 if item["type"] == "rule" else 1 + int(data["position"])
            return (0, data["editions"][-1], sort_key(data["number"]), within)
        first = self._first(item)
        return (1, first, self._positions.get((first, data["language"], data["term"]), 0))


def _docnums(reader: Any) -> dict[str, int]:
    """Key -> document number of every live document (to read the stored fields of a few)."""
    keys = reader.column_reader("key")
    return {keys[docnum]: docnum for docnum in reader.all_doc_ids()}

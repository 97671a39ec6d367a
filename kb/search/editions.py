"""One index item per distinct text: a rule, example or glossary entry unchanged across editions
is indexed once, with every edition that holds it in its ``edition`` field (issue 11).

Most of the Comprehensive Rules do not change from one edition to the next: indexing each
edition's copy made the full history's index 50 times the newest edition's. Items of a number
(or glossary term) whose indexed content is identical are merged here, from the items built
from the existing tables: the merged item keeps the newest edition's key and display data, and
``edition`` lists its editions, newest first (a ``KEYWORD`` field: ``edition:2021-02-05`` and
the default newest-edition filter find it by any of them).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable, Hashable
from typing import Any

from kb.search.schema import NO_EDITION

# Fields that name the edition itself: left out when telling whether two texts are the same.
_EDITION_FIELDS = ("key", "edition", "date", "hash")


def newest_edition(item: dict[str, Any]) -> str:
    """The newest edition an item is in (its ``edition`` field lists them newest first)."""
    return str(item.get("edition") or "").split(" ")[0]


def signature(item: dict[str, Any]) -> str:
    """A hash of what an item indexes and shows, the edition it comes from left out."""
    content = {k: v for k, v in item.items() if k not in _EDITION_FIELDS}
    data = dict(content.get("data") or {})
    data.pop("edition", None)
    content["data"] = data
    payload = json.dumps(content, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha1(payload.encode("utf-8")).hexdigest()


class EditionGroups:
    """Items built once per distinct content rather than once per edition.

    The rules and the glossary are read edition by edition, and most of an edition repeats the
    one before. A caller names what an edition's items are made of (``inputs``: the texts, the
    context, the examples); the items are built for the first edition with those inputs, and a
    later edition with the same inputs only adds itself to them: its key, date and display data
    replace theirs when it is newer, as :func:`merge_editions` would keep them. Their ``edition``
    field then lists every edition, newest first.
    """

    def __init__(self) -> None:
        self._groups: dict[Hashable, list[dict[str, Any]]] = {}
        self._editions: dict[int, set[str]] = {}

    def add(
        self, inputs: Hashable, edition: str, build: Callable[[], list[dict[str, Any]]]
    ) -> list[dict[str, Any]]:
        """The items to list for an edition's ``inputs``: new ones, or none when built already."""
        group = self._groups.get(inputs)
        if group is None:
            group = self._groups[inputs] = build()
            for item in group:
                self._editions[id(item)] = {edition}
            return group
        for item in group:
            self._editions[id(item)].add(edition)
            if edition > newest_edition(item):
                restamp(item, edition)
        return []

    def finish(self) -> None:
        """Write each item's editions (newest first) into its ``edition`` field."""
        for group in self._groups.values():
            for item in group:
                item["edition"] = " ".join(sorted(self._editions[id(item)], reverse=True))


def restamp(item: dict[str, Any], edition: str) -> None:
    """Give an item the key, edition, date and display data of another edition of it."""
    kind, _, rest = item["key"].split(":", 2)
    item["key"] = f"{kind}:{edition}:{rest}"
    item["edition"] = edition
    if "date" in item:
        item["date"] = dt.datetime.fromisoformat(edition)
    item["data"] = dict(item["data"], edition=edition)


def merge_editions(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items with those of identical content in several editions merged into one.

    An item's ``edition`` may already list several editions (newest first: see
    :class:`EditionGroups`).
    """
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    editions: dict[int, set[str]] = {}
    out: list[dict[str, Any]] = []
    for item in items:
        edition = item.get("edition")
        if item.get("bound") != "edition" or not edition or edition == NO_EDITION:
            out.append(item)
            continue
        held = edition.split(" ")
        key = (item["type"], signature(item))
        kept = merged.get(key)
        if kept is None:
            merged[key] = item
            editions[id(item)] = set(held)
            out.append(item)
            continue
        editions[id(kept)].update(held)
        if held[0] > newest_edition(kept):  # the newest edition's key, date and display data
            for field in ("key", "edition", "date", "data"):
                if field in item:
                    kept[field] = item[field]
    for item in merged.values():
        held = sorted(editions[id(item)], reverse=True)
        item["edition"] = " ".join(held)
        item["data"] = dict(item["data"], edition=held[0], editions=held)
    return out

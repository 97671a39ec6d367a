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

import hashlib
import json
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


def merge_editions(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items with those of identical content in several editions merged into one."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    editions: dict[int, set[str]] = {}
    out: list[dict[str, Any]] = []
    for item in items:
        edition = item.get("edition")
        if item.get("bound") != "edition" or not edition or edition == NO_EDITION:
            out.append(item)
            continue
        key = (item["type"], signature(item))
        kept = merged.get(key)
        if kept is None:
            merged[key] = item
            editions[id(item)] = {edition}
            out.append(item)
            continue
        editions[id(kept)].add(edition)
        if edition > kept["edition"]:  # the newest edition's key, date and display data
            for field in ("key", "edition", "date", "data"):
                if field in item:
                    kept[field] = item[field]
    for item in merged.values():
        held = sorted(editions[id(item)], reverse=True)
        item["edition"] = " ".join(held)
        item["data"] = dict(item["data"], edition=held[0], editions=held)
    return out

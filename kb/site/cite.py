"""Citations that follow renumbering: the compact map the static cite page reads with no server.

``/cite.html#2021-02-05/701.32`` names a rule as an edition numbered it; the page walks the
renumberings of each later pair of loaded editions (``steps``) to today's number, links to it,
and says what changed: renumbered where, removed when, text changed since when (``since``: the
first edition of each rule's current version, from the rule histories).
"""

from __future__ import annotations

import json
from typing import Any


def cite_map(
    editions: list[str],
    diffs: list[dict[str, Any]],
    versions: dict[str, list[dict[str, Any]]],
    numbers: list[str],
) -> dict[str, Any]:
    """The map: editions (oldest first), per step the moves and removals, today's numbers."""
    steps = []
    for diff in diffs:
        moved = {r["old_number"]: r["new_number"] for r in diff["renumbered"]}
        removed = sorted(item["number"] for item in diff["removed"])
        steps.append({"moved": dict(sorted(moved.items())), "removed": removed})
    since = {}
    added = {}
    for number, found in sorted(versions.items()):
        current, oldest = found[0], found[-1]
        if current["since"] != "earliest":
            since[number] = current["start"]
        if oldest["since"] == "added":
            added[number] = oldest["start"]
    return {
        "editions": editions,
        "steps": steps,
        "since": since,
        "added": added,
        "today": sorted(numbers),
    }


def cite_script(data: dict[str, Any]) -> bytes:
    """The map as a classic script (read from ``file://`` too, where fetch is refused)."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"window.KB_CITE = {text};\n".encode()

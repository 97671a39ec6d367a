"""Each rule's versions across the loaded editions, from the edition diffs the site already has.

A version is one distinct text of the rule with the loaded editions it held in (and the numbers
it had there); consecutive versions come with the word diff between them. Built by walking the
diffs of consecutive editions back from the newest (what ``kb.versions.diff_editions`` answers),
so it costs no query per rule. Only loaded editions are known: a change shown "between" two
editions came in the later one or in an edition between them that is not loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from difflib import SequenceMatcher
from typing import Any


def _index(diff: dict[str, Any]) -> tuple[set[str], dict[str, Any], dict[str, Any]]:
    added = {item["number"] for item in diff["added"]}
    changed = {item["new_number"]: item for item in diff["changed"]}
    renumbered = {item["new_number"]: item for item in diff["renumbered"]}
    return added, changed, renumbered


def rule_versions(
    diffs: list[dict[str, Any]],
    editions: list[str],
    texts: list[dict[str, str]],
    rules: set[str],
    word_ops: Callable[[str, str], list[list[str]]],
) -> dict[str, list[dict[str, Any]]]:
    """Per rule of the newest edition: its versions, newest first (none if it never changed).

    ``texts`` holds, per edition (oldest first), each rule's text with its subrules'. Each
    version has ``text``, ``start`` and ``end`` (edition dates), ``editions`` (how many loaded
    editions it held in), ``numbers`` (``{number, start, end}`` runs, newest first), ``since``
    (``added``, ``changed`` or ``earliest``: already in the oldest loaded edition, it may be
    older), ``before`` (the loaded edition before ``start``) and ``ops`` (the word diff from
    the older version).
    """
    if len(editions) < 2 or len(diffs) != len(editions) - 1 or len(texts) != len(editions):
        return {}
    indexed = [_index(d) for d in diffs]
    newest = len(editions) - 1
    result: dict[str, list[dict[str, Any]]] = {}
    for number in sorted(rules):
        if number not in texts[newest]:
            continue
        chain = [(newest, number, texts[newest][number])]  # (edition index, number, text)
        since = "earliest"
        cur = number
        for i in range(newest - 1, -1, -1):
            added, changed, renumbered = indexed[i]
            if cur in added:
                since = "added"
                break
            item = changed.get(cur) or renumbered.get(cur) or {}
            old = item.get("old_number", cur)
            if old not in texts[i]:
                since = "added"
                break
            chain.append((i, old, texts[i][old]))
            cur = old
        versions = _versions(chain, editions, since, word_ops)
        if len(versions) > 1 or since == "added" or len(versions[0]["numbers"]) > 1:
            result[number] = versions
    return result


def _versions(
    chain: list[tuple[int, str, str]],
    editions: list[str],
    since: str,
    word_ops: Callable[[str, str], list[list[str]]],
) -> list[dict[str, Any]]:
    """Group the rule's editions (newest first) into runs of one text, and numbers within them."""
    groups: list[list[tuple[int, str, str]]] = []
    for link in chain:
        if groups and groups[-1][-1][2] == link[2]:
            groups[-1].append(link)
        else:
            groups.append([link])
    versions = []
    for position, group in enumerate(groups):
        start, end = group[-1][0], group[0][0]
        numbers: list[dict[str, str]] = []
        for index, number, _text in group:
            if numbers and numbers[-1]["number"] == number:
                numbers[-1]["start"] = editions[index]
            else:
                numbers.append({"number": number, "start": editions[index], "end": editions[index]})
        oldest = position == len(groups) - 1
        versions.append(
            {
                "text": group[0][2],
                "start": editions[start],
                "end": editions[end],
                "editions": end - start + 1,
                "numbers": numbers,
                "since": since if oldest else "changed",
                "before": editions[start - 1] if start > 0 else None,
                "ops": None
                if oldest
                else _line_ops(groups[position + 1][0][2], group[0][2], word_ops),
            }
        )
    return versions


def _line_ops(
    old: str, new: str, word_ops: Callable[[str, str], list[list[str]]]
) -> list[list[str]]:
    """A word diff computed line by line: unchanged subrules cost nothing, changed ones a diff.

    Same result shape as ``word_ops`` (``[[op, text], ...]``); a family's text changes in a few
    of its lines, so comparing whole families word by word would be needlessly slow.
    """
    a, b = old.split("\n"), new.split("\n")
    ops: list[list[str]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            ops.append(["equal", "\n".join(a[i1:i2]) + "\n"])
        elif tag == "delete":
            ops.append(["delete", "\n".join(a[i1:i2]) + "\n"])
        elif tag == "insert":
            ops.append(["insert", "\n".join(b[j1:j2]) + "\n"])
        else:  # replaced lines: paired in order, each pair diffed word by word (short texts)
            pairs = min(i2 - i1, j2 - j1)
            for k in range(pairs):
                ops.extend(word_ops(a[i1 + k], b[j1 + k]))
                ops.append(["equal", "\n"])
            if i2 - i1 > pairs:
                ops.append(["delete", "\n".join(a[i1 + pairs : i2]) + "\n"])
            if j2 - j1 > pairs:
                ops.append(["insert", "\n".join(b[j1 + pairs : j2]) + "\n"])
    if ops and ops[-1][1].endswith("\n"):
        ops[-1] = [ops[-1][0], ops[-1][1][:-1]]
    return [op for op in ops if op[1]]

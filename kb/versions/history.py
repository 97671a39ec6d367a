"""A rule's history: its text in every loaded edition, followed across renumbering.

``trace("701.32", edition="2021-02-05")`` starts from Vote as the 2021 edition numbered it, walks
the alignments between consecutive editions back and forth, and answers with today's number
(701.38) and the text of every edition that has the rule.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from kb.corpus.numbers import is_rule_number, parent_of
from kb.errors import KbUsageError, NotFoundError
from kb.models import Edition

from .align import RuleContent, align_editions, edition_contents
from .editions import EditionRef, edition_label, english_editions, resolve_edition


def _check(number: str) -> str:
    number = number.strip().rstrip(".")
    if not is_rule_number(number):
        raise KbUsageError(f"{number!r} is not a rule number (e.g. 701.54, 701.54a, 701, 7)")
    return number


def follow(
    session: Session, number: str, edition: EditionRef = None, *, backward: bool = True
) -> tuple[list[Edition], dict[int, str], Edition]:
    """The loaded editions, the rule's number in each edition that has it, and the start.

    ``backward=False`` follows it only towards the newest edition (what ``today`` needs).
    """
    number = _check(number)
    start = resolve_edition(session, edition)
    editions = english_editions(session)
    ids = [e.id for e in editions]
    if start.kind != "comprules" or start.language != "en" or start.id not in ids:
        raise NotFoundError("a rule's history is traced through the English editions")
    index = ids.index(start.id)
    if number not in edition_contents(session, start):
        raise NotFoundError(f"rule {number} is not in the {edition_label(start)} edition")
    numbers = {index: number}
    for j in range(index - 1 if backward else -1, -1, -1):
        earlier = align_editions(session, editions[j], editions[j + 1]).reverse.get(numbers[j + 1])
        if earlier is None:
            break
        numbers[j] = earlier
    for j in range(index + 1, len(editions)):
        later = align_editions(session, editions[j - 1], editions[j]).pairs.get(numbers[j - 1])
        if later is None:
            break
        numbers[j] = later
    return editions, numbers, start


def today(session: Session, number: str, edition: EditionRef = None) -> dict[str, Any]:
    """Where a number of an edition stands in the newest edition: {"number", "edition", …}."""
    editions, numbers, start = follow(session, number, edition, backward=False)
    newest = len(editions) - 1
    removed_in = None
    if newest not in numbers:
        removed_in = edition_label(editions[max(numbers) + 1])
    return {
        "asked": _check(number),
        "asked_edition": edition_label(start),
        "last_seen": edition_label(editions[max(numbers)]),
        "number": numbers.get(newest),
        "edition": edition_label(editions[newest]),
        "removed_in": removed_in,
    }


def event_note(entry: dict[str, Any], previous: dict[str, Any] | None) -> str:
    """An edition's entry of a history in words that claim no more than the loaded editions.

    A rule first seen in an edition may have appeared in any edition published between the
    previous loaded one and it: the note names both rather than state an unsupported date.
    """
    edition, before = entry["edition"], entry.get("previous_edition")
    since = f"(previous loaded edition: {before})"
    status = entry["status"]
    if status == "earliest":
        return f"in {edition}, the oldest loaded edition (it may be older)"
    if status == "added":
        return f"first seen in {edition} {since}"
    if status == "renumbered":
        old = previous["number"] if previous else "?"
        text = "; text changed" if entry["changed"] else ""
        return f"first numbered {entry['number']} in {edition} {since}, was {old}{text}"
    if status == "changed":
        return f"text first seen in {edition} {since}"
    if entry.get("subrules_changed"):
        return f"same text as in {before}; subrules changed"
    return f"same text as in {before}"


def _children(contents: dict[str, RuleContent], number: str) -> list[dict[str, str]]:
    kids = [c for n, c in contents.items() if parent_of(n) == number]
    return [{"number": c.number, "text": c.full} for c in sorted(kids, key=lambda c: c.sort_key)]


def trace(session: Session, number: str, edition: EditionRef = None) -> dict[str, Any]:
    """The rule's text in every loaded edition that has it, oldest first, with today's number.

    ``status`` of each edition: ``added`` (absent from the edition before), ``earliest`` (the
    oldest loaded edition: it may be older still), ``renumbered``, ``changed`` or ``same``, as
    against the edition before; ``changed`` is also set on a renumbered rule whose text moved.

    Only loaded editions are known: an event is dated by the edition it is first seen in, and
    ``previous_edition`` names the loaded edition before it, since it may have happened in any
    edition published in between. ``note`` says it in words: "first seen in 2023-11-17
    (previous loaded edition: 2021-02-05)". ``last_seen`` names the last edition having it.
    """
    editions, numbers, start = follow(session, number, edition)
    history = []
    previous: dict[str, Any] | None = None
    for j in sorted(numbers):
        contents = edition_contents(session, editions[j])
        rule = contents[numbers[j]]
        entry: dict[str, Any] = {
            "edition": edition_label(editions[j]),
            "number": rule.number,
            "kind": rule.kind,
            "title": rule.title,
            "text": rule.full,
            "subrules": _children(contents, rule.number),
        }
        entry["previous_edition"] = edition_label(editions[j - 1]) if j > 0 else None
        if previous is None:
            entry["status"] = "added" if j > 0 else "earliest"
            entry["changed"] = False
            entry["renumbered"] = False
        else:
            entry["renumbered"] = previous["number"] != rule.number
            entry["changed"] = previous["text"] != rule.full
            entry["status"] = (
                "renumbered" if entry["renumbered"] else "changed" if entry["changed"] else "same"
            )
            old_kids = [k["text"] for k in previous["subrules"]]
            entry["subrules_changed"] = old_kids != [k["text"] for k in entry["subrules"]]
        entry["note"] = event_note(entry, previous)
        history.append(entry)
        previous = entry
    newest = len(editions) - 1
    return {
        "last_seen": edition_label(editions[max(numbers)]),
        "number": numbers.get(newest),
        "asked": _check(number),
        "asked_edition": edition_label(start),
        "edition": edition_label(editions[newest]),
        "removed_in": None if newest in numbers else edition_label(editions[max(numbers) + 1]),
        "history": history,
    }

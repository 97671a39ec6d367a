"""What a sheet holds: rule numbers, chapters, parts and ranges typed by a user, in an edition.

``701.54`` selects a rule and its subrules, ``704.5k`` one subrule, ``714`` a chapter (its title
and every rule in it), ``7`` a whole part, ``701.38-701.40`` / ``701.38–40`` / ``601.2f-h`` /
``714-716`` ranges. Numbers that the edition does not hold are refused with the list of them,
so that a printed sheet never silently lacks a rule the judge asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.corpus.numbers import expand_range, is_rule_number, kind_of, sort_key
from kb.errors import KbError, KbUsageError, NotFoundError
from kb.models import Edition, Rule

_DASHES = re.compile(r"\s*[-–—‒]\s*")


@dataclass(frozen=True)
class Selected:
    """One number of the edition that the sheet shows, with the selection item that chose it."""

    number: str
    kind: str
    item: str


def split_items(items: Iterable[str]) -> list[str]:
    """Split the user's arguments on spaces and commas (``"701.54, 702.2"`` is two items)."""
    out: list[str] = []
    for item in items:
        cleaned = _DASHES.sub("-", item.strip())
        out.extend(p.rstrip(".") for p in re.split(r"[\s,;]+", cleaned) if p.strip(" ."))
    return out


def expand_item(item: str) -> list[str]:
    """Expand one item to the numbers it names (a range to each number in it)."""
    if "-" not in item:
        if not is_rule_number(item):
            raise KbUsageError(
                f"{item!r} is not a rule number (e.g. 701.54, 704.5k, 714, 7) nor a range "
                "(701.38-701.40, 601.2f-h, 714-716)"
            )
        return [item]
    start, _, end = item.partition("-")
    start, end = start.rstrip("."), end.rstrip(".")
    if not is_rule_number(start):
        raise KbUsageError(f"range {item!r}: {start!r} is not a rule number")
    if re.fullmatch(r"\d{1,3}", end) and kind_of(start) == "rule":
        end = f"{start.split('.')[0]}.{end}"  # 701.38-40
    if not (re.fullmatch(r"[a-z]", end) or is_rule_number(end)):
        raise KbUsageError(f"range {item!r}: {end!r} is not a rule number")
    try:
        return expand_range(start, end)
    except ValueError as exc:
        raise KbError(f"range {item!r}: {exc}") from None


def select_rules(session: Session, edition: Edition, items: Sequence[str]) -> list[Selected]:
    """Resolve the user's items to the edition's numbers, in document order, each once.

    A rule brings its subrules, a chapter its rules, a part its chapters. A number named on its
    own must exist; a range may have holes (a removed rule) but must hold at least one number.
    """
    parsed = split_items(items)
    if not parsed:
        raise KbError("name at least one rule, chapter, part or range (e.g. 701.54 714 701.38-40)")
    rows = session.execute(
        select(Rule.number, Rule.kind, Rule.sort_key).where(Rule.edition_id == edition.id)
    ).all()
    kinds = {number: kind for number, kind, _ in rows}
    keys = sorted((key, number) for number, _, key in rows)
    chosen: dict[str, Selected] = {}
    missing: list[str] = []
    for item in parsed:
        numbers = expand_item(item)
        present = [n for n in numbers if n in kinds]
        if not present:
            missing.append(item)
            continue
        for number in present:
            prefix = sort_key(number)
            for _key, found in _under(keys, prefix):
                chosen.setdefault(found, Selected(found, kinds[found], item))
    if missing:
        date = edition.effective_date.isoformat() if edition.effective_date else edition.key
        raise NotFoundError(f"not in the {date} edition: {', '.join(missing)}")
    return sorted(chosen.values(), key=lambda s: sort_key(s.number))


def _under(keys: list[tuple[str, str]], prefix: str) -> Iterable[tuple[str, str]]:
    """The (sort key, number) pairs at or below a sort key, from a sorted list."""
    from bisect import bisect_left

    index = bisect_left(keys, (prefix, ""))
    while index < len(keys):
        key, number = keys[index]
        if key != prefix and not key.startswith(prefix + "."):
            break
        yield key, number
        index += 1

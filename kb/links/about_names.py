"""Where the clause that tells what a text is about starts, for :mod:`kb.links.about`.

A later item of a list plays its first item's part, so the clause that counts is the first
item's (:func:`before_list`); the names of the cards a ruling is about are names wherever they
stand (:func:`without_names`, :func:`named_subject`), and a capitalised concept beside another
capitalised word in mid-sentence is part of another card's name (:func:`in_card_name`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")

_LIST_GOES_ON = re.compile(r"\s*,")
_ITEM_BREAK = re.compile(r",\s*(?:(?:and|or)\s+)?$")
_BREAKS = ",;:.!?()[]—"


def before_list(before: str, after: str, size: int) -> str:
    """The text before a list's first item, where the concept is a later item of the list
    (*have the same power, toughness, and abilities*; *while you're casting a spell, playing a
    land, or activating an ability*): a comma between the items is no clause break, and every
    item plays the part the first one plays, so the clause that counts is the first item's.

    The concept is a later item when a comma comes just before it and another after it, or
    *, and* / *, or* comes just before it (not a comma alone before *and*: *If it draws, its power
    and toughness change* is a clause after a clause). The items of a list are parallel: each
    earlier one is at most one word longer than the concept, and the first one is as long as the
    item after it (*cast spells, activate abilities, or attack*: *cast spells*), or as the concept
    where it is the second. A list whose items are not (*lose 3 life, discard three cards, and
    sacrifice*) is read as before, item by item."""
    if not _ITEM_BREAK.search(before):
        return before
    if not (_LIST_GOES_ON.match(after) or re.search(r",\s*(?:and|or)\s+$", before)):
        return before
    longest = max(2, size + 1)
    rest, length = before, size
    while True:
        cut = _ITEM_BREAK.search(rest)
        if cut is None:
            return before
        rest = rest[: cut.start()]
        opens = max(rest.rfind(c) for c in _BREAKS) + 1
        item = list(_WORD.finditer(rest, opens))
        if opens > 0 and rest[opens - 1] == ",":  # an earlier item between two commas
            if len(item) > longest:
                return before  # no list of parallel items
            rest, length = rest[:opens], len(item)
            continue
        if length == 0 or len(item) < length:
            return before
        return rest[: item[-length].start()]


_NAME_WORD = re.compile(r"[A-Z][\w’'-]*")


def in_card_name(text: str, start: int, end: int) -> bool:
    """A capitalised concept next to another capitalised word in mid-sentence is part of a
    card's name (*the one Doubling Season creates*, *cast Hidden Draw*), not the concept; the
    ruling's own cards are masked before, other cards a ruling names are not. At a sentence's
    or a quote's start a capital says nothing."""
    if not text[start : start + 1].isupper() or _at_sentence_start(text, start):
        return False
    following = _NAME_WORD.match(text, end + 1) if text[end : end + 1] == " " else None
    if following:
        return True
    previous = re.search(r"([A-Z][\w’'-]*) $", text[:start])
    return bool(previous) and not _at_sentence_start(text, previous.start(1))


def _at_sentence_start(text: str, at: int) -> bool:
    head = text[:at].rstrip()
    return not head or head[-1] in '.!?:;“"‘(—'


_AUXILIARY = re.compile(r"(?:\s+(?:[\w]+['’]t|can|will|may|must|only|also|still|not|never))*\s*$")


def named_subject(before: str, names: Sequence[tuple[int, int]]) -> bool:
    """A card's name, then only auxiliaries and adverbs, before the verb: the card is its
    subject. Only spells and abilities target (115.1), so a card that targets is one."""
    end = _AUXILIARY.search(before)
    at = end.start() if end else len(before)
    return any(b == at for _, b in names)


def without_names(before: str, names: Sequence[tuple[int, int]]) -> str:
    """The text before a concept with the ruling's card names blanked out: a name is no small
    word, but it is a name wherever it stands, also where a sentence starts with it."""
    for a, b in names:
        if a < len(before):
            if before[b : b + 2] in ("’s", "'s"):  # the name's possessive goes with it
                b += 2
            b = min(b, len(before))
            before = before[:a] + " " * (b - a) + before[b:]
    return before

"""Phrases for kb's term engine: the documents where a phrase's words stand side by side.

The term bridge turns words into phrases ("double initiative" is also "double strike"), and a
query holding one phrase used to go to Whoosh whole: its span matchers step posting by posting
through every word of the query, tens of milliseconds for the common words of a question. Here a
phrase is a clause of its words (a document must hold them all, as for a hyphenated word); of
the documents holding them all, those where the words follow each other are kept, from the
positions stored in the posting blocks.

Whoosh's ``Phrase`` with ``slop=1`` is a ``SpanNear2`` (ordered, ``mindist=1``) of its words'
single-position spans: it matches when each word is one position after the one before, that is
when some position ``p`` holds word ``i`` at ``p + i`` for every ``i``. Its score is its words'
scores summed, times its boost, as for any clause of several terms.
"""

from __future__ import annotations

import pickle
import threading
import zlib
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from itertools import accumulate, filterfalse
from typing import Any

from kb.search.postings import (
    BlockCache,
    OtherLayout,
    cached_block_header,
    open_postings,
    posting_buffer,
    segment_key,
)

Positions = Callable[[bytes], list[int]]


class ValueCache:
    """Posting values (positions) of blocks already read, at most ``budget`` postings' worth.

    Phrase words are often common ("first", "strike"): their blocks' values are unpickled once
    per open index, not once per search. Shared by the threads over one index generation.
    """

    def __init__(self, budget: int = 500_000) -> None:
        self.budget = budget
        self.size = 0
        self.values: dict[tuple[str, int], tuple[bytes, ...]] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> tuple[bytes, ...] | None:
        return self.values.get(key)

    def put(self, key: tuple[str, int], values: tuple[bytes, ...]) -> None:
        with self._lock:
            if key in self.values:
                return
            self.values[key] = values
            self.size += len(values)
            while self.size > self.budget and len(self.values) > 1:
                oldest = next(iter(self.values))
                self.size -= len(self.values.pop(oldest))


class PhraseCache:
    """Which documents hold a phrase, as far as they were looked at: per phrase (its field and
    words), the documents whose positions were walked and those holding it, at most ``budget``
    documents' worth (the phrases first looked at dropped first).

    The bridge's phrases ("champ de bataille", what "battlefield" is in French) are looked for
    in thousands of candidates by every search holding them, in each of its passes; whether a
    document holds a phrase is its own positions' answer, found once per open index. Shared by
    the threads over one index generation (what is kept is replaced, never changed in place).
    """

    def __init__(self, budget: int = 500_000) -> None:
        self.budget = budget
        self.size = 0
        self.phrases: dict[Any, tuple[frozenset[int], frozenset[int]]] = {}
        self._lock = threading.Lock()

    def holding(
        self, key: Any, candidates: AbstractSet[int], find: Callable[[set[int]], set[int]]
    ) -> set[int]:
        """The candidates holding the phrase; ``find`` walks the positions of those not known."""
        empty: frozenset[int] = frozenset()
        checked, held = self.phrases.get(key, (empty, empty))
        unknown = set(filterfalse(checked.__contains__, candidates))
        if unknown:
            found = find(unknown)
            with self._lock:
                checked, held = self.phrases.pop(key, (empty, empty))
                self.size -= len(checked)
                checked, held = checked | unknown, held | found
                self.phrases[key] = (checked, held)
                self.size += len(checked)
                while self.size > self.budget and len(self.phrases) > 1:
                    self.size -= len(self.phrases.pop(next(iter(self.phrases)))[0])
        return held.intersection(candidates)


def phrase_docs(
    words: Sequence[Any],
    candidates: AbstractSet[int],
    decode: Positions,
    cache: BlockCache | None,
    values: ValueCache | None,
) -> set[int]:
    """The candidates (documents holding every word) where the words stand in a row.

    ``words``: the phrase's terms in order, each with its ``fieldname``, ``text`` (bytes) and
    ``found``, the (segment, offset, term info) of each segment holding it (the term engine's
    leaves).
    """
    if not candidates:
        return set()
    ordered = sorted(candidates)
    spots: list[dict[int, list[int]]] = []
    for word in words:
        positions: dict[int, list[int]] = {}
        for segment, offset, terminfo in word.found:
            where = (segment, offset, word.fieldname, word.text, terminfo)
            read_positions(where, ordered, decode, positions, cache, values)
        spots.append(positions)
    first, rest = spots[0], spots[1:]
    kept: set[int] = set()
    for doc in ordered:
        starts = first.get(doc)
        if not starts:
            continue
        later = []
        for positions in rest:
            found_at = positions.get(doc)
            if not found_at:
                break
            later.append(set(found_at))
        else:
            if any(all(p + i in at for i, at in enumerate(later, 1)) for p in starts):
                kept.add(doc)
    return kept


def read_positions(
    where: tuple[Any, int, str, bytes, Any],
    wanted: list[int],
    decode: Positions,
    out: dict[int, list[int]],
    cache: BlockCache | None = None,
    values: ValueCache | None = None,
) -> None:
    """Add the positions of a term in each of the ``wanted`` documents (sorted, offset
    included) that a segment's postings hold; ``where``: the segment, its first document
    number, the term's field and bytes, and its term info."""
    segment, offset, fieldname, text, terminfo = where
    lo = bisect_left(wanted, offset)
    hi = bisect_left(wanted, offset + segment.doc_count_all())
    mine = wanted[lo:hi]
    if not mine:
        return
    buffer = posting_buffer(segment)
    if buffer is not None and not terminfo.is_inlined():
        key = segment_key(segment)
        try:
            _walk(buffer, terminfo.extent()[0], offset, mine, decode, out, cache, values, key)
            return
        except OtherLayout:
            pass  # read again through Whoosh's reader (the same positions)
    matcher = open_postings(segment, fieldname, text, terminfo)
    for doc in mine:
        if not matcher.is_active():
            return
        if matcher.id() < doc - offset:
            matcher.skip_to(doc - offset)
        if matcher.is_active() and matcher.id() == doc - offset:
            out[doc] = decode(matcher.value())


def _walk(
    buffer: Any,
    start: int,
    offset: int,
    wanted: list[int],
    decode: Positions,
    out: dict[int, list[int]],
    cache: BlockCache | None,
    values: ValueCache | None,
    key: str | None,
) -> None:
    """The blocks of a posting list that hold wanted documents, their values decoded (the
    layout :func:`kb.search.postings.read_term` walks)."""
    from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC

    if bytes(buffer[start : start + 4]) != WHOOSH3_HEADER_MAGIC:
        raise OtherLayout
    if key is None:
        cache = values = None
    headers = cache.headers if cache is not None else None
    pos, previous = start + 4, -1
    while True:
        size, last, top, info_size, compressed = cached_block_header(buffer, pos, headers, key)
        pos += 4
        first = bisect_right(wanted, previous + offset)
        if first >= len(wanted):
            return
        end = bisect_right(wanted, top + offset, first)
        if end > first:
            place = (key, pos)
            block = cache.blocks.get(place) if cache is not None else None  # type: ignore[arg-type]
            stored = values.get(place) if values is not None else None  # type: ignore[arg-type]
            if block is None or stored is None:
                numbers, stored = _decode_values(buffer, pos + info_size, pos + size, compressed)
                if values is not None:
                    values.put(place, stored)  # type: ignore[arg-type]
            else:
                numbers = block[0]
            for doc in wanted[first:end]:
                i = bisect_left(numbers, doc - offset)
                if i < len(numbers) and numbers[i] == doc - offset:
                    out[doc] = decode(stored[i])
        if last:
            return
        previous = top
        pos += size


def _decode_values(
    buffer: Any, start: int, end: int, compressed: bool
) -> tuple[list[int], tuple[bytes, ...]]:
    """A block's document numbers (in its segment) and its posting values."""
    data = buffer[start:end]
    if compressed:
        data = zlib.decompress(data)
    try:
        ids, _weights, stored = pickle.loads(data)[:3]
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError) as exc:
        raise OtherLayout from exc
    if not isinstance(stored, tuple) or len(stored) != len(ids):
        raise OtherLayout  # fixed-size values or none: not a positions format
    return list(accumulate(ids)), stored

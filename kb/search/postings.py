"""Reading Whoosh's posting lists and field lengths in bulk, for kb's term engine.

Whoosh's own readers hand out one posting per call; these functions read a term's postings a
block at a time and a field's lengths in one read. They reach into Whoosh 2.7's on-disk format
(``W3LeafMatcher``, the lengths column); when the index is of another kind they fall back to
Whoosh's public, posting-by-posting interface, with the same results.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate, repeat
from typing import Any

from whoosh.matching import WrappingMatcher

_BLOCK_ATTRIBUTES = (
    "_maxid",
    "_read_data",
    "_data",
    "_byteids",
    "_lastblock",
    "_atend",
    "_goto",
    "_nextoffset",
)


def open_postings(segment: Any, fieldname: str, text: bytes, terminfo: Any) -> Any:
    """A posting reader of a term of one segment, deleted documents included.

    Straight from the term's info when the segment is Whoosh 2.7's (no second term lookup, and
    no deleted-document filter that would decode the first block on creation); callers leave
    deleted documents out themselves.
    """
    try:
        terms = segment._terms
        return terms._codec.postings_reader(
            terms._postfile, terminfo, segment.schema[fieldname].format, term=(fieldname, text)
        )
    except AttributeError:
        matcher = segment.postings(fieldname, text)
        while isinstance(matcher, WrappingMatcher):
            matcher = matcher.child
        return matcher


def read_postings(
    matcher: Any, offset: int, within: list[int] | None, out: dict[int, float]
) -> None:
    """Add the (document number + ``offset``, weight) pairs of a posting list to ``out``.

    With ``within`` (sorted document numbers), a block whose range holds none of them is
    skipped without being decoded, and reading stops after the last of them.
    """
    if _is_block_reader(matcher):
        _read_blocks(matcher, offset, within, out)
        return
    while matcher.is_active():
        out[matcher.id() + offset] = matcher.weight()
        matcher.next()


def _is_block_reader(matcher: Any) -> bool:
    from whoosh.codec.whoosh3 import W3LeafMatcher

    return type(matcher) is W3LeafMatcher and all(
        hasattr(matcher, name) for name in _BLOCK_ATTRIBUTES
    )


def _read_blocks(
    matcher: Any, offset: int, within: list[int] | None, out: dict[int, float]
) -> None:
    # Document numbers are delta-coded in a block: ``accumulate`` decodes them in C.
    previous = -1
    while not matcher._atend:
        top = matcher._maxid
        wanted = True
        if within is not None:
            i = bisect_right(within, previous + offset)
            if i >= len(within):
                return  # no document of ``within`` lies further on
            wanted = within[i] <= top + offset
        if wanted:
            matcher._read_data()
            ids = matcher._data[0]
            if not matcher._byteids:
                ids = accumulate(ids)
            if offset:
                ids = map(offset.__add__, ids)
            out.update(zip(ids, _weights(matcher._data[1]), strict=False))  # weights may repeat
        if matcher._lastblock:
            return
        previous = top
        matcher._goto(matcher._nextoffset)


def _weights(stored: Any) -> Any:
    """A block's weights as Whoosh's reader gives them (one value repeated when all are equal)."""
    if stored is None:
        return repeat(1.0)
    if isinstance(stored, float):
        return repeat(array("f", [stored])[0])  # Whoosh's reader repeats it as a 32-bit float
    return stored


def field_lengths(segment: Any, fieldname: str) -> list[int | None]:
    """The length Whoosh scores a field of every document of a segment with (None: empty)."""
    count = segment.doc_count_all()
    try:
        from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield
        from whoosh.util.numeric import byte_to_length

        column = segment._perdoc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        if column is None:
            return [None] * count
        stored = min(column._count, count)
        raw = column._dbfile.get(column._basepos, stored) if stored else b""
        raw += bytes(count - len(raw))
    except (AttributeError, ImportError):  # another codec: ask document by document
        return [segment.doc_field_length(d, fieldname, None) for d in range(count)]
    table = [byte_to_length(byte) if byte else None for byte in range(256)]
    return [table[byte] for byte in raw]

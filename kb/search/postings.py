"""Reading Whoosh's posting lists and field lengths in bulk, for kb's term engine.

Whoosh's own readers hand out one posting per call; these functions read a term's postings a
block at a time and a field's lengths in one read. They reach into Whoosh 2.7's on-disk format
(``W3LeafMatcher``, the lengths column); when the index is of another kind they fall back to
Whoosh's public, posting-by-posting interface, with the same results.
"""

from __future__ import annotations

import io
import pickle
import struct
import threading
import zlib
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import accumulate, repeat
from typing import Any

from whoosh.matching import WrappingMatcher
from whoosh.reading import TermNotFound

_INT = struct.Struct("!i")
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


class TermTable:
    """A segment's term dictionary, held in memory: (field, term) -> Whoosh's term info.

    Whoosh looks a term up in its on-disk hash table (an MD5 hash, a few reads: about 4 µs); a
    query looks up each of its terms in each segment. Loaded once per open index (40 000 terms
    of the real corpus: some 40 ms and a few MB); with ``load=False``, or for an index of
    another kind, it asks Whoosh each time.
    """

    def __init__(self, segment: Any, load: bool = True) -> None:
        self.segment = segment
        self._table: dict[bytes, Any] | None = None  # term key -> info (bytes until used)
        if not load:
            return
        try:
            from whoosh.codec.whoosh3 import W3TermInfo
            from whoosh.system import pack_ushort

            terms = segment._terms
            self._fieldmap: dict[str, int] = dict(terms._fieldmap)
            self._table = dict(terms._tindex.items())
            self._decode = W3TermInfo.from_bytes
            self._pack = pack_ushort
        except (AttributeError, ImportError):  # another codec: Whoosh's lookups
            self._table = None

    def info(self, fieldname: str, text: bytes) -> Any | None:
        """The term info of a term of the segment, or None when the segment lacks it."""
        if self._table is None:
            try:
                return self.segment.term_info(fieldname, text)
            except TermNotFound:
                return None
        number = self._fieldmap.get(fieldname)
        if number is None:
            return None
        key = self._pack(number) + text
        found = self._table.get(key)
        if found is None or not isinstance(found, bytes):
            return found
        info = self._table[key] = self._decode(found)  # decoded once, kept decoded
        return info


class BlockCache:
    """Posting blocks already read, decoded (document numbers and weights, as compact arrays).

    A question's common words ("player", "battlefield") are read by most searches; their blocks
    are decoded once per open index, not once per search. Shared by the threads searching one
    generation of the index (a segment's posting file never changes; a block is keyed by its
    segment and place in it); at most ``budget`` postings are kept, the oldest blocks dropped.
    """

    def __init__(self, budget: int = 2_000_000) -> None:
        self.budget = budget
        self.size = 0
        self.headers: dict[tuple[str, int], tuple[int, bool, int, int, bool]] = {}
        self.blocks: dict[tuple[str, int], tuple[array, Any]] = {}
        self._lock = threading.Lock()

    def put(self, key: tuple[str, int], numbers: array, weights: Any) -> None:
        """Keep a decoded block, dropping the oldest ones past the budget."""
        with self._lock:
            if key in self.blocks:
                return
            self.blocks[key] = (numbers, weights)
            self.size += len(numbers)
            while self.size > self.budget and len(self.blocks) > 1:
                oldest = next(iter(self.blocks))
                self.size -= len(self.blocks.pop(oldest)[0])


def segment_key(segment: Any) -> str | None:
    """A segment's identity (its id is unique to the index and its files never change)."""
    try:
        return str(segment.segment().segment_id())
    except AttributeError:
        return None


def read_term(
    segment: Any,
    offset: int,
    fieldname: str,
    text: bytes,
    terminfo: Any,
    within: list[int] | None,
    out: dict[int, float],
    cache: BlockCache | None = None,
) -> None:
    """Add the (document number + ``offset``, weight) pairs of a term of a segment to ``out``.

    Deleted documents are included (callers leave them out). With ``within`` (sorted document
    numbers), a block whose range holds none of them is skipped without being decoded, and
    reading stops after the last of them. With a ``cache``, decoded blocks are kept and reused.
    """
    buffer = posting_buffer(segment)
    if buffer is not None and not terminfo.is_inlined():
        key = segment_key(segment) if cache is not None else None
        try:
            _walk_blocks(
                buffer, terminfo.extent()[0], offset, within, out, cache if key else None, key
            )
            return
        except OtherLayout:
            pass  # read it again through Whoosh's reader (the pairs added so far are the same)
    matcher = open_postings(segment, fieldname, text, terminfo)
    if _is_block_reader(matcher):
        _read_blocks(matcher, offset, within, out)
        return
    while matcher.is_active():
        out[matcher.id() + offset] = matcher.weight()
        matcher.next()


def posting_buffer(segment: Any) -> Any | None:
    """The memory-mapped posting file of a Whoosh 2.7 segment (None for another kind)."""
    return getattr(getattr(getattr(segment, "_terms", None), "_postfile", None), "_buf", None)


class OtherLayout(Exception):
    """The posting list is not laid out as :func:`_walk_blocks` expects."""


def cached_block_header(
    buffer: Any, pos: int, headers: dict[Any, Any] | None, key: str | None
) -> tuple[int, bool, int, int, bool]:
    """:func:`block_header`, kept in ``headers`` (a :class:`BlockCache`'s) under (key, place)."""
    header = headers.get((key, pos)) if headers is not None else None
    if header is None:
        header = block_header(buffer, pos)
        if headers is not None:
            headers[(key, pos)] = header
    return header  # type: ignore[no-any-return]


def block_header(buffer: Any, pos: int) -> tuple[int, bool, int, int, bool]:
    """A block's (size, whether it is the last, last document, info size, compressed)."""
    (size,) = _INT.unpack_from(buffer, pos)
    last = size < 0
    size = -size if last else size
    stream = io.BytesIO(buffer[pos + 4 : pos + 4 + min(size, 64)])
    try:
        info = pickle.Unpickler(stream).load()
    except (pickle.UnpicklingError, EOFError, ValueError) as exc:
        raise OtherLayout from exc
    if not isinstance(info, tuple) or len(info) != 6:
        raise OtherLayout
    return size, last, info[1], stream.tell(), bool(info[3])


def _decode(buffer: Any, start: int, end: int, compressed: bool) -> tuple[array, Any]:
    """A block's document numbers (decoded from their deltas) and its weights as stored."""
    data = buffer[start:end]
    if compressed:
        data = zlib.decompress(data)
    ids, weights = pickle.loads(data)[:2]
    if isinstance(weights, (tuple, list)):
        weights = array("d", weights)
    return array("i", accumulate(ids)), weights


def _walk_blocks(
    buffer: Any,
    start: int,
    offset: int,
    within: list[int] | None,
    out: dict[int, float],
    cache: BlockCache | None = None,
    segment: str | None = None,
) -> None:
    """Read a posting list straight from the index's memory-mapped buffer, block by block.

    The layout is Whoosh 2.7's: a 4-byte tag, then per block a signed 4-byte length (negative
    for the last block), the block's info (a protocol-2 pickle: count, last document, highest
    weight, compression, shortest and longest length) and its data (ids, weights, values).
    The info's size is where its pickle ends (the unpickler stops at the pickle's STOP).
    """
    from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC

    if bytes(buffer[start : start + 4]) != WHOOSH3_HEADER_MAGIC:
        raise OtherLayout
    headers = cache.headers if cache is not None else None
    blocks = cache.blocks if cache is not None else None
    pos, previous = start + 4, -1
    while True:
        size, last, top, info_size, compressed = cached_block_header(buffer, pos, headers, segment)
        pos += 4
        first = last_wanted = 0
        if within is not None:
            first = bisect_right(within, previous + offset)
            if first >= len(within):
                return  # no document of ``within`` lies further on
            last_wanted = bisect_right(within, top + offset, first)
        if within is None or last_wanted > first:
            block = blocks.get((segment, pos)) if blocks is not None else None  # type: ignore[arg-type]
            if block is None:
                block = _decode(buffer, pos + info_size, pos + size, compressed)
                if cache is not None:
                    cache.put((segment, pos), *block)  # type: ignore[arg-type]
            numbers, weights = block
            if within is not None and last_wanted - first <= _SPARSE:
                _pick(numbers, weights, within[first:last_wanted], offset, out)
            else:
                decoded: Any = numbers
                if offset:
                    decoded = map(offset.__add__, decoded)
                out.update(zip(decoded, _weights(weights), strict=False))  # weights may repeat
        if last:
            return
        previous = top
        pos += size


_SPARSE = 16  # wanted documents in a block below which they are looked up, not all decoded


def _pick(
    numbers: Any, weights: Any, wanted: list[int], offset: int, out: dict[int, float]
) -> None:
    """Add the postings of a block (its decoded document numbers) for the wanted documents."""
    if weights is None or isinstance(weights, float):
        weight = next(iter(_weights(weights)))
        for doc in wanted:
            i = bisect_left(numbers, doc - offset)
            if i < len(numbers) and numbers[i] == doc - offset:
                out[doc] = weight
        return
    for doc in wanted:
        i = bisect_left(numbers, doc - offset)
        if i < len(numbers) and numbers[i] == doc - offset:
            out[doc] = weights[i]


def open_postings(segment: Any, fieldname: str, text: bytes, terminfo: Any) -> Any:
    """A posting reader of a term of one segment, deleted documents included.

    Straight from the term's info when the segment is Whoosh 2.7's (no second term lookup, and
    no deleted-document filter that would decode the first block on creation).
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


def _is_block_reader(matcher: Any) -> bool:
    """Whether a matcher is Whoosh 2.7's on-disk posting reader, whose blocks can be read whole."""
    kind = type(matcher)
    known = _BLOCK_READERS.get(kind)
    if known is None:
        from whoosh.codec.whoosh3 import W3LeafMatcher

        known = _BLOCK_READERS[kind] = kind is W3LeafMatcher and all(
            hasattr(matcher, name) for name in _BLOCK_ATTRIBUTES
        )
    return known


_BLOCK_READERS: dict[type, bool] = {}


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
    perdoc = getattr(segment, "_perdoc", None)
    if perdoc is None:  # another codec: ask document by document
        count = segment.doc_count_all()
        return [segment.doc_field_length(d, fieldname, None) for d in range(count)]
    return perdoc_lengths(perdoc, fieldname)


def perdoc_lengths(perdoc: Any, fieldname: str) -> list[int | None]:
    """The lengths of a field of every document of a per-document reader, in one read (None:
    empty), as its ``doc_field_length`` gives them one at a time."""
    count = perdoc.doc_count_all()
    raw = _length_bytes(perdoc, fieldname, count)
    if raw is None:  # another codec: ask document by document
        return [perdoc.doc_field_length(d, fieldname, None) for d in range(count)]
    from whoosh.util.numeric import byte_to_length

    table = [byte_to_length(byte) if byte else None for byte in range(256)]
    return [table[byte] for byte in raw]


def field_norms(segment: Any, fieldname: str, norm: Callable[[int], float]) -> list[float]:
    """``norm(length)`` of a field of every document of a segment (0.0 when it is empty).

    A length is stored as one byte: ``norm`` is computed for the 256 of them, and the table
    mapped over the column (an index of 55,000 documents opens its first search without a
    Python step per document).
    """
    perdoc = getattr(segment, "_perdoc", None)
    raw = None if perdoc is None else _length_bytes(perdoc, fieldname, segment.doc_count_all())
    if raw is None:
        return [norm(n) if n is not None else 0.0 for n in field_lengths(segment, fieldname)]
    from whoosh.util.numeric import byte_to_length

    table = [norm(byte_to_length(byte)) if byte else 0.0 for byte in range(256)]
    return list(map(table.__getitem__, raw))


def _length_bytes(perdoc: Any, fieldname: str, count: int) -> bytes | None:
    """The length byte of a field of every document (0: empty); None for another codec."""
    try:
        from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield

        column = perdoc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        if column is None:
            return bytes(count)
        stored = min(column._count, count)
        raw = column._dbfile.get(column._basepos, stored) if stored else b""
    except (AttributeError, ImportError):
        return None
    return bytes(raw) + bytes(count - len(raw))

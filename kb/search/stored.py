"""Reading a hit's stored fields straight from the segment's stored column, once per search.

A search reads the stored fields of every hit it shows, and of the candidates it orders by
their rule numbers and titles (a question's twenty): some seventeen reads a search, a tenth of
them of a document read already for another of its passes. Whoosh's ``stored_fields`` goes
through four layers for each (the reader, the per-document reader, the pickle column, the
compressed bytes column) and then copies the dict, testing each name against the schema in
Python. :class:`StoredFields` reads the same bytes of the same column, decompresses and
unpickles them as Whoosh does, and copies only when a stored name is not in the schema; for
the length of a search (:meth:`begin`, :meth:`end`) it keeps what it read, so that a document
is read once however many hits of it the passes make. Any other kind of segment is read
through Whoosh.
"""

from __future__ import annotations

from bisect import bisect_right
from pickle import loads
from typing import Any

from whoosh.reading import ReaderClosed


class _Segment:
    """One segment's stored column, as the reads need it (the W3 codec's layout)."""

    __slots__ = ("base", "decompress", "get", "lengths", "offsets", "reader")

    def __init__(self, segment: Any, column: Any) -> None:
        self.reader = segment
        self.lengths = column._lengths
        self.offsets = column._offsets
        self.base = column._basepos
        self.get = column._dbfile.get
        self.decompress = column._decompress


class StoredFields:
    """A searcher's stored fields by document number (see the module's docstring)."""

    def __init__(self, searcher: Any) -> None:
        self._fallback = searcher.stored_fields
        schema = searcher.schema
        self._schema = schema
        self._names = frozenset(schema.names())
        self._reader = searcher.reader()
        # Found on the first read: an open that reads no stored field (a first pass alone)
        # does not load the column's table of lengths.
        self._segments: list[tuple[int, _Segment]] | None = None
        self._starts: list[int] = []
        self._memo: dict[int, dict[str, Any]] | None = None

    def begin(self) -> None:
        """Keep what is read until :meth:`end` (one search: nothing is kept past it)."""
        self._memo = {}

    def end(self) -> None:
        self._memo = None

    def __call__(self, docnum: int) -> dict[str, Any]:
        """The stored fields of a document, as Whoosh's ``stored_fields`` gives them."""
        memo = self._memo
        if memo is not None:
            found = memo.get(docnum)
            if found is not None:
                return found
        fields = self._read(docnum)
        if memo is not None:
            memo[docnum] = fields
        return fields

    def _read(self, docnum: int) -> dict[str, Any]:
        segments = self._segments
        if segments is None:
            segments = self._segments = _segments(self._reader)
            self._starts = [offset for offset, _ in segments]
        if not segments:
            fallback: dict[str, Any] = self._fallback(docnum)
            return fallback
        index = bisect_right(self._starts, docnum) - 1 if len(segments) > 1 else 0
        offset, segment = segments[index]
        if segment.reader.is_closed:
            raise ReaderClosed
        local = docnum - offset
        assert local >= 0
        length = segment.lengths[local]
        if not length:
            return {}
        raw = segment.decompress(segment.get(segment.base + segment.offsets[local], length))
        if not raw:
            return {}
        fields: dict[str, Any] = loads(raw)
        if self._names.issuperset(fields):
            return fields
        # A name the schema lacks (a removed field): left out, as Whoosh leaves it out.
        schema = self._schema
        return {name: value for name, value in fields.items() if name in schema}


def _segments(reader: Any) -> list[tuple[int, _Segment]]:
    """Each segment's first document number and stored column, in order; none when a segment
    is not of the W3 codec's layout (every read then goes through Whoosh)."""
    from whoosh.codec.whoosh3 import STORED_COLUMN, W3PerDocReader
    from whoosh.columns import CompressedBytesColumn, PickleColumn

    found = []
    for segment, offset in reader.leaf_readers():
        perdoc = getattr(segment, "_perdoc", None)
        if type(perdoc) is not W3PerDocReader:
            return []
        column = perdoc._cached_reader("_stored", STORED_COLUMN)
        inner = getattr(column, "_child", None)
        if (
            type(column) is not PickleColumn.Reader
            or type(inner) is not CompressedBytesColumn.Reader
        ):
            return []
        found.append((offset, _Segment(segment, inner)))
    found.sort(key=lambda pair: pair[0])
    return found

"""The index's on-disk format: Whoosh 2.7's, with posting blocks that are quicker to read.

A block holds up to 128 postings: document numbers, weights and, for text fields, positions.
Whoosh compresses the whole block and pickles it with protocol 2, where each posting's
positions (a bytes object) become a call to ``_codecs.encode``: reading a block of a text field
costs about 40 µs, and a search reads several blocks per word. Here a block is pickled with the
latest protocol, and only its positions are compressed, in a :class:`PackedValues` that
unpacks them when they are first read (phrase queries read them; ranking words does not).
Readers need nothing else: Whoosh's posting reader indexes the values as a tuple, and pickle
recognises the protocol, so an index written by plain Whoosh stays readable and segments of
both kinds can sit in one index.
"""

from __future__ import annotations

import pickle
import zlib
from typing import Any

from whoosh.codec.whoosh3 import W3Codec, W3PostingsWriter
from whoosh.util.numeric import length_to_byte

PROTOCOL = pickle.HIGHEST_PROTOCOL


class KbCodec(W3Codec):
    """Whoosh's W3 codec whose posting blocks are pickled with the latest protocol."""

    def postings_writer(self, dbfile: Any, byteids: bool = False) -> Any:
        return KbPostingsWriter(
            dbfile,
            blocklimit=self._blocklimit,
            byteids=byteids,
            compression=self._compression,
            inlinelimit=self._inlinelimit,
        )


class KbPostingsWriter(W3PostingsWriter):
    """W3PostingsWriter, writing the same block layout with a faster pickle protocol."""

    def _write_block(self, last: bool = False) -> None:
        # W3PostingsWriter._write_block (Whoosh-Reloaded 2.7.5), protocol aside.
        if not self._blockcount:
            self._postfile.write(_header_magic())
        self._terminfo.add_block(self)
        values = self._mini_values()
        if isinstance(values, tuple):  # positions (variable-size values): unpacked when read
            values = PackedValues.pack(values, self._compression)
        data = (self._mini_ids(), self._mini_weights(), values)
        databytes = pickle.dumps(data, PROTOCOL)
        comp = 0  # document numbers and weights stay uncompressed
        ids = self._ids
        info = (
            len(ids),
            ids[-1],
            self._maxweight,
            comp,
            length_to_byte(self._minlength),
            length_to_byte(self._maxlength),
        )
        # The block info stays at protocol 2: readers load it from the stream, then take the
        # stream's position as the start of the data (no read-ahead at that protocol).
        infobytes = pickle.dumps(info, 2)
        postfile = self._postfile
        blocklength = len(infobytes) + len(databytes)
        if last:
            blocklength *= -1  # a negative length marks the last block
        postfile.write_int(blocklength)
        postfile.write(infobytes)
        postfile.write(databytes)
        self._blockcount += 1
        self._new_block()


class PackedValues:
    """The values (positions) of a block's postings, compressed, unpacked when first read.

    Indexes name this class in their pickles (``kb.search.codec.PackedValues``): moving or
    renaming it needs ``SCHEMA_VERSION`` bumped, so that older indexes are rebuilt.
    """

    __slots__ = ("_packed", "_values")

    def __init__(self, packed: bytes) -> None:
        self._packed = packed
        self._values: tuple[Any, ...] | None = None

    @classmethod
    def pack(cls, values: tuple[Any, ...], level: int) -> PackedValues:
        data = pickle.dumps(values, PROTOCOL)
        return cls(zlib.compress(data, level) if level else b"\x00" + data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (PackedValues, (self._packed,))

    def _unpacked(self) -> tuple[Any, ...]:
        if self._values is None:
            packed = self._packed
            data = packed[1:] if packed[:1] == b"\x00" else zlib.decompress(packed)
            self._values = pickle.loads(data)
        return self._values

    def __getitem__(self, i: Any) -> Any:
        return self._unpacked()[i]

    def __len__(self) -> int:
        return len(self._unpacked())

    def __iter__(self) -> Any:
        return iter(self._unpacked())


def _header_magic() -> bytes:
    from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC

    return bytes(WHOOSH3_HEADER_MAGIC)


def codec() -> KbCodec:
    """The codec every index writer of kb uses."""
    return KbCodec()

"""Opening an index without copying it: Whoosh's segment files read from the memory map.

Whoosh 2.7 opens each file of a compound segment as a ``BufferFile`` over the segment's memory
map, and gives it an ``io.BytesIO`` of the buffer for stream reads, which copies the whole file:
at full history (AllPrintings and 23 editions) every open, and every search thread's searcher,
copied some 100 MB, a third of a second. Random reads (``get``: term tables, stored fields,
lengths, kb's term engine) read the map directly; here the copy is made only when a stream read
first needs it, as a position over the same buffer (:class:`BufferStream`), not a copy.
"""

from __future__ import annotations

from io import SEEK_CUR, SEEK_END, SEEK_SET, RawIOBase
from typing import Any


class BufferStream(RawIOBase):
    """A read-only stream over a buffer (a memory map's view): reads copy what they return."""

    def __init__(self, buf: Any) -> None:
        super().__init__()
        self._buf = buf
        self._pos = 0
        self._len = len(buf)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, pos: int, whence: int = SEEK_SET) -> int:
        if whence == SEEK_CUR:
            pos += self._pos
        elif whence == SEEK_END:
            pos += self._len
        if pos < 0:
            raise ValueError(f"negative seek position {pos}")
        self._pos = pos
        return pos

    def tell(self) -> int:
        return self._pos

    def read(self, size: int | None = -1) -> bytes:
        start = self._pos
        end = self._len if size is None or size < 0 else min(self._len, start + size)
        if end <= start:
            return b""
        self._pos = end
        return bytes(self._buf[start:end])

    def readinto(self, target: Any) -> int:
        data = self.read(len(target))
        target[: len(data)] = data
        return len(data)

    def readline(self, size: int | None = -1) -> bytes:
        start = self._pos
        end = self._len if size is None or size < 0 else min(self._len, start + size)
        found = bytes(self._buf[start:end]).find(b"\n")
        return self.read((found + 1) if found >= 0 else end - start)


def _file(self: Any) -> BufferStream:
    stream = self.__dict__.get("_stream")
    if stream is None:
        stream = self.__dict__["_stream"] = BufferStream(self._buf)
    return stream


def _set_file(self: Any, value: Any) -> None:
    self.__dict__["_stream"] = value


def lazy_buffer_files() -> None:
    """Make Whoosh's compound-segment files copy their buffer on first stream read only."""
    from whoosh.filedb import compound, structfile

    base = structfile.BufferFile
    if compound.BufferFile is not base:
        return  # done already

    class LazyBufferFile(base):  # type: ignore[misc, valid-type]
        """A BufferFile whose stream (a copy of the buffer) is made when first read."""

        file = property(_file, _set_file)

        def __init__(self, buf: Any, name: str | None = None, onclose: Any = None) -> None:
            self._buf = buf
            self._name = name
            self.onclose = onclose
            self.is_real = False
            self.is_closed = False

        def close(self) -> None:
            if self.is_closed:
                raise Exception("This file is already closed")  # as Whoosh's
            if self.onclose:
                self.onclose(self)
            stream = self.__dict__.get("_stream")
            if stream is not None:
                stream.close()
            self.is_closed = True

    compound.BufferFile = LazyBufferFile

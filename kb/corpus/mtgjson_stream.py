"""MTGJSON files read as a stream: plain or compressed as MTGJSON publishes them, set by set.

AllPrintings is 226 MB of JSON (30 MB as ``.xz``): decoded whole it would take gigabytes. The
file is decompressed on the fly (``.xz``, ``.gz``, ``.bz2``, or the one ``.json`` member of a
``.zip``; told by the magic bytes, not the name) and ``ijson`` hands over the members of the
top-level ``data`` object one at a time, so memory holds one set, whatever the file's size.
A set file's ``data`` is one set, gathered member by member; AllPrintings' members are sets.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any

import ijson

from kb.errors import ParseError

from . import mtgjson
from .records import CardSetDocument

_MAGIC = ((b"\xfd7zXZ\x00", "xz"), (b"\x1f\x8b", "gz"), (b"BZh", "bz2"), (b"PK\x03\x04", "zip"))
_BOM = b"\xef\xbb\xbf"
# A plain file this small is decoded again whole to name the line of a JSON error.
_RELOAD_FOR_LINE = 64 * 1024 * 1024
_CORRUPT = (lzma.LZMAError, zlib.error, EOFError, zipfile.BadZipFile, gzip.BadGzipFile, OSError)


def compression_of(head: bytes) -> str | None:
    """The compression named by a file's first bytes (``xz``, ``gz``, ``bz2``, ``zip``)."""
    return next((name for magic, name in _MAGIC if head.startswith(magic)), None)


def looks_like(head: bytes) -> bool:
    """Tell from its first bytes whether a file is to be streamed as MTGJSON."""
    if compression_of(head) is not None:
        return True
    return head.removeprefix(_BOM).lstrip(b" \t\r\n").startswith(b"{")


def encoding_of(head: bytes) -> str:
    """How the document's bytes are read, for Document.encoding: ``xz+utf-8``, ``utf-8``…"""
    compression = compression_of(head)
    return f"{compression}+utf-8" if compression else "utf-8"


@contextmanager
def open_json(path: Path) -> Iterator[IO[bytes]]:
    """Open the JSON bytes of a plain or compressed MTGJSON file."""
    with ExitStack() as stack:
        raw = stack.enter_context(Path(path).open("rb"))
        compression = compression_of(raw.read(8))
        raw.seek(0)
        stream: IO[bytes]
        if compression == "xz":
            stream = stack.enter_context(lzma.open(raw))
        elif compression == "gz":
            stream = stack.enter_context(gzip.open(raw))
        elif compression == "bz2":
            stream = stack.enter_context(bz2.open(raw))
        elif compression == "zip":
            archive = stack.enter_context(zipfile.ZipFile(raw))
            members = [n for n in archive.namelist() if n.lower().endswith(".json")]
            if len(members) != 1:
                raise ParseError(
                    str(path), 1, f"a zip archive must hold one .json file, not {len(members)}"
                )
            stream = stack.enter_context(archive.open(members[0]))
        else:
            stream = raw
        yield _SkipBom(stream)


class _SkipBom:
    """A byte stream without its leading UTF-8 BOM (yajl refuses one)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        head = stream.read(3)
        self.head = head.removeprefix(_BOM)

    def read(self, size: int = -1) -> bytes:
        """Read like a file."""
        if self.head:
            head, self.head = self.head, b""
            if size < 0:
                return head + self.stream.read()
            if len(head) >= size:
                head, self.head = head[:size], head[size:]
                return head
            return head + self.stream.read(size - len(head))
        return self.stream.read(size)


def iter_sets(path: Path) -> Iterator[CardSetDocument]:
    """Yield the set documents of an MTGJSON file (one for a set file, 574 for AllPrintings).

    Raises ParseError for bad JSON, a corrupt archive or a file of the wrong shape; a consumer
    that loads the sets in one transaction thus never half-loads the file.
    """
    label = str(path)
    fields: dict[str, Any] = {}
    seen = 0
    try:
        with open_json(path) as stream:
            for key, value in ijson.kvitems(stream, "data", use_float=True):
                seen += 1
                if mtgjson.is_set(value) and key != "cards":
                    yield mtgjson.set_document(value, label)
                else:
                    fields[key] = value
    except ijson.JSONError as error:
        raise _json_error(path, error) from None
    except _CORRUPT as error:
        raise ParseError(label, 1, f"corrupt or truncated file: {error}") from None
    if not seen:
        raise ParseError(label, 1, 'not an MTGJSON file: no "data" object')
    if fields:
        yield mtgjson.set_document(fields, label)


def _json_error(path: Path, error: Exception) -> ParseError:
    """The error of invalid JSON, with its line when the file is plain and small enough."""
    try:
        small = Path(path).stat().st_size <= _RELOAD_FOR_LINE
        with Path(path).open("rb") as raw:
            plain = compression_of(raw.read(8)) is None
        if small and plain:
            mtgjson.parse(Path(path).read_bytes().decode("utf-8", errors="replace"), str(path))
    except ParseError as exact:
        if exact.reason.startswith("invalid JSON"):
            return exact
    except OSError:
        pass
    return ParseError(str(path), 1, f"invalid JSON: {error}")


__all__ = ["compression_of", "encoding_of", "iter_sets", "looks_like", "open_json"]

"""Bytes to text: which encoding a corpus file is in, told by rule and recorded, never guessed.

- A byte order mark decides: ``EF BB BF`` UTF-8, ``FF FE`` UTF-16 little-endian, ``FE FF``
  UTF-16 big-endian (Wizards published four CR editions in UTF-16).
- Without one the bytes must be strict UTF-8, or else Windows-1252 (33 CR editions of 2003-2022:
  ``0x92`` is a curly apostrophe, not the Latin-1 control character). Windows-1252 decodes almost
  any bytes, so it is accepted only when every byte is defined in it and charset-normalizer finds
  the text plausible in it (KOI8-R or Shift JIS bytes are refused, not turned into mojibake).
- Anything else is a ParseError naming the line and the byte.
"""

from __future__ import annotations

import re

from kb.errors import ParseError

UTF8, UTF8_BOM, CP1252 = "utf-8", "utf-8-sig", "cp1252"
UTF16_LE, UTF16_BE = "utf-16-le", "utf-16-be"
ENCODINGS: tuple[str, ...] = (UTF8, UTF8_BOM, UTF16_LE, UTF16_BE, CP1252)
_BOMS = ((b"\xef\xbb\xbf", UTF8_BOM), (b"\xff\xfe", UTF16_LE), (b"\xfe\xff", UTF16_BE))
# Control characters no text corpus file holds (tab, newlines, form feed and ESC aside).
_CONTROL_BYTE = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")
_CONTROL_CHAR = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")
_BYTE_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def decode(data: bytes, path: str) -> tuple[str, str]:
    """Return a file's text (without BOM) and the name of its encoding; raise ParseError."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _decode_with_bom(data[len(bom) :], encoding, path), encoding
    _refuse_binary(data, path)
    try:
        return data.decode(UTF8), UTF8
    except UnicodeDecodeError as error:
        utf8_error = error
    try:
        text = data.decode(CP1252)
    except UnicodeDecodeError as error:
        also = f"nor Windows-1252 (byte 0x{data[error.start]:02x})"
        raise not_utf8(path, data, utf8_error, also) from None
    if not _plausible_cp1252(data):
        raise not_utf8(path, data, utf8_error, "nor plausible Windows-1252 text")
    return text, CP1252


def _decode_with_bom(body: bytes, encoding: str, path: str) -> str:
    codec = UTF8 if encoding == UTF8_BOM else encoding
    try:
        text = body.decode(codec)
    except UnicodeDecodeError as error:
        line = len(_BYTE_LINE_BREAK.split(body[: error.start]))
        reason = f"invalid {codec.upper()} text after its byte order mark"
        raise ParseError(path, line, reason) from None
    junk = _CONTROL_CHAR.search(text)
    if junk is not None:
        line = len(_LINE_BREAK.findall(text, 0, junk.start())) + 1
        reason = f"binary file, not a text corpus document (character U+{ord(junk[0]):04X})"
        raise ParseError(path, line, reason)
    return text


def _refuse_binary(data: bytes, path: str) -> None:
    control = _CONTROL_BYTE.search(data)
    if control is None:
        return
    line = len(_BYTE_LINE_BREAK.split(data[: control.start()]))
    head = data[:200]
    if head and head.count(0) * 3 >= len(head):
        reason = "UTF-16 text without a byte order mark: its byte order is unknown"
        raise ParseError(path, line, reason)
    raise ParseError(
        path,
        line,
        f"binary file, not a text corpus document (byte 0x{data[control.start()]:02x})",
    )


def _plausible_cp1252(data: bytes) -> bool:
    """Ask charset-normalizer whether the bytes read as natural text in Windows-1252."""
    from charset_normalizer import from_bytes

    return from_bytes(data, cp_isolation=[CP1252]).best() is not None


def not_utf8(path: str, data: bytes, error: UnicodeDecodeError, also: str = "") -> ParseError:
    """Name the line and column of the first byte that is not UTF-8."""
    lines = _BYTE_LINE_BREAK.split(data[: error.start])
    line, column = len(lines), len(lines[-1].decode(UTF8, errors="replace")) + 1
    byte = data[error.start]
    extra = f"; {also}" if also else ""
    return ParseError(path, line, f"not UTF-8 text (byte 0x{byte:02x} at column {column}{extra})")


__all__ = ["ENCODINGS", "decode", "not_utf8"]

"""Corpus files in, records out: read a file, tell its format from its content, parse it.

The format is sniffed from the text, not the extension, because the corpus is assembled by hand
and a rulings page saved as ``.dat`` is still a rulings page. Each format module offers
``looks_like(text)`` (cheap) and ``parse(text, path)`` (raises ParseError with file and line).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

from kb.errors import KbError, ParseError

from .encoding import CP1252, decode, not_utf8
from .records import ParsedDocument

log = logging.getLogger(__name__)

FORMATS: tuple[str, ...] = ("comprules", "rule_page", "rulings_page", "mtgjson")
#: The version of each format's parser and loader. Raise a format's number whenever the same
#: bytes would now give other rows (a fixed quirk, a new field read): the next ingest parses the
#: documents of that format again although their files did not change, instead of keeping what
#: the older code made of them until each file happens to change.
PARSER_VERSIONS: dict[str, int] = {"comprules": 1, "rule_page": 1, "rulings_page": 1, "mtgjson": 1}
# Most specific sniffing first: a JSON object is never a text page, whatever words it holds.
_DETECTION_ORDER: tuple[str, ...] = ("mtgjson", "comprules", "rule_page", "rulings_page")
CORPUS_SUFFIXES = frozenset({".txt", ".json"})
# MTGJSON publishes its files compressed too (AllPrintings.json.xz): kb streams them.
COMPRESSED_SUFFIXES = frozenset({".xz", ".gz", ".bz2", ".zip"})
# Documentation that sits beside corpus files (corpus/SOURCES.md, README.txt) is not corpus.
_NOT_CORPUS_STEMS = frozenset({"readme", "sources", "license", "licence", "notice", "changelog"})
_EXPECTED = (
    "a Comprehensive Rules text ('Magic: The Gathering Comprehensive Rules'), "
    "a rule page ('701.54. The Ring Tempts You' then 'Subrules'), "
    "a rulings page ('Official clarifications from Wizards of the Coast.' then "
    "'June 16, 2023 · source: wotc') or an MTGJSON set file ('{\"meta\": …, \"data\": …}')"
)


def _module(name: str) -> ModuleType:
    """A format's module, imported on first use (a lookup needs only ``kb.corpus.numbers``)."""
    return importlib.import_module(f"{__name__}.{name}")


def read_text(path: Path, data: bytes | None = None) -> str:
    """Read a corpus file's text (see ``decode_file``)."""
    return decode_file(path, data)[0]


def decode_file(path: Path, data: bytes | None = None) -> tuple[str, str]:
    """Read a corpus file as text and name its encoding; refuse binary or mis-encoded files.

    UTF-8 (a BOM is dropped) and UTF-16 by its BOM are read for every format; Windows-1252 only
    for a Comprehensive Rules text, the one format Wizards published in it (kb.corpus.encoding).
    ``data`` lets a caller that already holds the bytes (to hash them) decode them without
    reading the file twice; ``path`` then only names the file in errors.
    """
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise KbError(f"{path}: cannot read ({error.strerror or error})") from None
    if not data:
        raise ParseError(str(path), 1, "empty file")
    text, encoding = decode(data, str(path))
    if encoding == CP1252 and not _module("comprules").looks_like(text):
        error = _first_utf8_error(data)
        raise not_utf8(str(path), data, error, "Latin-1?")
    if not text.strip():
        raise ParseError(str(path), 1, "empty file")
    return text, encoding


def _first_utf8_error(data: bytes) -> UnicodeDecodeError:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return error
    raise AssertionError("the data is UTF-8")  # pragma: no cover - decode() said it was not


def detect_format(text: str, path: str) -> str:
    """Return the format of a decoded text by content; raise ParseError when none fits."""
    for name in _DETECTION_ORDER:
        if _module(name).looks_like(text):
            return name
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    shown = first if len(first) <= 60 else first[:59] + "…"
    raise ParseError(path, 1, f"unknown format: first line {shown!r}; expected {_EXPECTED}")


def parser_for(name: str) -> Callable[[str, str], ParsedDocument]:
    """Return the ``parse(text, path)`` function of a format."""
    if name not in FORMATS:
        raise KbError(f"unknown format {name!r} (expected one of {', '.join(FORMATS)})")
    parse: Callable[[str, str], ParsedDocument] = _module(name).parse
    return parse


def parse_text(text: str, path: str = "<text>") -> ParsedDocument:
    """Detect a decoded text's format and parse it."""
    return parser_for(detect_format(text, path))(text, path)


def parse_file(path: Path, text: str | None = None) -> ParsedDocument:
    """Read, detect and parse one corpus file; every failure is a KbError naming the file.

    ``text`` is the file's already decoded content (from ``read_text``), if the caller has it.
    """
    if text is None:
        text = read_text(path)
    document = parse_text(text, str(path))
    log.debug("parsed %s as %s", path, document.format)
    return document


def iter_corpus_files(paths: Iterable[Path]) -> list[Path]:
    """Expand files and folders (recursively) into the sorted corpus files they hold.

    A file named explicitly is always kept (its format is sniffed later); inside folders only
    ``.txt`` and ``.json`` files count (``.json.xz``, ``.gz``, ``.bz2``, ``.zip`` too), hidden
    files and folders and README/SOURCES-style notes
    are skipped, and so is a link that leads out of the folder. A path that does not exist is
    an error rather than silently nothing.
    """
    found: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            found.add(path)
        elif path.is_dir():
            root = path.resolve()
            for candidate in path.rglob("*"):
                relative = candidate.relative_to(path).parts
                if any(part.startswith(".") for part in relative):
                    continue
                if not _is_corpus_file(candidate):
                    continue
                # A link inside the folder must not make kb read a file elsewhere.
                if not candidate.resolve().is_relative_to(root):
                    log.warning(
                        "%s: skipped, it links to %s outside %s (name that file or its folder "
                        "to ingest it)",
                        candidate,
                        candidate.resolve(),
                        path,
                    )
                    continue
                found.add(candidate)
        else:
            raise KbError(f"{path}: no such file or folder")
    return sorted(found)


def _is_corpus_file(path: Path) -> bool:
    suffix, stem = path.suffix.lower(), path.stem.lower()
    if suffix in COMPRESSED_SUFFIXES and stem.endswith(".json"):
        suffix, stem = ".json", stem.removesuffix(".json")
    return suffix in CORPUS_SUFFIXES and stem not in _NOT_CORPUS_STEMS and path.is_file()


__all__ = [
    "CORPUS_SUFFIXES",
    "FORMATS",
    "PARSER_VERSIONS",
    "decode_file",
    "detect_format",
    "iter_corpus_files",
    "parse_file",
    "parse_text",
    "parser_for",
    "read_text",
]

"""The export jobs the CLI calls: open the knowledge base read-only, build, write the output.

An output file is written whole or not at all (kb.export.output: a temporary file beside it,
then a rename), so an interrupted export never leaves half a PDF where the last good one was.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from kb.config import Settings
from kb.db import Database, open_database
from kb.errors import KbError, KbUsageError

log = logging.getLogger(__name__)

FORMATS = ("html", "pdf", "md")
_SUFFIXES = {".html": "html", ".htm": "html", ".pdf": "pdf", ".md": "md", ".markdown": "md"}


@contextmanager
def reading(settings: Settings) -> Iterator[Session]:
    """A session on the existing knowledge base (never creates one)."""
    db: Database = open_database(settings.database, create=False)
    try:
        with db.session() as session:
            yield session
    finally:
        db.dispose()


def sheet_format(fmt: str | None, out: Path | None) -> str:
    """The sheet's format: the one asked for, else the output file's suffix, else HTML."""
    if fmt:
        return fmt
    if out is not None and out.suffix.lower() in _SUFFIXES:
        return _SUFFIXES[out.suffix.lower()]
    return "html"


@dataclass(frozen=True)
class SheetOutput:
    """A rendered sheet and what it holds."""

    data: bytes
    format: str
    rules: int
    clarifications: int
    languages: list[str]


def export_sheet(
    settings: Settings,
    items: Sequence[str],
    languages: str,
    *,
    fmt: str = "html",
    cards: Sequence[str] = (),
    edition: str | None = None,
    paper: str = "a4",
    landscape: bool = False,
) -> SheetOutput:
    """Build and render a rule sheet (``kb export sheet``)."""
    from kb.export.sheet import build_sheet

    if fmt not in FORMATS:
        raise KbUsageError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    with reading(settings) as session:
        sheet = build_sheet(session, items, languages, edition=edition, cards=cards)
    if fmt == "pdf":
        from kb.export.pdf import render_pdf

        data = render_pdf(sheet, paper=paper, landscape=landscape)
    elif fmt == "md":
        from kb.export.markdown import render_markdown

        data = render_markdown(sheet).encode("utf-8")
    else:
        from kb.export.html import render_html

        data = render_html(sheet, paper=paper, landscape=landscape).encode("utf-8")
    rulings = len(sheet.clarifications) + sum(len(c.rulings) for c in sheet.cards)
    return SheetOutput(data, fmt, len(sheet.rows), rulings, sheet.languages)


def export_po(
    settings: Settings,
    language: str,
    *,
    only: Sequence[str] = (),
    items: Sequence[str] = (),
    edition: str | None = None,
) -> Any:
    """Write the translator's catalog of a language (``kb export po``)."""
    from kb.export.po import export_po as build

    with reading(settings) as session:
        return build(session, language, only=tuple(only) or ("all",), items=items, edition=edition)


def export_json(settings: Settings, edition: str | None = None) -> bytes:
    """The JSON dump (``kb export json``)."""
    from kb.export.dump import write_json

    buffer = io.StringIO()
    with reading(settings) as session:
        write_json(session, buffer, edition)
    return buffer.getvalue().encode("utf-8")


def export_csv(
    settings: Settings,
    out: Path | None,
    tables: Sequence[str] = (),
    edition: str | None = None,
) -> tuple[dict[str, int], bytes | None]:
    """The CSV dump: every table into a folder, or one table's bytes (``kb export csv``)."""
    from kb.export.dump import csv_to_stream, write_csv
    from kb.export.tables import table_names

    names = table_names(tables)
    with reading(settings) as session:
        if out is None:
            if len(names) != 1:
                raise KbUsageError(
                    "--out FOLDER is needed for several tables (or give one --table)"
                )
            buffer = io.StringIO()
            count = csv_to_stream(session, names[0], buffer, edition)
            return {names[0]: count}, buffer.getvalue().encode("utf-8")
        if out.exists() and not out.is_dir():
            raise KbError(f"--out: {out} is a file; give a folder for the CSV tables")
        return write_csv(session, out, names, edition), None

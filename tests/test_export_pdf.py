"""PDF sheets through WeasyPrint, checked the way a reader would: pages rendered to PNG with
pdftoppm, text extracted with pdftotext and compared with the rules asked for, word boxes
inside the page, headers and page numbers on every page, A4 and Letter."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from kb.export.pdf import render_pdf
from kb.export.sheet import build_sheet
from kb.lookup import find_edition
from kb.models import Rule, RuleText

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing (poppler-utils, installed by .ci/run)")
        pytest.skip(f"{name} is missing (apt-get install poppler-utils)")
    return path


def squash(text: str) -> str:
    """Compare texts across line breaks: no whitespace, no hyphens (WeasyPrint hyphenates)."""
    return re.sub(r"[\s\-\u2010\u2011\u00ad]+", "", text)


def pdf_text(path: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    out = subprocess.run(
        [_tool("pdftotext"), "-raw", "-enc", "UTF-8", *pages, str(path), "-"],
        capture_output=True,
        check=True,
    )
    return out.stdout.decode("utf-8")


def word_boxes(path: Path) -> list[tuple[float, float, list[tuple[float, float, float, float]]]]:
    """Per page: width, height and the (xMin, yMin, xMax, yMax) of every word."""
    out = subprocess.run(
        [_tool("pdftotext"), "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = []
    for page in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S):
        boxes = [
            tuple(float(v) for v in m.groups())
            for m in re.finditer(
                r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"', page[3]
            )
        ]
        pages.append((float(page[1]), float(page[2]), boxes))
    return pages


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def sheets(full_settings, tmp_path_factory):
    """A long three-language A4 sheet and a short Letter one, with the texts they must hold."""
    from kb.pipeline import open_db

    out = tmp_path_factory.mktemp("pdf")
    db = open_db(full_settings, create=False)
    try:
        with db.session() as session:
            long = build_sheet(session, ["701.54", "702.124", "714"], "en,fr,es")
            short = build_sheet(session, ["702.2"], "es,en")
            edition = find_edition(session)
            wanted = {r.number for r in long.rows} | {r.number for r in short.rows}
            english = {
                t.rule.number: [t.title, t.body, *(e.text for e in t.examples)]
                for t in session.scalars(
                    select(RuleText)
                    .join(Rule)
                    .where(Rule.edition_id == edition.id, Rule.number.in_(wanted))
                )
            }
    finally:
        db.dispose()
    a4 = out / "long-a4.pdf"
    a4.write_bytes(render_pdf(long, paper="a4"))
    letter = out / "short-letter.pdf"
    letter.write_bytes(render_pdf(short, paper="letter"))
    return {"long": (long, a4), "short": (short, letter), "english": english, "dir": out}


def test_every_rule_asked_for_is_in_the_pdf_text(sheets):
    english = sheets["english"]
    for key in ("long", "short"):
        sheet, path = sheets[key]
        text = squash(pdf_text(path))
        for row in sheet.rows:
            assert row.number in text
            for part in english[row.number]:
                if part:
                    assert squash(part) in text, (key, row.number, part[:50])
            for cell in row.cells:  # the Spanish of 701.54 as much as the English
                for part in (cell.title, cell.text, *cell.examples):
                    if part:
                        assert squash(part) in text, (key, row.number, cell.language)


def test_paper_sizes_and_page_count(sheets):
    for key, size in (("long", A4), ("short", LETTER)):
        _sheet, path = sheets[key]
        reader = PdfReader(path)
        box = reader.pages[0].mediabox
        assert (round(float(box.width), 1), round(float(box.height), 1)) == (
            round(size[0], 1),
            round(size[1], 1),
        )
        assert all(p.mediabox == box for p in reader.pages)
    assert len(PdfReader(sheets["long"][1]).pages) >= 3
    assert len(PdfReader(sheets["short"][1]).pages) == 1


def test_headers_and_page_numbers_on_every_page(sheets):
    _sheet, path = sheets["long"]
    pages = len(PdfReader(path).pages)
    seen: list[str] = []
    for number in range(1, pages + 1):
        text = pdf_text(path, number)
        assert f"Page {number} of {pages}" in text
        assert "Source: MagicCompRules_20260116.txt" in text
        assert "Comprehensive Rules effective January 16, 2026" in text
        # every page of a table starts with its column headers, repeated (French has no text loaded:
        # the sheet says so once and spends no column on it)
        header = re.search(r"^(Rule|Ruling) English Spanish$", text, re.M)
        assert header, number
        seen.append(header[1])
    # the rules table first, then the rulings table, each over several pages
    assert seen[0] == "Rule" and seen == sorted(seen, key=["Rule", "Ruling"].index)
    assert seen.count("Rule") > 1 and seen.count("Ruling") > 1
    short = pdf_text(sheets["short"][1])
    assert "Página 1 de 1" in short and re.search(r"^Regla Inglés$", short, re.M)
    assert "Español: no hay ninguna traducción cargada" in short


def test_no_word_outside_the_page_or_clipped(sheets):
    for key in ("long", "short"):
        _sheet, path = sheets[key]
        for width, height, boxes in word_boxes(path):
            assert boxes
            for x0, y0, x1, y1 in boxes:
                # inside the 11 mm side margins (31 pt) and on the sheet of paper
                assert x0 >= 30 and x1 <= width - 30, (key, x0, x1)
                assert y0 >= 0 and y1 <= height, (key, y0, y1)
            overlapping = _overlaps(boxes)
            assert not overlapping, (key, overlapping[:3])


def _overlaps(boxes: list[tuple[float, float, float, float]]) -> list[tuple]:
    """Pairs of words drawn over each other (text spilling out of its cell into the next)."""
    found = []
    ordered = sorted(boxes, key=lambda b: b[1])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b[1] >= a[3] - 0.5:
                break
            if min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5:
                found.append((a, b))
    return found


def test_pages_render_to_png(sheets):
    out = sheets["dir"]
    for key, size in (("long", A4), ("short", LETTER)):
        _sheet, path = sheets[key]
        subprocess.run(
            [_tool("pdftoppm"), "-r", "40", "-png", str(path), str(out / key)],
            check=True,
            capture_output=True,
        )
        pngs = sorted(out.glob(f"{key}-*.png"))
        assert len(pngs) == len(PdfReader(path).pages)
        width, height = png_size(pngs[0])
        assert abs(width / height - size[0] / size[1]) < 0.01
        assert pngs[0].stat().st_size > 5000  # not a blank page


def test_same_sheet_same_bytes(sheets):
    sheet, path = sheets["short"]
    assert render_pdf(sheet, paper="letter") == path.read_bytes()

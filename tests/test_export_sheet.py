"""Rule sheets on the real corpus: the model, valid and complete HTML, Markdown, escaping, CLI."""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from kb.cli import main
from kb.errors import KbError, NotFoundError
from kb.export.html import render_html
from kb.export.markdown import escape, render_markdown
from kb.export.sheet import Cell, ClarificationRow, Row, Sheet, build_sheet, parse_languages
from kb.lookup import find_edition
from kb.models import Rule, RuleText

VOID = {"meta", "br", "col", "link", "img", "hr", "input", "source", "wbr"}
BLOCK = {"p", "div", "table", "ul", "ol", "section", "header", "footer", "main", "h1", "h2"}


class StrictHTML(HTMLParser):
    """Fails on what a browser would repair: unclosed or crossed tags, blocks in a paragraph,
    cells outside rows, duplicate ids."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.ids: set[str] = set()
        self.errors: list[str] = []
        self.doctype = False
        self.text: list[str] = []

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        where = self.getpos()
        if "p" in self.stack[-1:] and tag in BLOCK:
            self.errors.append(f"{where}: <{tag}> inside <p>")
        if tag in ("td", "th") and self.stack[-1:] != ["tr"]:
            self.errors.append(f"{where}: <{tag}> outside <tr>")
        if tag == "tr" and self.stack[-1] not in ("thead", "tbody"):
            self.errors.append(f"{where}: <tr> outside thead/tbody")
        for name, value in attrs:
            if name == "id":
                if value in self.ids:
                    self.errors.append(f"{where}: duplicate id {value}")
                self.ids.add(value or "")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"{self.getpos()}: </{tag}> closes <{self.stack[-1:]}>")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check_html(html: str) -> StrictHTML:
    parser = StrictHTML()
    parser.feed(html)
    parser.close()
    assert parser.doctype, "no <!DOCTYPE html>"
    assert parser.errors == []
    assert parser.stack == [], f"unclosed: {parser.stack}"
    return parser


def squash(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def ring_sheet(full_settings):
    from kb.pipeline import open_db

    db = open_db(full_settings, create=False)
    try:
        with db.session() as session:
            sheet = build_sheet(session, ["701.54", "702.2", "714"], "fr,en,es")
            edition = find_edition(session)
            texts = {
                t.rule.number: t
                for t in session.scalars(
                    select(RuleText).join(Rule).where(Rule.edition_id == edition.id)
                )
                if t.rule.number in {r.number for r in sheet.rows}
            }
            expected = {
                n: (t.title, t.body, [e.text for e in t.examples]) for n, t in texts.items()
            }
            all_numbers = [
                n
                for n in session.scalars(select(Rule.number).where(Rule.edition_id == edition.id))
                if re.fullmatch(r"701\.54[a-z]?|702\.2[a-z]?|714(\.\d+[a-z]?)?", n)
            ]
    finally:
        db.dispose()
    return sheet, expected, all_numbers


def test_sheet_model_holds_every_subrule_in_every_language(ring_sheet):
    sheet, expected, numbers = ring_sheet
    assert sheet.languages == ["fr", "en", "es"] and sheet.label_language == "fr"
    assert sorted(r.number for r in sheet.rows) == sorted(numbers)
    assert sheet.edition == "2026-01-16" and sheet.source == "MagicCompRules_20260116.txt"
    for row in sheet.rows:
        fr, en, es = row.cells
        title, body, examples = expected[row.number]
        assert (en.title, en.text, en.examples) == (title, body, examples)
        assert en.badges == ["official"] and en.shown_language == "en"
        # no French rule text is loaded: English shown, badged missing
        assert fr.badges == ["missing"] and fr.shown_language == "en" and fr.text == body
        if row.number.startswith("701.54"):
            assert es.shown_language == "es" and es.badges[0] == "official"
            assert es.text != body or es.title != title
        else:
            assert es.badges == ["missing"]
    assert sheet.counts["es"]["current"] + sheet.counts["es"]["stale"] == 6
    assert sheet.counts["fr"]["missing"] == len([r for r in sheet.rows if r.kind != "chapter"])


def test_spanish_text_of_the_ring_is_the_rule_page(ring_sheet):
    sheet, _, _ = ring_sheet
    rows = {r.number: r for r in sheet.rows}
    assert rows["701.54"].cells[2].title == "El Anillo te tienta"
    assert "Portador del Anillo" in rows["701.54b"].cells[2].text


def test_html_sheet_is_valid_and_complete(ring_sheet):
    sheet, expected, _ = ring_sheet
    html = render_html(sheet)
    parser = check_html(html)
    text = squash("".join(parser.text))
    for number, (title, body, examples) in expected.items():
        assert f'id="r-{number}"' in html
        for part in (title, body, *examples):
            assert squash(part) in text, (number, part[:60])
    # French labels, since French comes first; the column headers name the languages
    assert '<html lang="fr">' in html
    assert "Fiche de règles" in html and "manquante" in html
    assert re.search(r"<th[^>]*>Anglais</th>", html) and re.search(r"<th[^>]*>Espagnol</th>", html)
    assert "MagicCompRules_20260116.txt" in html and "16 janvier 2026" in html
    # references to rules on the sheet link to their rows, in English and in Spanish
    assert '<a class="ref" href="#r-701.54a">701.54a</a>, even if' in html
    assert 'acciones de la <a class="ref" href="#r-701.54a">regla 701.54a</a>' in html
    assert '<a class="ref" href="#r-704">' not in html  # not on the sheet: plain text
    assert "@page" not in html  # the screen version has no paged-media rules
    printed = render_html(sheet, paper="letter", print_=True)
    assert "size: letter" in printed and "counter(pages)" in printed


def test_markdown_has_one_section_per_language(ring_sheet):
    sheet, expected, _ = ring_sheet
    md = render_markdown(sheet)
    sections = re.findall(r"^## (.+)$", md, re.MULTILINE)
    # no French text is loaded at all: said once at the top, no section repeating the English
    assert sheet.untranslated == ["fr"]
    assert sections == ["Anglais", "Espagnol"]
    assert md.count("Français : aucune traduction de ces textes") == 1
    english = md.split("## Anglais", 1)[1].split("## Espagnol", 1)[0]
    for number, (title, body, _examples) in expected.items():
        assert number in english
        assert escape(body) in english or escape(title) in english
    spanish = md.split("## Espagnol", 1)[1]
    assert "El Anillo te tienta" in spanish and "*[officielle" in spanish


def test_sheet_is_titled_by_its_rules_names_and_spends_no_column_on_a_missing_language(
    ring_sheet,
):
    sheet, _, _ = ring_sheet
    # the label language (French) has no title of its own: the English names are used
    names = {"701.54": "The Ring Tempts You", "702.2": "Deathtouch", "714": "Saga Cards"}
    assert sheet.names == names
    html = render_html(sheet)
    title = "Fiche de règles · 701.54 The Ring Tempts You · 702.2 Deathtouch · 714 Saga Cards"
    assert f"<title>{title}</title>" in html
    head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
    columns = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', head)
    assert columns == ["Règle", "Anglais", "Espagnol"]
    assert 'class="screen cols-2"' in html
    # the per-row "missing" badge of French is gone; Spanish keeps its own where it lacks a text
    assert html.count("Français : aucune traduction") == 1
    md = render_markdown(sheet)
    levels = [len(m) for m in re.findall(r"^(#+) ", md, re.MULTILINE)]
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels)), levels


def test_untranslated_keyword_rules_show_the_term_of_official_card_translations(ring_sheet):
    """702.2 has no French or Spanish rules text: the sheet shows the term Wizards' card
    translations use (learned from KHM's cards), with a provenance of its own, never as a
    translation of the rule."""
    sheet, _, _ = ring_sheet
    deathtouch = next(r for r in sheet.rows if r.number == "702.2")
    cells = {c.language: c for c in deathtouch.cells}
    assert cells["es"].shown_language == "en" and cells["es"].term == "Toque mortal"
    assert cells["fr"].term == "Contact mortel"
    assert cells["en"].term == ""
    assert not any(c.term for r in sheet.rows if r.number.startswith("714") for c in r.cells)
    html = render_html(sheet)
    badge = "terme des traductions officielles des cartes"  # the label language is French
    assert '<span class="term">Toque mortal</span> <span class="badge badge-card-term"' in html
    assert badge in html
    # French has no column: its terms are said once, at the top
    assert "Français, termes des traductions officielles des cartes : 702.2 Contact mortel" in html
    md = render_markdown(sheet)
    assert f"*Toque mortal* *[{badge}]*" in md


def test_corpus_text_is_escaped_in_html_and_markdown():
    evil = "<script>alert(1)</script> *bold* [x](y) & {T}"
    cell = Cell(language="en", shown_language="en", text=evil, examples=["1. <b>no</b>"])
    ruling = ClarificationRow(
        id=1, date="2023-06-16", source="wotc<i>", cards=[], rules=["701.54"], cells=[cell]
    )
    sheet = Sheet(
        items=["701.54<x>"],
        languages=["en"],
        edition="2026-01-16",
        edition_key="en:2026-01-16",
        source="a<b>.txt",
        rows=[Row(number="701.54", kind="rule", cells=[cell])],
        clarifications=[ruling],
        cards=[],
        counts={},
    )
    html = render_html(sheet)
    check_html(html)
    assert "<script>" not in html and "<b>no</b>" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    md = render_markdown(sheet)
    assert "<script>" not in md and "\\*bold\\*" in md and "\\[x\\](y)" in md
    assert escape("1. x", line_start=True) == "1\\. x"
    assert escape("- x", line_start=True) == "\\- x"


def test_bad_languages_and_items_are_refused(full_db):
    assert parse_languages("ES, fr,es") == ["es", "fr"]
    with pytest.raises(KbError, match="--lang"):
        parse_languages("de")
    with full_db.session() as session:
        with pytest.raises(NotFoundError, match=r"999\.9"):
            build_sheet(session, ["999.9"], "en")
        with pytest.raises(NotFoundError, match="no card"):
            build_sheet(session, ["701.54"], "en", cards=["No Such Card Anywhere"])


def test_cards_add_their_rulings(full_db):
    from kb.lookup import clarifications_of, find_card

    with full_db.session() as session:
        sheet = build_sheet(
            session, ["714.2"], "en,fr", cards=["The Trickster-God's Heist; Valki, God of Lies"]
        )
        expected = len(clarifications_of(session, find_card(session, "Trickster-God's Heist").id))
    names = [c.card.names["en"] for c in sheet.cards]
    assert names == ["The Trickster-God's Heist", "Valki, God of Lies // Tibalt, Cosmic Impostor"]
    heist = sheet.cards[0]
    assert heist.card.names["fr"] != "The Trickster-God's Heist"  # MTGJSON's French name
    assert len(heist.rulings) == expected >= 12
    for ruling in heist.rulings:
        en, fr = ruling.cells
        assert en.text and en.badges == ["official"]
        assert fr.badges in (["missing"], ["machine"])
        assert fr.shown_language == ("en" if fr.badges == ["missing"] else "fr")


def test_cli_writes_each_format(full_settings, tmp_path):
    runner = CliRunner()
    base = ["--home", str(full_settings.home), "export", "sheet", "701.54"]
    html = tmp_path / "out" / "ring.html"
    result = runner.invoke(main, [*base, "--lang", "es,en", "--out", str(html)])
    assert result.exit_code == 0, result.output
    assert "El Anillo te tienta" in html.read_text(encoding="utf-8")
    assert "wrote 6 rules" in result.output
    md = runner.invoke(main, [*base, "--lang", "en", "--format", "md"])
    assert md.exit_code == 0 and md.stdout.startswith("# Rule sheet · 701.54")
    bad = runner.invoke(main, [*base, "--lang", "de"])
    assert bad.exit_code == 2 and "kb: error: --lang" in bad.output
    missing = runner.invoke(main, ["--home", str(full_settings.home), "export", "sheet", "999.9"])
    assert missing.exit_code == 1 and "999.9" in missing.output
    assert list((tmp_path / "out").iterdir()) == [html]  # no temporary file left behind

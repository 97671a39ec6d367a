"""`kb rule` and `kb card` laid out without rich (kb.cli.lookup_layout) as rich lays them out."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys

import pytest
from rich.console import Console

from kb import lookup_sqlite
from kb.cli import lookup_layout, reports

RULES = [
    ("702", "en"),  # a chapter: 750 rows
    ("702", "es"),
    ("701.54", "fr"),
    ("701.38", "es"),
    ("100", "en"),
    ("7", "fr"),  # a part: its chapters and every rule
]
CARDS = ["The Trickster-God's Heist", "Halvar, God of Battle // Sword of the Realms", "Esika, God"]
WIDTHS = [80, 120, 57, 40]


def _rich(printer, view, width: int, styled: bool = False) -> str:
    out = io.StringIO()
    terminal = {"force_terminal": True, "color_system": "standard"} if styled else {}
    printer(Console(file=out, width=width, highlight=False, soft_wrap=False, **terminal), view)
    return out.getvalue()


def _plain(lines: list[str] | None) -> str | None:
    return None if lines is None else "".join(line + "\n" for line in lines)


def _view(full_settings, view: str, *args):
    from kb.pipeline import open_db

    db = open_db(full_settings, create=False)
    try:
        with db.session() as session:
            from kb import lookup

            return getattr(lookup, f"{view}_view")(session, *args)
    finally:
        db.dispose()


@pytest.fixture(scope="module")
def rule_views(full_settings):
    return {(n, lang): _view(full_settings, "rule", n, lang) for n, lang in RULES}


@pytest.mark.parametrize("styled", [False, True], ids=["piped", "terminal"])
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("number", "lang"), RULES)
def test_a_rule_is_the_table_rich_draws(rule_views, number, lang, width, styled):
    view = rule_views[(number, lang)]
    laid = _plain(lookup_layout.rule_lines(view, width, styled))
    assert laid is not None  # laid out here: real rules need no fallback at these widths
    assert laid == _rich(reports.print_rule, view, width, styled)
    assert ("\x1b[1m" in laid) == styled


@pytest.mark.parametrize("styled", [False, True], ids=["piped", "terminal"])
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("query", CARDS)
def test_a_card_is_what_rich_prints(full_settings, query, width, styled):
    view = _view(full_settings, "card", query)
    laid = _plain(lookup_layout.card_view_lines(view, width, styled))
    assert laid is not None
    assert laid == _rich(reports.print_card, view, width, styled)
    assert laid.count("\n") > 10  # the card as a whole, not an error's line


def _tiny_rule(english: str, translation: str | None = None) -> dict:
    def text(body: str) -> dict:
        return {
            "language": "es",
            "title": "",
            "text": body,
            "examples": ["An example."],
            "provenance": "machine",
            "follows_edition": "2026-01-16",
            "follows_assumed": False,
        }

    return {
        "number": "701.54",
        "edition": "2026-01-16",
        "language": "es" if translation else "en",
        "rules": [
            {
                "number": "701.54",
                "kind": "rule",
                "english": text(english),
                "translation": text(translation) if translation else None,
                "card_term": None,
            }
        ],
        "missing": 0,
        "today": None,
    }


@pytest.mark.parametrize(
    "english",
    [
        "漢字 are two cells wide each",
        "a possible emoji :smile: code",
        "a back\\slash",
        "a tab\there",
    ],
)
def test_what_only_rich_prints_exactly_is_left_to_rich(english):
    view = _tiny_rule(english, "traducción")
    card = {"name": english, "names": {}, "mana_value": None, "oracle_id": None}
    card |= {"attributes": {}, "printings": [], "rulings_pages": [], "rulings": []}
    for styled in (False, True):
        assert lookup_layout.rule_lines(view, 80, styled) is None
        assert lookup_layout.card_view_lines(card, 80, styled) is None


@pytest.mark.parametrize(
    "english",
    [
        "∞ (Infinity) — “curly” «quotes» and non\u00a0breaking spaces",
        "a word wider than its column: " + "x" * 90 + " and on",
        "   leading spaces, and trailing ones   ",
        "",
    ],
)
def test_what_rich_lays_out_plainly_is_laid_out_here(english):
    view = _tiny_rule(english, "¿Sí? " + english)
    for width in (80, 50, 120):
        plain = _plain(lookup_layout.rule_lines(view, width))
        assert plain is not None and plain == _rich(reports.print_rule, view, width)
        styled = _plain(lookup_layout.rule_lines(view, width, True))
        assert styled is not None and styled == _rich(reports.print_rule, view, width, True)
    card = {"name": english or "x", "names": {"fr": english}, "mana_value": None}
    card |= {"oracle_id": None, "attributes": {}, "printings": [], "rulings_pages": []}
    card["rulings"] = [
        {
            "date": "2026-01-16",
            "source": english,
            "texts": {"en": {"text": english, "provenance": "official"}},
        }
    ]
    for width, styled in itertools.product((80, 50, 120), (False, True)):
        laid = _plain(lookup_layout.card_view_lines(card, width, styled))
        if english:
            assert laid == _rich(reports.print_card, card, width, styled)


def test_a_console_too_narrow_for_the_columns_is_left_to_rich():
    assert lookup_layout.rule_lines(_tiny_rule("Some text.", "Algún texto."), 24) is None


def test_a_lookup_piped_imports_neither_rich_nor_the_orm(full_settings):
    if full_settings.database_url:
        pytest.skip("the sqlite3 lookups read SQLite files; this pass's knowledge base is not one")
    assert lookup_sqlite.answer(full_settings.database, "rule", "702", "en", None) is not None
    for command in (["rule", "702", "--lang", "es"], ["card", "the trickster-god's heist"]):
        argv = ["--home", str(full_settings.home), *command]
        code = (
            "import json, sys\nfrom kb.cli import main\n"
            f"main({argv!r}, standalone_mode=False)\nsys.stdout.flush()\n"
            "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'sqlalchemy'))\n"
            "print(json.dumps(loaded), file=sys.stderr)"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        loaded = json.loads(done.stderr.strip().splitlines()[-1])
        heavy = ("rich.console", "rich.table", "rich.text", "rich.markup", "sqlalchemy")
        assert [m for m in loaded if m.startswith(heavy)] == [], loaded


def test_a_styled_word_cut_to_an_ellipsis_keeps_its_style():
    view = _tiny_rule("Some text.", "Algún texto.")
    view["rules"][0]["translation"]["provenance"] = "p" * 70  # a badge wider than its column
    view["rules"][0]["card_term"] = None
    for width in (80, 60):
        for styled in (False, True):
            laid = _plain(lookup_layout.rule_lines(view, width, styled))
            assert laid is not None and "…" in laid
            assert laid == _rich(reports.print_rule, view, width, styled)

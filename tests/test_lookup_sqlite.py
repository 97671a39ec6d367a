"""`kb rule` / `kb card` without the ORM (kb.lookup_sqlite) give what the ORM path gives."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kb import lookup, lookup_sqlite
from kb.cli import main
from kb.errors import KbError

RULES = [
    ("701.54", "en", None),
    ("701.54", "es", None),
    ("701.54a", "fr", None),
    ("702", "es", None),
    ("7", "es", None),
    ("100", "en", None),
    ("701.38", "es", None),
    ("702.2", "fr", "2026-01-16"),
]
CARDS = [
    "The Trickster-God's Heist",
    "the trickster-god's heist",
    "Le vol du dieu-décepteur",
    "El robo del dios embaucador",
    "003_c5873bb13b9e08b7",
    "Halvar, God of Battle // Sword of the Realms",
    "halvar",
    "Saga",  # several cards: the same error
    "no such card anywhere",
]


@pytest.fixture
def sqlite_kb(full_settings):
    if full_settings.database_url:
        pytest.skip("the sqlite3 lookups read SQLite files; this pass's knowledge base is not one")
    return full_settings


def _orm(full_settings, view, *args):
    from kb.pipeline import open_db

    db = open_db(full_settings, create=False)
    try:
        with db.session() as session:
            return getattr(lookup, f"{view}_view")(session, *args)
    except KbError as exc:
        return f"{type(exc).__name__}: {exc}"
    finally:
        db.dispose()


def _quick(full_settings, view, *args):
    try:
        return lookup_sqlite.answer(full_settings.database, view, *args)
    except KbError as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize(("number", "lang", "edition"), RULES)
def test_a_rule_without_the_orm_is_the_rule_of_the_orm(sqlite_kb, number, lang, edition):
    quick = _quick(sqlite_kb, "rule", number, lang, edition)
    assert quick is not None
    assert quick == _orm(sqlite_kb, "rule", number, lang, edition)


@pytest.mark.parametrize("query", CARDS)
def test_a_card_without_the_orm_is_the_card_of_the_orm(sqlite_kb, query):
    quick = _quick(sqlite_kb, "card", query)
    assert quick is not None
    assert quick == _orm(sqlite_kb, "card", query)


def test_what_needs_an_alignment_takes_the_orm_path(sqlite_kb):
    # Where 701.32 of 2021 stands today is found through the editions' alignments.
    assert lookup_sqlite.answer(sqlite_kb.database, "rule", "701.32", "en", "2021-02-05") is None
    assert lookup_sqlite.answer("postgresql+psycopg://kb@localhost/kb", "card", "x") is None
    assert lookup_sqlite.answer("sqlite:////nonexistent/kb.sqlite", "card", "x") is None


@pytest.mark.parametrize(
    "args",
    [
        ["rule", "701.54", "--lang", "es"],
        ["rule", "702.2", "--lang", "fr"],
        ["rule", "no.rule"],
        ["rule", "701.54", "--edition", "1999-01-01"],
        ["card", "Le vol du dieu-décepteur"],
        ["card", "Saga"],
    ],
)
def test_the_command_prints_the_same_either_way(sqlite_kb, monkeypatch, args):
    answered: list[object] = []
    original = lookup_sqlite.answer

    def spy(*given):
        answered.append(original(*given))  # an error is raised before it is recorded
        return answered[-1]

    def run(*extra: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(main, ["--home", str(sqlite_kb.home), *args, *extra])
        return result.exit_code, result.stdout, result.stderr

    monkeypatch.setattr(lookup_sqlite, "answer", spy)
    quick, quick_json = run(), run("--json")
    assert None not in answered  # the sqlite3 path answered (or raised the error printed)
    monkeypatch.setattr(lookup_sqlite, "answer", lambda *_given: None)
    assert (run(), run("--json")) == (quick, quick_json)


def test_a_lookup_imports_no_orm(sqlite_kb):
    # What makes it fast: neither SQLAlchemy nor the ingest stage is imported.
    argv = ["--home", str(sqlite_kb.home), "card", "Halvar", "--json"]
    code = (
        "import json, sys\nfrom kb.cli import main\n"
        f"main({argv!r}, standalone_mode=False)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('sqlalchemy'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [], done.stderr


def test_folding_an_ascii_name_takes_a_shortcut_to_the_same_result():
    import random
    import unicodedata

    from kb.langs import fold, normalize_typography

    def folded(text: str) -> str:
        decomposed = unicodedata.normalize("NFKD", normalize_typography(text).casefold())
        return "".join(c for c in decomposed if not unicodedata.combining(c))

    rng = random.Random(17)
    ascii_chars = [chr(i) for i in range(128)]
    names = ["The Trickster-God's Heist", " Halvar,\tGod  of\nBattle ", "\x1c\x1fA\x0bB"]
    names += ["".join(rng.choices(ascii_chars, k=rng.randint(0, 12))) for _ in range(20000)]
    assert [fold(n) for n in names] == [folded(n) for n in names]
    assert fold("Règle  Épée") == "regle epee"  # the full folding where it is needed

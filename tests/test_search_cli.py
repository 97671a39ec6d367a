"""``kb index`` and ``kb search`` through click's CliRunner."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from search_kb import CORPUS as SHARED_CORPUS
from search_kb import DATA, ROOT, ingested, run

from kb.cli import main

CORPUS = [*SHARED_CORPUS, DATA / "rulings" / "es_page.txt"]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with the small corpus ingested and indexed through the CLI (built once)."""
    folder = tmp_path_factory.mktemp("cli") / "_kb"
    ingested(folder, CORPUS)
    result = run(folder, "index")  # the ingest built the index already
    assert result.exit_code == 0, result.output
    assert result.output.startswith("index up to date ("), result.output
    return folder


def test_ingest_then_index_then_search(settings: Any) -> None:
    """The whole flow on the test's own database (PostgreSQL when the suite runs on it)."""
    invoke = CliRunner().invoke
    folder = ["--home", str(settings.home)]
    assert invoke(main, [*folder, "ingest", str(ROOT / "corpus")]).exit_code == 0
    assert invoke(main, [*folder, "index", "--rebuild"]).output.startswith("indexed ")
    result = invoke(main, [*folder, "search", "vote", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["results"]
    # A further ingest keeps the index in step by itself.
    assert invoke(main, [*folder, "ingest", str(CORPUS[1])]).exit_code == 0
    result = invoke(main, [*folder, "search", "ballot", "edition:2024-01-05", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["results"][0]["edition"] == "2024-01-05"


def test_index_reports_and_is_idempotent(home: Path) -> None:
    result = run(home, "index")
    assert result.exit_code == 0 and result.output.startswith("index up to date (")
    result = run(home, "index", "--json")
    report = json.loads(result.output)
    assert report["full"] is False and report["written"] == 0 and report["items"] > 50
    result = run(home, "index", "--rebuild", "--json")
    assert json.loads(result.output)["full"] is True
    assert run(home, "search", "vote").exit_code == 0


def test_search_prints_readable_results(home: Path) -> None:
    result = run(home, "search", "ring", "tempts", "you", "--limit", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("1") and "for ring tempts you" in lines[0]
    assert "\n1. 701.54" in result.output and "The Ring Tempts You  rule · edition" in result.output
    assert "/en/rules/701.54.html" in result.output
    assert "\x1b[" not in result.output  # no colour when the output is not a terminal


def test_search_json(home: Path) -> None:
    result = run(home, "search", "abstenerse", "--lang", "es", "--json")
    assert result.exit_code == 0, result.output
    response = json.loads(result.output)
    assert response["lang"] == "es"
    top = response["results"][0]
    assert top["type"] == "ruling" and top["badge"] == "machine translation"
    assert top["matched_languages"] == ["es"] and top["original"]["language"] == "en"


def test_search_type_and_limit(home: Path) -> None:
    result = run(home, "search", "vote", "--type", "glossary", "--json")
    response = json.loads(result.output)
    assert response["results"] and {r["type"] for r in response["results"]} == {"glossary"}
    result = run(home, "search", "vote", "--limit", "2", "--json")
    assert len(json.loads(result.output)["results"]) == 2


def test_rule_number_jump(home: Path) -> None:
    result = run(home, "search", "701.54a-c")
    assert result.exit_code == 0
    assert result.output.startswith("Rule 701.54a–701.54c (edition 2025-02-07)")
    assert "3. 701.54c" in result.output


def test_nothing_found_exits_1(home: Path) -> None:
    result = run(home, "search", "zzqxv")
    assert result.exit_code == 1
    assert "No results for zzqxv." in result.output
    result = run(home, "search", "zzqxv", "--json")
    assert result.exit_code == 1 and json.loads(result.output)["results"] == []


def test_did_you_mean_is_shown(home: Path) -> None:
    result = run(home, "search", "rign", "tempts")
    assert "Did you mean: ring tempts?" in result.output
    result = run(home, "search", "tempst", "rign")
    assert result.exit_code == 0
    assert "No results for tempst rign;" in result.output


def test_fuzzy_option(home: Path) -> None:
    response = json.loads(run(home, "search", "tempst", "--fuzzy", "--json").output)
    assert response["fuzzy"] is True and response["showing"] is None and response["results"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["type:spell"], "kb: error: type:spell — unknown type"),
        (["vote", "--type", "spell"], "kb: error: unknown type 'spell'"),
        (["vote", "edition:1999-01-01"], "no such edition in the index"),
        (["the"], "only common words"),
    ],
)
def test_bad_queries_exit_2_with_a_message(home: Path, args: list[str], message: str) -> None:
    result = run(home, "search", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_bad_options_are_refused_by_click(home: Path) -> None:
    assert run(home, "search", "vote", "--lang", "de").exit_code == 2
    assert run(home, "search", "vote", "--limit", "0").exit_code == 2


def test_search_without_an_index(tmp_path: Path) -> None:
    result = run(tmp_path / "empty", "search", "vote")
    assert result.exit_code == 1
    assert "no search index" in result.output and "kb index" in result.output


def test_corpus_text_is_escaped_in_terminal_markup() -> None:
    from kb.cli.search_output import result_lines

    result = {
        "rank": 1,
        "type": "rule",
        "title": "100.1 [bold]not markup[/bold]",
        "language": "en",
        "snippet": "a [red]b[/red]",
        "highlights": [["a [red]", False], ["b", True]],
        "url": "/en/rules/100.1.html",
    }
    lines = result_lines(result)
    assert "\\[bold]not markup\\[/bold]" in lines[0]
    assert "a \\[red][bold yellow]b[/bold yellow]" in lines[1]


def test_a_long_result_header_wraps_under_its_title_not_to_column_0() -> None:
    import io

    from rich.console import Console

    from kb.cli.search_output import renderables

    result = {
        "rank": 10,
        "type": "ruling",
        "title": "Ruling 2023-06-16 on The Ring Tempts You and every card that tempts you",
        "language": "en",
        "date": "2023-06-16",
        "source": "MTGJSON LTR",
        "sets": ["LTR", "LTC"],
        "matched_languages": ["fr", "es"],
        "snippet": "",
        "url": "/en/cards/x.html",
    }
    response = {"results": [result], "lang": "en", "total": 1, "query": "ring"}
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False, soft_wrap=False)
    for renderable in renderables(response):
        console.print(renderable)
    lines = out.getvalue().splitlines()
    start = lines.index(next(line for line in lines if line.startswith("10. Ruling")))
    block = lines[start:]
    assert len(block) >= 3 and max(len(line) for line in lines) <= 80
    assert all(line.startswith("    ") and line[4] != " " for line in block[1:]), block
    assert block[-1] == "    /en/cards/x.html"


def test_search_output_piped_fits_80_columns_with_hanging_indents(home: Path) -> None:
    result = CliRunner().invoke(
        main, ["--home", str(home), "search", "ring", "tempts", "--limit", "12"],
        env={"COLUMNS": "80"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    body = lines[lines.index("") :]
    assert max(len(line) for line in lines) <= 80
    assert all(not line or line[0] == " " or line.split(". ")[0].isdigit() for line in body), body


@pytest.mark.parametrize("command", ["index", "search", "serve"])
def test_help_has_an_example(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.output


def test_a_search_loads_no_other_stage(home: Path) -> None:
    """A one-off ``kb search`` imports the search commands only: no database layer, no
    catalogs, no other command module, no numpy (a warm search's arrays, kb.search.parts):
    what a cold search costs is mostly imports."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from kb.cli import main\n"
        "try:\n"
        f"    main(['--home', {str(home)!r}, 'search', 'vote', '--json'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('MODULES', ' '.join(sorted(sys.modules)))\n"
    )
    # The default settings: a configured database URL (the PostgreSQL pass) is checked with
    # SQLAlchemy's URL parser when settings load, which imports it.
    env = {k: v for k, v in os.environ.items() if k not in ("KB_DATABASE_URL", "KB_DATABASE")}
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    ).stdout
    printed, _, modules = out.rpartition("MODULES ")
    assert json.loads(printed)["results"]
    loaded = set(modules.split())
    unwanted = {"sqlalchemy", "babel", "jinja2", "numpy", "kb.db", "kb.models", "kb.cli.corpus"}
    unwanted |= {"kb.cli.export", "kb.cli.links", "kb.cli.site", "kb.cli.update", "kb.cli.terms"}
    assert loaded & unwanted == set()

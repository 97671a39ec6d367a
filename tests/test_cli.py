"""The `kb` command through click's CliRunner: ingest, rule, card, stats, help and errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from kb.cli import main

HEIST_ORACLE = "78f99c66-cb50-49e3-ab2d-e7755818ffd7"


def run(*args: str, home=None):
    base = ["--home", str(home)] if home is not None else []
    return CliRunner().invoke(main, [*base, *args], catch_exceptions=False)


def _commands(group: click.Group, prefix: str = ""):
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        yield f"{prefix}{name}", command
        if isinstance(command, click.Group):
            yield from _commands(command, f"{prefix}{name} ")


def test_every_command_has_help_with_an_example():
    missing = [name for name, command in _commands(main) if "Example:" not in (command.help or "")]
    assert missing == []


def test_every_command_module_is_named_in_the_lazy_table():
    """Each command is found where ``COMMAND_MODULES`` says (a command missing from the table
    would not exist for ``kb``)."""
    import importlib
    import pkgutil

    import kb.cli
    from kb.cli.app import COMMAND_MODULES

    for info in pkgutil.iter_modules(kb.cli.__path__):
        importlib.import_module(f"kb.cli.{info.name}")
    found = {name: cmd.callback.__module__ for name, cmd in main.commands.items()}
    assert found == {name: f"kb.cli.{module}" for name, module in COMMAND_MODULES.items()}


def test_python_dash_m_kb_runs():
    out = subprocess.run(
        [sys.executable, "-m", "kb", "--help"], capture_output=True, text=True, check=True
    )
    assert "ingest" in out.stdout


def test_ingest_seeds_prints_a_summary(tmp_path, seeds):
    result = run("ingest", str(seeds), home=tmp_path)
    assert result.exit_code == 0, result.output
    assert "3 documents read: 3 loaded, 0 unchanged, 0 failed" in result.output
    # the documents table counts what the knowledge base stores, not what this run loaded
    assert "stored" in result.output
    again = run("ingest", str(seeds), "--json", home=tmp_path)
    summary = json.loads(again.stdout)
    assert summary["run"] == {
        "files": 3,
        "loaded": 0,
        "unchanged": 3,
        "reparsed": 0,
        "failed": 0,
        "failures": [],
        "warnings": [],
    }
    es = summary["knowledge_base"]["languages"]["es"]
    assert es["card_names"] == 0
    assert summary["knowledge_base"]["clarifications"] == 25


def test_ingest_reports_failures_and_strict_exits_nonzero(tmp_path, seeds):
    corpus = tmp_path / "corpus"
    shutil.copytree(seeds, corpus)
    (corpus / "010_0000000000000000.txt").write_text(
        "Official rulings from Wizards of the Coast.\nJune 16, 2023 · source: wotc\n",
        encoding="utf-8",
    )
    result = run("ingest", str(corpus), home=tmp_path / "home")
    assert result.exit_code == 0
    assert "010_0000000000000000.txt:2: " in result.stderr
    assert "3 loaded" in result.stdout and "1 failed" in result.stdout
    strict = run("ingest", "--strict", str(corpus), home=tmp_path / "home")
    assert strict.exit_code == 1
    assert "010_0000000000000000.txt:2: " in strict.stderr


def test_ingest_of_a_missing_path_is_a_clear_error(tmp_path):
    result = run("ingest", str(tmp_path / "nowhere"), home=tmp_path)
    assert result.exit_code == 1
    assert "nowhere" in result.stderr and "Traceback" not in result.output


def test_commands_on_an_empty_home_say_what_to_do(tmp_path):
    result = run("rule", "701.54", home=tmp_path)
    assert result.exit_code == 1
    assert "kb ingest" in result.stderr


def test_rule_in_spanish_beside_english(full_settings):
    result = run("rule", "701.54", "--lang", "es", "--json", home=full_settings.home)
    view = json.loads(result.stdout)
    assert [r["number"] for r in view["rules"]][-1] == "701.54e"
    assert view["rules"][0]["translation"]["title"] == "El Anillo te tienta"
    text = run("rule", "701.54", "--lang", "es", home=full_settings.home).stdout
    assert "El Anillo te tienta" in text and "The Ring Tempts You" in text


def test_rule_without_translation_says_so(full_settings):
    result = run("rule", "701.38", "--lang", "es", home=full_settings.home)
    assert result.exit_code == 0
    assert "no Spanish text" in result.stdout
    assert "Vote" in result.stdout


def test_rule_of_an_older_edition(full_settings):
    result = run("rule", "701.32", "--edition", "2021-02-05", "--json", home=full_settings.home)
    view = json.loads(result.stdout)
    assert view["edition"] == "2021-02-05"
    assert view["rules"][0]["english"]["title"] == "Vote"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rule", "999.99"], "not in the 2026-01-16 edition"),
        (["rule", "hello"], "not a rule number"),
        (["rule", "701.54", "--edition", "1999-01-01"], "no edition effective 1999-01-01"),
        (["rule", "701.54", "--lang", "de"], "unsupported language"),
        (["card", "No Such Card Anywhere"], "no card named"),
    ],
)
def test_bad_requests_get_one_line_errors(full_settings, args, message):
    result = run(*args, home=full_settings.home)
    assert result.exit_code == (
        2 if message in ("not a rule number", "unsupported language") else 1
    )
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "query",
    [
        "The Trickster-God's Heist",
        "the trickster-god’s heist",
        "Le vol du dieu-décepteur",
        "El robo del dios embaucador",
        HEIST_ORACLE,
        "003_c5873bb13b9e08b7",
    ],
)
def test_card_by_any_name_or_id(full_settings, query):
    view = json.loads(run("card", query, "--json", home=full_settings.home).stdout)
    assert view["oracle_id"] == HEIST_ORACLE
    assert view["mana_value"] == 4
    assert len(view["rulings"]) == 12
    assert all(r["date"] == "2021-02-05" for r in view["rulings"])


def test_card_text_output_has_iso_dates_and_names(full_settings):
    out = run("card", "003_c5873bb13b9e08b7", home=full_settings.home).stdout
    assert "The Trickster-God's Heist" in out
    assert "French: Le vol du dieu-décepteur" in out
    assert "2021-02-05 · wotc" in out
    assert "12 rulings" in out


def test_card_states_its_mana_value_once(full_settings):
    """The seed page's ``CMC 4`` agrees with the card's mana value: one fact, said once."""
    out = run("card", "003_c5873bb13b9e08b7", home=full_settings.home).stdout
    assert "mana value 4" in out
    assert "CMC" not in out
    assert (
        run("card", "003_c5873bb13b9e08b7", "--json", home=full_settings.home).stdout.count('"CMC"')
        == 0
    )


def test_a_page_attribute_that_disagrees_with_the_card_is_kept():
    from kb.corpus.records import page_attributes

    pages = [{"CMC": "5"}, None, {"COLOR": "W"}]
    assert page_attributes(pages, 4.0) == {"CMC": "5", "COLOR": "W"}
    assert page_attributes(pages, 5.0) == {"COLOR": "W"}
    assert page_attributes(pages, None) == {"CMC": "5", "COLOR": "W"}


def test_stats_json_and_text(full_settings):
    stats = json.loads(run("stats", "--json", home=full_settings.home).stdout)
    editions = {e["key"]: e for e in stats["editions"]}
    assert editions["en:2026-01-16"]["rules"]["subrule"] == 1957
    assert editions["es:translations"]["rules"] == {
        "part": 0,
        "chapter": 0,
        "rule": 1,
        "subrule": 5,
    }
    text = run("stats", home=full_settings.home).stdout
    assert "2026-01-16" in text and "Spanish" in text


def test_card_shows_its_texts_and_each_ruling_language_and_provenance(full_settings):
    out = run("card", "The Trickster-God's Heist", home=full_settings.home).stdout
    assert "Oracle text" in out and "Enchantment — Saga" in out
    assert "III — Target player loses 3 life and you gain 3 life." in out
    assert "French printed text" in out and "Enchantement : saga" in out
    rulings = [line for line in out.splitlines() if line.startswith("  en (official): ")]
    assert len(rulings) >= 12
    # wrapped lines keep their indent (a hanging indent), never back to column 0
    body = out.split("rulings\n", 1)[1].splitlines()
    assert all(line.startswith("  ") or line[:4].isdigit() for line in body), body


@pytest.mark.parametrize(
    "query",
    [
        "The Trickster-God's Heist",  # as printed: one indexed look-up
        "the trickster-god\u2019s heist",  # folded: case and typography
        "Le vol du dieu-décepteur",
        "le vol du dieu-decepteur",
        "Trickster-God",  # part of the name
    ],
)
def test_a_card_is_found_by_its_name_as_printed_folded_or_in_part(full_settings, query):
    result = run("card", query, "--json", home=full_settings.home)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["name"] == "The Trickster-God's Heist"


def test_a_part_of_several_names_lists_them(full_settings):
    result = run("card", "Dragon", home=full_settings.home)
    assert result.exit_code == 1
    assert "matches 4 cards: A-Goldspan Dragon, Dragonkin Berserker" in result.stderr


@pytest.mark.parametrize("command", [("stats",), ("diff", "2025-11-14", "2026-01-16")])
def test_terminal_output_fits_80_columns_without_cut_headers(full_settings, command):
    result = CliRunner().invoke(
        main, ["--home", str(full_settings.home), *command], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in "".join(line for line in lines if not line.startswith(" "))


def test_check_on_the_bundled_seeds_alone_passes_and_says_what_it_cannot_check(tmp_path, seeds):
    # Only rule pages, no English edition: nothing to check the translation against, no failure.
    assert run("ingest", str(seeds), home=tmp_path).exit_code == 0
    result = run("check", home=tmp_path)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Spanish rule 701.54: follows no loaded English edition" in text
    assert "unresolved" not in text
    report = json.loads(run("check", "--json", home=tmp_path).stdout)
    assert report["ok"] and report["counts"]["unresolved"] == 0 and report["unchecked"]

"""701.54 renumbered: an edition built from the real 2025 text as the 2023 numbering had it.

No two loaded editions show The Ring Tempts You under two numbers (2021 lacks it, 2025 and 2026
agree), so this module writes, in a temporary folder, the 2025-11-14 text without keyword actions
701.52 and 701.53: The Ring Tempts You becomes 701.52 and Time Travel 701.54, as in 2023, and
every reference follows. Diff, trace, rule lookup and term links must see through it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

OLD_DATE = "2023-06-09"


def construct_2023(source: Path, target: Path) -> Path:
    """Write the 2025 text with 701.52–701.53 removed and later 701 rules moved down by two."""
    text = source.read_bytes().decode("utf-8-sig")
    lines = text.split("\r\n")
    kept: list[str] = []
    skipping = False
    for line in lines:
        if re.match(r"^701\.5[23][a-z.]", line):
            skipping = True
            continue
        if skipping and (not line or line.startswith("Example:")):
            continue
        skipping = False
        kept.append(line)

    def renumber(match: re.Match[str]) -> str:
        n = int(match["n"])
        return f"701.{n - 2}{match['tail']}" if n >= 54 else match.group()

    result = re.sub(r"(?<![\d.])701\.(?P<n>\d+)(?P<tail>[a-z]?)(?!\d)", renumber, "\r\n".join(kept))
    result = result.replace("November 14, 2025", "June 9, 2023")
    path = target / "MagicCompRules_20230609.txt"
    path.write_bytes(("\ufeff" + result).encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def renumbered(tmp_path_factory, shared_corpus, cr_path):
    from kb.config import Settings
    from kb.pipeline import ingest

    folder = tmp_path_factory.mktemp("constructed")
    old = construct_2023(cr_path("2025-11-14"), folder)
    root = Path(__file__).resolve().parent.parent
    home = folder / "_kb"
    # SQLite of its own, also when the suite runs on PostgreSQL (the CLI gets --database)
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    settings = Settings(home=home, database_url=url, corpus=(root / "corpus",), base_dir=root)
    report = ingest(settings, [root / "corpus", old, cr_path("2025-11-14")])
    assert not report.failed, report.failed
    return settings


def test_the_constructed_edition_numbers_the_ring_701_52(renumbered) -> None:
    from kb.lookup import rule_view
    from kb.pipeline import open_db

    db = open_db(renumbered, create=False)
    with db.session() as s:
        old = rule_view(s, "701.52", "en", OLD_DATE)
        assert old["rules"][0]["english"]["title"] == "The Ring Tempts You"
        assert old["today"]["number"] == "701.54"
        assert rule_view(s, "701.54", "en", OLD_DATE)["rules"][0]["english"]["title"] == (
            "Time Travel"
        )
    db.dispose()


def test_diff_and_trace_follow_the_ring(renumbered) -> None:
    from kb.pipeline import open_db
    from kb.versions import diff_editions, trace

    db = open_db(renumbered, create=False)
    with db.session() as s:
        diff = diff_editions(s, OLD_DATE, "2025-11-14")
        ring = trace(s, "701.54")
        time_travel = trace(s, "701.54", OLD_DATE)
    db.dispose()
    moved = {(r["old_number"], r["new_number"]): r["title"] for r in diff["renumbered"]}
    assert moved[("701.52", "701.54")] == "The Ring Tempts You"
    assert moved[("701.54", "701.56")] == "Time Travel"
    assert ("701.52d", "701.54d") in moved
    assert {r["number"] for r in diff["added"]} >= {"701.52", "701.53"}
    assert not [r for r in diff["removed"] if r["number"].startswith("701.")]
    # 701.54d cites 701.54a: in the old text, 701.52a. A change of reference only.
    cites = next(c for c in diff["changed"] if c["new_number"] == "701.54d")
    assert cites["reference_only"]
    assert [(h["edition"], h["number"], h["status"]) for h in ring["history"]] == [
        (OLD_DATE, "701.52", "earliest"),
        ("2025-11-14", "701.54", "renumbered"),
    ]
    assert time_travel["number"] == "701.56"


def test_term_links_use_each_editions_number(renumbered) -> None:
    from sqlalchemy import select

    from kb.links import rules_for_clarification
    from kb.models import ClarificationText
    from kb.pipeline import open_db

    db = open_db(renumbered, create=False)
    with db.session() as s:
        clar_id = s.scalar(
            select(ClarificationText.clarification_id).where(
                ClarificationText.text.contains("Each time the Ring tempts you")
            )
        )
        then = {r["number"] for r in rules_for_clarification(s, clar_id, OLD_DATE)}
        now = {r["number"] for r in rules_for_clarification(s, clar_id, "2025-11-14")}
    db.dispose()
    assert "701.52" in then and "701.54" not in then
    assert "701.54" in now


def test_cli_trace_with_an_old_number(renumbered) -> None:
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "--home",
            str(renumbered.home),
            "--database",
            renumbered.database,
            "trace",
            "701.52",
            "--edition",
            OLD_DATE,
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    view = json.loads(result.output)
    assert view["number"] == "701.54" and view["asked"] == "701.52"
    assert view["history"][-1]["title"] == "The Ring Tempts You"

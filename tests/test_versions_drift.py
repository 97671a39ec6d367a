"""Translation drift: current, stale and missing translations as English editions come and go.

The knowledge base of this module grows as a translator's would: the 2021 rules with a Spanish
page for 701.32 (Vote, 701.38 today); then the 2025 rules with a Spanish page for 207.2; then
the 2026 rules, where 207.2c gained an ability word ("vivid") and a French page for 714.3 with
one paragraph too many. Pages that name no edition follow the newest one loaded at the time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

DATA = Path(__file__).parent / "data" / "links"


@pytest.fixture(scope="module")
def drifted(tmp_path_factory, shared_corpus, cr_path):
    from kb.config import Settings
    from kb.pipeline import ingest

    root = Path(__file__).resolve().parent.parent
    home = tmp_path_factory.mktemp("drift") / "_kb"
    # SQLite of its own, also when the suite runs on PostgreSQL (the CLI gets --database)
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    settings = Settings(home=home, database_url=url, corpus=(root / "corpus",), base_dir=root)
    for paths in (
        [cr_path("2021-02-05"), DATA / "es_701_32_votar.txt"],
        [cr_path("2025-11-14"), DATA / "es_207_2_texto.txt"],
        [cr_path("2026-01-16"), DATA / "fr_714_3_trop.txt"],
    ):
        report = ingest(settings, paths)
        assert not report.failed, report.failed
    return settings


def cli(settings, *args: str):
    """Run kb on this module's knowledge base."""
    return CliRunner().invoke(
        main, ["--home", str(settings.home), "--database", settings.database, *args]
    )


@pytest.fixture
def session(drifted):
    from kb.pipeline import open_db

    db = open_db(drifted, create=False)
    with db.session() as s:
        yield s
    db.dispose()


def test_status_per_rule(session) -> None:
    from kb.versions import translation_status

    status = translation_status(session, "es")
    # made for 701.32 of 2021: it translates 701.38 today, whose English has not changed
    assert status["701.38"] | {"text_id": None} == {
        "status": "current",
        "provenance": "official",
        "follows": "2021-02-05",
        "assumed": True,
        "text_id": None,
        "translated_number": "701.32",
    }
    assert status["701.38d"]["status"] == "current"
    assert status["207.2c"]["status"] == "stale" and status["207.2c"]["follows"] == "2025-11-14"
    assert [status[n]["status"] for n in ("207.2", "207.2a", "207.2b", "207.2d")] == ["current"] * 4
    assert status["701.54"] == {
        "status": "missing",
        "provenance": None,
        "follows": None,
        "assumed": False,
        "text_id": None,
        "translated_number": None,
    }
    order = list(status)  # document order: 207.2 < 207.2a < 701.9 < 701.10 < 701.38
    assert order.index("207.2") < order.index("207.2a") < order.index("701.9")
    assert order.index("701.9") < order.index("701.10") < order.index("701.38")
    # against the edition the page followed, it was current
    assert translation_status(session, "es", "2025-11-14")["207.2c"]["status"] == "current"
    # a page made for 2025 does not translate the 2021 text
    older = translation_status(session, "es", "2021-02-05")
    assert older["207.2c"]["status"] == "missing" and older["701.32"]["status"] == "current"


def test_preferred_translation_shows_under_todays_number(session) -> None:
    from kb.versions import preferred_translations

    chosen = preferred_translations(session, "es")
    vote = chosen["701.38"]
    assert vote["translated_number"] == "701.32" and vote["title"]
    assert chosen["701.32"]["status"] == "missing" and chosen["701.32"]["body"] == ""
    assert chosen["207.2c"]["status"] == "stale" and chosen["207.2c"]["body"]


def test_kb_rule_shows_the_chosen_translation(session) -> None:
    from kb.lookup import rule_view

    vote = rule_view(session, "701.38", "es")["rules"][0]["translation"]
    assert vote["translated_number"] == "701.32" and vote["status"] == "current"
    assert rule_view(session, "701.32", "es")["rules"][0]["translation"] is None
    changed = rule_view(session, "207.2c", "es")["rules"][0]["translation"]
    assert changed["status"] == "stale" and changed["follows_edition"] == "2025-11-14"


def test_kb_rule_without_the_orm_leaves_an_older_editions_translation_to_it(drifted) -> None:
    # Vote was translated as 701.32 of 2021: which rule it translates today takes an alignment
    # of the two editions, which only the ORM path computes (kb.lookup_sqlite steps aside).
    import json

    from kb import lookup_sqlite

    assert lookup_sqlite.answer(drifted.database, "rule", "701.38", "es", None) is None
    assert lookup_sqlite.answer(drifted.database, "rule", "701.38", "en", None) is not None
    shown = json.loads(cli(drifted, "rule", "701.38", "--lang", "es", "--json").stdout)
    assert shown["rules"][0]["translation"]["translated_number"] == "701.32"


def test_the_site_shows_the_chosen_translation(session) -> None:
    from kb.lookup import rule_view
    from kb.site.data import load

    nodes = load(session).nodes
    shown = rule_view(session, "701.38", "es")["rules"][0]["translation"]
    assert nodes["701.38"].translations["es"].title == shown["title"]
    assert "es" not in nodes["701.32"].translations


def test_which_translation_is_shown():
    import datetime as dt

    from kb.versions.drift import preference_key

    def item(provenance, status, date):
        return {
            "provenance": provenance,
            "status": status,
            "follows_date": dt.date.fromisoformat(date),
        }

    official_stale = item("official", "stale", "2025-11-14")
    community_current = item("community", "current", "2026-01-16")
    machine_current = item("machine", "current", "2026-01-16")
    official_current = item("official", "current", "2026-01-16")
    ranked = sorted(
        [machine_current, official_stale, community_current, official_current], key=preference_key
    )
    # human before machine; current before stale; official before community
    assert ranked == [official_current, community_current, official_stale, machine_current]


def test_stale_translations_show_the_english_change(session) -> None:
    from kb.versions import stale_translations

    stale = stale_translations(session, "es")
    assert [s["number"] for s in stale] == ["207.2c"]
    item = stale[0]
    assert item["follows"] == "2025-11-14" and item["edition"] == "2026-01-16"
    assert item["assumed"] is True
    assert "vivid" not in item["english_then"] and "vivid" in item["english_now"]
    assert [op for op in item["ops"] if op[0] != "equal"] == [["insert", "vivid, "]]
    assert stale_translations(session, "fr") == []


def test_drift_summary_and_stats(session, drifted) -> None:
    from kb.stats import stats_view
    from kb.versions import drift_summary

    summary = drift_summary(session)
    assert summary["es"] == {
        "translated": 10,
        "current": 9,
        "stale": 1,
        "missing": 3104,
        "machine": 0,
        "official": 10,
        "community": 0,
    }
    # 714.3c has no English rule: only 714.3, a and b count as translated
    assert summary["fr"]["translated"] == 3 and summary["fr"]["stale"] == 0
    assert stats_view(session)["languages"]["es"]["translations"] == summary["es"]
    shown = cli(drifted, "stats")
    assert "Translations" in shown.output and "Spanish" in shown.output
    as_json = cli(drifted, "stats", "--json")
    assert json.loads(as_json.output)["languages"]["es"]["translations"]["stale"] == 1


def test_cli_stale(drifted) -> None:
    result = cli(drifted, "stale", "--lang", "es")
    assert result.exit_code == 0, result.output
    assert "1 stale Spanish translations" in result.output
    assert "207.2c" in result.output and "{+vivid, +}" in result.output
    assert "follows 2025-11-14, assumed" in result.output
    as_json = cli(drifted, "stale", "--lang", "es", "--json")
    assert [s["number"] for s in json.loads(as_json.output)] == ["207.2c"]
    none = cli(drifted, "stale", "--lang", "fr")
    assert "no stale French translation" in none.output
    english = cli(drifted, "stale", "--lang", "en")
    assert english.exit_code == 2


def test_check_reports_a_page_that_does_not_fit(session, drifted) -> None:
    from kb.links import check

    report = check(session)
    assert report["translations"] == [
        {
            "language": "fr",
            "number": "714.3",
            "follows": "2026-01-16",
            "problem": "3 subrules translated, the English has 2: the letters given to the "
            "translated paragraphs are wrong",
        }
    ]
    result = cli(drifted, "check")
    assert result.exit_code == 1
    assert "French rule 714.3" in result.output


def test_translated_references_resolve_in_the_edition_followed(session) -> None:
    from sqlalchemy import select

    from kb.models import Edition, Link

    rows = session.execute(
        select(Link.target, Link.resolved, Edition.key)
        .join(Edition, Edition.id == Link.target_edition_id)
        .where(Link.source_language == "es", Link.kind == "explicit")
    ).all()
    assert [tuple(r) for r in rows] == [("701.32a", True, "en:2021-02-05")]

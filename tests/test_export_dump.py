"""kb export json / csv on the whole real corpus: schema-valid, complete, consistent, stable;
and the sheet's clarifications, which need the links."""

from __future__ import annotations

import csv
import io
import json

import jsonschema
import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from kb.cli import main
from kb.export.dump import schema
from kb.export.tables import TABLES
from kb.models import Card, Clarification, Edition, GlossaryEntry, Link, Rule, RuleText


def kb_args(settings) -> list[str]:
    """Point the CLI at a knowledge base (its PostgreSQL schema too, when testing on one)."""
    args = ["--home", str(settings.home)]
    return [*args, "--database", settings.database_url] if settings.database_url else args


@pytest.fixture(scope="module")
def linked(full_settings):
    """The full knowledge base with its links built (as `kb build` leaves it)."""
    from kb.links import build_links
    from kb.pipeline import open_db

    db = open_db(full_settings, create=False)
    try:
        with db.session() as session:
            if not session.scalar(select(func.count(Link.id))):
                build_links(session)
                session.commit()
    finally:
        db.dispose()
    return full_settings


@pytest.fixture(scope="module")
def dumped(linked):
    result = CliRunner().invoke(main, [*kb_args(linked), "export", "json"])
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


def test_json_validates_against_the_committed_schema(dumped):
    data = json.loads(dumped)
    jsonschema.Draft202012Validator.check_schema(schema())
    jsonschema.validate(data, schema())


def test_json_holds_every_row(dumped, linked):
    from kb.pipeline import open_db

    data = json.loads(dumped)
    db = open_db(linked, create=False)
    try:
        with db.session() as session:
            texts = session.scalar(select(func.count(RuleText.id)))
            rules = session.scalar(select(func.count(Rule.id)))
            glossary = session.scalar(select(func.count(GlossaryEntry.id)))
            cards = session.scalar(select(func.count(Card.id)))
            clarifications = session.scalar(select(func.count(Clarification.id)))
            links = session.scalar(
                select(func.count(Link.id)).where(Link.target_lineage_id.is_(None))
            )
            # A ruling's or card's term link is one row per lineage, listed in each edition.
            links += session.scalar(
                select(func.count(Link.id))
                .join(Rule, Rule.lineage_id == Link.target_lineage_id)
                .join(Edition, Edition.id == Rule.edition_id)
                .where(
                    Link.first_date <= Edition.effective_date,
                    Link.last_date >= Edition.effective_date,
                )
            )
    finally:
        db.dispose()
    nodes = [n for e in data["editions"] for r in e["rules"] for n in (r, *r.get("subrules", []))]
    assert len(nodes) == rules
    assert sum(len(n["texts"]) for n in nodes) == texts
    assert sum(len(e["glossary"]) for e in data["editions"]) == glossary
    assert len(data["cards"]) == cards and len(data["clarifications"]) == clarifications
    assert len(data["links"]) == links > 1000
    keys = [e["key"] for e in data["editions"]]
    assert keys[:3] == ["en:2021-02-05", "en:2025-11-14", "en:2026-01-16"]
    assert "es:translations" in keys
    newest = data["editions"][2]
    assert newest["source"] == "MagicCompRules_20260116.txt"
    ring = next(r for r in newest["rules"] if r["number"] == "701.54")
    assert ring["texts"][0]["title"] == "The Ring Tempts You"
    assert [s["number"] for s in ring["subrules"]] == [f"701.54{c}" for c in "abcde"]
    spanish = next(e for e in data["editions"] if e["key"] == "es:translations")
    (es_ring,) = spanish["rules"]
    assert es_ring["texts"][0]["title"] == "El Anillo te tienta"
    assert es_ring["texts"][0]["follows_edition"] == "2026-01-16"
    assert len(es_ring["subrules"]) == 5
    assert data["translation_status"]["es"]["current"] == ["701.54", *ring_subrules()]
    heist = next(c for c in data["cards"] if c["name"] == "The Trickster-God's Heist")
    assert heist["names"]["fr"]["name"] and heist["printings"][0]["set"] == "KHM"
    clar = {c["key"]: c for c in data["clarifications"]}
    assert all(heist["key"] in clar[k]["cards"] for k in heist["clarifications"])
    sources = {link["source"]["type"] for link in data["links"]}
    assert {"rule_text", "clarification_text"} <= sources


def ring_subrules() -> list[str]:
    return [f"701.54{c}" for c in "abcde"]


def test_json_is_deterministic_and_one_edition_can_be_chosen(dumped, linked):
    again = CliRunner().invoke(main, [*kb_args(linked), "export", "json"])
    assert again.stdout_bytes == dumped
    one = CliRunner().invoke(main, [*kb_args(linked), "export", "json", "--edition", "2025-11-14"])
    data = json.loads(one.stdout_bytes)
    jsonschema.validate(data, schema())
    assert [e["key"] for e in data["editions"]] == ["en:2025-11-14", "es:translations"]
    assert data["translation_status"] == {}  # judged against the newest edition, not dumped
    bad = CliRunner().invoke(main, [*kb_args(linked), "export", "json", "--edition", "1999-01-01"])
    assert bad.exit_code == 1 and "1999-01-01" in bad.output


def test_csv_tables_match_the_json(dumped, linked, tmp_path):
    data = json.loads(dumped)
    out = tmp_path / "csv"
    result = CliRunner().invoke(main, [*kb_args(linked), "export", "csv", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{t}.csv" for t in TABLES)
    tables = {}
    for name, columns in TABLES.items():
        with (out / f"{name}.csv").open(encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            assert tuple(reader.fieldnames or ()) == columns
            tables[name] = list(reader)
    nodes = [n for e in data["editions"] for r in e["rules"] for n in (r, *r.get("subrules", []))]
    assert len(tables["rules"]) == sum(len(n["texts"]) for n in nodes)
    assert len(tables["links"]) == len(data["links"])
    assert len(tables["cards"]) == len(data["cards"])
    assert len(tables["clarifications"]) == sum(len(c["texts"]) for c in data["clarifications"])
    row = next(r for r in tables["rules"] if r["edition"] == "es:translations")
    assert row["number"] == "701.54" and row["provenance"] == "official"
    assert row["follows_edition"] == "2026-01-16" and row["follows_assumed"] == "true"
    examples = [r for r in tables["examples"] if r["edition"] == "en:2026-01-16"]
    assert examples and examples[0]["position"] == "1"
    one = CliRunner().invoke(main, [*kb_args(linked), "export", "csv", "--table", "editions"])
    assert next(iter(csv.DictReader(io.StringIO(one.stdout))))["key"] == "en:2021-02-05"
    several = CliRunner().invoke(main, [*kb_args(linked), "export", "csv"])
    assert several.exit_code == 2 and "--out FOLDER" in several.output
    bad = CliRunner().invoke(main, [*kb_args(linked), "export", "csv", "--table", "x"])
    assert bad.exit_code == 2 and "unknown table x" in bad.output


def test_sheet_shows_the_clarifications_linked_to_its_rules(linked):
    from kb.export.html import render_html
    from kb.export.sheet import build_sheet
    from kb.links import clarifications_for_rule
    from kb.pipeline import open_db

    db = open_db(linked, create=False)
    try:
        with db.session() as session:
            sheet = build_sheet(session, ["701.54"], "en,fr")
            expected = {c["id"] for c in clarifications_for_rule(session, "701.54")}
    finally:
        db.dispose()
    assert expected and {c.id for c in sheet.clarifications} == expected
    for ruling in sheet.clarifications:
        assert ruling.rules and all(n.startswith("701.54") for n in ruling.rules)
        assert ruling.cells[0].text and ruling.cells[0].badges == ["official"]
    html = render_html(sheet)
    for ruling in sheet.clarifications:
        assert f'id="ruling-{ruling.id}"' in html
    assert any(card.names["en"] for r in sheet.clarifications for card in r.cards)

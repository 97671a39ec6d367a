"""Work in proportion to what changed: big pages stay linear, idle runs idle, relinks resume."""

from __future__ import annotations

import datetime as dt
import io
import logging
from pathlib import Path

import pytest
from sqlalchemy import event, select

from kb.config import Settings
from kb.db import derived_current, open_database
from kb.export.dump import write_json
from kb.ingest import ingest_paths
from kb.links import walk_state
from kb.models import LinkWalkState
from kb.pipeline import ingest, open_db, rebuild_links

DATA = Path(__file__).parent / "data"


def rulings_page(folder: Path, count: int) -> Path:
    """A French rulings page with ``count`` distinct rulings (a generated big page)."""
    folder.mkdir(parents=True)
    lines = ["Clarifications officielles de Wizards of the Coast."]
    for i in range(count):
        lines += [
            "05 février 2021 · source : wotc",
            f"Ruling {i} says that creature number {i * 7919 % 100003} gains flying.",
        ]
    path = folder / f"999_{count:06d}big.txt"
    path.write_text("\n".join([*lines, "CMC 4", ""]), encoding="utf-8")
    return path


def sqlite_work(tmp_path: Path, name: str, paths: list[Path]) -> int:
    """SQLite virtual-machine steps (thousands) that ingesting the paths costs: work, not time."""
    db = open_database(f"sqlite:///{tmp_path / name}.sqlite")
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    @event.listens_for(db.engine, "checkout")
    def _handler(dbapi_connection, _record, _proxy) -> None:  # type: ignore[no-untyped-def]
        dbapi_connection.set_progress_handler(count, 1000)

    db.engine.dispose()  # the schema's connection was checked out before the hook
    try:
        report = ingest_paths(db, paths)
    finally:
        db.dispose()
    assert len(report.loaded) == len(paths), report.failed
    return steps[0]


def test_a_big_rulings_page_costs_linear_work(tmp_path):
    """4× the rulings may cost about 4× the database work, not 16× (it was quadratic)."""
    small = sqlite_work(tmp_path, "small", [rulings_page(tmp_path / "s", 500)])
    big = sqlite_work(tmp_path, "big", [rulings_page(tmp_path / "b", 2000)])
    assert big < 6 * small, (small, big)


def test_an_idle_ingest_does_no_upkeep(settings, seeds):
    """Nothing changed since a finished run: no cleanup statement, no recognition, no relink."""
    ingest(settings, [seeds])
    db = open_db(settings)
    statements: list[str] = []

    @event.listens_for(db.engine, "before_cursor_execute")
    def _record(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    try:
        report = ingest_paths(db, [seeds])
    finally:
        db.dispose()
    assert not report.loaded and report.unchanged
    assert not [s for s in statements if s.lstrip().upper().startswith(("DELETE", "UPDATE"))]
    assert not [s for s in statements if "card_clarifications" in s]


def two_editions(folder: Path) -> list[Path]:
    """The sample edition and a later copy of it in which one rule reference changed."""
    folder.mkdir(parents=True, exist_ok=True)
    sample = (DATA / "comprules" / "sample.txt").read_text(encoding="utf-8")
    later = sample.replace("March 3, 2024", "March 3, 2025")
    assert later != sample
    (folder / "cr_2024.txt").write_text(sample, encoding="utf-8")
    (folder / "cr_2025.txt").write_text(later, encoding="utf-8")
    return [folder / "cr_2024.txt", folder / "cr_2025.txt"]


def dump(settings: Settings) -> str:
    """The whole knowledge base as ``kb export json`` writes it."""
    db = open_db(settings, create=False)
    out = io.StringIO()
    try:
        with db.session() as session:
            write_json(session, out)
    finally:
        db.dispose()
    return out.getvalue()


def links_table(settings: Settings) -> list[tuple]:
    """Every link row but its id, sorted: the dump groups links, this counts each one."""
    from sqlalchemy import select

    from kb.models import Link

    columns = [c for c in Link.__table__.c if c.name != "id"]
    db = open_db(settings, create=False)
    try:
        with db.session() as session:
            return sorted(tuple(row) for row in session.execute(select(*columns)))
    finally:
        db.dispose()


def read_links(settings: Settings) -> dict[str, list[tuple]]:
    """Per English edition, its links as readers get them (kb.links.view), ids left out."""
    import dataclasses

    from kb.links.view import edition_links
    from kb.versions import english_editions

    db = open_db(settings, create=False)
    try:
        with db.session() as session:
            return {
                edition.key: [
                    dataclasses.astuple(link)[1:] for link in edition_links(session, edition)
                ]
                for edition in english_editions(session)
            }
    finally:
        db.dispose()


def lineage_ids(settings: Settings) -> set[int]:
    """The ids of the lineage rows (kb.links.lineage_rows)."""
    from kb.models import Link

    db = open_db(settings, create=False)
    try:
        with db.session() as session:
            return set(session.scalars(select(Link.id).where(Link.target_lineage_id.is_not(None))))
    finally:
        db.dispose()


def cited_by_rulings(settings: Settings) -> set[str]:
    """The rule numbers that rulings cite explicitly (what the test's edits change)."""
    return {
        row[3]
        for row in links_table(settings)
        if row[0] == "clarification_text" and row[6] == "explicit"
    }


def test_a_relink_killed_half_way_resumes_to_the_same_dump(settings, seeds, tmp_path, monkeypatch):
    """Killed after the first edition's links committed: the rerun finishes the others only."""
    import kb.links.build as build

    ingest(settings, [seeds, DATA / "mtgjson" / "mini.json", *two_editions(tmp_path / "cr")])
    whole = dump(settings)
    rows = links_table(settings)
    assert '"links"' in whole
    db = open_db(settings)
    real = build._term_links
    calls: list[str] = []

    def dies_on_the_second(session, edition, *rest):  # type: ignore[no-untyped-def]
        calls.append(edition.key)
        if len(calls) == 2:
            raise KeyboardInterrupt  # what a kill looks like to the transaction
        return real(session, edition, *rest)

    monkeypatch.setattr(build, "_term_links", dies_on_the_second)
    try:
        with pytest.raises(KeyboardInterrupt):
            rebuild_links(db)
        with db.session() as session:
            assert not derived_current(session, "links")
        calls.clear()
        monkeypatch.setattr(build, "_term_links", lambda *a: calls.append(a[1].key) or real(*a))
        rebuild_links(db)
        # The first edition's rows were done before the kill and stay; its term matches are
        # walked again (not written) for the lineage rows, which are written once at the end.
        assert calls == ["en:2024-03-03", "en:2025-03-03"]
        with db.session() as session:
            assert derived_current(session, "links")
    finally:
        db.dispose()
    assert dump(settings) == whole
    assert links_table(settings) == rows
    report = ingest(settings, [seeds])  # links in step: nothing to do
    assert not report.changed


def _kept_walk(settings) -> dt.date | None:
    """The edition the stored link walk's state was made in (kb.links.walk_state)."""
    db = open_db(settings)
    try:
        with db.session() as session:
            return session.scalar(
                select(LinkWalkState.edition_date).where(LinkWalkState.name == walk_state.NAME)
            )
    finally:
        db.dispose()


def test_adding_an_edition_links_only_it_and_matches_a_full_rebuild(
    settings, seeds, tmp_path, monkeypatch, caplog
):
    """The incremental relink of a new edition gives the dump a full relink gives, byte for byte."""
    import kb.links.build as build
    import kb.links.lineage_rows as lineage_rows

    first, second = two_editions(tmp_path / "cr")
    ingest(settings, [seeds, DATA / "mtgjson" / "mini.json", first])
    before = lineage_ids(settings)
    real = build._term_links
    linked: list[str] = []
    monkeypatch.setattr(build, "_term_links", lambda *a: linked.append(a[1].key) or real(*a))
    inserted: list[int] = []
    real_insert = lineage_rows.insert_many
    monkeypatch.setattr(
        lineage_rows,
        "insert_many",
        lambda session, model, rows: (
            inserted.append(len(rows)) or real_insert(session, model, rows)
        ),
    )
    with caplog.at_level(logging.INFO, logger="kb.links.walk_state"):
        ingest(settings, [second])
    # The lineage rows that carry on into the new edition were updated, not written again.
    assert before and before <= lineage_ids(settings)
    assert sum(inserted) < 0.1 * len(before)
    read = read_links(settings)
    assert any(len(links) for links in read.values())
    assert linked == ["en:2025-03-03"]  # the 2024 edition's links were left alone
    # The first ingest kept its walk's state; the new edition stepped from it, and kept its own.
    assert "took up the link walk's state" in caplog.text
    assert _kept_walk(settings) == dt.date(2025, 3, 3)
    incremental = dump(settings)
    rows = links_table(settings)
    db = open_db(settings)
    try:
        rebuild_links(db)
        with db.session() as session:
            assert derived_current(session, "links")
    finally:
        db.dispose()
    assert linked == ["en:2025-03-03", "en:2024-03-03", "en:2025-03-03"]  # then all, in order
    assert dump(settings) == incremental
    assert links_table(settings) == rows
    assert read_links(settings) == read  # in the same order too


def test_replacing_an_older_edition_relinks_it_and_the_newest_only(settings, seeds, tmp_path):
    """A changed edition file: its links and the newest edition's, the same as a full relink."""
    first, second = two_editions(tmp_path / "cr")
    ingest(settings, [seeds, DATA / "mtgjson" / "mini.json", first, second])
    text = first.read_text(encoding="utf-8")
    duel = "A game with two players is a “duel.”"
    changed = text.replace(duel, duel + " See rule 100.2.", 1)
    assert changed != text
    first.write_text(changed, encoding="utf-8")
    report = ingest(settings, [first])
    assert len(report.loaded) == 1
    incremental = dump(settings)
    rows = links_table(settings)
    assert incremental.count('"matched": "rule 100.2"') == 3  # twice in 2024, once in 2025
    db = open_db(settings)
    try:
        rebuild_links(db)
    finally:
        db.dispose()
    assert dump(settings) == incremental
    assert links_table(settings) == rows


def test_a_changed_set_file_relinks_its_texts_only_and_matches_a_full_rebuild(
    settings, seeds, tmp_path, monkeypatch
):
    """A card text and a ruling edited, a ruling dropped: same dump as a full relink."""
    import json

    import kb.links.build as build

    sets = tmp_path / "sets"
    sets.mkdir()
    mini = sets / "mini.json"
    data = json.loads((DATA / "mtgjson" / "mini.json").read_text(encoding="utf-8"))
    cards = data["data"]["cards"]
    cards[0]["rulings"][0]["text"] += " See rule 100.1b."
    mini.write_text(json.dumps(data), encoding="utf-8")
    first, second = two_editions(tmp_path / "cr")
    ingest(settings, [seeds, first, second, mini])
    assert cited_by_rulings(settings) == {"100.1b"}
    cards[0]["text"] += "\nVigilance"
    ruling = cards[0]["rulings"][0]
    ruling["text"] = ruling["text"].replace("See rule 100.1b.", "See rule 100.2.")
    cards[1]["rulings"] = []
    mini.write_text(json.dumps(data), encoding="utf-8")
    real = build._term_links
    matched: list[int] = []
    monkeypatch.setattr(build, "_term_links", lambda *a: matched.append(len(a[3])) or real(*a))
    report = ingest(settings, [mini])
    assert report.loaded and len(matched) == 2  # each edition once
    incremental = dump(settings)
    rows = links_table(settings)
    assert cited_by_rulings(settings) == {"100.2"}
    touched = matched[:]
    matched.clear()
    db = open_db(settings)
    try:
        rebuild_links(db)
    finally:
        db.dispose()
    assert max(touched) < min(matched)  # the untouched rulings page's texts were left alone
    assert dump(settings) == incremental
    assert links_table(settings) == rows

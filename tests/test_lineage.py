"""Rule lineages: stored when editions load, across the real renumberings, in any load order."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest
from sqlalchemy import func, select

from kb.db import open_database
from kb.ingest import document_key, forget_documents, ingest_paths
from kb.models import Edition, Lineage, Rule
from kb.versions.lineage import lineage_of, numbers_of

FULL_CORPUS = Path(
    os.environ.get("KB_FULL_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus-full")
)


def load(url: str, paths: list[Path]):  # type: ignore[no-untyped-def]
    """A database with these files ingested (no links: lineages are the ingest's own upkeep)."""
    db = open_database(url)
    report = ingest_paths(db, paths)
    assert not report.failed, report.failed
    return db


def edition(session, key: str) -> Edition:  # type: ignore[no-untyped-def]
    return session.scalar(select(Edition).where(Edition.key == key))


def partition(db) -> set[frozenset[tuple[str, str]]]:  # type: ignore[no-untyped-def]
    """The lineages as sets of (edition, number): comparable between databases."""
    groups: dict[int, set[tuple[str, str]]] = defaultdict(set)
    with db.session() as session:
        for key, number, lineage in session.execute(
            select(Edition.key, Rule.number, Rule.lineage_id).join(
                Edition, Edition.id == Rule.edition_id
            )
        ):
            assert lineage is not None, (key, number)
            groups[lineage].add((key, number))
    return {frozenset(group) for group in groups.values()}


def test_lineages_follow_the_real_renumberings(settings, cr_path):
    db = load(settings.database, [cr_path("2021-02-05"), cr_path("2026-01-16")])
    try:
        with db.session() as session:
            old, new = edition(session, "en:2021-02-05"), edition(session, "en:2026-01-16")
            vote = lineage_of(session, old, "701.32")
            assert numbers_of(session, vote) == {
                "en:2021-02-05": "701.32",
                "en:2026-01-16": "701.38",
            }
            assert lineage_of(session, new, "701.32") != vote  # 701.32 is another rule today
            merging = lineage_of(session, new, "729")  # "Merging with Permanents"
            assert numbers_of(session, merging)["en:2021-02-05"] == "721"
            # One lineage per rule of an edition; every lineage held by some rule.
            for ed in (old, new):
                rules, distinct = session.execute(
                    select(func.count(Rule.id), func.count(func.distinct(Rule.lineage_id))).where(
                        Rule.edition_id == ed.id
                    )
                ).one()
                assert rules == distinct
            held = session.scalar(select(func.count(func.distinct(Rule.lineage_id))))
            assert session.scalar(select(func.count(Lineage.id))) == held
    finally:
        db.dispose()


def test_an_edition_loaded_in_between_or_removed_gives_the_lineages_of_a_fresh_load(
    settings, cr_path, fresh_database_url
):
    editions = [cr_path("2021-02-05"), cr_path("2025-11-14"), cr_path("2026-01-16")]
    stepwise = load(settings.database, [editions[0], editions[2]])
    ends_only = partition(stepwise)
    at_once = load(fresh_database_url("at_once"), editions)
    try:
        assert ingest_paths(stepwise, [editions[1]]).loaded  # comes between the two
        assert partition(stepwise) == partition(at_once)
        assert partition(stepwise) != ends_only
        forget_documents(stepwise, [document_key(editions[1])])
        assert partition(stepwise) == ends_only
    finally:
        stepwise.dispose()
        at_once.dispose()


def test_chapter_725_merging_of_2022_is_729_today(settings, cr_path, tmp_path):
    """Corpus-full's 2022-10-07 edition (Latin-1 bytes: read here as such, in a UTF-8 copy)."""
    source = FULL_CORPUS / "cr" / "en" / "MagicCompRules_20221007.txt"
    if not source.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"the full corpus is missing at {FULL_CORPUS}")
        pytest.skip(f"the full corpus is missing at {FULL_CORPUS}")
    old = tmp_path / source.name
    old.write_text(source.read_bytes().decode("cp1252"), encoding="utf-8")
    db = load(settings.database, [old, cr_path("2026-01-16")])
    try:
        with db.session() as session:
            merging = lineage_of(session, edition(session, "en:2022-10-07"), "725")
            assert numbers_of(session, merging) == {"en:2022-10-07": "725", "en:2026-01-16": "729"}
    finally:
        db.dispose()

"""Term links from rulings and card texts: a row per rule lineage, numbered per edition on read."""

from __future__ import annotations

import datetime as dt

from alembic import command
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kb.db import make_engine, open_database
from kb.ingest import ingest_paths
from kb.links import (
    backlinks,
    build_links,
    clarifications_for_rule,
    edition_links,
    linked_numbers,
    rules_for_clarification,
)
from kb.links.lineage_rows import LineageLinks
from kb.migrations import alembic_config
from kb.models import ClarificationText, Edition, Link
from kb.versions.lineage import lineage_of

BALLOT_BROKER = "Ballot Broker’s ability is cumulative."  # CN2: "you can vote up to three times"
TERM_SOURCES = ("clarification_text", "card_text")


def _edition(session, key: str) -> Edition:  # type: ignore[no-untyped-def]
    return session.scalar(select(Edition).where(Edition.key == key))


def _rows(session) -> list[tuple]:  # type: ignore[no-untyped-def]
    """Every link row by content (ids aside): comparable across a migration round trip."""
    columns = [c for c in Link.__table__.c if c.name != "id"]
    return sorted(tuple(row) for row in session.execute(select(*columns)).all())


def test_a_voting_ruling_links_to_vote_once_numbered_as_each_edition_numbers_it(full_db):
    with full_db.session() as session:
        text = session.scalar(
            select(ClarificationText).where(ClarificationText.text.startswith(BALLOT_BROKER))
        )
        old, new = _edition(session, "en:2021-02-05"), _edition(session, "en:2026-01-16")
        vote = lineage_of(session, old, "701.32")
        assert vote == lineage_of(session, new, "701.38")
        rows = session.scalars(
            select(Link).where(Link.source_type == "clarification_text", Link.source_id == text.id)
        ).all()
        to_vote = [r for r in rows if r.target_lineage_id == vote]
        # One row for the three editions of the shared corpus, not one per edition.
        assert [(r.matched, r.target_edition_id, r.first_date, r.last_date) for r in to_vote] == [
            ("vote", None, dt.date(2021, 2, 5), dt.date(2026, 1, 16))
        ]
        assert all(r.target_lineage_id is not None for r in rows if r.kind == "term")
        # Read in an edition, it is that edition's number.
        in_2021 = {
            r["number"]
            for r in rules_for_clarification(session, text.clarification_id, "2021-02-05")
        }
        in_2026 = {
            r["number"]
            for r in rules_for_clarification(session, text.clarification_id, "2026-01-16")
        }
        assert "701.32" in in_2021 and "701.38" not in in_2021
        assert "701.38" in in_2026 and "701.32" not in in_2026
        ruled = {c["id"] for c in clarifications_for_rule(session, "701.32", "2021-02-05")}
        assert text.clarification_id in ruled
        ruled = {c["id"] for c in clarifications_for_rule(session, "701.38", "2026-01-16")}
        assert text.clarification_id in ruled
        ruled = {c["id"] for c in clarifications_for_rule(session, "701.32", "2026-01-16")}
        assert text.clarification_id not in ruled  # 701.32 is another rule today
        cited = backlinks(session, "701.38", "2026-01-16")
        assert any(
            b["source_type"] == "clarification_text" and b["source_id"] == text.id for b in cited
        )
        assert "701.38" in linked_numbers(session, new.id, ["clarification_text"])


def test_term_links_of_rulings_and_cards_are_stored_per_lineage_not_per_edition(full_db):
    with full_db.session() as session:
        editions = list(
            session.scalars(
                select(Edition).where(Edition.kind == "comprules", Edition.language == "en")
            )
        )
        per_edition = session.scalar(
            select(func.count(Link.id)).where(
                Link.source_type.in_(TERM_SOURCES),
                Link.kind == "term",
                Link.target_edition_id.is_not(None),
                Link.resolved.is_(True),
            )
        )
        stored = session.scalar(
            select(func.count(Link.id)).where(Link.target_lineage_id.is_not(None))
        )
        read = sum(
            len(edition_links(session, edition, source_types=TERM_SOURCES, resolved=True))
            for edition in editions
        )
        assert len(editions) == 3
        assert per_edition == 0  # every resolved one names a rule with a lineage
        # Most texts match the same rules in every edition: one row stands for several.
        assert stored * 2 < read


def test_lineage_rows_split_where_an_edition_did_not_match():
    class Source:
        source_type, source_id, language = "card_text", 7, "en"

    class Ed:
        def __init__(self, i: int) -> None:
            self.id, self.effective_date = i, dt.date(2020 + i, 1, 1)

    found = LineageLinks([Ed(i) for i in range(5)])
    for order, number in [(0, "701.32"), (1, "701.33"), (3, "701.38"), (4, "701.38")]:
        found.add(order, Source(), 9, number, "vote", 0, 4)
    assert [(r["first_date"].year, r["last_date"].year, r["target"]) for r in found.rows()] == [
        (2020, 2021, "701.33"),
        (2023, 2024, "701.38"),
    ]


def test_migration_0008_collapses_per_edition_rows_in_place(settings, cr_path, shared_corpus):
    """Down to 0007 (a row per edition, as the kb before made them) and up again: same rows."""
    paths = [cr_path("2021-02-05"), cr_path("2026-01-16"), shared_corpus / "mtgjson" / "CN2.json"]
    db = open_database(settings.database)
    try:
        assert not ingest_paths(db, paths).failed
        with db.session() as session:
            build_links(session)
            session.commit()
            before = _rows(session)
        lineage = [c.name for c in Link.__table__.c if c.name != "id"].index("target_lineage_id")
        assert any(row[lineage] is not None for row in before)
    finally:
        db.dispose()
    engine = make_engine(settings.database)
    try:
        with engine.connect() as conn:
            command.downgrade(alembic_config(conn), "0007")
            conn.commit()
            expanded = conn.exec_driver_sql(
                "SELECT count(*) FROM links WHERE source_type = 'clarification_text' "
                "AND kind = 'term'"
            ).scalar()
            command.upgrade(alembic_config(conn), "head")
            conn.commit()
        with Session(engine) as session:
            after = _rows(session)
            collapsed = session.scalar(
                select(func.count(Link.id)).where(
                    Link.source_type == "clarification_text", Link.kind == "term"
                )
            )
        assert after == before
        assert collapsed * 3 // 2 < expanded  # two editions: most rows were one per edition
    finally:
        engine.dispose()


def test_many_sources_read_the_same_links_as_the_join_does(full_db):
    """The whole edition or a long list of sources (lineage rows numbered by the edition's rules
    read once) reads what the join by SQL reads (asked with the same sources as a SELECT)."""
    from kb.links import view

    with full_db.session() as session:
        editions = list(
            session.scalars(
                select(Edition).where(Edition.kind == "comprules", Edition.language == "en")
            )
        )
        texts = list(session.scalars(select(ClarificationText.id).order_by(ClarificationText.id)))
        assert len(texts) > view.MANY  # the real corpus: numbered by the edition's rules
        for edition in editions:
            whole = edition_links(session, edition, source_types=TERM_SOURCES)
            joined = edition_links(
                session, edition, source_types=TERM_SOURCES, source_ids=select(Link.source_id)
            )
            assert whole == joined
            assert sum(link.target_rule_id is not None for link in whole) > 100
            listed = edition_links(
                session, edition, source_types=["clarification_text"], source_ids=texts
            )
            joined = edition_links(
                session,
                edition,
                source_types=["clarification_text"],
                source_ids=select(ClarificationText.id),
            )
            assert listed == joined and listed

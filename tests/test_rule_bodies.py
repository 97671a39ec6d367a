"""Identical rule texts are stored once (rule_bodies); migration 0007 moves old rows in place."""

from __future__ import annotations

import hashlib

from alembic import command
from sqlalchemy import func, select, text

from kb.bodies import counts, digest
from kb.db import make_engine, schema_differences, upgrade_schema
from kb.ingest import document_key, forget_documents
from kb.migrations import alembic_config
from kb.models import Edition, Rule, RuleBody, RuleText
from kb.pipeline import ingest, open_db


def test_real_editions_store_each_body_once(full_db) -> None:
    """Three real editions and the seed pages: many rule texts, far fewer stored bodies."""
    with full_db.session() as session:
        rows, distinct = counts(session)
        stored = session.scalar(select(func.count()).select_from(RuleBody))
        english = session.scalar(
            select(func.count()).select_from(RuleText).where(RuleText.language == "en")
        )
        keys = session.execute(select(RuleBody.sha256, RuleBody.text)).all()
    assert english > 8000 and rows >= english
    assert stored == distinct  # no orphan, no duplicate
    # Three editions of 2021-2026: most lines are unchanged from one edition to the next.
    assert distinct < rows * 0.6, (rows, distinct)
    assert all(key == hashlib.sha256(body.encode()).hexdigest() for key, body in keys)
    assert len({body for _key, body in keys}) == stored


def test_rule_body_reads_like_a_column(full_db) -> None:
    """701.38a (Vote) is unchanged from 2025-11-14 to 2026-01-16: one body, read as a column."""
    with full_db.session() as session:
        rows = session.execute(
            select(RuleText.body, RuleText.body_id)
            .join(RuleText.rule)
            .join(Edition, Edition.id == Rule.edition_id)
            .where(
                RuleText.language == "en",
                Rule.number == "701.38a",
                Edition.key.in_(["en:2025-11-14", "en:2026-01-16"]),
            )
        ).all()
        found = session.scalar(select(RuleText).where(RuleText.body == rows[0][0]).limit(1))
    assert len(rows) == 2 and len({body_id for _body, body_id in rows}) == 1
    assert "To vote, each player" in rows[0][0]
    assert found is not None and found.body == rows[0][0]


def test_forgotten_edition_leaves_no_unused_body(settings, cr_path) -> None:
    ingest(settings, [cr_path("2025-11-14"), cr_path("2026-01-16")])
    db = open_db(settings)
    try:
        with db.session() as session:
            both = counts(session)
        assert forget_documents(db, [document_key(cr_path("2025-11-14"))])
        with db.session() as session:
            rows, distinct = counts(session)
            stored = session.scalar(select(func.count()).select_from(RuleBody))
    finally:
        db.dispose()
    assert rows < both[0] and distinct <= both[1]
    assert stored == distinct


def test_upgrade_from_0006_moves_bodies_in_place(settings) -> None:
    """A database of today's kb (revision 0006) with rule texts keeps every row and body."""
    engine = make_engine(settings.database)
    bodies = ["Some spells call for a vote.", "", "Some spells call for a vote.", "Élan — ✓"]
    try:
        with engine.connect() as conn:
            command.upgrade(alembic_config(conn), "0006")
            conn.execute(
                text(
                    "INSERT INTO editions (id, key, kind, language) "
                    "VALUES (1, 'en:2021-02-05', 'comprules', 'en')"
                )
            )
            for number, body in enumerate(bodies, 1):
                conn.execute(
                    text(
                        "INSERT INTO rules (id, edition_id, number, kind, sort_key) "
                        "VALUES (:id, 1, :number, 'rule', :number)"
                    ),
                    {"id": number, "number": f"701.{number}"},
                )
                conn.execute(
                    text(
                        "INSERT INTO rule_texts (id, rule_id, language, title, body, provenance,"
                        " follows_assumed, follows_newer, line) "
                        "VALUES (:id, :id, 'en', '', :body, 'official', false, false, :id)"
                    ),
                    {"id": number, "body": body},
                )
            conn.execute(
                text(
                    "INSERT INTO examples (rule_text_id, position, text) "
                    "VALUES (1, 0, 'Example kept.')"
                )
            )
            conn.commit()
        assert upgrade_schema(engine)[0] == "0006"
        with engine.connect() as conn:
            assert schema_differences(conn) == []
            rows = conn.execute(
                text(
                    "SELECT rule_texts.id, rule_bodies.text, rule_bodies.sha256 FROM rule_texts "
                    "JOIN rule_bodies ON rule_bodies.id = rule_texts.body_id ORDER BY rule_texts.id"
                )
            ).all()
            stored = conn.scalar(text("SELECT count(*) FROM rule_bodies"))
            examples = conn.scalar(text("SELECT count(*) FROM examples"))
    finally:
        engine.dispose()
    assert [(i, body) for i, body, _key in rows] == list(enumerate(bodies, 1))
    assert all(key == digest(body) for _i, body, key in rows)
    assert stored == 3 and examples == 1

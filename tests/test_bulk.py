"""Bulk inserts (kb.bulk): the rows stored as SQLAlchemy stores them, the ids the database gives."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import event, func, insert, select

from kb.bulk import insert_many, insert_returning_ids, update_many
from kb.models import Card, CardLocalization, Clarification
from kb.pipeline import open_db


def _card(key: str, **values: Any) -> dict[str, Any]:
    row = {
        "key": key,
        "oracle_id": key,
        "name": "Æther Vial",
        "folded_name": "aether vial",
        "mana_value": 1.0,
        "layout": "normal",
        "faces": [],
        "keywords": ["Flying"],
        "mana_cost": None,
        "face_details": None,  # SQLAlchemy stores JSON null, not SQL NULL
        "legalities": {"modern": "Legal"},
    }
    return {**row, **values}


def _stored(session: Any, table: str, skip: int) -> list[tuple[Any, ...]]:
    """The rows as the database holds them (not as the ORM reads them), ``skip`` columns off."""
    rows = session.connection().exec_driver_sql(f"SELECT * FROM {table} ORDER BY id")
    return [tuple(row)[skip:] for row in rows]


def test_rows_are_stored_as_sqlalchemy_stores_them(settings):
    """JSON, floats, dates, booleans, NULLs and defaults (plain or computed) come out the same."""
    db = open_db(settings)
    cards = [
        _card("a"),
        _card("b", faces=["Up", "Down"], face_details=[{"name": "Up"}], mana_cost="{1}"),
        _card("c", mana_value=None, legalities=None, layout=None, keywords=[]),
    ]
    with db.session() as session, session.begin():
        insert_many(session, Card, cards)
        twins = [{**c, "key": c["key"] * 2, "oracle_id": c["key"] * 2} for c in cards]
        session.execute(insert(Card.__table__), twins)
        stored = _stored(session, "cards", 3)  # not the id, the key and the oracle id
        assert stored[:3] == stored[3:]
        ids = session.scalars(select(Card.id).order_by(Card.id)).all()
        # No folded name, type line, text nor provenance: the models' defaults fill them in.
        names = [
            {"card_id": card_id, "language": "fr", "name": f"Fiole d'éther {i}"}
            for i, card_id in enumerate(ids[:3])
        ]
        insert_many(session, CardLocalization, names)
        moved = [{**row, "card_id": card_id} for row, card_id in zip(names, ids[3:], strict=True)]
        session.execute(insert(CardLocalization.__table__), moved)
        stored = _stored(session, "card_localizations", 2)  # not the id and the card
        assert stored[:3] == stored[3:]
        # language, name, type line, text, provenance, folded name (added by migration 0009)
        assert stored[0] == ("fr", "Fiole d'éther 0", "", "", "official", "fiole d'ether 0")
        # Dates repeat (each distinct one is formatted once, kb.bulk._once_per_value).
        rulings = [
            {"key": f"k{i}", "date": dt.date(2024, 1, i % 2 + 1), "source": "wotc"}
            for i in range(4)
        ]
        insert_many(session, Clarification, rulings)
        session.execute(
            insert(Clarification.__table__), [{**r, "key": r["key"] + "'"} for r in rulings]
        )
        stored = _stored(session, "clarifications", 2)
        assert stored[:4] == stored[4:]
        assert stored[0] == stored[2] != stored[1]


def test_new_ids_are_the_rows_ids_and_the_database_goes_on_after_them(settings):
    db = open_db(settings)
    with db.session() as session, session.begin():
        first = insert_returning_ids(session, Card, [_card("a"), _card("b"), _card("c")])
        session.flush()
        session.execute(Card.__table__.delete().where(Card.__table__.c.key == "c"))
        more = insert_returning_ids(session, Card, [_card("d"), _card("e")])
        stored = dict(session.execute(select(Card.key, Card.id)).all())
        assert [stored[k] for k in "abde"] == first[:2] + more
        assert first == sorted(first) and more == sorted(more) and more[0] > first[1]
        session.add(Card(key="f", name="f"))
        session.flush()
        assert session.scalar(select(Card.id).where(Card.key == "f")) == more[-1] + 1


def test_new_ids_on_sqlite_are_not_read_back(settings):
    """SQLite's next id is known (largest plus one): no RETURNING round trip per batch."""
    db = open_db(settings)
    statements: list[str] = []
    event.listen(db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    with db.session() as session, session.begin():
        ids = insert_returning_ids(session, Card, [_card(str(i)) for i in range(3)])
    assert len(ids) == 3
    returning = [s for s in statements if "RETURNING" in s.upper()]
    if db.engine.dialect.name == "sqlite":
        assert returning == []
    else:
        assert returning


def test_rows_updated_by_id_hold_what_an_orm_update_would_store(settings):
    """Dates and texts set by id, as the database would store them, in one statement a batch."""
    db = open_db(settings)
    rulings = [{"key": f"k{i}", "date": dt.date(2024, 1, 1), "source": "wotc"} for i in range(2500)]
    statements: list[str] = []
    with db.session() as session, session.begin():
        ids = insert_returning_ids(session, Clarification, rulings)
        session.flush()
        changes = [(row_id, dt.date(2025, 2, i % 3 + 1), f"s{i}") for i, row_id in enumerate(ids)]
        event.listen(
            session.get_bind(), "before_cursor_execute", lambda *a: statements.append(a[2])
        )
        update_many(session, Clarification, ("date", "source"), changes[::2])
        stored = session.execute(
            select(Clarification.id, Clarification.date, Clarification.source).order_by(
                Clarification.id
            )
        ).all()
    assert [tuple(row) for row in stored[::2]] == changes[::2]
    assert {tuple(row[1:]) for row in stored[1::2]} == {(dt.date(2024, 1, 1), "wotc")}
    updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE")]
    assert 1 <= len(updates) <= 2  # not one per row


def test_many_rows_go_in_a_few_statements(settings):
    """Bulk, not one INSERT per row (psycopg's own executemany) on either backend."""
    db = open_db(settings)
    statements: list[str] = []
    rulings = [{"key": f"k{i}", "date": dt.date(2024, 1, 1), "source": "wotc"} for i in range(3000)]
    with db.session() as session, session.begin():
        event.listen(
            session.get_bind(), "before_cursor_execute", lambda *a: statements.append(a[2])
        )
        insert_many(session, Clarification, rulings)
        assert session.scalar(select(func.count()).select_from(Clarification)) == 3000
    inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT")]
    assert 1 <= len(inserts) <= 10

"""Schema through Alembic: created at head, upgraded in place, old databases adopted, never dropped.

Every test runs on SQLite, and on PostgreSQL too when KB_DATABASE_URL is set (conftest gives
each test a schema of its own).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from click.testing import CliRunner
from sqlalchemy import func, inspect, select, text

from kb.cli import main
from kb.db import make_engine, open_database, schema_differences, schema_state, upgrade_schema
from kb.errors import DatabaseError
from kb.langs import fold
from kb.migrations import HERE, alembic_config, head_revision
from kb.models import Base, Card, Document
from kb.pipeline import ingest


def run(settings, *args: str):
    return CliRunner().invoke(main, ["--home", str(settings.home), *args])


@pytest.fixture
def engine(settings):
    engine = make_engine(settings.database)
    yield engine
    engine.dispose()


def test_models_and_migrations_agree(engine):
    """A change to kb/models.py cannot land without the migration that makes it."""
    upgrade_schema(engine)
    with engine.connect() as conn:
        differences = schema_differences(conn)
    assert differences == [], (
        "kb/models.py and kb/migrations disagree; add a revision with "
        '`python -m kb.migrations revision -m "what changed"` and read it: '
        + "; ".join(differences)
    )


def test_revisions_form_one_line():
    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_heads() == [head_revision()]
    revisions = list(script.walk_revisions())
    assert revisions[-1].down_revision is None
    for rev in revisions:
        assert Path(rev.path).name.startswith(f"{rev.revision}_"), rev.path
    names = sorted(p.name for p in (HERE / "versions").glob("[0-9]*.py"))
    assert len(names) == len(revisions)


def test_new_database_is_created_at_head(engine):
    assert schema_state(engine).status == "empty"
    before, after = upgrade_schema(engine)
    assert (before, after) == (None, head_revision())
    state = schema_state(engine)
    assert state.status == "current" and state.current == head_revision()
    assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())


def test_upgrade_is_idempotent_and_keeps_every_row(settings, seeds, engine):
    ingest(settings, [seeds])
    with engine.connect() as conn:
        cards = conn.scalar(select(func.count()).select_from(Card))
    assert cards
    assert upgrade_schema(engine) == (head_revision(), head_revision())
    result = run(settings, "db", "upgrade")
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output
    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(Card)) == cards


# The tables kb made with create_all before it had migrations (revision 0001).
LEGACY_TABLES = (
    "documents editions rules rule_texts examples glossary_entries cards card_localizations "
    "printings clarifications clarification_texts card_clarifications rulings_pages "
    "rule_references links"
).split()


def _legacy(engine, tables: list[str] | None = None) -> None:
    """A database as kb made it before migrations: create_all, no alembic_version."""
    chosen = [Base.metadata.tables[name] for name in tables or LEGACY_TABLES]
    if "rules" in (tables or LEGACY_TABLES):
        chosen.append(Base.metadata.tables["lineages"])
    if "rule_texts" in (tables or LEGACY_TABLES):
        chosen.append(Base.metadata.tables["rule_bodies"])
    Base.metadata.create_all(engine, tables=chosen)
    with engine.begin() as conn:
        conn.execute(
            Document.__table__.insert().values(
                path="/old/kb/page.txt", sha256="0" * 64, status="loaded", size=1
            )
        )


def test_legacy_database_is_adopted_in_place(settings, engine):
    _legacy(engine)
    assert schema_state(engine).status == "legacy"
    current = run(settings, "db", "current", "--json")
    assert json.loads(current.output)["status"] == "legacy"
    refused = run(settings, "stats")
    assert refused.exit_code == 1
    assert "made by an older kb" in refused.output and "kb db upgrade" in refused.output

    result = run(settings, "db", "upgrade")
    assert result.exit_code == 0, result.output
    assert f"from nothing to {head_revision()}" in result.output
    assert schema_state(engine).status == "current"
    with engine.connect() as conn:
        assert conn.scalar(select(Document.path)) == "/old/kb/page.txt"
        assert schema_differences(conn) == []


def test_half_created_legacy_database_gets_its_missing_tables(engine):
    """A first run killed while creating tables left some: adoption creates the rest."""
    _legacy(engine, ["documents", "cards", "editions"])
    upgrade_schema(engine)
    with engine.connect() as conn:
        assert schema_differences(conn) == []
        assert conn.scalar(select(func.count()).select_from(Document)) == 1


def test_writing_commands_upgrade_on_their_own(settings, seeds, engine):
    _legacy(engine)
    report = ingest(settings, [seeds])
    assert len(report.loaded) == 3
    assert schema_state(engine).status == "current"


def test_database_of_a_newer_kb_is_refused(settings, engine):
    upgrade_schema(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00dface'"))
    with pytest.raises(DatabaseError, match="newer than this kb"):
        open_database(settings.database)
    for args in (["db", "upgrade"], ["stats"]):
        result = run(settings, *args)
        assert result.exit_code == 1
        assert "kb: error:" in result.output and "upgrade kb" in result.output
    assert json.loads(run(settings, "db", "current", "--json").output)["status"] == "ahead"


def test_downgrade_to_nothing_and_back(engine):
    """Every revision's downgrade runs, so a bad upgrade can be stepped back."""
    upgrade_schema(engine)
    with engine.connect() as conn:
        command.downgrade(alembic_config(conn), "base")
        conn.commit()
    assert not set(Base.metadata.tables) & set(inspect(engine).get_table_names())
    upgrade_schema(engine)
    with engine.connect() as conn:
        assert schema_differences(conn) == []


def test_upgrade_sql_prints_and_changes_nothing(settings, engine):
    result = run(settings, "db", "upgrade", "--sql")
    assert result.exit_code == 0, result.output
    assert re.search(r"CREATE TABLE (\w+\.)?documents", result.output)
    assert "alembic_version" in result.output
    assert schema_state(engine).status == "empty"


def test_db_help_has_examples():
    for args in (["db"], ["db", "upgrade"], ["db", "current"]):
        result = CliRunner().invoke(main, [*args, "--help"])
        assert "Example:" in result.output


def test_a_database_one_revision_behind_is_upgraded_in_place(settings, engine) -> None:
    """Made by the kb of revision 0001, with rows: readers refuse it, `kb db upgrade` keeps them."""
    with engine.connect() as conn:
        command.upgrade(alembic_config(conn), "0001")
        conn.execute(
            Document.__table__.insert().values(
                path="/corpus/page.txt", sha256="1" * 64, status="loaded", size=1
            )
        )
        conn.commit()
    state = schema_state(engine)
    assert (state.status, state.current) == ("behind", "0001")
    current = run(settings, "db", "current")
    assert "schema revision 0001" in current.output and "kb db upgrade" in current.output
    refused = run(settings, "stats")
    assert refused.exit_code == 1 and "run `kb db upgrade`" in refused.output
    result = run(settings, "db", "upgrade")
    assert result.exit_code == 0, result.output
    assert f"from 0001 to {head_revision()}" in result.output
    with engine.connect() as conn:
        assert conn.scalar(select(Document.path)) == "/corpus/page.txt"
        assert schema_differences(conn) == []
    sql = run(settings, "db", "upgrade", "--sql")
    assert sql.exit_code == 0 and "CREATE TABLE" not in sql.output  # nothing left to do


def test_upgrade_from_0008_folds_the_stored_card_names_in_place(engine) -> None:
    """A knowledge base of revision 0008 keeps its cards and names, each now stored folded too."""
    names = ["The Trickster-God’s Heist", "Le vol du DIEU-décepteur", "Æther  Vial", "ﬁre // Ice"]
    with engine.connect() as conn:
        command.upgrade(alembic_config(conn), "0008")
        for number, name in enumerate(names, 1):
            conn.execute(
                text(
                    "INSERT INTO cards (id, key, name, faces, keywords) "
                    "VALUES (:id, :key, :name, '[]', '[]')"
                ),
                {"id": number, "key": f"card-{number}", "name": name},
            )
            conn.execute(
                text(
                    "INSERT INTO card_localizations (card_id, language, name, type_line, text, "
                    "provenance) VALUES (:id, 'fr', :name, '', '', 'official')"
                ),
                {"id": number, "name": name.upper()},
            )
        conn.commit()
    assert upgrade_schema(engine) == ("0008", head_revision())
    with engine.connect() as conn:
        assert schema_differences(conn) == []
        cards = conn.execute(text("SELECT name, folded_name FROM cards ORDER BY id")).all()
        locs = conn.execute(
            text("SELECT name, folded_name FROM card_localizations ORDER BY card_id")
        ).all()
    assert [name for name, _ in cards] == names
    assert [name for name, _ in locs] == [name.upper() for name in names]
    assert all(folded == fold(name) for name, folded in cards + locs)
    assert cards[0][1] == "the trickster-god's heist" and locs[1][1] == "le vol du dieu-decepteur"

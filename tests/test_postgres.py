"""PostgreSQL specifics: the advisory writer lock, concurrent first opens, clear errors.

These run in the PostgreSQL pass of .ci/run (KB_DATABASE_URL set); the rest of the suite runs on
both backends.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, inspect, select

from kb.cli import main
from kb.db import make_engine, open_database, schema_differences, schema_state
from kb.errors import DatabaseError
from kb.migrations import head_revision
from kb.models import Document

pytestmark = pytest.mark.skipif(
    not (__import__("conftest").PG_URL or "").startswith("postgresql"),
    reason="PostgreSQL only: set KB_DATABASE_URL=postgresql+psycopg://… (as .ci/run does)",
)


def test_a_database_made_on_postgres_matches_the_models(settings) -> None:
    db = open_database(settings.database)
    try:
        assert db.engine.dialect.name == "postgresql"
        with db.engine.connect() as conn:
            assert schema_differences(conn) == []
        assert schema_state(db.engine).current == head_revision()
    finally:
        db.dispose()


def test_concurrent_first_opens_create_the_schema_once(fresh_database_url) -> None:
    """Six processes open a new database at once: the migration lock serialises them."""
    url = fresh_database_url("race")
    code = "import sys; from kb.db import open_database; open_database(sys.argv[1]).dispose()"
    children = [
        subprocess.Popen([sys.executable, "-c", code, url], stderr=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err[-2000:]
    engine = make_engine(url)
    try:
        assert schema_state(engine).status == "current"
        with engine.connect() as conn:
            versions = conn.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar()
            assert versions == 1
            assert schema_differences(conn) == []
    finally:
        engine.dispose()


def test_threads_opening_a_new_database_at_once(fresh_database_url) -> None:
    """In one process (a threaded server) too: Alembic's global state is used by one at a time."""
    url = fresh_database_url("threads")
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def open_it() -> None:
        try:
            barrier.wait()
            open_database(url).dispose()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == [] and not any(t.is_alive() for t in threads)


def test_advisory_lock_refuses_or_waits(settings) -> None:
    first = open_database(settings.database)
    second = open_database(settings.database)
    try:
        with first.writer_lock(wait=False):
            with (
                pytest.raises(DatabaseError, match="another kb process is writing"),
                second.writer_lock(wait=False),
            ):
                pass
            released = threading.Event()
            acquired: list[float] = []

            def wait_for_it() -> None:
                with second.writer_lock(wait=True):
                    acquired.append(1.0)
                    assert released.is_set()

            waiter = threading.Thread(target=wait_for_it)
            waiter.start()
            waiter.join(timeout=1.0)
            assert waiter.is_alive() and not acquired  # still waiting
            released.set()
        waiter.join(timeout=30)
        assert acquired == [1.0]
    finally:
        first.dispose()
        second.dispose()


def test_locks_of_two_schemas_do_not_collide(fresh_database_url) -> None:
    """Each knowledge base (schema) has its own writer lock on a shared server."""
    one, two = open_database(fresh_database_url("one")), open_database(fresh_database_url("two"))
    try:
        with one.writer_lock(wait=False), two.writer_lock(wait=False):
            pass
    finally:
        one.dispose()
        two.dispose()


def test_ingest_and_lookup_through_the_cli(settings, seeds) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["--home", str(settings.home), "ingest", "--json", str(seeds)])
    assert result.exit_code == 0, result.output
    stats = runner.invoke(main, ["--home", str(settings.home), "stats", "--json"])
    assert stats.exit_code == 0, stats.output
    engine = make_engine(settings.database)
    try:
        assert "documents" in inspect(engine).get_table_names()
        with engine.connect() as conn:
            assert conn.scalar(select(func.count()).select_from(Document)) == 3
    finally:
        engine.dispose()
    assert not (Path(settings.home) / "kb.sqlite").exists()  # nothing went to SQLite


def test_unreachable_server_is_a_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "--home",
            str(tmp_path),
            "--database",
            "postgresql+psycopg://kb:kb@127.0.0.1:1/kb",
            "stats",
        ],
    )
    assert result.exit_code == 1
    assert result.output.startswith("kb: error: cannot read the database: ")
    assert "Connection refused" in result.output and "Traceback" not in result.output

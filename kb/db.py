"""Engine and sessions: SQLite in the data folder by default, any SQLAlchemy URL otherwise.

SQLite gets foreign keys (the cascades that make a re-ingest clean depend on them), WAL (readers
keep reading while an ingest writes) and a busy timeout (a second writer waits instead of failing).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from kb.errors import DatabaseError
from kb.models import Base

log = logging.getLogger(__name__)

SQLITE_BUSY_TIMEOUT_MS = 30_000


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(url: str) -> Engine:
    """Create an engine for a URL, creating the SQLite file's folder if needed."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise DatabaseError(f"not a database URL: {url!r} ({exc})") from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _sqlite_pragmas)
        if parsed.database and parsed.database != ":memory:":
            try:
                with engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            except OperationalError as exc:
                raise DatabaseError(
                    f"cannot open the database {parsed.database}: {exc.orig}"
                ) from None
        return engine
    try:
        return create_engine(url, pool_pre_ping=True)
    except ImportError as exc:  # driver missing, e.g. psycopg for postgresql://
        raise DatabaseError(f"no driver for {parsed.get_backend_name()}: {exc}") from None


def create_schema(engine: Engine) -> None:
    """Create the tables that do not exist yet."""
    try:
        Base.metadata.create_all(engine)
    except OperationalError as exc:
        raise DatabaseError(f"cannot create the database schema: {exc.orig}") from None


def has_schema(engine: Engine) -> bool:
    """Tell whether the database already holds kb's tables."""
    return inspect(engine).has_table("documents")


class Database:
    """An engine and its session factory, opened once per command."""

    def __init__(self, url: str, *, create: bool = True) -> None:
        self.url = url
        self.engine = make_engine(url)
        if create:
            create_schema(self.engine)
        elif not has_schema(self.engine):
            raise DatabaseError(
                "the knowledge base is empty: run `kb ingest corpus/` (or `kb build`) first"
            )
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that is closed afterwards; the caller decides when to commit."""
        with self.sessionmaker() as session:
            yield session

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def open_database(url: str, *, create: bool = True) -> Database:
    """Open (and by default create) the knowledge base at a SQLAlchemy URL."""
    return Database(url, create=create)

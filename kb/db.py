"""Engine, sessions and schema: SQLite in the data folder by default, any SQLAlchemy URL otherwise.

SQLite gets foreign keys (the cascades that make a re-ingest clean depend on them), WAL (readers
keep reading while an ingest writes) and a busy timeout (a second writer waits instead of failing).
The schema is made and upgraded by the Alembic migrations in kb/migrations: a new database is
created at the newest revision, an existing one is upgraded in place and never dropped, and one
made by a kb older than the migrations (tables but no ``alembic_version``) is adopted.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event, inspect, select, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from kb.errors import DatabaseError, KbError
from kb.models import Base, DerivedState, Document

log = logging.getLogger(__name__)

SQLITE_BUSY_TIMEOUT_MS = 30_000
_MIGRATING = threading.Lock()
# The PostgreSQL advisory lock that writers hold (per schema, so test schemas do not collide).
_WRITER_LOCK_SQL = "hashtext('kb writer ' || current_schema())"


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def missing_sqlite_file(url: str) -> bool:
    """Whether the URL names a SQLite file that does not exist (yet)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return False
    database = parsed.database
    return (
        parsed.get_backend_name() == "sqlite"
        and bool(database)
        and database != ":memory:"
        and not str(database).startswith("file:")
        and not Path(str(database)).is_file()
    )


def make_engine(url: str, *, create: bool = True) -> Engine:
    """Create an engine for a URL, creating the SQLite file's folder if needed.

    With ``create=False`` (readers) a SQLite file that does not exist is refused instead: a
    command that only reads must never leave an empty database behind.
    """
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise DatabaseError(f"not a database URL: {url!r} ({exc})") from None
    if not create and missing_sqlite_file(url):
        raise DatabaseError(
            "the knowledge base is empty: run `kb ingest corpus/` (or `kb build`) first "
            f"(there is no database at {parsed.database})"
        )
    if parsed.get_backend_name() == "sqlite":
        if not create and parsed.database and parsed.database != ":memory:":
            return _sqlite_reader(parsed)
        if parsed.database and parsed.database != ":memory:":
            try:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseError(
                    f"cannot create the folder of {parsed.database}: {exc.strerror or exc}"
                ) from None
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _sqlite_pragmas)
        if parsed.database and parsed.database != ":memory:":
            try:
                with engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            except OperationalError as exc:
                raise DatabaseError(
                    f"cannot open the database {parsed.database}: {exc.orig} (check the free "
                    "disk space and that its folder is writable)"
                ) from None
        return engine
    try:
        return create_engine(url, pool_pre_ping=True)
    except ImportError as exc:  # driver missing, e.g. psycopg for postgresql://
        raise DatabaseError(
            f"no driver for {parsed.get_backend_name()}: {exc} "
            "(for PostgreSQL: pip install 'kb[postgres]')"
        ) from None


def _sqlite_reader(parsed: URL) -> Engine:
    """A reader's engine on an existing SQLite file: it changes nothing, not even the journal.

    In a folder it may not write (a read-only replica, a mounted snapshot) SQLite cannot make
    the WAL index beside the file, so the file is opened read-only and immutable: nobody can
    write it there either.
    """
    database = str(parsed.database)
    path = Path(database)
    if database.startswith("file:") or (
        os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)
    ):
        url = parsed
    else:
        uri = f"file:{quote(str(path.resolve()))}"
        url = parsed.set(database=uri, query={"mode": "ro", "immutable": "1", "uri": "true"})
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


# --- schema ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands against this kb's migrations."""

    current: str | None  # the revision stamped in alembic_version
    head: str  # the newest revision this kb ships
    legacy: bool  # kb tables without alembic_version (made before kb had migrations)
    empty: bool  # no kb table at all

    @property
    def status(self) -> str:
        """One word: empty, legacy, current, behind or ahead."""
        if self.empty:
            return "empty"
        if self.legacy:
            return "legacy"
        if self.current == self.head:
            return "current"
        from kb.migrations import known_revisions

        return "behind" if self.current in known_revisions() else "ahead"


def _state(conn: Connection) -> SchemaState:
    from kb.migrations import head_revision

    tables = set(inspect(conn).get_table_names())
    current = None
    if "alembic_version" in tables:  # what Alembic's MigrationContext reads, without Alembic
        current = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    tables &= set(Base.metadata.tables)
    return SchemaState(
        current=current,
        head=head_revision(),
        legacy=current is None and bool(tables),
        empty=current is None and not tables,
    )


def schema_state(engine: Engine) -> SchemaState:
    """Read the database's revision and whether it holds kb's tables."""
    try:
        with engine.connect() as conn:
            return _state(conn)
    except SQLAlchemyError as exc:
        raise DatabaseError(f"cannot read the database: {_reason(exc)}") from None


def upgrade_schema(engine: Engine) -> tuple[str | None, str]:
    """Create or upgrade the schema to the newest revision; return (revision before, after).

    Alembic is imported only when there is something to upgrade: importing it costs a third of
    a second, a quarter of a no-op ingest.
    """
    try:
        with engine.connect() as conn:
            state = _state(conn)
            if state.status == "current":
                return state.current, state.head
            if state.status == "ahead":
                raise DatabaseError(_newer_message(state))
            from alembic import command

            from kb.migrations import alembic_config

            if state.legacy:
                log.warning("adopting a database made before kb had migrations")
            with _MIGRATING:  # Alembic's op/context proxies are process-wide, not per thread
                command.upgrade(alembic_config(conn, adopt=state.legacy), "head")
            conn.commit()
            if state.legacy:
                _warn_differences(conn)
    except SQLAlchemyError as exc:
        raise DatabaseError(
            f"cannot create or upgrade the database schema: {_reason(exc)}"
        ) from None
    log.info("database schema upgraded from %s to %s", state.current or "nothing", state.head)
    return state.current, state.head


def upgrade_sql(url: str, since: str | None = None) -> str:
    """The SQL that would bring a database from ``since`` (None: nothing) to the newest revision."""
    from alembic import command

    from kb.migrations import alembic_config

    config = alembic_config()
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    buffer = io.StringIO()
    config.output_buffer = buffer
    command.upgrade(config, f"{since}:head" if since else "head", sql=True)
    return buffer.getvalue()


def schema_differences(conn: Connection) -> list[str]:
    """What the database's schema lacks or has beyond kb/models.py (Alembic's comparison)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    context = MigrationContext.configure(conn, opts={"compare_type": True})
    return [repr(diff) for diff in compare_metadata(context, Base.metadata)]


def _warn_differences(conn: Connection) -> None:
    differences = schema_differences(conn)
    if differences:
        log.warning(
            "the adopted database differs from this kb's schema (%d difference(s): %s); "
            "rebuilding it with a fresh `kb ingest` is safest",
            len(differences),
            "; ".join(differences[:5]),
        )


def _newer_message(state: SchemaState) -> str:
    return (
        f"the database is at schema revision {state.current}, newer than this kb knows "
        f"(its newest is {state.head}): upgrade kb"
    )


def _reason(exc: SQLAlchemyError) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig or exc).strip().splitlines()[0]


# --- derived data in step with the documents -------------------------------------------------


def documents_digest(session: Session) -> str:
    """A digest of which documents are loaded, with which content (sha256)."""
    digest = hashlib.sha256()
    rows = session.execute(
        select(Document.path, Document.sha256).where(Document.status == "loaded")
    ).all()
    for path, sha in sorted(rows):
        digest.update(f"{path}\0{sha}\n".encode())
    return digest.hexdigest()


def derived_current(session: Session, stage: str) -> bool:
    """Whether a derived stage (``links``, ``index``) was last built from the current documents."""
    state = session.get(DerivedState, stage)
    return state is not None and state.inputs == documents_digest(session)


def mark_derived(session: Session, stage: str, inputs: str | None = None) -> None:
    """Record, in the caller's transaction, that a stage is now in step with the documents.

    ``inputs=""`` marks it out of step (a rebuild has begun and is not finished).
    """
    digest = documents_digest(session) if inputs is None else inputs
    state = session.get(DerivedState, stage)
    if state is None:
        session.add(DerivedState(stage=stage, inputs=digest))
    else:
        state.inputs = digest
    session.flush()


class Database:
    """An engine and its session factory, opened once per command."""

    def __init__(self, url: str, *, create: bool = True) -> None:
        self.url = url
        self.engine = make_engine(url, create=create)
        try:
            if create:
                upgrade_schema(self.engine)
            else:
                self._check_readable()
        except KbError:
            self.engine.dispose()
            raise
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)

    def _check_readable(self) -> None:
        state = schema_state(self.engine)
        if state.status == "empty":
            raise DatabaseError(
                "the knowledge base is empty: run `kb ingest corpus/` (or `kb build`) first"
            )
        if state.status in ("legacy", "behind"):
            raise DatabaseError(
                f"the database was made by an older kb (schema {state.current or 'unversioned'}, "
                f"this kb needs {state.head}): run `kb db upgrade`"
            )
        if state.status == "ahead":
            raise DatabaseError(_newer_message(state))

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that is closed afterwards; the caller decides when to commit."""
        with self.sessionmaker() as session:
            yield session

    @contextmanager
    def writer_lock(self, *, wait: bool = True) -> Iterator[None]:
        """On PostgreSQL, hold an advisory lock so that writers on other machines take turns.

        SQLite needs none beyond the data folder's file lock (kb.pipeline.writer_lock): the
        database file lives in that folder.
        """
        if self.engine.dialect.name != "postgresql":
            yield
            return
        with self.engine.connect() as conn:
            got = conn.execute(text(f"SELECT pg_try_advisory_lock({_WRITER_LOCK_SQL})")).scalar()
            if not got:
                if not wait:
                    raise DatabaseError(
                        "another kb process is writing to this database; try again later"
                    )
                log.warning("waiting for another kb process writing to the database")
                conn.execute(text(f"SELECT pg_advisory_lock({_WRITER_LOCK_SQL})"))
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text(f"SELECT pg_advisory_unlock({_WRITER_LOCK_SQL})"))
                conn.commit()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def open_database(url: str, *, create: bool = True) -> Database:
    """Open (and by default create or upgrade) the knowledge base at a SQLAlchemy URL."""
    return Database(url, create=create)

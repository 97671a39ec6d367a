"""Alembic environment: run kb's migrations on the connection kb.db hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine, pool

from kb.models import Base

# A lock number that only kb's schema changes use (two processes opening a new database at once).
_MIGRATION_LOCK = 7_265_000_001


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
        context.run_migrations()


def run_online() -> None:
    """Migrate through the given connection, or one opened from ``sqlalchemy.url``."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(
        context.config.get_main_option("sqlalchemy.url") or "", poolclass=pool.NullPool
    )
    with engine.connect() as fresh:
        _run(fresh)
    engine.dispose()


def run_offline() -> None:
    """Print the SQL of the migrations instead of running them (``kb db upgrade --sql``)."""
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"),
        target_metadata=Base.metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()

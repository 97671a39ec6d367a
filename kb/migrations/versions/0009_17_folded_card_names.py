"""Card names stored folded: ``cards.folded_name`` and ``card_localizations.folded_name``, indexed.

Revision ID: 0009
Revises: 0008

``kb card`` finds a name typed in any case, with or without accents and curly quotes, by its
folded form (kb.langs.fold). It used to fold every name of the knowledge base (~100k at the full
history) on each lookup; now the card loader stores each name's folded form and the lookup is one
indexed query. The upgrade keeps every row and computes the folded form of each stored name with
kb.langs.fold itself (the loader's function, so old and new rows agree): on SQLite as a function
registered for the migration, on PostgreSQL through a temporary table of the distinct names.
``kb db upgrade --sql`` prints statements that call a ``kb_fold`` function the database must
then provide (``kb db upgrade`` needs none).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from kb.langs import fold

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

TABLES = ("cards", "card_localizations")
_CHUNK = 5000


def _columns(table: str) -> set[str]:
    if op.get_context().as_sql:
        return set()
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def _fill_sqlite() -> None:
    raw = op.get_bind().connection.driver_connection
    raw.create_function("kb_fold", 1, fold, deterministic=True)
    for table in TABLES:
        op.execute(f"UPDATE {table} SET folded_name = kb_fold(name)")


def _fill_postgresql() -> None:
    """Each distinct name folded once in Python, then an UPDATE per table from a temporary table."""
    bind = op.get_bind()
    names = sorted(
        {
            name
            for table in TABLES
            for (name,) in bind.execute(sa.text(f"SELECT DISTINCT name FROM {table}"))
        }
    )
    bind.execute(sa.text("CREATE TEMPORARY TABLE kb_folded (name TEXT PRIMARY KEY, folded TEXT)"))
    rows = [{"name": name, "folded": fold(name)} for name in names]
    for start in range(0, len(rows), _CHUNK):
        bind.execute(
            sa.text("INSERT INTO kb_folded (name, folded) VALUES (:name, :folded)"),
            rows[start : start + _CHUNK],
        )
    for table in TABLES:
        bind.execute(
            sa.text(
                f"UPDATE {table} SET folded_name = kb_folded.folded FROM kb_folded "
                f"WHERE kb_folded.name = {table}.name"
            )
        )
    bind.execute(sa.text("DROP TABLE kb_folded"))


def upgrade() -> None:
    """Add the folded_name columns, fold every stored name into them, index them."""
    offline = op.get_context().as_sql
    added = [table for table in TABLES if offline or "folded_name" not in _columns(table)]
    for table in added:
        op.add_column(table, sa.Column("folded_name", sa.Text(), nullable=True))
    if offline:
        for table in TABLES:
            op.execute(f"UPDATE {table} SET folded_name = kb_fold(name)")
    elif op.get_context().dialect.name == "postgresql":
        _fill_postgresql()
    else:
        _fill_sqlite()
    for table in added:
        op.create_index(f"ix_{table}_folded_name", table, ["folded_name"])


def downgrade() -> None:
    """Drop the indexes and the columns (a plain DROP COLUMN: a batch copy of ``cards`` would
    cascade to its names, printings and rulings with SQLite's foreign keys on)."""
    for table in TABLES:
        op.drop_index(f"ix_{table}_folded_name", table_name=table)
        op.execute(f"ALTER TABLE {table} DROP COLUMN folded_name")

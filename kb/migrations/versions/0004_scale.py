"""Scale: indexes for garbage collection; rule lineages (a table, rules.lineage_id).

Revision ID: 0004
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _index(table: str, name: str, columns: list[str]) -> None:
    """Create an index unless the table already has it."""
    if op.get_context().as_sql or name not in {
        ix["name"] for ix in sa.inspect(op.get_bind()).get_indexes(table)
    }:
        op.create_index(name, table, columns)


def _has_column(table: str, column: str) -> bool:
    """Whether an adopted database (made from today's models) already has the column."""
    if op.get_context().as_sql:
        return False
    return column in {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def _add_reference(table: str, column: str, target: str) -> None:
    """Add a nullable reference column, keeping every row where it is.

    SQLite takes ``ADD COLUMN ... REFERENCES`` as it is; Alembic would instead copy the table
    (batch mode), which with foreign keys on would cascade-delete the rows that point at it.
    """
    if _has_column(table, column):
        return
    if op.get_context().dialect.name == "sqlite":
        op.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER REFERENCES {target} (id)")
        return
    op.add_column(
        table,
        sa.Column(column, sa.Integer(), sa.ForeignKey(f"{target}.id")),
    )


def upgrade() -> None:
    """Bring the schema forward (new index, table and columns: every row is kept)."""
    # A database adopted from before the migrations may have been made with it already.
    _index("card_clarifications", "ix_card_clarifications_clarification_id", ["clarification_id"])
    _index("rulings_pages", "ix_rulings_pages_card_id", ["card_id"])
    # Lineages start empty: the next ingest computes them for every edition (kb.versions.lineage
    # realigns any edition whose rules have none). Plain ADD COLUMN keeps every row in place.
    if op.get_context().as_sql or not sa.inspect(op.get_bind()).has_table("lineages"):
        op.create_table(
            "lineages", sa.Column("id", sa.Integer(), nullable=False), sa.PrimaryKeyConstraint("id")
        )
    _add_reference("rules", "lineage_id", "lineages")
    _index("rules", "ix_rules_lineage_id", ["lineage_id"])
    if not _has_column("editions", "lineage_after_id"):
        op.add_column("editions", sa.Column("lineage_after_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Take the schema back."""
    with op.batch_alter_table("editions") as batch:
        batch.drop_column("lineage_after_id")
    with op.batch_alter_table("rules") as batch:
        batch.drop_index("ix_rules_lineage_id")
        batch.drop_column("lineage_id")
    op.drop_table("lineages")
    op.drop_index("ix_rulings_pages_card_id", table_name="rulings_pages")
    op.drop_index("ix_card_clarifications_clarification_id", table_name="card_clarifications")

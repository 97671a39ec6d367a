"""Scale: an index for garbage collection.

Revision ID: 0004
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0002"
branch_labels = None
depends_on = None


def _index(table: str, name: str, columns: list[str]) -> None:
    """Create an index unless the table already has it."""
    if op.get_context().as_sql or name not in {
        ix["name"] for ix in sa.inspect(op.get_bind()).get_indexes(table)
    }:
        op.create_index(name, table, columns)


def upgrade() -> None:
    """Bring the schema forward (indexes only: every row is kept)."""
    # A database adopted from before the migrations may have been made with it already.
    _index("card_clarifications", "ix_card_clarifications_clarification_id", ["clarification_id"])


def downgrade() -> None:
    """Take the schema back."""
    op.drop_index("ix_card_clarifications_clarification_id", table_name="card_clarifications")

"""The knowledge base's counts kept by the ingest: a no-op re-ingest prints them without counting.

Revision ID: 0013
Revises: 0012

``stored_counts`` holds one row per kept report (today only ``stats``, the ingest summary's
counts): a digest of the documents and of the counting code they were counted with, and the
counts as JSON (kb.stats). It is a cache: an empty table, as the upgrade leaves it, only means
the next ingest counts once, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table (no existing row is touched)."""
    if not op.get_context().as_sql and sa.inspect(op.get_bind()).has_table("stored_counts"):
        return  # an adopted database made from today's models has it already
    op.create_table(
        "stored_counts",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("inputs", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    """Drop the table: the counts are derived, the next ingest counts afresh."""
    op.drop_table("stored_counts")

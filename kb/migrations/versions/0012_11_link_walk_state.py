"""The term-link walk's state after the newest edition: adding an edition matches only changes.

Revision ID: 0012
Revises: 0011

``link_walk_state`` holds one row per walk kept (today only ``links``): a digest of the texts it
walked, the date of the edition it walked last, and its term spans and outputs as a compressed
blob of plain values (kb.links.walk_state). It is a cache: an empty table, as the upgrade leaves
it, only means the next link run matches every text once, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table (no existing row is touched)."""
    if not op.get_context().as_sql and sa.inspect(op.get_bind()).has_table("link_walk_state"):
        return  # an adopted database made from today's models has it already
    op.create_table(
        "link_walk_state",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("inputs", sa.String(length=64), nullable=False),
        sa.Column("edition_date", sa.Date(), nullable=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    """Drop the table: the walk's state is derived, the next link run matches afresh."""
    op.drop_table("link_walk_state")

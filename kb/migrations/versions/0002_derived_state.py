"""Derived state: what the links and the search index were last brought in step with.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Bring the schema forward."""
    op.create_table(
        "derived_state",
        sa.Column("stage", sa.String(length=32), nullable=False),
        sa.Column("inputs", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("stage"),
    )


def downgrade() -> None:
    """Take the schema back."""
    op.drop_table("derived_state")

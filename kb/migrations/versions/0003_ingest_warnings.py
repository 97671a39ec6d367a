"""Ingest warnings, document encodings, translations that follow a newer English edition.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _has_column(table: str, column: str) -> bool:
    """Tell whether a column exists already (offline, ``kb db upgrade --sql``: it does not).

    A database adopted from before migrations may have been made by a kb that had it.
    """
    if op.get_context().as_sql:
        return False
    return column in {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Bring the schema forward."""
    # ADD COLUMN needs no batch mode, even on SQLite (and works offline).
    if not _has_column("documents", "encoding"):
        op.add_column("documents", sa.Column("encoding", sa.String(length=32), nullable=True))
    if not _has_column("rule_texts", "follows_newer"):
        column = sa.Column("follows_newer", sa.Boolean(), nullable=False, server_default=sa.false())
        op.add_column("rule_texts", column)
    op.create_table(
        "ingest_warnings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=48), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_ingest_warnings_document_id"), "ingest_warnings", ["document_id"], unique=False
    )


def downgrade() -> None:
    """Take the schema back."""
    op.drop_index(op.f("ix_ingest_warnings_document_id"), table_name="ingest_warnings")
    op.drop_table("ingest_warnings")
    with op.batch_alter_table("rule_texts") as batch:
        batch.drop_column("follows_newer")
    with op.batch_alter_table("documents") as batch:
        batch.drop_column("encoding")

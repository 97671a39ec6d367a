"""Documents remember their file's stat: a no-op ingest skips unchanged files without hashing.

Revision ID: 0010
Revises: 0009

``documents.file_stat`` holds the size, mtime, ctime and inode the file had when its sha256 was
last taken (or NULL: not known, or changed too recently to be trusted). A rerun that finds the
same stat takes the stored sha256 instead of reading the file again. Existing rows get NULL,
so the first ingest after the upgrade hashes every file as before and records their stats.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the nullable column (plain ADD COLUMN: every row stays where it is)."""
    if not op.get_context().as_sql and "file_stat" in {
        c["name"] for c in sa.inspect(op.get_bind()).get_columns("documents")
    }:
        return  # an adopted database made from today's models has it already
    op.add_column("documents", sa.Column("file_stat", sa.String(length=96), nullable=True))


def downgrade() -> None:
    """Drop the column again, in place.

    Not in batch mode on SQLite: copying ``documents`` and dropping the old table would cascade
    the delete to every row the documents own. SQLite drops a plain column in place (3.35+).
    """
    if op.get_context().dialect.name == "sqlite":
        op.execute("ALTER TABLE documents DROP COLUMN file_stat")
        return
    op.drop_column("documents", "file_stat")

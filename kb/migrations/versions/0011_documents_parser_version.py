"""Documents remember the parser version that made their rows: a fixed parser re-reads old files.

Revision ID: 0011
Revises: 0010

``documents.parser_version`` holds ``kb.corpus.PARSER_VERSIONS[format]`` of the code that parsed
the document. An ingest that finds another number parses the file again, although its bytes did
not change, so a parser fix (the doubled names of double-faced cards, say) reaches a knowledge
base built before it. Existing rows get NULL, which no parser version equals: the first ingest
after the upgrade parses every document once more, as the parsers of today read them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the nullable column (plain ADD COLUMN: every row stays where it is)."""
    if not op.get_context().as_sql and "parser_version" in {
        c["name"] for c in sa.inspect(op.get_bind()).get_columns("documents")
    }:
        return  # an adopted database made from today's models has it already
    op.add_column("documents", sa.Column("parser_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop the column again, in place (not in batch mode on SQLite: see 0010)."""
    if op.get_context().dialect.name == "sqlite":
        op.execute("ALTER TABLE documents DROP COLUMN parser_version")
        return
    op.drop_column("documents", "parser_version")

"""Card keywords (MTGJSON) and the keyword terms learned from card translations (issue 18).

Revision ID: 0006
Revises: 0002

Existing cards get an empty keyword list; the recorded digest of the MTGJSON documents is
cleared, so the next `kb ingest` reloads them and fills it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Bring the schema forward."""
    # An adopted legacy database may already have the column (created from newer models).
    offline = op.get_context().as_sql
    columns = () if offline else {c["name"] for c in sa.inspect(op.get_bind()).get_columns("cards")}
    if "keywords" not in columns:
        op.add_column(
            "cards",
            sa.Column("keywords", sa.JSON(), nullable=False, server_default=sa.text("'[]'")),
        )
    op.execute("UPDATE documents SET sha256 = '' WHERE format = 'mtgjson'")
    op.create_table(
        "card_terms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("keyword", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("rule", sa.String(length=16), nullable=True),
        sa.Column("term", sa.String(length=128), nullable=False),
        sa.Column("label", sa.String(length=128), nullable=False),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.Column("keyword_cards", sa.Integer(), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("reminder_cards", sa.Integer(), nullable=False),
        sa.Column("examples", sa.JSON(), nullable=False),
        sa.Column("alternatives", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("keyword", "language"),
    )
    op.create_index("ix_card_terms_rule", "card_terms", ["rule"], unique=False)


def downgrade() -> None:
    """Take the schema back."""
    op.drop_index("ix_card_terms_rule", table_name="card_terms")
    op.drop_table("card_terms")
    with op.batch_alter_table("cards") as batch:
        batch.drop_column("keywords")

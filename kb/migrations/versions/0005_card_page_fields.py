"""Card page fields: mana cost, per-face details, legalities, and the sets printings belong to.

Revision ID: 0005
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


COLUMNS = (
    ("mana_cost", sa.String(length=128)),
    ("face_details", sa.JSON()),
    ("legalities", sa.JSON()),
)


def upgrade() -> None:
    """Bring the schema forward (additive: existing cards keep their rows, the fields empty).

    What an adopted database (made by create_all before migrations) already has is skipped.
    """
    offline = op.get_context().as_sql  # `kb db upgrade --sql`: nothing to inspect
    inspector = None if offline else sa.inspect(op.get_bind())
    have = {c["name"] for c in inspector.get_columns("cards")} if inspector else set()
    missing = [(name, kind) for name, kind in COLUMNS if name not in have]
    if missing:
        with op.batch_alter_table("cards") as batch:
            for name, kind in missing:
                batch.add_column(sa.Column(name, kind, nullable=True))
    if inspector is not None and inspector.has_table("card_sets"):
        return
    op.create_table(
        "card_sets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("release_date", sa.Date(), nullable=True),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code", "document_id"),
    )
    op.create_index("ix_card_sets_code", "card_sets", ["code"])
    op.create_index("ix_card_sets_document_id", "card_sets", ["document_id"])


def downgrade() -> None:
    """Take the schema back."""
    op.drop_index("ix_card_sets_document_id", table_name="card_sets")
    op.drop_index("ix_card_sets_code", table_name="card_sets")
    op.drop_table("card_sets")
    with op.batch_alter_table("cards") as batch:
        batch.drop_column("legalities")
        batch.drop_column("face_details")
        batch.drop_column("mana_cost")

"""Rule bodies stored once: a ``rule_bodies`` table (sha256, text) and ``rule_texts.body_id``.

Revision ID: 0007
Revises: 0006

Every existing rule text keeps its row: its body moves into ``rule_bodies`` (one row per distinct
text, keyed by the sha256 of its UTF-8 bytes, as kb.bodies computes it) and the row points to it.
The move is two set-based statements; SQLite gets the hash as a function registered for the
migration (``kb db upgrade`` does it; ``--sql`` for SQLite prints statements that need it).
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _sha256(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def _columns(table: str) -> set[str]:
    if op.get_context().as_sql:
        return set()
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def _hash_sql(column: str) -> str:
    """The SQL of the sha256 (lower-case hex) of a text column on this backend."""
    if op.get_context().dialect.name == "postgresql":
        return f"encode(sha256(convert_to({column}, 'UTF8')), 'hex')"
    if not op.get_context().as_sql:
        raw = op.get_bind().connection.driver_connection
        raw.create_function("kb_sha256", 1, _sha256, deterministic=True)
    return f"kb_sha256({column})"


def upgrade() -> None:
    """Create rule_bodies, point every rule text at its body, drop the copied column."""
    offline = op.get_context().as_sql
    if offline or not sa.inspect(op.get_bind()).has_table("rule_bodies"):
        op.create_table(
            "rule_bodies",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("sha256", sa.String(length=64), nullable=False),
            sa.Column("text", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("sha256"),
        )
    have = _columns("rule_texts")
    if offline or "body_id" not in have:
        # Plain ADD COLUMN keeps every row in place (a batch copy of rule_texts would cascade
        # to its examples with SQLite's foreign keys on).
        if op.get_context().dialect.name == "sqlite":
            op.execute(
                "ALTER TABLE rule_texts ADD COLUMN body_id INTEGER REFERENCES rule_bodies (id)"
            )
        else:
            op.add_column(
                "rule_texts",
                sa.Column("body_id", sa.Integer(), sa.ForeignKey("rule_bodies.id"), nullable=True),
            )
        op.create_index("ix_rule_texts_body_id", "rule_texts", ["body_id"], unique=False)
    if offline or "body" in have:
        digest = _hash_sql("body")
        op.execute(
            f"INSERT INTO rule_bodies (sha256, text) SELECT {digest}, body FROM rule_texts "
            f"GROUP BY body ORDER BY min(id)"
        )
        op.execute(
            "UPDATE rule_texts SET body_id = (SELECT rule_bodies.id FROM rule_bodies "
            f"WHERE rule_bodies.sha256 = {_hash_sql('rule_texts.body')})"
        )
        if op.get_context().dialect.name == "sqlite":  # 3.35+: in place, no table copy
            op.execute("ALTER TABLE rule_texts DROP COLUMN body")
        else:
            op.drop_column("rule_texts", "body")


def downgrade() -> None:
    """Copy the bodies back into rule_texts and drop rule_bodies."""
    op.add_column(
        "rule_texts", sa.Column("body", sa.Text(), nullable=False, server_default=sa.text("''"))
    )
    op.execute(
        "UPDATE rule_texts SET body = COALESCE((SELECT rule_bodies.text FROM rule_bodies "
        "WHERE rule_bodies.id = rule_texts.body_id), '')"
    )
    # Like the other downgrades: a batch copy on SQLite (run it with foreign keys off to keep
    # the examples of a full database).
    with op.batch_alter_table("rule_texts") as batch:
        batch.drop_index("ix_rule_texts_body_id")
        batch.drop_column("body_id")
    op.drop_table("rule_bodies")

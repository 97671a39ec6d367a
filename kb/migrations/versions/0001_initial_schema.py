"""Initial schema: the tables kb created before it had migrations.

Revision ID: 0001
Revises:

A database made by such a kb has these tables but no ``alembic_version``; kb.db adopts it by
running this revision in *adopt* mode, which creates only what is missing, then stamps it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _adopting() -> bool:
    config = op.get_context().config
    return bool(config is not None and config.attributes.get("adopt"))


def _table(name: str, *items: sa.SchemaItem) -> None:
    """Create a table, unless an adopted database already has it."""
    if _adopting() and sa.inspect(op.get_bind()).has_table(name):
        return
    op.create_table(name, *items)


def _index(table: str, name: str, columns: list[str], *, unique: bool = False) -> None:
    """Create an index, unless an adopted database already has it."""
    if _adopting():
        existing = {ix["name"] for ix in sa.inspect(op.get_bind()).get_indexes(table)}
        if name in existing:
            return
    op.create_index(name, table, columns, unique=unique)


def upgrade() -> None:
    """Bring the schema forward."""
    _table(
        "cards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("oracle_id", sa.String(length=64), nullable=True),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("mana_value", sa.Float(), nullable=True),
        sa.Column("layout", sa.String(length=32), nullable=True),
        sa.Column("faces", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
        sa.UniqueConstraint("oracle_id"),
    )
    _index("cards", "ix_cards_name", ["name"], unique=False)

    _table(
        "clarifications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    _index("clarifications", "ix_clarifications_date", ["date"], unique=False)

    _table(
        "documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("path", sa.String(length=1024), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("format", sa.String(length=32), nullable=True),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("error_line", sa.Integer(), nullable=True),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("path"),
    )
    _table(
        "card_clarifications",
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("clarification_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["card_id"], ["cards.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["clarification_id"], ["clarifications.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("card_id", "clarification_id", "document_id"),
    )
    _table(
        "card_localizations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("type_line", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("provenance", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["card_id"], ["cards.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("card_id", "language"),
    )
    _index("card_localizations", "ix_card_localizations_name", ["name"], unique=False)

    _table(
        "clarification_texts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("clarification_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("provenance", sa.String(length=16), nullable=False),
        sa.Column("origin", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(["clarification_id"], ["clarifications.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("clarification_id", "language", "provenance"),
    )
    _index(
        "clarification_texts",
        "ix_clarification_texts_clarification_id",
        ["clarification_id"],
        unique=False,
    )

    _table(
        "editions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("effective_date", sa.Date(), nullable=True),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    _index("editions", "ix_editions_document_id", ["document_id"], unique=False)

    _table(
        "printings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("set_code", sa.String(length=16), nullable=False),
        sa.Column("number", sa.String(length=16), nullable=False),
        sa.Column("uuid", sa.String(length=64), nullable=False),
        sa.Column("rarity", sa.String(length=16), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["card_id"], ["cards.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    _index("printings", "ix_printings_card_id", ["card_id"], unique=False)
    _index("printings", "ix_printings_document_id", ["document_id"], unique=False)

    _table(
        "rulings_pages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("page_id", sa.String(length=64), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=True),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("machine_notice", sa.Boolean(), nullable=False),
        sa.Column("header", sa.Text(), nullable=False),
        sa.Column("attributes", sa.JSON(), nullable=False),
        sa.Column("recognised", sa.Boolean(), nullable=False),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["card_id"], ["cards.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("page_id"),
    )
    _table(
        "glossary_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("edition_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("term", sa.String(length=256), nullable=False),
        sa.Column("definition", sa.Text(), nullable=False),
        sa.Column("senses", sa.JSON(), nullable=False),
        sa.Column("redirect", sa.String(length=256), nullable=True),
        sa.Column("obsolete", sa.Boolean(), nullable=False),
        sa.Column("provenance", sa.String(length=16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["edition_id"], ["editions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("edition_id", "language", "term"),
    )
    _index("glossary_entries", "ix_glossary_entries_document_id", ["document_id"], unique=False)

    _table(
        "rules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("edition_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("parent_number", sa.String(length=16), nullable=True),
        sa.Column("sort_key", sa.String(length=32), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["edition_id"], ["editions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("edition_id", "number"),
    )
    _index("rules", "ix_rules_document_id", ["document_id"], unique=False)
    _index("rules", "ix_rules_number", ["number"], unique=False)

    _table(
        "links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source_type", sa.String(length=24), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("source_language", sa.String(length=8), nullable=False),
        sa.Column("target", sa.String(length=16), nullable=False),
        sa.Column("target_edition_id", sa.Integer(), nullable=True),
        sa.Column("target_rule_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("matched", sa.Text(), nullable=False),
        sa.Column("start", sa.Integer(), nullable=False),
        sa.Column("end", sa.Integer(), nullable=False),
        sa.Column("resolved", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["target_edition_id"], ["editions.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["target_rule_id"], ["rules.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    _index("links", "ix_links_source", ["source_type", "source_id"], unique=False)
    _index("links", "ix_links_target", ["target_edition_id", "target"], unique=False)
    _index("links", "ix_links_target_rule_id", ["target_rule_id"], unique=False)

    _table(
        "rule_references",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rule_id", sa.Integer(), nullable=False),
        sa.Column("target", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["rule_id"], ["rules.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    _index("rule_references", "ix_rule_references_rule_id", ["rule_id"], unique=False)

    _table(
        "rule_texts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rule_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("provenance", sa.String(length=16), nullable=False),
        sa.Column("follows_edition_id", sa.Integer(), nullable=True),
        sa.Column("follows_assumed", sa.Boolean(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["follows_edition_id"], ["editions.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["rule_id"], ["rules.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("rule_id", "language", "provenance"),
    )
    _index("rule_texts", "ix_rule_texts_document_id", ["document_id"], unique=False)
    _index("rule_texts", "ix_rule_texts_rule_id", ["rule_id"], unique=False)

    _table(
        "examples",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rule_text_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["rule_text_id"], ["rule_texts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    _index("examples", "ix_examples_rule_text_id", ["rule_text_id"], unique=False)


def downgrade() -> None:
    """Take the schema back."""
    op.drop_index("ix_examples_rule_text_id", table_name="examples")

    op.drop_table("examples")
    op.drop_index("ix_rule_texts_rule_id", table_name="rule_texts")
    op.drop_index("ix_rule_texts_document_id", table_name="rule_texts")

    op.drop_table("rule_texts")
    op.drop_index("ix_rule_references_rule_id", table_name="rule_references")

    op.drop_table("rule_references")
    op.drop_index("ix_links_target_rule_id", table_name="links")
    op.drop_index("ix_links_target", table_name="links")
    op.drop_index("ix_links_source", table_name="links")

    op.drop_table("links")
    op.drop_index("ix_rules_number", table_name="rules")
    op.drop_index("ix_rules_document_id", table_name="rules")

    op.drop_table("rules")
    op.drop_index("ix_glossary_entries_document_id", table_name="glossary_entries")

    op.drop_table("glossary_entries")
    op.drop_table("rulings_pages")
    op.drop_index("ix_printings_document_id", table_name="printings")
    op.drop_index("ix_printings_card_id", table_name="printings")

    op.drop_table("printings")
    op.drop_index("ix_editions_document_id", table_name="editions")

    op.drop_table("editions")
    op.drop_index("ix_clarification_texts_clarification_id", table_name="clarification_texts")

    op.drop_table("clarification_texts")
    op.drop_index("ix_card_localizations_name", table_name="card_localizations")

    op.drop_table("card_localizations")
    op.drop_table("card_clarifications")
    op.drop_table("documents")
    op.drop_index("ix_clarifications_date", table_name="clarifications")

    op.drop_table("clarifications")
    op.drop_index("ix_cards_name", table_name="cards")

    op.drop_table("cards")

"""Term links from rulings and card texts to rule lineages: ``links.target_lineage_id``.

Revision ID: 0008
Revises: 0007

A ruling or a card text used to get one term-link row per English edition (about ten million at
the full history). Now a resolved term link from a clarification text or a card text is one row
per (text, span, lineage), with ``target_edition_id`` empty; a reader finds its rule number in the
edition it asks for through the rules of that lineage (kb.links.view). The upgrade keeps the
rows: it collapses the per-edition rows of each (text, span, lineage) into one per run of
consecutive editions that had them (``first_date``..``last_date``), whose ``target`` is the number
of the run's newest edition, as ``kb link`` makes them, in two set-based statements.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

# The per-edition rows a lineage row replaces (kb.links.lineage_rows.LINEAGE_SOURCES).
_COLLAPSED = (
    "links.source_type IN ('clarification_text', 'card_text') AND links.kind = 'term' "
    "AND links.target_edition_id IS NOT NULL AND links.target_lineage_id IS NULL"
)


def _columns(table: str) -> set[str]:
    if op.get_context().as_sql:
        return set()
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Add links.target_lineage_id and collapse the per-edition term links of rulings and cards."""
    offline = op.get_context().as_sql
    if offline or "target_lineage_id" not in _columns("links"):
        op.add_column("links", sa.Column("target_lineage_id", sa.Integer(), nullable=True))
        op.create_index("ix_links_target_lineage_id", "links", ["target_lineage_id"])
        op.add_column("links", sa.Column("first_date", sa.Date(), nullable=True))
        op.add_column("links", sa.Column("last_date", sa.Date(), nullable=True))
    true = "true" if op.get_context().dialect.name == "postgresql" else "1"
    # One row per (text, span, lineage) and run of consecutive English editions that matched it
    # (the editions' places minus the rows' ranks is constant along a run), numbered as in the
    # run's newest edition.
    key = 'source_type, source_id, source_language, matched, start, "end", lineage'
    op.execute(
        "WITH places AS (SELECT id, effective_date, row_number() OVER "
        "(ORDER BY effective_date, id) AS place FROM editions "
        "WHERE kind = 'comprules' AND language = 'en'), "
        "found AS (SELECT links.source_type, links.source_id, links.source_language, "
        'links.target, links.matched, links.start, links."end", rules.lineage_id AS lineage, '
        "places.place, places.effective_date FROM links "
        "JOIN rules ON rules.id = links.target_rule_id "
        "JOIN places ON places.id = links.target_edition_id "
        f"WHERE {_COLLAPSED} AND rules.lineage_id IS NOT NULL), "
        f"islands AS (SELECT *, place - dense_rank() OVER (PARTITION BY {key} ORDER BY place) "
        "AS island FROM found), "
        f"runs AS (SELECT *, first_value(target) OVER (PARTITION BY {key}, island "
        "ORDER BY place DESC) AS newest FROM islands) "
        "INSERT INTO links (source_type, source_id, source_language, target, kind, matched, "
        'start, "end", resolved, target_lineage_id, first_date, last_date) '
        f"SELECT source_type, source_id, source_language, min(newest), 'term', matched, start, "
        f'"end", {true}, lineage, min(effective_date), max(effective_date) FROM runs '
        f"GROUP BY {key}, island ORDER BY source_type, source_id, source_language, matched, "
        'start, "end", lineage, min(effective_date)'
    )
    op.execute(
        f"DELETE FROM links WHERE {_COLLAPSED} AND links.target_rule_id IN "
        "(SELECT rules.id FROM rules WHERE rules.lineage_id IS NOT NULL)"
    )


def downgrade() -> None:
    """Expand each lineage row into one row per English edition holding it, drop the column."""
    op.execute(
        "INSERT INTO links (source_type, source_id, source_language, target, target_edition_id, "
        'target_rule_id, kind, matched, start, "end", resolved) '
        "SELECT links.source_type, links.source_id, links.source_language, rules.number, "
        'rules.edition_id, rules.id, links.kind, links.matched, links.start, links."end", '
        "links.resolved FROM links JOIN rules ON rules.lineage_id = links.target_lineage_id "
        "JOIN editions ON editions.id = rules.edition_id "
        "WHERE editions.kind = 'comprules' AND editions.language = 'en' "
        "AND editions.effective_date BETWEEN links.first_date AND links.last_date"
    )
    op.execute("DELETE FROM links WHERE target_lineage_id IS NOT NULL")
    op.drop_index("ix_links_target_lineage_id", table_name="links")
    with op.batch_alter_table("links") as batch:
        batch.drop_column("target_lineage_id")
        batch.drop_column("first_date")
        batch.drop_column("last_date")

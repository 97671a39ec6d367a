"""The nouns of the knowledge base as SQLAlchemy 2.0 typed models.

Ownership decides what a re-ingest deletes. Rows *owned* by a document (rules, rule texts,
examples, glossary entries, printings, rulings-page links) carry its ``document_id`` with
``ON DELETE CASCADE``; rows *shared* by documents (cards, clarifications and their texts) are
content-addressed by a unique key and removed only when nothing refers to them any more.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, column_property, mapped_column, relationship

from kb.langs import fold

LANG = String(8)


def fold_row_name(context: Any) -> str:
    """The row's name folded (:func:`kb.langs.fold`), the default of ``folded_name`` columns.

    ``kb card`` finds a name typed in any case, with or without accents, by one indexed look-up
    of these (migration 0009) instead of folding every name of the knowledge base per lookup.
    The card loader sets them itself; this default covers any other insert.
    """
    return fold(context.get_current_parameters()["name"])


class Base(DeclarativeBase):
    """Declarative base of every kb table."""


class Document(Base):
    """A corpus file: where it is, what it held (sha256) and whether it loaded."""

    __tablename__ = "documents"

    id: Mapped[int] = mapped_column(primary_key=True)
    path: Mapped[str] = mapped_column(String(1024), unique=True)
    sha256: Mapped[str] = mapped_column(String(64))
    format: Mapped[str | None] = mapped_column(String(32))
    language: Mapped[str | None] = mapped_column(LANG)
    status: Mapped[str] = mapped_column(String(16))  # loaded | failed
    error: Mapped[str | None] = mapped_column(Text)
    error_line: Mapped[int | None] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer, default=0)
    # How the file's bytes were read: utf-8, utf-8-sig, utf-16-le, utf-16-be, cp1252, or the
    # compression around an MTGJSON file (xz+utf-8); None for a document that never decoded.
    encoding: Mapped[str | None] = mapped_column(String(32))
    # The file's size, mtime, ctime and inode when its sha256 was taken (kb.ingest.file_stat):
    # a rerun that finds them unchanged skips reading the file. None: unknown or too recent.
    file_stat: Mapped[str | None] = mapped_column(String(96))
    # kb.corpus.PARSER_VERSIONS[format] of the code that made the rows; another number (or None:
    # made before versions were kept) means the next ingest parses the unchanged file again.
    parser_version: Mapped[int | None] = mapped_column(Integer)

    warnings: Mapped[list[IngestWarning]] = relationship(
        cascade="all, delete-orphan", passive_deletes=True, order_by="IngestWarning.position"
    )


class IngestWarning(Base):
    """A defect inside a document that loaded anyway: where, what, and what kb did about it."""

    __tablename__ = "ingest_warnings"

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(Integer, default=0)
    line: Mapped[int] = mapped_column(Integer, default=0)  # 0: no line (a JSON record)
    kind: Mapped[str] = mapped_column(String(48))
    message: Mapped[str] = mapped_column(Text)


class Edition(Base):
    """A set of rule texts in one language.

    ``kind='comprules'`` is one official Comprehensive Rules document with its effective date;
    ``kind='translations'`` gathers the rule texts of one language that come from rule pages or
    translators (each text says which English edition it follows).
    """

    __tablename__ = "editions"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)  # en:2026-01-16, es:translations
    kind: Mapped[str] = mapped_column(String(16))
    language: Mapped[str] = mapped_column(LANG)
    effective_date: Mapped[dt.date | None] = mapped_column(Date)
    document_id: Mapped[int | None] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )

    # The English edition this one's rule lineages were aligned with (its predecessor when they
    # were computed): when that edition goes, or another comes between, they are realigned.
    # (A plain id, no foreign key: a stale one just means "realign".)
    lineage_after_id: Mapped[int | None] = mapped_column(Integer)

    rules: Mapped[list[Rule]] = relationship(
        back_populates="edition",
        cascade="all, delete-orphan",
        passive_deletes=True,
        foreign_keys="Rule.edition_id",
    )


class Rule(Base):
    """A numbered node of one edition: part, chapter, rule or subrule. Unique per edition."""

    __tablename__ = "rules"
    __table_args__ = (UniqueConstraint("edition_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    edition_id: Mapped[int] = mapped_column(ForeignKey("editions.id", ondelete="CASCADE"))
    number: Mapped[str] = mapped_column(String(16), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    parent_number: Mapped[str | None] = mapped_column(String(16))
    sort_key: Mapped[str] = mapped_column(String(32))
    document_id: Mapped[int | None] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )
    # The same rule followed across English editions and renumbering (kb.versions.lineage).
    lineage_id: Mapped[int | None] = mapped_column(ForeignKey("lineages.id"), index=True)

    edition: Mapped[Edition] = relationship(back_populates="rules")
    texts: Mapped[list[RuleText]] = relationship(
        back_populates="rule", cascade="all, delete-orphan", passive_deletes=True
    )


class Lineage(Base):
    """One rule followed through the English editions, whatever its number in each.

    Computed when an edition loads, by the content alignment that ``kb diff`` and ``kb trace``
    use (kb.versions.align): each edition's rule points to its lineage, so Vote is one lineage
    that is 701.32 in 2021 and 701.38 today.
    """

    __tablename__ = "lineages"

    id: Mapped[int] = mapped_column(primary_key=True)


class RuleBody(Base):
    """A rule text's body, stored once however many editions and rules carry it (migration 0007).

    Content-addressed by the sha256 of the text (kb.bodies): 110 English editions hold ~192k rule
    lines but only ~11k distinct bodies. Shared rows: removed only when no rule text uses them.
    """

    __tablename__ = "rule_bodies"

    id: Mapped[int] = mapped_column(primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    text: Mapped[str] = mapped_column(Text)


class RuleText(Base):
    """A rule's title and body in one language, with provenance and the English edition followed.

    The body lives in ``rule_bodies`` (stored once); ``RuleText.body`` reads it like a column
    (``select(RuleText.body)`` works) and is written through ``body_id`` (kb.bodies.body_ids).
    """

    __tablename__ = "rule_texts"
    __table_args__ = (UniqueConstraint("rule_id", "language", "provenance"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    rule_id: Mapped[int] = mapped_column(ForeignKey("rules.id", ondelete="CASCADE"), index=True)
    language: Mapped[str] = mapped_column(LANG)
    title: Mapped[str] = mapped_column(Text, default="")
    # Nullable only because SQLite cannot add a NOT NULL column in place (migration 0007);
    # every writer sets it.
    body_id: Mapped[int | None] = mapped_column(ForeignKey("rule_bodies.id"), index=True)
    body: Mapped[str] = column_property(
        select(RuleBody.text)
        .where(RuleBody.id == body_id)
        .correlate_except(RuleBody)
        .scalar_subquery()
    )
    provenance: Mapped[str] = mapped_column(String(16))  # official | machine | community
    # For a translation: the English edition it was made from, and whether that is an
    # assumption (a rule page names none: it is taken to follow the newest English edition).
    follows_edition_id: Mapped[int | None] = mapped_column(
        ForeignKey("editions.id", ondelete="SET NULL")
    )
    follows_assumed: Mapped[bool] = mapped_column(Boolean, default=False)
    # The text follows an English edition newer than follows_edition, the newest loaded: its
    # rule page's sibling list names rules that edition lacks (seed 004 lists 701.69-701.71).
    follows_newer: Mapped[bool] = mapped_column(Boolean, default=False)
    document_id: Mapped[int | None] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )
    line: Mapped[int] = mapped_column(Integer, default=0)

    rule: Mapped[Rule] = relationship(back_populates="texts")
    follows_edition: Mapped[Edition | None] = relationship(foreign_keys=[follows_edition_id])
    examples: Mapped[list[Example]] = relationship(
        back_populates="rule_text",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="Example.position",
    )


class Example(Base):
    """An ``Example:`` paragraph of a rule text."""

    __tablename__ = "examples"

    id: Mapped[int] = mapped_column(primary_key=True)
    rule_text_id: Mapped[int] = mapped_column(
        ForeignKey("rule_texts.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)

    rule_text: Mapped[RuleText] = relationship(back_populates="examples")


class GlossaryEntry(Base):
    """A glossary term of one edition in one language."""

    __tablename__ = "glossary_entries"
    __table_args__ = (UniqueConstraint("edition_id", "language", "term"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    edition_id: Mapped[int] = mapped_column(ForeignKey("editions.id", ondelete="CASCADE"))
    language: Mapped[str] = mapped_column(LANG)
    term: Mapped[str] = mapped_column(String(256))
    definition: Mapped[str] = mapped_column(Text)
    senses: Mapped[list[Any]] = mapped_column(JSON, default=list)
    redirect: Mapped[str | None] = mapped_column(String(256))
    obsolete: Mapped[bool] = mapped_column(Boolean, default=False)
    provenance: Mapped[str] = mapped_column(String(16), default="official")
    position: Mapped[int] = mapped_column(Integer, default=0)
    document_id: Mapped[int | None] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )


class Card(Base):
    """A card identity: an MTGJSON oracle id, or a rulings page's id until it is recognised."""

    __tablename__ = "cards"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)  # oracle id, or the page id
    oracle_id: Mapped[str | None] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(256), index=True)
    folded_name: Mapped[str | None] = mapped_column(Text, index=True, default=fold_row_name)
    mana_value: Mapped[float | None] = mapped_column(Float)
    layout: Mapped[str | None] = mapped_column(String(32))
    faces: Mapped[list[Any]] = mapped_column(JSON, default=list)
    keywords: Mapped[list[Any]] = mapped_column(JSON, default=list)  # MTGJSON keywords, sorted
    # Card-page fields (migration 0005): English mana cost, per-face details, MTGJSON legalities.
    mana_cost: Mapped[str | None] = mapped_column(String(128))
    face_details: Mapped[list[Any] | None] = mapped_column(JSON)
    legalities: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    localizations: Mapped[list[CardLocalization]] = relationship(
        back_populates="card", cascade="all, delete-orphan", passive_deletes=True
    )
    printings: Mapped[list[Printing]] = relationship(
        back_populates="card", cascade="all, delete-orphan", passive_deletes=True
    )


class CardLocalization(Base):
    """A card's name, type line and text in one language."""

    __tablename__ = "card_localizations"
    __table_args__ = (UniqueConstraint("card_id", "language"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"))
    language: Mapped[str] = mapped_column(LANG)
    name: Mapped[str] = mapped_column(String(256), index=True)
    folded_name: Mapped[str | None] = mapped_column(Text, index=True, default=fold_row_name)
    type_line: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text, default="")
    provenance: Mapped[str] = mapped_column(String(16), default="official")

    card: Mapped[Card] = relationship(back_populates="localizations")


class Printing(Base):
    """One printing of a card in a set file."""

    __tablename__ = "printings"

    id: Mapped[int] = mapped_column(primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"), index=True)
    set_code: Mapped[str] = mapped_column(String(16))
    number: Mapped[str] = mapped_column(String(16))
    uuid: Mapped[str] = mapped_column(String(64))
    rarity: Mapped[str] = mapped_column(String(16), default="")
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )

    card: Mapped[Card] = relationship(back_populates="printings")


class CardSet(Base):
    """A set as an MTGJSON set file names it, so printings can show and link their set."""

    __tablename__ = "card_sets"
    __table_args__ = (UniqueConstraint("code", "document_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), index=True)
    name: Mapped[str] = mapped_column(String(256))
    release_date: Mapped[dt.date | None] = mapped_column(Date)
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True
    )


class Clarification(Base):
    """A ruling, stored once however many cards carry it (keyed by date + normalised text)."""

    __tablename__ = "clarifications"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    date: Mapped[dt.date] = mapped_column(Date, index=True)
    source: Mapped[str] = mapped_column(String(32))

    texts: Mapped[list[ClarificationText]] = relationship(
        back_populates="clarification", cascade="all, delete-orphan", passive_deletes=True
    )


class ClarificationText(Base):
    """A ruling's text in one language, with its provenance."""

    __tablename__ = "clarification_texts"
    __table_args__ = (UniqueConstraint("clarification_id", "language", "provenance"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    clarification_id: Mapped[int] = mapped_column(
        ForeignKey("clarifications.id", ondelete="CASCADE"), index=True
    )
    language: Mapped[str] = mapped_column(LANG)
    text: Mapped[str] = mapped_column(Text)
    provenance: Mapped[str] = mapped_column(String(16))
    origin: Mapped[str] = mapped_column(String(32), default="")  # format that supplied it

    clarification: Mapped[Clarification] = relationship(back_populates="texts")


class CardClarification(Base):
    """That a document says a card carries a ruling (owned by that document)."""

    __tablename__ = "card_clarifications"
    # Garbage collection asks "does any card still carry this clarification?" per clarification:
    # without an index leading with clarification_id that is a scan of the table each time.
    __table_args__ = (Index("ix_card_clarifications_clarification_id", "clarification_id"),)

    card_id: Mapped[int] = mapped_column(
        ForeignKey("cards.id", ondelete="CASCADE"), primary_key=True
    )
    clarification_id: Mapped[int] = mapped_column(
        ForeignKey("clarifications.id", ondelete="CASCADE"), primary_key=True
    )
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, default=0)


class RulingsPage(Base):
    """A rulings page and the card it was recognised as (or its own card)."""

    __tablename__ = "rulings_pages"

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[str] = mapped_column(String(64), unique=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    # Indexed: garbage collection asks, per card, whether a page still names it.
    card_id: Mapped[int | None] = mapped_column(
        ForeignKey("cards.id", ondelete="SET NULL"), index=True
    )
    language: Mapped[str] = mapped_column(LANG)
    machine_notice: Mapped[bool] = mapped_column(Boolean, default=False)
    header: Mapped[str] = mapped_column(Text, default="")
    attributes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    recognised: Mapped[bool] = mapped_column(Boolean, default=False)
    match_score: Mapped[float | None] = mapped_column(Float)


class RuleReference(Base):
    """A rule number named by a rule page outside its own text (its sibling list)."""

    __tablename__ = "rule_references"

    id: Mapped[int] = mapped_column(primary_key=True)
    rule_id: Mapped[int] = mapped_column(ForeignKey("rules.id", ondelete="CASCADE"), index=True)
    target: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16), default="sibling")
    position: Mapped[int] = mapped_column(Integer, default=0)


class Link(Base):
    """A reference from a text to a rule number, explicit (``rule 701.54a``) or by term.

    Derived data: the link stage rebuilds it. ``source_type`` names the table of ``source_id``
    (rule_text, example, glossary, clarification_text, card_text). A resolved term link from a
    ruling or a card text points to a rule lineage instead of one edition's rule
    (``target_lineage_id`` set, ``target_edition_id`` empty; migration 0008): it holds in the
    English editions from ``first_date`` to ``last_date`` (effective dates) under each one's
    number for that lineage (kb.links.view); ``target`` keeps the number of the last of them.
    """

    __tablename__ = "links"
    __table_args__ = (
        Index("ix_links_source", "source_type", "source_id"),
        Index("ix_links_target", "target_edition_id", "target"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    source_type: Mapped[str] = mapped_column(String(24))
    source_id: Mapped[int] = mapped_column(Integer)
    source_language: Mapped[str] = mapped_column(LANG)
    target: Mapped[str] = mapped_column(String(16))
    target_edition_id: Mapped[int | None] = mapped_column(
        ForeignKey("editions.id", ondelete="CASCADE")
    )
    target_rule_id: Mapped[int | None] = mapped_column(
        ForeignKey("rules.id", ondelete="SET NULL"), index=True
    )
    kind: Mapped[str] = mapped_column(String(16))  # explicit | term | sibling
    # No foreign key: lineages are renamed and pruned when editions load, before the relink
    # that follows replaces these rows (a row naming a pruned lineage matches no rule).
    target_lineage_id: Mapped[int | None] = mapped_column(Integer, index=True)
    first_date: Mapped[dt.date | None] = mapped_column(Date)
    last_date: Mapped[dt.date | None] = mapped_column(Date)
    matched: Mapped[str] = mapped_column(Text, default="")
    start: Mapped[int] = mapped_column(Integer, default=0)
    end: Mapped[int] = mapped_column(Integer, default=0)
    resolved: Mapped[bool] = mapped_column(Boolean, default=False)


class DerivedState(Base):
    """What a derived stage (links, search index) was last brought in step with.

    ``inputs`` is a digest of the loaded documents (kb.db.documents_digest). A run killed after
    its documents committed but before the links or the index caught up leaves the old digest
    behind, so the next run finishes the job even though no file changed.
    """

    __tablename__ = "derived_state"

    stage: Mapped[str] = mapped_column(String(32), primary_key=True)
    inputs: Mapped[str] = mapped_column(String(64))


class StoredCounts(Base):
    """The knowledge base's counts (kb.stats.stats_view) as the last completed ingest left them.

    Counting every edition, text and translation status at the whole history costs about a
    second, which a no-op re-ingest would spend only to print the same summary again. The ingest
    keeps the counts here with a digest of what they were counted from (every document's path,
    content, status and parser version, and the counting code); a reader trusts ``payload``
    (JSON) only while that digest still holds, and writers that change counted rows without a
    document (``kb import po``) delete the row. A cache: an empty table only means counting again.
    """

    __tablename__ = "stored_counts"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    inputs: Mapped[str] = mapped_column(String(64))
    payload: Mapped[str] = mapped_column(Text)


class LinkWalkState(Base):
    """What the term-link walk knew after the newest English edition it walked (kb.links.walk).

    Matching every ruling and card text cold costs far more than stepping from one edition to
    the next, so a link run keeps its walk's term spans and outputs here, and the next run that
    links a new edition starts from them instead of matching every text again. ``inputs`` is a
    digest of the texts walked (kb.links.walk_state): any change of them makes the row unusable.
    ``data`` holds only plain values (no pickled classes), so reading it runs no code. The rows
    named ``vocabulary:<edition id>`` keep each edition's English term vocabulary the same way
    (kb.links.vocabularies).
    """

    __tablename__ = "link_walk_state"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    inputs: Mapped[str] = mapped_column(String(64))
    edition_date: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class CardTerm(Base):
    """A keyword's French or Spanish term, learned from Wizards' card translations (kb.terminology).

    Derived data, rebuilt whenever card data changes: ``cards`` of ``keyword_cards`` carry the
    term where the English names the keyword; ``examples`` are two (English, translated) card
    names; ``alternatives`` are competing n-grams for a person to review (``kb terms --check``).
    """

    __tablename__ = "card_terms"
    __table_args__ = (UniqueConstraint("keyword", "language"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    keyword: Mapped[str] = mapped_column(String(64))
    language: Mapped[str] = mapped_column(LANG)
    rule: Mapped[str | None] = mapped_column(String(16), index=True)  # 702.2, when a title matches
    term: Mapped[str] = mapped_column(String(128))  # normalised: lower case, single spaces
    label: Mapped[str] = mapped_column(String(128))  # as printed mid-sentence
    cards: Mapped[int] = mapped_column(Integer)
    keyword_cards: Mapped[int] = mapped_column(Integer)
    confidence: Mapped[float] = mapped_column(Float)
    source: Mapped[str] = mapped_column(String(16))  # lines | reminders | cards
    reminder_cards: Mapped[int] = mapped_column(Integer, default=0)
    examples: Mapped[list[Any]] = mapped_column(JSON, default=list)
    alternatives: Mapped[list[Any]] = mapped_column(JSON, default=list)

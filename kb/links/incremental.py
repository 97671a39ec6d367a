"""Relink only what changed card data touched: one set file re-ingested, one rulings page added.

Links from card data are the term links (and explicit references) of clarification texts and of
cards' rules texts. A changed set or rulings page alters the texts of its own cards and
clarifications, and the card names masked in every clarification those cards carry; nothing
else. So the link stage notes, before each such document's old rows go, which cards and
clarifications it held (and their text ids), adds what it holds afterwards and the pages that
recognition merged meanwhile, and rebuilds the links of exactly those texts in every English
edition: one committed edition at a time, as a full rebuild would leave them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from kb.bulk import chunks, insert_many
from kb.db import documents_digest
from kb.models import (
    CardClarification,
    CardLocalization,
    ClarificationText,
    DerivedState,
    Document,
    Link,
    Printing,
    RulingsPage,
)
from kb.versions import english_editions

from . import build
from .build import _EDITION_STAGE, _term_sources, edition_rows
from .lineage_rows import LineageLinks
from .walk import TermWalk

log = logging.getLogger(__name__)

CARD_FORMATS = frozenset({"mtgjson", "rulings_page"})


@dataclass
class CardChanges:
    """What the card documents of one ingest held before and after (ids of owners and texts)."""

    cards: set[int] = field(default_factory=set)
    clarifications: set[int] = field(default_factory=set)
    clarification_texts: set[int] = field(default_factory=set)
    card_texts: set[int] = field(default_factory=set)
    other_formats: bool = False  # a rules document changed too: relink everything
    recognised_before: set[int] = field(default_factory=set)

    def start(self, session: Session) -> None:
        """Note the rulings pages recognised before the run (recognition may merge others)."""
        self.recognised_before = set(
            session.scalars(select(RulingsPage.id).where(RulingsPage.recognised.is_(True)))
        )

    def before_load(self, session: Session, path: str, fmt: str) -> None:
        """Hook of kb.ingest.ingest_paths: note what a document held before it is replaced."""
        if fmt not in CARD_FORMATS:
            self.other_formats = True
            return
        doc_id = session.scalar(select(Document.id).where(Document.path == path))
        if doc_id is not None:
            self.note_documents(session, [doc_id])

    def note_documents(self, session: Session, doc_ids: list[int]) -> None:
        """Add the cards and clarifications documents hold, with their texts' ids."""
        clarifications, cards = set(), set()
        for chunk in chunks(sorted(doc_ids)):
            for clar_id, card_id in session.execute(
                select(CardClarification.clarification_id, CardClarification.card_id).where(
                    CardClarification.document_id.in_(chunk)
                )
            ):
                clarifications.add(clar_id)
                cards.add(card_id)
            cards.update(
                session.scalars(select(Printing.card_id).where(Printing.document_id.in_(chunk)))
            )
            cards.update(
                c
                for c in session.scalars(
                    select(RulingsPage.card_id).where(RulingsPage.document_id.in_(chunk))
                )
                if c is not None
            )
        self._add(session, cards, clarifications)

    def _add(self, session: Session, cards: set[int], clarifications: set[int]) -> None:
        self.cards |= cards
        self.clarifications |= clarifications
        for chunk in chunks(sorted(clarifications)):
            self.clarification_texts.update(
                session.scalars(
                    select(ClarificationText.id).where(
                        ClarificationText.clarification_id.in_(chunk)
                    )
                )
            )
        for chunk in chunks(sorted(cards)):
            self.card_texts.update(
                session.scalars(
                    select(CardLocalization.id).where(CardLocalization.card_id.in_(chunk))
                )
            )

    def finish(self, session: Session, loaded: list[str]) -> None:
        """Add what the loaded documents hold now, newly recognised pages, and masked names."""
        doc_ids = list(session.scalars(select(Document.id).where(Document.path.in_(loaded))))
        self.note_documents(session, doc_ids)
        newly = set(
            session.scalars(
                select(RulingsPage.document_id).where(
                    RulingsPage.recognised.is_(True),
                    RulingsPage.id.not_in(self.recognised_before),
                )
            )
        )
        if newly:
            self.note_documents(session, sorted(newly))
        # Every clarification a touched card carries: its masked card names may have changed.
        carried = set()
        for chunk in chunks(sorted(self.cards)):
            carried.update(
                session.scalars(
                    select(CardClarification.clarification_id).where(
                        CardClarification.card_id.in_(chunk)
                    )
                )
            )
        self._add(session, set(), carried - self.clarifications)


def relink_card_data(session: Session, changes: CardChanges) -> dict[str, Any]:
    """Rebuild, edition by edition (committed and recorded), the links of the touched texts."""
    digest = documents_digest(session)
    sources = _term_sources(session, changes.clarifications, changes.cards)
    stale = {
        "clarification_text": changes.clarification_texts
        | {s.source_id for s in sources if s.source_type == "clarification_text"},
        "card_text": changes.card_texts
        | {s.source_id for s in sources if s.source_type == "card_text"},
    }
    total = 0
    editions = english_editions(session)
    walk = TermWalk(sources)  # matched once, looked at again only where an edition differs
    shared = LineageLinks.of(session)  # their lineage rows, written once every edition is matched
    for edition in editions:
        for source_type, ids in stale.items():
            for chunk in chunks(sorted(ids)):
                session.execute(
                    delete(Link).where(
                        Link.target_edition_id == edition.id,
                        Link.source_type == source_type,
                        Link.source_id.in_(chunk),
                    )
                )
        rows = edition_rows(session, edition, shared)
        if sources:
            build._term_links(session, edition, rows, sources, walk)
        insert_many(session, Link, rows.rows)
        total += len(rows.rows)
        session.merge(DerivedState(stage=f"{_EDITION_STAGE}{edition.id}", inputs=digest))
        session.commit()
    walk.finish()
    # An interruption before this leaves the stage behind: the full rebuild that follows
    # makes every lineage row again.
    total += shared.replace_sources(session, stale)
    session.execute(delete(DerivedState).where(DerivedState.stage.startswith(_EDITION_STAGE)))
    log.info(
        "relinked %d clarification(s) and %d card(s) in %d edition(s): %d links",
        len(changes.clarifications),
        len(changes.cards),
        len(editions),
        total,
    )
    return {
        "editions": [e.effective_date.isoformat() if e.effective_date else e.key for e in editions],
        "links": total,
        "clarifications": len(changes.clarifications),
        "cards": len(changes.cards),
    }

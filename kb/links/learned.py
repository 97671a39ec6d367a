"""French and Spanish keyword names for term links, learned from Wizards' card translations.

:mod:`kb.terminology` learns how each keyword ability and action is printed on French and
Spanish cards ("contact mortel", "toque mortal") and stores it in ``card_terms``. This module
hands the confident terms to the French and Spanish link vocabularies as *concept* names (the
English keyword), like the thesaurus aliases: a name never carries a rule number, so it follows
the keyword's rule through every edition's renumbering.

Two kinds of keyword are left out, following the English matcher's own policy
(:data:`kb.links.thesaurus.GAME_NOUNS`, :data:`~kb.links.thesaurus.GENERAL_CONCEPTS`): game
objects and everyday actions (destroy, sacrifice, exile, tap, create) are linked in English
only where a text is about them, a judgement no French or Spanish wording check makes yet.

Links depend on the learned names, so their digest is recorded when links are built
(``derived_state`` stage ``learned-links``); :func:`relink_learned` relinks the French and
Spanish term links of every text when a relearning changed the names, and nothing else.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from kb.bulk import insert_many
from kb.models import CardTerm, DerivedState, Link
from kb.versions import english_editions

from .thesaurus import GAME_NOUNS, GENERAL_CONCEPTS
from .words import phrase_words

log = logging.getLogger(__name__)

LANGUAGES = ("fr", "es")
STAGE = "learned-links"  # not "links:…": those are the per-edition marks of a rebuild
# Terms at least this confident name their keyword in texts (kb.terminology's usable terms are
# 0.5; a link is shown to judges as the rule a text names, so it asks for a clearer association).
LINK_CONFIDENCE = 0.6
_POLICY = {phrase_words(c, "en") for c in GAME_NOUNS | GENERAL_CONCEPTS}


def learned_names(session: Session, language: str) -> dict[str, str]:
    """{learned term: English keyword} of a language, for the link vocabulary, sorted."""
    if language not in LANGUAGES:
        return {}
    rows = session.execute(
        select(CardTerm.term, CardTerm.keyword)
        .where(CardTerm.language == language, CardTerm.confidence >= LINK_CONFIDENCE)
        .order_by(CardTerm.term, CardTerm.keyword)
    ).all()
    names: dict[str, str] = {}
    for term, keyword in rows:
        if phrase_words(keyword, "en") in _POLICY or not phrase_words(term, language):
            continue
        names.setdefault(term, keyword)
    return names


def names_digest(session: Session) -> str:
    """Digest of the learned names every French and Spanish link was matched with."""
    digest = hashlib.sha256()
    for language in LANGUAGES:
        for term, keyword in learned_names(session, language).items():
            digest.update(f"{language}\0{term}\0{keyword}\n".encode())
    return digest.hexdigest()


def mark_learned(session: Session) -> None:
    """Record that the links were matched with the learned names stored now."""
    session.merge(DerivedState(stage=STAGE, inputs=names_digest(session)))


def learned_current(session: Session) -> bool:
    """Whether the links were matched with the learned names stored now."""
    state = session.get(DerivedState, STAGE)
    return state is not None and state.inputs == names_digest(session)


def relink_learned(session: Session, *, force: bool = False) -> dict[str, Any] | None:
    """Rebuild the French and Spanish term links of every text if the learned names changed.

    One committed transaction per English edition, then the new digest: a run killed half-way
    leaves the old digest, so the next one starts again. Explicit references and English links
    do not depend on the learned names and stay. None when nothing had to change.
    """
    if not force and learned_current(session):
        return None
    from .build import _term_sources, edition_rows, vocabularies
    from .lineage_rows import LineageLinks
    from .walk import TermWalk

    sources = [s for s in _term_sources(session) if s.language in LANGUAGES]
    walk = TermWalk(sources, explicit=False)  # each text matched once, carried edition to edition
    total = 0
    editions = english_editions(session)
    shared = LineageLinks.of(session)  # their lineage rows, replaced once every edition is matched
    for edition in editions:
        session.execute(
            delete(Link).where(
                Link.target_edition_id == edition.id,
                Link.kind == "term",
                Link.source_language.in_(LANGUAGES),
                Link.source_type.in_(("card_text", "clarification_text")),
            )
        )
        rows = edition_rows(session, edition, shared)
        walk.step(vocabularies(session, edition, LANGUAGES, walk.learned, walk.titles), rows)
        insert_many(session, Link, rows.rows)
        total += len(rows.rows)
        session.commit()
    walk.finish()
    total += shared.replace_languages(session, LANGUAGES)
    mark_learned(session)
    session.commit()
    log.info("relinked French and Spanish term links in %d edition(s): %d", len(editions), total)
    return {"editions": len(editions), "term": total, "texts": len(sources)}

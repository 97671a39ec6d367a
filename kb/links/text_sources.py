"""The texts term links start from: rulings and card rules texts, with the card names to mask."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.bulk import chunks
from kb.models import Card, CardClarification, CardLocalization, ClarificationText

from .implied import CardContext


def card_names(
    session: Session, clarifications: Collection[int] | None = None
) -> dict[int, list[str]]:
    """Per clarification (every one, or those given), the names (every language, every face)
    of the cards that carry it."""
    names: dict[int, set[str]] = defaultdict(set)
    by_name = select(CardClarification.clarification_id, Card.name, Card.faces).join(
        Card, Card.id == CardClarification.card_id
    )
    for clar_id, name, faces in _where(
        session, by_name, CardClarification.clarification_id, clarifications
    ):
        for value in [name, *(faces or [])]:
            names[clar_id].update(name_forms(value))
    localized = select(CardClarification.clarification_id, CardLocalization.name).join(
        CardLocalization, CardLocalization.card_id == CardClarification.card_id
    )
    for clar_id, name in _where(
        session, localized, CardClarification.clarification_id, clarifications
    ):
        names[clar_id].update(name_forms(name))
    return {k: sorted(v, key=lambda n: (-len(n), n)) for k, v in names.items()}


def _where(session: Session, query: Any, column: Any, ids: Collection[int] | None) -> list[Any]:
    """The query's rows: all, or those whose ``column`` is one of ``ids`` (in chunks)."""
    if ids is None:
        return list(session.execute(query).all())
    found: list[Any] = []
    for chunk in chunks(sorted(ids)):
        found.extend(session.execute(query.where(column.in_(chunk))).all())
    return found


def name_forms(name: str) -> list[str]:
    """A card name, its faces, and its short form ("Koll" for "Koll, the Forgemaster")."""
    forms = []
    for face in str(name).split(" // "):
        face = face.strip()
        if face:
            forms.append(face)
            if ", " in face:
                forms.append(face.split(", ")[0])
    return forms


@dataclass(frozen=True)
class _TermSource:
    """A text to match terms in: a clarification text or a card's rules text."""

    source_type: str  # clarification_text | card_text
    source_id: int
    owner: int  # the clarification or the card
    language: str
    text: str
    mask: tuple[str, ...]
    context: CardContext = field(default_factory=CardContext)


def _card_contexts(
    session: Session, clarifications: Collection[int] | None = None
) -> dict[int, CardContext]:
    """Per clarification (every one, or those given), the English rules texts of its cards."""
    texts: dict[int, set[str]] = defaultdict(set)
    query = select(CardClarification.clarification_id, CardLocalization.text).join(
        CardLocalization,
        (CardLocalization.card_id == CardClarification.card_id)
        & (CardLocalization.language == "en"),
    )
    for clar_id, text in _where(session, query, CardClarification.clarification_id, clarifications):
        if text:
            texts[clar_id].add(text)
    return {k: CardContext(tuple(sorted(v))) for k, v in texts.items()}


def _term_sources(
    session: Session,
    clarifications: Collection[int] | None = None,
    cards: Collection[int] | None = None,
) -> list[_TermSource]:
    """Every clarification text and every card text, with the card names to mask in each.

    ``clarifications`` and ``cards`` (given together): only the texts of these owners, the
    same sources in the same order as the full list keeps of them (a one-set relink).
    """
    scoped = clarifications is not None and cards is not None
    names = card_names(session, clarifications if scoped else None)
    contexts = _card_contexts(session, clarifications if scoped else None)
    texts = select(
        ClarificationText.id,
        ClarificationText.clarification_id,
        ClarificationText.language,
        ClarificationText.text,
    )
    rows = _where(
        session,
        texts,
        ClarificationText.clarification_id,
        clarifications if scoped else None,
    )
    sources = [
        _TermSource(
            "clarification_text",
            text_id,
            clar_id,
            language,
            text,
            tuple(names.get(clar_id, ())),
            contexts.get(clar_id, CardContext()),
        )
        for text_id, clar_id, language, text in sorted(rows, key=lambda r: r[0])
    ]
    own: dict[int, set[str]] = defaultdict(set)
    for card_id, name, faces in _where(
        session, select(Card.id, Card.name, Card.faces), Card.id, cards if scoped else None
    ):
        for value in [name, *(faces or [])]:
            own[card_id].update(name_forms(value))
    localized = _where(
        session,
        select(
            CardLocalization.id,
            CardLocalization.card_id,
            CardLocalization.language,
            CardLocalization.name,
            CardLocalization.text,
        ),
        CardLocalization.card_id,
        cards if scoped else None,
    )
    localized.sort(key=lambda r: r[0])
    for _, card_id, _, name, _ in localized:
        own[card_id].update(name_forms(name))
    sources.extend(
        _TermSource(
            "card_text",
            loc_id,
            card_id,
            language,
            text,
            tuple(sorted(own[card_id], key=lambda n: (-len(n), n))),
        )
        for loc_id, card_id, language, _, text in localized
        if text
    )
    return sources

"""The texts term links start from: rulings and card rules texts, with the card names to mask."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.models import Card, CardClarification, CardLocalization, ClarificationText

from .implied import CardContext


def card_names(session: Session) -> dict[int, list[str]]:
    """Per clarification, the names (every language, every face) of the cards that carry it."""
    names: dict[int, set[str]] = defaultdict(set)
    for clar_id, name, faces in session.execute(
        select(CardClarification.clarification_id, Card.name, Card.faces).join(
            Card, Card.id == CardClarification.card_id
        )
    ):
        for value in [name, *(faces or [])]:
            names[clar_id].update(name_forms(value))
    for clar_id, name in session.execute(
        select(CardClarification.clarification_id, CardLocalization.name).join(
            CardLocalization, CardLocalization.card_id == CardClarification.card_id
        )
    ):
        names[clar_id].update(name_forms(name))
    return {k: sorted(v, key=lambda n: (-len(n), n)) for k, v in names.items()}


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


def _card_contexts(session: Session) -> dict[int, CardContext]:
    """Per clarification, the English rules texts of the cards that carry it."""
    texts: dict[int, set[str]] = defaultdict(set)
    for clar_id, text in session.execute(
        select(CardClarification.clarification_id, CardLocalization.text).join(
            CardLocalization,
            (CardLocalization.card_id == CardClarification.card_id)
            & (CardLocalization.language == "en"),
        )
    ):
        if text:
            texts[clar_id].add(text)
    return {k: CardContext(tuple(sorted(v))) for k, v in texts.items()}


def _term_sources(session: Session) -> list[_TermSource]:
    """Every clarification text and every card text, with the card names to mask in each."""
    names = card_names(session)
    contexts = _card_contexts(session)
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
        for text_id, clar_id, language, text in session.execute(
            select(
                ClarificationText.id,
                ClarificationText.clarification_id,
                ClarificationText.language,
                ClarificationText.text,
            ).order_by(ClarificationText.id)
        ).all()
    ]
    own: dict[int, set[str]] = defaultdict(set)
    for card_id, name, faces in session.execute(select(Card.id, Card.name, Card.faces)):
        for value in [name, *(faces or [])]:
            own[card_id].update(name_forms(value))
    localized = session.execute(
        select(
            CardLocalization.id,
            CardLocalization.card_id,
            CardLocalization.language,
            CardLocalization.name,
            CardLocalization.text,
        ).order_by(CardLocalization.id)
    ).all()
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

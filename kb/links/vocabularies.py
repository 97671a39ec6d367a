"""The term vocabularies of an edition, read from the database (kb.links.terms builds them)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.models import Edition, GlossaryEntry, Rule, RuleText

from .learned import learned_names
from .terms import (
    GlossaryItem,
    RuleEntry,
    Vocabulary,
    english_vocabulary,
    translated_vocabulary,
)

__all__ = ["edition_vocabulary", "vocabularies"]


def edition_vocabulary(session: Session, edition: Edition) -> Vocabulary:
    """The English term vocabulary of one edition, from its rules and glossary."""
    rules = [
        RuleEntry(number, kind, title or "", body or "")
        for number, kind, title, body in session.execute(
            select(Rule.number, Rule.kind, RuleText.title, RuleText.body)
            .join(RuleText, RuleText.rule_id == Rule.id)
            .where(Rule.edition_id == edition.id, RuleText.language == "en")
            .order_by(Rule.sort_key)
        ).all()
    ]
    glossary = [
        GlossaryItem(term, definition, redirect, bool(obsolete))
        for term, definition, redirect, obsolete in session.execute(
            select(
                GlossaryEntry.term,
                GlossaryEntry.definition,
                GlossaryEntry.redirect,
                GlossaryEntry.obsolete,
            )
            .where(GlossaryEntry.edition_id == edition.id, GlossaryEntry.language == "en")
            .order_by(GlossaryEntry.position)
        ).all()
    ]
    return english_vocabulary(rules, glossary)


def vocabularies(
    session: Session,
    edition: Edition,
    languages: Iterable[str],
    learned: dict[str, dict[str, str]] | None = None,
) -> dict[str, Vocabulary]:
    """Each language's vocabulary for an edition (French and Spanish built on the English one).

    ``learned``: the learned names per language, kept there once read (a run over every
    edition reads them once).
    """
    learned = {} if learned is None else learned
    english = edition_vocabulary(session, edition)
    result = {"en": english}
    for language in sorted(set(languages) - {"en"}):
        titles = dict(
            session.execute(
                select(Rule.number, RuleText.title)
                .join(RuleText, RuleText.rule_id == Rule.id)
                .join(Edition, Edition.id == Rule.edition_id)
                .where(
                    Edition.kind == "translations",
                    RuleText.language == language,
                    RuleText.follows_edition_id == edition.id,
                    RuleText.title != "",
                )
            ).all()
        )
        if language not in learned:
            learned[language] = learned_names(session, language)
        result[language] = translated_vocabulary(language, english, titles, learned[language])
    return result

"""What an update changed: edition diffs and newly stale translations, new sets and rulings.

The edition side only calls the versions stage (``diff_editions``, ``stale_translations``); the
card side compares two snapshots of the database taken around the ingest, so it reports what
the knowledge base really gained whatever the card reader did.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.langs import LANGS
from kb.models import Card, CardClarification, Clarification, ClarificationText, Printing

SHOWN = 40  # items listed per kind in a summary (the counts are always whole)


@dataclass
class CardSnapshot:
    """Set codes and (card, date, text hash) of the English rulings, before an ingest."""

    sets: set[str] = field(default_factory=set)
    rulings: dict[tuple[str, str], set[str]] = field(default_factory=dict)  # (card, date): hashes


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _rulings(session: Session) -> Any:
    """(card key, card name, ruling date, English text) rows, streamed."""
    return session.execute(
        select(Card.key, Card.name, Clarification.date, ClarificationText.text)
        .join(CardClarification, CardClarification.card_id == Card.id)
        .join(Clarification, Clarification.id == CardClarification.clarification_id)
        .join(ClarificationText, ClarificationText.clarification_id == Clarification.id)
        .where(ClarificationText.language == "en")
        .order_by(Card.name, Card.key, Clarification.date, ClarificationText.text)
        .execution_options(yield_per=2000)
    )


def card_snapshot(session: Session) -> CardSnapshot:
    """Remember the set codes and rulings loaded now, to compare after the ingest."""
    snapshot = CardSnapshot(set(session.scalars(select(Printing.set_code).distinct())))
    for key, _name, date, text in _rulings(session):
        snapshot.rulings.setdefault((key, date.isoformat()), set()).add(_hash(text))
    return snapshot


def card_changes(session: Session, before: CardSnapshot) -> dict[str, Any]:
    """New sets, and rulings that are new or changed (a card's ruling of a date reworded)."""
    sets = sorted(set(session.scalars(select(Printing.set_code).distinct())) - before.sets)
    new: list[dict[str, str]] = []
    changed: list[dict[str, str]] = []
    for key, name, date, text in _rulings(session):
        old = before.rulings.get((key, date.isoformat()))
        if old is not None and _hash(text) in old:
            continue
        item = {"card": name, "date": date.isoformat(), "text": text}
        (changed if old else new).append(item)
    return {
        "new_sets": sets,
        "new_rulings": new,
        "changed_rulings": changed,
        "summary": {
            "new_sets": len(sets),
            "new_rulings": len(new),
            "changed_rulings": len(changed),
        },
    }


def stale_keys(session: Session, edition: Any) -> dict[str, set[tuple[Any, ...]]]:
    """Per translated language, which translations are stale against an edition."""
    from kb.versions import stale_translations

    return {
        lang: {
            (item["translated_number"], item["follows"], item["provenance"])
            for item in stale_translations(session, lang, edition)
        }
        for lang in LANGS
        if lang != "en"
    }


def edition_changes(
    session: Session,
    previous: str | None,
    new: str,
    stale_before: dict[str, set[tuple[Any, ...]]],
) -> dict[str, Any]:
    """The ``kb diff`` of the new edition against the previous one, and what it made stale."""
    from kb.versions import diff_editions, stale_translations

    diff = diff_editions(session, previous, new) if previous and previous != new else None
    stale: dict[str, Any] = {}
    for lang in LANGS:
        if lang == "en":
            continue
        items = stale_translations(session, lang, new)
        fresh = [
            item
            for item in items
            if (item["translated_number"], item["follows"], item["provenance"])
            not in stale_before.get(lang, set())
        ]
        stale[lang] = {"stale": len(items), "newly_stale": fresh}
    return {"previous": previous, "edition": new, "diff": diff, "stale": stale}


def changes_since(session: Session, since: dt.date) -> list[dict[str, Any]]:
    """Every loaded English edition effective after ``since``, diffed against the one before."""
    from kb.versions import diff_editions, edition_label, english_editions

    editions = [e for e in english_editions(session) if e.effective_date]
    result = []
    for index, edition in enumerate(editions):
        if edition.effective_date <= since:
            continue
        previous = editions[index - 1] if index else None
        entry: dict[str, Any] = {"edition": edition_label(edition), "previous": None}
        if previous is not None:
            diff = diff_editions(session, previous, edition)
            entry.update(
                previous=diff["old"],
                summary=diff["summary"],
                added=[r["number"] for r in diff["added"]],
                removed=[r["number"] for r in diff["removed"]],
                renumbered=[[r["old_number"], r["new_number"]] for r in diff["renumbered"]],
                changed=[c["new_number"] for c in diff["changed"]],
            )
        result.append(entry)
    return result

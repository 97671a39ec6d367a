"""Which translation of a rule an export shows, and whether it is current, stale or missing.

The version stage chooses and judges the translation of every rule and subrule
(``preferred_translations``: human before machine, current before stale), so a sheet, a PO
catalog, ``kb rule`` and the site always show the same text. Parts and chapters, which it does
not judge, are compared here by their English titles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.export import stages
from kb.lookup import translations_for
from kb.models import Edition, Rule, RuleText


@dataclass(frozen=True)
class Translation:
    """The text an export shows for one rule number in one language, and its state."""

    number: str
    language: str
    status: str  # current | stale | missing
    provenance: str | None = None
    title: str = ""
    body: str = ""
    examples: tuple[str, ...] = ()
    follows: str | None = None  # ISO date of the English edition it was made from
    assumed: bool = False


def _follows_iso(text: RuleText) -> str | None:
    edition = text.follows_edition
    return edition.effective_date.isoformat() if edition and edition.effective_date else None


def _make(number: str, language: str, status: str, text: RuleText) -> Translation:
    return Translation(
        number=number,
        language=language,
        status=status,
        provenance=text.provenance,
        title=text.title,
        body=text.body,
        examples=tuple(e.text for e in text.examples),
        follows=_follows_iso(text),
        assumed=text.follows_assumed,
    )


def _judge_heading(
    session: Session, edition: Edition, number: str, best: RuleText | None
) -> dict | None:
    """Parts and chapters, which the version stage does not judge: compare their English title."""
    if best is None:
        return None
    state = "current"
    if best.follows_edition_id not in (None, edition.id):
        titles = dict(
            session.execute(
                select(Rule.edition_id, RuleText.title)
                .join(RuleText, RuleText.rule_id == Rule.id)
                .where(
                    Rule.number == number,
                    RuleText.language == "en",
                    Rule.edition_id.in_([best.follows_edition_id, edition.id]),
                )
            ).all()
        )
        if titles.get(best.follows_edition_id) != titles.get(edition.id):
            state = "stale"
    return {"status": state, "provenance": best.provenance, "follows": _follows_iso(best)}


def translations(
    session: Session, language: str, edition: Edition, numbers: Iterable[str]
) -> dict[str, Translation]:
    """The translation to show of each number of an edition in a language (English: itself)."""
    wanted = list(numbers)
    if language == "en":
        raise ValueError("English is the source: read the edition's own texts")
    chosen = stages.preferred_translations(session, language, edition)
    headings = translations_for(session, [n for n in wanted if n not in chosen], language)
    out: dict[str, Translation] = {}
    for number in wanted:
        item = chosen.get(number)
        if item is None:  # a part or chapter
            found = headings.get(number)
            judged = _judge_heading(session, edition, number, found)
            out[number] = (
                _make(number, language, judged["status"], found)
                if judged
                else Translation(number=number, language=language, status="missing")
            )
        elif item["status"] == "missing":
            out[number] = Translation(number=number, language=language, status="missing")
        else:
            out[number] = Translation(
                number=number,
                language=language,
                status=item["status"],
                provenance=item["provenance"],
                title=item["title"],
                body=item["body"],
                examples=tuple(item["examples"]),
                follows=item["follows"],
                assumed=item["assumed"],
            )
    return out

"""Which translation of a rule an export shows, and whether it is current, stale or missing.

The version stage judges each number (``translation_status``); when it finds the preferred text
stale, a *human* translation made from the edition being exported wins over it: a translator's
``community`` text imported for today's English is more trustworthy than an official text that
describes an older rule. A current machine translation never displaces a stale human one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from kb.export import stages
from kb.models import Edition, Rule, RuleText

PROVENANCE_ORDER = {"official": 0, "community": 1, "machine": 2}
HUMAN = ("official", "community")


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


def _candidates(
    session: Session, language: str, numbers: Iterable[str]
) -> dict[str, list[RuleText]]:
    wanted = sorted(set(numbers))
    found: dict[str, list[RuleText]] = {}
    for start in range(0, len(wanted), 500):
        rows = session.scalars(
            select(RuleText)
            .join(Rule, Rule.id == RuleText.rule_id)
            .join(Edition, Edition.id == Rule.edition_id)
            .where(
                Edition.kind == "translations",
                RuleText.language == language,
                Rule.number.in_(wanted[start : start + 500]),
            )
            .options(
                selectinload(RuleText.examples),
                selectinload(RuleText.rule),
                selectinload(RuleText.follows_edition),
            )
        ).all()
        for text in rows:
            found.setdefault(text.rule.number, []).append(text)
    for texts in found.values():
        texts.sort(key=lambda t: (PROVENANCE_ORDER.get(t.provenance, 9), -_follows_ord(t), t.id))
    return found


def _follows_ord(text: RuleText) -> int:
    edition = text.follows_edition
    return edition.effective_date.toordinal() if edition and edition.effective_date else 0


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


def choose(
    number: str,
    language: str,
    edition: Edition,
    judged: dict | None,
    candidates: list[RuleText],
) -> Translation:
    """Pick the text to show for one number from the version stage's verdict and the texts."""
    state = (judged or {}).get("status", "missing")
    if state == "missing" or not candidates:
        return Translation(number=number, language=language, status="missing")
    provenance = (judged or {}).get("provenance")
    follows = (judged or {}).get("follows")
    same = [t for t in candidates if t.provenance == provenance] or candidates
    chosen = next((t for t in same if _follows_iso(t) == follows), same[0])
    if state == "stale":
        fresher = [
            t
            for t in candidates
            if t.provenance in HUMAN
            and t is not chosen
            and t.follows_edition_id == edition.id
            and not t.follows_assumed
        ]
        if fresher:
            return _make(number, language, "current", fresher[0])
    return _make(number, language, "stale" if state == "stale" else "current", chosen)


def _judge_heading(
    session: Session, edition: Edition, number: str, candidates: list[RuleText]
) -> dict | None:
    """Parts and chapters, which the version stage does not judge: compare their English title."""
    if not candidates:
        return None
    best = candidates[0]
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


def _renumbered(
    session: Session, language: str, edition: Edition, number: str, follows: str | None
) -> list[RuleText]:
    """The texts of a translation made for the rule's number in an older edition (701.32 ->
    701.38): the version stage judged it by content, so look it up under its own number."""
    history = stages.trace(session, number, edition).get("history", [])
    old = {h["number"] for h in history if h.get("edition") == follows} - {number}
    return [t for n in sorted(old) for t in _candidates(session, language, [n]).get(n, [])]


def translations(
    session: Session, language: str, edition: Edition, numbers: Iterable[str]
) -> dict[str, Translation]:
    """The translation to show of each number of an edition in a language (English: itself)."""
    wanted = list(numbers)
    if language == "en":
        raise ValueError("English is the source: read the edition's own texts")
    status = stages.translation_status(session, language, edition)
    candidates = _candidates(session, language, wanted)
    out: dict[str, Translation] = {}
    for number in wanted:
        found = candidates.get(number, [])
        judged = status.get(number)
        if judged is None:
            judged = _judge_heading(session, edition, number, found)
        elif judged.get("status") != "missing" and not found:
            found = _renumbered(session, language, edition, number, judged.get("follows"))
        out[number] = choose(number, language, edition, judged, found)
    return out

"""Translation drift: is each translated rule text still a translation of today's English?

Every translated rule text records the English edition it follows (a rule page that names none
follows the newest English edition loaded when it was ingested, marked as assumed). Against an
edition E (the newest by default), a rule number of E is

- ``current`` when a translation exists and the English it follows is E's English for that rule
  (found across renumbering: a page made for 701.32 of 2021 translates 701.38 of today);
- ``stale`` when the English of that rule changed between the followed edition and E;
- ``missing`` when no translation exists (a translation made for a *later* edition than E does
  not count for E).

When a language has several texts for one rule, the one shown and judged is chosen here, once,
for every consumer (``kb rule``, the site, the exports): a human text (official, community)
before a machine one; among human texts, a current one before a stale one (a translator's
community text made from today's English beats an official text of an older rule); then official
before community. A current machine translation never displaces a stale human one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from kb.langs import LANGS, PROVENANCE_ORDER
from kb.models import Edition, Rule, RuleText

from .align import align_editions, edition_contents
from .diff import word_ops
from .editions import EditionRef, edition_label, english_editions, resolve_edition

JUDGED_KINDS = ("rule", "subrule")


@dataclass(frozen=True)
class _Translation:
    number: str  # as the translation numbers it
    provenance: str
    follows_id: int | None
    assumed: bool
    text_id: int


def _translations(session: Session, language: str) -> list[_Translation]:
    return [
        _Translation(number, provenance, follows, bool(assumed), text_id)
        for number, provenance, follows, assumed, text_id in session.execute(
            select(
                Rule.number,
                RuleText.provenance,
                RuleText.follows_edition_id,
                RuleText.follows_assumed,
                RuleText.id,
            )
            .join(Rule, Rule.id == RuleText.rule_id)
            .join(Edition, Edition.id == Rule.edition_id)
            .where(Edition.kind == "translations", RuleText.language == language)
            .order_by(Rule.sort_key, RuleText.id)
        ).all()
    ]


def _judge(session: Session, language: str, edition: Edition) -> dict[str, dict[str, Any]]:
    """For each number of the edition that has a translation: the best one and its state."""
    editions = {e.id: e for e in english_editions(session)}
    now = edition_contents(session, edition)
    judged: dict[str, dict[str, Any]] = {}
    for tr in _translations(session, language):
        follows = editions.get(tr.follows_id) if tr.follows_id else None
        if follows is None:
            continue  # follows no loaded English edition: nothing to judge it against
        then = edition_contents(session, follows)
        if tr.number not in then:
            continue  # a page for a number its edition lacks: kb check reports that
        if follows.id == edition.id:
            number: str | None = tr.number
        elif (follows.effective_date, follows.id) < (edition.effective_date, edition.id):
            number = align_editions(session, follows, edition).pairs.get(tr.number)
        else:
            continue  # made for a later English text than this edition's
        if number is None or number not in now:
            continue  # the English rule is gone from this edition
        english_then, english_now = then[tr.number].full, now[number].full
        state = "current" if english_then == english_now else "stale"
        candidate = {
            "status": state,
            "provenance": tr.provenance,
            "follows": edition_label(follows),
            "assumed": tr.assumed,
            "translated_number": tr.number,
            "text_id": tr.text_id,
            "follows_date": follows.effective_date,
            "english_then": english_then,
            "english_now": english_now,
        }
        best = judged.get(number)
        if best is None or preference_key(candidate) < preference_key(best):
            judged[number] = candidate
    return judged


def preference_key(item: dict[str, Any]) -> tuple[bool, bool, int, int]:
    """Human before machine, current before stale, official before community, newest first."""
    follows = item["follows_date"]
    return (
        item["provenance"] == "machine",
        item["status"] != "current",
        PROVENANCE_ORDER.get(item["provenance"], 9),
        -(follows.toordinal() if follows else 0),
    )


def translation_status(
    session: Session, language: str, edition: EditionRef = None
) -> dict[str, dict[str, Any]]:
    """Per rule and subrule number of the edition: current, stale or missing, in document order."""
    ed = resolve_edition(session, edition)
    contents = edition_contents(session, ed)
    judged = _judge(session, language, ed) if language != "en" else {}
    result: dict[str, dict[str, Any]] = {}
    for number, rule in sorted(contents.items(), key=lambda kv: kv[1].sort_key):
        if rule.kind not in JUDGED_KINDS:
            continue
        found = judged.get(number)
        if language == "en":
            result[number] = {
                "status": "current",
                "provenance": "official",
                "follows": edition_label(ed),
                "assumed": False,
            }
        elif found is None:
            result[number] = {
                "status": "missing",
                "provenance": None,
                "follows": None,
                "assumed": False,
                "text_id": None,
                "translated_number": None,
            }
        else:
            result[number] = {
                "status": found["status"],
                "provenance": found["provenance"],
                "follows": found["follows"],
                "assumed": found["assumed"],
                "text_id": found["text_id"],
                "translated_number": found["translated_number"],
            }
    return result


def preferred_translations(
    session: Session, language: str, edition: EditionRef = None
) -> dict[str, dict[str, Any]]:
    """The translation to show of every judged rule and subrule number, with its text.

    ``translation_status`` plus, for each number that has one, the chosen text's ``title``,
    ``body`` and ``examples`` (a text made for an older number, 701.32 of 2021, shows under the
    number it has now, 701.38).
    """
    status = translation_status(session, language, edition)
    ids = [item["text_id"] for item in status.values() if item["text_id"] is not None]
    texts = {
        t.id: t
        for start in range(0, len(ids), 500)
        for t in session.scalars(
            select(RuleText)
            .where(RuleText.id.in_(ids[start : start + 500]))
            .options(selectinload(RuleText.examples))
        )
    }
    result: dict[str, dict[str, Any]] = {}
    for number, item in status.items():
        text = texts.get(item["text_id"]) if item["text_id"] is not None else None
        result[number] = {
            **item,
            "title": text.title if text else "",
            "body": text.body if text else "",
            "examples": [e.text for e in text.examples] if text else [],
        }
    return result


def stale_translations(
    session: Session, language: str, edition: EditionRef = None
) -> list[dict[str, Any]]:
    """The stale translations of a language, with the English diff that made each stale."""
    ed = resolve_edition(session, edition)
    contents = edition_contents(session, ed)
    result = []
    for number, item in _judge(session, language, ed).items():
        if item["status"] != "stale":
            continue
        result.append(
            {
                "number": number,
                "translated_number": item["translated_number"],
                "follows": item["follows"],
                "assumed": item["assumed"],
                "edition": edition_label(ed),
                "provenance": item["provenance"],
                "english_then": item["english_then"],
                "english_now": item["english_now"],
                "ops": word_ops(item["english_then"], item["english_now"]),
                "sort_key": contents[number].sort_key,
            }
        )
    result.sort(key=lambda r: r.pop("sort_key"))
    return result


def drift_summary(session: Session, edition: EditionRef = None) -> dict[str, dict[str, int]]:
    """Per translated language: translated, current, stale, missing; machine/official/community."""
    summary: dict[str, dict[str, int]] = {}
    if not english_editions(session):
        return summary
    for language in LANGS:
        if language == "en":
            continue
        counts = dict.fromkeys(
            ("translated", "current", "stale", "missing", "machine", "official", "community"), 0
        )
        for item in translation_status(session, language, edition).values():
            counts[item["status"]] += 1
            if item["status"] != "missing":
                counts["translated"] += 1
                counts[item["provenance"]] = counts.get(item["provenance"], 0) + 1
        summary[language] = counts
    return summary

"""Read-only views of the knowledge base: a rule with its translation, a card, the counts.

Each view returns plain dicts (JSON-ready, deterministic order), so the CLI can print them as a
table or as ``--json`` and the site and exports can reuse them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from kb.corpus.numbers import is_rule_number, sort_key
from kb.corpus.records import page_attributes
from kb.errors import KbUsageError, NotFoundError
from kb.langs import LANGS, PROVENANCE_ORDER, fold, language_name
from kb.models import (
    Card,
    CardClarification,
    CardLocalization,
    Clarification,
    Edition,
    Rule,
    RuleText,
    RulingsPage,
)


def find_edition(session: Session, date: str | None = None, language: str = "en") -> Edition:
    """The official edition with that effective date (ISO), or the newest one."""
    query = select(Edition).where(Edition.kind == "comprules", Edition.language == language)
    if date:
        try:
            effective = dt.date.fromisoformat(date)
        except ValueError:
            raise KbUsageError(f"{date!r} is not a date (expected YYYY-MM-DD)") from None
        edition = session.scalar(query.where(Edition.effective_date == effective))
        if edition is None:
            known = ", ".join(e.isoformat() for e in editions(session)) or "none"
            raise NotFoundError(f"no edition effective {date} is loaded (loaded: {known})")
        return edition
    edition = session.scalar(query.order_by(Edition.effective_date.desc()).limit(1))
    if edition is None:
        raise NotFoundError("no Comprehensive Rules edition is loaded: run `kb ingest` first")
    return edition


def editions(session: Session) -> list[dt.date]:
    """Effective dates of the loaded English editions, oldest first."""
    return [
        d
        for d in session.scalars(
            select(Edition.effective_date)
            .where(Edition.kind == "comprules", Edition.language == "en")
            .order_by(Edition.effective_date)
        )
        if d is not None
    ]


def _text_dict(text: RuleText | None) -> dict[str, Any] | None:
    if text is None:
        return None
    follows = text.follows_edition
    return {
        "language": text.language,
        "title": text.title,
        "text": text.body,
        "examples": [e.text for e in text.examples],
        "provenance": text.provenance,
        "follows_edition": follows.effective_date.isoformat()
        if follows and follows.effective_date
        else None,
        "follows_assumed": text.follows_assumed,
    }


def translations_for(session: Session, numbers: list[str], language: str) -> dict[str, RuleText]:
    """The preferred translated text of each rule number in a language (human before machine)."""
    rows = session.scalars(
        select(RuleText)
        .join(Rule, Rule.id == RuleText.rule_id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(
            Edition.kind == "translations",
            RuleText.language == language,
            Rule.number.in_(numbers),
        )
        .options(selectinload(RuleText.examples), selectinload(RuleText.rule))
    ).all()
    chosen: dict[str, RuleText] = {}
    for text in sorted(rows, key=lambda t: PROVENANCE_ORDER.get(t.provenance, 9)):
        chosen.setdefault(text.rule.number, text)
    return chosen


def rule_view(
    session: Session, number: str, language: str = "en", edition: str | None = None
) -> dict[str, Any]:
    """A rule with every subrule and example, English beside the language asked for."""
    number = number.strip().rstrip(".")
    if not is_rule_number(number):
        raise KbUsageError(f"{number!r} is not a rule number (e.g. 701.54, 701.54a, 701, 7)")
    ed = find_edition(session, edition)
    key = sort_key(number)
    rules = session.scalars(
        select(Rule)
        .where(
            Rule.edition_id == ed.id,
            (Rule.sort_key == key) | Rule.sort_key.startswith(key + ".", autoescape=True),
        )
        .order_by(Rule.sort_key)
        .options(selectinload(Rule.texts).selectinload(RuleText.examples))
    ).all()
    if not rules or rules[0].number != number:
        raise NotFoundError(f"rule {number} is not in the {ed.effective_date} edition")
    translated = _translations(session, [r.number for r in rules], language, ed)
    untranslated = [r.number for r in rules if r.number not in translated]
    terms = card_term_titles(session, untranslated, language)
    items = []
    for rule in rules:
        english = next((t for t in rule.texts if t.language == "en"), None)
        items.append(
            {
                "number": rule.number,
                "kind": rule.kind,
                "english": _text_dict(english),
                "translation": translated.get(rule.number),
                "card_term": terms.get(rule.number),
            }
        )
    missing = sum(1 for i in items if i["translation"] is None)
    return {
        "number": number,
        "edition": ed.effective_date.isoformat() if ed.effective_date else None,
        "language": language,
        "language_name": language_name(language, "en"),
        "rules": items,
        "translated": len(items) - missing if language != "en" else len(items),
        "missing": missing if language != "en" else 0,
        "today": _today(session, number, ed, edition),
    }


CARD_TERM_PROVENANCE = "card-term"
CARD_TERM_NOTE = "term from official card translations"


def card_term_titles(
    session: Session, numbers: list[str], language: str
) -> dict[str, dict[str, str]]:
    """Titles of keyword rules learned from Wizards' card translations, where no human text is.

    Their own provenance (``card-term``): a term Wizards prints on cards, never a translation of
    the rule itself.
    """
    if language == "en" or not numbers:
        return {}
    from kb.terminology import rule_terms

    return {
        number: {"title": title, "provenance": CARD_TERM_PROVENANCE, "note": CARD_TERM_NOTE}
        for number, title in rule_terms(session, numbers, language).items()
    }


def _translations(
    session: Session, numbers: list[str], language: str, edition: Edition
) -> dict[str, dict[str, Any]]:
    """The translation shown for each number: the version stage's choice for rules and subrules
    (so a text made for 701.32 of 2021 shows under 701.38), the best text for parts/chapters."""
    if language == "en":
        return {}
    from kb.versions import preferred_translations

    chosen = preferred_translations(session, language, edition.id)
    shown: dict[str, dict[str, Any]] = {}
    for number, item in chosen.items():
        if number in numbers and item["status"] != "missing":
            shown[number] = {
                "language": language,
                "title": item["title"],
                "text": item["body"],
                "examples": item["examples"],
                "provenance": item["provenance"],
                "follows_edition": item["follows"],
                "follows_assumed": item["assumed"],
                "status": item["status"],
                "translated_number": item["translated_number"],
            }
    headings = [n for n in numbers if n not in chosen]
    for number, text in translations_for(session, headings, language).items():
        shown[number] = _text_dict(text) | {"status": None, "translated_number": number}
    return shown


def _today(session: Session, number: str, ed: Edition, asked: str | None) -> dict[str, Any] | None:
    """Where an older edition's number stands today (701.32 of 2021 is 701.38), via versions."""
    if not asked:
        return None
    from kb.versions import today

    return today(session, number, ed)


# --- cards -------------------------------------------------------------------------------------


def find_card(session: Session, query: str) -> Card:
    """Find a card by name in any language, oracle id or rulings-page id."""
    wanted = query.strip()
    page = session.scalar(select(RulingsPage).where(RulingsPage.page_id == wanted))
    if page is not None and page.card_id is not None:
        return session.get_one(Card, page.card_id)
    card = session.scalar(select(Card).where((Card.oracle_id == wanted) | (Card.key == wanted)))
    if card is not None:
        return card
    # A name typed as printed (in any language) is one indexed look-up, not a scan of every name.
    named = session.scalars(
        select(CardLocalization.card_id)
        .where(CardLocalization.name == wanted)
        .union(select(Card.id).where(Card.name == wanted))
    ).all()
    if len(set(named)) == 1:
        return session.get_one(Card, named[0])
    folded = fold(wanted)
    # Names are stored folded too (migration 0009): one indexed look-up, and a scan of the
    # folded names in the database only when no name folds to exactly this.
    exact = _cards_folded(session, lambda column: column == folded)
    if len(exact) == 1:
        return session.get_one(Card, exact[0])
    partial: list[int] = []
    if folded and not exact:
        dialect = session.get_bind().dialect.name
        position = func.strpos if dialect == "postgresql" else func.instr
        partial = _cards_folded(session, lambda column: position(column, folded) > 0)
    if len(exact) > 1 or len(partial) > 1:
        choices = exact or partial
        labels = sorted({session.get_one(Card, cid).name for cid in choices})
        shown = ", ".join(labels[:10]) + (" …" if len(labels) > 10 else "")
        raise NotFoundError(f"{query!r} matches {len(labels)} cards: {shown}")
    if len(partial) == 1:
        return session.get_one(Card, partial[0])
    raise NotFoundError(f"no card named {query!r} (nor with that oracle id or rulings page id)")


def _cards_folded(session: Session, condition: Callable[[Any], Any]) -> list[int]:
    """The ids of the cards with a name in some language whose folded form meets the condition."""
    found = session.scalars(
        select(CardLocalization.card_id)
        .where(condition(CardLocalization.folded_name))
        .union(select(Card.id).where(condition(Card.folded_name)))
    )
    return sorted(set(found))


def clarifications_of(session: Session, card_id: int) -> list[dict[str, Any]]:
    """A card's rulings, once each, oldest first, with their texts per language."""
    clar_ids = select(CardClarification.clarification_id).where(
        CardClarification.card_id == card_id
    )
    clarifications = session.scalars(
        select(Clarification)
        .where(Clarification.id.in_(clar_ids))
        .options(selectinload(Clarification.texts))
    ).all()
    ordered = sorted(
        clarifications,
        key=lambda c: (c.date, _first_text(c), c.id),
    )
    return [
        {
            "id": c.id,
            "date": c.date.isoformat(),
            "source": c.source,
            "texts": {
                t.language: {"text": t.text, "provenance": t.provenance}
                for t in sorted(
                    c.texts,
                    key=lambda t: (t.language, PROVENANCE_ORDER.get(t.provenance, 9)),
                    reverse=True,
                )
            },
        }
        for c in ordered
    ]


def _first_text(c: Clarification) -> str:
    texts = sorted(c.texts, key=lambda t: (t.language != "en", t.language))
    return texts[0].text if texts else ""


def card_view(session: Session, query: str) -> dict[str, Any]:
    """A card with its names per language, attributes, printings and rulings."""
    card = find_card(session, query)
    locs = {loc.language: loc for loc in card.localizations}
    pages = session.scalars(
        select(RulingsPage).where(RulingsPage.card_id == card.id).order_by(RulingsPage.page_id)
    ).all()
    printings = sorted({(p.set_code, p.number) for p in card.printings})
    attributes = page_attributes([p.attributes for p in pages], card.mana_value)
    return {
        "key": card.key,
        "oracle_id": card.oracle_id,
        "name": card.name,
        "names": {lang: locs[lang].name for lang in LANGS if lang in locs},
        "type_lines": {lang: locs[lang].type_line for lang in LANGS if lang in locs},
        "texts": {lang: locs[lang].text for lang in LANGS if lang in locs},
        "mana_value": card.mana_value,
        "mana_cost": card.mana_cost,
        "face_details": [dict(d) for d in card.face_details or []],
        "legalities": dict(sorted((card.legalities or {}).items())),
        "layout": card.layout,
        "faces": list(card.faces or []),
        "attributes": attributes,
        "printings": [{"set": s, "number": n} for s, n in printings],
        "rulings_pages": [
            {"page_id": p.page_id, "language": p.language, "recognised": p.recognised}
            for p in pages
        ],
        "rulings": clarifications_of(session, card.id),
    }

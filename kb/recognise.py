"""Post-load upkeep: recognise rulings pages' cards, attach translations, drop orphans.

A rulings page does not name its card. Its rulings do: a card of the ingested card data that
carries (after typographic normalisation) most of the page's rulings, more than any other card,
and whose mana value agrees with the page's ``CMC``, is the page's card. Generic rulings shared by
a whole mechanic (every Saga has the same seven) cannot tell cards apart on their own, which is
why the best candidate must beat the runner-up rather than merely pass a threshold.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass

from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.orm import Session
from whoosh.lang.porter import stem

from kb.bodies import remove_unused as remove_unused_bodies
from kb.corpus.records import attribute_mana_value
from kb.langs import fold
from kb.models import (
    Card,
    CardClarification,
    Clarification,
    ClarificationText,
    Edition,
    Printing,
    Rule,
    RuleText,
    RulingsPage,
)

log = logging.getLogger(__name__)

MIN_SHARE = 0.5  # the card must carry at least half of the page's rulings


@dataclass(frozen=True)
class Match:
    """A candidate card for a page: how many of the page's rulings it carries, of how many."""

    card_id: int
    shared: int
    card_total: int


def candidates(session: Session, page: RulingsPage) -> tuple[int, list[Match]]:
    """Return the page's ruling count and the known cards sharing rulings with it, best first."""
    page_ids = select(CardClarification.clarification_id).where(
        CardClarification.document_id == page.document_id
    )
    total = session.scalar(select(func.count()).select_from(page_ids.subquery())) or 0
    shared = (
        select(
            CardClarification.card_id, func.count(func.distinct(CardClarification.clarification_id))
        )
        .join(Card, Card.id == CardClarification.card_id)
        .where(Card.oracle_id.is_not(None), CardClarification.clarification_id.in_(page_ids))
        .group_by(CardClarification.card_id)
    )
    counts = dict(session.execute(shared).all())
    if not counts:
        return total, []
    totals = dict(
        session.execute(
            select(
                CardClarification.card_id,
                func.count(func.distinct(CardClarification.clarification_id)),
            )
            .where(CardClarification.card_id.in_(counts))
            .group_by(CardClarification.card_id)
        ).all()
    )
    matches = [Match(card_id, n, totals.get(card_id, n)) for card_id, n in counts.items()]
    matches.sort(key=lambda m: (-m.shared, m.card_total, m.card_id))
    return total, matches


def choose(
    page: RulingsPage,
    total: int,
    matches: list[Match],
    cards: dict[int, Card],
    unmatched_texts: list[str],
) -> Match | None:
    """Pick the page's card among the candidates, or None when none is convincing or two tie.

    Order of evidence: the mana value must agree; the card must carry the most of the page's
    rulings (at least half); a card with rulings the page lacks is less likely; and when cards
    still tie (Sagas of one mana value share the same seven rulings), the page's remaining rulings
    must talk about one card's text clearly more than about any other's.
    """
    page_mv = attribute_mana_value(page.attributes)
    usable = [
        m
        for m in matches
        if page_mv is None
        or cards[m.card_id].mana_value is None
        or cards[m.card_id].mana_value == page_mv
    ]
    if not usable or total == 0 or usable[0].shared / total < MIN_SHARE:
        return None
    top = [m for m in usable if m.shared == usable[0].shared]
    fewest_extra = min(m.card_total - m.shared for m in top)
    top = [m for m in top if m.card_total - m.shared == fewest_extra]
    if len(top) == 1:
        return top[0]
    scores = text_affinity(unmatched_texts, {m.card_id: _card_words(cards[m.card_id]) for m in top})
    ranked = sorted(top, key=lambda m: (-scores[m.card_id], m.card_id))
    best, runner_up = scores[ranked[0].card_id], scores[ranked[1].card_id]
    if best >= MIN_AFFINITY and best >= AFFINITY_MARGIN * runner_up:
        return ranked[0]
    log.info("rulings page %s matches several cards equally; left unrecognised", page.page_id)
    return None


MIN_AFFINITY = 2.0
AFFINITY_MARGIN = 1.5
_WORD = re.compile(r"[a-z]{3,}")
# Words every ruling uses: they say nothing about which card a ruling is about.
_COMMON = frozenset(
    "the and you your that this its with for are can any each one two from into onto under "
    "until when whenever where while which who whose have has had their them then than there "
    "they those these was were will would won don doesn isn can not does other example cause "
    "put abilities ability card cards player players turn".split()
)


def _words(text: str) -> set[str]:
    """Stemmed content words (``targets`` and ``target`` are one word here)."""
    return {stem(w) for w in _WORD.findall(fold(text)) if w not in _COMMON}


def _card_words(card: Card) -> set[str]:
    english = next((loc for loc in card.localizations if loc.language == "en"), None)
    text = " ".join(
        filter(
            None, [card.name, english.text if english else "", english.type_line if english else ""]
        )
    )
    return _words(text)


def text_affinity(texts: list[str], cards: dict[int, set[str]]) -> dict[int, float]:
    """Score how much a page's rulings talk about each card's text (words weighted by rarity)."""
    page_words = _words(" ".join(texts))
    document_frequency: dict[str, int] = {}
    for words in cards.values():
        for word in words:
            document_frequency[word] = document_frequency.get(word, 0) + 1
    n = len(cards)
    return {
        card_id: sum(math.log(1 + n / document_frequency[w]) for w in page_words & words)
        for card_id, words in cards.items()
    }


def recognise_pages(session: Session) -> int:
    """Merge every unrecognised rulings page into the card its rulings identify; return how many."""
    merged = 0
    for page in session.scalars(select(RulingsPage).where(RulingsPage.recognised.is_(False))).all():
        total, matches = candidates(session, page)
        if not matches:
            continue
        cards = {
            c.id: c
            for c in session.scalars(select(Card).where(Card.id.in_([m.card_id for m in matches])))
        }
        best = choose(page, total, matches, cards, _unmatched_texts(session, page, matches))
        if best is None:
            continue
        own_card = page.card_id
        session.execute(
            update(CardClarification)
            .where(
                CardClarification.card_id == own_card,
                CardClarification.document_id == page.document_id,
            )
            .values(card_id=best.card_id)
        )
        page.card_id, page.recognised, page.match_score = best.card_id, True, best.shared / total
        session.flush()
        if own_card is not None and own_card != best.card_id:
            session.execute(delete(Card).where(Card.id == own_card, Card.oracle_id.is_(None)))
        merged += 1
        log.info(
            "rulings page %s recognised as card %s (%d/%d rulings)",
            page.page_id,
            best.card_id,
            best.shared,
            total,
        )
    return merged


def _unmatched_texts(session: Session, page: RulingsPage, matches: list[Match]) -> list[str]:
    """English texts of the page's rulings that none of the candidate cards carries."""
    carried = select(CardClarification.clarification_id).where(
        CardClarification.card_id.in_([m.card_id for m in matches])
    )
    return list(
        session.scalars(
            select(ClarificationText.text)
            .join(
                CardClarification,
                CardClarification.clarification_id == ClarificationText.clarification_id,
            )
            .where(
                CardClarification.document_id == page.document_id,
                ClarificationText.language == "en",
                CardClarification.clarification_id.not_in(carried),
            )
        )
    )


def reattach_translations(session: Session) -> int:
    """Give translations that follow no English edition the newest one, marked as assumed."""
    newest = session.scalar(
        select(Edition.id)
        .where(Edition.kind == "comprules", Edition.language == "en")
        .order_by(Edition.effective_date.desc())
        .limit(1)
    )
    if newest is None:
        return 0
    translated = (
        select(Rule.id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(Edition.kind == "translations")
    )
    result = session.execute(
        update(RuleText)
        .where(RuleText.follows_edition_id.is_(None), RuleText.rule_id.in_(translated))
        .values(follows_edition_id=newest, follows_assumed=True)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def collect_garbage(session: Session) -> None:
    """Delete shared rows nothing refers to any more: clarifications, then cards, rule bodies."""
    remove_unused_bodies(session)
    session.execute(
        delete(Clarification).where(
            ~exists().where(CardClarification.clarification_id == Clarification.id)
        )
    )
    session.execute(
        delete(Card).where(
            ~exists().where(Printing.card_id == Card.id),
            ~exists().where(CardClarification.card_id == Card.id),
            ~exists().where(RulingsPage.card_id == Card.id),
        )
    )

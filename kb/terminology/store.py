"""Learned terms in the database: rebuilt from the cards, read by the CLI, lookup, search, export.

Derived data like links: ``rebuild_terms`` recomputes every term from the stored cards (about
half a minute on all of AllPrintings) and records the digest of its inputs (the MTGJSON and
Comprehensive Rules documents), so an ingest that changed neither does not relearn.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import time
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, aliased

from kb.models import (
    Card,
    CardLocalization,
    CardSet,
    CardTerm,
    DerivedState,
    Document,
    Edition,
    Printing,
    Rule,
    RuleText,
)

from .align import CardText, KeywordMatcher, LearnedTerm, learn, normal_name
from .titles import inventory_of, only_unmentioned_additions

log = logging.getLogger(__name__)

LANGUAGES = ("fr", "es")
STAGE = "terms"
# The digest of what the stored terms were learned from (cards' texts, keywords, rules).
LEARNT_STAGE = "terms:learnt-from"
# A rule title no card lists among its keywords ("Destroy", "Counter") is an ordinary English
# word too: its association must be near-perfect before it counts as a term.
UNCARRIED_CONFIDENCE = 0.95
# Terms at least this confident feed rule titles and the search vocabulary.
USABLE_CONFIDENCE = 0.5
# A competing translation with at least this share of the chosen one's cards is a conflict.
CONFLICT_SHARE = 0.25
# Cards with a translation from which the last language is learned in a second process (at all
# of AllPrintings, ~20k: learning one language takes ~4 s; starting the process, under 1 s).
APART_CARDS = 5000


def inputs_digest(session: Session) -> str:
    """Digest of what the terms are learned from: the loaded card and rules documents."""
    digest = hashlib.sha256()
    rows = session.execute(
        select(Document.path, Document.sha256).where(
            Document.status == "loaded", Document.format.in_(("mtgjson", "comprules"))
        )
    ).all()
    for path, sha in sorted(rows):
        digest.update(f"{path}\0{sha}\n".encode())
    return digest.hexdigest()


def terms_current(session: Session) -> bool:
    """Whether the stored terms were learned from the documents loaded now."""
    state = session.get(DerivedState, STAGE)
    return state is not None and state.inputs == inputs_digest(session)


def keyword_rules(
    session: Session, *, older: int = 0
) -> tuple[dict[str, tuple[str, str]], set[str]]:
    """Titles of 701.x/702.x, newest English edition: {folded title: (rule, title)}, actions.

    ``older``: of the edition that many editions before the newest instead.
    """
    edition = session.scalar(
        select(Edition.id)
        .where(Edition.kind == "comprules", Edition.language == "en")
        .order_by(Edition.effective_date.desc())
        .offset(older)
        .limit(1)
    )
    if edition is None:
        return {}, set()
    rows = session.execute(
        select(Rule.number, RuleText.title)
        .join(RuleText, RuleText.rule_id == Rule.id)
        .where(
            Rule.edition_id == edition,
            Rule.kind == "rule",
            RuleText.language == "en",
            Rule.number.like("70_.%"),
        )
    ).all()
    rules: dict[str, tuple[str, str]] = {}
    actions: set[str] = set()
    for number, title in sorted(rows):
        if not title or not number.startswith(("701.", "702.")):
            continue
        rules.setdefault(title.casefold(), (number, title))
        if number.startswith("701."):
            actions.add(title.casefold())
    return rules, actions


def card_texts(
    session: Session, language: str, dates: dict[int, str] | None = None
) -> list[CardText]:
    """Every card with English and translated text, with its keywords, in a stable order.

    ``dates``: :func:`first_printed`, when the caller has read it already (for each language
    it is the same).
    """
    english, translated = aliased(CardLocalization), aliased(CardLocalization)
    rows = session.execute(
        select(Card.id, Card.name, translated.name, english.text, translated.text, Card.keywords)
        .join(english, (english.card_id == Card.id) & (english.language == "en"))
        .join(translated, (translated.card_id == Card.id) & (translated.language == language))
        .where(english.text != "", translated.text != "")
        .order_by(Card.key)
    ).all()
    if dates is None:
        dates = first_printed(session)
    return [
        CardText(name, tr_name, en, tr, tuple(keywords or ()), dates.get(card_id, ""))
        for card_id, name, tr_name, en, tr, keywords in rows
    ]


def first_printed(session: Session) -> dict[int, str]:
    """{card id: ISO release date of its first printing}, for cards whose sets are dated."""
    rows = session.execute(
        select(Printing.card_id, func.min(CardSet.release_date))
        .join(CardSet, CardSet.code == Printing.set_code)
        .where(CardSet.release_date.is_not(None))
        .group_by(Printing.card_id)
    ).all()
    return {card_id: date.isoformat() for card_id, date in rows if date is not None}


def rebuild_terms(session: Session, *, reuse: bool = False) -> dict[str, Any]:
    """Relearn every keyword's French and Spanish term from the stored cards; return counts.

    ``reuse``: when what the learning reads (the keyword rules, the cards' keywords, and every
    card's English and translated texts, names and first-printing date) is what the stored
    terms were learned from, keep them: learning from the same inputs gives the same terms. A
    set file whose changes touch none of that (printings, rulings, untranslated cards) costs a
    read of the inputs instead of a relearning. ``changed`` in the counts: whether the stored
    terms differ from those before; ``titles_changed``: whether the learned titles of keyword
    rules do (all that rule, example and glossary search items read of the cards).
    """
    started = time.perf_counter()
    rules, actions = keyword_rules(session)
    carried: set[str] = set()
    for keywords in session.scalars(select(Card.keywords)):
        carried.update(k for k in keywords or () if isinstance(k, str))
    inventory = inventory_of(rules, carried)
    dates = first_printed(session)
    texts = {language: card_texts(session, language, dates) for language in LANGUAGES}
    payload = _texts_payload(texts)
    learnt_from = _learning_digest(rules, actions, inventory, payload)
    before, titles = list_terms(session), _rule_titles(session)
    state = session.get(DerivedState, LEARNT_STAGE)
    counts: dict[str, Any] = {
        lang: sum(t["language"] == lang for t in before) for lang in LANGUAGES
    }
    if reuse and state is not None and state.inputs == learnt_from:
        _mark(session, STAGE, inputs_digest(session))
        session.flush()
        log.info("keyword terms kept: the cards they are learned from are unchanged")
        return {
            **counts,
            "relearned": False,
            "changed": False,
            "titles_changed": False,
            "seconds": 0.0,
        }
    if reuse and state is not None:
        previous, previous_actions = keyword_rules(session, older=1)
        previous_inventory = inventory_of(previous, carried)
        if state.inputs == _learning_digest(
            previous, previous_actions, previous_inventory, payload
        ) and only_unmentioned_additions(
            (previous_inventory, previous_actions), (inventory, actions), texts
        ):
            # Learned from the edition before, whose titles this one only adds to: the same
            # terms, their rule numbers those of the newest edition (kb.terminology.titles).
            for term in session.scalars(select(CardTerm)):
                number = rules.get(term.keyword.casefold(), (None, ""))[0]
                if term.rule != number:
                    term.rule = number
            _mark(session, STAGE, inputs_digest(session))
            _mark(session, LEARNT_STAGE, learnt_from)
            session.flush()
            log.info("keyword terms kept: the new edition's titles name no card's keyword")
            return {
                **counts,
                "relearned": False,
                "changed": list_terms(session) != before,
                "titles_changed": _rule_titles(session) != titles,
                "seconds": round(time.perf_counter() - started, 1),
            }
    everything = _learn_languages(texts, inventory, actions)
    session.execute(delete(CardTerm))
    counts = {}
    for language in LANGUAGES:
        learned = everything[language]
        kept = [
            t
            for t in learned
            if inventory.get(t.keyword, True) or t.confidence >= UNCARRIED_CONFIDENCE
        ]
        session.add_all(
            CardTerm(
                keyword=t.keyword,
                language=language,
                rule=rules.get(t.keyword.casefold(), (None, ""))[0],
                term=t.term,
                label=t.label,
                cards=t.cards,
                keyword_cards=t.keyword_cards,
                confidence=t.confidence,
                source=t.source,
                reminder_cards=t.reminder_cards,
                examples=[list(pair) for pair in t.examples],
                alternatives=t.alternatives,
            )
            for t in kept
        )
        counts[language] = len(kept)
    _mark(session, STAGE, inputs_digest(session))
    _mark(session, LEARNT_STAGE, learnt_from)
    session.flush()
    counts["relearned"] = True
    counts["changed"] = list_terms(session) != before
    counts["titles_changed"] = _rule_titles(session) != titles
    counts["seconds"] = round(time.perf_counter() - started, 1)
    log.info(
        "learned keyword terms: %s in %.1f s",
        ", ".join(f"{counts[lang]} {lang}" for lang in LANGUAGES),
        counts["seconds"],
    )
    return counts


def _learn_languages(
    texts: dict[str, list[CardText]], inventory: dict[str, bool], actions: set[str]
) -> dict[str, list[LearnedTerm]]:
    """Each language's terms (:func:`kb.terminology.align.learn`), the last language learned in
    a second process meanwhile when there are enough cards for it to pay.

    Learning is pure computation on the texts given, and the same in either process; a
    process that cannot start or fails leaves its language to be learned here.
    """
    *here, last = LANGUAGES
    pool: ProcessPoolExecutor | None = None
    apart: Future[list[LearnedTerm]] | None = None
    if len(texts[last]) >= APART_CARDS:
        try:
            pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            apart = pool.submit(learn, texts[last], last, inventory, actions)
        except OSError as exc:
            log.warning("keyword terms learned one language after the other (%s)", exc)
    matcher = KeywordMatcher(inventory, actions)
    learned: dict[str, list[LearnedTerm]] = {}
    try:
        for language in here:
            learned[language] = learn(texts[language], language, inventory, actions, matcher)
        if apart is not None:
            try:
                learned[last] = apart.result()
            except (BrokenProcessPool, OSError) as exc:
                log.warning("the %s terms are learned here (the helper failed: %s)", last, exc)
        if last not in learned:
            learned[last] = learn(texts[last], last, inventory, actions, matcher)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return learned


def _mark(session: Session, stage: str, inputs: str) -> None:
    state = session.get(DerivedState, stage)
    if state is None:
        session.add(DerivedState(stage=stage, inputs=inputs))
    else:
        state.inputs = inputs


def _rule_titles(session: Session) -> dict[str, dict[str, str]]:
    """Per language, the learned title of every keyword rule (what rule items read)."""
    numbers = sorted(
        {n for n in session.scalars(select(CardTerm.rule).distinct()) if n is not None}
    )
    return {language: rule_terms(session, numbers, language) for language in LANGUAGES}


def _texts_payload(texts: dict[str, list[CardText]]) -> bytes:
    """The cards' part of :func:`_learning_digest` (made once for two digests)."""
    parts: list[bytes] = []
    for language in LANGUAGES:
        parts.append(f"\n{language}\n".encode())
        for card in texts[language]:
            parts.append(repr(tuple(vars(card).values())).encode())
            parts.append(b"\n")
    return b"".join(parts)


def _learning_digest(
    rules: dict[str, tuple[str, str]],
    actions: set[str],
    inventory: dict[str, bool],
    payload: bytes,
) -> str:
    """Digest of everything :func:`learn` reads, in the order it reads it (``payload``: the
    cards' texts, :func:`_texts_payload`)."""
    digest = hashlib.sha256()
    digest.update(repr((sorted(rules.items()), sorted(actions), list(inventory.items()))).encode())
    digest.update(payload)
    return digest.hexdigest()


def _row(term: CardTerm) -> dict[str, Any]:
    return {
        "keyword": term.keyword,
        "rule": term.rule,
        "language": term.language,
        "term": term.label,
        "cards": term.cards,
        "keyword_cards": term.keyword_cards,
        "confidence": term.confidence,
        "source": term.source,
        "reminder_cards": term.reminder_cards,
        "examples": [{"en": en, "translated": tr} for en, tr in term.examples],
        "alternatives": list(term.alternatives),
    }


def _query(language: str | None) -> Any:
    query = select(CardTerm).order_by(CardTerm.language, CardTerm.keyword)
    if language:
        query = query.where(CardTerm.language == language)
    return query


def list_terms(session: Session, language: str | None = None) -> list[dict[str, Any]]:
    """Every learned term (optionally of one language) with its evidence, sorted."""
    return [_row(t) for t in session.scalars(_query(language))]


def conflicts(session: Session, language: str | None = None) -> list[dict[str, Any]]:
    """Terms a person should review: competing translations with similar support, weak ones."""
    found = []
    for term in session.scalars(_query(language)):
        reasons = []
        for alt in term.alternatives:
            if alt.get("older"):
                reasons.append(
                    f"term changed over the years: older name {alt['term']!r} on {alt['cards']} "
                    f"cards (last on a card first printed {alt.get('last') or '?'}), current "
                    f"{term.term!r} on {term.cards} (the oldest of them first printed "
                    f"{alt.get('current_since') or '?'}: reprints carry the new wording): "
                    f"the current one is used"
                )
            elif alt["cards"] >= CONFLICT_SHARE * term.cards:
                reasons.append(
                    f"competing translation {alt['term']!r} on {alt['cards']} cards "
                    f"(an older or newer name, or another sense)"
                )
        if term.confidence < USABLE_CONFIDENCE:
            reasons.append(f"weak association (confidence {term.confidence:.2f})")
        if reasons:
            found.append({**_row(term), "reasons": reasons})
    return found


def rule_terms(session: Session, numbers: Iterable[str], language: str) -> dict[str, str]:
    """{rule number: learned term, capitalised} for keyword rules, confident terms only."""
    wanted = list(numbers)
    if not wanted or language not in LANGUAGES:
        return {}
    rows = session.scalars(
        select(CardTerm)
        .where(
            CardTerm.language == language,
            CardTerm.rule.in_(wanted),
            CardTerm.confidence >= USABLE_CONFIDENCE,
        )
        .order_by(CardTerm.rule, CardTerm.cards.desc(), CardTerm.keyword)
    )
    chosen: dict[str, str] = {}
    for term in rows:
        chosen.setdefault(term.rule, term.label[:1].upper() + term.label[1:])
    return chosen


def title_terms(session: Session, titles: Iterable[str], language: str) -> dict[str, str]:
    """{English rule title: learned term, capitalised} for titles that name a keyword.

    Matched by the keyword's name, not its rule number, so a sheet of an older edition (where
    Deathtouch was another number) gets the right term too. Confident terms only.
    """
    wanted = {title.casefold(): title for title in titles if title}
    if not wanted or language not in LANGUAGES:
        return {}
    rows = session.scalars(
        select(CardTerm)
        .where(CardTerm.language == language, CardTerm.confidence >= USABLE_CONFIDENCE)
        .order_by(CardTerm.cards.desc(), CardTerm.keyword)
    )
    chosen: dict[str, str] = {}
    for term in rows:
        title = wanted.get(term.keyword.casefold())
        if title is not None:
            chosen.setdefault(title, term.label[:1].upper() + term.label[1:])
    return chosen


def vocabulary(session: Session, language: str) -> list[tuple[str, str, str]]:
    """(learned term, English keyword, rule or "") of a language, confident terms only, sorted."""
    rows = session.execute(
        select(CardTerm.term, CardTerm.keyword, CardTerm.rule).where(
            CardTerm.language == language, CardTerm.confidence >= USABLE_CONFIDENCE
        )
    ).all()
    return sorted((term, keyword, rule or "") for term, keyword, rule in rows)


class OfficialTerms:
    """Finds which learned keyword terms an English text names, for translators' comments."""

    def __init__(self, session: Session, language: str) -> None:
        rows = session.execute(
            select(CardTerm.keyword, CardTerm.label, CardTerm.rule).where(
                CardTerm.language == language, CardTerm.confidence >= USABLE_CONFIDENCE
            )
        ).all()
        self.labels = {normal_name(k): (k, label) for k, label, _ in rows}
        actions = [k for k, _, rule in rows if rule and rule.startswith("701.")]
        self.matcher = KeywordMatcher([k for k, _, _ in rows], actions)

    def find(self, english: str) -> list[tuple[str, str]]:
        """(English keyword, official term) for each keyword the text names, in text order."""
        mentions = self.matcher.mentions(english)
        return [self.labels[m] for m in sorted(mentions, key=lambda m: (mentions[m], m))]

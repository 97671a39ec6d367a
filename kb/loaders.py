"""Map parsed records onto rows, one loader per format (called inside the document's transaction).

Rows are inserted with Core statements in batches (:mod:`kb.bulk`): a whole edition is a few
thousand rules, and going through the ORM unit of work one object at a time would cost seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from kb.bodies import body_ids
from kb.bulk import insert_many, insert_returning_ids
from kb.card_load import Clarifications, link_rows
from kb.card_load import load_card_sets as load_card_sets
from kb.corpus.numbers import parent_of, sort_key
from kb.corpus.records import (
    CompRulesDocument,
    RulePageDocument,
    RuleRecord,
    RulingsPageDocument,
)
from kb.errors import KbError
from kb.models import (
    Card,
    CardClarification,
    Document,
    Edition,
    Example,
    GlossaryEntry,
    Rule,
    RuleReference,
    RuleText,
    RulingsPage,
)


def _insert(session: Session, model: Any, rows: Sequence[dict[str, Any]]) -> None:
    insert_many(session, model, rows)


def newest_english_edition(session: Session) -> Edition | None:
    """The English Comprehensive Rules edition with the latest effective date, if any."""
    return session.scalar(
        select(Edition)
        .where(Edition.kind == "comprules", Edition.language == "en")
        .order_by(Edition.effective_date.desc())
        .limit(1)
    )


def _owner_of(session: Session, document_id: int | None) -> str:
    doc = session.get(Document, document_id) if document_id else None
    return doc.path if doc else "another document"


def _insert_rules(
    session: Session,
    edition: Edition,
    doc: Document,
    records: Sequence[RuleRecord],
    language: str,
    provenance: str,
    follows: Edition | None = None,
    follows_assumed: bool = False,
) -> list[int]:
    """Insert rules, their texts in one language and their examples; return the rule ids."""
    rule_ids = insert_returning_ids(
        session,
        Rule,
        [
            {
                "edition_id": edition.id,
                "number": r.number,
                "kind": r.kind,
                "parent_number": r.parent if r.parent is not None else parent_of(r.number),
                "sort_key": sort_key(r.number),
                "document_id": doc.id,
            }
            for r in records
        ],
    )
    bodies = body_ids(session, [r.text for r in records])
    text_ids = insert_returning_ids(
        session,
        RuleText,
        [
            {
                "rule_id": rule_id,
                "language": language,
                "title": r.title,
                "body_id": body,
                "provenance": provenance,
                "follows_edition_id": follows.id if follows else None,
                "follows_assumed": follows_assumed,
                "document_id": doc.id,
                "line": r.line,
            }
            for rule_id, r, body in zip(rule_ids, records, bodies, strict=True)
        ],
    )
    _insert(
        session,
        Example,
        [
            {"rule_text_id": text_id, "position": position, "text": example}
            for text_id, r in zip(text_ids, records, strict=True)
            for position, example in enumerate(r.examples)
        ],
    )
    return rule_ids


def load_comprules(session: Session, doc: Document, parsed: CompRulesDocument) -> None:
    """Load one official Comprehensive Rules document as an edition of its own."""
    key = f"{parsed.language}:{parsed.effective_date.isoformat()}"
    existing = session.scalar(select(Edition).where(Edition.key == key))
    if existing is not None:
        raise KbError(
            f"the {parsed.effective_date.isoformat()} edition ({parsed.language}) is already "
            f"loaded from {_owner_of(session, existing.document_id)}"
        )
    edition = Edition(
        key=key,
        kind="comprules",
        language=parsed.language,
        effective_date=parsed.effective_date,
        document_id=doc.id,
    )
    session.add(edition)
    session.flush()
    _insert_rules(session, edition, doc, parsed.rules, parsed.language, "official")
    _insert(
        session,
        GlossaryEntry,
        [
            {
                "edition_id": edition.id,
                "language": parsed.language,
                "term": g.term,
                "definition": g.definition,
                "senses": list(g.senses),
                "redirect": g.redirect,
                "obsolete": g.obsolete,
                "provenance": "official",
                "position": position,
                "document_id": doc.id,
            }
            for position, g in enumerate(parsed.glossary)
        ],
    )


def translations_edition(
    session: Session, language: str, collection: str = "translations"
) -> Edition:
    """The edition gathering a language's translated rule texts of one origin (made on first use).

    Rule pages land in ``{lang}:translations``; translators' catalogs (``kb import po``) in
    ``{lang}:community``, so re-ingesting a rule page never touches a translator's work.
    """
    key = f"{language}:{collection}"
    edition = session.scalar(select(Edition).where(Edition.key == key))
    if edition is None:
        edition = Edition(key=key, kind="translations", language=language)
        session.add(edition)
        session.flush()
    return edition


def load_rule_page(session: Session, doc: Document, parsed: RulePageDocument) -> None:
    """Load a translated rule page; it follows the English edition it names, else the newest."""
    edition = translations_edition(session, parsed.language)
    numbers = [parsed.number, *(s.number for s in parsed.subrules)]
    clash = session.scalar(
        select(Rule).where(Rule.edition_id == edition.id, Rule.number.in_(numbers)).limit(1)
    )
    if clash is not None:
        raise KbError(
            f"rule {clash.number} in {parsed.language} is already loaded from "
            f"{_owner_of(session, clash.document_id)}"
        )
    follows: Edition | None = None
    assumed = False
    if parsed.follows_edition is not None:
        follows = session.scalar(
            select(Edition).where(Edition.key == f"en:{parsed.follows_edition.isoformat()}")
        )
    if follows is None:
        follows, assumed = newest_english_edition(session), True
    head = RuleRecord(number=parsed.number, kind="rule", title=parsed.title, line=1)
    rule_ids = _insert_rules(
        session,
        edition,
        doc,
        [head, *parsed.subrules],
        parsed.language,
        parsed.provenance,
        follows,
        assumed,
    )
    _insert(
        session,
        RuleReference,
        [
            {"rule_id": rule_ids[0], "target": target, "kind": "sibling", "position": position}
            for position, target in enumerate(parsed.siblings)
        ],
    )


def place_assumed_translations(session: Session) -> int:
    """Move an assumed translation past the edition it was given when its siblings prove it newer.

    A rule page names no edition; it is taken to follow the newest loaded when it is ingested.
    When its sibling list names rules that edition lacks, it was made from a later one: it then
    follows the oldest loaded edition that has them all, or, when none has (seed 004 lists
    701.69-701.71), the newest, marked ``follows_newer``: it follows a newer edition than any
    loaded, and ``kb check`` says so instead of reporting the siblings unresolved. Pages whose
    siblings fit the edition they follow are left alone. Run after every ingest.
    """
    editions = list(
        session.scalars(
            select(Edition)
            .where(Edition.kind == "comprules", Edition.language == "en")
            .order_by(Edition.effective_date, Edition.id)
        )
    )
    if not editions:
        return 0
    rows = session.execute(
        select(Rule.document_id, RuleText.follows_edition_id, RuleReference.target)
        .join(RuleReference, RuleReference.rule_id == Rule.id)
        .join(RuleText, RuleText.rule_id == Rule.id)
        .where(RuleText.follows_assumed.is_(True))
    ).all()
    pages: dict[tuple[int | None, int | None], set[str]] = {}
    for document_id, follows_id, target in rows:
        pages.setdefault((document_id, follows_id), set()).add(target)
    numbers: dict[int, set[str]] = {}

    def has_all(edition: Edition, targets: set[str]) -> bool:
        if edition.id not in numbers:
            numbers[edition.id] = set(
                session.scalars(select(Rule.number).where(Rule.edition_id == edition.id))
            )
        return targets <= numbers[edition.id]

    changed = 0
    ids = [e.id for e in editions]
    for (document_id, follows_id), targets in sorted(pages.items(), key=str):
        start = ids.index(follows_id) if follows_id in ids else 0
        fits = next((e for e in editions[start:] if has_all(e, targets)), None)
        target, newer = (fits, False) if fits is not None else (editions[-1], True)
        result = session.execute(
            update(RuleText)
            .where(
                RuleText.follows_assumed.is_(True),
                RuleText.rule_id.in_(select(Rule.id).where(Rule.document_id == document_id)),
            )
            .values(follows_edition_id=target.id, follows_newer=newer)
        )
        changed += int(getattr(result, "rowcount", 0) or 0)
    return changed


# --- rulings pages (card data: kb.card_load) ---------------------------------------------------


def load_rulings_page(
    session: Session, doc: Document, parsed: RulingsPageDocument, stem: str
) -> None:
    """Load a rulings page as its own card; recognition later merges it into a known card."""
    page_id = parsed.page_id or stem
    clash = session.scalar(select(RulingsPage).where(RulingsPage.page_id == page_id))
    if clash is not None:
        raise KbError(
            f"rulings page {page_id} is already loaded from {_owner_of(session, clash.document_id)}"
        )
    card = session.scalar(select(Card).where(Card.key == page_id))
    if card is None:
        card = Card(key=page_id, name=page_id)
        session.add(card)
    card.mana_value = parsed.mana_value
    session.flush()
    session.add(
        RulingsPage(
            page_id=page_id,
            document_id=doc.id,
            card_id=card.id,
            language=parsed.language,
            machine_notice=parsed.machine_translation_notice,
            header=parsed.header,
            attributes=dict(parsed.attributes),
        )
    )
    clar_ids = Clarifications(session, "rulings_page").ensure(parsed.rulings)
    _insert(session, CardClarification, link_rows(doc, card.id, clar_ids))

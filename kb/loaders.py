"""Map parsed records onto rows, one loader per format (called inside the document's transaction).

Rows are inserted with Core ``INSERT … RETURNING`` in batches: a whole edition is a few thousand
rules, and going through the ORM unit of work one object at a time would cost seconds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from kb.bodies import body_ids
from kb.bulk import insert_many
from kb.corpus.numbers import parent_of, sort_key
from kb.corpus.records import (
    CardSetDocument,
    CompRulesDocument,
    ParseWarning,
    RulePageDocument,
    RuleRecord,
    RulingRecord,
    RulingsPageDocument,
)
from kb.errors import KbError
from kb.langs import normalize_typography
from kb.models import (
    Card,
    CardClarification,
    CardLocalization,
    CardSet,
    Clarification,
    ClarificationText,
    Document,
    Edition,
    Example,
    GlossaryEntry,
    Printing,
    Rule,
    RuleReference,
    RuleText,
    RulingsPage,
)

_BATCH = 2000


def _insert_returning_ids(
    session: Session, model: Any, rows: Sequence[dict[str, Any]]
) -> list[int]:
    """Insert rows and return their new ids in the order given."""
    ids: list[int] = []
    for start in range(0, len(rows), _BATCH):
        chunk = rows[start : start + _BATCH]
        result = session.execute(
            insert(model).returning(model.id, sort_by_parameter_order=True), list(chunk)
        )
        ids.extend(result.scalars())
    return ids


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
    rule_ids = _insert_returning_ids(
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
    text_ids = _insert_returning_ids(
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


# --- cards and clarifications ------------------------------------------------------------------


def clarification_key(ruling: RulingRecord) -> str:
    """Content address of a ruling: its date and its original text, typography normalised."""
    lang = "en" if "en" in ruling.texts else sorted(ruling.texts)[0]
    text = normalize_typography(ruling.texts[lang]).casefold()
    return hashlib.sha256(f"{ruling.date.isoformat()}|{lang}|{text}".encode()).hexdigest()[:40]


class _Clarifications:
    """Finds or creates shared clarification rows for the rulings of one document."""

    def __init__(self, session: Session, origin: str) -> None:
        self.session = session
        self.origin = origin
        # AllPrintings repeats a card's rulings in every set it is printed in: ask once.
        self.known: dict[str, int] = {}
        self.texts_done: set[int] = set()

    def ensure(self, rulings: Sequence[RulingRecord]) -> list[int]:
        """Return the clarification id of each ruling, creating rows and texts as needed."""
        keys = [clarification_key(r) for r in rulings]
        found = self.known
        unknown = {k for k in keys if k not in found}
        if unknown:
            found.update(
                self.session.execute(
                    select(Clarification.key, Clarification.id).where(
                        Clarification.key.in_(unknown)
                    )
                ).all()
            )
        missing: dict[str, RulingRecord] = {}
        for key, ruling in zip(keys, rulings, strict=True):
            if key not in found:
                missing.setdefault(key, ruling)
        if missing:
            new_ids = _insert_returning_ids(
                self.session,
                Clarification,
                [{"key": k, "date": r.date, "source": r.source} for k, r in missing.items()],
            )
            found.update(zip(missing, new_ids, strict=True))
        ids = [found[k] for k in keys]
        todo = [(i, r) for i, r in zip(ids, rulings, strict=True) if i not in self.texts_done]
        if todo:
            self._ensure_texts([i for i, _ in todo], [r for _, r in todo])
            self.texts_done.update(i for i, _ in todo)
        return ids

    def _ensure_texts(self, ids: list[int], rulings: Sequence[RulingRecord]) -> None:
        existing = {
            (t.clarification_id, t.language, t.provenance): t
            for t in self.session.scalars(
                select(ClarificationText).where(ClarificationText.clarification_id.in_(set(ids)))
            )
        }
        rows: dict[tuple[int, str, str], dict[str, Any]] = {}
        for clar_id, ruling in zip(ids, rulings, strict=True):
            for lang, text in ruling.texts.items():
                provenance = ruling.provenance.get(lang, "official" if lang == "en" else "machine")
                key = (clar_id, lang, provenance)
                current = existing.get(key)
                if current is None:
                    rows.setdefault(
                        key,
                        {
                            "clarification_id": clar_id,
                            "language": lang,
                            "text": text,
                            "provenance": provenance,
                            "origin": self.origin,
                        },
                    )
                elif self.origin == "mtgjson" and current.origin != "mtgjson":
                    # Wizards' own typography (curly quotes) wins over a page's straight ones.
                    current.text, current.origin = text, self.origin
        _insert(self.session, ClarificationText, list(rows.values()))


def _link_cards(doc: Document, card_id: int, clar_ids: list[int]) -> list[dict[str, Any]]:
    seen: set[int] = set()
    rows = []
    for position, clar_id in enumerate(clar_ids):
        if clar_id not in seen:
            seen.add(clar_id)
            rows.append(
                {
                    "card_id": card_id,
                    "clarification_id": clar_id,
                    "document_id": doc.id,
                    "position": position,
                }
            )
    return rows


def load_card_sets(
    session: Session, doc: Document, sets: Iterable[CardSetDocument]
) -> list[ParseWarning]:
    """Load the sets of one MTGJSON document (a set file, or AllPrintings' 574) one at a time.

    Cards are shared by oracle id across sets; a card's rulings are linked once per document
    however many sets print it. Returns the warnings of every set, for the document to store.
    """
    clarifications = _Clarifications(session, "mtgjson")
    linked: set[tuple[int, int]] = set()
    warnings: list[ParseWarning] = []
    for parsed in sets:
        load_card_set(session, doc, parsed, clarifications, linked)
        warnings.extend(parsed.warnings)
        session.expunge_all()  # the set's rows are flushed: keep memory flat across 574 sets
    return warnings


def load_card_set(
    session: Session,
    doc: Document,
    parsed: CardSetDocument,
    clarifications: _Clarifications | None = None,
    linked: set[tuple[int, int]] | None = None,
) -> None:
    """Load an MTGJSON set: cards by oracle id, their names and texts, printings and rulings."""
    clarifications = clarifications or _Clarifications(session, "mtgjson")
    linked = set() if linked is None else linked
    cards = {
        c.key: c
        for c in session.scalars(
            select(Card).where(Card.key.in_([c.oracle_id for c in parsed.cards]))
        )
    }
    for record in parsed.cards:
        card = cards.get(record.oracle_id)
        if card is None:
            card = Card(key=record.oracle_id, oracle_id=record.oracle_id, name=record.name)
            session.add(card)
            cards[record.oracle_id] = card
        card.name, card.mana_value = record.name, record.mana_value
        card.layout, card.faces = record.layout, list(record.faces)
        card.keywords = list(record.keywords)
        card.mana_cost = record.mana_cost or None
        card.face_details = [dict(d) for d in record.face_details] or None
        card.legalities = dict(record.legalities) or None
    session.add(
        CardSet(
            code=parsed.code,
            name=parsed.name,
            release_date=parsed.release_date,
            document_id=doc.id,
        )
    )
    session.flush()
    locs = {
        (loc.card_id, loc.language): loc
        for loc in session.scalars(
            select(CardLocalization).where(
                CardLocalization.card_id.in_([c.id for c in cards.values()])
            )
        )
    }
    printing_rows: list[dict[str, Any]] = []
    link_rows: list[dict[str, Any]] = []
    for record in parsed.cards:
        card = cards[record.oracle_id]
        for lang, name in record.names.items():
            loc = locs.get((card.id, lang))
            if loc is None:
                loc = CardLocalization(card_id=card.id, language=lang)
                session.add(loc)
                locs[(card.id, lang)] = loc
            loc.name = name
            loc.type_line = record.type_lines.get(lang, "")
            loc.text = record.texts.get(lang, "")
        printing_rows.extend(
            {
                "card_id": card.id,
                "set_code": p.set_code,
                "number": p.number,
                "uuid": p.uuid,
                "rarity": p.rarity,
                "document_id": doc.id,
            }
            for p in record.printings
        )
        if record.rulings:
            for row in _link_cards(doc, card.id, clarifications.ensure(record.rulings)):
                if (card.id, row["clarification_id"]) not in linked:
                    linked.add((card.id, row["clarification_id"]))
                    link_rows.append(row)
    session.flush()
    _insert(session, Printing, printing_rows)
    _insert(session, CardClarification, link_rows)


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
    clar_ids = _Clarifications(session, "rulings_page").ensure(parsed.rulings)
    _insert(session, CardClarification, _link_cards(doc, card.id, clar_ids))

"""`kb stats`: counts of everything, per edition and per language, and translation coverage.

Apart from the lookups (kb.lookup): a whole-database report, not a view of one rule or card.
The ingest summary prints the same counts; at the whole history counting costs about a second,
so a completed ingest keeps them (:func:`keep_counts`, table ``stored_counts``) and the summary
of the next one reads them back while nothing they were counted from changed (:func:`kept_counts`).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from kb.code_digest import files_digest
from kb.errors import NotFoundError
from kb.langs import LANGS
from kb.models import (
    Card,
    CardLocalization,
    Clarification,
    ClarificationText,
    Document,
    Edition,
    Example,
    GlossaryEntry,
    Printing,
    Rule,
    RuleText,
    RulingsPage,
    StoredCounts,
)

_KEPT = "stats"
# The code the counts come from: this module and the versions stage (translation drift). A kb
# that counts differently does not trust counts an older one kept.
_COUNTING_CODE = (Path(__file__), *sorted((Path(__file__).parent / "versions").glob("*.py")))


@cache
def _code_digest() -> str:
    return files_digest(_COUNTING_CODE)


def counts_inputs(session: Session) -> str:
    """Digest of what the counts are counted from: every document row (loaded or failed, with
    its content, format and parser version) and the counting code.

    Every count comes from rows a document owns or brought (recognition and the drift of
    translations follow the documents too), so the same documents give the same counts. The
    one writer of counted rows without a document, ``kb import po``, calls :func:`forget_counts`.
    """
    digest = hashlib.sha256(_code_digest().encode())
    rows = session.execute(
        select(
            Document.path,
            Document.sha256,
            Document.status,
            Document.format,
            Document.parser_version,
        )
    ).all()
    for row in sorted(rows, key=lambda r: r[0]):
        digest.update("\0".join("" if v is None else str(v) for v in row).encode() + b"\n")
    return digest.hexdigest()


def kept_counts(session: Session) -> dict[str, Any] | None:
    """The counts kept by the last completed ingest, if still those of the knowledge base."""
    row = session.execute(
        select(StoredCounts.inputs, StoredCounts.payload).where(StoredCounts.name == _KEPT)
    ).first()
    if row is None or row.inputs != counts_inputs(session):
        return None
    counts: dict[str, Any] = json.loads(row.payload)
    return counts


def keep_counts(session: Session) -> dict[str, Any]:
    """Count (unless the kept counts still hold) and keep the counts, in the caller's
    transaction; the caller holds the writer lock, so nothing changes while it counts."""
    kept = kept_counts(session)
    if kept is not None:
        return kept
    counts = stats_view(session)
    payload = json.dumps(counts, ensure_ascii=False)
    if json.loads(payload) != counts:  # a key JSON cannot keep as it is (None, a number)
        forget_counts(session)
        return counts
    session.merge(StoredCounts(name=_KEPT, inputs=counts_inputs(session), payload=payload))
    session.flush()
    return counts


def forget_counts(session: Session) -> None:
    """Drop the kept counts (a writer changed counted rows without changing a document)."""
    session.execute(delete(StoredCounts))


def summary_counts(session: Session) -> dict[str, Any]:
    """The counts for a summary: the kept ones when they hold, else counted now."""
    kept = kept_counts(session)
    return kept if kept is not None else stats_view(session)


def _count(session: Session, query: Any) -> int:
    return int(session.scalar(select(func.count()).select_from(query.subquery())) or 0)


def stats_view(session: Session) -> dict[str, Any]:
    """Counts of everything, per edition and per language, and translation coverage."""
    docs = session.execute(
        select(Document.format, Document.status, func.count())
        .group_by(Document.format, Document.status)
        .order_by(Document.format, Document.status)  # the same view on every database
    ).all()
    documents: dict[str, dict[str, int]] = {}
    for fmt, status, n in docs:
        documents.setdefault(fmt or "unknown", {})[status] = n
    # Three grouped counts for all editions (not three queries per edition: a hundred editions
    # made the summary of a no-op ingest cost more than the ingest).
    kinds: dict[int, dict[str, int]] = {}
    for edition_id, kind, n in session.execute(
        select(Rule.edition_id, Rule.kind, func.count())
        .group_by(Rule.edition_id, Rule.kind)
        .order_by(Rule.edition_id, Rule.kind)
    ):
        kinds.setdefault(edition_id, {})[kind] = n
    examples = dict(
        session.execute(
            select(Rule.edition_id, func.count(Example.id))
            .join(RuleText, RuleText.id == Example.rule_text_id)
            .join(Rule, Rule.id == RuleText.rule_id)
            .group_by(Rule.edition_id)
        ).all()
    )
    glossary = dict(
        session.execute(
            select(GlossaryEntry.edition_id, func.count()).group_by(GlossaryEntry.edition_id)
        ).all()
    )
    edition_rows = []
    for ed in session.scalars(
        select(Edition).order_by(Edition.kind, Edition.language, Edition.effective_date)
    ):
        counts = kinds.get(ed.id, {})
        edition_rows.append(
            {
                "key": ed.key,
                "kind": ed.kind,
                "language": ed.language,
                "effective_date": ed.effective_date.isoformat() if ed.effective_date else None,
                "rules": {k: counts.get(k, 0) for k in ("part", "chapter", "rule", "subrule")},
                "examples": examples.get(ed.id, 0),
                "glossary": glossary.get(ed.id, 0),
            }
        )
    return {
        "documents": documents,
        "editions": edition_rows,
        "cards": _count(session, select(Card.id)),
        "cards_recognised_pages": _count(
            session, select(RulingsPage.id).where(RulingsPage.recognised.is_(True))
        ),
        "printings": _count(session, select(Printing.id)),
        "clarifications": _count(session, select(Clarification.id)),
        "languages": _with_drift(session, {lang: _language_stats(session, lang) for lang in LANGS}),
    }


def _with_drift(session: Session, languages: dict[str, Any]) -> dict[str, Any]:
    """Add each translated language's drift: translated, current, stale, missing, provenances."""
    from kb.versions import drift_summary

    for lang, counts in drift_summary(session).items():
        languages[lang]["translations"] = counts
    return languages


def _language_stats(session: Session, lang: str) -> dict[str, Any]:
    texts = dict(
        session.execute(
            select(ClarificationText.provenance, func.count())
            .where(ClarificationText.language == lang)
            .group_by(ClarificationText.provenance)
            .order_by(ClarificationText.provenance)
        ).all()
    )
    card_names = _count(
        session, select(CardLocalization.id).where(CardLocalization.language == lang)
    )
    result: dict[str, Any] = {
        "clarification_texts": dict(sorted(texts.items())),
        "card_names": card_names,
    }
    from kb.lookup import find_edition

    try:
        newest = find_edition(session)
    except NotFoundError:
        return result
    numbered = select(Rule.number).where(
        Rule.edition_id == newest.id, Rule.kind.in_(("rule", "subrule"))
    )
    total = _count(session, numbered)
    if lang == "en":
        result["rule_texts"] = {
            "translated": total,
            "total": total,
            "coverage": 1.0 if total else 0.0,
        }
        return result
    translated_numbers = (
        select(Rule.number)
        .join(Edition, Edition.id == Rule.edition_id)
        .join(RuleText, RuleText.rule_id == Rule.id)
        .where(Edition.kind == "translations", RuleText.language == lang)
    )
    by_provenance = dict(
        session.execute(
            select(RuleText.provenance, func.count(func.distinct(Rule.number)))
            .join(Rule, Rule.id == RuleText.rule_id)
            .join(Edition, Edition.id == Rule.edition_id)
            .where(Edition.kind == "translations", RuleText.language == lang)
            .group_by(RuleText.provenance)
            .order_by(RuleText.provenance)
        ).all()
    )
    translated = _count(session, numbered.where(Rule.number.in_(translated_numbers)).distinct())
    result["rule_texts"] = {
        "translated": translated,
        "total": total,
        "coverage": round(translated / total, 6) if total else 0.0,
        "by_provenance": dict(sorted(by_provenance.items())),
        "edition": newest.effective_date.isoformat() if newest.effective_date else None,
    }
    return result

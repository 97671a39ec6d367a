"""Rule bodies stored once: content-addressed rows that every edition's identical text shares.

Writers of rule texts turn bodies into ids here (get or create, in batches); the ingest removes
the bodies no rule text uses any more after it deleted rule texts, and only then.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from sqlalchemy import delete, exists, func, select
from sqlalchemy.orm import Session

from kb.bulk import insert_many
from kb.models import RuleBody, RuleText

# Bounded IN lists (SQLite takes 32,766 parameters, PostgreSQL 65,535).
_BATCH = 5000


def digest(text: str) -> str:
    """The key a body is stored under: the sha256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def body_ids(session: Session, texts: Sequence[str]) -> list[int]:
    """The ids of these bodies, in order, inserting the ones not stored yet."""
    digests = [digest(text) for text in texts]  # ~2,000 an edition, ~220,000 a whole history
    wanted = dict(zip(digests, texts, strict=True))
    found: dict[str, int] = {}
    keys = sorted(wanted)
    for start in range(0, len(keys), _BATCH):
        chunk = keys[start : start + _BATCH]
        found.update(
            session.execute(
                select(RuleBody.sha256, RuleBody.id).where(RuleBody.sha256.in_(chunk))
            ).all()
        )
    missing = [{"sha256": key, "text": wanted[key]} for key in keys if key not in found]
    if missing:
        insert_many(session, RuleBody, missing)
        new = [row["sha256"] for row in missing]
        for start in range(0, len(new), _BATCH):
            chunk = new[start : start + _BATCH]
            found.update(
                session.execute(
                    select(RuleBody.sha256, RuleBody.id).where(RuleBody.sha256.in_(chunk))
                ).all()
            )
    return [found[key] for key in digests]


def body_id(session: Session, text: str) -> int:
    """The id of one body (stored if new)."""
    return body_ids(session, [text])[0]


def remove_unused(session: Session) -> int:
    """Delete the bodies no rule text uses; return how many went (after rule texts were deleted)."""
    used = exists().where(RuleText.body_id == RuleBody.id)
    return session.execute(delete(RuleBody).where(~used)).rowcount or 0


def counts(session: Session) -> tuple[int, int]:
    """(rule texts, distinct bodies they hold): how much storing bodies once saves."""
    texts = session.scalar(select(func.count()).select_from(RuleText)) or 0
    bodies = session.scalar(select(func.count(func.distinct(RuleText.body_id)))) or 0
    return texts, bodies

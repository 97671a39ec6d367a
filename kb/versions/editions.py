"""Which edition a caller means: an Edition id, an ISO date, an edition key, or the newest one.

Every public query of the link and versions stages takes such an ``edition`` argument, so the
site, the exports and the CLI all name editions the same way.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.errors import KbUsageError, NotFoundError
from kb.models import Edition

EditionRef = Edition | int | str | dt.date | None


def english_editions(session: Session) -> list[Edition]:
    """The loaded official English editions, oldest first."""
    return list(
        session.scalars(
            select(Edition)
            .where(Edition.kind == "comprules", Edition.language == "en")
            .order_by(Edition.effective_date, Edition.id)
        )
    )


def _loaded(session: Session) -> str:
    dates = [e.effective_date.isoformat() for e in english_editions(session) if e.effective_date]
    return ", ".join(dates) or "none"


def resolve_edition(session: Session, edition: EditionRef = None) -> Edition:
    """The edition meant by an id, an ISO date, a key (``en:2026-01-16``) or None (the newest)."""
    if isinstance(edition, Edition):
        return edition
    if edition is None or edition == "":
        found = english_editions(session)
        if not found:
            raise NotFoundError(
                "no Comprehensive Rules edition is loaded: run `kb ingest` on a "
                "MagicCompRules file first"
            )
        return found[-1]
    if isinstance(edition, int) or (isinstance(edition, str) and edition.isdigit()):
        row = session.get(Edition, int(edition))
        if row is None:
            raise NotFoundError(f"no edition has the id {edition}")
        return row
    if isinstance(edition, str) and ":" in edition:
        row = session.scalar(select(Edition).where(Edition.key == edition))
        if row is None:
            raise NotFoundError(f"no edition {edition!r} is loaded (English: {_loaded(session)})")
        return row
    if isinstance(edition, str):
        try:
            date = dt.date.fromisoformat(edition.strip())
        except ValueError:
            raise KbUsageError(
                f"{edition!r} is not an edition: give its effective date as YYYY-MM-DD "
                f"(loaded: {_loaded(session)})"
            ) from None
    else:
        date = edition
    row = session.scalar(
        select(Edition).where(
            Edition.kind == "comprules", Edition.language == "en", Edition.effective_date == date
        )
    )
    if row is None:
        raise NotFoundError(f"no edition effective {date} is loaded (loaded: {_loaded(session)})")
    return row


def edition_label(edition: Edition | None) -> str | None:
    """How an edition is shown: its effective date, or its key for a set of translations."""
    if edition is None:
        return None
    return edition.effective_date.isoformat() if edition.effective_date else edition.key

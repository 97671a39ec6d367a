"""After an ingest, relink only what its documents changed (the pipeline's link step).

Three cases: card data only (one set file, rulings pages) relinks the texts those documents
touched (kb.links.incremental); English editions only relinks those editions and the newest;
anything else, or links already behind before the run, is a full rebuild (``rebuild``, batched
and resumable). Each leaves the ``links`` stage marked in step only when it has finished.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import select

from kb.db import Database, mark_derived
from kb.ingest import IngestReport
from kb.models import Document, Edition

if TYPE_CHECKING:  # the link stage is imported only when there is linking to do
    from kb.links import CardChanges


def card_changes(db: Database) -> CardChanges:
    """Start noting what the card documents of an ingest hold before and after."""
    from kb.links import CardChanges

    changes = CardChanges()
    with db.session() as session:
        changes.start(session)
    return changes


def relink_after_ingest(
    db: Database,
    report: IngestReport,
    changes: CardChanges | None,
    *,
    rebuild: Callable[[Database], object],
) -> bool:
    """Bring the links in step after an ingest, doing only what its documents changed.

    ``changes``: what the run's card documents held (None when the links were behind before
    the run began: then everything is relinked, resuming an interrupted rebuild). True when
    only card data changed: then ``changes`` holds every card and clarification it touched.
    """
    if changes is None or report.removed or not report.loaded:
        rebuild(db)
        return False
    if not changes.other_formats:
        from kb.links import relink_card_data

        with db.session() as session:
            try:
                mark_derived(session, "links", inputs="")
                session.commit()
                changes.finish(session, report.loaded)
                relink_card_data(session, changes)
                mark_derived(session, "links")
                session.commit()
            except BaseException:
                session.rollback()
                raise
        return True
    editions = _new_editions(db, report)
    if editions is None:
        rebuild(db)
    else:
        relink_editions(db, editions)
    return False


def _new_editions(db: Database, report: IngestReport) -> list[int] | None:
    """The English editions to link when the run only added or replaced such editions.

    Links into an edition come from its own texts, the translations that follow it and the
    card data; nothing in another edition changes them. So when every document the run loaded
    is an English Comprehensive Rules file (and none was removed), linking those editions, and
    the newest one (translations that followed a replaced edition are reattached to it), gives
    the same links as a full rebuild. None: anything else changed, relink everything.
    """
    if report.removed or not report.loaded:
        return None
    with db.session() as session:
        documents = session.execute(
            select(Document.id, Document.format, Document.language).where(
                Document.path.in_(report.loaded)
            )
        ).all()
        if len(documents) != len(report.loaded) or any(
            (fmt, lang) != ("comprules", "en") for _, fmt, lang in documents
        ):
            return None
        ids = set(
            session.scalars(
                select(Edition.id).where(Edition.document_id.in_([d for d, _, _ in documents]))
            )
        )
        newest = session.scalar(
            select(Edition.id)
            .where(Edition.kind == "comprules", Edition.language == "en")
            .order_by(Edition.effective_date.desc(), Edition.id.desc())
            .limit(1)
        )
    return sorted(ids | ({newest} if newest is not None else set()))


def rules_documents_only(db: Database, report: IngestReport) -> bool:
    """Whether the run loaded Comprehensive Rules documents (any language) and nothing else.

    Such a run changes no card data: the card and ruling search items stay as they were
    (the index update then builds the rules' items only).
    """
    if report.removed or not report.loaded:
        return False
    with db.session() as session:
        formats = session.scalars(
            select(Document.format).where(Document.path.in_(report.loaded))
        ).all()
    return len(formats) == len(report.loaded) and all(f == "comprules" for f in formats)


def added_edition(db: Database, report: IngestReport) -> int | None:
    """The English edition the run added, when it loaded that one document only and the
    edition is newer than every other English edition; else None."""
    if report.removed or len(report.loaded) != 1:
        return None
    with db.session() as session:
        found = session.execute(
            select(Edition.id, Edition.effective_date)
            .join(Document, Document.id == Edition.document_id)
            .where(
                Document.path == report.loaded[0],
                Document.format == "comprules",
                Document.language == "en",
                Edition.kind == "comprules",
                Edition.language == "en",
            )
        ).all()
        if len(found) != 1 or found[0][1] is None:
            return None
        edition_id, day = found[0]
        newer = session.scalar(
            select(Edition.id).where(
                Edition.kind == "comprules",
                Edition.language == "en",
                Edition.id != edition_id,
                Edition.effective_date >= day,
            )
        )
    return None if newer is not None else edition_id


def relink_editions(db: Database, editions: list[int]) -> dict[str, object]:
    """Rebuild only the links into these English editions (batched and resumable as above)."""
    from kb.links import build_links

    with db.session() as session:
        try:
            mark_derived(session, "links", inputs="")
            session.commit()
            counts = build_links(session, editions, commit_each=True, unfollowed=True)
            mark_derived(session, "links")
            session.commit()
        except BaseException:
            session.rollback()
            raise
        return counts

"""The ingest summary's counts, kept by a completed ingest and trusted only while they hold.

A no-op re-ingest at the whole history spent about a second counting what it had just counted;
the counts are now kept (kb.stats, table ``stored_counts``) with a digest of the documents and
the counting code. These tests check that the kept counts are the counted ones, that a no-op
ingest prints them without counting, and that any change of a document, or a translation
catalog imported, makes the next summary count again.
"""

from __future__ import annotations

import shutil

import pytest

import kb.stats
from kb.cli.reports import ingest_summary
from kb.pipeline import ingest, open_db
from kb.stats import forget_counts, kept_counts, stats_view, summary_counts


def _kept_and_counted(settings):
    db = open_db(settings)
    try:
        with db.session() as session:
            return kept_counts(session), stats_view(session)
    finally:
        db.dispose()


def test_an_ingest_keeps_the_counts_it_would_print(settings, seeds):
    report = ingest(settings, [seeds])
    kept, counted = _kept_and_counted(settings)
    assert kept is not None and kept == counted
    assert ingest_summary(settings, report)["knowledge_base"] == counted


def test_a_noop_ingest_prints_the_kept_counts_without_counting(settings, seeds, monkeypatch):
    ingest(settings, [seeds])
    _, counted = _kept_and_counted(settings)

    def no_counting(_session):
        raise AssertionError("counted again although no document changed")

    monkeypatch.setattr(kb.stats, "stats_view", no_counting)
    report = ingest(settings, [seeds])
    assert not report.changed
    assert ingest_summary(settings, report)["knowledge_base"] == counted


def test_a_changed_document_is_counted_again(settings, seed, tmp_path):
    corpus = tmp_path / "c"
    corpus.mkdir()
    page = corpus / seed("000").name
    shutil.copy(seed("000"), page)
    ingest(settings, [corpus])
    before, _ = _kept_and_counted(settings)
    lines = page.read_text(encoding="utf-8").splitlines()
    page.write_text("\n".join(lines[:-2]) + "\n", encoding="utf-8")  # drop the last ruling
    ingest(settings, [corpus])
    kept, counted = _kept_and_counted(settings)
    assert kept == counted and kept != before
    assert kept["clarifications"] == before["clarifications"] - 1


def test_a_failed_document_changes_what_the_counts_hold(settings, seed, tmp_path):
    corpus = tmp_path / "c"
    corpus.mkdir()
    shutil.copy(seed("000"), corpus / seed("000").name)
    ingest(settings, [corpus])
    (corpus / "broken.json").write_text("{not json", encoding="utf-8")
    report = ingest(settings, [corpus])
    assert report.failed
    kept, counted = _kept_and_counted(settings)
    assert kept == counted and sum(counted["documents"]["unknown"].values()) == 1


def test_forgotten_counts_are_counted_again(settings, seeds):
    ingest(settings, [seeds])
    db = open_db(settings)
    try:
        with db.session() as session, session.begin():
            forget_counts(session)
        with db.session() as session:
            assert kept_counts(session) is None
            assert summary_counts(session) == stats_view(session)
    finally:
        db.dispose()


@pytest.mark.parametrize("field", ["sha256", "status", "parser_version"])
def test_the_digest_covers_what_a_document_is(settings, seeds, field):
    from sqlalchemy import update

    from kb.models import Document

    ingest(settings, [seeds])
    db = open_db(settings)
    try:
        with db.session() as session, session.begin():
            before = kb.stats.counts_inputs(session)
            value = {"sha256": "0" * 64, "status": "failed", "parser_version": 999}[field]
            session.execute(update(Document).values({field: value}))
            assert kb.stats.counts_inputs(session) != before
            assert kept_counts(session) is None
            session.rollback()
    finally:
        db.dispose()

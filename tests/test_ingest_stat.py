"""Unchanged files are skipped by their stat before any read; a changed one is always seen."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from sqlalchemy import select, update

import kb.ingest
from kb.models import Document
from kb.pipeline import ingest, open_db


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files the ingest reads (hashes) in this test, in order."""
    seen: list[Path] = []
    real = kb.ingest._read

    def spy(path: Path) -> tuple[str, int, bytes]:
        seen.append(path)
        return real(path)

    monkeypatch.setattr(kb.ingest, "_read", spy)
    return seen


def _stats(settings) -> dict[str, str | None]:
    db = open_db(settings)
    try:
        with db.session() as s:
            return {p: st for p, st in s.execute(select(Document.path, Document.file_stat))}
    finally:
        db.dispose()


def test_an_unchanged_file_is_not_read_again(settings, seeds, tmp_path, monkeypatch, reads):
    monkeypatch.setattr(kb.ingest, "SETTLE_NS", 0)  # trust the stat of files written just now
    corpus = tmp_path / "c"
    shutil.copytree(seeds, corpus)
    assert len(ingest(settings, [corpus]).loaded) == 3
    assert len(reads) == 3 and all(_stats(settings).values())
    reads.clear()
    report = ingest(settings, [corpus])
    assert len(report.unchanged) == 3 and not report.loaded and reads == []
    # A knowledge base whose documents have no stat yet (made before kb kept them): the next
    # run hashes each file once, finds it unchanged and keeps its stat for the run after.
    db = open_db(settings)
    with db.session() as s, s.begin():
        s.execute(update(Document).values(file_stat=None))
    db.dispose()
    assert len(ingest(settings, [corpus]).unchanged) == 3 and len(reads) == 3
    reads.clear()
    assert len(ingest(settings, [corpus]).unchanged) == 3 and reads == []


def test_a_rewrite_of_the_same_size_and_mtime_is_seen(settings, seed, tmp_path, monkeypatch):
    """A tool that rewrites a file and sets its mtime back still changes its ctime."""
    monkeypatch.setattr(kb.ingest, "SETTLE_NS", 0)
    corpus = tmp_path / "c"
    corpus.mkdir()
    page = corpus / seed("000").name
    shutil.copy(seed("000"), page)
    ingest(settings, [corpus])
    before = page.stat()
    text = page.read_text(encoding="utf-8")
    changed = text.replace("2023", "2022", 1)
    assert changed != text and len(changed) == len(text)
    page.write_text(changed, encoding="utf-8")
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert page.stat().st_size == before.st_size
    assert page.stat().st_mtime_ns == before.st_mtime_ns
    assert ingest(settings, [corpus]).loaded == [page.resolve().as_posix()]


def test_a_file_changed_just_now_is_hashed_on_every_run(
    settings, seed, tmp_path, monkeypatch, reads
):
    """Within SETTLE_NS of its last change a file's stat is not stored: a write in the same
    clock tick after the read would leave the stat as it was and the change unseen."""
    # A window of a day: the file stays "just changed" however slowly a busy machine runs.
    monkeypatch.setattr(kb.ingest, "SETTLE_NS", 86_400 * 10**9)
    corpus = tmp_path / "c"
    corpus.mkdir()
    page = corpus / seed("000").name
    shutil.copy(seed("000"), page)
    ingest(settings, [corpus])
    assert list(_stats(settings).values()) == [None]
    reads.clear()
    assert len(ingest(settings, [corpus]).unchanged) == 1 and reads == [page]


def test_a_newer_parser_parses_unchanged_files_of_its_format_again(
    settings, seeds, tmp_path, monkeypatch, reads
):
    """Raising a format's parser version re-reads that format's files, and only those."""
    monkeypatch.setattr(kb.ingest, "SETTLE_NS", 0)
    corpus = tmp_path / "c"
    shutil.copytree(seeds, corpus)
    assert len(ingest(settings, [corpus]).loaded) == 3
    reads.clear()
    newer = {
        **kb.ingest.PARSER_VERSIONS,
        "rulings_page": kb.ingest.PARSER_VERSIONS["rulings_page"] + 1,
    }
    monkeypatch.setattr(kb.ingest, "PARSER_VERSIONS", newer)
    report = ingest(settings, [corpus])
    assert [Path(k).name for k in report.loaded] == [Path(k).name for k in report.reparsed]
    assert len(report.reparsed) == 2 and len(report.unchanged) == 1  # the two rulings pages
    assert sorted(p.name for p in reads) == sorted(Path(k).name for k in report.reparsed)
    reads.clear()
    again = ingest(settings, [corpus])  # recorded with the newer version: nothing to redo
    assert len(again.unchanged) == 3 and not again.reparsed and reads == []


def test_documents_made_before_parser_versions_are_parsed_once_more(
    settings, seeds, tmp_path, monkeypatch
):
    """A knowledge base upgraded from before versions were kept (NULL) is parsed again once."""
    monkeypatch.setattr(kb.ingest, "SETTLE_NS", 0)
    corpus = tmp_path / "c"
    shutil.copytree(seeds, corpus)
    ingest(settings, [corpus])
    db = open_db(settings)
    with db.session() as s, s.begin():
        s.execute(update(Document).values(parser_version=None))
    db.dispose()
    assert len(ingest(settings, [corpus]).reparsed) == 3
    assert len(ingest(settings, [corpus]).unchanged) == 3


def test_a_failed_document_is_retried_by_a_newer_parser(settings, tmp_path, monkeypatch):
    """A file no parser read is owed a try by any newer one; until then it fails as before."""
    monkeypatch.setattr(kb.ingest, "SETTLE_NS", 0)
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "odd.txt").write_text("Neither rules nor rulings.\n", encoding="utf-8")
    assert len(ingest(settings, [corpus]).failed) == 1
    assert len(ingest(settings, [corpus]).failed) == 1
    newer = {**kb.ingest.PARSER_VERSIONS, "rule_page": kb.ingest.PARSER_VERSIONS["rule_page"] + 1}
    monkeypatch.setattr(kb.ingest, "PARSER_VERSIONS", newer)
    report = ingest(settings, [corpus])
    assert len(report.reparsed) == 1 and len(report.failed) == 1

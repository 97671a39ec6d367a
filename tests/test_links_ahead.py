"""English vocabularies built ahead by a helper process during a full link run (kb.links.ahead).

The helper reads the knowledge base through its own connection and sends what the run would
have built and kept itself; the links come out the same, and a helper that fails only leaves
the run to build the vocabularies.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.links import ahead, build_links
from kb.links.ahead import VocabulariesAhead
from kb.links.vocabularies import stored_vocabulary
from kb.models import Link
from kb.versions import english_editions


@pytest.fixture
def session(full_db) -> Iterator[Session]:
    with full_db.session() as session:
        yield session
        session.rollback()


def _url(session: Session) -> str:
    return session.get_bind().engine.url.render_as_string(hide_password=False)


def _links(session: Session) -> list[tuple]:
    columns = [c for c in Link.__table__.columns if c.key != "id"]
    return sorted(tuple(row) for row in session.execute(select(*columns)))


def test_the_helper_sends_what_the_run_builds(session) -> None:
    editions = english_editions(session)
    helper = VocabulariesAhead(_url(session), [e.id for e in editions])
    try:
        for edition in editions:
            assert helper.take(edition.id) == stored_vocabulary(session, edition)
        assert helper.take(editions[0].id) is None  # each one is sent once
    finally:
        helper.close()
    assert not helper.failed


def test_a_full_run_with_the_helper_links_the_same(session, monkeypatch) -> None:
    taken: list[int] = []
    take = VocabulariesAhead.take

    def counted(self, edition_id):
        found = take(self, edition_id)
        if found is not None:
            taken.append(edition_id)
        return found

    monkeypatch.setattr(VocabulariesAhead, "take", counted)
    before = _links(session)
    monkeypatch.setattr(ahead, "MIN_EDITIONS", len(english_editions(session)) + 1)
    build_links(session)
    assert taken == []  # too few editions for a helper
    alone = _links(session)
    monkeypatch.setattr(ahead, "MIN_EDITIONS", 1)
    build_links(session)
    assert taken == [e.id for e in english_editions(session)]
    assert _links(session) == alone == before


def test_a_helper_that_fails_leaves_the_run_to_build(session, caplog) -> None:
    newest = english_editions(session)[-1]
    helper = VocabulariesAhead(_url(session), [10**9, newest.id])  # no edition 10**9
    with caplog.at_level(logging.WARNING, logger="kb.links.ahead"):
        try:
            assert helper.take(10**9) is None
            assert helper.take(newest.id) is None
        finally:
            helper.close()
    assert helper.failed
    assert "the helper failed: LookupError" in caplog.text

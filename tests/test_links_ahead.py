"""English vocabularies built, and texts matched, ahead by a helper process during a full link
run (kb.links.ahead).

The helper reads the knowledge base through its own connection and sends what the run would
have built, kept and matched itself; the links and the walk's kept state come out the same, and
a helper that fails, even half-way, only leaves the run to build and match the rest.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.links import ahead, build_links
from kb.links.ahead import VocabulariesAhead
from kb.links.vocabularies import stored_vocabulary
from kb.links.walk_state import plain_values
from kb.models import Link, LinkWalkState
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


def _kept_walk(session: Session) -> object:
    """The walk's state kept for the next new edition (kb.links.walk_state), as values."""
    data = session.scalar(select(LinkWalkState.data).where(LinkWalkState.name == "links"))
    return plain_values(zlib.decompress(data))


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


def _matched_by_helper(monkeypatch) -> list[int]:
    """Counts, per edition the walk took a helper's spans for, how many texts they were."""
    counts: list[int] = []
    fed = VocabulariesAhead.fed

    def counted(self, edition_id):
        found = fed(self, edition_id)
        if found is None:
            return None

        def take():
            spans = found.take()
            counts.append(len(spans or {}))
            return spans

        return ahead.Feed(found.share, found.stale, take)

    monkeypatch.setattr(VocabulariesAhead, "fed", counted)
    return counts


def test_texts_matched_by_the_helper_give_the_links_and_state_of_the_run_alone(
    session, monkeypatch
) -> None:
    monkeypatch.setattr(ahead, "MIN_EDITIONS", 10**6)
    build_links(session)
    alone, kept = _links(session), _kept_walk(session)
    monkeypatch.setattr(ahead, "MIN_EDITIONS", 1)
    counts = _matched_by_helper(monkeypatch)
    build_links(session)
    # The first edition's texts but the walk's share, at least: the helper matched them.
    assert counts and counts[0] > 0
    assert _links(session) == alone
    assert _kept_walk(session) == kept


@pytest.mark.parametrize("messages", [1, 2, 5])
def test_a_helper_that_stops_half_way_leaves_the_run_to_match_the_rest(
    session, monkeypatch, messages
) -> None:
    """The helper's messages stop after a few (it died): the run builds the vocabularies and
    matches the texts it did not receive, with the same links."""
    monkeypatch.setattr(ahead, "MIN_EDITIONS", 10**6)
    build_links(session)
    alone, kept = _links(session), _kept_walk(session)
    monkeypatch.setattr(ahead, "MIN_EDITIONS", 1)
    receive = VocabulariesAhead._receive_one
    received: list[int] = []

    def stopping(self):
        if len(received) == messages:
            self.failed = True
            return False
        received.append(1)
        return receive(self)

    monkeypatch.setattr(VocabulariesAhead, "_receive_one", stopping)
    build_links(session)
    assert len(received) == messages
    assert _links(session) == alone
    assert _kept_walk(session) == kept

"""The broad lane (issue 15): broad searches one at a time, never in the way of the others."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from search_kb import ingested, run

from kb.search import lane as lanes
from kb.search.lane import Lane, LaneBusy


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small corpus ingested and indexed through the CLI."""
    folder = tmp_path_factory.mktemp("lane") / "_kb"
    ingested(folder)
    assert run(folder, "index").exit_code == 0
    return folder


@pytest.fixture
def index(home: Path) -> Iterator[Any]:
    from kb.search import open_index

    with open_index(home / "index") as opened:
        yield opened


@pytest.fixture
def lane(monkeypatch: pytest.MonkeyPatch) -> Lane:
    """A lane of the process's own for the test: one place, one waiting search, a short wait."""
    fresh = Lane(width=1, queue=1, wait=0.3)
    monkeypatch.setattr(lanes, "LANE", fresh)
    return fresh


def test_the_lane_queues_then_refuses() -> None:
    lane = Lane(width=1, queue=1, wait=5.0)
    lane.acquire()
    got: list[str] = []
    waiter = threading.Thread(target=lambda: (lane.acquire(), got.append("in")))
    waiter.start()
    deadline = time.monotonic() + 5
    while lane.waiting == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lane.waiting == 1 and not got  # the second one waits its turn
    with pytest.raises(LaneBusy, match="too many broad searches waiting"):
        lane.acquire()  # the queue is full: refused at once
    lane.release()
    waiter.join(5)
    assert got == ["in"] and lane.entered == 2 and lane.refused == 1
    lane.release()


def test_a_wait_past_the_bound_is_refused() -> None:
    lane = Lane(width=1, queue=4, wait=0.05)
    lane.acquire()
    with pytest.raises(LaneBusy, match=r"queued for more than 0\.05 s") as caught:
        lane.acquire()
    assert caught.value.retry_after > 0 and lane.waiting == 0
    lane.release()


@pytest.mark.parametrize(
    ("query", "fuzzy", "broad"),
    [
        ("vote", False, False),
        ("ring tempts you", False, False),
        ("tempt*", False, False),
        ("mulligna", True, False),
        ("701.1", False, False),
        ("*a*", False, True),
        ("[a TO c]", False, True),
        ("creature spell ability counter", True, True),
    ],
)
def test_broad_queries_take_the_lane_and_give_it_back(
    index: Any, lane: Lane, query: str, fuzzy: bool, broad: bool
) -> None:
    from kb.search import QueryError

    with contextlib.suppress(QueryError):  # too broad is fine here: the lane is what is checked
        index.search(query, fuzzy=fuzzy, limit=5)
    assert lane.entered == (1 if broad else 0), query
    assert lane.acquire() is None  # given back, even after a refusal
    lane.release()


def test_many_expansions_make_a_query_broad(
    index: Any, lane: Lane, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kb.search import limits

    index.search("t*", limit=5)
    assert lane.entered == 0
    monkeypatch.setattr(limits, "BROAD_EXPANSIONS", 2)
    index.search("t*", limit=5)
    assert lane.entered == 1


def test_simple_searches_are_answered_while_the_lane_is_held(index: Any, lane: Lane) -> None:
    """The lane's place taken (a broad search running): simple searches do not wait for it,
    a broad one waits, then is refused once the wait passes its bound."""
    lane.acquire()
    try:
        # Had they asked for the lane, they would be refused after its 0.3 s wait.
        assert index.search("vote", limit=5)["results"]
        assert index.search("tempt*", limit=5)["results"]
        assert index.search("mulligna", fuzzy=True, limit=5) is not None
        assert lane.entered == 1  # only the test's own place
        with pytest.raises(LaneBusy, match="queued for more than"):
            index.search("*a*", limit=5)
    finally:
        lane.release()
    assert index.search("*ote", limit=5) is not None  # free again: answered


def test_the_api_answers_503_with_retry_after_when_the_lane_is_full(home: Path, lane: Lane) -> None:
    from kb.config import Settings
    from kb.serve import KbApp

    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    app = KbApp(Settings(home=home, database_url=url))
    answers: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        answers["status"], answers["headers"] = status, dict(headers)

    def get(query: str) -> str:
        environ = {"REQUEST_METHOD": "GET", "REQUEST_URI": f"/api/search?q={query}"}
        return b"".join(app(environ, start_response)).decode()

    lane.acquire()
    try:
        body = get("vote")
        assert answers["status"].startswith("200"), body
        body = get("%2Aa%2A")  # *a*
        assert answers["status"].startswith("503"), body
        assert answers["headers"]["Retry-After"] == str(lanes.RETRY_AFTER)
        assert "broad searches" in body and "Traceback" not in body
    finally:
        lane.release()
        app.close()

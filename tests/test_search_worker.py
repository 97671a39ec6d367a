"""The broad worker (issue 15): broad searches answered in a process of their own.

Each test drives the WSGI application itself (no HTTP): a broad search is diverted to the worker,
a simple one is answered in the server's process even while the worker cannot answer at all
(stopped with SIGSTOP), and a worker killed while answering gives that request a 503 naming
what happened, then is replaced. No assertion on time: the tests wait for states, not durations.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from search_kb import ingested, run

from kb.config import Settings
from kb.search import lane as lanes
from kb.search import worker as workers
from kb.serve import KbApp

BROAD = {"q": "*ote", "limit": "5"}  # a wildcard read by scanning a word list: broad


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("worker") / "_kb"
    ingested(folder)
    assert run(folder, "index").exit_code == 0
    return folder


@pytest.fixture
def app(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[KbApp]:
    """The application with a lane of its own (one place, a few waiting, a long wait)."""
    monkeypatch.setattr(lanes, "LANE", lanes.Lane(width=1, queue=4, wait=120.0))
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    application = KbApp(Settings(home=home, database_url=url))
    yield application
    application.close()


def get(app: KbApp, params: dict[str, str]) -> tuple[int, dict[str, str], dict[str, Any]]:
    """Status, headers and JSON body of one API request."""
    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        answer["status"], answer["headers"] = int(status.split()[0]), dict(headers)

    environ = {"REQUEST_METHOD": "GET", "REQUEST_URI": "/api/search?" + urlencode(params)}
    body = b"".join(app(environ, start_response))
    return answer["status"], answer["headers"], json.loads(body)


def wait_for(condition: Any, what: str) -> None:
    """Wait until ``condition()`` holds (a state, not a duration: the bound only stops a hang)."""
    deadline = time.monotonic() + 120
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


def test_a_broad_search_is_answered_by_the_worker_as_the_server_would(
    app: KbApp, home: Path
) -> None:
    from kb.search import open_index

    status, _, body = get(app, BROAD)
    assert status == 200, body
    assert app.search.broad.started == 1 and len(app.search.broad.pids()) == 1
    assert os.getpid() not in app.search.broad.pids()
    assert lanes.LANE.entered == 1  # the server's lane: its place held while the worker ran
    with open_index(home / "index") as index:
        assert body == index.search("*ote", limit=5)  # (in this process: takes the lane too)
    entered = lanes.LANE.entered
    # A simple search never goes there; a second broad one reuses the worker.
    assert get(app, {"q": "vote"})[0] == 200
    assert lanes.LANE.entered == entered
    assert get(app, {"q": "[a TO c]", "limit": "5"})[0] in (200, 400)
    assert app.search.broad.started == 1 and lanes.LANE.entered == entered + 1


def test_refusals_in_the_worker_are_the_servers_refusals(home: Path) -> None:
    """What the worker answers (:func:`_answer`, run here) comes back as the same exception."""
    from kb.search.limits import QueryTooBroad
    from kb.search.query import QueryError

    indexes: dict[str, Any] = {}
    index_dir = str(home / "index")
    options = {"limit": 5, "fuzzy": False}
    ok = workers._answer(indexes, index_dir, "*ote", options)
    assert ok[0] == "ok" and workers._unpack(ok, "*ote")["query"] == "*ote"
    refused = workers._answer(indexes, index_dir, "*ote", {**options, "limit": 0})
    assert refused[0] == "query"
    with pytest.raises(QueryError, match="limit must be between 1 and"):
        workers._unpack(refused, "*ote")
    with pytest.raises(QueryTooBroad, match="too broad"):
        workers._unpack(("too broad", "query too broad: it takes longer than 0.5 s"), "de*")
    missing = workers._answer({}, str(home / "nowhere"), "*ote", options)
    assert missing[0] == "kb" and "index" in missing[1]
    crashed = workers._answer(indexes, index_dir, "*ote", {"no_such_option": 1})
    assert crashed[0] == "error" and "Traceback" in crashed[1]
    with pytest.raises(RuntimeError, match="worker failed"):
        workers._unpack(crashed, "*ote")
    for index in indexes.values():
        index.close()


def test_simple_searches_are_answered_while_the_worker_is_busy(app: KbApp) -> None:
    """The worker stopped (SIGSTOP) with a broad search sent to it: it cannot answer at all,
    and simple searches are still answered; once it runs again the broad one gets its answer."""
    assert get(app, BROAD)[0] == 200  # the worker started
    (pid,) = app.search.broad.pids()
    os.kill(pid, signal.SIGSTOP)
    broad: list[Any] = []
    try:
        waiter = threading.Thread(target=lambda: broad.append(get(app, {"q": "*ire"})))
        waiter.start()
        wait_for(lambda: lanes.LANE.entered == 2, "the broad search took the lane's place")
        for params in ({"q": "vote"}, {"q": "tempt*"}, {"q": "mulligna", "fuzzy": "1"}):
            status, _, body = get(app, params)
            assert status == 200, (params, body)
        assert not broad and waiter.is_alive()  # still waiting for the stopped worker
    finally:
        os.kill(pid, signal.SIGCONT)
    waiter.join(120)
    assert broad and broad[0][0] == 200, broad


def test_a_worker_killed_while_answering_gives_a_503_and_is_replaced(
    app: KbApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert get(app, BROAD)[0] == 200
    (first,) = app.search.broad.pids()
    send = workers._Process._send

    def send_then_kill(self: Any, request: Any) -> None:
        send(self, request)
        os.kill(self.pid, signal.SIGKILL)  # dies with the search sent, before answering it

    monkeypatch.setattr(workers._Process, "_send", send_then_kill)
    status, headers, body = get(app, BROAD)
    assert status == 503, body
    assert "worker stopped while answering (killed by SIGKILL)" in body["error"]
    assert headers["Retry-After"] == str(lanes.RETRY_AFTER)
    assert app.search.broad.failed == 1 and app.search.broad.pids() == []
    monkeypatch.setattr(workers._Process, "_send", send)
    status, _, body = get(app, BROAD)  # a new worker answers the next one
    assert status == 200, body
    (second,) = app.search.broad.pids()
    assert second != first and app.search.broad.started == 2


def test_a_worker_that_died_idle_is_replaced_unnoticed(app: KbApp) -> None:
    assert get(app, BROAD)[0] == 200
    (first,) = app.search.broad.pids()
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: app.search.broad.pids() == [], "the worker died")
    status, _, body = get(app, BROAD)  # not yet sent anything: started again, answered
    assert status == 200, body
    assert app.search.broad.started == 2 and app.search.broad.failed == 0


def test_a_worker_over_its_time_is_stopped_with_a_503(
    app: KbApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert get(app, BROAD)[0] == 200
    (pid,) = app.search.broad.pids()
    os.kill(pid, signal.SIGSTOP)  # cannot answer: past any timeout
    monkeypatch.setattr(app.search.broad, "timeout", 0.01)
    status, headers, body = get(app, BROAD)
    assert status == 503 and "took more than 0.01 s and was stopped" in body["error"], body
    assert "Retry-After" in headers
    wait_for(lambda: app.search.broad.pids() == [], "the stuck worker was killed")


def test_a_search_over_its_cpu_limit_is_stopped_with_a_503_and_the_worker_replaced(
    app: KbApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A new worker's first search imports the search modules and opens the index: far more
    # than a millisecond of CPU.
    monkeypatch.setattr(app.search.broad, "cpu_limit", 0.001)
    status, headers, body = get(app, BROAD)
    assert status == 503, body
    assert "used more than 0.001 s of CPU and was stopped" in body["error"], body
    assert "Retry-After" in headers and app.search.broad.failed == 1
    wait_for(lambda: app.search.broad.pids() == [], "the stopped worker exited")
    monkeypatch.setattr(app.search.broad, "cpu_limit", workers.CPU_LIMIT)
    status, _, body = get(app, BROAD)  # a new worker answers the next one
    assert status == 200, body
    assert app.search.broad.started == 2 and app.search.broad.failed == 1


def test_closing_the_application_stops_the_worker(home: Path) -> None:
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    application = KbApp(Settings(home=home, database_url=url))
    assert get(application, BROAD)[0] == 200
    (pid,) = application.search.broad.pids()
    process = application.search.broad._idle[0].process
    application.close()
    assert process.poll() is not None, pid  # exited (waited for by close)


def test_without_the_worker_broad_searches_run_in_the_lane_here(home: Path) -> None:
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    application = KbApp(Settings(home=home, database_url=url), broad_worker=False)
    try:
        assert application.search.broad is None
        assert get(application, BROAD)[0] == 200
    finally:
        application.close()

"""``kb serve`` against a real server on 127.0.0.1: the site folder, the API, bad requests."""

from __future__ import annotations

import http.client
import json
import os
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CORPUS = [
    ROOT / "corpus",
    DATA / "search" / "cr_2024.txt",
    DATA / "search" / "cr_2025.txt",
    DATA / "mtgjson" / "mini.json",
    DATA / "rulings" / "es_page.txt",
]
SECRET = "top secret, outside the site"
# (query string, words of the 400's message): every one a client may send by mistake or on purpose
BAD_PARAMETERS = [
    ("", "parameter q is required"),
    ("q=", "parameter q is required"),
    ("q=+++", "parameter q is required"),
    ("q=vote&lang=de", "unsupported language 'de'"),
    ("q=vote&type=spell", "unknown type 'spell'"),
    ("q=vote&limit=abc", "limit must be a whole number"),
    ("q=vote&limit=0", "limit must be between 1 and 100"),
    ("q=vote&limit=1000", "limit must be between 1 and 100"),
    ("q=vote&fuzzy=maybe", "fuzzy must be 0 or 1"),
    ("q=vote&page=2", "unknown parameter 'page'"),
    ("q=vote&q=tie", "parameter q is given more than once"),
    ("q=%ff%fe", "not valid UTF-8"),
    ("q=vote%00", "NUL character"),
    ("q=type:spell", "unknown type"),
    ("q=edition:1999-01-01+vote", "no such edition"),
    ("q=the+of", "only common words"),
    ("q=" + "x" * 600, "too long"),
]
# Paths that try to leave the site folder (all 404, the secret never in the answer).
TRAVERSALS = [
    "/../secret.txt",
    "/en/../../secret.txt",
    "/../_kb/secret.txt",
    "/..%2fsecret.txt",
    "/..%2Fsecret.txt",
    "/en/..%2f..%2fsecret.txt",
    "/%2e%2e/secret.txt",
    "/%2e%2e%2fsecret.txt",
    "/.%2e/secret.txt",
    "/..\\secret.txt",
    "/%5c..%5csecret.txt",
    "/secret.txt%00.html",
    "/leak.txt",
    "/up/secret.txt",
    "//secret.txt",
    "/missing.html",
]


def make_kb_settings(base: Path) -> Any:
    """A data folder with the small corpus indexed, a built-looking site, and a secret beside it."""
    from kb import pipeline
    from kb.config import Settings

    settings = Settings(home=base / "_kb", corpus=tuple(CORPUS))
    report = pipeline.ingest(settings, CORPUS)
    assert not report.failed
    pipeline.index(settings)
    site = settings.site_dir
    (site / "en" / "rules").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html><title>home</title>", encoding="utf-8")
    (site / "en" / "index.html").write_text("<title>en</title>", encoding="utf-8")
    (site / "en" / "rules" / "701.html").write_text("<title>701</title>", encoding="utf-8")
    (site / "style.css").write_text("body{}", encoding="utf-8")
    (site / "a file.txt").write_text("spaces", encoding="utf-8")
    (base / "secret.txt").write_text(SECRET, encoding="utf-8")
    (base / "_kb" / "secret.txt").write_text(SECRET, encoding="utf-8")
    os.symlink(base / "secret.txt", site / "leak.txt")
    os.symlink(base, site / "up")
    os.symlink(site / "style.css", site / "alias.css")
    return settings


@pytest.fixture(scope="module")
def kb_settings(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_kb_settings(tmp_path_factory.mktemp("serve"))


@pytest.fixture(scope="module")
def server(kb_settings: Any) -> Iterator[Any]:
    yield from _running(kb_settings, kb_settings.site_dir)


def _running(settings: Any, site_dir: Path, **options: Any) -> Iterator[Any]:
    from kb.server import make_server

    srv = make_server(settings, host="127.0.0.1", port=0, site_dir=site_dir, **options)
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(timeout=5)


def request(server: Any, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """Send ``path`` exactly as given (no client-side normalisation) and read the answer."""
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        conn.endheaders()
        response = conn.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        conn.close()


def api(server: Any, query: str) -> tuple[int, dict[str, Any]]:
    status, headers, body = request(server, "/api/search?" + query)
    assert headers["content-type"] == "application/json; charset=utf-8"
    return status, json.loads(body)


# --- the API -------------------------------------------------------------------------------------


def test_api_search(server: Any) -> None:
    status, data = api(server, "q=ring+tempts+you")
    assert status == 200
    assert data["results"][0]["number"].startswith("701.54")
    assert data["results"][0]["url"].startswith("/en/rules/701.54.html")


def test_api_parameters(server: Any) -> None:
    status, data = api(server, "q=abstenerse&lang=es&type=ruling&limit=1")
    assert status == 200 and data["lang"] == "es" and len(data["results"]) == 1
    assert data["results"][0]["badge"] == "machine translation"
    status, data = api(server, "q=tempst&fuzzy=1")
    assert status == 200 and data["fuzzy"] is True and data["results"]
    status, data = api(server, "q=701.54a%E2%80%93c")  # 701.54a–c
    assert status == 200 and [r["number"] for r in data["results"]] == [
        "701.54a",
        "701.54b",
        "701.54c",
    ]


def test_api_nothing_found_is_not_an_error(server: Any) -> None:
    status, data = api(server, "q=zzqxv")
    assert status == 200 and data["results"] == []


@pytest.mark.parametrize(("query", "message"), BAD_PARAMETERS)
def test_api_bad_parameters_get_400_with_a_message(server: Any, query: str, message: str) -> None:
    status, data = api(server, query)
    assert status == 400
    assert message in data["error"]
    assert "Traceback" not in data["error"]


def test_api_unknown_endpoint_and_methods(server: Any) -> None:
    status, _, body = request(server, "/api/nothing")
    assert status == 404 and json.loads(body)["error"] == "no API at /api/nothing"
    status, headers, body = request(server, "/api/search?q=vote", method="POST")
    assert status == 405 and headers["allow"] == "GET, HEAD"
    assert json.loads(body)["error"]


def test_api_answers_concurrent_requests(server: Any) -> None:
    queries = ["q=vote", "q=ring", "q=saga&lang=fr", "q=voto+empate&lang=es"] * 4
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda q: api(server, q), queries))
    assert all(status == 200 and data["results"] for status, data in answers)


def test_api_follows_a_rebuilt_index(server: Any, kb_settings: Any) -> None:
    from kb import pipeline

    status, before = api(server, "q=vote")
    pipeline.index(kb_settings, rebuild=True)
    status, after = api(server, "q=vote")
    assert status == 200
    assert [r["key"] for r in after["results"]] == [r["key"] for r in before["results"]]


def test_api_without_an_index_says_so(kb_settings: Any, tmp_path: Path) -> None:
    from dataclasses import replace

    empty = replace(kb_settings, home=tmp_path / "empty")
    for srv in _running(empty, kb_settings.site_dir):
        status, data = api(srv, "q=vote")
        assert status == 503 and "kb index" in data["error"]


# --- the site ------------------------------------------------------------------------------------


def test_site_files(server: Any) -> None:
    status, headers, body = request(server, "/")
    assert status == 200 and b"<title>home</title>" in body
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["x-content-type-options"] == "nosniff"
    status, _, body = request(server, "/en/rules/701.html#701.54a")
    assert status == 200 and b"701" in body
    status, headers, _ = request(server, "/style.css")
    assert status == 200 and headers["content-type"].startswith("text/css")
    status, _, body = request(server, "/a%20file.txt")
    assert status == 200 and body == b"spaces"
    status, _, body = request(server, "/alias.css")  # a symlink that stays inside is fine
    assert status == 200 and body == b"body{}"


def test_folders_redirect_to_their_index(server: Any) -> None:
    status, headers, _ = request(server, "/en")
    assert status == 301 and headers["location"] == "/en/"
    status, _, body = request(server, "/en/")
    assert status == 200 and b"<title>en</title>" in body


def test_head_sends_no_body(server: Any) -> None:
    status, headers, body = request(server, "/", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0


@pytest.mark.parametrize("path", TRAVERSALS)
def test_nothing_outside_the_site_is_served(server: Any, path: str) -> None:
    status, _, body = request(server, path)
    assert status == 404, path
    assert SECRET.encode() not in body


def test_unbuilt_site_is_explained_and_the_api_still_works(
    kb_settings: Any, tmp_path: Path
) -> None:
    for srv in _running(kb_settings, tmp_path / "no-site"):
        status, _, body = request(srv, "/")
        assert status == 503
        assert b"The site is not built yet" in body and b"kb build" in body
        assert str(tmp_path / "no-site").encode() in body
        status, data = api(srv, "q=vote")
        assert status == 200 and data["results"]


def test_port_in_use_is_a_clear_error(server: Any, kb_settings: Any) -> None:
    from kb.errors import KbError
    from kb.server import make_server

    port = server.server_address[1]
    with pytest.raises(KbError, match=f"cannot listen on 127.0.0.1:{port}"):
        make_server(kb_settings, host="127.0.0.1", port=port)


# --- the production server: long paths, bodies, idle and slow clients ----------------------------


def test_a_huge_path_is_404_or_414_never_500(server: Any) -> None:
    status, _, body = request(server, "/" + "a" * 65_000)
    assert status == 414 and b"too long" in body
    status, _, _ = request(server, "/" + "a" * 300 + ".html")  # one name past NAME_MAX
    assert status == 404
    status, _, _ = request(server, "/" + "/".join(["abcdefgh"] * 450))  # a path past PATH_MAX
    assert status == 404


def _raw(server: Any, data: bytes, wait: float = 1.5) -> bytes:
    """Send bytes on one connection; return everything answered within ``wait`` seconds."""
    import socket
    import time

    host, port = server.server_address[:2]
    received = b""
    with socket.create_connection((host, port), timeout=wait) as sock:
        sock.sendall(data)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            received += chunk
    return received


def test_a_request_body_is_never_taken_for_a_second_request(server: Any) -> None:
    smuggled = b"GET /api/search?q=vote HTTP/1.1\r\nHost: x\r\n\r\n"
    post = (
        b"POST /api/search HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
        b"Content-Length: " + str(len(smuggled)).encode() + b"\r\n\r\n" + smuggled
    )
    answered = _raw(
        server, post + b"GET /style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", answered)
    assert statuses == [b"405", b"200"], answered[:500]  # the body was read, not answered
    assert b'"results"' not in answered and b"body{}" in answered


def test_an_idle_connection_is_closed(kb_settings: Any) -> None:
    import socket
    import time

    for srv in _running(kb_settings, kb_settings.site_dir, idle_timeout=1):
        host, port = srv.server_address
        with socket.create_connection((host, port), timeout=10) as sock:
            started = time.monotonic()
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # headers never finished
            assert sock.recv(100) == b""  # closed by the server, not by the 10 s timeout
            assert time.monotonic() - started < 8


def test_slow_clients_cost_no_thread_and_the_limit_holds(kb_settings: Any) -> None:
    import socket

    for srv in _running(kb_settings, kb_settings.site_dir, connection_limit=20, threads=4):
        assert request(srv, "/")[0] == 200
        threads = threading.active_count()
        host, port = srv.server_address
        slow = [socket.create_connection((host, port), timeout=5) for _ in range(19)]
        try:
            for sock in slow:
                sock.sendall(b"GET /api/search?q=vote HTTP/1.1\r\nHost: x\r\n")  # never ends
            assert threading.active_count() <= threads  # http.server had made one thread each
            # at the limit a new connection waits in the backlog: no answer while they stay
            late = socket.create_connection((host, port), timeout=1.0)
            late.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            with pytest.raises(TimeoutError):
                late.recv(100)
        finally:
            for sock in slow:
                sock.close()
        late.settimeout(10)
        assert late.recv(100).startswith(b"HTTP/1.1 200")  # answered once they went away
        late.close()


def test_the_wsgi_application_runs_without_kb_serve(kb_settings: Any) -> None:
    """What gunicorn runs: ``kb.serve:create_app()``, a plain WSGI callable."""
    from wsgiref.util import setup_testing_defaults

    from kb.serve import create_app

    app = create_app(kb_settings)
    try:
        answers: list[str] = []
        environ: dict[str, Any] = {"PATH_INFO": "/api/search", "QUERY_STRING": "q=vote"}
        setup_testing_defaults(environ)
        body = b"".join(app(environ, lambda status, headers: answers.append(status)))
        assert answers == ["200 OK"] and json.loads(body)["results"]
        environ = {"PATH_INFO": "/../secret.txt", "REQUEST_METHOD": "GET"}
        setup_testing_defaults(environ)
        body = b"".join(app(environ, lambda status, headers: answers.append(status)))
        assert answers[-1] == "404 Not Found" and SECRET.encode() not in body
    finally:
        app.close()

"""Concurrency: ``kb serve`` under many clients while ``kb ingest`` rewrites the data.

The server runs as a real ``kb serve`` process (waitress) on 127.0.0.1. Its answers at rest are
recorded before, between and after two ingests (a new Comprehensive Rules edition, then a new
rulings page), each of which updates the database, the links and the search index underneath
it. Under load every answer must be a 200 equal to one of those at-rest answers (the old state
or a new one, never a mix), and a client that has seen a newer state never sees an older one
again. Some clients may send the heaviest queries the API allows instead (:data:`HEAVY`): they
must get an answer (200, or 400 "too broad"), never an error, and the simple queries' latency is
measured beside them. The test runs a short version (20 clients, 4 of them heavy, for 5 s) and
checks that simple queries are answered while heavy ones run; benchmarks/reliability.py runs 50
clients, 10 of them heavy, for 30 s and prints the latency. The clients' random choices come from
a seed that every failure names (KB_LOAD_SEED sets it).

The client model is a closed loop: each client sends a request, reads the answer, and sends the
next. Simple clients are users: they wait a think time between answers (exponential, mean
``think`` seconds, :data:`THINK`); heavy clients are attackers and send back to back. With no
think time at all, 40 simple clients on a 2-core machine measure the length of the queue they
make themselves, not how long a search takes.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus"
CLIENTS = 50  # the benchmark's figures (benchmarks/reliability.py)
SECONDS = 30.0
HEAVY_CLIENTS = 10
THINK = 1.0  # mean think time of a simple client between two answers, in seconds
TEST_CLIENTS = 20  # the test's: short, for CI
TEST_HEAVY = 4
TEST_SECONDS = 5.0
SEED = int(os.environ.get("KB_LOAD_SEED") or 20260116)

# (parameters, expected HTTP status): words, rule numbers, filters, three languages, typos.
QUERIES: list[tuple[dict[str, str], int]] = [
    ({"q": "ring tempts you"}, 200),
    ({"q": "701.54"}, 200),
    ({"q": "saga lore counter"}, 200),
    ({"q": "vote", "limit": "20"}, 200),
    ({"q": "Trickster-God's Heist", "type": "card"}, 200),
    ({"q": "day night", "type": "rule"}, 200),
    ({"q": "el anillo te tienta", "lang": "es"}, 200),
    ({"q": "vol du dieu", "lang": "fr"}, 200),
    ({"q": "mulligna", "fuzzy": "1"}, 200),
    ({"q": "commander damage", "type": "glossary"}, 200),
    ({"q": "exile", "lang": "en", "type": "ruling"}, 200),
    ({"q": "ring", "limit": "0"}, 400),
]
# The heaviest queries a client may send (issue 15): every wildcard, range and fuzzy expansion at
# its worst, the largest limit; the first six are refused at once (too many terms, a bad date),
# the others are allowed and take up to the broad lane's CPU budget (on the shared corpus: "st*"
# 0.36 s, "*tion" 0.14 s, "de*" and "co* re* ex*" stopped at 0.5 s). Each gets a 200 or a 400
# saying the query is too broad.
HEAVY: list[dict[str, str]] = [
    {"q": "a* b* c* d* e* f* g* h* i* l* m* n* p* r* s* t*", "fuzzy": "1", "lang": "fr"},
    {"q": "[a TO z]", "limit": "100"},
    {"q": "a*", "limit": "100"},
    {"q": "*a*", "limit": "100"},
    {"q": "date:[0 TO 9999]"},
    {"q": " ".join(f"{w}~" for w in "creature spell ability counter player turn".split()),
     "fuzzy": "1", "lang": "es", "limit": "100"},
    {"q": "st*", "limit": "100"},
    {"q": "*tion", "limit": "100"},
    {"q": "[ab TO ac]", "limit": "100"},
    {"q": "de*", "limit": "100"},
    {"q": "co* re* ex*", "limit": "100"},
    {"q": "creature spell ability counter player turn", "fuzzy": "1", "limit": "100"},
]  # fmt: skip


def _path(params: dict[str, str]) -> str:
    return "/api/search?" + urlencode(params)


def _canonical(body: bytes) -> str:
    """A digest of a JSON answer that ignores key order."""
    data = json.loads(body)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


class Server:
    """A ``kb serve`` child process on a free port of 127.0.0.1."""

    def __init__(self, home: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kb", "--home", str(home), "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, f"kb serve did not start: {line!r} {self.process.stderr.read()[-2000:]}"
        self.port = int(match.group(1))

    def get(self, path: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time (user + system) so far of the server and of its children (the broad worker);
        empty where /proc cannot tell (not Linux)."""
        pid = self.process.pid
        try:  # a child is listed under the thread that started it
            tasks = Path(f"/proc/{pid}/task").glob("*/children")
            children = {int(c) for task in tasks for c in task.read_text().split()}
            return {"server": _cpu(pid), "children": sum(_cpu(c) for c in children)}
        except (OSError, ValueError, IndexError):
            return {}

    def stop(self) -> str:
        self.process.terminate()
        try:
            _, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return err


def _cpu(pid: int) -> float:
    """User + system CPU seconds of a running process, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Load:
    """What the clients saw."""

    served: int = 0
    errors: list[str] = field(default_factory=list)
    # per simple client: (query index, status, canonical answer) in the order received
    seen: list[list[tuple[int, int, str]]] = field(default_factory=list)
    # seconds per answered request, simple and heavy clients apart
    latency: dict[str, list[float]] = field(default_factory=lambda: {"simple": [], "heavy": []})
    heavy_statuses: Counter[int] = field(default_factory=Counter)
    # simple answers that arrived while a heavy request was being answered
    beside_heavy: int = 0


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the values lie (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def run_clients(
    port: int,
    stop: threading.Event,
    clients: int,
    load: Load,
    seed: int,
    heavy: int = 0,
    think: float = 0.0,
) -> None:
    """Hammer the API from ``clients`` threads with keep-alive connections until ``stop``.

    The first ``heavy`` clients send :data:`HEAVY` queries back to back, the others
    :data:`QUERIES`, waiting an exponential think time of mean ``think`` seconds after each.
    """
    lock = threading.Lock()
    heavy_running = [0]  # heavy requests sent and not yet answered

    def client(number: int) -> None:
        rng = random.Random(seed * 1000 + number)
        is_heavy = number < heavy
        seen: list[tuple[int, int, str]] = []
        times: list[float] = []
        statuses: Counter[int] = Counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while not stop.is_set():
                pool = HEAVY if is_heavy else [params for params, _ in QUERIES]
                index = rng.randrange(len(pool))
                if is_heavy:
                    with lock:
                        heavy_running[0] += 1
                try:
                    started = time.perf_counter()
                    conn.request("GET", _path(pool[index]))
                    response = conn.getresponse()
                    body = response.read()
                    times.append(time.perf_counter() - started)
                    if not is_heavy and heavy_running[0]:
                        with lock:
                            load.beside_heavy += 1
                    if is_heavy:
                        statuses[response.status] += 1
                        if response.status not in (200, 400):
                            with lock:
                                load.errors.append(
                                    f"client {number}: {pool[index]} -> {response.status}"
                                )
                    else:
                        seen.append((index, response.status, _canonical(body)))
                except (OSError, http.client.HTTPException, ValueError) as exc:
                    with lock:
                        load.errors.append(f"client {number}: {exc!r}")
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                finally:
                    if is_heavy:
                        with lock:
                            heavy_running[0] -= 1
                if think and not is_heavy:
                    stop.wait(rng.expovariate(1 / think))
        finally:
            conn.close()
            with lock:
                if not is_heavy:
                    load.seen.append(seen)
                load.served += len(times)
                load.latency["heavy" if is_heavy else "simple"].extend(times)
                load.heavy_statuses.update(statuses)

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def at_rest(server: Server) -> list[tuple[int, str]]:
    """Every query's answer (status, canonical body) when no writer is running."""
    answers = []
    for params, _ in QUERIES:
        status, body = server.get(_path(params))
        answers.append((status, _canonical(body)))
    return answers


def check_answers(load: Load, states: list[list[tuple[int, str]]]) -> list[str]:
    """Every answer is one state's at-rest answer, and no client goes back to an older state."""
    wrong: list[str] = []
    for number, seen in enumerate(load.seen):
        low = 0  # the newest state this client has certainly seen
        for index, status, digest in seen:
            matching = [s for s, answers in enumerate(states) if answers[index] == (status, digest)]
            if not matching:
                wrong.append(f"client {number}: {QUERIES[index][0]} -> {status}, in no state")
                continue
            if max(matching) < low:
                wrong.append(f"client {number}: {QUERIES[index][0]} went back to state {matching}")
            low = max(low, min(matching))
    return wrong


def prepare(home: Path, env: dict[str, str], files: list[Path]) -> None:
    """Ingest the first state and build its search index (in child processes, like a user)."""
    for args in (["ingest", *map(str, files)], ["index"]):
        done = subprocess.run(
            [sys.executable, "-m", "kb", "--home", str(home), *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
        )
        assert done.returncode == 0, done.stderr[-3000:]


def ingest_in_background(home: Path, env: dict[str, str], files: list[Path]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "kb", "--home", str(home), "ingest", "--strict", *map(str, files)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stderr


def new_rulings_page(folder: Path) -> Path:
    """A rulings page the corpus does not have yet (a seed page with one more ruling)."""
    seed = (SEEDS / "003_c5873bb13b9e08b7.txt").read_text(encoding="utf-8").splitlines()
    lines = [*seed[:-1], "05 février 2021 · source : wotc", "Added while the server ran.", seed[-1]]
    page = folder / "005_00000000000000aa.txt"
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return page


def serve_under_load(
    tmp_path: Path,
    shared_corpus: Path,
    seed: int,
    *,
    clients: int = CLIENTS,
    seconds: float = SECONDS,
    heavy: int = 0,
    think: float = THINK,
    ingests: bool = True,
) -> dict[str, Any]:
    """The whole scenario; return the figures (requests served, errors, wrong answers, latency).

    Without ``ingests`` the server only serves (the issue's measure of latency under the heavy
    mix); with them, two ingests rewrite the data under the load (coherence under writes).
    """
    cr = shared_corpus / "cr" / "en"
    first = [SEEDS, cr / "MagicCompRules_20251114.txt", shared_corpus / "mtgjson"]
    edition = cr / "MagicCompRules_20260116.txt"
    home = tmp_path / "_kb"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    prepare(home, env, first)
    page = new_rulings_page(tmp_path)
    server = Server(home, env)
    load = Load()
    try:
        states = [at_rest(server)]
        stop = threading.Event()
        hammer = threading.Thread(
            target=run_clients, args=(server.port, stop, clients, load, seed, heavy, think)
        )
        load_before = os.getloadavg()[0]
        clients_cpu = time.process_time()  # the clients are threads of this process
        started = time.monotonic()
        hammer.start()
        try:
            time.sleep(2)
            if ingests:
                ingest_in_background(home, env, [edition])
                states.append(at_rest(server))
                ingest_in_background(home, env, [page])
                states.append(at_rest(server))
            # At least ``seconds`` of load, and a few more after the last write.
            time.sleep(max(3.0, seconds - (time.monotonic() - started)))
        finally:
            stop.set()
            hammer.join()
        elapsed = time.monotonic() - started
        cpu = server.cpu_seconds()
        if cpu:
            cpu["clients"] = time.process_time() - clients_cpu
    finally:
        log = server.stop()
    for (params, expected), (status, _) in zip(QUERIES, states[-1], strict=True):
        assert status == expected, (params, status)
    return {
        "served": load.served,
        "errors": load.errors,
        "wrong": check_answers(load, states),
        "states": len({tuple(s) for s in states}),
        "seconds": elapsed,
        "server_log": log,
        "latency": load.latency,
        "heavy_statuses": dict(load.heavy_statuses),
        "clients": clients,
        "heavy": heavy,
        "think": think,
        "beside_heavy": load.beside_heavy,
        "cpu": cpu,
        "load_average": (load_before, os.getloadavg()[0]),
    }


def test_serve_answers_correctly_under_load_while_ingest_runs(
    tmp_path: Path, shared_corpus: Path, database_url: str | None
) -> None:
    """Simple clients (no think time: the most requests) beside heavy ones, two ingests under."""
    outcome = serve_under_load(
        tmp_path,
        shared_corpus,
        SEED,
        clients=TEST_CLIENTS,
        seconds=TEST_SECONDS,
        heavy=TEST_HEAVY,
        think=0.0,
    )
    seed = f"(KB_LOAD_SEED={SEED})"
    assert outcome["errors"] == [], (seed, outcome["errors"][:10])
    assert outcome["wrong"] == [], (seed, outcome["wrong"][:10])
    assert "Traceback" not in outcome["server_log"], (seed, outcome["server_log"][-3000:])
    assert outcome["states"] == 3, f"each ingest should have changed some answers {seed}"
    simple = len(outcome["latency"]["simple"])
    assert simple >= (TEST_CLIENTS - TEST_HEAVY) * 10, (seed, simple)
    # Heavy queries were answered, and simple ones kept being answered while they ran.
    assert sum(outcome["heavy_statuses"].values()) >= TEST_HEAVY, (seed, outcome)
    assert outcome["beside_heavy"] >= simple // 2, (seed, outcome["beside_heavy"], simple)


def test_percentile() -> None:
    assert percentile([], 0.99) == 0.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.99) == 99.0 and percentile(values, 1.0) == 100.0


def test_the_check_catches_a_mix_and_a_step_back() -> None:
    """The load test's verdict is not vacuous: unknown answers and regressions are reported."""
    states = [[(200, "a0"), (200, "a1")], [(200, "b0"), (200, "a1")]]
    load = Load(seen=[[(0, 200, "a0"), (1, 200, "a1"), (0, 200, "b0"), (1, 200, "a1")]])
    assert check_answers(load, states) == []
    load = Load(seen=[[(0, 200, "b0"), (0, 200, "a0")], [(1, 200, "mixed")]])
    wrong = check_answers(load, states)
    assert len(wrong) == 2
    assert "went back" in wrong[0] and "in no state" in wrong[1]

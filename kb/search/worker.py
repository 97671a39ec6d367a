"""The broad worker: the server's broad searches, answered in a process of their own.

Searches are Python, so the threads of one process take turns under its GIL: a broad search
(:mod:`kb.search.limits`) holding a server thread for half a second of CPU would hold back every
simple search answered beside it. The server runs each search with broad work diverted
(:func:`kb.search.lane.elsewhere`); one found broad is sent whole to :class:`BroadWorkers`, which
answers it in a worker process with the server's lane rules: :data:`kb.search.lane.WIDTH` worker
processes, a place in :data:`kb.search.lane.LANE` held while one answers (the same queue, wait and
503 with ``Retry-After`` beyond them). A worker runs :data:`NICE` steps below the server, so the
system gives the simple searches the CPU first; it opens the index on its own and follows its
rebuilds like the server does. A worker that dies while answering, uses more than
:data:`CPU_LIMIT` seconds of CPU on one search, or hangs :data:`TIMEOUT` seconds of the clock,
is stopped and the request answered 503 saying so (the search is not sent again: it may be what
killed it); the next broad search starts a new worker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from kb.errors import KbError
from kb.search import lane

log = logging.getLogger(__name__)

# The CPU seconds a worker may spend on one broad search. CPU rather than the clock: a worker
# NICE steps down on a busy machine waits for the CPU, and a wall limit stopped honest searches
# for the machine's load, not for their cost (the worker counts them itself: ITIMER_PROF).
CPU_LIMIT = 10.0
# Seconds of the clock before a worker that does not answer at all (stopped, deadlocked, starved
# for minutes) is killed: the backstop, far above what CPU_LIMIT lets a search take.
TIMEOUT = 120.0
# The worker's niceness above the server's: simple searches get the CPU first. At 5 the worker
# (busy back to back under an attack of broad searches) still took a quarter of a core from the
# server's threads; at 19 it starved while an ingest ran beside and overran TIMEOUT (503s).
NICE = 10
STOP_WAIT = 5.0  # seconds a worker is given to exit before it is killed


class WorkerFailed(lane.LaneBusy):
    """A broad search whose worker died or overran (answered like LaneBusy: 503, Retry-After)."""


class _Process:
    """One worker process (:func:`main`, in a new interpreter) and the socket it is asked through.

    A process of its own rather than multiprocessing's spawn, which would import the server's
    main module again in the worker (a WSGI script without a ``__main__`` guard would fail).
    """

    def __init__(self, nice: int) -> None:
        ours, theirs = socket.socketpair()
        # kb importable in the worker however the server found it (installed or not), last.
        source = str(Path(__file__).resolve().parents[2])
        start = (
            f"import sys; sys.path.append({source!r}); from kb.search.worker import main; main()"
        )
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", start, str(theirs.fileno()), str(nice)],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
        except OSError as exc:
            ours.close()
            raise KbError(f"cannot start the broad-search worker: {exc}") from None
        finally:
            theirs.close()  # the worker's end lives in the worker only: its death is seen as EOF
        self.conn = Connection(ours.detach())

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, request: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        """Send a search and wait for its answer; WorkerFailed if the worker dies or overruns."""
        try:
            self._send(request)
        except OSError:
            raise WorkerFailed(self._gone("before it got the search")) from None
        if not self.conn.poll(timeout):  # no answer, no EOF: still busy
            self.process.kill()
            raise WorkerFailed(
                f"the broad search took more than {timeout:g} s and was stopped; add words or"
                " filters"
            )
        try:
            reply: tuple[Any, ...] = self.conn.recv()
        except (EOFError, OSError):
            raise WorkerFailed(self._gone("while answering")) from None
        return reply

    def _send(self, request: tuple[Any, ...]) -> None:
        self.conn.send(request)

    def _gone(self, when: str) -> str:
        try:
            code: int | None = self.process.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            how = "its socket closed"
        elif code < 0:
            how = f"killed by {signal.Signals(-code).name}"
        else:
            how = f"exit code {code}"
        return f"the broad-search worker stopped {when} ({how}); try again shortly"

    def stop(self) -> None:
        """Close the socket (the worker exits on EOF); kill it if it does not."""
        with contextlib.suppress(OSError):
            self.conn.close()
        try:
            self.process.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(STOP_WAIT)


class BroadWorkers:
    """The worker processes of one server process, started on first use, replaced when dead."""

    def __init__(
        self,
        index_dir: Path,
        *,
        timeout: float = TIMEOUT,
        cpu_limit: float = CPU_LIMIT,
        nice: int = NICE,
    ) -> None:
        self.index_dir = str(index_dir)
        self.timeout, self.cpu_limit, self.nice = timeout, cpu_limit, nice
        self._lock = threading.Lock()
        self._idle: list[_Process] = []
        self._all: set[_Process] = set()
        self._closed = False
        self.started = 0  # worker processes started (figures and tests)
        self.failed = 0  # searches whose worker died or overran

    def search(self, text: str, options: dict[str, Any]) -> dict[str, Any]:
        """The search's response from a worker, with a place in the lane held meanwhile.

        QueryError, KbError and LaneBusy are raised as the server's own search raises them.
        """
        with lane.LANE.place():
            worker = self._take()
            try:
                request = (self.index_dir, text, options, self.cpu_limit)
                reply = worker.ask(request, self.timeout)
                if reply[0] == "cpu":  # it stopped the search itself and is exiting
                    raise WorkerFailed(reply[1])
            except WorkerFailed as exc:
                self.failed += 1
                log.warning("%s (search %r)", exc, text[:200])
                self._drop(worker)
                raise
            self._give_back(worker)
        return _unpack(reply, text)

    def _take(self) -> _Process:
        """An idle live worker, or a new one (a worker found dead while idle is replaced)."""
        with self._lock:
            if self._closed:
                raise KbError("the server is stopping")
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    return worker
                log.warning("the broad-search worker %s had stopped; starting another", worker.pid)
                self._all.discard(worker)
                worker.stop()
            worker = _Process(self.nice)
            self._all.add(worker)
            self.started += 1
            return worker

    def _give_back(self, worker: _Process) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(worker)
                return
        self._drop(worker)

    def _drop(self, worker: _Process) -> None:
        with self._lock:
            self._all.discard(worker)
        worker.stop()

    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        with self._lock:
            return sorted(w.pid for w in self._all if w.alive())

    def close(self) -> None:
        """Stop every worker (those answering too: their requests get WorkerFailed)."""
        with self._lock:
            self._closed = True
            workers, self._idle = list(self._all), []
            self._all.clear()
        for worker in workers:
            worker.stop()


def _unpack(reply: tuple[Any, ...], text: str) -> dict[str, Any]:
    """The response of a worker's reply, or the exception the search raised there."""
    from kb.search.limits import QueryTooBroad
    from kb.search.query import QueryError

    kind = reply[0]
    if kind == "ok":
        return reply[1]  # type: ignore[no-any-return]
    if kind == "too broad":
        raise QueryTooBroad(reply[1])
    if kind == "query":
        raise QueryError(reply[1])
    if kind == "busy":
        raise lane.LaneBusy(reply[1], reply[2])
    if kind == "kb":
        raise KbError(reply[1])
    log.error("the broad-search worker failed on %r:\n%s", text[:200], reply[1])
    raise RuntimeError("the broad-search worker failed (logged)")


class _OverCPU(BaseException):
    """Raised by SIGPROF in a search past its CPU limit (a BaseException: no handler keeps it)."""


def _over_cpu(signum: int, frame: Any) -> None:
    raise _OverCPU


def main(argv: list[str] | None = None) -> None:
    """The worker's loop: answer searches until the server closes the socket.

    Each search runs under a profiling timer of its CPU limit. Past it, the search is stopped
    where it stands, so the worker answers that it was stopped and exits: what the interrupted
    search held (its open index, caches half filled) is not trusted for the next one.
    """
    argv = sys.argv[1:] if argv is None else argv
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops this
    signal.signal(signal.SIGPROF, _over_cpu)
    conn = Connection(int(argv[0]))
    with contextlib.suppress(OSError):
        os.nice(int(argv[1]))
    indexes: dict[str, Any] = {}
    try:
        while True:
            try:
                index_dir, text, options, cpu_limit = conn.recv()
            except (EOFError, OSError):
                return  # the server closed the socket, or died
            try:
                signal.setitimer(signal.ITIMER_PROF, cpu_limit)
                try:
                    reply = _answer(indexes, index_dir, text, options)
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
            except _OverCPU:
                conn.send(
                    (
                        "cpu",
                        f"the broad search used more than {cpu_limit:g} s of CPU and was"
                        " stopped; add words or filters",
                    )
                )
                return
            conn.send(reply)
    finally:
        for index in indexes.values():
            index.close()


def _answer(
    indexes: dict[str, Any], index_dir: str, text: str, options: dict[str, Any]
) -> tuple[Any, ...]:
    """One search in the worker, as a reply the server unpacks (:func:`_unpack`)."""
    from kb.search.limits import QueryTooBroad
    from kb.search.query import QueryError
    from kb.search.searcher import SearchIndex

    try:
        index = indexes.get(index_dir)
        if index is None:
            index = indexes[index_dir] = SearchIndex(Path(index_dir))
        else:
            index.refresh()
        return ("ok", index.search(text, **options))
    except QueryTooBroad as exc:
        return ("too broad", str(exc))
    except QueryError as exc:
        return ("query", str(exc))
    except lane.LaneBusy as exc:
        return ("busy", str(exc), exc.retry_after)
    except KbError as exc:
        return ("kb", str(exc))
    except Exception:
        return ("error", traceback.format_exc())


if __name__ == "__main__":
    main()

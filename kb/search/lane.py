"""The broad lane: broad searches run one at a time per process, so they cannot starve the rest.

:mod:`kb.search.limits` refuses what is too costly; what it allows but finds broad (hundreds of
expanded terms, a wildcard that reads a whole word list) takes the lane's one place for the rest
of its search (:func:`search_scope`, entered by ``SearchIndex.search``). Broad searches waiting
for the place wait in a queue of at most :data:`QUEUE`, each for at most :data:`WAIT` seconds;
beyond either the search is refused with :class:`LaneBusy` (the API answers 503 with
``Retry-After``). Other searches never wait here.

In a server the broad searches also run in another process (:mod:`kb.search.worker`): threads of
one process share its GIL, so a broad search running in one of them would slow every other
search down. The server searches inside :func:`elsewhere`; a search found broad there stops with
:class:`Diverted` before doing its broad work, and the server asks the worker for the whole
search, holding the lane's place while the worker answers.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from kb.errors import KbError

WIDTH = 1  # broad searches running at once in a process
QUEUE = 16  # broad searches that may wait for a place (beyond, refused at once)
WAIT = 45.0  # seconds a broad search may wait for a place
RETRY_AFTER = 5  # seconds a refused client is told to wait


class LaneBusy(KbError):
    """Too many broad searches waiting: the API answers 503 with Retry-After."""

    def __init__(self, message: str, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Diverted(Exception):
    """A search found broad inside :func:`elsewhere`: run it again in the broad worker."""


class Lane:
    """A bounded number of places, and a bounded queue of searches waiting for one."""

    def __init__(self, width: int = WIDTH, queue: int = QUEUE, wait: float = WAIT) -> None:
        self.width, self.queue, self.wait = width, queue, wait
        self._places = threading.BoundedSemaphore(width)
        self._lock = threading.Lock()
        self.waiting = 0
        self.entered = 0  # broad searches that got a place (figures for the benchmark)
        self.refused = 0

    def acquire(self) -> None:
        """Take a place, waiting in the queue; LaneBusy if it is full or the wait too long."""
        if self._places.acquire(blocking=False):
            with self._lock:
                self.entered += 1
            return
        with self._lock:
            if self.waiting >= self.queue:
                self.refused += 1
                raise LaneBusy(
                    f"too many broad searches waiting ({self.waiting}); try again shortly"
                )
            self.waiting += 1
        try:
            got = self._places.acquire(timeout=self.wait)
        finally:
            with self._lock:
                self.waiting -= 1
        with self._lock:
            if not got:
                self.refused += 1
                raise LaneBusy(
                    f"broad searches are queued for more than {self.wait:g} s; try again shortly"
                )
            self.entered += 1

    def release(self) -> None:
        """Give the place back."""
        self._places.release()

    @contextmanager
    def place(self) -> Iterator[None]:
        """Hold a place (waiting in the queue, LaneBusy beyond its bounds) during the block."""
        self.acquire()
        try:
            yield
        finally:
            self.release()


LANE = Lane()
_local = threading.local()


@contextmanager
def search_scope() -> Iterator[None]:
    """One search: a place taken during it (:func:`enter`) is given back when it ends."""
    if getattr(_local, "scope", None) is not None:  # a search inside a search: the outer one's
        yield
        return
    scope = _local.scope = {"held": False}
    try:
        yield
    finally:
        _local.scope = None
        if scope["held"]:
            LANE.release()


@contextmanager
def elsewhere() -> Iterator[None]:
    """Searches in this block stop with :class:`Diverted` where they would enter the lane."""
    before = getattr(_local, "divert", False)
    _local.divert = True
    try:
        yield
    finally:
        _local.divert = before


def diverting() -> bool:
    """Whether a broad search of this thread is diverted (:func:`elsewhere`) instead of run."""
    return bool(getattr(_local, "divert", False))


def enter() -> None:
    """This search is broad: take a place in the lane (once) for the rest of it.

    Inside :func:`elsewhere` it takes none and raises :class:`Diverted` instead. Outside a
    search scope (a direct call into the searcher) there is no one to give the place back, so
    nothing is taken.
    """
    if diverting():
        raise Diverted
    scope = getattr(_local, "scope", None)
    if scope is None or scope["held"]:
        return
    LANE.acquire()
    scope["held"] = True


def inside() -> bool:
    """Whether this thread's search holds a place in the lane."""
    scope = getattr(_local, "scope", None)
    return bool(scope and scope["held"])

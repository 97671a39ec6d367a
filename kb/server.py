"""``kb serve``: the WSGI application of kb.serve in waitress, a maintained production server.

Waitress reads every request body (a body is never taken for a second request), closes
connections idle for ``idle_timeout`` seconds, stops accepting past ``connection_limit`` open
connections, and answers from a fixed pool of ``threads`` however many clients wait (idle
connections cost a socket, not a thread). For several processes or machines, run the same
application in gunicorn (README, "Deploying").
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.config import Settings
from kb.errors import KbError
from kb.serve import KbApp

log = logging.getLogger(__name__)

# Requests answered at once: enough that broad searches waiting for the broad lane and its
# worker process (at most kb.search.lane.QUEUE + 1) leave threads for every other request. At
# most kb.serve.SEARCH_THREADS of them search at once (the GIL runs one at a time anyway).
THREADS = 32
IDLE_TIMEOUT = 30
CONNECTION_LIMIT = 200


class KbServer:
    """A bound waitress server around the kb application; serve it, stop it from a thread."""

    def __init__(self, app: KbApp, server: Any) -> None:
        self.app = app
        self._server = server
        self._stop = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()

    @property
    def server_address(self) -> tuple[str, int]:
        """The address and port it listens on (the free port chosen for port 0)."""
        return str(self._server.effective_host), int(self._server.effective_port)

    @property
    def url(self) -> str:
        """The base URL the server answers on."""
        host, port = self.server_address
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Answer requests until :meth:`shutdown` (or Ctrl-C in the main thread)."""
        from waitress import wasyncore

        self._stop.clear()
        self._stopped.clear()
        try:
            while not self._stop.is_set():
                wasyncore.loop(timeout=poll_interval, map=self._server._map, use_poll=True, count=1)
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop :meth:`serve_forever` (called from another thread) and wait for it."""
        self._stop.set()
        self._server.pull_trigger()
        self._stopped.wait(timeout=10)

    def server_close(self) -> None:
        """Close the listening socket and every connection, stop the threads, close the index."""
        from waitress import wasyncore

        wasyncore.close_all(self._server._map, ignore_all=True)
        self._server.task_dispatcher.shutdown(timeout=5)
        self.app.close()


def _one_address(host: str, port: int) -> str:
    """The first address a host name resolves to (waitress would listen on each of them)."""
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise KbError(f"cannot listen on {host}:{port}: {exc}") from None
    return str(found[0][4][0])


def make_server(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    site_dir: Path | None = None,
    threads: int = THREADS,
    idle_timeout: int = IDLE_TIMEOUT,
    connection_limit: int = CONNECTION_LIMIT,
) -> KbServer:
    """Create (bind) the server without running it; port 0 picks a free port."""
    from waitress import wasyncore
    from waitress.server import create_server

    host = _one_address(host, port)
    app = KbApp(settings, site_dir)
    sockets: dict[int, Any] = {}
    try:
        server = create_server(
            app,
            map=sockets,
            host=host,
            port=port,
            threads=threads,
            channel_timeout=idle_timeout,
            cleanup_interval=max(1, min(30, idle_timeout // 2)),
            connection_limit=connection_limit,
            asyncore_use_poll=True,  # select() stops at 1024 descriptors
            max_request_body_size=64 * 1024,  # kb takes no body: read and dropped
            ident="kb",
            clear_untrusted_proxy_headers=True,
        )
    except OSError as exc:
        wasyncore.close_all(sockets, ignore_all=True)  # the wake-up pipe made before the bind
        app.close()
        raise KbError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return KbServer(app, server)


def serve(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    site_dir: Path | None = None,
    threads: int = THREADS,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until interrupted (Ctrl-C)."""
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "queue depth" on every burst
    server = make_server(settings, host=host, port=port, site_dir=site_dir, threads=threads)
    if on_ready:
        on_ready(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        log.info("stopped")
    finally:
        server.server_close()

"""A local HTTP server: the built static site, and ``GET /api/search`` from the Whoosh index.

Files are served only from inside the site folder: the request path is percent-decoded, any
``..`` segment (``/../``, ``/..%2f``, ``%2e%2e``) is refused, and the resolved file must still lie
inside the folder, so a symlink pointing out of it is refused too. The API validates every
parameter and answers a bad one with a 400 and a JSON message; an unexpected failure is logged
and answered with a 500 that carries no traceback.
"""

from __future__ import annotations

import html
import json
import logging
import mimetypes
import posixpath
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from kb.config import Settings
from kb.errors import KbError

log = logging.getLogger(__name__)

API_PARAMETERS = ("q", "lang", "type", "limit", "fuzzy")
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".wasm": "application/wasm",
    ".txt": "text/plain; charset=utf-8",
    ".xml": "application/xml",
}

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kb — site not built</title></head>
<body>
<h1>The site is not built yet</h1>
<p>There is no site in <code>{folder}</code>.
Run <code>kb build</code> to write it, then reload.</p>
<p>The search API works already:
<a href="/api/search?q=ring+tempts+you">/api/search?q=ring+tempts+you</a></p>
</body></html>
"""


class ApiError(Exception):
    """A request the API refuses, with its HTTP status and a message for the client."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class SearchService:
    """The search index behind the API: opened on first use, reopened when it was rewritten."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._index: Any = None
        self._lock = threading.Lock()

    def search(self, params: dict[str, str]) -> dict[str, Any]:
        """Run an API search; raise ApiError for bad parameters or a missing index."""
        from kb.search.query import QueryError

        query = params.get("q", "").strip()
        if not query:
            raise ApiError(HTTPStatus.BAD_REQUEST, "parameter q is required (the words to search)")
        limit_text = params.get("limit", "10")
        try:
            limit = int(limit_text)
        except ValueError:
            raise ApiError(
                HTTPStatus.BAD_REQUEST, f"limit must be a whole number (got {limit_text!r})"
            ) from None
        fuzzy_text = params.get("fuzzy", "0").lower()
        if fuzzy_text not in ("0", "1", "true", "false", "yes", "no", ""):
            raise ApiError(HTTPStatus.BAD_REQUEST, f"fuzzy must be 0 or 1 (got {fuzzy_text!r})")
        index = self._open()
        try:
            return index.search(  # type: ignore[no-any-return]
                query,
                lang=params.get("lang") or None,
                types=params.get("type") or None,
                limit=limit,
                fuzzy=fuzzy_text in ("1", "true", "yes"),
                default_lang=self.settings.lang,
            )
        except QueryError as exc:
            raise ApiError(HTTPStatus.BAD_REQUEST, str(exc)) from None

    def _open(self) -> Any:
        from kb.search.searcher import SearchIndex

        with self._lock:
            if self._index is None:
                try:
                    self._index = SearchIndex(self.settings.index_dir)
                except KbError as exc:
                    raise ApiError(HTTPStatus.SERVICE_UNAVAILABLE, str(exc)) from None
            else:
                self._index.refresh()
            return self._index

    def close(self) -> None:
        """Close the index if it was opened."""
        with self._lock:
            if self._index is not None:
                self._index.close()
                self._index = None


class Handler(BaseHTTPRequestHandler):
    """Serves the site folder and the search API."""

    server: KbServer
    server_version = "kb"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        log.info("%s %s", self.address_string(), format % args)

    # --- dispatch ----------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._dispatch(head=False)

    def do_HEAD(self) -> None:
        self._dispatch(head=True)

    def _refuse_method(self) -> None:
        self._json(
            HTTPStatus.METHOD_NOT_ALLOWED,
            {"error": "only GET and HEAD are served"},
            extra={"Allow": "GET, HEAD"},
        )

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse_method

    def _dispatch(self, head: bool) -> None:
        self._head = head
        try:
            parts = urlsplit(self.path)
            if parts.path == "/api/search":
                self._api_search(parts.query)
            elif parts.path.startswith("/api/"):
                self._json(HTTPStatus.NOT_FOUND, {"error": f"no API at {parts.path}"})
            else:
                self._file(parts.path)
        except (BrokenPipeError, ConnectionResetError):
            log.info("the client of %s went away", self.path)
        except Exception:
            log.exception("error while answering %s", self.path)
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "internal error (logged)"})

    # --- API -----------------------------------------------------------------------------------

    def _api_search(self, query_string: str) -> None:
        try:
            params = _api_params(query_string)
            response = self.server.search.search(params)
        except ApiError as exc:
            self._json(exc.status, {"error": exc.message})
            return
        self._json(HTTPStatus.OK, response)

    def _json(
        self, status: HTTPStatus, data: dict[str, Any], extra: dict[str, str] | None = None
    ) -> None:
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8", extra)

    # --- files ---------------------------------------------------------------------------------

    def _file(self, raw_path: str) -> None:
        root = self.server.site_dir
        if not root.is_dir():
            page = NOT_BUILT.format(folder=html.escape(str(root)))
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, page.encode(), _TYPES[".html"])
            return
        target = resolve_inside(root, raw_path)
        if target is None:
            self._not_found()
            return
        if target.is_dir():
            if not raw_path.endswith("/"):
                self._send(
                    HTTPStatus.MOVED_PERMANENTLY, b"", "text/plain", {"Location": raw_path + "/"}
                )
                return
            target = target / "index.html"
            if not target.is_file():
                self._not_found()
                return
        if not target.is_file():
            self._not_found()
            return
        try:
            body = target.read_bytes()
        except OSError:
            self._not_found()
            return
        self._send(HTTPStatus.OK, body, content_type(target))

    def _not_found(self) -> None:
        page = self.server.site_dir / "404.html"
        if page.is_file():
            self._send(HTTPStatus.NOT_FOUND, page.read_bytes(), _TYPES[".html"])
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def _send(
        self,
        status: HTTPStatus,
        body: bytes,
        content: str,
        extra: dict[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if not getattr(self, "_head", False):
            self.wfile.write(body)


def _api_params(query_string: str) -> dict[str, str]:
    """The API's parameters: each known at most once, values valid UTF-8."""
    try:
        parsed = parse_qs(
            query_string, keep_blank_values=True, strict_parsing=False, errors="strict"
        )
    except (UnicodeDecodeError, ValueError):
        raise ApiError(HTTPStatus.BAD_REQUEST, "the query string is not valid UTF-8") from None
    unknown = sorted(set(parsed) - set(API_PARAMETERS))
    if unknown:
        raise ApiError(
            HTTPStatus.BAD_REQUEST,
            f"unknown parameter {unknown[0]!r} (expected: {', '.join(API_PARAMETERS)})",
        )
    params = {}
    for name, values in parsed.items():
        if len(values) > 1:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"parameter {name} is given more than once")
        if "\x00" in values[0]:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"parameter {name} holds a NUL character")
        params[name] = values[0]
    return params


def resolve_inside(root: Path, raw_path: str) -> Path | None:
    """The file a URL path names inside ``root``, or None if it would leave the folder."""
    try:
        path = unquote(raw_path, errors="strict")
    except UnicodeDecodeError:
        return None
    if "\x00" in path or "\\" in path:
        return None
    segments = [s for s in path.split("/") if s not in ("", ".")]
    if any(s == ".." for s in segments):
        return None
    base = root.resolve()
    target = (base / posixpath.join(*segments)) if segments else base
    try:
        resolved = target.resolve()
    except (OSError, RuntimeError):
        return None
    if resolved != base and base not in resolved.parents:
        return None  # a symlink that leads out of the site
    return resolved


def content_type(path: Path) -> str:
    """The Content-Type of a site file."""
    suffix = path.suffix.lower()
    if suffix in _TYPES:
        return _TYPES[suffix]
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


class KbServer(ThreadingHTTPServer):
    """The threaded server, holding the site folder and the search service."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], settings: Settings, site_dir: Path) -> None:
        self.site_dir = Path(site_dir)
        self.search = SearchService(settings)
        super().__init__(address, Handler)  # binds; on failure it calls server_close()

    def server_close(self) -> None:
        super().server_close()
        self.search.close()

    @property
    def url(self) -> str:
        """The base URL the server answers on."""
        host, port = self.server_address[:2]
        shown = f"[{host}]" if ":" in str(host) else host
        return f"http://{shown}:{port}/"


def make_server(
    settings: Settings, *, host: str = "127.0.0.1", port: int = 8000, site_dir: Path | None = None
) -> KbServer:
    """Create (bind) the server without running it; port 0 picks a free port."""
    try:
        return KbServer((host, port), settings, site_dir or settings.site_dir)
    except OSError as exc:
        raise KbError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    site_dir: Path | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until interrupted (Ctrl-C)."""
    server = make_server(settings, host=host, port=port, site_dir=site_dir)
    if on_ready:
        on_ready(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        log.info("stopped")
    finally:
        server.server_close()

"""The site and ``GET /api/search`` as a WSGI application, served by waitress behind ``kb serve``.

:func:`create_app` is the application any WSGI server can run (``gunicorn 'kb.serve:create_app()'``
with several workers, each opening the read-only index on its own); ``kb serve`` runs it in
waitress, which reads request bodies, closes idle connections and bounds their number, so kb keeps
only its routes. Files are served only from inside the site folder: the request path is
percent-decoded, any ``..`` segment (``/../``, ``/..%2f``, ``%2e%2e``) is refused, and the resolved
file must still lie inside the folder, so a symlink pointing out of it is refused too; a path too
long for the file system is a 404, one over :data:`MAX_PATH` a 414. The API validates every
parameter and answers a bad one with a 400 and a JSON message; an unexpected failure is logged and
answered with a 500 that carries no traceback.
"""

from __future__ import annotations

import html
import json
import logging
import mimetypes
import posixpath
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from kb.config import Settings
from kb.errors import KbError

log = logging.getLogger(__name__)

API_PARAMETERS = ("q", "lang", "type", "limit", "fuzzy")
MAX_PATH = 4096  # characters of the URL path: beyond, 414 (no site page comes near)
MAX_QUERY = 8192  # characters of the query string: beyond, 414
SEARCH_THREADS = 4  # searches run at once in the process (beside the broad worker's)
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

    def __init__(
        self, status: HTTPStatus, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


class SearchService:
    """The search index behind the API: opened on first use, reopened when it was rewritten.

    A search runs in the thread that received its request, with one of :data:`SEARCH_THREADS`
    sets of the index's readers taken for its length, whatever the number of the server's
    threads: under the GIL more searches at once would only take turns, and each set is opened
    and warmed again after every rewrite of the index. Running it there rather than handing it
    to threads of its own spares each request two hand-overs between threads, each a wait for
    the CPU and the GIL on a busy machine. With the broad worker (the default), a search found
    broad is answered by the worker (:mod:`kb.search.worker`), the request's thread waiting for
    it without a set of readers; without the worker, in the request's own thread.
    """

    def __init__(
        self, settings: Settings, broad_worker: bool = True, search_threads: int = 0
    ) -> None:
        self.settings = settings
        self._index: Any = None
        self._lock = threading.Lock()
        self._refreshing = threading.Lock()
        self._reader_sets = search_threads or SEARCH_THREADS
        self.broad: Any = None  # kb.search.worker.BroadWorkers: broad searches off this process
        if broad_worker:
            from kb.search import BroadWorkers

            self.broad = BroadWorkers(settings.index_dir)

    def search(self, params: dict[str, str]) -> dict[str, Any]:
        """Run an API search; raise ApiError for bad parameters or a missing index."""
        from kb.search import LaneBusy, QueryError, search_unless_broad

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
        options = {
            "lang": params.get("lang") or None,
            "types": params.get("type") or None,
            "limit": limit,
            "fuzzy": fuzzy_text in ("1", "true", "yes"),
            "default_lang": self.settings.lang,
        }
        index = self._open()
        try:
            if self.broad is None:
                return index.search(query, **options)  # type: ignore[no-any-return]
            found = search_unless_broad(index, query, **options)
            if found is None:  # broad: answered by the broad worker, off this process
                found = self.broad.search(query, options)
            return found  # type: ignore[no-any-return]
        except QueryError as exc:
            raise ApiError(HTTPStatus.BAD_REQUEST, str(exc)) from None
        except LaneBusy as exc:  # broad searches queued beyond the lane's bounds, a lost worker
            raise ApiError(
                HTTPStatus.SERVICE_UNAVAILABLE, str(exc), {"Retry-After": str(exc.retry_after)}
            ) from None
        except KbError as exc:  # the worker could not open the index
            raise ApiError(HTTPStatus.SERVICE_UNAVAILABLE, str(exc)) from None

    def _open(self) -> Any:
        from kb.search import SearchIndex

        with self._lock:
            if self._index is None:
                try:
                    self._index = SearchIndex(
                        self.settings.index_dir, reader_sets=self._reader_sets
                    )
                except KbError as exc:
                    raise ApiError(HTTPStatus.SERVICE_UNAVAILABLE, str(exc)) from None
                return self._index
            index = self._index
        # One thread reopens a rewritten index; the others keep searching the generation they
        # have meanwhile rather than wait for it (each search still reads one generation).
        if self._refreshing.acquire(blocking=False):
            try:
                index.refresh()
            finally:
                self._refreshing.release()
        return index

    def close(self) -> None:
        """Close the index if it was opened, and stop the broad workers."""
        if self.broad is not None:
            self.broad.close()
        with self._lock:
            if self._index is not None:
                self._index.close()
                self._index = None


@dataclass
class Response:
    """What a route answers: status, body and headers (the app adds the common ones)."""

    status: HTTPStatus
    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


def _json(
    status: HTTPStatus, data: dict[str, Any], extra: dict[str, str] | None = None
) -> Response:
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return Response(status, body, "application/json; charset=utf-8", extra or {})


class KbApp:
    """The WSGI application: the site folder and the search API, nothing else."""

    def __init__(
        self, settings: Settings, site_dir: Path | None = None, *, broad_worker: bool = True
    ) -> None:
        self.settings = settings
        self.site_dir = Path(site_dir or settings.site_dir)
        self.search = SearchService(settings, broad_worker)

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "GET")
        target = request_target(environ)
        try:
            response = self._dispatch(method, target)
        except Exception:
            log.exception("error while answering %s", target[:200])
            response = _json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "internal error (logged)"})
        headers = [
            ("Content-Type", response.content_type),
            ("Content-Length", str(len(response.body))),
            ("X-Content-Type-Options", "nosniff"),
            *response.headers.items(),
        ]
        start_response(f"{response.status.value} {response.status.phrase}", headers)
        return [b""] if method == "HEAD" else [response.body]

    def close(self) -> None:
        """Release the search index."""
        self.search.close()

    # --- dispatch ----------------------------------------------------------------------------

    def _dispatch(self, method: str, target: str) -> Response:
        if method not in ("GET", "HEAD"):
            return _json(
                HTTPStatus.METHOD_NOT_ALLOWED,
                {"error": "only GET and HEAD are served"},
                extra={"Allow": "GET, HEAD"},
            )
        parts = urlsplit(target)
        if len(parts.path) > MAX_PATH or len(parts.query) > MAX_QUERY:
            return _json(HTTPStatus.REQUEST_URI_TOO_LONG, {"error": "the URL is too long"})
        if parts.path == "/api/search":
            return self._api_search(parts.query)
        if parts.path.startswith("/api/"):
            return _json(HTTPStatus.NOT_FOUND, {"error": f"no API at {parts.path}"})
        try:
            return self._file(parts.path)
        except OSError:  # a name too long for the file system, a folder that cannot be read
            return self._not_found()

    # --- API -----------------------------------------------------------------------------------

    def _api_search(self, query_string: str) -> Response:
        try:
            params = _api_params(query_string)
            response = self.search.search(params)
        except ApiError as exc:
            return _json(exc.status, {"error": exc.message}, exc.headers)
        return _json(HTTPStatus.OK, response)

    # --- files ---------------------------------------------------------------------------------

    def _file(self, raw_path: str) -> Response:
        root = self.site_dir
        if not root.is_dir():
            page = NOT_BUILT.format(folder=html.escape(str(root)))
            return Response(HTTPStatus.SERVICE_UNAVAILABLE, page.encode(), _TYPES[".html"])
        target = resolve_inside(root, raw_path)
        if target is None:
            return self._not_found()
        if target.is_dir():
            if not raw_path.endswith("/"):
                return Response(
                    HTTPStatus.MOVED_PERMANENTLY, b"", "text/plain", {"Location": raw_path + "/"}
                )
            target = target / "index.html"
        if not target.is_file():
            return self._not_found()
        return Response(HTTPStatus.OK, target.read_bytes(), content_type(target))

    def _not_found(self) -> Response:
        page = self.site_dir / "404.html"
        try:
            return Response(HTTPStatus.NOT_FOUND, page.read_bytes(), _TYPES[".html"])
        except OSError:
            return Response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")


def request_target(environ: dict[str, Any]) -> str:
    """The request's path and query as the client sent them (still percent-encoded).

    Servers pass the raw target as REQUEST_URI (waitress) or RAW_URI (gunicorn); otherwise it is
    rebuilt from the decoded PATH_INFO. A leading ``//`` is one slash, as in http.server.
    """
    raw = environ.get("REQUEST_URI") or environ.get("RAW_URI")
    if not raw:
        path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        raw = quote(path.encode("latin-1", "replace"), safe="/%")
        if environ.get("QUERY_STRING"):
            raw += "?" + environ["QUERY_STRING"]
    if not raw.startswith("/"):  # absolute form: http://host/path
        parts = urlsplit(raw)
        raw = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if raw.startswith("//"):
        raw = "/" + raw.lstrip("/")
    return str(raw)


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


def create_app(settings: Settings | None = None, site_dir: Path | str | None = None) -> KbApp:
    """The WSGI application; without settings, read from kb.toml and KB_* like the CLI does."""
    if settings is None:
        from kb.config import load_settings

        settings = load_settings()
    return KbApp(settings, Path(site_dir) if site_dir else None)

"""HTTP for ``kb update``: conditional requests, resumable downloads, one-line failures.

Every failure becomes a :class:`SourceError` naming the URL and what was wrong, so the CLI prints
one line a user can act on. Downloads go to a ``.part`` file in the data folder (never the
corpus) with a sidecar recording the validators it was started under; a later run resumes it
with an HTTP ``Range`` request guarded by ``If-Range``, and starts over when the file changed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx

from kb.errors import KbError

log = logging.getLogger(__name__)

TIMEOUT = 30.0
USER_AGENT = "kb-update (+https://github.com/; Magic rules knowledge base)"
SMALL_LIMIT = 20 * 1024 * 1024  # a rules page or a checksum file: anything bigger is wrong

DownloadProgress = Callable[[str, int, int | None], None]


class SourceError(KbError):
    """A source that cannot be reached or answered something kb cannot use; names the URL."""

    def __init__(self, url: str, problem: str) -> None:
        self.url = url
        self.problem = problem
        super().__init__(f"{url}: {problem}")


@dataclass(frozen=True)
class Validators:
    """What a server said identifies a body (ETag, Last-Modified), for conditional requests."""

    etag: str | None = None
    last_modified: str | None = None

    @classmethod
    def of(cls, response: httpx.Response) -> Validators:
        """The validators a response carries."""
        return cls(response.headers.get("etag"), response.headers.get("last-modified"))

    @classmethod
    def load(cls, data: Any) -> Validators:
        """Read validators back from the state file (anything malformed means none)."""
        if not isinstance(data, dict):
            return cls()
        etag, modified = data.get("etag"), data.get("last_modified")
        return cls(
            etag if isinstance(etag, str) else None,
            modified if isinstance(modified, str) else None,
        )

    def conditional_headers(self) -> dict[str, str]:
        """``If-None-Match`` / ``If-Modified-Since`` for a request that may answer 304."""
        headers = {}
        if self.etag:
            headers["If-None-Match"] = self.etag
        if self.last_modified:
            headers["If-Modified-Since"] = self.last_modified
        return headers

    def as_dict(self) -> dict[str, str | None]:
        """The form the state file stores."""
        return asdict(self)

    def __bool__(self) -> bool:
        return bool(self.etag or self.last_modified)


@dataclass(frozen=True)
class Fetched:
    """A small body fetched whole (or None when the server answered 304 Not Modified)."""

    url: str
    body: bytes | None
    validators: Validators
    content_type: str

    @property
    def not_modified(self) -> bool:
        """True when the server said the body has not changed since our copy."""
        return self.body is None


def _status_problem(response: httpx.Response) -> str:
    """Say what an unexpected status means for the user."""
    code = response.status_code
    reason = response.reason_phrase or ""
    hint = ""
    if code in (404, 410):
        hint = " (the file moved or was removed: check the URL setting)"
    elif code >= 500:
        hint = " (the site is down or failing: try again later)"
    elif code in (401, 403):
        hint = " (the site refuses kb: check the URL setting)"
    return f"HTTP {code} {reason}".rstrip() + hint


def _network_problem(exc: httpx.HTTPError) -> str:
    """Say what a transport failure means (offline, timeout, cut connection)."""
    if isinstance(exc, httpx.TimeoutException):
        return f"no answer within {TIMEOUT:.0f} s (offline, or the site is down?)"
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect (offline, or the site is down?): {exc}"
    if isinstance(exc, httpx.TooManyRedirects):
        return "too many redirects"
    return f"{type(exc).__name__}: {exc}"


class Fetcher:
    """One HTTP client for a run of ``kb update``; every request and its failures go through it."""

    def __init__(self, client: httpx.Client | None = None) -> None:
        self.client = client or httpx.Client(
            timeout=TIMEOUT, follow_redirects=True, headers={"User-Agent": USER_AGENT}
        )

    def close(self) -> None:
        """Close the connections."""
        self.client.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def get(self, url: str, validators: Validators | None = None) -> Fetched:
        """GET a small body, conditionally when validators are known; 304 gives body None."""
        headers = validators.conditional_headers() if validators else {}
        try:
            with self.client.stream("GET", url, headers=headers) as response:
                if response.status_code == 304 and headers:
                    return Fetched(str(response.url), None, validators or Validators(), "")
                if response.status_code != 200:
                    raise SourceError(url, _status_problem(response))
                body = bytearray()
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) > SMALL_LIMIT:
                        raise SourceError(url, f"answered more than {SMALL_LIMIT} bytes")
                return Fetched(
                    str(response.url),
                    bytes(body),
                    Validators.of(response),
                    response.headers.get("content-type", ""),
                )
        except httpx.RemoteProtocolError as exc:
            raise SourceError(url, f"the answer was cut short ({exc})") from None
        except httpx.HTTPError as exc:
            raise SourceError(url, _network_problem(exc)) from None

    def download(
        self, url: str, part: Path, *, progress: DownloadProgress | None = None
    ) -> tuple[Validators, str]:
        """Download a file into ``part``, resuming what an earlier run left; return validators.

        Returns the validators and the content type. A body shorter than announced keeps the
        part file (the next run resumes it) and raises SourceError.
        """
        meta_path = part.with_name(part.name + ".json")
        part.parent.mkdir(parents=True, exist_ok=True)
        have = part.stat().st_size if part.is_file() else 0
        started = _read_meta(meta_path, url)
        headers = {"Accept-Encoding": "identity"}
        if_range = _if_range(started) if have else None
        if if_range:
            headers["Range"] = f"bytes={have}-"
            headers["If-Range"] = if_range
        else:
            have = 0
        name = part.name.removesuffix(".part")
        try:
            with self.client.stream("GET", url, headers=headers) as response:
                if response.status_code == 416 and have:
                    log.info("%s: the partial download is not resumable; starting over", url)
                    part.unlink()
                    meta_path.unlink(missing_ok=True)
                    response.close()
                    return self.download(url, part, progress=progress)
                if response.status_code == 206 and have:
                    total = _range_total(response, have, url)
                    validators, mode = started or Validators.of(response), "ab"
                elif response.status_code == 200:
                    have, mode, validators = 0, "wb", Validators.of(response)
                    length = response.headers.get("content-length")
                    total = int(length) if length and length.isdigit() else None
                else:
                    raise SourceError(url, _status_problem(response))
                meta_path.write_text(
                    json.dumps({"url": url, **validators.as_dict()}), encoding="utf-8"
                )
                done = have
                with open(part, mode) as handle:
                    try:
                        for chunk in response.iter_raw():
                            handle.write(chunk)
                            done += len(chunk)
                            if progress:
                                progress(name, done, total)
                    except httpx.HTTPError as exc:
                        handle.flush()
                        raise SourceError(url, _truncated(done, total, exc)) from None
                if total is not None and done != total:
                    raise SourceError(url, _truncated(done, total, None))
                return validators, response.headers.get("content-type", "")
        except httpx.HTTPError as exc:
            raise SourceError(url, _network_problem(exc)) from None


def _if_range(started: Validators | None) -> str | None:
    """The validator a resumed request names: a strong ETag, else Last-Modified."""
    if started is None:
        return None
    if started.etag and not started.etag.startswith("W/"):
        return started.etag
    return started.last_modified


def _truncated(done: int, total: int | None, exc: httpx.HTTPError | None) -> str:
    of = f" of {total}" if total is not None else ""
    why = f" ({type(exc).__name__})" if exc is not None else ""
    return (
        f"the download was cut short after {done}{of} bytes{why}; "
        "nothing was installed, run `kb update` again to resume"
    )


def _range_total(response: httpx.Response, have: int, url: str) -> int | None:
    """Check that a 206 answer continues where the part file ends; return the full size."""
    content_range = response.headers.get("content-range", "")
    try:
        unit, _, spec = content_range.partition(" ")
        start_end, _, size = spec.partition("/")
        start = int(start_end.split("-", 1)[0])
    except ValueError:
        problem = f"a partial answer with a bad Content-Range {content_range!r}"
        raise SourceError(url, problem) from None
    if unit != "bytes" or start != have:
        raise SourceError(url, f"resumed at the wrong place (Content-Range {content_range!r})")
    return int(size) if size.isdigit() else None


def _read_meta(path: Path, url: str) -> Validators | None:
    """The validators a part file was started under, if it was started from this URL."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("url") != url:
        return None
    validators = Validators.load(data)
    return validators or None


def discard_part(part: Path) -> None:
    """Remove a part file and its sidecar (after it was installed or proved unusable)."""
    part.unlink(missing_ok=True)
    part.with_name(part.name + ".json").unlink(missing_ok=True)

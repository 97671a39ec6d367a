"""The two sources ``kb update`` follows, and how their answers are checked before use.

- Wizards' rules page links the Comprehensive Rules as ``MagicCompRules 20260116.txt``; the
  newest link (by the date in its name) is the edition to have. The downloaded text must be
  text, not an HTML page, and must parse as a Comprehensive Rules edition with its effective
  date (kb's own parser: what would not ingest is never installed).
- MTGJSON publishes ``AllPrintings.json.xz`` and beside it ``AllPrintings.json.xz.sha256``;
  the published checksum says whether our copy is current and verifies a download.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from kb.errors import KbError

from .fetch import SourceError

_CR_NAME = re.compile(r"^MagicCompRules[ _-]?(?P<date>\d{8})\.txt$", re.IGNORECASE)
_SHA256 = re.compile(r"^\s*(?P<hex>[0-9a-fA-F]{64})(?:\s|$)")
XZ_MAGIC = b"\xfd7zXZ\x00"


@dataclass(frozen=True)
class RulesLink:
    """A Comprehensive Rules text linked from the rules page."""

    url: str
    name: str  # the official file name, e.g. "MagicCompRules 20260116.txt"
    date: dt.date  # the date in the name (the effective date may be a few days later)


class _Links(HTMLParser):
    """Collect the href of every link in an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag.lower() == "a":
            self.hrefs.extend(value for key, value in attrs if key.lower() == "href" and value)


def name_date(name: str) -> dt.date | None:
    """The date in a Comprehensive Rules file name (space, underscore or nothing before it)."""
    match = _CR_NAME.match(name)
    if not match:
        return None
    try:
        return dt.datetime.strptime(match["date"], "%Y%m%d").date()
    except ValueError:
        return None


def file_name(url: str) -> str:
    """The official file name a URL ends with (percent-decoded: ``MagicCompRules 20260116.txt``)."""
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])


def newest_rules_link(page: bytes, page_url: str) -> RulesLink:
    """The newest Comprehensive Rules text the page links; SourceError when it links none."""
    parser = _Links()
    parser.feed(page.decode("utf-8", errors="replace"))
    parser.close()
    found = []
    for href in parser.hrefs:
        url = urljoin(page_url, href.strip())
        name = file_name(url)
        date = name_date(name)
        if date is not None and urlsplit(url).scheme in ("http", "https"):
            found.append(RulesLink(url, name, date))
    if not found:
        raise SourceError(
            page_url,
            "no link to a Comprehensive Rules text (MagicCompRules YYYYMMDD.txt) on the page "
            "(the page changed? set rules_page_url)",
        )
    return max(found, key=lambda link: (link.date, link.url))


def local_rules_dates(folders: tuple[Path, ...]) -> dict[dt.date, Path]:
    """The Comprehensive Rules files already in the corpus folders, by the date in their name."""
    found: dict[dt.date, Path] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.txt")):
            date = name_date(path.name)
            if date is not None:
                found.setdefault(date, path)
    return found


def looks_like_html(body: bytes, content_type: str) -> bool:
    """Whether an answer is an HTML page (a moved file often redirects to one)."""
    if "html" in content_type.lower():
        return True
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<!doctype", b"<html", b"<head", b"<?xml"))


def verify_rules(path: Path, url: str, content_type: str) -> dt.date:
    """Check that a downloaded file is a Comprehensive Rules text kb reads; return its date."""
    from kb.corpus import parse_file

    with open(path, "rb") as handle:
        head = handle.read(512)
    if looks_like_html(head, content_type):
        shown = content_type.split(";")[0].strip() or "HTML"
        raise SourceError(url, f"answered an HTML page ({shown}), not the rules text")
    try:
        document = parse_file(path)
    except KbError as exc:
        reason = getattr(exc, "reason", None) or str(exc)
        line = getattr(exc, "line", None)
        where = f" (line {line})" if line else ""
        problem = f"not a Comprehensive Rules text kb can read{where}: {reason}"
        raise SourceError(url, problem) from None
    date = getattr(document, "effective_date", None)
    if document.format != "comprules" or not isinstance(date, dt.date):
        raise SourceError(
            url, f"not a Comprehensive Rules text (read as {document.format}, no effective date)"
        )
    return date


def parse_checksum(body: bytes, url: str) -> str:
    """The hex digest of a ``.sha256`` file (``<hex>`` or ``<hex>  <name>``)."""
    text = body.decode("ascii", errors="replace")
    match = _SHA256.match(text)
    if not match:
        shown = text.strip().splitlines()[0][:40] if text.strip() else "an empty body"
        raise SourceError(url, f"not a sha256 checksum file (starts {shown!r})")
    return match["hex"].lower()


def sha256_file(path: Path) -> str:
    """The sha256 of a file, read in chunks (AllPrintings is hundreds of megabytes)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


def verify_card_data(path: Path, url: str, expected: str, checksum_url: str) -> None:
    """Check a downloaded AllPrintings file against MTGJSON's published checksum."""
    with open(path, "rb") as handle:
        head = handle.read(512)
    if url.endswith(".xz") and not head.startswith(XZ_MAGIC):
        if looks_like_html(head, ""):
            raise SourceError(url, "answered an HTML page, not the xz-compressed card data")
        raise SourceError(url, "not an xz-compressed file (bad magic bytes)")
    actual = sha256_file(path)
    if actual != expected:
        raise SourceError(
            url,
            f"bad checksum: sha256 {actual[:16]}… but {checksum_url} publishes {expected[:16]}…; "
            "nothing was installed",
        )

"""The link check: every internal link and asset of the built site must exist, anchors too."""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

ID = re.compile(rb'\bid="([^"]*)"')
LINK = re.compile(rb'\b(?:href|src)="([^"]*)"')


@dataclass(frozen=True)
class BrokenLink:
    """A link from a page to a file or anchor the site does not have."""

    page: str
    href: str
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: {self.href} ({self.reason})"


def _ids(data: bytes) -> set[str]:
    return {html.unescape(m.decode()) for m in ID.findall(data)}


def broken_links(files: Mapping[str, bytes]) -> list[BrokenLink]:
    """Check every ``href``/``src`` of every HTML page against the files and their ids."""
    ids: dict[str, set[str]] = {}
    broken = []
    for page in sorted(p for p in files if p.endswith(".html")):
        for raw in LINK.findall(files[page]):
            href = html.unescape(raw.decode())
            parts = urlsplit(href)
            if parts.scheme or href.startswith("//"):
                broken.append(BrokenLink(page, href, "external link"))
                continue
            if parts.path:
                target = posixpath.normpath(
                    posixpath.join(posixpath.dirname(page), unquote(parts.path))
                )
                if target.startswith("../") or target not in files:
                    broken.append(BrokenLink(page, href, "no such file"))
                    continue
            else:
                target = page
            if parts.fragment and target.endswith(".html"):
                if target not in ids:
                    ids[target] = _ids(files[target])
                if unquote(parts.fragment) not in ids[target]:
                    broken.append(BrokenLink(page, href, "no such anchor"))
    return broken

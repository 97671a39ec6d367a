"""The static website: Jinja2 + Babel pages per language, cross-linked, searched with Pagefind."""

from __future__ import annotations

from typing import Any

__all__ = ["BuildReport", "build_site"]


def __getattr__(name: str) -> Any:
    # Lazy: importing kb.site (kb.site.check, kb.site.writer) does not load the page builders.
    if name in __all__:
        from kb.site import build

        return getattr(build, name)
    raise AttributeError(name)

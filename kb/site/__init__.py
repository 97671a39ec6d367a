"""The static website: Jinja2 + Babel pages per language, cross-linked, searched with Pagefind."""

from __future__ import annotations

from kb.site.build import BuildReport, build_site

__all__ = ["BuildReport", "build_site"]

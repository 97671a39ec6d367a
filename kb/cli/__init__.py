"""The ``kb`` command: one click group; each command parses options and calls one library function.

Commands live in one module per pipeline stage (``corpus``, ``links``, ``search``, ``site``,
``export``, ``terms``, ``update``); importing them registers them on :data:`main`. Stages are
imported inside the commands so that ``kb --help`` stays fast. Expected failures (``KbError``)
are caught once, where the group invokes a command (``KbGroup.invoke``): a one-line message and
exit 1, or 2 for a usage error (``KbUsageError``, as click's own), never a traceback.
"""

from __future__ import annotations

from kb.cli import corpus, export, links, search, site, terms, update
from kb.cli.app import main

__all__ = ["corpus", "export", "links", "main", "search", "site", "terms", "update"]

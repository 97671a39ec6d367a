"""The update stage: bring in a new Comprehensive Rules edition or card data, and say what changed.

Public API (the CLI calls these): ``update`` (check Wizards' rules page and MTGJSON, download
what is new, install it in the corpus folder, ingest it through ``kb.pipeline`` and summarise),
``changes_since`` (every loaded edition after a date with its changes), ``UpdateReport``, and
``SourceError`` (a source that failed, naming its URL).
"""

from __future__ import annotations

from .fetch import Fetcher, SourceError
from .run import SOURCES, UpdateReport, changes_since, update

__all__ = ["SOURCES", "Fetcher", "SourceError", "UpdateReport", "changes_since", "update"]

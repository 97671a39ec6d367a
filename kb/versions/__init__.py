"""The versions stage: editions, diffs, a rule's history across renumbering, translation drift.

Public API (the CLI, the site and the exports call these): ``resolve_edition``,
``diff_editions``, ``trace``, ``today``, ``translation_status``, ``preferred_translations``
(the translation every consumer shows), ``stale_translations``, ``drift_summary``,
``edition_contents`` (an edition's rules as compared), ``update_lineages`` / ``lineage_of``
/ ``numbers_of`` (rules followed across editions), and ``word_ops`` for rendering any two
texts' differences.
"""

from __future__ import annotations

from .align import RuleContent, edition_contents
from .diff import diff_editions, word_ops
from .drift import (
    drift_summary,
    preferred_translations,
    stale_translations,
    translation_status,
)
from .editions import EditionRef, edition_label, english_editions, resolve_edition
from .history import today, trace
from .lineage import lineage_of, numbers_of, update_lineages

__all__ = [
    "EditionRef",
    "RuleContent",
    "diff_editions",
    "drift_summary",
    "edition_contents",
    "edition_label",
    "english_editions",
    "lineage_of",
    "numbers_of",
    "preferred_translations",
    "resolve_edition",
    "stale_translations",
    "today",
    "trace",
    "translation_status",
    "update_lineages",
    "word_ops",
]

"""The link stage: explicit rule references, term links from rulings to rules, backlinks.

Public API (the site and the exports call these; see each function):
``find_references``, ``Reference``, ``build_links``, ``backlinks``, ``clarifications_for_rule``,
``cards_for_rule``, ``rules_for_clarification``, ``clarifications_by_rule`` / ``cited_by`` (the
same for every rule of an edition at once), ``unresolved``, ``check`` (for ``kb check``),
``edition_links`` / ``linked_numbers`` (the links as one edition reads them: a ruling's or card's
term link is stored once per rule lineage), and the vocabulary helpers for tools and benchmarks.
"""

from __future__ import annotations

from .batch import cited_by, clarifications_by_rule
from .build import build_links, edition_vocabulary, vocabularies
from .check import check, unresolved
from .incremental import CardChanges, relink_card_data
from .learned import relink_learned
from .queries import (
    backlinks,
    cards_for_rule,
    clarifications_for_rule,
    rules_for_clarification,
)
from .references import Reference, find_references
from .terms import Term, TermMatch, Vocabulary
from .view import EditionLink, edition_links, linked_numbers

__all__ = [
    "CardChanges",
    "EditionLink",
    "Reference",
    "Term",
    "TermMatch",
    "Vocabulary",
    "backlinks",
    "build_links",
    "cards_for_rule",
    "check",
    "cited_by",
    "clarifications_by_rule",
    "clarifications_for_rule",
    "edition_links",
    "edition_vocabulary",
    "find_references",
    "linked_numbers",
    "relink_card_data",
    "relink_learned",
    "rules_for_clarification",
    "unresolved",
    "vocabularies",
]

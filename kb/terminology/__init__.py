"""Keyword terminology learned from Wizards' French and Spanish card translations.

``align`` holds the method (plain texts in, terms out); ``store`` rebuilds the ``card_terms``
table from the stored cards and serves it to the CLI, the read views, search and the PO export.
"""

from __future__ import annotations

from .align import CardText, LearnedTerm, learn
from .store import (
    LANGUAGES,
    OfficialTerms,
    conflicts,
    keyword_rules,
    list_terms,
    rebuild_terms,
    rule_terms,
    terms_current,
    title_terms,
    vocabulary,
)

__all__ = [
    "LANGUAGES",
    "CardText",
    "LearnedTerm",
    "OfficialTerms",
    "conflicts",
    "keyword_rules",
    "learn",
    "list_terms",
    "rebuild_terms",
    "rule_terms",
    "terms_current",
    "title_terms",
    "vocabulary",
]

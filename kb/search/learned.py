"""The keyword terms learned from card translations, kept beside the index for its queries.

Written at each index build or update from kb.terminology's public ``vocabulary``; read when an
index opens, so a query needs no database (the index folder is all ``kb serve`` ships).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from kb.search.lang import fold_phrase, register_learned_terms, search_language

if TYPE_CHECKING:
    from kb.db import Database

log = logging.getLogger(__name__)
FILE = "learned_terms.json"


def save_learned_terms(db: Database, index_dir: Path) -> None:
    """Write {language: [[term, English keyword, rule], ...]} into the index folder."""
    from kb.terminology import LANGUAGES, keyword_rules, vocabulary

    with db.session() as session:
        rules, _ = keyword_rules(session)
        data = {lang: with_keywords(lang, vocabulary(session, lang), rules) for lang in LANGUAGES}
    tmp = Path(index_dir) / (FILE + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True), "utf-8")
    os.replace(tmp, Path(index_dir) / FILE)


def with_keywords(
    lang: str, learned: list[tuple[str, str, str]], rules: dict[str, tuple[str, str]]
) -> list[tuple[str, str, str]]:
    """The learned terms of a language, and its official keyword names that the corpus's card
    translations did not teach (``SearchLanguage.keywords``), each with its keyword's rule in
    the newest edition (``rules``: folded rule title -> (number, title)); sorted.

    Learned terms win: they are what the corpus's own cards print.
    """
    known = {fold_phrase(term) for term, _, _ in learned}
    rows = list(learned)
    for term, keyword in sorted(search_language(lang).keywords.items()):
        rule = rules.get(keyword.casefold())
        if rule is not None and fold_phrase(term) not in known:
            rows.append((term, keyword, rule[0]))
    return sorted(rows)


def load_learned_terms(index_dir: Path) -> None:
    """Register the learned terms of an index folder with the search languages (if any)."""
    path = Path(index_dir) / FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        log.warning("ignoring the learned terms in %s: %s", path, exc)
        return
    for code, pairs in sorted(data.items()):
        register_learned_terms(code, [tuple(map(str, row)) for row in pairs])

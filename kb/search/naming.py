"""A query that names a rule: that rule first, then its subrules, then its glossary entry.

BM25 prefers short texts, so for "deathtouch" the subrules 702.2a–f (a line each, all saying
"deathtouch") outrank 702.2 itself, whose text is only its title. A judge who types a rule's
title, keyword or glossary term wants the rule. A hit *names* the query when its title's terms
are those of the query's words (each word in the languages it was searched in, the term bridge
included): "ring tempts you" names 701.54 "The Ring Tempts You", "contact mortel" names 702.2.
"""

from __future__ import annotations

import re
from typing import Any

from kb.search.analysis import analyze
from kb.search.editions import newest_edition
from kb.search.query import LanguagePlugin, QueryContext
from kb.search.schema import text_field

DEPTH = 20  # first-pass hits looked at for the named rule
_WORD = re.compile(r"[^\W_][\w'’.-]*", re.UNICODE)


def word_terms(schema: Any, text: str, context: QueryContext) -> list[dict[str, set[str]]]:
    """Per query word (stop words left out): the index terms it was searched as, per field."""
    from whoosh.qparser import syntax

    scratch = QueryContext(
        lang=context.lang, editions=context.editions, any_language=context.any_language
    )
    plugin = LanguagePlugin(scratch, schema)
    found = []
    for token in text.split():
        if ":" in token or not _WORD.fullmatch(token) or token.isupper():
            continue
        alternatives = plugin.alternatives(syntax.WordNode(token))
        if not alternatives:
            continue
        terms: dict[str, set[str]] = {}
        for fieldname, english, _boost in alternatives:
            if fieldname == "number":
                continue
            analyzer = schema[fieldname].analyzer
            terms.setdefault(fieldname, set()).update(analyze(analyzer, english or token))
        found.append(terms)
    return found


def names(schema: Any, hit: Any, words: list[dict[str, set[str]]], lang: str) -> bool:
    """Whether a hit's title (in any of its languages) is what the query's words say."""
    if not words:
        return False
    # Bridged words are looser than words of the title's own language: a French or Spanish
    # query of several words may keep one word the English title does not have ("lien de vie").
    spare = 1 if lang != "en" and len(words) >= 2 else 0
    texts = hit.fields()["data"].get("texts", {})
    for code, text in texts.items():
        title = text.get("title") or ""
        if not title:
            continue
        fieldname = text_field(code)
        title_terms = set(analyze(schema[fieldname].analyzer, title))
        if not title_terms:
            continue
        covered = set().union(*(w.get(fieldname, set()) for w in words))
        hitting = sum(1 for w in words if w.get(fieldname, set()) & title_terms)
        if title_terms <= covered and hitting >= len(words) - spare:
            return True
    return False


def promote_named(schema: Any, hits: list[Any], text: str, context: QueryContext) -> list[Any]:
    """The hits with the rule the words name first, its subrules next, then its glossary entry."""
    words = word_terms(schema, text, context)
    named = next(
        (h for h in hits if h["type"] == "rule" and names(schema, h, words, context.lang)), None
    )
    if named is None:
        return hits
    number = named.get("number") or ""

    def is_subrule(hit: Any) -> bool:
        other = hit.get("number") or ""
        return (
            hit["type"] == "rule"
            and other.startswith(number)
            and len(other) > len(number)
            and (other[len(number)].isalpha() or other[len(number)] == ".")
            and newest_edition(named) in str(hit.get("edition") or "").split()
        )

    subrules = [h for h in hits if h is not named and is_subrule(h)]
    glossary = [
        h for h in hits if h["type"] == "glossary" and names(schema, h, words, context.lang)
    ]
    first = [named, *subrules, *glossary]
    chosen = {id(h) for h in first}
    return first + [h for h in hits if id(h) not in chosen]

"""Did-you-mean: replace the query words the index does not know by the nearest words it does.

Whoosh keeps the unstemmed, folded words of every text field in a spelling field
(``spell_body_en``…); its automaton walks that word list within an edit distance. Candidates
are ranked by distance, then by how many documents hold them, across the fields the query
searched (the user's language, English, card names).
"""

from __future__ import annotations

import re
from typing import Any

from kb.search.lang import fold_word, search_language
from kb.search.schema import body_field, title_field

MAX_DISTANCE = 2


def _fields(lang: str) -> list[str]:
    fields = [body_field(lang), title_field(lang), "card"]
    if lang != "en":
        fields += [body_field("en"), title_field("en")]
    return fields


def _known(reader: Any, schema: Any, word: str, fields: list[str], lang: str) -> bool:
    """Whether any searched field holds the word, or the language's bridge knows it."""
    language = search_language(lang)
    stems = [t.text for t in schema[body_field(lang)].analyzer(word, mode="query")]
    if len(stems) == 1 and language.english_for(stems[0]):
        return True
    for fieldname in fields:
        analyzer = schema[fieldname].analyzer
        terms = [t.text for t in analyzer(word, mode="query")]
        if terms and all(reader.doc_frequency(fieldname, t) for t in terms):
            return True
    return False


def _frequency(reader: Any, schema: Any, word: str, fields: list[str]) -> int:
    total = 0
    for fieldname in fields:
        for t in schema[fieldname].analyzer(word, mode="query"):
            total += reader.doc_frequency(fieldname, t.text)
    return total


def suggest(reader: Any, schema: Any, word: str, lang: str) -> str | None:
    """The closest known word to an unknown one, or None if nothing is close enough."""
    folded = fold_word(word)
    if len(folded) < 3 or not folded.isalpha():
        return None
    fields = _fields(lang)
    for distance in range(1, MAX_DISTANCE + 1):
        if distance > 1 and len(folded) < 4:
            break  # two edits on a short word is another word
        candidates: set[str] = set()
        # Ask each segment: a multi-segment reader would walk the stemmed terms instead.
        for segment, _ in reader.leaf_readers():
            names = set(segment.indexed_field_names())
            for fieldname in fields:
                if schema[fieldname].spelling_fieldname(fieldname) in names:
                    candidates.update(segment.terms_within(fieldname, folded, distance, prefix=1))
        candidates.discard(folded)
        ranked = sorted(
            ((_frequency(reader, schema, c, fields), c) for c in candidates if c.isalpha()),
            key=lambda fc: (-fc[0], fc[1]),
        )
        if ranked and ranked[0][0] > 0:
            return ranked[0][1]
    return None


def did_you_mean(reader: Any, schema: Any, text: str, words: list[str], lang: str) -> str | None:
    """The query with its unknown words corrected, or None when every word is known."""
    fields = _fields(lang)
    corrected = text
    changed = False
    for word in dict.fromkeys(words):
        if not word.isalpha() or _known(reader, schema, word, fields, lang):
            continue
        better = suggest(reader, schema, word, lang)
        if better:
            corrected = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", better, corrected, count=1)
            changed = True
    return corrected if changed else None

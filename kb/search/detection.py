"""The language of a query without ``--lang``: the project's detector, and the game's words.

:func:`kb.langs.detect_language` weighs function words and accents, which a paragraph of a
ruling has plenty of and a query seldom does: "paso de limpieza" has only "de", which French
and Spanish share (French wins the tie), and "prisa" has none (English). A query's words are
mostly game terms, and the search languages know those: a word that a French or Spanish term
bridge reaches English from (other than the English word itself) counts for that language, and
a word that is one of the bridges' English terms counts for English ("no maximum hand size" is
English for "hand", not Spanish for "no").
"""

from __future__ import annotations

import re
from functools import cache

from kb.langs import LANGS, best_language, language_scores
from kb.search.lang import fold_word, search_language

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def detect_query_language(text: str) -> str:
    """The language a query is most likely written in (English when nothing tells)."""
    scores = language_scores(text)
    known = _english_words()
    for raw in _WORD.findall(text):
        word = fold_word(raw)
        if len(word) < 3:
            continue
        if word in known or word[:-1] in known or word[:-2] in known:  # "cards", "passes"
            scores["en"] += 1.0
        for code in LANGS:
            if code != "en":
                scores[code] += _bridged(code, word)
    return best_language(scores)


def _bridged(code: str, word: str) -> float:
    """How much a folded word says it is of a language: 1 when the language's bridge takes
    exactly that word to English, a half when only its stem ("pila" is Spanish for the stack;
    its stem is also French "pile"), 0 when the bridge does not or leads to the word itself."""
    language = search_language(code)
    if word in language.folded_stopwords:
        return 0.0
    terms = language.english_for(language.stem(word))
    if not terms or any(fold_word(term) == word for term in terms):
        return 0.0
    return 1.0 if word in _folded_keys(code) else 0.5


@cache
def _folded_keys(code: str) -> frozenset[str]:
    """The words of a language's hand-written bridge, folded."""
    return frozenset(fold_word(word) for word in search_language(code).to_english)


@cache
def _english_words() -> frozenset[str]:
    """Every word the French and Spanish bridges lead to, folded (not stemmed: stemming them
    all would cost a cold search some milliseconds; a plural's ending is tried off instead)."""
    words: set[str] = set()
    for code in LANGS:
        if code == "en":
            continue
        for terms in search_language(code).to_english.values():
            for term in terms:
                words.update(fold_word(w) for w in re.split(r"[\s-]+", term) if len(w) >= 3)
    return frozenset(words)

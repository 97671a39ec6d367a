"""Words as term matching sees them: tokens, inflection-free stems, phrases and their small words.

English keeps to inflections (``votes``/``voting``/``voted`` are one word, ``requirement`` and
``require`` are not); French and Spanish use the Snowball stemmers shipped with Whoosh, plus the
verb endings and stem changes they leave (``votent``, ``tienta``/``tentado``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from kb.langs import fold

from .thesaurus import CONJUNCTIONS, IRREGULAR, STOPWORDS

_TOKEN = re.compile(r"\{[^{}\s]{1,10}\}|[^\W\d_]+|[.,;:!?()\[\]—]")
_BREAKS = frozenset(".,;:!?()[]—")
_ROMAN = re.compile(r"^[IVX]+$")  # chapter numerals: "the chapter II ability"


@lru_cache(maxsize=1)
def _stemmers() -> dict[str, object]:
    from whoosh.lang import stemmer_for_language

    return {lang: stemmer_for_language(lang) for lang in ("en", "fr", "es")}


def _undouble(word: str) -> str:
    return word[:-1] if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "lsz" else word


def english_stem(word: str) -> str:
    """Strip English inflections only (``votes``/``voting``/``voted`` -> ``vot``).

    Derivations stay apart (``requirement`` is not ``require``, ``initiative`` not ``initial``),
    which a Porter stemmer would merge.
    """
    if len(word) > 4 and word.endswith(("ies", "ied")):
        word = word[:-3] + "y"
    elif word.endswith(("sses", "shes", "ches", "xes", "zes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    elif word.endswith("ing") and len(word) > 5:
        word = _undouble(word[:-3])
    elif word.endswith("ed") and len(word) > 4:
        word = _undouble(word[:-2])
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


@lru_cache(maxsize=65536)
def normalise(word: str, language: str) -> str:
    """A word as phrases compare it: lower case, inflection removed, accents folded."""
    if word.startswith("{"):
        return word.upper()
    lowered = word.casefold().replace("’", "'")
    lowered = IRREGULAR.get(language, {}).get(lowered, lowered)
    stemmer = _stemmers()[language] if language in ("fr", "es") else english_stem
    stem = stemmer(lowered)  # type: ignore[operator]
    folded = fold(stem)
    if language == "es":  # tienta / tentado: stem-changing verbs
        folded = folded.replace("ie", "e").replace("ue", "o")
    elif language == "fr":  # verb endings the stemmer keeps: votent, votons, votez
        for ending in ("aient", "ent", "ons", "ez"):
            if folded.endswith(ending) and len(folded) - len(ending) >= 3:
                folded = folded[: -len(ending)]
                break
    return folded


class Token(NamedTuple):
    """A word (or symbol) of a text with its offsets; ``brk`` marks sentence punctuation.

    A named tuple, not a dataclass: every ruling and card text is cut into tokens, and making a
    tuple costs a third of a frozen dataclass.
    """

    norm: str
    start: int
    end: int
    raw: str
    stop: bool
    brk: bool = False


_WORDS: dict[str, dict[str, tuple[str, bool, bool]]] = {}  # language -> raw -> norm, stop, brk
_WORDS_KEPT = 1 << 18  # words remembered per language before starting afresh


def _word(raw: str, language: str) -> tuple[str, bool, bool]:
    """What a token's raw text is: its normal form, a small word, a break (once per word)."""
    if raw in _BREAKS:
        return "", True, True
    lowered = raw.casefold()
    if lowered in CONJUNCTIONS.get(language, CONJUNCTIONS["en"]):
        return "", True, True
    stops = STOPWORDS.get(language, STOPWORDS["en"])
    stop = lowered in stops or (raw != "X" and bool(_ROMAN.match(raw)))
    return ("" if stop else normalise(raw, language)), stop, False


@lru_cache(maxsize=16384)
def tokenize(text: str, language: str) -> tuple[Token, ...]:
    """Split a text into words, symbols and breaks (punctuation between phrases)."""
    words = _WORDS.get(language)
    if words is None or len(words) > _WORDS_KEPT:
        words = _WORDS[language] = {}
    tokens = []
    for match in _TOKEN.finditer(text):
        raw = match.group()
        known = words.get(raw)
        if known is None:
            known = words[raw] = _word(raw, language)
        start, end = match.span()
        tokens.append(Token(known[0], start, end, raw, known[1], known[2]))
    return tuple(tokens)


def phrase_words(phrase: str, language: str) -> tuple[str, ...]:
    """The content words of a phrase, normalised (what a text must contain, in order)."""
    return tuple(t.norm for t in tokenize(phrase, language) if not t.stop)


def phrase_gaps(phrase: str, language: str) -> tuple[tuple[str, ...], ...]:
    """The small words before and between a phrase's content words (*The* Ring, End *the* Turn).

    The first item is what comes before the first content word; the others, the gaps.
    """
    gaps: list[tuple[str, ...]] = []
    current: list[str] = []
    for token in tokenize(phrase, language):
        if token.brk:
            continue
        if token.stop:
            current.append(token.raw.casefold())
            continue
        gaps.append(tuple(current))
        current = []
    return tuple(gaps)

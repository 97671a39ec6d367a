"""Words as term matching sees them: tokens, inflection-free stems, phrases and their small words.

English keeps to inflections (``votes``/``voting``/``voted`` are one word, ``requirement`` and
``require`` are not); French and Spanish use the Snowball stemmers shipped with Whoosh, plus the
verb endings and stem changes they leave (``votent``, ``tienta``/``tentado``).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import NamedTuple

from kb.langs import fold

from .thesaurus import CONJUNCTIONS, IRREGULAR, STOPWORDS

# "vs." is one word, its period no sentence break (808 "Team vs. Team Variant").
# A prefix that is no word of its own, joined by a hyphen, makes one word with what follows, as
# written without it: "multi-player game" is the glossary's "Multiplayer Game", "pre-combat" is
# "precombat", and "non-mana abilities" are no mana abilities.
_TOKEN = re.compile(
    r"\{[^{}\s]{1,10}\}|(?i:\bvs\.)"
    r"|(?i:\b(?:multi|non|pre|semi|anti|sub|inter|post|mis)-)?[^\W\d_]+|[.,;:!?()\[\]—]"
)
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


# language -> raw -> (norm, stop, brk, raw): what a word is, once per word (the raw text shared
# by every token of it).
_Known = tuple[str, bool, bool, str]
_WORDS: dict[str, dict[str, _Known]] = {}
_WORDS_KEPT = 1 << 18  # words remembered per language before starting afresh
_new = tuple.__new__  # a Token without the Python-level __new__ of a named tuple (same value)


def _word(raw: str, language: str) -> _Known:
    """What a token's raw text is: its normal form, a small word, a break (once per word)."""
    if raw in _BREAKS:
        return "", True, True, raw
    lowered = raw.casefold()
    if lowered in CONJUNCTIONS.get(language, CONJUNCTIONS["en"]):
        return "", True, True, raw
    stops = STOPWORDS.get(language, STOPWORDS["en"])
    stop = lowered in stops or (raw != "X" and bool(_ROMAN.match(raw)))
    word = raw[:-1] if raw[-1] == "." else raw.replace("-", "")  # "vs.", "multi-player"
    return ("" if stop else normalise(word, language)), stop, False, raw


# Per language, per text: its words as (what each word is, offsets), while words_kept() holds.
_kept: dict[str, dict[str, tuple[tuple[_Known, ...], array[int]]]] | None = None


@contextmanager
def words_kept() -> Iterator[None]:
    """Within it, each distinct text split into words is kept, compactly, and given back
    without splitting it again.

    The link walk matches a text again in every edition whose vocabulary changes a term the
    text holds: ~80k texts, matched ~230k times at the whole history, far more than the cache
    of :func:`tokenize` (the last 16,384 texts) holds, and splitting was half of each match.
    Kept as the words' shared descriptions and an array of offsets (~60 MB for every text at
    the whole history, against ~300 MB as tokens); making the tokens again from them costs
    about a third of splitting the text. The tokens are equal to a fresh split's.
    """
    global _kept
    outer = _kept
    if outer is None:
        _kept = {}
    try:
        yield
    finally:
        if outer is None:
            _kept = None


@lru_cache(maxsize=16384)
def tokenize(text: str, language: str) -> tuple[Token, ...]:
    """Split a text into words, symbols and breaks (punctuation between phrases)."""
    kept = _kept.setdefault(language, {}) if _kept is not None else None
    if kept is not None:
        found = kept.get(text)
        if found is not None:
            known, at = found
            return tuple(
                [
                    _new(Token, (k[0], at[2 * j], at[2 * j + 1], k[3], k[1], k[2]))
                    for j, k in enumerate(known)
                ]
            )
    words = _WORDS.get(language)
    if words is None or len(words) > _WORDS_KEPT:
        words = _WORDS[language] = {}
    tokens = []
    described = []
    offsets = array("i")
    for match in _TOKEN.finditer(text):
        raw = match.group()
        known = words.get(raw)
        if known is None:
            known = words[raw] = _word(raw, language)
        start, end = match.span()
        tokens.append(_new(Token, (known[0], start, end, known[3], known[1], known[2])))
        if kept is not None:
            described.append(known)
            offsets.extend((start, end))
    if kept is not None:
        kept[text] = (tuple(described), offsets)
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

"""Whoosh analyzers per language: tokenise, fold typography and accents, drop stop words, stem.

Folding comes before stemming on purpose: ``regle`` typed without its accent and ``règle`` in a
text must reach the same index term, and stemming an already-folded word guarantees that (the
Snowball stemmers give ``égalité`` and ``egalite`` different stems otherwise). The filters keep
only a language code in their state, so the schema Whoosh pickles into the index stays small and
reloads the language module on open.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from whoosh.analysis import Filter, RegexTokenizer, Token
from whoosh.fields import TEXT
from whoosh.formats import Positions

from kb.search.lang import SearchLanguage, fold_word, search_language

# A power/toughness modifier (+1/+1, -X/-X) is one token, as the query parser keeps it.
MODIFIER_PATTERN = r"[+-](?:\d+|[xX])/[+-](?:\d+|[xX])"
# A rule number (701.54a) is one token; words keep inner apostrophes (doesn't, l'original).
TOKEN_PATTERN = MODIFIER_PATTERN + r"(?!\w)|\d+(?:\.\d+[a-z]?)?|\w+(?:['’]\w+)*"


class NormalizeFilter(Filter):
    """Fold tokens (case, accents, curly apostrophes), cut French elisions, drop stop words."""

    is_morph = False

    def __init__(self, lang: str | None = None, stop: bool = True) -> None:
        self.lang = lang
        self.stop = stop
        self._setup()

    def _setup(self) -> None:
        language = search_language(self.lang) if self.lang else None
        self._elisions = language.elisions if language else frozenset()
        self._english = bool(language and language.code == "en")
        self._stops = language.folded_stopwords if (language and self.stop) else frozenset()
        self._kept = language.kept_stopwords if (language and self.stop) else {}
        # Paraphrases start with a stop word: only a text whose stop words are dropped has them.
        self._paraphrases = language.folded_paraphrases if (language and self.stop) else {}
        self._paraphrase_starts = frozenset(words[0] for words in self._paraphrases)
        self._cache: dict[str, str] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"lang": self.lang, "stop": self.stop}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.lang = state.get("lang")
        self.stop = state.get("stop", True)
        self._setup()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, NormalizeFilter)
            and other.lang == self.lang
            and other.stop == self.stop
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.lang, self.stop))

    def span_cache(self, stemmer: StemmingFilter | None) -> dict[str, tuple[str, int, int]]:
        """Raw word -> (index term, or "" for a stop word; characters cut at start and end)."""
        key = stemmer.lang if stemmer is not None else ""
        caches: dict[str, dict[str, tuple[str, int, int]]] = self.__dict__.setdefault(
            "_span_caches", {}
        )
        return caches.setdefault(key, {})

    def query_cache(self, stemmer: StemmingFilter | None) -> dict[str, tuple[str, ...]]:
        """Query word -> its index terms (kept out of pickles, as the other caches)."""
        key = stemmer.lang if stemmer is not None else ""
        caches: dict[str, dict[str, tuple[str, ...]]] = self.__dict__.setdefault(
            "_query_caches", {}
        )
        return caches.setdefault(key, {})

    def is_stop(self, word: str, raw: str) -> bool:
        """Whether a folded word is a stop word dropped, ``raw`` the token it was folded from:
        one of the language's ``accented_words`` ("dé") is not, though its folded word is."""
        if word not in self._stops:
            return False
        kept = self._kept.get(word)
        return kept is None or unicodedata.normalize("NFC", raw.casefold()) not in kept

    def normalize(self, text: str) -> tuple[str, int, int]:
        """A token's folded word, and how many characters were cut at its start and end.

        An elided French article (``l'``, ``qu'``) is cut from the start; an English possessive
        (``god's``) from the end, so highlighting still marks the right characters.
        """
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        word, lead, trail = fold_word(text), 0, 0
        if "'" in word:
            head, _, tail = word.partition("'")
            if head in self._elisions and tail:
                word, lead = tail, len(head) + 1
            elif self._english and word.endswith("'s"):
                word, trail = word[:-2], 2
        result = (word, lead, trail)
        if len(self._cache) < 100_000:
            self._cache[text] = result
        return result

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        paraphrases = self._paraphrases
        pos: int | None = None
        previous = ""  # the word before, when it was a stop word (a paraphrase's first word)
        pending: tuple[str, str, Token] | None = None  # a paraphrase's first two words
        for t in tokens:
            raw = t.text
            word, lead, trail = self.normalize(raw)
            if pending is not None:
                said = paraphrases.get((pending[0], pending[1], word))
                if said is not None:
                    pending[2].text = said
                    yield pending[2]
                pending = None
            if (lead or trail) and t.chars:
                t.startchar += lead
                t.endchar -= trail
            t.text = word
            stop = self.is_stop(word, raw)
            if word and not stop:
                if t.positions:
                    pos = t.pos if pos is None else pos + 1
                    t.pos = pos
                t.stopped = False
                if paraphrases and previous in self._paraphrase_starts and t.mode == "index":
                    pending = (previous, word, t.copy())  # before the next filters change it
                yield t
            elif not t.removestops:
                t.stopped = True
                yield t
            previous = word if stop else ""


class StemmingFilter(Filter):
    """Stem folded tokens with the language's Snowball stemmer (cached: the vocabulary is small)."""

    is_morph = True

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._setup()

    def _setup(self) -> None:
        self._language: SearchLanguage = search_language(self.lang)
        self._cache: dict[str, str] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"lang": self.lang}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.lang = state["lang"]
        self._setup()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StemmingFilter) and other.lang == self.lang

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.lang))

    def stem(self, word: str) -> str:
        """The stem of one folded word (cached)."""
        stemmed = self._cache.get(word)
        if stemmed is None:
            stemmed = self._language.stem(word)
            if len(self._cache) < 100_000:
                self._cache[word] = stemmed
        return stemmed

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        cache = self._cache
        stem = self._language.stem
        for t in tokens:
            if not t.stopped:
                text = t.text
                stemmed = cache.get(text)
                if stemmed is None:
                    stemmed = stem(text)
                    if len(cache) < 100_000:
                        cache[text] = stemmed
                t.text = stemmed
            yield t


def text_analyzer(lang: str) -> Any:
    """The analyzer of a language's text fields: fold, stop words, stem."""
    return (
        RegexTokenizer(expression=TOKEN_PATTERN)
        | NormalizeFilter(lang)
        | StemmingFilter(search_language(lang).code)
    )


def name_analyzer() -> Any:
    """The analyzer of card names: fold only (a name is searched as written, in any language)."""
    return RegexTokenizer(expression=TOKEN_PATTERN) | NormalizeFilter(None, stop=False)


_TOKENS = re.compile(TOKEN_PATTERN)


def term_spans(analyzer: Any, text: str, *, paraphrases: bool = True) -> list[tuple[int, int, str]]:
    """``(start, end, index term)`` of each token the analyzer keeps, for highlighting.

    The same result as running the analyzer with ``chars=True`` (and ``mode="index"``; with
    ``paraphrases=False``, ``mode="query"``), without Whoosh's token objects: a result's
    snippet is analysed on every search, so this path is kept short (a cache per filter maps
    each raw word to its term).
    """
    items = getattr(analyzer, "items", ())
    if len(items) < 2 or not isinstance(items[1], NormalizeFilter):
        return [
            (t.startchar, t.endchar, t.text)
            for t in analyzer(text, chars=True, mode="index", removestops=False)
            if not t.stopped
        ]
    normalize: NormalizeFilter = items[1]
    stemmer = items[2] if len(items) > 2 and isinstance(items[2], StemmingFilter) else None
    cache = normalize.span_cache(stemmer)
    said = normalize._paraphrases if paraphrases else {}
    spans = []
    stopped = ""  # the raw word before, when it was a stop word (a paraphrase's first word)
    pending: tuple[str, str, int, int] | None = None  # a paraphrase's first two words, the span
    for match in _TOKENS.finditer(text):
        raw = match.group()
        if pending is not None:
            extra = paraphrased(normalize, stemmer, (*pending[:2], raw))
            if extra is not None:
                spans.append((pending[2], pending[3], extra))
            pending = None
        entry = cache.get(raw)
        if entry is None:
            entry = word_entry(normalize, stemmer, cache, raw)
        term, lead, trail = entry
        if term:
            spans.append((match.start() + lead, match.end() - trail, term))
            if stopped and said and normalize.normalize(stopped)[0] in normalize._paraphrase_starts:
                pending = (stopped, raw, match.start() + lead, match.end() - trail)
            stopped = ""
        else:
            stopped = raw
    return spans


def word_entry(
    normalize: NormalizeFilter,
    stemmer: StemmingFilter | None,
    cache: dict[str, tuple[str, int, int]],
    raw: str,
) -> tuple[str, int, int]:
    """A raw word's entry in a :meth:`NormalizeFilter.span_cache` (made and kept): its index
    term ("" for a stop word) and the characters cut at its start and end."""
    word, lead, trail = normalize.normalize(raw)
    term = ""
    if word and not normalize.is_stop(word, raw):
        term = stemmer.stem(word) if stemmer is not None else word
    entry = cache[raw] = (term, lead, trail)
    return entry


def paraphrased(
    normalize: NormalizeFilter, stemmer: StemmingFilter | None, raws: tuple[str, str, str]
) -> str | None:
    """The index term a paraphrase adds for three raw words (a stop word, a kept word and the
    word after), or None: see :attr:`kb.search.lang.SearchLanguage.paraphrases`."""
    word = normalize._paraphrases.get(tuple(normalize.normalize(raw)[0] for raw in raws))
    if word is None or stemmer is None:
        return word
    return stemmer.stem(word)


class PositionalText(TEXT):  # type: ignore[misc]
    """A phrase-searchable text field that indexes a text without Whoosh's token objects.

    Whoosh indexes a text by running its analyzer's chain of generators over one token object
    per word, then counting positions; for the whole history's items that was most of an index
    build. For kb's own analyzers (:func:`text_analyzer`, :func:`name_analyzer`) this makes the
    same postings from the per-word cache of :func:`term_spans`: each kept word's term, at the
    position the chain gives it (the first kept word keeps its place among all the words, each
    next kept word the next place), with a weight of one per occurrence. Any other analyzer,
    format or option takes Whoosh's own path.
    """

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        chain = own_chain(self.analyzer)
        if (
            chain is None
            or not isinstance(value, str)
            or set(kwargs) - {"mode"}
            or kwargs.get("mode", "index") != "index"
            or type(self.format) is not Positions
        ):
            yield from super().index(value, **kwargs)
            return
        normalize, stemmer = chain
        cache = normalize.span_cache(stemmer)
        said = normalize._paraphrases
        starts = normalize._paraphrase_starts
        poses: dict[str, list[int]] = {}
        pos: int | None = None
        stopped = ""  # the raw word before, when it was a stop word (a paraphrase's first word)
        pending: tuple[str, str, int] | None = None  # a paraphrase's first two words, position
        for place, raw in enumerate(_TOKENS.findall(value)):  # the pattern has no group
            if pending is not None:
                extra = paraphrased(normalize, stemmer, (*pending[:2], raw))
                if extra is not None:
                    poses.setdefault(extra, []).append(pending[2])
                pending = None
            entry = cache.get(raw)
            if entry is None:
                entry = word_entry(normalize, stemmer, cache, raw)
            term = entry[0]
            if not term:
                stopped = raw
                continue
            pos = place if pos is None else pos + 1
            found = poses.get(term)
            if found is None:
                poses[term] = [pos]
            else:
                found.append(pos)
            if stopped and said and normalize.normalize(stopped)[0] in starts:
                pending = (stopped, raw, pos)
            stopped = ""
        boost = self.format.field_boost
        encode = _encoded_positions
        for term, positions in poses.items():
            yield (
                term.encode("utf-8"),
                len(positions),
                float(len(positions)) * boost,
                encode(positions),
            )


_ENCODED: dict[tuple[int, ...], bytes] = {}
_POSITIONS = Positions()


def _encoded_positions(positions: list[int]) -> bytes:
    """:meth:`whoosh.formats.Positions.encode` (a pure function of the positions), cached for
    the short lists most terms have: a word once or twice in an item, at a small position."""
    if len(positions) > 3:
        return bytes(_POSITIONS.encode(positions))
    key = tuple(positions)
    encoded = _ENCODED.get(key)
    if encoded is None:
        encoded = bytes(_POSITIONS.encode(positions))
        if len(_ENCODED) < 200_000:
            _ENCODED[key] = encoded
    return encoded


def own_chain(analyzer: Any) -> tuple[NormalizeFilter, StemmingFilter | None] | None:
    """(normalize, stemmer) of an analyzer made by :func:`text_analyzer` or
    :func:`name_analyzer`, None for any other."""
    items = getattr(analyzer, "items", ())
    if not 2 <= len(items) <= 3:
        return None
    tokenizer, normalize = items[0], items[1]
    if (
        type(tokenizer) is not RegexTokenizer
        or tokenizer.gaps
        or tokenizer.expression.pattern != TOKEN_PATTERN
        or type(normalize) is not NormalizeFilter
    ):
        return None
    if len(items) == 3:
        return (normalize, items[2]) if type(items[2]) is StemmingFilter else None
    return normalize, None


def query_terms(analyzer: Any, text: str) -> tuple[str, ...]:
    """The index terms of a query word, as :func:`analyze` gives them (cached per word)."""
    items = getattr(analyzer, "items", ())
    if len(items) < 2 or not isinstance(items[1], NormalizeFilter):
        return tuple(analyze(analyzer, text))
    stemmer = items[2] if len(items) > 2 and isinstance(items[2], StemmingFilter) else None
    cache = items[1].query_cache(stemmer)
    terms = cache.get(text)
    if terms is None:
        terms = tuple(term for _, _, term in term_spans(analyzer, text, paraphrases=False))
        if len(cache) < 100_000:
            cache[text] = terms
    return terms


def analyze(analyzer: Any, text: str) -> list[str]:
    """The index terms an analyzer makes of a text (for tests, highlighting and the bridge).

    For kb's own analyzers, :func:`term_spans`' per-word path (the same terms, tested): a search
    analyses its words and the titles of its hits, and Whoosh's chain of token objects cost
    several times more.
    """
    if own_chain(analyzer) is not None:
        return [term for _, _, term in term_spans(analyzer, text, paraphrases=False)]
    return [t.text for t in analyzer(text)]


# Where a rule's sentences end: a full stop, question or exclamation mark (and a closing
# parenthesis or quotation mark) before a capital, a quotation mark or a parenthesis ("…are not
# copied. (See rule 706.) A copy…").
SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][)\u201d\"]))\s+(?=[A-Z\u201c\"(])")


def sentence_masks(analyzer: Any, text: str) -> dict[str, int]:
    """Each index term of a text -> the sentences holding it, as a bit mask (bit ``i``: the
    ``i``-th sentence, split at SENTENCE_END). Kept with each rule at index time: a question's
    ranking weighs the sentences of the twenty or so rules it looks at (see
    :data:`kb.search.questions.NEAR`), and analysing them for each question cost more than the
    rest of its ranking."""
    masks: dict[str, int] = {}
    for i, sentence in enumerate(SENTENCE_END.split(text)):
        bit = 1 << i
        for term in term_set(analyzer, sentence):
            masks[term] = masks.get(term, 0) | bit
    return masks


def term_set(analyzer: Any, text: str) -> set[str]:
    """The distinct index terms :func:`analyze` makes of a text, on a shorter path for kb's own
    analyzers (no spans, no list): each sentence of every rule is analysed so at index time
    (:func:`sentence_masks`)."""
    chain = own_chain(analyzer)
    if chain is None:
        return set(analyze(analyzer, text))
    normalize, stemmer = chain
    cache = normalize.span_cache(stemmer)
    terms = {
        (cache.get(raw) or word_entry(normalize, stemmer, cache, raw))[0]
        for raw in _TOKENS.findall(text)
    }
    terms.discard("")
    return terms

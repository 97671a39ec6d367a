"""Search languages: one small module per language (stop words, stemmer, elisions, term bridge).

Like Sphinx's search languages, a module is looked up by code with a fallback from the most
specific to the most general (``pt_BR`` -> ``pt`` -> English), so a site or query language without
a module of its own still gets a working analyzer instead of an error.
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from kb.langs import fold_word

FALLBACK = "en"
STEMS_KEPT = 50_000  # stems kept per language (SearchLanguage.stem)


@dataclass(frozen=True, eq=False)
class SearchLanguage:
    """What the analyzer needs to know of one language.

    ``stopwords`` and the keys of ``to_english`` are written naturally (with accents); they are
    folded here, because the analyzer folds before it stems: that way ``regle`` typed without
    its accent and ``règle`` in a text always reach the same index term.
    ``to_english`` maps a word of the language to English game terms: a query in French or
    Spanish also searches the English originals for them (most rules exist only in English).
    """

    code: str
    name: str
    stopwords: frozenset[str]
    stemmer: Callable[[str], str] | None
    elisions: frozenset[str] = frozenset()
    to_english: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Words that frame a question ("what happens if", "que se passe-t-il si"): left out of a
    # query that has other words, kept in the texts (they are ordinary words there).
    question_words: frozenset[str] = frozenset()
    # Inflected forms a suffix stemmer cannot reduce ("left", "dealt", "drawn"), folded, mapped
    # to the word whose stem they must share ("leave", "deal", "draw").
    irregular: Mapping[str, str] = field(default_factory=dict)
    # Folded endings the stemmer only knows with their accent (French "-ée(s)": "bloquées" must
    # stem as "bloquer" does, not to "bloque"): put back before stemming, the stem folded again.
    accented_endings: tuple[tuple[str, str], ...] = ()
    # Folded endings of the language and the English endings of the same words (Spanish
    # "-ción" is "-tion"): a word the bridge has no entry for is also searched as that English
    # word, so the many cognates of the rules' vocabulary need no entry each.
    cognates: tuple[tuple[str, str], ...] = ()
    # Official keyword names of the language -> the English keyword, merged into the learned
    # terms when an index is built (``kb.search.learned``).
    keywords: Mapping[str, str] = field(default_factory=dict)
    # Game terms of several words -> their English terms: a query holding the phrase searches
    # it as one term, and its words are not crossed one by one ("champ de bataille" is the
    # battlefield, not also a battle: at the whole history, thousands of cards are battles).
    phrases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The texts' wording of a state (three words: a stop word, a word, the word after) -> the
    # word a reader asks with, indexed beside the middle word: the rules say "a library with no
    # cards in it" where a judge hears "an empty library", and the stop word "no" is not
    # indexed, so no query word could reach that wording otherwise.
    paraphrases: Mapping[str, str] = field(default_factory=dict)
    # Stop words that are also the numeral one (French "un", "une"; Spanish "un", "una", "uno")
    # and the numerals from two on: "une créature peut-elle bloquer deux créatures" counts
    # creatures, and its "une" is searched as English "one" (see LanguagePlugin.mark_phrases).
    one: frozenset[str] = frozenset()
    numerals: frozenset[str] = frozenset()
    # Words whose accent is all that keeps them apart from a stop word (French "dé", "dés": a
    # die, dice; folded they are the stop words "de", "des"), written with it: the analyzer
    # folds before it tests stop words, so they were dropped with "de". Typed so, they are kept
    # (as the folded word, which no stop word then adds to the index); typed without the
    # accent, they stay the stop word.
    accented_words: frozenset[str] = frozenset()

    @property
    def folded_question_words(self) -> frozenset[str]:
        """The question words, folded as the analyzer folds (folded once: every question asks
        for them)."""
        return _folded_question_words(self)

    @property
    def folded_paraphrases(self) -> dict[tuple[str, ...], str]:
        """The paraphrases keyed by their words, folded (the word they add, folded too)."""
        return _folded_paraphrases(self)

    @property
    def kept_stopwords(self) -> dict[str, frozenset[str]]:
        """The folded stop words that ``accented_words`` fold to -> those words, lower-cased
        (composed, as :meth:`NormalizeFilter.is_stop` compares them)."""
        return _kept_stopwords(self)

    @property
    def folded_stopwords(self) -> frozenset[str]:
        """The stop words as the analyzer sees them (folded)."""
        return _folded_stopwords(self)

    def stem(self, word: str) -> str:
        """Stem a folded word (numbers and very short words are left alone).

        Kept per word (a pure function of it, bounded): detecting a query's language stems each
        of its words in every language, on every search.
        """
        stems: dict[str, str] = self.__dict__.setdefault("_stems", {})
        stemmed = stems.get(word)
        if stemmed is None:
            stemmed = self._stem(word)
            if len(stems) < STEMS_KEPT:
                stems[word] = stemmed
        return stemmed

    def _stem(self, word: str) -> str:
        if self.stemmer is None or len(word) < 3 or not word.isalpha():
            return word
        word = self.irregular.get(word, word)
        for folded, accented in self.accented_endings:
            if word.endswith(folded) and len(word) > len(folded) + 2:
                return fold_word(self.stemmer(word[: -len(folded)] + accented))
        return self.stemmer(word)

    def english_for(self, stem: str) -> tuple[str, ...]:
        """English terms for a stemmed word of this language (empty if the bridge has none)."""
        return _bridge(self, stem[:1]).get(stem, ())

    def cognate(self, word: str) -> str | None:
        """The English word a word of this language is by its ending ("protección" ->
        "protection"), or None: the word folded, its ending swapped by ``cognates``."""
        folded = fold_word(word)
        for ending, english in self.cognates:
            if folded.endswith(ending) and len(folded) > len(ending) + 1:
                return folded[: -len(ending)] + english
        return None


@cache
def _folded_question_words(language: SearchLanguage) -> frozenset[str]:
    return frozenset(fold_word(w) for w in language.question_words)


@cache
def _folded_stopwords(language: SearchLanguage) -> frozenset[str]:
    return frozenset(fold_word(w) for w in language.stopwords)


@cache
def _kept_stopwords(language: SearchLanguage) -> dict[str, frozenset[str]]:
    kept: dict[str, set[str]] = {}
    for word in language.accented_words:
        folded = fold_word(word)
        if folded not in _folded_stopwords(language) or folded == word.lower():
            raise ValueError(f"{word!r}: an accented word is one that folds to a stop word")
        kept.setdefault(folded, set()).add(unicodedata.normalize("NFC", word.casefold()))
    return {folded: frozenset(words) for folded, words in kept.items()}


@cache
def _folded_paraphrases(language: SearchLanguage) -> dict[tuple[str, ...], str]:
    found = {}
    for wording, word in language.paraphrases.items():
        words = tuple(fold_word(w) for w in wording.split())
        if len(words) != 3 or words[0] not in _folded_stopwords(language):
            raise ValueError(f"{wording!r}: a paraphrase is a stop word and two words")
        found[words] = fold_word(word)
    return found


# Keyword terms learned from Wizards' card translations (kb.terminology), per language code:
# {folded term: English keyword}, and the keyword's rule. The index stores them; an opened
# index registers them here.
_LEARNED: dict[str, dict[str, str]] = {}
_LEARNED_RULES: dict[str, dict[str, str]] = {}


def add_printed_names(
    to_english: dict[str, tuple[str, ...]],
    tables: Iterable[Mapping[str, str]],
    phrased: frozenset[str] = frozenset(),
) -> None:
    """Let each name the cards print (``tables``: word -> its English name: counters, tokens,
    dice, types) lead to its English, lower-cased, in the bridge ``to_english``. A word the bridge
    has already keeps its entry (hand-written words win), and one of ``phrased`` gets none: an
    everyday word on its own ("dado", given; "porte", carries), it is the name only in the
    language's PHRASES."""
    for table in tables:
        for word, english in table.items():
            if word not in phrased:
                to_english.setdefault(word, (english.casefold(),))


def verb_forms(
    to_english: Mapping[str, tuple[str, ...]],
    infinitive: str,
    endings: Iterable[str],
    listed: Mapping[str, str],
) -> dict[str, str]:
    """A language's ``irregular`` table: each form folded -> its infinitive folded.

    The regular forms the Snowball stemmer keeps apart from their infinitive are made from the
    bridge's own verbs (the single words of ``to_english`` ending in ``infinitive`` whose root
    has three letters or more: "dar" would make "da" and "de"), each root with each of
    ``endings``; then the forms ``listed`` by hand ({infinitive: "form form …"}: stem-changing
    and irregular verbs), which win.
    """
    endings = tuple(endings)
    forms = {
        fold_word(verb[: -len(infinitive)] + ending): fold_word(verb)
        for verb in to_english
        if verb.endswith(infinitive) and " " not in verb and len(verb) >= len(infinitive) + 3
        for ending in endings
    }
    forms.update(
        (fold_word(form), fold_word(verb))
        for verb, written in listed.items()
        for form in written.split()
    )
    return forms


def fold_phrase(text: str) -> str:
    """A phrase folded word by word, as learned terms are looked up."""
    return " ".join(fold_word(w) for w in text.split())


def register_learned_terms(code: str, terms: Iterable[tuple[str, ...]]) -> None:
    """Add (term, English keyword[, rule]) learned from card translations to a language."""
    rows = [tuple(row) for row in terms]
    _LEARNED[code] = {fold_phrase(row[0]): row[1].casefold() for row in rows}
    _LEARNED_RULES[code] = {fold_phrase(row[0]): row[2] for row in rows if len(row) > 2 and row[2]}
    _bridge.cache_clear()
    _phrase_table.cache_clear()


def learned_rule(text: str, code: str) -> str | None:
    """The keyword rule a query names by its official term in a language ("toque mortal")."""
    return _LEARNED_RULES.get(code, {}).get(fold_phrase(text))


PHRASE_WORDS = 4  # the longest phrase looked for inside a query, in words


def phrase_spans(code: str, words: list[str]) -> list[tuple[int, int, tuple[str, ...]]]:
    """(first word, number of words, English terms) of each phrase of a language inside a
    query's words: a hand-written phrase of the bridge (``phrases``) or a learned keyword term
    of several words; the longest phrase at each word wins, a hand-written one over a learned
    one of the same words.

    A phrase is searched as one term, not word by word: its words are not its meaning
    ("bataille" is a battle, but "champ de bataille" is the battlefield; "dos" is two, but
    "dañar dos veces" is double strike).
    """
    table = _phrase_table(code)
    if not table:
        return []
    folded = [fold_word(w) for w in words]
    found = []
    start = 0
    while start < len(folded):
        for size in range(min(PHRASE_WORDS, len(folded) - start), 1, -1):
            terms = table.get(" ".join(folded[start : start + size]))
            if terms is not None:
                found.append((start, size, terms))
                start += size
                break
        else:
            start += 1
    return found


@cache
def _phrase_table(code: str) -> dict[str, tuple[str, ...]]:
    """The phrases of a language code, folded: its learned keyword terms, then its hand-written
    phrases (made once per registration of learned terms, not per query)."""
    table = {term: (keyword,) for term, keyword in _LEARNED.get(code, {}).items()}
    phrases = search_language(code).phrases
    table.update({fold_phrase(phrase): english for phrase, english in phrases.items()})
    return table


def learned_language(text: str) -> str | None:
    """The language whose learned keyword term the whole query is ("toque mortal" -> es).

    None when the query is also an English keyword ("vigilance", "flash") or no term.
    """
    folded = fold_phrase(text)
    for code in sorted(_LEARNED):
        keyword = _LEARNED[code].get(folded)
        if keyword is not None and fold_word(keyword) != folded:
            return code
    return None


@cache
def _bridge(language: SearchLanguage, letter: str) -> dict[str, tuple[str, ...]]:
    """The term bridge keyed by stem, so that any inflection of a key finds its English terms:
    the part of it whose words begin with ``letter`` (folded).

    The hand-written ``to_english`` comes first; learned keyword terms add the words it lacks
    (every content word of "contact mortel" leads to "deathtouch"). A stem begins with its
    word's letter (the stemmers cut endings; the irregular forms map to a verb of the same
    letter: a test checks every key), so a search stems only the keys of its words' letters,
    not the whole bridge at every start.
    """
    bridge: dict[str, list[str]] = {}
    for word, english in sorted(language.to_english.items()):
        folded = fold_word(word)
        if folded[:1] != letter:
            continue
        terms = bridge.setdefault(language.stem(folded), [])
        terms.extend(t for t in english if t not in terms)
    hand = set(bridge)
    stop = _folded_stopwords(language)
    for term, keyword in sorted(_LEARNED.get(language.code, {}).items()):
        for word in term.replace("'", " ").split():
            if word[:1] != letter or word in stop or len(word) < 2:
                continue
            stem = language.stem(word)
            if stem not in hand:
                terms = bridge.setdefault(stem, [])
                if keyword not in terms:
                    terms.append(keyword)
    return {stem: tuple(terms) for stem, terms in bridge.items()}


def candidates(code: str) -> list[str]:
    """Module names to try for a language code, most specific first, English last."""
    code = code.strip().lower().replace("-", "_")
    names = [code] if code else []
    if "_" in code:
        names.append(code.split("_")[0])
    if FALLBACK not in names:
        names.append(FALLBACK)
    return names


@cache
def search_language(code: str) -> SearchLanguage:
    """The search language for a code, falling back ``pt_BR`` -> ``pt`` -> English."""
    for name in candidates(code):
        if not name.replace("_", "").isalpha():
            continue
        module_name = f"{__name__}.{name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        return module.LANGUAGE  # type: ignore[no-any-return]
    raise LookupError(f"no search language module for {code!r}")  # pragma: no cover

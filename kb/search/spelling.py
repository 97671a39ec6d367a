"""Did-you-mean: replace the query words the index does not know by the nearest words it does.

The index keeps, beside the Whoosh index, the folded and unstemmed words of each language with
how many items hold them (``kb-words.json``, written with the index). Whoosh's spelling
correction proposes the words within one, then two edits (the first letter kept, as Whoosh's
``ListCorrector`` with a one-letter prefix would: found through a deletion index, not by walking
a Levenshtein automaton over the whole list); the most frequent wins.
Keeping the words in a list rather than in Whoosh spelling fields makes the index build a third
faster, and the list is only read when a query holds an unknown word.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import Any

from kb.langs import LANGS
from kb.search.analysis import query_terms
from kb.search.lang import fold_word, search_language
from kb.search.schema import text_field

WORDS_FILE = "kb-words.json"
MAX_DISTANCE = 2
_WORD = re.compile(r"[^\W\d_]+")


def vocabulary(items: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per language, each folded word of the items' texts and the number of items holding it."""
    counts: dict[str, Counter[str]] = {lang: Counter() for lang in LANGS}
    folded: dict[str, str] = {}
    for item in items:
        for lang in LANGS:
            counts[lang].update(text_words(item.get(text_field(lang)), folded))
    return {lang: dict(sorted(counts[lang].items())) for lang in LANGS}


def text_words(text: str | None, folded: dict[str, str] | None = None) -> set[str]:
    """The folded words (three letters or more) of a text, each once: what an item counts for.

    ``folded``: the raw words seen so far, each folded ("" for one shorter than three letters;
    a cache shared across the texts of a build, whose words are looked up in C: a build counts
    every word of every text of the whole history, most of them seen already).
    """
    if not text:
        return set()
    known = {} if folded is None else folded
    raws = set(_WORD.findall(text))
    for raw in raws.difference(known):
        word = fold_word(raw)
        known[raw] = word if len(word) >= 3 else ""
    words = set(map(known.__getitem__, raws))
    words.discard("")
    return words


def adjust_vocabulary(
    words: dict[str, dict[str, int]],
    removed: Iterable[dict[str, set[str]]],
    added: Iterable[dict[str, set[str]]],
) -> dict[str, dict[str, int]]:
    """The word counts after some items left the index and others came in (each item given as
    its words per language): what :func:`vocabulary` of the new items would count."""
    counts = {lang: Counter(words.get(lang, {})) for lang in LANGS}
    for item in removed:
        for lang, found in item.items():
            counts[lang].subtract(found)
    for item in added:
        for lang, found in item.items():
            counts[lang].update(found)
    return {lang: {word: n for word, n in sorted(counts[lang].items()) if n > 0} for lang in LANGS}


def write_vocabulary(index_dir: Path, words: dict[str, dict[str, int]]) -> None:
    """Write the word list beside the index (atomically: a reader never sees half of it)."""
    tmp = Path(index_dir) / (WORDS_FILE + ".tmp")
    tmp.write_text(json.dumps(words, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    tmp.replace(Path(index_dir) / WORDS_FILE)


class Vocabulary:
    """The word lists of an index, read on first use."""

    def __init__(self, index_dir: Path) -> None:
        self.path = Path(index_dir) / WORDS_FILE
        self._buckets: dict[tuple[str, str], _DeletionIndex] = {}

    @cached_property
    def words(self) -> dict[str, dict[str, int]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _candidates(self, lang: str, folded: str, distance: int) -> set[str]:
        """The known words of a language within ``distance`` edits of ``folded``, its first
        letter kept (what Whoosh's Levenshtein automaton with a one-letter prefix accepts)."""
        key = (lang, folded[0])
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _DeletionIndex(
                word for word in self.words.get(lang, {}) if word[:1] == folded[0]
            )
        return bucket.within(folded, distance)

    def suggest(self, word: str, langs: list[str]) -> str | None:
        """The most frequent known word closest to ``word`` in these languages, or None."""
        folded = fold_word(word)
        if len(folded) < 3 or not folded.isalpha():
            return None
        for distance in range(1, MAX_DISTANCE + 1):
            if distance > 1 and len(folded) < 4:
                break  # two edits on a three-letter word make another word
            found: Counter[str] = Counter()
            for lang in langs:
                if lang not in self.words:
                    continue
                frequencies = self.words[lang]
                for candidate in self._candidates(lang, folded, distance):
                    if candidate != folded:
                        found[candidate] += frequencies.get(candidate, 0)
            if found:
                return sorted(found.items(), key=lambda wf: (-wf[1], wf[0]))[0][0]
        return None


class _DeletionIndex:
    """Words of one first letter, found by the strings left when letters are deleted.

    Two words within ``k`` edits (insertions, deletions, substitutions) become the same string
    once at most ``k`` letters are deleted from each, so a word's near words are among those
    sharing one of its deletion strings; each is then checked by its true edit distance. The
    same words as a Levenshtein automaton walked over the whole list, without walking it.
    Built for a letter when a word of it is first corrected.
    """

    def __init__(self, words: Iterable[str]) -> None:
        self.by_deletion: dict[str, list[str]] = {}
        for word in words:
            for variant in _deletions(word[1:], MAX_DISTANCE):
                self.by_deletion.setdefault(variant, []).append(word)

    def within(self, folded: str, distance: int) -> set[str]:
        rest = folded[1:]
        found: set[str] = set()
        seen: set[str] = set()
        for variant in _deletions(rest, distance):
            for word in self.by_deletion.get(variant, ()):
                if word not in seen:
                    seen.add(word)
                    if abs(len(word) - len(folded)) <= distance and (
                        _edit_distance(word[1:], rest, distance) <= distance
                    ):
                        found.add(word)
        return found


def _deletions(word: str, most: int) -> set[str]:
    """The word and every string left by deleting at most ``most`` of its letters."""
    found = {word}
    layer = {word}
    for _ in range(most):
        layer = {w[:i] + w[i + 1 :] for w in layer for i in range(len(w))}
        found |= layer
    return found


def _edit_distance(a: str, b: str, bound: int) -> int:
    """Levenshtein distance of two strings (any value above ``bound`` once it is exceeded)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > bound:
            return bound + 1
        previous = current
    return previous[-1]


def _known(reader: Any, schema: Any, word: str, lang: str) -> bool:
    """Whether a searched field holds the word, or the language's bridge knows it."""
    fields = [text_field(lang)] + ([text_field("en")] if lang != "en" else [])
    stems = query_terms(schema[text_field(lang)].analyzer, word)
    if len(stems) == 1 and search_language(lang).english_for(stems[0]):
        return True
    for fieldname in fields:
        terms = query_terms(schema[fieldname].analyzer, word)
        if terms and all(reader.doc_frequency(fieldname, t) for t in terms):
            return True
    return False


def did_you_mean(
    reader: Any, schema: Any, vocabulary: Vocabulary, text: str, words: list[str], lang: str
) -> str | None:
    """The query with its unknown words corrected, or None when every word is known."""
    langs = [lang] + (["en"] if lang != "en" else [])
    corrected = text
    changed = False
    for word in dict.fromkeys(words):
        if not word.isalpha() or _known(reader, schema, word, lang):
            continue
        better = vocabulary.suggest(word, langs)
        if better:
            corrected = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", better, corrected, count=1)
            changed = True
    return corrected if changed else None

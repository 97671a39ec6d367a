"""Did-you-mean: replace the query words the index does not know by the nearest words it does.

The index keeps, beside the Whoosh index, the folded and unstemmed words of each language with
how many items hold them (``kb-words.json``, written with the index). Whoosh's spelling
correction (:class:`whoosh.spelling.ListCorrector`, a Levenshtein automaton walked over that
sorted word list) proposes the words within one, then two edits; the most frequent wins.
Keeping the words in a list rather than in Whoosh spelling fields makes the index build a third
faster, and the list is only read when a query holds an unknown word.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import Any

from kb.langs import LANGS
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
            text = item.get(text_field(lang))
            if not text:
                continue
            words = set()
            for raw in _WORD.findall(text):
                word = folded.get(raw)
                if word is None:
                    word = folded[raw] = fold_word(raw)
                if len(word) >= 3:
                    words.add(word)
            counts[lang].update(words)
    return {lang: dict(sorted(counts[lang].items())) for lang in LANGS}


def write_vocabulary(index_dir: Path, words: dict[str, dict[str, int]]) -> None:
    """Write the word list beside the index (atomically: a reader never sees half of it)."""
    tmp = Path(index_dir) / (WORDS_FILE + ".tmp")
    tmp.write_text(json.dumps(words, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    tmp.replace(Path(index_dir) / WORDS_FILE)


class Vocabulary:
    """The word lists of an index, read on first use."""

    def __init__(self, index_dir: Path) -> None:
        self.path = Path(index_dir) / WORDS_FILE

    @cached_property
    def words(self) -> dict[str, dict[str, int]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    @cached_property
    def _correctors(self) -> dict[str, Any]:
        from whoosh.spelling import ListCorrector

        class Corrector(ListCorrector):  # type: ignore[misc]
            Skipper = _Skipper

        return {lang: Corrector(sorted(words)) for lang, words in self.words.items()}

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
                corrector = self._correctors.get(lang)
                if corrector is None:
                    continue
                frequencies = self.words[lang]
                for _, candidate in corrector._suggestions(folded, distance, 1):
                    if candidate != folded:
                        found[candidate] += frequencies.get(candidate, 0)
            if found:
                return sorted(found.items(), key=lambda wf: (-wf[1], wf[0]))[0][0]
        return None


class _Skipper:
    """The smallest listed word at or after ``w`` (the automaton asks in increasing order).

    Whoosh's own ``ListCorrector.Skipper`` steps past the word it is at before searching, so the
    list's first word is never suggested, and an empty list raises IndexError.
    """

    def __init__(self, data: list[str]) -> None:
        self.data = data
        self.i = 0

    def __call__(self, w: str) -> str | None:
        self.i = bisect_left(self.data, w, self.i)
        return self.data[self.i] if self.i < len(self.data) else None


def _known(reader: Any, schema: Any, word: str, lang: str) -> bool:
    """Whether a searched field holds the word, or the language's bridge knows it."""
    fields = [text_field(lang)] + ([text_field("en")] if lang != "en" else [])
    stems = [t.text for t in schema[text_field(lang)].analyzer(word, mode="query")]
    if len(stems) == 1 and search_language(lang).english_for(stems[0]):
        return True
    for fieldname in fields:
        terms = [t.text for t in schema[fieldname].analyzer(word, mode="query")]
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

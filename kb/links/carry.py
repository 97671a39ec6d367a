"""Term matches carried from one edition to the next: only texts a vocabulary change touches.

Every clarification and card text is matched against each English edition's vocabulary; at the
full history that is over a hundred editions times every text, and an edition's vocabulary
differs from the one before it by a handful of terms. A term can match only a text that holds
its words one after the other, so after the first edition a text is matched again only when it
holds the words of a term that was added, removed or changed (:meth:`Vocabulary.shape`) in a row
(no break between them, small words aside); the spans of the others are kept and resolved against
the new edition's rules. A term whose words are nowhere in a row in a text is passed over at
every place of it (``Vocabulary._longest_at`` compares the words first), so adding, removing or
changing it cannot move that text's spans.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from .terms import Span, TermMatch, Vocabulary
from .words import Token, tokenize


class _Source(Protocol):
    language: str
    text: str
    mask: tuple[str, ...]


class CarriedMatches:
    """The term spans of a fixed list of texts, kept in step with the vocabulary of each edition."""

    def __init__(self, sources: Sequence[_Source]) -> None:
        self.sources = sources
        self.spans: list[list[Span] | None] = [None] * len(sources)
        self.shapes: dict[str, dict[tuple[str, ...], tuple[Any, ...]]] = {}
        self.words: dict[str, dict[str, array[int]]] = {}  # language -> word -> texts with it
        self.rematched = 0
        # Per text, what kb.links.about.is_about said at each place it was asked (it reads the
        # text alone: a text matched again asks it again at the same places). Only for the walk.
        self.about: list[dict[tuple[int, int], bool] | None] = [None] * len(sources)
        # Per text, its content words in order, breaks marked (built when first needed).
        self.sequences: list[str | None] = [None] * len(sources)
        # The same, noted as each text is first matched (its words are at hand then).
        self.noted: dict[str, dict[str, array[int]]] = {}
        self.counts: dict[str, list[int]] = {}  # language -> [texts noted, texts]
        for source in sources:
            self.counts.setdefault(source.language, [0, 0])[1] += 1

    def matches(
        self, vocabularies: Mapping[str, Vocabulary]
    ) -> Iterator[tuple[int, list[TermMatch]]]:
        """Each text's place and term matches for these vocabularies, in the order of the texts."""
        stale = self.stale(vocabularies)
        for i, source in enumerate(self.sources):
            vocabulary = vocabularies[source.language]
            spans = self.spans[i]
            if spans is None or i in stale:
                spans = self.rematch(i, vocabulary)
            yield i, [vocabulary.resolve(span) for span in spans]

    def rematch(self, i: int, vocabulary: Vocabulary) -> list[Span]:
        """Match one text again (its vocabulary changed where it may matter, or never matched)."""
        source = self.sources[i]
        first = self.spans[i] is None
        about = self.about[i]
        if about is None:
            about = self.about[i] = {}
        spans = self.spans[i] = vocabulary.spans(source.text, source.mask, about)
        self.rematched += 1
        if first:  # its tokens are at hand now (tokenize keeps the last texts')
            self.sequences[i] = _sequence(tokenize(source.text, source.language))
        if first and source.language not in self.words:
            index = self.noted.setdefault(source.language, {})
            for word in {t.norm for t in tokenize(source.text, source.language)}:
                index.setdefault(word, array("i")).append(i)
            self.counts[source.language][0] += 1
        return spans

    def sequence(self, i: int) -> str:
        """The text's content words in order, each between separators, a break as ``\0``."""
        found = self.sequences[i]
        if found is None:
            source = self.sources[i]
            found = self.sequences[i] = _sequence(tokenize(source.text, source.language))
        return found

    def stale(self, vocabularies: Mapping[str, Vocabulary]) -> set[int]:
        """The texts whose spans the change of vocabulary since the last call may move
        (unmatched texts aside); the vocabularies' shapes are kept for the next call."""
        stale: set[int] = set()
        for language in sorted({s.language for s in self.sources}):
            shape = vocabularies[language].shape()
            before = self.shapes.get(language)
            self.shapes[language] = shape
            if before is None:  # the language's texts were never matched: all are
                continue
            changed = [w for w in shape.keys() | before.keys() if shape.get(w) != before.get(w)]
            if changed:
                index = self._index(language)
                for words in changed:
                    needle = _SEP + _SEP.join(words) + _SEP
                    stale.update(
                        i for i in _holding_all(index, words) if needle in self.sequence(i)
                    )
        return stale

    def state(self) -> dict[str, Any]:
        """The spans, the shapes they were matched with and the word index, as plain values
        (kb.links.walk_state keeps them between runs; arrays as native-order bytes)."""
        languages = sorted({s.language for s in self.sources})
        return {
            "spans": self.spans,
            "shapes": self.shapes,
            "byteorder": sys.byteorder,
            "words": {
                language: {w: a.tobytes() for w, a in self._index(language).items()}
                for language in languages
            },
        }

    def restore(self, state: Mapping[str, Any]) -> None:
        """Take up a :meth:`state` of the same texts: the next vocabulary is compared with its."""
        self.spans = list(state["spans"])
        self.shapes = dict(state["shapes"])
        self.noted = {}
        self.words = {}
        self.sequences = [None] * len(self.sources)
        for language, words in state["words"].items():
            index = self.words[language] = {}
            for word, data in words.items():
                found = array("i")
                found.frombytes(data)
                if state["byteorder"] != sys.byteorder:
                    found.byteswap()
                index[word] = found

    def _index(self, language: str) -> dict[str, array[int]]:
        """Which texts of a language hold each word (built the first time it is needed)."""
        index = self.words.get(language)
        noted, total = self.counts.get(language, [0, 0])
        if index is None and noted == total:  # every text noted as it was first matched
            index = self.words[language] = self.noted.pop(language, {})
        elif index is None:
            self.noted.pop(language, None)
            index = self.words[language] = {}
            for i, source in enumerate(self.sources):
                if source.language == language:
                    for word in {t.norm for t in tokenize(source.text, language)}:
                        index.setdefault(word, array("i")).append(i)
        return index


_SEP = "\x1f"  # between the words of a sequence (no token holds it)
_BREAK = "\x00"  # a break (punctuation, a conjunction) in a sequence


def _sequence(tokens: Sequence[Token]) -> str:
    """A text's content words (not small words) in order, breaks marked: a term's words in a
    row in it (``_SEP``-joined) is what :meth:`Vocabulary.spans` can match. A masked card name
    breaks a phrase there too; leaving it in only lets more texts through (matched again)."""
    words = [_BREAK if t.brk else t.norm for t in tokens if t.brk or not t.stop]
    return _SEP + _SEP.join(words) + _SEP


def _holding_all(index: dict[str, array[int]], words: tuple[str, ...]) -> set[int]:
    """The texts that hold every one of the words."""
    lists = sorted((index.get(word, array("i")) for word in set(words)), key=len)
    if not lists or not lists[0]:
        return set()
    found = set(lists[0])
    for other in lists[1:]:
        found.intersection_update(other)
        if not found:
            break
    return found

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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .terms import Span, TermMatch, Vocabulary
from .words import Token, tokenize


class _Source(Protocol):
    language: str
    text: str
    mask: tuple[str, ...]


@dataclass(frozen=True)
class Feed:
    """What a helper matches for one edition (kb.links.ahead), each part waited for when taken:
    ``stale``, the edition's stale texts (not asked in the first edition: every text is matched
    there, none is stale); ``take``, the spans of the texts it matched. Either gives None when
    the helper failed. Of the texts to match, the walk matches the first ``share`` itself (see
    :func:`split_at`), in the time the helper matches the rest.
    """

    share: float
    stale: Callable[[], list[int] | None]
    take: Callable[[], dict[int, list[Span]] | None]


def split_at(todo: Sequence[int], share: float, count: int) -> int:
    """The first text the helper matches of those to match (``todo``, in order): the walk
    matches the ones before it. ``count``: all texts' (the helper matches none)."""
    cut = int(len(todo) * share)
    return todo[cut] if cut < len(todo) else count


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
        # The spans a helper process matched for the edition being walked (kb.links.ahead):
        # taken by :meth:`rematch` instead of matching the text here.
        self.fed: dict[int, list[Span]] = {}
        # Where the helper's spans start, and how to wait for them (set by :meth:`stale`).
        self.pending: tuple[int, Callable[[], dict[int, list[Span]] | None]] | None = None
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
        if self.pending is not None and i >= self.pending[0]:
            take, self.pending = self.pending[1], None
            self.fed = take() or {}
        fed = self.fed.pop(i, None) if self.fed else None
        if fed is not None:  # what this very method gave in the helper (same texts, same order)
            self.spans[i] = fed
            self.rematched += 1
            return fed
        source = self.sources[i]
        first = self.spans[i] is None
        about = self.about[i]
        if about is None:
            about = self.about[i] = {}
        spans = self.spans[i] = vocabulary.spans(source.text, source.mask, about)
        self.rematched += 1
        if first:  # its tokens are at hand now (tokenize keeps the last texts')
            self.note(i)
        return spans

    def note(self, i: int) -> None:
        """Keep a text's sequence and, while the language's word index is being noted, its words
        (when it is first matched, or in a helper that leaves its matching to the walk)."""
        source = self.sources[i]
        tokens = tokenize(source.text, source.language)
        self.sequences[i] = _sequence(tokens)
        if source.language not in self.words:
            index = self.noted.setdefault(source.language, {})
            for word in {t.norm for t in tokens}:
                index.setdefault(word, array("i")).append(i)
            self.counts[source.language][0] += 1

    def sequence(self, i: int) -> str:
        """The text's content words in order, each between separators, a break as ``\0``."""
        found = self.sequences[i]
        if found is None:
            source = self.sources[i]
            found = self.sequences[i] = _sequence(tokenize(source.text, source.language))
        return found

    def stale(self, vocabularies: Mapping[str, Vocabulary], fed: Feed | None = None) -> set[int]:
        """The texts whose spans the change of vocabulary since the last call may move
        (unmatched texts aside); the vocabularies' shapes are kept for the next call.

        ``fed``: what a helper process finds for these vocabularies, walking the same texts
        through the same editions (:meth:`feed`): the stale texts, and the spans of the texts
        it matched, which :meth:`rematch` takes instead of matching (waited for when the walk
        reaches the first of them: it matches the ones before itself meanwhile).
        """
        first = not self.shapes
        changes: list[tuple[str, list[tuple[str, ...]]]] = []
        for language in sorted({s.language for s in self.sources}):
            shape = vocabularies[language].shape()
            before = self.shapes.get(language)
            self.shapes[language] = shape
            if before is None:  # the language's texts were never matched: all are
                continue
            changed = [w for w in shape.keys() | before.keys() if shape.get(w) != before.get(w)]
            if changed:
                changes.append((language, changed))
        self.fed, self.pending = {}, None
        found = None if fed is None or first else fed.stale()
        if fed is not None and (first or found is not None):
            todo = range(len(self.sources)) if first else found or []
            self.pending = (split_at(todo, fed.share, len(self.sources)), fed.take)
            return set(found or ())
        stale: set[int] = set()
        for language, changed in changes:
            index = self._index(language)
            for words in changed:
                needle = _SEP + _SEP.join(words) + _SEP
                stale.update(i for i in _holding_all(index, words) if needle in self.sequence(i))
        return stale

    def feed(
        self,
        vocabularies: Mapping[str, Vocabulary],
        share: float = 0.0,
        stale: Callable[[list[int]], None] | None = None,
    ) -> dict[int, list[Span]]:
        """In a helper walking the texts ahead: :meth:`stale` for these vocabularies (given to
        ``stale`` at once, but in the first edition), and the spans of the texts it matches
        there: every one the first time, else the stale ones; but the first ``share`` of them,
        which the walk matches itself (the first time they are only noted here)."""
        first = not self.shapes
        found = sorted(self.stale(vocabularies))
        if not first and stale is not None:
            stale(found)
        todo = range(len(self.sources)) if first else found
        split = split_at(todo, share, len(self.sources))
        spans: dict[int, list[Span]] = {}
        for i in todo:
            if i >= split:
                spans[i] = self.rematch(i, vocabularies[self.sources[i].language])
            elif first:
                self.note(i)
        return spans

    def word_index(self) -> dict[str, dict[str, bytes]]:
        """The word index of every language (as :meth:`state` keeps it), for the walk a helper
        fed: it matched no text itself, so it noted no word."""
        languages = sorted({s.language for s in self.sources})
        return {
            language: {w: a.tobytes() for w, a in self._index(language).items()}
            for language in languages
        }

    def take_word_index(self, words: Mapping[str, Mapping[str, bytes]]) -> None:
        """Take up a helper's :meth:`word_index` (native byte order: the same machine)."""
        for language, index in words.items():
            taken = self.words[language] = {}
            for word, data in index.items():
                found = array("i")
                found.frombytes(data)
                taken[word] = found
            self.noted.pop(language, None)

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

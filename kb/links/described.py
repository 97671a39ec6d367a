"""Rules a ruling describes in the Comprehensive Rules' own words, without naming their concept.

The descriptions (a rule's concept and the wording a sentence applying it shows) are the table
of :mod:`kb.links.descriptions`; this module finds them in a ruling (:class:`Shown`, once per
ruling and description) and turns them into matches of the rules their concepts name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from .descriptions import DESCRIPTIONS, Description
from .literals import may_match, required
from .terms import Term, TermMatch, Vocabulary
from .words import phrase_words

__all__ = ["DESCRIPTIONS", "Description", "Shown", "described_matches", "may_describe"]

_SENTENCE = re.compile(r"[^.!?]+[.!?]?")


def _concepts(vocab: Vocabulary) -> dict[str, tuple[str, ...]]:
    concepts = vocab.memo.get("described")
    if concepts is None:  # quotes and case folded once per vocabulary
        concepts = vocab.memo["described"] = {_fold(k): v for k, v in vocab.concepts.items()}
    return concepts


def described_inputs(vocab: Vocabulary) -> tuple[tuple[str, ...], ...]:
    """The rules of every description's concept in a vocabulary: all it reads of one."""
    concepts = _concepts(vocab)
    return tuple(concepts.get(folded, ()) for folded in _FOLDED)


_UNASKED = object()  # a description not looked for yet (kb.links.described.Shown)
# Per description, words one of which its every match holds (kb.links.literals).
_NEEDED = tuple(required(d.shown) for d in DESCRIPTIONS)


class Shown:
    """Where each description shows in one text (kb.links.implied.TextEvidence holds one per
    ruling for a link run): found when first asked, as it reads the text and its cards alone."""

    __slots__ = ("cards", "found", "lowered", "text")

    def __init__(self, text: str, cards: Sequence[str] = ()) -> None:
        self.text = text
        self.cards = cards
        # Per description, its place, None (nowhere) or _UNASKED: a list, not a dict, as the
        # walk keeps one per ruling (~24k at the whole history).
        self.found: list[Any] = [_UNASKED] * len(DESCRIPTIONS)
        self.lowered: str | None = None

    def at(self, k: int) -> tuple[int, int] | None:
        """Where description ``k`` (a place in :data:`DESCRIPTIONS`) first shows, or None."""
        found = self.found[k]
        if found is _UNASKED:
            if self.lowered is None:
                self.lowered = self.text.lower()
            if may_match(_NEEDED[k], self.lowered):
                found = _shown(DESCRIPTIONS[k], self.text, self.cards)
            else:  # a word every match holds is not in the text
                found = None
            self.found[k] = found
        return found


def _shown(description: Description, text: str, cards: Sequence[str]) -> tuple[int, int] | None:
    """The first place a description shows in a text (with what its sentence and its cards
    must show too), whatever rules its concept names."""
    if description.card and not any(description.card.search(t) for t in cards):
        return None
    # A sentence's match is the whole text's match at the same place (sentences are contiguous
    # and end at their stop: a word boundary or look-ahead reads the same there), so a pattern
    # found nowhere in the text is in none of its sentences; most are in none of most texts.
    if description.shown.search(text) is None:
        return None
    for sentence in _SENTENCE.finditer(text):
        shown = description.shown.search(sentence.group())
        if shown and _with(description, sentence.group()):
            return sentence.start() + shown.start(), sentence.start() + shown.end()
    return None


def may_describe(
    text: str, cards: Sequence[str], which: Iterable[int], shown: Shown | None = None
) -> bool:
    """Whether any of these descriptions (places in :data:`DESCRIPTIONS`) shows in a text,
    whatever rules it names: a description that shows nowhere in it adds nothing to what it
    implies, so a change of its rules cannot change that (kb.links.walk). ``shown``: the
    text's :class:`Shown`, when kept."""
    shown = shown if shown is not None else Shown(text, cards)
    return any(shown.at(k) is not None for k in which)


def described_matches(
    vocab: Vocabulary,
    text: str,
    linked: set[str],
    cards: Sequence[str] = (),
    shown: Shown | None = None,
) -> list[TermMatch]:
    """The rules an English text describes in their own words (``linked``: rules already
    linked, left out; ``cards``: the rules texts of the ruling's cards; ``shown``: the text's
    :class:`Shown` with these cards, when kept)."""
    concepts = _concepts(vocab)
    shown = shown if shown is not None else Shown(text, cards)
    result = []
    for k, description in enumerate(DESCRIPTIONS):
        targets = concepts.get(_FOLDED[k], ())
        if not targets or set(targets) <= linked:
            continue
        span = shown.at(k)
        if span is None:
            continue
        start, end = span
        phrase = text[start:end]
        words = phrase_words(phrase, "en")
        term = Term(words, phrase, tuple(targets), "implied", description.concept)
        result.append(TermMatch(start, end, phrase, term))
        linked |= set(targets)
    return result


def _with(description: Description, sentence: str) -> bool:
    """Whether the sentence shows what must come with the description, and not what must not."""
    if description.also is not None and not description.also.search(sentence):
        return False
    return description.unless is None or not description.unless.search(sentence)


def _fold(name: str) -> str:
    return re.sub(r"[“”\"]", "", name.casefold())


# The descriptions' concepts folded once (folding them per ruling was ~3% of a link run).
_FOLDED = tuple(_fold(d.concept) for d in DESCRIPTIONS)

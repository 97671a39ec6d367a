"""Term links: inflection-tolerant matching of an edition's term vocabulary in texts.

The vocabulary (:mod:`kb.links.term_vocabulary` builds it) maps phrases to the rules they name.
Phrases are compared word by word after folding case and accents, stemming
(``tempts``/``tempted``/``tempt``; ``votes``/``voting``; see :mod:`kb.links.words`) and skipping
small words (``the Ring can't tempt you``), within one sentence; the longest phrase wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from kb.langs import APOSTROPHES

from .about import is_about, is_verb, names_state
from .inflections import DETERMINERS, inflected
from .wording import (
    VERB_SENSES,
    gap_written,
    ordinary_use,
    split_by_determiner,
)
from .words import Token, tokenize

# Participles and gerunds: "enchanted", "enchantée", "encantada" are not the Enchant keyword.
_DERIVED = {
    "en": ("ed", "ing"),
    "fr": ("é", "ée", "és", "ées", "ant"),
    "es": ("ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas", "ando", "iendo"),
}
_FOLLOWERS = frozenset({"counter", "token"})  # "plot counters" are not the plot keyword
# "play with the top card of your library revealed" (401.5), "play with a conspiracy": not 116.
_IDIOMS = {("play",): "with"}
# A participle the glossary defines as a designation, followed by its agent or its result, is the
# verb: "the characteristics specifically modified by eternalize", "as modified by other copy
# effects", "then modified to 4 and 5" are not a modified creature (700.9).
_PASSIVES = {"modified": ("by", "to")}


@dataclass(frozen=True)
class Term:
    """A phrase that names rules: its words, the rules, where it came from, what it names.

    ``capital``: the text must capitalise it (``Saga``, not ``case``); ``participle``: the text
    must use the ``-ed`` form the glossary defines (``goaded``, ``modified``), not the verb;
    ``bare``: a keyword ability's name, not its participle (``enchanted`` is not Enchant);
    ``gaps``: small words the phrase has before and between its words, which the text must
    have too (``end the turn`` is not ``end of turn``, ``Rings of Brighthearth`` not ``the Ring``);
    other small words may come between (``the Ring can't tempt you`` is "the Ring tempts you");
    ``general``: a general concept (cast, draw, target), matched only where the text is about it
    (:func:`kb.links.about.is_about`); ``verb_targets``: the rules of the glossary's verb sense
    when its noun sense has others (``counter`` a spell, 701.6; a ``counter``, 122); ``verbal``:
    a general verb and a game noun (``Casting Spells``, ``Activated Ability``), general too where
    the text makes it a verb and its object (``activating an ability``, ``cast a spell``);
    ``own_participle``: a keyword whose participles and gerunds name it (``spliced``,
    ``bestowed``, ``evoked``, ``foretold``, ``cycled``: its own rules use one, or no rule does;
    :mod:`kb.links.inflections`), unlike ``enchanted`` and ``equipped``, which only other rules
    say (they name what an Aura or an Equipment is attached to, 303.4, 301.5); ``own_verb``: for
    a keyword named by a gerund, the uses (``noun`` after a determiner, ``verb``) its own rules
    make of the word it is made from, in which that word names it too (*you cycle it*, 702.29c;
    *in the same band*, 702.22c; not *this cycle* of cards).
    """

    words: tuple[str, ...]
    phrase: str
    targets: tuple[str, ...]
    source: str  # glossary | symbol | alias | title | translation | defined | learned
    concept: str
    capital: bool = False
    participle: bool = False
    bare: bool = False
    gaps: tuple[tuple[str, ...], ...] = ()
    general: bool = False
    verb_targets: tuple[str, ...] = ()
    verbal: bool = False
    own_participle: bool = False
    own_verb: tuple[str, ...] = ()


# A term found in a text, independent of the rules it names: start, end, the words as written,
# the term's words (one term per words in a vocabulary), and (for a term with a verb sense)
# whether the text uses it as a verb.
Span = tuple[int, int, str, tuple[str, ...], "bool | None"]


@dataclass(frozen=True)
class TermMatch:
    """A term found in a text: the span and the words as written there."""

    start: int
    end: int
    matched: str
    term: Term


@dataclass
class Vocabulary:
    """The terms of one language for one edition, indexed by their first word."""

    language: str
    terms: list[Term]
    concepts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    numbers: frozenset[str] = frozenset()
    _index: dict[str, list[Term]] = field(default_factory=dict, repr=False)
    _by_words: dict[tuple[str, ...], Term] = field(default_factory=dict, repr=False)
    # What the implied-rule patterns derive once from this vocabulary (kb.links.implied).
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_words = {term.words: term for term in self.terms}
        for term in sorted(self.terms, key=lambda t: (-len(t.words), t.words)):
            self._index.setdefault(term.words[0], []).append(term)

    def match(self, text: str, mask: Iterable[str] = ()) -> list[TermMatch]:
        """Every term in a text, leftmost-longest, without overlaps.

        ``mask`` lists names (the cards a ruling is about) whose words must not count as terms:
        "Blizzard Brawl" is a card, not the Brawl variant.
        """
        return [self.resolve(span) for span in self.spans(text, mask)]

    def shape(self) -> dict[tuple[str, ...], tuple[Any, ...]]:
        """Per term (by its words), what matching reads of it: all but the rules it names.

        A term can match only a text holding all its words: where two vocabularies differ only
        in terms a text lacks a word of, they find the same spans in it, and :meth:`spans` of
        one edition serve the next (see :mod:`kb.links.carry`).
        """
        return {term.words: _shape(term) for term in self.terms}

    def resolve(self, span: Span) -> TermMatch:
        """The term match of a span, with the rules this vocabulary's term names."""
        start, end, matched, words, verb = span
        term = self._by_words[words]
        if verb is not None:
            verbs = term.verb_targets or VERB_SENSES.get(words, ())
            nouns = tuple(t for t in term.targets if t not in verbs)
            term = replace(term, targets=verbs if verb else nouns or term.targets)
        return TermMatch(start, end, matched, term)

    def spans(
        self, text: str, mask: Iterable[str] = (), about: dict[tuple[int, int], bool] | None = None
    ) -> list[Span]:
        """Where terms are in a text: start, end, words as written, the term's words, verb.

        ``about``: what :func:`kb.links.about.is_about` said of this text (with this mask) per
        place (start, end), kept by a caller that matches the text again (kb.links.carry): it
        reads the text alone, not the vocabulary, and was ~13% of a link run at the whole history.
        """
        hidden = _masked_spans(text, mask)
        covered = _covered(len(text), hidden) if hidden else None
        content: list[tuple[Token, int]] = []
        small: list[tuple[str, ...]] = []  # the stopwords before each content word
        pending: list[str] = []
        segment = 0
        for token in tokenize(text, self.language):
            if token.brk or (covered is not None and covered[token.start]):
                segment += 1
                pending = []
            elif token.stop:
                pending.append(token.raw.casefold())
            else:
                content.append((token, segment))
                small.append(tuple(pending))
                pending = []
        self._small = small
        self._text = text
        found: list[Span] = []
        segments: list[int] = []  # the segment of each match found
        i = 0
        starts = self._index  # a term starts only at a word some term begins with
        while i < len(content):
            term = self._longest_at(content, i) if content[i][0].norm in starts else None
            if term is None:
                i += 1
                continue
            n = len(term.words)
            after = content[i + n] if i + n < len(content) else None
            if (  # "plot counters", "Treasure token"; not "characteristics of that token"
                n == 1
                and after
                and after[1] == content[i][1]
                and after[0].norm in _FOLLOWERS
                and not self._small[i + 1]
            ):
                i += 1
                continue
            if after and _IDIOMS.get(term.words) == after[0].norm:
                i += 1
                continue
            if term.participle and after and after[1] == content[i][1]:
                following = (self._small[i + n] or (after[0].norm,))[0]
                if following in _PASSIVES.get(term.phrase.casefold(), ()):
                    i += 1
                    continue
            first, last = content[i][0], content[i + n - 1][0]
            # the variable X (107.3) is a symbol too: in a quoted ability it is the card's words
            symbol = term.source == "symbol" or term.words == ("x",)
            if ordinary_use(term.words, symbol, text, first.start, last.end, self.language):
                sense = self.language == "en" and VERB_SENSES.get(term.words)
                if (
                    sense
                    and set(sense) <= self.numbers
                    and _about(text, first.start, last.end, hidden, about)
                ):
                    found.append(
                        (first.start, last.end, text[first.start : last.end], term.words, True)
                    )
                    segments.append(content[i][1])
                    i += n
                    continue
                i += 1
                continue
            general = term.general or (
                term.verbal
                and (
                    bool(self._small[i + 1])
                    or names_state([t.raw.casefold() for t, _ in content[i : i + n]])
                )
            )
            if general and not _about(text, first.start, last.end, hidden, about):
                i += 1
                continue
            if general and _keyword_procedure(self, term, found, content[i][1], segments):
                i += 1
                continue
            verb = is_verb(text, first.start, last.end, hidden) if term.verb_targets else None
            matched = text[first.start : last.end]
            found.append((first.start, last.end, matched, term.words, verb))
            segments.append(content[i][1])
            i += n
        return found

    def _longest_at(self, content: list[tuple[Token, int]], i: int) -> Term | None:
        token, segment = content[i]
        left = len(content) - i  # words from here on: a longer term cannot fit
        for term in self._index.get(token.norm, ()):
            n = len(term.words)
            if n > left:
                continue
            if n > 1 and not _same_words(content, i, term.words, segment):
                continue
            if term.capital and not token.raw[:1].isupper():
                continue
            last = content[i + n - 1][0].raw.casefold()
            if term.participle and not last.endswith("ed"):
                continue
            if term.bare and not self._keyword_word(term, last, content[i + n - 1][0]):
                continue
            gaps = term.gaps  # most terms have none: no generator for them
            if gaps and any(
                gap and not gap_written(gap, self._small[i + k]) for k, gap in enumerate(gaps)
            ):
                continue
            if self.language == "en" and split_by_determiner(
                term.phrase, term.verbal, term.gaps, self._small[i : i + n], token.raw
            ):
                continue
            if gaps and any(  # "beginning of that phase" is not the Beginning Phase
                "of" in self._small[i + k] and "of" not in gap
                for k, gap in enumerate(gaps)
                if k > 0
            ):
                continue
            return term
        return None

    def _keyword_word(self, term: Term, last: str, token: Token) -> bool:
        """Whether a keyword's last word, as written (``last``, case-folded), names it: its
        name or a form of it (*cascades*), or a participle or gerund that names it
        (:func:`kb.links.inflections.names_keyword`: *evoked*, *foretold*, not *enchanted*),
        unless capitalised in mid-sentence, where it is part of a card's name (*Doom
        Foretold*, *Lifecrafter’s Gift*)."""
        english = self.language == "en"
        written = term.phrase.split()
        if len(written) == 1 and token.raw[:1].isupper() and _beside_capital(self._text, token):
            return False  # a one-word keyword inside another card's name (*Lifecrafter’s Gift*)
        if written and last == written[-1].casefold():  # "blessing" of "City’s Blessing"
            return True
        if not (last.endswith(_DERIVED.get(self.language, ())) or (english and inflected(last))):
            if not english or _keyword_form(last, term.phrase):
                return True
            return _own_use(term.own_verb, self._text, token)
        if not (english and term.own_participle):
            return False
        return not token.raw[:1].isupper() or not _in_name(self._text, token.start, token.end)


_CAPITAL_NEXT = re.compile(r"[ -]+[A-Z]")
_CAPITAL_BEFORE = re.compile(r"\b[A-Z][\w’'-]*[ -]+$")
_BEFORE = re.compile(r"([^\W\d_]+)[^\w.!?:;]*$")


def _own_use(uses: tuple[str, ...], text: str, token: Token) -> bool:
    """Whether the word a gerund keyword is made from names it where it stands: in a use its
    own rules make of it (the word before a determiner or not), and not after a capitalised
    word, where it is part of a name (*the Kaldra cycle*)."""
    if not uses:
        return False
    before = _BEFORE.search(text, 0, token.start)
    word = before.group(1) if before else ""
    if word[:1].isupper() and before is not None and _in_name(text, before.start(1), before.end(1)):
        return False
    if token.raw[:1].isupper() and _in_name(text, token.start, token.end):
        return False
    return ("noun" if word.casefold() in DETERMINERS else "verb") in uses


def _beside_capital(text: str, token: Token) -> bool:
    """A capitalised word next to another capitalised word is part of a name (*Lifecrafter’s
    Gift*, *Gift of Paradise*); old rulings capitalise a keyword alone (*have Flying*, *the
    Reach ability*), and a card text starts its lines with one."""
    before = _CAPITAL_BEFORE.search(text, 0, token.start)
    return bool(before or _CAPITAL_NEXT.match(text, token.end))


def _in_name(text: str, start: int, end: int) -> bool:
    """A capitalised word in mid-sentence, or before another capitalised word, is part of a
    card's name (*cast Doom Foretold*, *Prized Elephant gains trample*)."""
    head = text[:start].rstrip().rstrip('“"‘(')
    return bool(head and head[-1] not in ".!?:;—") or bool(_CAPITAL_NEXT.match(text, end))


def _about(
    text: str,
    start: int,
    end: int,
    hidden: list[tuple[int, int]],
    kept: dict[tuple[int, int], bool] | None,
) -> bool:
    """:func:`is_about` of a place in a text, taken from ``kept`` when it was asked before."""
    if kept is None:
        return is_about(text, start, end, hidden)
    found = kept.get((start, end))
    if found is None:
        found = kept[(start, end)] = is_about(text, start, end, hidden)
    return found


def _same_words(
    content: list[tuple[Token, int]], i: int, words: tuple[str, ...], segment: int
) -> bool:
    """Whether the tokens from ``i`` on are a term's words, within one segment (the first word
    is, by the index: the term was found under it; the caller checked that they fit)."""
    for k in range(1, len(words)):
        token, seg = content[i + k]
        if seg != segment or token.norm != words[k]:
            return False
    return True


_PROCEDURES = frozenset({"cast", "activat"})  # casting (601) and activating (602), as stems


def _keyword_procedure(
    vocab: Vocabulary, term: Term, found: list[Span], segment: int, segments: list[int]
) -> bool:
    """Casting or activating what a keyword ability's own rule governs (*the ninjutsu ability
    can be activated only…*, 702.49): the keyword, just before in the phrase, is the subject."""
    if term.words[0] not in _PROCEDURES or not found or segments[-1] != segment:
        return False
    before = vocab._by_words[found[-1][3]]
    return before.bare and before.source != "alias"


def _keyword_form(word: str, phrase: str) -> bool:
    """A keyword's name is written whole (*offering*, *cascades*; *offer* is not Offering)."""
    own = phrase.split()[-1].casefold() if phrase.split() else ""
    return not own.isalpha() or word.replace("’", "'").startswith(own.rstrip("e"))


def _shape(t: Term) -> tuple[Any, ...]:
    """What matching reads of a term: everything but the rules it names.

    Of its phrase as written, matching reads only whether the first word is a participle or a
    gerund (:func:`split_by_determiner`) and, for a keyword's bare name, the phrase and its
    last word case-folded (:meth:`Vocabulary._longest_at`, :func:`_keyword_form`). So a title
    that an edition writes with other quotation marks or italics (``Handling "Infinite" Loops``,
    ``Planar _Magic_``) is the same term to matching, and the texts holding it are not matched
    again for it (kb.links.carry).
    """
    written = t.phrase.split()
    head = written[0].casefold().endswith(("ed", "ing")) if written else False
    bare = (t.phrase.casefold(), written[-1].casefold() if written else "") if t.bare else None
    flags = (
        t.capital,
        t.participle,
        t.bare,
        t.general,
        bool(t.verb_targets),
        t.verbal,
        t.own_participle,
        t.own_verb,
    )
    return (t.words, head, bare, t.gaps, t.source == "alias", t.source == "symbol", *flags)


def _covered(length: int, spans: Iterable[tuple[int, int]]) -> bytearray:
    """Per offset of a text, whether a span covers it (one look-up per word instead of a scan
    of the spans: masked card names are checked at every word of every ruling)."""
    covered = bytearray(length + 1)
    for a, b in spans:
        covered[a:b] = b"\x01" * (b - a)
    return covered


# One apostrophe for all: card names are stored as MTGJSON writes them ("Teferi's Protection"),
# rulings mostly curly ("Teferi’s Protection"); each maps one character to one, so offsets hold.
_APOSTROPHE = str.maketrans(APOSTROPHES)


def _masked_spans(text: str, names: Iterable[str]) -> list[tuple[int, int]]:
    """Where the names stand in the text, whichever apostrophe each writes."""
    spans = []
    plain: str | None = None
    for name in names:
        if len(name) < 3:
            continue
        if plain is None:
            plain = text.translate(_APOSTROPHE)
        text, name = plain, name.translate(_APOSTROPHE)
        start = text.find(name)
        while start != -1:
            spans.append((start, start + len(name)))
            start = text.find(name, start + len(name))
    return spans

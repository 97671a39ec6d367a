"""Term links: the vocabulary that names a rule, and inflection-tolerant matching of it in texts.

An edition's English vocabulary is built from the edition itself:

- glossary terms, pointing at the rules their definition cites (``Vote`` -> 701.38); when a
  definition cites several rules, those whose quoted title shares a word with the term win
  (``Triggered Ability`` -> 603 "Handling Triggered Abilities", not 113 "Abilities"); a redirect
  (``Deal`` -> ``See Damage.``) or "An obsolete term for mana value" borrows its target's rules;
- rule and chapter titles (``The Ring Tempts You`` -> 701.54, ``Saga Cards`` -> 714, and the
  head ``Saga`` on its own when capitalised, since ``case`` and ``class`` are words too);
- terms the rules define in passing ("… referred to as a chapter ability" -> 714.2), or by a
  quoted definition ('To “tap [a permanent] for mana” is to …' -> 106.12);
- symbols the glossary explains (``{S}`` -> 107.4h);
- the aliases of :mod:`kb.links.thesaurus`, which name concepts, never numbers.

French and Spanish vocabularies are the thesaurus's names for those same concepts plus the titles
of translated rule pages (``El Anillo te tienta``). Phrases are compared word by word after
folding case and accents, stemming (``tempts``/``tempted``/``tempt``; ``votes``/``voting``; see
:mod:`kb.links.words`) and skipping small words (``the Ring can't tempt you``), within one
sentence; the longest phrase wins.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from kb.langs import APOSTROPHES

from .about import is_about, is_verb, names_state
from .inflections import inflected, names_keyword, participle_uses
from .references import find_references
from .thesaurus import ALIASES, GAME_NOUNS, GENERAL_CONCEPTS, KINDS_OF, RULE_STATEMENTS
from .wording import (
    all_senses_rule,
    card_forms,
    distributed,
    function_words,
    ordinary_use,
    permanent_forms,
    quoted_definition,
    split_by_determiner,
    symbol_mana,
)
from .words import Token, phrase_gaps, phrase_words, tokenize

# Participles and gerunds: "enchanted", "enchantée", "encantada" are not the Enchant keyword.
_DERIVED = {
    "en": ("ed", "ing"),
    "fr": ("é", "ée", "és", "ées", "ant"),
    "es": ("ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas", "ando", "iendo"),
}
_FOLLOWERS = frozenset({"counter", "token"})  # "plot counters" are not the plot keyword
# "play with the top card of your library revealed" (401.5), "play with a conspiracy": not 116.
_IDIOMS = {("play",): "with"}
_SYMBOL = re.compile(r"\{[A-Z0-9/]{1,6}\}")
_DEFINED = re.compile(
    r"(?:referred to as|(?:is|are) called|(?:is|are) known as)\s+(?:an?\s+|the\s+)?“?"
    r"(?P<term>[a-z][a-z\- ]{2,40}?)”?\s*[.,;)]"
)
# A basic land type's own entry ("Mountain: One of the five basic land types."): a subtype that
# names the lands having it; the type is linked through "basic land type" (305.6).
_LAND_TYPE = re.compile(r"^One of the five basic land types\b")
_OBSOLETE_FOR = re.compile(r"^An obsolete term for (?P<term>[\w\s-]+?)\.", re.IGNORECASE)
_RENAMED = re.compile(r"older name for|been renamed", re.IGNORECASE)
_SEE_TERM = re.compile(r"(?:^|[.”]\s)See (?P<term>(?!rules? )[A-Z][\w\s-]*?)\.\s*$")
_KIND_OF_DAMAGE = re.compile(r"^(?P<kind>(?!Combat\b)(?!Noncombat\b)\w+) Damage$")
_DECLARE = re.compile(r"^Declare (?P<who>\w+) Step$")
_TITLE_AFTER = re.compile(r"^,?\s*“(?P<title>[^”]+?)[.,]?”")


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
    say (they name what an Aura or an Equipment is attached to, 303.4, 301.5).
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
            nouns = tuple(t for t in term.targets if t not in term.verb_targets)
            term = replace(term, targets=term.verb_targets if verb else nouns or term.targets)
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
            first, last = content[i][0], content[i + n - 1][0]
            # the variable X (107.3) is a symbol too: in a quoted ability it is the card's words
            symbol = term.source == "symbol" or term.words == ("x",)
            if ordinary_use(term.words, symbol, text, first.start, last.end, self.language):
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
                gap and self._small[i + k][-len(gap) :] != gap for k, gap in enumerate(gaps)
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
        Foretold*)."""
        english = self.language == "en"
        written = term.phrase.split()
        if written and last == written[-1].casefold():  # "blessing" of "City’s Blessing"
            return True
        if not (last.endswith(_DERIVED.get(self.language, ())) or (english and inflected(last))):
            return not english or _keyword_form(last, term.phrase)
        if not (english and term.own_participle):
            return False
        return not token.raw[:1].isupper() or not _in_name(self._text, token.start, token.end)


_CAPITAL_NEXT = re.compile(r"[ -]+[A-Z]")


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


# --- building vocabularies ---------------------------------------------------------------------

# When one phrase comes from several sources, the most authoritative one decides its rules: the
# glossary is the rules' own index of what a term means.
_RANK = {
    "glossary": 0,
    "symbol": 0,
    "alias": 1,
    "translation": 1,
    "title": 2,
    "learned": 2,
    "defined": 3,
}


@dataclass(frozen=True)
class RuleEntry:
    """What the vocabulary needs of a rule: number, kind, title and body."""

    number: str
    kind: str
    title: str
    body: str


@dataclass(frozen=True)
class GlossaryItem:
    """What the vocabulary needs of a glossary entry."""

    term: str
    definition: str
    redirect: str | None = None
    obsolete: bool = False


class _Builder:
    """Collects phrases -> rules, merging a phrase met in several sources."""

    def __init__(self, language: str, exists: set[str]) -> None:
        self.language = language
        self.exists = exists
        self.terms: dict[tuple[str, ...], Term] = {}
        self.objects = {phrase_words(c, "en") for c in GAME_NOUNS}
        self.general = {phrase_words(c, "en") for c in GENERAL_CONCEPTS}

    def add(
        self,
        phrase: str,
        targets: Iterable[str],
        source: str,
        concept: str,
        capital: bool = False,
        verb_targets: tuple[str, ...] = (),
        general: bool = False,
    ) -> None:
        words = phrase_words(phrase, self.language)
        kept = tuple(dict.fromkeys(t for t in targets if t in self.exists))
        if not words or not kept or (self.language == "en" and words in self.objects):
            return
        general = general or (
            self.language == "en" and (words in self.general or function_words(phrase))
        )
        verbal = (
            self.language == "en"
            and len(words) > 1
            and (words[0],) in self.general
            and all((w,) in self.objects for w in words[1:])
        )
        participle = source == "glossary" and len(words) == 1 and phrase.endswith("ed")
        bare = all(t.startswith("702.") for t in kept)
        old = self.terms.get(words)
        if old is not None:
            if _RANK[old.source] < _RANK[source]:
                return
            if _RANK[old.source] == _RANK[source]:
                kept = tuple(dict.fromkeys((*old.targets, *kept)))
                capital = capital and old.capital
                participle = participle and old.participle
        gaps = phrase_gaps(phrase, self.language)
        verbs = tuple(t for t in verb_targets if t in kept)
        if verbs == kept:
            verbs = ()
        term = Term(
            words,
            phrase.strip(),
            kept,
            source,
            concept,
            capital,
            participle,
            bare,
            gaps,
            general,
            verbs,
            verbal,
        )
        self.terms[words] = term


def _glossary_targets(
    item: GlossaryItem,
    titles: Mapping[str, str] | None = None,
    bodies: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """The rules a definition cites: those whose title shares a word with the term, else the first.

    ``Triggered Ability`` cites 113 "Abilities" and 603 "Handling Triggered Abilities": 603 wins.
    Where no title shares a word, the first cited rule, unless its text does not use the term and
    later ones do (``Copiable Values`` cites 613.2, about layer 1's sublayers, then 707.2 and
    707.3, which say what copiable values are).
    ``Aura`` cites 303 "Enchantments" and 702.5 "Enchant": the glossary names the main rule first.
    A citation without its title in quotes is compared with the cited rule's own title
    (``Shuffle`` cites "rule 103.3 and rule 701.24": 701.24 is "Shuffle"); a section is cited
    only when no rule is (``Card Type``: rule 205, not section 3).
    """
    titles = titles or {}
    bodies = bodies or {}
    cited: list[tuple[tuple[str, ...], set[str]]] = []
    for ref in find_references(item.definition, "en"):
        after = _TITLE_AFTER.match(item.definition[ref.end :])
        if after:
            title_words = set(phrase_words(after["title"], "en"))
        else:
            title_words = {w for n in ref.numbers for w in phrase_words(titles.get(n, ""), "en")}
        cited.append((ref.numbers, title_words))
    if not cited:
        return ()
    if any(len(n) > 1 for nums, _ in cited for n in nums):  # a section is too broad a target
        cited = [(nums, title) for nums, title in cited if all(len(n) > 1 for n in nums)]
    term_words = set(phrase_words(item.term, "en"))
    scores = [len(term_words & title) for _, title in cited]
    best = max(scores)
    if best == 0:  # no title names it: the first rule, unless only later ones use the term
        first = cited[0][0]

        def uses(number: str) -> bool:
            return number not in bodies or term_words <= set(phrase_words(bodies[number], "en"))

        if len(cited) == 1 or any(uses(n) for n in first):
            return first
        using = [n for nums, _ in cited[1:] for n in nums if n in bodies and uses(n)]
        return tuple(dict.fromkeys(using)) or first
    chosen = [nums for (nums, _), s in zip(cited, scores, strict=True) if s == best]
    return tuple(dict.fromkeys(n for nums in chosen for n in nums))


_SENSE = re.compile(r"(?:^|\n)\s*\d\.\s+")


def _verb_sense_targets(item: GlossaryItem) -> tuple[str, ...]:
    """The rules cited by a definition's verb senses ("1. To cancel a spell…"), if it has others."""
    senses = [part for part in _SENSE.split(item.definition) if part.strip()]
    if len(senses) < 2:
        return ()
    verbs = [
        ref.numbers
        for part in senses
        if part.lstrip().startswith("To ")
        for ref in find_references(part, "en")
    ]
    return tuple(dict.fromkeys(n for numbers in verbs for n in numbers))


def _term_names(term: str) -> list[str]:
    """The phrases a glossary headword stands for (``Control, Controller`` is two)."""
    names = [term]
    if "," in term:
        names.extend(part.strip(' “”"') for part in term.split(","))
    return [n for n in names if n and "[" not in n]


def english_vocabulary(
    rules: Iterable[RuleEntry], glossary: Iterable[GlossaryItem], language: str = "en"
) -> Vocabulary:
    """The English vocabulary of one edition from its rules and glossary."""
    rules = list(rules)
    glossary = list(glossary)
    builder = _Builder(language, {r.number for r in rules})
    concepts: dict[str, tuple[str, ...]] = {}
    by_name = {g.term.casefold(): g for g in glossary}
    titles = {r.number: r.title for r in rules if r.title}
    bodies = {r.number: r.body for r in rules if r.body}
    own = {g.term.casefold(): _glossary_targets(g, titles, bodies) for g in glossary}
    keyword_rules = {
        t.casefold(): n for n, t in titles.items() if n.startswith(("701.", "702.")) and t
    }
    actions = {t for t, n in keyword_rules.items() if n.startswith("701.")}
    for item in glossary:
        if _LAND_TYPE.match(item.definition):  # "Swamp" names lands, as "Zombie" names creatures
            continue
        targets = own[item.term.casefold()]
        kind_of = KINDS_OF.get(item.term, "").casefold()
        if own.get(kind_of):  # a creature type is a subtype (205.3), not a creature (302)
            targets = own[kind_of]
        borrowed = item.redirect
        obsolete_for = _OBSOLETE_FOR.match(item.definition)
        see = _SEE_TERM.search(item.definition)
        if obsolete_for:
            borrowed = obsolete_for["term"]
        elif item.obsolete:
            # A renamed term still names its rule in old rulings and printings ("removed from
            # the game", "Totem Armor", "redirected"); other obsolete wordings ("At End of
            # Turn": the end step now, and "until end of turn" is everywhere) are not linked.
            if not see and not _RENAMED.search(item.definition):
                continue
            borrowed = see["term"] if see else None
        if not targets and borrowed and borrowed.casefold() in by_name:
            targets = own[borrowed.casefold()]
        targets = all_senses_rule(item.term, item.definition, keyword_rules) or targets
        targets = tuple(_section_general(n, builder.exists) for n in targets)
        targets += _state_checks(item, targets)
        concepts[item.term.casefold()] = targets
        verbs = _verb_sense_targets(item)
        names = _term_names(item.term)
        if len(names) > 1:  # "Active Player" has its own entry; the APNAP headword borrows not
            names = [n for n in names if n == item.term or n.casefold() not in by_name]
        if item.obsolete and len(names) > 1:  # "Removed" alone is also "removed from combat"
            names = [n for n in names if len(n.split()) > 1]
        for name in names:
            builder.add(name, targets, "glossary", item.term, verb_targets=verbs)
            for form in card_forms(name, actions):
                builder.add(form, targets, "defined", item.term)
            if name.endswith(" Rule"):  # "summoning sickness", as "X Variant" is "X"; not
                # "legend" or "world", basic nouns the builder refuses
                builder.add(name.removesuffix(" Rule"), targets, "glossary", item.term)
            kind = _KIND_OF_DAMAGE.match(name)
            if kind:  # combat damage is damage (510): "dealt lethal combat damage"
                builder.add(f"{kind['kind']} Combat Damage", targets, "glossary", item.term)
        symbol = _SYMBOL.search(item.definition) if item.term.endswith("Symbol") else None
        if symbol:
            builder.add(symbol.group(), targets, "symbol", item.term)
        mana = symbol_mana(item.term)
        if mana and phrase_words(mana, language) not in builder.terms:
            builder.add(mana, targets, "glossary", item.term)
        if len(item.term) == 1 and item.term.isupper():  # the variable X is also the symbol {X}
            builder.add("{" + item.term + "}", targets, "symbol", item.term)
    first = _first_statements(rules)
    for place, rule in enumerate(rules):
        if rule.title and rule.kind in ("chapter", "rule") and rule.title != "General":
            _add_title(builder, rule, concepts, actions)
        for statement in first.get(place, ()):
            concepts.setdefault(statement, (rule.number,))
        for found in _DEFINED.finditer(rule.body):
            term = found["term"].strip()
            if 2 <= len(term.split()) <= 3 and not set(term.split()) & {"that", "for", "in"}:
                builder.add(term, (rule.number,), "defined", term)
        quoted = quoted_definition(rule.body)
        if quoted and 2 <= len(quoted.split()) <= 3:
            builder.add(quoted, (rule.number,), "defined", quoted)
    for term in list(builder.terms.values()):
        for form in permanent_forms(term.phrase):
            if phrase_words(form, language) not in builder.terms:
                builder.add(form, term.targets, "defined", term.concept, capital=term.capital)
    for phrase, concept in ALIASES.get(language, {}).items():
        builder.add(phrase, concepts.get(concept.casefold(), ()), "alias", concept)
    uses = participle_uses((rule.number, rule.body) for rule in rules)
    terms = [_own_participle(term, uses) for term in builder.terms.values()]
    return Vocabulary(language, terms, concepts, frozenset(builder.exists))


def _first_statements(rules: Sequence[RuleEntry]) -> dict[int, list[str]]:
    """Per place in ``rules``, the statements of :data:`RULE_STATEMENTS` that the rule or
    subrule there is the first to make, in that list's order.

    Found in all the bodies joined (no statement holds a line break), not by a scan per rule
    and statement: that was ~2% of a link run at the whole history.
    """
    places: list[int] = []
    starts: list[int] = []
    parts: list[str] = []
    length = 0
    for place, rule in enumerate(rules):
        if rule.kind in ("rule", "subrule"):
            body = rule.body.replace("’", "'").casefold()
            places.append(place)
            starts.append(length)
            parts.append(body)
            length += len(body) + 1
    said = "\n".join(parts)
    first: dict[int, list[str]] = {}
    for statement in RULE_STATEMENTS:
        at = said.find(statement)
        if at >= 0:
            first.setdefault(places[bisect_right(starts, at) - 1], []).append(statement)
    return first


def _own_participle(term: Term, uses: Mapping[str, Mapping[str, set[str]]]) -> Term:
    """The term, marked if it is a one-word keyword whose participles name it
    (:func:`kb.links.inflections.names_keyword`): a ruling's *spliced spell* names Splice
    (702.47c says "the spliced cards"), an *evoked creature* Evoke; *enchanted* and *equipped*,
    which only the rules of Auras and Equipment say (303.4, 301.5), are left to them."""
    if not term.bare or len(term.words) != 1 or term.source == "alias":
        return term
    if not term.phrase.isalpha():
        return term
    if names_keyword(term.phrase, term.words[0], term.targets, uses):
        return replace(term, own_participle=True)
    return term


def _state_checks(item: GlossaryItem, targets: tuple[str, ...]) -> tuple[str, ...]:
    """The state-based actions (704.5x) a definition cites besides its main rules: lethal damage
    (120.4a, and 704.5g destroys the creature) is what the state-based actions check, so a
    ruling about it applies them too."""
    cited = [n for ref in find_references(item.definition, "en") for n in ref.numbers]
    return tuple(n for n in dict.fromkeys(cited) if n.startswith("704.5") and n not in targets)


def _section_general(number: str, exists: set[str]) -> str:
    """A section (``8``, "Multiplayer Rules") stands for its general rule (800), which the
    policy labels: a section number is no rule a reader can follow."""
    general = f"{number}00"
    return general if number.isdigit() and len(number) == 1 and general in exists else number


def _add_title(
    builder: _Builder,
    rule: RuleEntry,
    concepts: dict[str, tuple[str, ...]],
    actions: Collection[str] = (),
) -> None:
    title = re.sub(r"\s*\([^)]*\)", "", rule.title).strip()
    concepts.setdefault(rule.title.casefold(), (rule.number,))
    builder.add(title, (rule.number,), "title", rule.title)
    if rule.number.startswith(("701.", "702.")) and " and " in title:
        for part in title.split(" and "):
            builder.add(part, (rule.number,), "title", rule.title)
    for phrase in distributed(title):
        if phrase_words(phrase, builder.language) not in builder.terms:
            builder.add(phrase, (rule.number,), "title", rule.title)
    declared = _DECLARE.match(title)
    if declared:  # "before blockers are chosen": the step's own noun, a general concept
        builder.add(declared["who"], (rule.number,), "title", rule.title, general=True)
    for suffix in (" Variant", " Option"):  # "in a Two-Headed Giant game"
        if title.endswith(suffix):
            head = title.removesuffix(suffix)
            # one word may be an ordinary one ("Emperor", "Archenemy" is not); a phrase of
            # several names the variant in lower case too ("you may attack multiple players")
            capital = len(head.split()) == 1
            builder.add(head, (rule.number,), "title", rule.title, capital=capital)
    if title.endswith(" Cards"):
        head = title.removesuffix(" Cards")
        concepts.setdefault(head.casefold(), (rule.number,))
        # "Saga", "Case", "Class" are words too, capitalised where they name the cards; a
        # hyphenated head is no other word ("a double-faced or melded permanent").
        capital = "-" not in head
        builder.add(head, (rule.number,), "title", rule.title, capital=capital)
    for form in card_forms(title, actions):  # a one-word head is a word too: "Case spell"
        head = form.split()[0]
        capital = "-" not in head and len(form.split()) == 2
        builder.add(form, (rule.number,), "defined", rule.title, capital=capital)


def translated_vocabulary(
    language: str,
    english: Vocabulary,
    titles: Mapping[str, str],
    learned: Mapping[str, str] | None = None,
) -> Vocabulary:
    """A language's vocabulary for an edition: thesaurus names and translated rule titles.

    ``english`` is the edition's English vocabulary (for the concepts' rules); ``titles`` maps a
    rule number of that edition to its translated title; ``learned`` maps a term learned from
    card translations to its English keyword (:mod:`kb.links.learned`).
    """
    builder = _Builder(language, set(english.numbers) | set(titles))
    for number, title in sorted(titles.items()):
        if title:
            builder.add(title, (number,), "translation", title)
    for phrase, concept in ALIASES.get(language, {}).items():
        builder.add(phrase, english.concepts.get(concept.casefold(), ()), "alias", concept)
    for phrase, concept in (learned or {}).items():
        builder.add(phrase, english.concepts.get(concept.casefold(), ()), "learned", concept)
    return Vocabulary(language, list(builder.terms.values()), english.concepts, english.numbers)

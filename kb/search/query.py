"""Query strings -> Whoosh queries: rule-number jumps, filters, languages, the bridge, fuzziness.

The syntax is Whoosh's (``AND``/``OR``/``NOT``, ``-word``, ``"phrases"``, ``field:value``) with
a few additions: filter names in the user's words (``lang:``, ``rule:``), filter values checked
and normalised (``type:rulings`` -> ``ruling``; an unknown value is an error that names it), the
user's stop words dropped, and each plain word searched in the user's language (whose texts also
hold the card names of every language) and — for French and Spanish — in the English originals,
as typed and through the language's term bridge. Plain words skip the parser's tagging.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from whoosh import query as wq
from whoosh.qparser import (
    AndGroup,
    OrGroup,
    PlusMinusPlugin,
    QueryParser,
    syntax,
)
from whoosh.qparser.plugins import FuzzyTermPlugin, PhrasePlugin, Plugin

from kb.errors import KbUsageError
from kb.langs import LANGS, check_lang
from kb.search.analysis import MODIFIER_PATTERN, analyze, query_terms
from kb.search.lang import fold_word, phrase_spans, search_language
from kb.search.questions import drop_question_words  # noqa: F401 (part of this module's API)
from kb.search.schema import (
    FIELD_ALIASES,
    PROVENANCES,
    TYPE_ALIASES,
    TYPES,
    text_field,
)


class QueryError(KbUsageError):
    """A query or search parameter that cannot be understood (the API answers 400, kb exits 2)."""


# Boosts: the user's language counts more than the English searched on their behalf, as typed
# or through the bridge; a word that is a rule number counts most on that rule.
OWN_LANGUAGE, ENGLISH_AS_TYPED, BRIDGED, RULE_NUMBER = 1.0, 0.5, 0.7, 6.0
# Without --lang, every language's texts are searched: the query's detected language counts
# most, the others as English typed in a French query does; a bridge of another language than
# the detected one counts a little less than the detected language's own.
OTHER_LANGUAGE, OTHER_BRIDGE = 0.5, 0.6
FUZZY_DISTANCE, FUZZY_PREFIX = 1, 1

_NUMBER = r"\d{1,3}(?:\.\d{1,3}[a-z]?)?"
_NUMBER_RE = re.compile(_NUMBER)
JUMP_RE = re.compile(
    rf"^(?:(?:rules?|r[eè]gles?|reglas?|cr)\s*)?(?P<start>{_NUMBER})\.?"
    rf"(?:\s*[-–—]\s*(?P<end>{_NUMBER}|[a-z]))?\.?$",
    re.IGNORECASE,
)
_DATE_RE = re.compile(r"^\d{4}(?:-?\d{2}(?:-?\d{2})?)?$")
_EDITION_ALL = {"all", "any", "*"}
_EDITION_NEWEST = {"newest", "latest", "current"}


def _date_key(value: str, last: bool = False) -> str:
    """A date filter value as a comparable YYYYMMDD (a year or month counts from its start, or
    to its end when ``last``)."""
    digits = value.replace("-", "")
    return digits + ("1231"[len(digits) - 4 :] if last else "0101"[len(digits) - 4 :])


def jump_numbers(text: str) -> list[str] | None:
    """The rule numbers a query names on its own (``701.54``, ``rule 701.54a–c``), else None."""
    match = JUMP_RE.match(text.strip())
    if not match:
        return None
    from kb.corpus.numbers import expand_range, is_rule_number

    start, end = match["start"].lower(), match["end"]
    if not is_rule_number(start):
        return None
    if not end:
        return [start]
    try:
        return expand_range(start, end.lower())
    except ValueError as exc:
        raise QueryError(f"rule range {text.strip()!r}: {exc}") from None


@dataclass
class QueryContext:
    """What the parser needs to know of the index and the request, and what it found out."""

    lang: str
    editions: list[str]
    fuzzy: bool = False
    # No --lang: ``lang`` is the detected language, and every language's texts are searched.
    any_language: bool = False
    # When set (the "some of the words" pass), words this says are too common are left out.
    too_common: Callable[[str, str], bool] | None = None
    filters: dict[str, list[str]] = field(default_factory=dict)
    words: list[str] = field(default_factory=list)

    @property
    def newest(self) -> str | None:
        return self.editions[-1] if self.editions else None


class AliasPlugin(Plugin):
    """Lower-case field names and map the user's names (``lang``, ``rule``) to the schema's."""

    def __init__(self) -> None:
        self.reverse = {alias: name for name, aliases in FIELD_ALIASES.items() for alias in aliases}

    def filters(self, parser: Any) -> list[tuple[Any, int]]:
        return [(self.do_aliases, 90)]

    def do_aliases(self, parser: Any, group: Any) -> Any:
        for node in group:
            if isinstance(node, syntax.GroupNode):
                self.do_aliases(parser, node)
            elif isinstance(node, syntax.FieldnameNode):
                name = node.fieldname.lower()
                node.fieldname = self.reverse.get(name, name)
        return group


class FilterValuesPlugin(Plugin):
    """Check and normalise filter values; remember them (``edition:`` turns the default off)."""

    def __init__(self, context: QueryContext) -> None:
        self.context = context

    def filters(self, parser: Any) -> list[tuple[Any, int]]:
        return [(self.do_values, 105)]

    def do_values(self, parser: Any, group: Any) -> Any:
        for node in group:
            if isinstance(node, syntax.GroupNode):
                self.do_values(parser, node)
            elif isinstance(node, syntax.RangeNode) and node.fieldname == "date":
                self.check_date_range(node)
            elif node.has_fieldname and node.fieldname is not None and hasattr(node, "text"):
                if isinstance(node, syntax.WordNode):
                    node.text = self.normalise(node.fieldname, node.text)
                self.context.filters.setdefault(node.fieldname, []).append(node.text)
        return group

    def normalise(self, name: str, value: str) -> str:
        """The canonical form of a filter value; raise QueryError on one that cannot be."""
        lowered = value.strip().lower()
        if name == "type":
            canonical = TYPE_ALIASES.get(lowered, lowered)
            if canonical not in TYPES:
                raise QueryError(f"type:{value} — unknown type (use one of {', '.join(TYPES)})")
            return canonical
        if name == "langs":
            try:
                return check_lang(lowered)
            except ValueError as exc:
                raise QueryError(f"lang:{value} — {exc}") from None
        if name == "provenance":
            if lowered not in PROVENANCES:
                raise QueryError(
                    f"provenance:{value} — unknown provenance (use one of {', '.join(PROVENANCES)})"
                )
            return lowered
        if name == "edition":
            return self.edition(value, lowered)
        if name == "date" and not _DATE_RE.match(lowered):
            raise QueryError(f"date:{value} — expected a year, YYYY-MM or YYYY-MM-DD")
        if name in ("set", "source"):
            return lowered
        return value

    def check_date_range(self, node: Any) -> None:
        """``date:[A TO B]``: each end a date (or left open), the start not after the end."""
        start, end = (node.start or "").strip(), (node.end or "").strip()
        shown = f"date:[{start} TO {end}]"
        for value in (start, end):
            if value and not _DATE_RE.match(value):
                raise QueryError(
                    f"{shown} — {value!r} is not a date (expected a year, YYYY-MM or YYYY-MM-DD)"
                )
        if start and end and _date_key(start) > _date_key(end, last=True):
            raise QueryError(f"{shown} — the range starts after it ends ({start} > {end})")
        self.context.filters.setdefault("date", []).append(shown)

    def edition(self, value: str, lowered: str) -> str:
        if lowered in _EDITION_ALL:
            return "*"
        if lowered in _EDITION_NEWEST and self.context.newest:
            return self.context.newest
        if lowered in self.context.editions:
            return lowered
        known = ", ".join(self.context.editions) or "none"
        raise QueryError(f"edition:{value} — no such edition in the index (indexed: {known})")


# What a word is searched as, whatever the pass (LanguagePlugin._searched): its fields and
# English terms, the word and bridged terms its "too common" test looks at, the word recorded.
Searched = tuple[
    tuple[tuple[str, str | None, float], ...], tuple[str, tuple[str, ...]] | None, str | None
]


class WordMemo:
    """What one search worked out of its words, for its next passes over the same words.

    A search builds the tree of its words several times (every word required, then some of
    them, a question's every and rarer words, each word's terms for the named rule), each time
    with the same languages: the phrases among the words and each word's fields, bridged
    English terms and stop-word test are the same every time. Kept for one search only (a
    new one per search), never across searches: only a pass's "too common" test and the
    words it records in its context are done again.
    """

    def __init__(self) -> None:
        # (languages, the group's words) -> its phrases, phrase words and counting words, by place
        self.marks: dict[Any, tuple[dict[int, tuple[str, tuple[str, ...]]], set[int], set[int]]]
        self.marks = {}
        # (languages, the group's words, place) -> what :meth:`LanguagePlugin._searched` gives
        self.words: dict[Any, Any] = {}


class LanguagePlugin(Plugin):
    """Search each plain word in the user's language and, for fr/es, in the English texts too."""

    def __init__(self, context: QueryContext, schema: Any, memo: WordMemo | None = None) -> None:
        self.context = context
        self.schema = schema
        self._memo = memo
        # A word's group and place in it (:meth:`mark_phrases`), which key the memo.
        self._places: dict[int, tuple[Any, int]] = {}
        lang = context.lang
        self.analyzer = schema[text_field(lang)].analyzer
        self.english_analyzer = schema[text_field("en")].analyzer
        self.fields: list[tuple[str, float]] = [(text_field(lang), OWN_LANGUAGE)]
        self.language = search_language(lang)
        # The languages whose stop words are dropped and whose bridge is crossed, with its boost.
        self.bridges: list[tuple[Any, Any, float]] = []
        if context.any_language:
            others = [code for code in LANGS if code != lang]
            self.fields += [(text_field(code), OTHER_LANGUAGE) for code in others]
            for code in (lang, *others):
                boost = BRIDGED if code == lang else OTHER_BRIDGE
                if code != "en" or search_language(code).phrases:
                    analyzer = schema[text_field(code)].analyzer
                    self.bridges.append((search_language(code), analyzer, boost))
            self.stop_analyzers = [schema[text_field(code)].analyzer for code in LANGS]
        else:
            if lang != "en":
                self.fields.append((text_field("en"), ENGLISH_AS_TYPED))
                self.bridges.append((self.language, self.analyzer, BRIDGED))
            elif self.language.phrases:
                # English has no bridge, but phrases the rules say in a word of their own ("at
                # the same time", simultaneously) are searched as that word too.
                self.bridges.append((self.language, self.analyzer, BRIDGED))
            self.stop_analyzers = [self.analyzer]
        # The first word of each phrase of a bridge's language among a group's words: the
        # phrase as typed and its English terms; the phrase's other words (searched with it).
        self._phrases: dict[int, tuple[str, tuple[str, ...]]] = {}
        self._in_phrase: set[int] = set()
        self._counting: set[int] = set()  # stop words that count one of something (see below)

    def mark_phrases(self, nodes: list[Any]) -> None:
        """Note the phrases of several words among a group's words (a learned keyword term, a
        phrase of the bridge): each is searched as one word, the phrase in the texts of the
        languages searched and its English terms through the bridge, not word by word.

        One word, because one term is what it means: word by word, "champ de bataille" would
        also be a battle, and its two words would count twice in a French text for once in an
        English one holding "battlefield" (the cards of a whole history, whose French texts
        say "champ de bataille" everywhere, then crowd out the rules).
        """
        words = [n for n in nodes if isinstance(n, syntax.WordNode)]
        texts = [n.text for n in words]
        group = (id(self.schema), self.context.lang, self.context.any_language, tuple(texts))
        marks = self._memo.marks.get(group) if self._memo is not None else None
        if marks is None:
            marks = self._marks(texts)
            if self._memo is not None:
                self._memo.marks[group] = marks
        if self._memo is not None:
            self._places.update((id(word), (group, place)) for place, word in enumerate(words))
        phrases, in_phrase, counting = marks
        self._phrases.update((id(words[place]), phrase) for place, phrase in phrases.items())
        self._in_phrase.update(id(words[place]) for place in in_phrase)
        self._counting.update(id(words[place]) for place in counting)

    def _marks(
        self, texts: list[str]
    ) -> tuple[dict[int, tuple[str, tuple[str, ...]]], set[int], set[int]]:
        """A group's phrases (by their first word's place), the places of their words and of
        the stop words that count one (:meth:`mark_phrases`)."""
        phrases: dict[int, tuple[str, tuple[str, ...]]] = {}
        in_phrase: set[int] = set()
        for language, _analyzer, _boost in self.bridges:
            for start, size, terms in phrase_spans(language.code, texts):
                inside = range(start, start + size)
                if any(i in in_phrase for i in inside):
                    continue  # a phrase of the language detected first wins
                in_phrase.update(inside)
                phrases[start] = (" ".join(texts[start : start + size]), terms)
        return phrases, in_phrase, self._mark_counting(texts)

    def _mark_counting(self, texts: list[str]) -> set[int]:
        """The places of the stop words that are the numeral one among a group's words: "une"
        before a noun that a numeral also counts ("une créature peut-elle bloquer deux
        créatures attaquantes", "una criatura … dos criaturas"). Elsewhere "une" is an article,
        a stop word; here it is what the question asks about, and English "one" is searched for
        it (509.1a: the defending player chooses one creature for each blocker to block)."""
        languages = [self.language, *(language for language, _a, _b in self.bridges)]
        one = frozenset().union(*(language.one for language in languages))
        numerals = frozenset().union(*(language.numerals for language in languages))
        if not one:
            return set()
        folded = [fold_word(text) for text in texts]
        counted = {
            self._noun(texts[i + 1])
            for i, word in enumerate(folded[:-1])
            if word in numerals or word.isdigit()
        }
        counted.discard(())  # a numeral before a stop word counts nothing named
        return {
            i
            for i, word in enumerate(folded[:-1])
            if word in one and self._noun(texts[i + 1]) in counted
        }

    def _noun(self, text: str) -> tuple[str, ...]:
        """A word's terms in the query's language (a noun and its plural alike)."""
        return query_terms(self.analyzer, text)

    def filters(self, parser: Any) -> list[tuple[Any, int]]:
        return [(self.do_languages, 110)]

    def do_languages(self, parser: Any, group: Any) -> Any:
        new = group.empty_copy()
        self.mark_phrases([n for n in group if n.has_fieldname and n.fieldname is None])
        for node in group:
            if isinstance(node, syntax.GroupNode):
                new.append(self.do_languages(parser, node))
            elif node.has_fieldname and node.fieldname is None:
                expanded = self.expand(node)
                if expanded is not None:
                    new.append(expanded)
            else:
                new.append(node)
        return new

    def expand(self, node: Any) -> Any:
        """The OR of a node over the searched fields, or None for a stop word."""
        alternatives = self.alternatives(node)
        if alternatives is None:
            return None
        nodes = [
            self._copy(node, fieldname, boost)
            if english is None
            else self._english(node, english, fieldname, boost)
            for fieldname, english, boost in alternatives
        ]
        # One alternative stays a plain term: Whoosh intersects plain terms much faster.
        return nodes[0] if len(nodes) == 1 else syntax.OrGroup(nodes)

    def alternatives(self, node: Any) -> list[tuple[str, str | None, float]] | None:
        """(field, English term or None for the node's own text, boost) of each field searched.

        None for a stop word of the user's language (and, when the context says which words are
        too common, for those). A word searched is added to the context's words.
        """
        place = self._places.get(id(node)) if self._memo is not None else None
        if place is None:
            searched = self._searched(node)
        else:
            words = self._memo.words  # type: ignore[union-attr]
            searched = words.get(place, False)
            if searched is False:
                searched = words[place] = self._searched(node)
        if searched is None:
            return None
        found, common, word = searched
        if common is not None and self.context.too_common and self._common(*common):
            return None
        if word is not None:
            self.context.words.append(word)
        return list(found)

    def _searched(self, node: Any) -> Searched | None:
        """What :meth:`alternatives` gives of a node whatever the pass: the fields searched, the
        word and English terms its "too common" test looks at (None when it has none) and the
        word recorded among the context's words (None when it records none); None when the node
        is not searched (a stop word, a phrase's later word)."""
        is_word = isinstance(node, syntax.WordNode)
        if is_word and id(node) in self._in_phrase:
            return self._phrase_alternatives(node)
        if is_word and id(node) in self._counting:
            return ((text_field("en"), "one", BRIDGED),), None, node.text
        if is_word and not re.search(r"\d", node.text):
            # A stop word of the language (without --lang: of any language) is not searched.
            for analyzer in self.stop_analyzers:
                if not query_terms(analyzer, node.text):
                    return None
        found: list[tuple[str, str | None, float]] = [
            (fieldname, None, boost) for fieldname, boost in self.fields
        ]
        bridged: list[str] = []
        if is_word and _NUMBER_RE.fullmatch(node.text):
            found.append(("number", None, RULE_NUMBER))
        if is_word:
            typed = node.text.lower()
            for language, analyzer, boost in self.bridges:
                stems = query_terms(analyzer, node.text)
                if len(stems) != 1:
                    continue
                englishes = language.english_for(stems[0])
                if englishes and language is self.language and self._false_friend(typed, englishes):
                    found = [f for f in found if f[0] != text_field("en")]
                if not englishes:
                    cognate = language.cognate(node.text)
                    englishes = (cognate,) if cognate else ()
                for english in englishes:
                    if english == typed or english in bridged:
                        continue
                    if self._as_typed_in_english(found, node.text, english):
                        continue
                    bridged.append(english)
                    found.append((text_field("en"), english, boost))
        common = (node.text, tuple(bridged)) if is_word else None
        # a modifier ("+1/+1") is a word, quoted
        recorded = is_word or _MODIFIER.fullmatch(getattr(node, "text", "") or "")
        return tuple(found), common, node.text if recorded else None

    def _false_friend(self, typed: str, englishes: tuple[str, ...]) -> bool:
        """Whether a word of the query's language that its bridge takes to other English words
        ("main" -> hand, "fin" -> end, "tour" -> turn) is, as typed, a false friend in the
        English texts: "combien de cartes garder en main" is about the hand, and searched as
        typed "main" found the main phases of every turn (500.1) first. Such a word is searched
        in the English texts through the bridge only; one whose English terms as typed are its
        bridge's ("contrôle", control; "commander") both ways."""
        mine = query_terms(self.english_analyzer, typed)
        return all(query_terms(self.english_analyzer, english) != mine for english in englishes)

    def _as_typed_in_english(
        self, found: list[tuple[str, str | None, float]], typed: str, english: str
    ) -> bool:
        """Whether an English term of a bridge is an English query's word as typed, already
        searched in the English texts, its own language's: without --lang an English query's
        words also cross the French and Spanish bridges, and "controls" came back as "control"
        (contrôle), counted twice. (A French query's "Commander", searched as typed in the
        English texts for half as much as through its bridge, is searched both ways.)"""
        if self.context.lang != "en":
            return False
        if not any(name == text_field("en") and text is None for name, text, _ in found):
            return False
        english_terms = query_terms(self.english_analyzer, english)
        return bool(english_terms) and english_terms == query_terms(self.english_analyzer, typed)

    def _phrase_alternatives(self, node: Any) -> Searched | None:
        """What :meth:`_searched` gives of a word of a phrase (:meth:`mark_phrases`): for its
        first word, the phrase in each field searched and its English terms; none for the
        others."""
        phrase = self._phrases.get(id(node))
        if phrase is None:
            return None
        text, terms = phrase
        found: list[tuple[str, str | None, float]] = [
            (fieldname, text, boost) for fieldname, boost in self.fields
        ]
        bridged = tuple(t for t in dict.fromkeys(terms) if t != text.lower())
        found += [(text_field("en"), english, BRIDGED) for english in bridged]
        return tuple(found), (text, bridged), text

    def _common(self, word: str, bridged: Sequence[str]) -> bool:
        """Whether a word, in any field it is searched in, is too common to search on its own.

        A phrase ("troll à deux têtes", two-headed giant) is as rare as its rarest word: it is
        too common only when each of its words is ("two" is everywhere, "giant" is not).
        """
        assert self.context.too_common is not None
        checks = [(fieldname, word) for fieldname, _ in self.fields]
        checks += [(text_field("en"), english) for english in bridged]
        for fieldname, text in checks:
            terms = analyze(self.schema[fieldname].analyzer, text)
            if terms and all(self.context.too_common(fieldname, term) for term in terms):
                return True
        return False

    def _copy(self, node: Any, fieldname: str, boost: float) -> Any:
        new = copy.copy(node)
        new.set_fieldname(fieldname, override=True)
        new.set_boost(boost * (node.boost or 1.0))
        if self.context.fuzzy and isinstance(new, syntax.WordNode) and fieldname != "number":
            return FuzzyTermPlugin.FuzzyTermNode(new, FUZZY_DISTANCE, FUZZY_PREFIX)
        return new

    def _english(self, node: Any, english: str, fieldname: str, boost: float) -> Any:
        words = english.replace("-", " ").split()
        if len(words) == 1:
            new = syntax.WordNode(words[0])
        else:
            new = PhrasePlugin.PhraseNode(" ".join(words), node.startchar, slop=1)
        new.startchar, new.endchar = node.startchar, node.endchar
        return self._copy(new, fieldname, boost)


RELAXED_SCALE = 0.9  # any word, with a bonus for each further word matched
RELAXED = OrGroup.factory(RELAXED_SCALE)
"""The relaxed grouping: any word matches, each further word matched adds to the score."""


def make_parser(schema: Any, context: QueryContext, *, relaxed: bool = False) -> Any:
    """A parser for one request: AND between words (OR with a bonus for more when relaxed)."""
    group = RELAXED if relaxed else AndGroup
    parser = QueryParser(None, schema, group=group)
    # '+word'/'-word' only at the start of a word, so 2026-01-16 and Ring-bearer stay whole.
    parser.add_plugin(PlusMinusPlugin(r"(?:(?<=^)|(?<=[\s(]))\+", r"(?:(?<=^)|(?<=[\s(]))-"))
    parser.add_plugin(AliasPlugin())
    parser.add_plugin(FilterValuesPlugin(context))
    parser.add_plugin(LanguagePlugin(context, schema))
    return parser


# A plus or minus sign before a digit, as in "+1/+1 counter", "-1/-1", "gets +2/+0" or a
# loyalty ability's "-3", is the number's sign, not the operator of a required or excluded word:
# "a +1/+1 counter and a -1/-1 counter" excluded every text holding a 1. The texts are indexed
# without signs ("+1/+1" is "1 1"), so the word is searched as the number.
_SIGN = re.compile(r"(?<![\w+\-\"/])[+-]+(?=\d)")
_MODIFIER = re.compile(rf"(?<![\w\"])({MODIFIER_PATTERN})(?![\w\"])")


# A word made of wildcards and marks only ("*", "*/*", "?"): what a player types for a variable
# power or toughness ("a creature with * power", "*/*"), not a wildcard, which needs letters to
# expand from. Whoosh reads a lone "*" as every word of the field: "power * toughness" matched
# every text, and reading every word's postings took seconds before the time budget's first look.
_BARE_WILDCARD = re.compile(r"(?<!\S)[^\w\s\"]*[*?][^\w\s\"]*(?!\S)")


def without_bare_wildcards(text: str) -> str:
    """The query without its words made of wildcards and marks only (:data:`_BARE_WILDCARD`);
    a phrase in quotes is left alone (its "*" is no operator there)."""
    if '"' in text:
        return text
    return " ".join(_BARE_WILDCARD.sub(" ", text).split())


def signs_as_numbers(text: str) -> str:
    """A query whose signs of numbers are no operators of required and excluded words ("-word"
    still excludes a word): a power/toughness modifier ("+1/+1", "-1/-1") is one word, as the
    texts index it (a phrase of one term), and the sign of another number is left out."""
    if '"' in text:  # a phrase's words are no operators; its modifiers are analysed as indexed
        return text
    return _SIGN.sub("", _MODIFIER.sub(r'"\1"', text))


def parse_words(schema: Any, text: str, context: QueryContext, *, relaxed: bool = False) -> Any:
    """Parse a query string with the query parser (operators, filters, phrases, fuzziness); a
    sign before a number is no operator (:func:`signs_as_numbers`)."""
    text = signs_as_numbers(text)
    parsed = make_parser(schema, context, relaxed=relaxed).parse(text, normalize=False)
    error = _first_error(parsed)
    if error is not None:
        raise QueryError(f"cannot read {text!r}: {error}")
    if "*" in context.filters.get("edition", ()):
        parsed = _drop_edition_all(parsed)
    return parsed.normalize()


def _first_error(q: Any) -> str | None:
    error = getattr(q, "error", None)
    if error is not None:
        return str(error)
    for child in q.children():
        found = _first_error(child)
        if found is not None:
            return found
    return None


def _drop_edition_all(q: Any) -> Any:
    """``edition:all`` is not a term: it only turns the default (newest edition) off.

    Among words it is dropped (an ``Every`` there would make Whoosh match every document, in
    an AND as in an OR); on its own it matches everything.
    """
    if _is_edition_all(q):
        return wq.Every()
    if hasattr(q, "subqueries"):
        q.subqueries = [
            wq.NullQuery if _is_edition_all(s) else _drop_edition_all(s) for s in q.subqueries
        ]
    elif hasattr(q, "child"):
        q.child = _drop_edition_all(q.child)
    return q


def _is_edition_all(q: Any) -> bool:
    return isinstance(q, wq.Term) and q.fieldname == "edition" and q.text == "*"


def default_filter(context: QueryContext, types: list[str] | None) -> Any:
    """What every search is restricted to: the types asked for, the newest edition unless told."""
    parts = []
    if types:
        parts.append(wq.Or([wq.Term("type", t) for t in types]))
    if "edition" not in context.filters and context.newest:
        parts.append(wq.Or([wq.Term("edition", context.newest), wq.Term("bound", "none")]))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else wq.And(parts)


def check_types(value: str | None) -> list[str] | None:
    """The ``--type``/``type=`` parameter: comma-separated types, normalised and checked."""
    if not value:
        return None
    types = []
    for part in value.split(","):
        name = TYPE_ALIASES.get(part.strip().lower(), part.strip().lower())
        if name not in TYPES:
            raise QueryError(f"unknown type {part.strip()!r} (use one of {', '.join(TYPES)})")
        if name not in types:
            types.append(name)
    return types


def check_language(value: str | None, default: str) -> str:
    """The ``--lang``/``lang=`` parameter, checked."""
    try:
        return check_lang(value or default)
    except ValueError as exc:
        raise QueryError(str(exc)) from None

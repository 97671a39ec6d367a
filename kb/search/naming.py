"""A query that names a rule: that rule first, then its subrules, then its glossary entry.

BM25 prefers short texts, so for "deathtouch" the subrules 702.2a–f (a line each, all saying
"deathtouch") outrank 702.2 itself, whose text is only its title. A judge who types a rule's
title, keyword or glossary term wants the rule. A hit *names* the query when its title's terms
are those of the query's words (each word in the languages it was searched in, the term bridge
included): "ring tempts you" names 701.54 "The Ring Tempts You", "contact mortel" names 702.2.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from kb.search.analysis import analyze
from kb.search.editions import newest_edition
from kb.search.lang import fold_word, search_language
from kb.search.query import LanguagePlugin, QueryContext, WordMemo
from kb.search.questions import OPERATORS
from kb.search.schema import text_field

DEPTH = 20  # first-pass hits looked at for the named rule
_LETTERS = re.compile(r"[^\W_]+", re.UNICODE)
_WORD = re.compile(r"[^\W_][\w'’.-]*", re.UNICODE)
_SEE = re.compile(r"\bSee (?:rules?|section)\b")
_QUOTED = re.compile(r"[“\"]([^”\"]{1,60})[”\"]")
TYPED = "typed:"  # word_terms' key of the terms of the word as typed, beside all its terms


def word_terms(
    schema: Any, text: str, context: QueryContext, memo: WordMemo | None = None
) -> list[dict[str, set[str]]]:
    """Per query word (stop words left out): the index terms it was searched as, per field
    (and under ``TYPED + field`` those of the word as typed, the bridge's left out);
    ``memo``: what the search worked out of its words already (:class:`WordMemo`)."""
    from whoosh.qparser import syntax

    scratch = QueryContext(
        lang=context.lang, editions=context.editions, any_language=context.any_language
    )
    plugin = LanguagePlugin(scratch, schema, memo)
    nodes = [
        syntax.WordNode(token)
        for token in text.split()
        if ":" not in token and _WORD.fullmatch(token) and token not in OPERATORS
    ]
    # A phrase of the bridge ("mal d'invocation", summoning sickness) is one word, as searched.
    plugin.mark_phrases(nodes)
    found = []
    for node in nodes:
        token = node.text
        alternatives = plugin.alternatives(node)
        if not alternatives:
            continue
        terms: dict[str, set[str]] = {}
        for fieldname, english, _boost in alternatives:
            if fieldname == "number":
                continue
            analyzed = analyze(schema[fieldname].analyzer, english or token)
            terms.setdefault(fieldname, set()).update(analyzed)
            if english is None:  # the word itself, not a term the bridge led to
                terms.setdefault(TYPED + fieldname, set()).update(analyzed)
        found.append(terms)
    return found


def english_terms(
    schema: Any, text: str, context: QueryContext, words: list[dict[str, set[str]]] | None = None
) -> set[str]:
    """The English index terms a query's words were searched as (the bridge's included);
    ``words``: :func:`word_terms` of them, when the caller has it."""
    english = text_field("en")
    if words is None:
        words = word_terms(schema, text, context)
    return {term for word in words for term in word.get(english, ())}


def names(schema: Any, hit: Any, words: list[dict[str, set[str]]], lang: str) -> bool:
    """Whether a hit's title (in any of its languages) is what the query's words say."""
    return naming_words(schema, hit, words, lang)[0] > 0


def naming_words(
    schema: Any, hit: Any, words: list[dict[str, set[str]]], lang: str, query: str = ""
) -> tuple[int, bool, int, int, bool]:
    """How well a hit's title names the query's words, the best of its languages' titles: 0 not
    at all, 1 with a word to spare, 2 with one more title word, 3 exactly; then whether the title
    is the query's words as typed (``query``; accents and case aside); then how many of the
    words the title holds as typed (not through the bridge); then how many of the title's terms
    the words hold; then whether that title is in the query's language (``lang``, given or
    detected).

    A title names the words when every one of its terms is one of theirs and it holds each word
    (but one, for a French or Spanish query of several words crossing the bridge), or when it
    holds every word of a query of several and one word more ("triggered abilities" names 603
    "Handling Triggered Abilities", "two-headed giant" 810 "Two-Headed Giant Variant"). The
    degree tells such titles apart: "double initiative" names 702.7 (French "Initiative", a
    word to spare) and 702.4 "Double Strike" (exactly); the latter is the rule meant. When the
    bridge makes two titles exact ("double" leads to "double strike", whose "strike" is also
    first strike's), the one holding the words as typed ("double") is meant, then the one holding
    more of them (French "double initiative", one learned keyword term, names "Double Strike"
    and, by its French title, 702.7 "Initiative"). When two titles name the words alike, the
    one in the query's language is meant. A title that is the words as typed comes before one
    that only stems alike: "enchantments" is 303 "Enchantments", not 702.5 "Enchant"; "counter"
    701.6 "Counter", not 122 "Counters": without ``--lang``, words
    are searched in every language's texts, and "the initiative" (English) names 725 "The
    Initiative" and, through its French title "Initiative", 702.7 first strike.
    """
    if not words:
        return (0, False, 0, 0, False)
    # Bridged words are looser than words of the title's own language: a French or Spanish
    # query of several words may keep one word the English title does not have ("lien de vie").
    spare = 1 if lang != "en" and len(words) >= 2 else 0
    texts = hit.fields()["data"].get("texts", {})
    # A title in a language none of the words was searched in holds none of them: it cannot
    # name them, and is not analysed.
    searched = {fieldname for w in words for fieldname, terms in w.items() if terms}
    best = (0, False, 0, 0, False)
    typed_words = _as_typed(query)
    bridged_words = _bridged_as_typed(query, lang)
    for code, text in texts.items():
        fieldname = text_field(code)
        if not text.get("title") or fieldname not in searched:
            continue
        for title in _names_of(hit, str(text["title"])):
            title_terms = set(analyze(schema[fieldname].analyzer, title))
            if not title_terms:
                continue
            covered = set().union(*(w.get(fieldname, set()) for w in words))
            missing = [w for w in words if not w.get(fieldname, set()) & title_terms]
            hitting = len(words) - len(missing)
            typed = sum(1 for w in words if w.get(TYPED + fieldname, set()) & title_terms)
            extra = len(title_terms - covered)
            held = len(title_terms & covered)
            same = _as_typed(title) in (typed_words, bridged_words)
            # the kind of object a term is said of, left over ("modal spells" names "Modal")
            kind = len(missing) == 1 and bool(
                missing[0].get(fieldname, set()) & _kinds(schema, fieldname)
            )
            if extra == 0 and hitting == len(words):
                best = max(best, (3, same, typed, held, code == lang))
            elif extra == 1 and hitting == len(words) and len(covered & title_terms) >= 2:
                best = max(best, (2, same, typed, held, code == lang))
            elif extra == 0 and (hitting >= len(words) - spare or kind):
                best = max(best, (1, same, typed, held, code == lang))
    return best


# The kinds of object a term is said of: "modal spells", "kicked spells", "mana abilities".
_KIND_WORDS = ("spell", "spells", "ability", "abilities", "card", "cards")


_KIND_TERMS: dict[str, frozenset[str]] = {}


def _kinds(schema: Any, fieldname: str) -> frozenset[str]:
    """The index terms of :data:`_KIND_WORDS` in a text field (the English words: the bridge
    leads French and Spanish ones to them); the field's analyzer is the same in every index."""
    found = _KIND_TERMS.get(fieldname)
    if found is None:
        analyzer = schema[fieldname].analyzer
        found = frozenset(t for word in _KIND_WORDS for t in analyze(analyzer, word))
        _KIND_TERMS[fieldname] = found
    return found


def _names_of(hit: Any, title: str) -> tuple[str, ...]:
    """A title, and for a glossary entry naming several terms ("Modal, Mode", "Kicker,
    Kicked", "Life, Life Total") each of them too."""
    if ", " in title and hit.get("type") == "glossary":
        return (title, *title.split(", "))
    return (title,)


@lru_cache(maxsize=1024)
def _bridged_as_typed(query: str, lang: str) -> tuple[str, ...] | None:
    """A French or Spanish query's words as the bridge writes them in English, when each leads
    to one English word ("contrarrestar" -> ("counter",)): the title those words are, as typed,
    is the one meant, as for an English query ("contrarrestar" names 701.6 "Counter", not 122
    "Counters", which stems alike). None for English, or a word leading to none or to several."""
    if not query or lang in ("en", None):
        return None
    to_english = search_language(lang).to_english
    english: list[str] = []
    for word in _LETTERS.findall(query):
        found = to_english.get(word.casefold())
        if found is None or len(found) != 1 or " " in found[0]:
            return None
        english.append(fold_word(found[0]))
    return tuple(english) or None


@lru_cache(maxsize=8192)
def _as_typed(text: str) -> tuple[str, ...]:
    """A title's or a query's words as typed, folded ("Enchantments" and "enchantments" alike;
    "enchant", stemmed the same, not)."""
    return tuple(fold_word(word) for word in _LETTERS.findall(text))


def promote_named(schema: Any, hits: list[Any], text: str, context: QueryContext) -> list[Any]:
    """The hits with the rule the words name first, its subrules next, then its glossary entry.

    The named rule is the rule whose title names the most of the words (the first such hit on a
    tie). When no rule title names them as well as a glossary term does, the rule that glossary
    entry sends to ("Timestamp Order … See rule 613.7") is the named one, if it was found.
    """
    lead = named_lead(schema, hits, text, context)
    if not lead:
        return hits
    chosen = {id(h) for h in lead}
    return lead + [h for h in hits if id(h) not in chosen]


def stored_type(hit: Any) -> str:
    """A hit's type, from its stored fields."""
    return str(hit["type"])


def named_lead(
    schema: Any,
    hits: list[Any],
    text: str,
    context: QueryContext,
    kind_of: Callable[[Any], str] = stored_type,
    words: list[dict[str, set[str]]] | None = None,
    fetch: Callable[[str, Any], Any | None] | None = None,
) -> list[Any]:
    """The rule the words name, its subrules and glossary entries among the hits, in the order
    :func:`promote_named` puts them first; empty when no rule is named.

    ``kind_of``: a hit's type (a searcher reads it from the type column, so that the cards and
    rulings among the hits are not unpickled for it); ``words``: :func:`word_terms` of the
    text, when the caller has it; ``fetch``: the rule numbered so (in the glossary entry's
    edition), for a glossary entry that names the words better than any rule among the hits
    and sends to a rule that is not among them ("mana": 106 "Mana" is indexed with the text of
    all its subrules, and BM25 puts fifty of them before it; the glossary's "Mana" says "See
    rule 106").
    """
    if words is None:
        words = word_terms(schema, text, context)
    if not words:
        return []
    named, named_words = None, (0, False, 0, 0, False)
    glossary: list[Any] = []
    sends: list[str] = []  # the rules the entry naming the words best sends to, in order
    sent_words, sender = (0, False, 0, 0, False), None
    for hit in hits:
        kind = kind_of(hit)
        if kind not in ("rule", "glossary"):
            continue
        count = naming_words(schema, hit, words, context.lang, text)
        if not count[0]:
            continue
        if kind == "glossary":
            glossary.append(hit)
            see = hit.fields()["data"].get("see") or []
            if see and count > sent_words:
                sends, sent_words, sender = see, count, hit
        elif count > named_words:
            named, named_words = hit, count
    # An entry sending to several rules ("Triggered Ability ... See rule 113, "Abilities," and
    # section 603, "Handling Triggered Abilities"") sends to the one of them whose own title
    # names the words, when one does: the entry's first is the general one.
    named_sent = named is not None and named.get("number") in sends
    sent_to = sends[0] if sends and not named_sent else None
    defined_by = None  # the glossary entry the named rule was found through, if it was
    if sent_to is not None and sent_words > named_words:
        rule = next((h for h in hits if kind_of(h) == "rule" and h.get("number") == sent_to), None)
        if rule is None and fetch is not None:
            rule = fetch(sent_to, sender)
        if rule is not None:
            named, defined_by = rule, sender
    elif named_sent and sent_words > named_words:
        defined_by = sender  # the entry names the words better than the rule's own title
    if named is None:
        return []
    number = named.get("number") or ""

    def is_subrule(hit: Any) -> bool:
        if kind_of(hit) != "rule":
            return False
        other = hit.get("number") or ""
        return (
            other.startswith(number)
            and len(other) > len(number)
            and (other[len(number)].isalpha() or other[len(number)] == ".")
            and newest_edition(named) in str(hit.get("edition") or "").split()
        )

    subrules = [h for h in hits if h is not named and is_subrule(h)]
    # An entry sending to a rule without a title of its own ("Hybrid Mana Symbols: A mana symbol
    # that represents a cost that can be paid in one of two ways. See rule 107.4", which lists
    # every kind of mana symbol) names the subrule that opens with its term and says what its
    # definition says better than that rule does ("107.4e A hybrid mana symbol is also a colored
    # mana symbol. Each one represents a cost that can be paid in one of two ways"): that subrule
    # first. ("Color Identity … See rule 903.4": 903.4 says what it is, 903.4a only opens with
    # it.)
    # So does an entry sending to a whole section whose title holds only some of its words
    # ("Additional Cost … See rule 118, "Costs"": 118.8 "Some spells and abilities have additional
    # costs. An additional cost is a cost listed in a spell's rules text …"), to the rule that
    # says what the term is, or that brings it in quoted ("Vehicle … See rule 301, "Artifacts"":
    # 301.7 "Some artifacts have the subtype “Vehicle.”"); when none does, to the one holding the
    # term that restates the definition best ("Poison Counter … See rule 122, "Counters"": 122.1f
    # "If a player has ten or more poison counters …"; "Copiable Values … See rules 613.2":
    # 613.2c "the object's characteristics are its copiable values"). An entry sending to a rule
    # ("Ring-bearer … See rule 701.54") names that rule, first, whatever its title.
    term = _as_typed(str(defined_by.fields()["data"].get("term") or "")) if defined_by else ()
    broad = not _own_title(named) or ("." not in number and not _title_holds(named, term))
    # a rule without a title of its own that opens saying what the term is ("108.3. The owner of
    # a card in the game is the player who …", the entry "Owner … See rules 108.3") is meant
    broad = broad and not _opens_with(named, term)
    if defined_by is not None and broad:
        data = defined_by.fields()["data"]
        said = _definition_terms(schema, data)
        opening = [
            h
            for h in subrules
            if _opens_with(h, term) or _says_what(h, term) or _quotes_term(h, term)
        ] or [h for h in subrules if _holds_term(h, term)]
        # of several, the one restating the definition best, then the one saying what the term
        # is ("118.8 … An additional cost is …", not "118.8d Additional costs don't change a
        # spell's mana cost")
        rank = {id(h): (_restates(schema, h, said), _says_what(h, term)) for h in opening}
        best = max(rank.values(), default=(0, False))
        lead = [h for h in opening if rank[id(h)] == best]
        if len(lead) == 1 and best[0] > _restates(schema, named, said):
            return [lead[0], named, *(h for h in subrules if h is not lead[0]), *glossary]
    # Words as typed that say more than the rule's title ("hexproof from": 702.11 "Hexproof")
    # and open a variant subrules quote: the first of them in the rules' order, which brings it
    # in ("702.11d “Hexproof from [quality]” is a variant of the hexproof ability"; 702.11e-g
    # quote it again), first.
    typed = _as_typed(text)
    if _own_title(named) and len(typed) > len(_as_typed(_english(named.fields()["data"], "title"))):
        quoting = [h for h in subrules if _quote_opens_with(h, typed)]
        if quoting:
            lead = min(quoting, key=lambda h: (len(h.get("number") or ""), h.get("number") or ""))
            return [lead, named, *(h for h in subrules if h is not lead), *glossary]
    return [named, *subrules, *glossary]


def _quote_opens_with(hit: Any, words: tuple[str, ...]) -> bool:
    """Whether a rule's English text brings in between quotation marks a phrase opening with
    the words ("“Hexproof from [quality]”" opens with "hexproof from")."""
    text = _english(hit.fields()["data"], "text")
    return any(
        _same_words(_as_typed(quoted)[: len(words)], words) for quoted in _QUOTED.findall(text)
    )


def _definition_terms(schema: Any, data: dict[str, Any]) -> set[str]:
    """The English index terms of a glossary entry's definition, its citations left out."""
    text = _english(data, "text")
    return set(analyze(schema[text_field("en")].analyzer, _SEE.split(text)[0]))


def _restates(schema: Any, hit: Any, said: set[str]) -> int:
    """How many of a definition's terms a rule's English text holds."""
    text = _english(hit.fields()["data"], "text")
    return len(said & set(analyze(schema[text_field("en")].analyzer, text)))


def _own_title(hit: Any) -> bool:
    """Whether a rule has a title of its own (701.54 "The Ring Tempts You"), not only its
    section's (107.4, under 107 "Numbers and Symbols")."""
    texts = hit.fields()["data"].get("texts", {})
    return any((text or {}).get("title") for text in texts.values())


def _title_holds(hit: Any, term: tuple[str, ...]) -> bool:
    """Whether a rule's own English title holds every word of a term (a plural "s" aside); a
    rule without a title of its own holds none."""
    if not _own_title(hit):
        return False
    words = {w.removesuffix("s") for w in _as_typed(_english(hit.fields()["data"], "title"))}
    return all(w.removesuffix("s") in words for w in term)


def _says_what(hit: Any, term: tuple[str, ...]) -> bool:
    """Whether a rule's English text says what a term is ("An additional cost is a cost …")."""
    if not term:
        return False
    text = _english(hit.fields()["data"], "text")
    words = _as_typed(text)
    size = len(term)
    for k in range(1, len(words) - size - 1):
        if (
            words[k - 1] in ("a", "an")
            and words[k + size] == "is"
            and words[k + size + 1] in _WHAT_IT_IS
            and _same_words(words[k : k + size], term)
        ):
            return True
    return False


# What follows "An X is" where a rule says what X is ("An additional cost is a cost …"), not
# what happens to one ("an additional cost is imposed").
_WHAT_IT_IS = frozenset({"a", "an", "the", "any", "also", "one", "each"})


def _quotes_term(hit: Any, term: tuple[str, ...]) -> bool:
    """Whether a rule's English text brings a term in between quotation marks ("Some artifacts
    have the subtype “Vehicle.”", "This is called the “world rule.”")."""
    if not term:
        return False
    text = _english(hit.fields()["data"], "text")
    return any(_same_words(_as_typed(quoted), term) for quoted in _QUOTED.findall(text))


def _holds_term(hit: Any, term: tuple[str, ...]) -> bool:
    """Whether a rule's English text holds a term's words in a row (a plural "s" aside)."""
    if not term:
        return False
    words = _as_typed(_english(hit.fields()["data"], "text"))
    size = len(term)
    return any(_same_words(words[k : k + size], term) for k in range(len(words) - size + 1))


def _opens_with(hit: Any, term: tuple[str, ...]) -> bool:
    """Whether a rule's English text opens with a term's words (an article and a plural "s"
    aside)."""
    if not term:
        return False
    text = _english(hit.fields()["data"], "text")
    words = _as_typed(text)
    if words[:1] in (("a",), ("an",), ("the",)):  # "A hybrid mana symbol is …"
        words = words[1:]
    return _same_words(words[: len(term)], term)


def _same_words(words: tuple[str, ...], term: tuple[str, ...]) -> bool:
    """Whether two runs of words are the same words, a plural "s" aside."""
    return len(words) == len(term) and all(
        a.removesuffix("s") == b.removesuffix("s") for a, b in zip(words, term, strict=True)
    )


def _english(data: dict[str, Any], part: str) -> str:
    """A stored hit's English ``title`` or ``text`` ("" when it has none)."""
    return str((data.get("texts", {}).get("en") or {}).get(part) or "")

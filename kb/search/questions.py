"""Questions as judges ask them, reduced to the words worth searching.

"what happens if two players tie a vote", "que se passe-t-il si…", "¿qué pasa si…?": the words
that frame a question (each search language's ``question_words``) say nothing of the answer,
and the question marks are not wildcards.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kb.search.lang import fold_word, search_language
from kb.search.schema import text_field

# The query parser's operators, written in capitals: no words of a question. Other words in
# capitals are words ("APNAP order", "ETB").
OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "TO"})

_QUESTION_EDGES = "¿¡"
# The subject pronouns a French question puts after its verb ("peut-il", "assigne-t-il",
# "utilisent-elles", "peut-on").
INVERTED_SUBJECTS = frozenset("je tu il elle on nous vous ils elles t".split())
ENGLISH_FIELD = text_field("en")  # where the question's English index terms are held
_TEXTS = frozenset(text_field(code) for code in ("en", "fr", "es"))
_WORD_END = "!,;:"


def drop_question_words(text: str, langs: tuple[str, ...]) -> str:
    """A question as a judge asks it, reduced to its words: ``¿``/``?`` and the words that frame
    it ("what happens if", "que se passe-t-il si", "qué pasa si") left out, if others remain.

    A final ``?`` after three words or more is a question mark, not a wildcard. Phrases in
    quotes are left alone, as is a query made of question words only.
    """
    if '"' in text:
        return text
    tokens = text.split()
    if len(tokens) >= 3 and tokens[-1].endswith("?"):
        tokens[-1] = tokens[-1].rstrip("?")
    framing: set[str] = set()
    stop: set[str] = set()
    for code in langs:
        framing |= search_language(code).folded_question_words
        stop |= search_language(code).folded_stopwords
    kept, cleaned = [], []
    for token in tokens:
        if ":" in token or token in OPERATORS:
            kept.append(token)
            cleaned.append(token)
            continue
        word = token.lstrip(_QUESTION_EDGES).rstrip(_WORD_END)
        if not word:
            continue
        cleaned.append(word)
        parts = [p for p in re.split(r"[-'’]", fold_word(word)) if p]
        # "peut-on", "y a-t-il": question words joined to stop words frame a question too
        framed = any(p in framing for p in parts) and all(p in framing or p in stop for p in parts)
        if not framed:
            kept.append(_without_inversion(word))
    content = [t for t in kept if ":" not in t and t not in OPERATORS]
    return " ".join(kept if content else cleaned)


def _without_inversion(word: str) -> str:
    """A verb of a French question without its inverted subject: "utilisent-elles" ->
    "utilisent", "assigne-t-il" -> "assigne" (the pronoun would make the word a phrase that no
    text holds). Only subject pronouns are cut: "free-for-all" (its "for" and "all" are stop
    words) and "Ring-bearer" are left whole."""
    parts = word.split("-")
    for end in range(1, len(parts)):
        if all(fold_word(part) in INVERTED_SUBJECTS for part in parts[end:]):
            return "-".join(parts[:end])
    return word


def asks(text: str, words: str) -> bool:
    """Whether ``words``, the text :func:`drop_question_words` kept, leave out more than the
    marks that end a word: a question mark or a word framing a question, not the "!" of a
    title ("Start Your Engines!") or a comma."""
    plain = []
    for token in text.split():
        token = token.lstrip("¡").rstrip(_WORD_END)
        if token:
            plain.append(token)
    return words != " ".join(plain)


# A title-only rule ("702.11. Hexproof") is indexed with the text of all its subrules: for a
# question it holds every word any of them holds, and outranks the one subrule that answers
# ("can my opponent target my creature that has hexproof": 702.11b). In a question it counts
# this share of its score. Chosen on the relevance set's dev split.
SECTION_SHARE = 0.6
# A question is about the ordinary game unless it names a variant: a rule of the multiplayer
# rules or the casual variants (chapters 8 and 9: "a team with fifteen or more poison counters
# loses") counts this share of its score when no word of the question is in its section's
# title ("Two-Headed Giant Variant"; "Commander" is named by "commander damage"). Chosen on
# the relevance set's dev split.
VARIANT_SHARE = 0.6
VARIANT_PARTS = ("8", "9")
# A question that names a variant is about it: that variant's own rules count this many times
# their score, before a rule elsewhere that mentions the variant in passing (704.6c, a state-
# based action "in a Commander game", beside 903.10a of the Commander rules, the same words).
# Chosen on the relevance set's dev split (1.05 to 1.67 rank it the same).
NAMED_VARIANT = 1.1
# A question that names a variant asks how the game goes in it: a rule of the ordinary game
# that does not say the variant's name counts this share of its score, after one that does
# ("103.4c In a Commander game, each player's starting life total is 40" before 103.4, the
# ordinary game's 20, for the life of each player when a Commander game begins), and it does
# not come before its subrules as a rule stating theirs (PARENT_SHARE). Chosen on the relevance
# set's dev2 split (0.7 to 0.9 rank it the same; 0.95 too little).
UNNAMED_SHARE = 0.9
# Sibling rules of a question's answers (702.11b, c and d; 121.3, 121.4 and 121.5) scoring at
# least this share of the best of them are equally good answers: they go in the rules' order.
# The rules state a rule first, then its exceptions and details, in lines of their own; BM25
# prefers the shorter line, so an exception ("Hexproof from [quality]") outranked the rule it
# qualifies ("Hexproof on a permanent means..."). Chosen on the relevance set's dev split (any
# share from 0.82 to 0.87 gives it the same hits in the first five; 0.88 and up fewer).
SIBLING_SHARE = 0.85
# Subrules of one rule's rules (605.3b, of 605.3 "Activating an activated mana ability", and
# 605.4a, of 605.4 "Triggered mana abilities") scoring at least this share of the best of them
# go in the rules' order too: the rules state the general case before the particular one, and
# often in the same words ("...doesn't go on the stack, so it can't be... responded to"), where
# BM25 preferred the line holding a word of the question twice. Chosen on the relevance set's
# dev2 split (0.9 to 0.97 rank it the same; 0.85 costs a French question).
COUSIN_SHARE = 0.95
# A judge's question is most often "what happens if…" a state holds (a creature with toughness
# 0, a library with no cards to draw, a planeswalker with no loyalty), and the rules answer it in
# the state-based actions: "704.5f If a creature has toughness 0 or less, it's put into its
# owner's graveyard". Those lines are short and hold one word of the question each, and BM25
# ranked rules holding its words more often first ("To double a creature's power…"). In a
# question they count this many times their score. Chosen on the relevance set's dev and dev2
# splits (1.1 moves little; 1.2 and 1.3 the same at the whole history, none costs a query), and
# raised to 1.3 with COVERAGE, which lifts the longer lines holding more of a question's words
# (1.3 gains on dev and dev2 at both scales, dev3 the same; 1.4 costs dev3 a little).
STATE_BASED = 1.3
STATE_BASED_RULES = "704.5"
# A question that names a keyword action or ability ("can I sacrifice…", "une créature avec
# défenseur peut-elle attaquer", "a tie in a vote") is most often about that keyword's rules
# (701.21a "To sacrifice a permanent…", 702.3b "A creature with defender can't attack"), yet a
# rule elsewhere holding the question's other words more often came first (508.7c, "an
# opponent of the attacking creature's controller" three times). A rule of a keyword's section
# (KEYWORD_PARTS) whose title is a distinctive word of the question counts this many times its
# score. Chosen on the relevance set's dev and dev2 splits (1.05 gains on both and costs no
# query; 1.1 puts 701.18a "Play" before 305.2 for "how many lands can I play each turn").
NAMED_KEYWORD = 1.05
KEYWORD_PARTS = ("701.", "702.")
# A rule with a text of its own states the rule; its subrules give the details and exceptions
# ("305.2 A player can normally play one land during their turn" before 305.2a and 305.2b). BM25
# prefers the subrules' shorter lines, and one that scored above its parent outranked the rule
# the question asks for ("how many lands can I play each turn"). A parent scoring at least this
# share of the best of its subrules ranked above it goes in the place of the first of them.
# A rule that introduces a list of its subrules ("903.5 Each Commander deck is subject to the
# following deck construction rules", "704.5 The state-based actions are as follows:") states
# none of them itself and keeps its place. Chosen on the relevance set's dev2 split (0.83 is
# the share of the question that showed it).
PARENT_SHARE = 0.8
# The answer to a question holds most of its words: "103.5 Each player draws a number of cards
# equal to their starting hand size" (under "Starting the Game") holds all five of "how many
# cards does each player draw at the start of the game". BM25 adds up each word's weight, and
# Whoosh's coordination bonus (RELAXED_SCALE) adds a few hundredths per further word to scores
# of 10 to 25, so a short line holding three of the words ("402.1 The hand is where a player
# holds cards that have been drawn") outranked it. In a question a rule counts
# 1 + COVERAGE * share ** 2 times its score, ``share`` being the share of the question's words
# it holds in English (its text, its title and the title above it). A word counts once, whichever
# of the English terms it was searched as the rule holds: French "début" and Spanish "empezar"
# are searched as "begin" and "start", and a rule saying "starting hand size" holds the word.
# Chosen on the relevance set's dev, dev2 and dev3 splits (0.5 to 2 gain on dev and dev3 and
# cost dev2 under 0.01; weighting the words by their rarity gains less; counting the words, not
# their terms, gains on dev3 and costs nothing).
COVERAGE = 1.0
# A long rule answers a question in one of its sentences: "Other effects ..., status, counters,
# and stickers are not copied" (707.2) for "does a copy of a creature get the +1/+1 counters",
# "...chooses one to apply" (616.1) for who chooses the replacement effect applied first. The
# share COVERAGE counts is the whole rule's, and a long rule holds a question's words in
# different sentences as often as in one (514.1's "turn" is in "This turn-based action doesn't
# use the stack"). The share counted is this much the share of the words its best sentence holds
# (with the rule's title and the title above it) and the rest the whole rule's. Chosen on the
# relevance set's dev to dev6 splits: 0.3 gains on dev3, dev5 and dev6 at both scales and moves
# one dev2 question at the whole history from fifth to eighth; 0.4 and up cost dev; windows of
# two or three sentences gain less.
NEAR = 0.3
# A glossary entry among a question's answers says where the rules state its term ("Starting
# Hand Size ... See rule 103.5"; "Vote ... See rule 701.38"): that rule and its subrules count
# this many times their score. A longer line holding more of the question's words ("402.1 The
# hand is where a player holds cards that have been drawn", beside "starting hand size" in
# 103.5) otherwise came first. Only a rule numbered below its section is sent to so: "See rule
# 606" names a whole section of rules, not one. Chosen on the relevance set's dev, dev2 and
# dev3 splits (1.15 to 1.4 gain on dev and dev3 and change nothing on dev2).
GLOSSARY_SENDS = 1.2
# A translated rule holds a French or Spanish question's words twice, in its translation and in
# its English original, and each field's match counts: its score is some 1.7 times an English
# rule's holding the same words (own language 1.0 plus the bridge's 0.7). A rule whose words
# matched in more than one language's text counts this share of its score, about 1 / 1.7 (on
# the dev splits: 0.8, 0.6 and 0.45 gain alike, 0.6 most; no split loses).
TRANSLATED_SHARE = 0.6
_INTRODUCES_LIST = re.compile(r"\bfollowing\b|\bas follows\b|:\s*$", re.IGNORECASE)


def question_order(
    hits: list[Any],
    limit: int,
    terms: set[str],
    analyzer: Any,
    kind_of: Callable[[Any], str] | None = None,
    distinctive: Callable[[str], bool] | None = None,
    words: list[set[str]] | None = None,
) -> list[Any]:
    """The best ``limit`` answers to a question: rules holding more of its words count more
    (COVERAGE), the more so in one sentence (NEAR), title-only rules count SECTION_SHARE of their
    score (their subrules' text is theirs to be found, not to outrank them), state-based actions
    STATE_BASED times theirs, a rule matched in its translation and its English original too
    TRANSLATED_SHARE, the rules its glossary entries send to GLOSSARY_SENDS, rules of a
    keyword the question names NAMED_KEYWORD, rules of a
    variant the question does not name VARIANT_SHARE, of one it names NAMED_VARIANT (and the
    ordinary game's rules that do not say its name UNNAMED_SHARE); sibling rules
    about as good as the best of them go in the rules' order (:func:`in_rule_order`).
    ``terms``: the question's English index terms, ``words`` the English terms of each of its
    words (each term a word of its own by default), ``analyzer`` the English one; ``kind_of`` a
    hit's type (its stored one by default); ``distinctive`` whether an English term is rare
    enough to name a variant (every term is, by default)."""
    rules = []
    named: set[str] = set()  # the words of the question that name a variant
    sent = _sent_to(hits, kind_of)
    counted = [w for w in words if w] if words is not None else [{t} for t in terms]
    analysed = _Analysed(analyzer)  # hits share their sections' titles: each analysed once
    sections: set[int] = set()  # the title-only rules
    variants: dict[int, set[str] | bool | None] = {}
    for hit in hits:
        if _kind(hit, kind_of) != "rule":
            continue
        rules.append(hit)
        held, languages = _matched(hit)
        if languages > 1:
            hit.score *= TRANSLATED_SHARE
        if counted:
            share = sum(1 for word in counted if word & held) / len(counted)
            if share * len(counted) > 1:  # one word held is held by one sentence
                near = _sentence_share(hit, counted, analysed)
                share = (1 - NEAR) * share + NEAR * near
            hit.score *= 1 + COVERAGE * share**2
        if _title_only(hit):
            sections.add(id(hit))
            hit.score *= SECTION_SHARE
        number = str(hit.get("number") or "")
        if _under(number, STATE_BASED_RULES):
            hit.score *= STATE_BASED
        if any(number == rule or _under(number, rule) for rule in sent):
            hit.score *= GLOSSARY_SENDS
        if _names_keyword(hit, terms, analysed, distinctive):
            hit.score *= NAMED_KEYWORD
        variant = variants[id(hit)] = _variant(hit, terms, analysed, distinctive)
        if variant is False:
            hit.score *= VARIANT_SHARE
        elif variant:
            hit.score *= NAMED_VARIANT
            named |= variant
    unnamed: set[int] = set()
    if named:
        for hit in rules:
            if variants[id(hit)] is None and not _holds(hit, named, analysed):
                hit.score *= UNNAMED_SHARE
                unnamed.add(id(hit))
    ranked = sorted(hits, key=lambda h: (-h.score, h.docnum))
    ordered = in_rule_order(ranked, {id(h) for h in rules})
    ordered = in_rule_order(ordered, {id(h) for h in rules}, cousins=True, share=COUSIN_SHARE)
    # A rule that does not say the variant the question names does not state its rule.
    stated = {
        id(h)
        for h in rules
        if id(h) not in sections and id(h) not in unnamed and not _introduces_list(h)
    }
    ordered = parents_before_their_subrules(ordered, stated)
    return sections_after_their_subrules(ordered, sections)[:limit]


def parents_before_their_subrules(ranked: list[Any], parents: set[int]) -> list[Any]:
    """The ranked hits with each rule of ``parents`` (the ``id`` of rules with a text of their
    own) that scores at least PARENT_SHARE of the best of its subrules ranked above it moved to
    the place of the first of them: the rule comes before its details (see PARENT_SHARE)."""
    ordered = list(ranked)
    numbers = {id(h): str(h.get("number") or "") for h in ranked}
    for hit in ranked:
        if id(hit) not in parents:
            continue
        number = numbers[id(hit)]
        place = next(i for i, h in enumerate(ordered) if h is hit)
        above = [i for i in range(place) if _under(numbers[id(ordered[i])], number)]
        if above and hit.score >= PARENT_SHARE * max(ordered[i].score for i in above):
            ordered.insert(above[0], ordered.pop(place))
    return ordered


def sections_after_their_subrules(ranked: list[Any], sections: set[int]) -> list[Any]:
    """The ranked hits with each title-only section ("702.3. Defender") that comes before a
    subrule of its own among them preceded by the first such subrule, in the section's place.

    A section is indexed with the text of all its subrules: for a question it holds the words
    of each, and it answers none of them; the subrule that holds them does (702.3b, "A creature
    with defender can't attack"). Counted down (SECTION_SHARE), a section whose title is also a
    word of the question in its own language ("Défenseur") still came first.
    ``sections``: the ``id`` of the hits that are title-only rules.
    """
    ordered = list(ranked)
    numbers = {id(h): str(h.get("number") or "") for h in ranked}
    for hit in ranked:
        if id(hit) not in sections:
            continue
        number = numbers[id(hit)]
        place = next(i for i, h in enumerate(ordered) if h is hit)
        below = next(
            (i for i in range(place + 1, len(ordered)) if _under(numbers[id(ordered[i])], number)),
            None,
        )
        if below is not None:
            ordered.insert(place, ordered.pop(below))
    return ordered


def _kind(hit: Any, kind_of: Callable[[Any], str] | None) -> str:
    """A hit's type: ``kind_of``'s, or its stored one."""
    return kind_of(hit) if kind_of is not None else str(hit["type"])


def _sent_to(hits: list[Any], kind_of: Callable[[Any], str] | None) -> set[str]:
    """The rules below their section that the glossary entries among the hits send to."""
    sent: set[str] = set()
    for hit in hits:
        if _kind(hit, kind_of) == "glossary":
            sent.update(n for n in hit.fields()["data"].get("see") or () if "." in str(n))
    return sent


def _introduces_list(hit: Any) -> bool:
    """Whether a rule's English text introduces a list of its subrules (see PARENT_SHARE)."""
    texts = hit.fields()["data"].get("texts", {})
    text = (texts.get("en") or {}).get("text") or ""
    # Only a text saying "follow" or holding a colon can match: the others are not searched.
    return ("ollow" in text.lower() or ":" in text) and bool(_INTRODUCES_LIST.search(text))


def _under(other: str, number: str) -> bool:
    """Whether the rule numbered ``other`` is under ``number`` (702.3b under 702.3; 702.3 under
    702): numbers, not hits, so that a ranking reads each hit's number once."""
    if not number or not other.startswith(number) or len(other) <= len(number):
        return False
    return other[len(number)].isalpha() if "." in number else other[len(number)] == "."


def in_rule_order(
    ranked: list[Any], rules: set[int], *, cousins: bool = False, share: float = SIBLING_SHARE
) -> list[Any]:
    """The ranked hits with each set of sibling rules (one parent: 702.11b, c, d) scoring at
    least ``share`` of the best of them put in the rules' order, in the places they held.

    ``rules``: the ``id`` of the hits that are rules (the others keep their places).
    ``cousins``: the sets are the subrules of one rule's rules (605.3b and 605.4a, subrules of
    605.3 and 605.4, both of 605) instead (see COUSIN_SHARE); not in the keyword chapters
    (KEYWORD_PARTS), whose rules are each a keyword of its own (702.11 Hexproof, 702.19
    Trample).
    """
    from kb.corpus.numbers import is_rule_number, kind_of, parent_of, sort_key

    places: dict[str, list[int]] = {}
    for place, hit in enumerate(ranked):
        number = str(hit.get("number") or "") if id(hit) in rules else ""
        if not is_rule_number(number) or parent_of(number) is None:
            continue
        if not cousins:
            places.setdefault(str(parent_of(number)), []).append(place)
        elif kind_of(number) == "subrule" and not number.startswith(KEYWORD_PARTS):
            places.setdefault(str(parent_of(str(parent_of(number)))), []).append(place)
    ordered = list(ranked)
    for siblings in places.values():
        if len(siblings) < 2:
            continue
        best = max(ranked[place].score for place in siblings)
        close = [place for place in siblings if ranked[place].score >= share * best]
        by_number = sorted(close, key=lambda place: sort_key(str(ranked[place]["number"])))
        for place, taken in zip(close, by_number, strict=True):
            ordered[place] = ranked[taken]
    return ordered


def _title_only(hit: Any) -> bool:
    texts = hit.fields()["data"].get("texts", {})
    return bool(texts) and not any(text.get("text") for text in texts.values())


class _Analysed:
    """The English index terms of the texts one question's ranking looks at, each text analysed
    once (its hits share their sections' titles)."""

    def __init__(self, analyzer: Any) -> None:
        self.analyzer = analyzer
        self._terms: dict[str, set[str]] = {}

    def __call__(self, text: str) -> set[str]:
        found = self._terms.get(text)
        if found is None:
            from kb.search.analysis import term_set

            found = self._terms[text] = term_set(self.analyzer, text)
        return found


def _names_keyword(
    hit: Any,
    terms: set[str],
    analysed: Callable[[str], set[str]],
    distinctive: Callable[[str], bool] | None = None,
) -> bool:
    """Whether a rule of a keyword action or ability (KEYWORD_PARTS) is one the question names:
    a ``distinctive`` word of the question is in its section's English title ("Sacrifice")."""
    if not str(hit.get("number") or "").startswith(KEYWORD_PARTS):
        return False
    section = (hit.fields()["data"].get("context") or {}).get("en") or ""
    shared = analysed(section) & terms
    return any(distinctive is None or distinctive(term) for term in shared)


def _variant(
    hit: Any,
    terms: set[str],
    analysed: Callable[[str], set[str]],
    distinctive: Callable[[str], bool] | None = None,
) -> set[str] | bool | None:
    """Whether a rule of a variant (VARIANT_PARTS) is one the question names, by a word of its
    title or its section's title (the question's words that name it; False when none does);
    None for a rule of the ordinary game.

    Only a ``distinctive`` word names a variant: "attack" does not name the Attack Multiple
    Players Option ("can a creature with defender attack"), nor "two" the Two-Headed Giant
    Variant ("both players lose", "deux joueurs"); words that common are in every chapter."""
    if not str(hit.get("number") or "").startswith(VARIANT_PARTS):
        return None
    data = hit.fields()["data"]
    title = (data.get("texts", {}).get("en") or {}).get("title") or ""
    section = (data.get("context") or {}).get("en") or ""
    shared = analysed(f"{title} {section}") & terms
    return {term for term in shared if distinctive is None or distinctive(term)} or False


def _sentence_share(hit: Any, counted: list[set[str]], analysed: _Analysed) -> float:
    """The share of the question's words (``counted``: each word's English terms) that the
    rule's best sentence holds, with its title and the title above it (see NEAR). The rule's
    ``sentences`` (each English term -> the sentences holding it, a bit mask) are kept with it
    at index time; a hit without them has its text analysed."""
    data = hit.fields()["data"]
    english = data.get("texts", {}).get("en") or {}
    masks = data.get("sentences")
    if masks is None:
        from kb.search.analysis import sentence_masks

        masks = sentence_masks(analysed.analyzer, english.get("text") or "")
    around = analysed(f"{english.get('title') or ''} {(data.get('context') or {}).get('en') or ''}")
    always = 0  # words the titles hold: in every sentence
    each: dict[int, int] = {}  # a sentence's bit -> the other words it holds
    for word in counted:
        if word & around:
            always += 1
            continue
        mask = 0
        for term in word:
            mask |= masks.get(term, 0)
        while mask:
            bit = mask & -mask
            each[bit] = each.get(bit, 0) + 1
            mask ^= bit
    return (always + max(each.values(), default=0)) / len(counted)


def _matched(hit: Any) -> tuple[set[str], int]:
    """The English index terms of the question that a hit holds, and in how many languages'
    texts it matched them (none, when the search that found it did not record them: a Whoosh
    search without ``terms=True``), read off its matched terms once."""
    results = getattr(hit, "results", None)
    if results is not None and not results.has_matched_terms():
        return set(), 0
    held = set()
    fields = set()
    for fieldname, term in hit.matched_terms():
        if fieldname in _TEXTS:
            fields.add(fieldname)
        if fieldname == ENGLISH_FIELD:
            held.add(term.decode("utf-8") if isinstance(term, bytes) else term)
    return held, len(fields)


def _holds(hit: Any, words: set[str], analysed: Callable[[str], set[str]]) -> bool:
    """Whether a rule's English text holds one of ``words`` (English index terms)."""
    text = ((hit.fields()["data"].get("texts", {}).get("en") or {}).get("text")) or ""
    return bool(analysed(text) & words)

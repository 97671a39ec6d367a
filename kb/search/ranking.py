"""Searching and ranking a query: rule-number jumps, every word required, then the named rule
first, some of the words, questions, did-you-mean and the result records.

:class:`Ranker` is the search half of :class:`kb.search.searcher.SearchIndex` (mixed in): that
class opens the index and gives each thread its readers and the default filters; this one turns
a query into the response dict (plain, JSON-ready: the CLI prints it, the server sends it).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Sequence
from typing import Any

from whoosh import query as wq

from kb.langs import LANGS
from kb.search.abbreviations import expand_abbreviations, with_rules_words
from kb.search.editions import newest_edition
from kb.search.engine import DocSet, TermEngine, as_set
from kb.search.jumps import RuleJumps
from kb.search.lang import fold_word, learned_language, search_language
from kb.search.limits import QueryTooBroad, bounded_search
from kb.search.naming import DEPTH as NAMED_DEPTH
from kb.search.naming import english_terms, named_lead, word_terms
from kb.search.plain import NULL, QUERY, in_field, plain_tree, to_query
from kb.search.plan import plan_tree
from kb.search.query import (
    QueryContext,
    QueryError,
    WordMemo,
    check_language,
    check_types,
    drop_question_words,
    jump_numbers,
    parse_words,
    without_bare_wildcards,
)
from kb.search.questions import asks, question_order
from kb.search.readers import Readers, Snapshot
from kb.search.schema import text_field
from kb.search.spelling import Vocabulary, did_you_mean
from kb.urls import glossary_slug

MAX_LIMIT = 100
# The first results are those of a search of this many, whatever the limit: the question ranking
# weighs a pool of candidates as deep as the limit asks (plus QUESTION_SPARE), so ``--limit 50``
# would otherwise reorder the first ten (73 of the relevance set's 372 dev queries changed their
# first five). More results add to the first page; they never reshuffle it.
PAGE = 10
# Results holding only some of the words are looked for among the rarer words only: a word in
# more than this share of the documents ("creatures", "control") would match half the corpus.
COMMON_SHARE, COMMON_MIN = 0.05, 200
MAX_QUERY = 500
# Words left in a question from which it is ranked by the words each text holds: two ("can I
# pay more life than I have" is "pay life"; 119.4 holds both words, yet its subrules and 118.3b,
# holding both more often in fewer words, came first among the texts holding every word). Chosen
# on the relevance set's dev splits (2 gains on dev4, the rest the same; 4 costs every split).
QUESTION_WORDS = 2
QUESTION_SPARE = 10  # answers looked at beyond the limit (a section counted down lets one in)
GLOSSARY_DEPTH = 5  # glossary entries looked at for the rule the words name, beside the rules
_WORDS = re.compile(r"[^\W_][\w'’-]*", re.UNICODE)
_FILTER_TOKEN = re.compile(r'(?<!\S)[-+]?\w+:(?:"[^"]*"|\[[^\]]*\]|\S+)')


class Ranker(RuleJumps):
    """A query's search over an open index's readers (what :class:`SearchIndex` provides)."""

    editions: list[str]
    _doc_count: int
    _vocabulary: Vocabulary
    _state: Snapshot
    _plain: Any
    _engine: TermEngine | None
    _local: Any  # the searching thread's state (its readers; its search's WordMemo)

    def _thread_readers(self) -> Readers:
        raise NotImplementedError

    def _partial_context(
        self, context: QueryContext, *, fuzzy: bool, common: bool = False
    ) -> QueryContext:
        """The context of a some-of-the-words pass: the same languages and editions, with the
        words too common to count left out (unless ``common``: a question's every word counts,
        a common one weighed by its rarity as BM25 weighs it)."""
        return QueryContext(
            lang=context.lang,
            editions=context.editions,
            fuzzy=fuzzy,
            any_language=context.any_language,
            too_common=None if common else self._too_common,
        )

    def _search(
        self,
        text: str,
        *,
        lang: str | None = None,
        types: str | list[str] | None = None,
        limit: int = 10,
        fuzzy: bool = False,
        default_lang: str = "en",
    ) -> dict[str, Any]:
        text = (text or "").strip()
        if not text:
            raise QueryError("the query is empty: give some words, a rule number or a filter")
        if len(text) > MAX_QUERY:
            raise QueryError(f"the query is too long ({len(text)} characters; at most {MAX_QUERY})")
        if not 1 <= limit <= MAX_LIMIT:
            raise QueryError(f"limit must be between 1 and {MAX_LIMIT} (got {limit})")
        typed, text = text, expand_abbreviations(text)  # "ETB": "enters the battlefield"
        text = without_bare_wildcards(text)  # "*/*", "a creature with * power"
        if not text:
            raise QueryTooBroad(
                f"query too broad: {typed!r} has no word to search (a wildcard needs letters:"
                " tempt* finds the words that start with tempt)"
            )
        # A query that is a learned French or Spanish keyword term searches in that language.
        language, any_language = query_language(text, lang or learned_language(text), default_lang)
        type_list = check_types(",".join(types) if isinstance(types, list) else types)
        context = QueryContext(
            lang=language, editions=self.editions, fuzzy=fuzzy, any_language=any_language
        )
        response: dict[str, Any] = {
            "query": typed,
            "lang": language,
            # No --lang: the query's language was detected and every language was searched.
            "lang_detected": any_language,
            "types": type_list,
            "fuzzy": fuzzy,
            "edition": context.newest,
            "jump": None,
            "relaxed": False,
            "did_you_mean": None,
            "showing": None,
            "total": 0,
            "results": [],
        }
        words_only = _FILTER_TOKEN.sub(" ", text).strip()
        numbers = jump_numbers(words_only) if words_only else None
        if numbers:
            filters_only = " ".join(_FILTER_TOKEN.findall(text))
            hits = self._jump(numbers, filters_only, context, type_list, limit)
            if hits:
                response["jump"] = {
                    "numbers": numbers,
                    "url": hits[0]["url"],
                    "found": [h["number"] for h in hits if h["number"] in numbers],
                }
                response["results"] = hits
                response["total"] = len(hits)
                return response
        words = drop_question_words(text, LANGS if any_language else (language,))
        if any_language and only_stop_words_elsewhere(words, language):
            # "ante" (rule 407, detected English) is a Spanish stop word: searched in every
            # language, nothing of it was left to search; it is searched in its own.
            context = QueryContext(lang=language, editions=self.editions, fuzzy=fuzzy)
            any_language = False
        asked = asks(text, words)  # its framing words left out: it asks how the rules work
        question = asked and len(words.split()) >= QUESTION_WORDS
        if question and language == "en":  # "gets killed": destroy, dies
            words = with_rules_words(words)
        self._ranked_paged(words, context, type_list, limit, response, question, asked)
        self._keyword_rule_first(words_only, context, type_list, limit, response)
        suggestion = response["did_you_mean"]
        if not response["results"] and suggestion:
            # Nothing for the words as typed: show what the corrected words find.
            retry = dict(response, results=[], total=0, relaxed=False)
            fresh = QueryContext(
                lang=language, editions=self.editions, fuzzy=fuzzy, any_language=any_language
            )
            # A suggestion of common words only ("ante" -> "and") finds nothing.
            with contextlib.suppress(QueryError):
                self._ranked_paged(suggestion, fresh, type_list, limit, retry, False, False)
            if retry["results"]:
                response.update(
                    results=retry["results"],
                    total=retry["total"],
                    relaxed=retry["relaxed"],
                    showing=suggestion,
                )
        return response

    def rank(
        self, text: str, *, lang: str | None = "en", types: list[str] | None = None, limit: int = 10
    ) -> Any:
        """The first pass of a search: every word required, the best ``limit`` hits and the count.

        The result iterates over the hits (best first) and its ``len`` is the number of matches.
        ``lang=None`` searches every language, as ``kb search`` without ``--lang``.
        """
        text = without_bare_wildcards(text)  # as search() reads it
        language, any_language = query_language(text, lang, "en")
        context = QueryContext(lang=language, editions=self.editions, any_language=any_language)
        words = drop_question_words(text, LANGS if any_language else (language,))
        return self._first_pass(words, context, types, limit)[1]

    def _first_pass(
        self,
        text: str,
        context: QueryContext,
        types: list[str] | None,
        limit: int,
        priors: Any = None,
    ) -> tuple[Any, Any, Any]:
        """The filter, the ranking and the query tree of every word required (the type priors
        of ``priors``, the searcher's by default)."""
        tree = self._tree(text, context)
        if tree is NULL:
            if not context.filters:
                raise QueryError(f"{text!r} holds only common words: nothing to search for")
            tree = (QUERY, wq.Every())
        filt = self._filter(context, types)
        return filt, self._run(tree, limit, filt, priors), tree

    @property
    def _words(self) -> WordMemo | None:
        """What this thread's search worked out of its words so far (None outside a search)."""
        return getattr(self._local, "words", None)

    def _tree(self, text: str, context: QueryContext, relaxed: bool = False) -> Any:
        """The query as a tree (:mod:`kb.search.plain`): plain words, or the parser's query."""
        tree = plain_tree(self.schema, text, context, relaxed=relaxed, memo=self._words)
        if tree is None:
            q = parse_words(self.schema, text, context, relaxed=relaxed)
            tree = NULL if isinstance(q, wq.qcore._NullQuery) else (QUERY, q)
        return tree

    def _ranked_paged(
        self,
        text: str,
        context: QueryContext,
        types: list[str] | None,
        limit: int,
        response: dict[str, Any],
        question: bool,
        asked: bool,
    ) -> None:
        """:meth:`_ranked`, its first PAGE results those of a search of PAGE (see PAGE)."""
        self._ranked(text, context, types, limit, response, question=question, asked=asked)
        if limit <= PAGE or len(response["results"]) <= PAGE:
            return
        first = dict(response, results=[])
        self._ranked(text, context, types, PAGE, first, question=question, asked=asked)
        shown = {r["key"] for r in first["results"]}
        more = [r for r in response["results"] if r["key"] not in shown]
        results = (first["results"] + more)[:limit]
        response["relaxed"] = bool(response["relaxed"] or first["relaxed"])
        for rank, result in enumerate(results, 1):
            result["rank"] = rank
        response["results"] = results

    def _ranked(
        self,
        text: str,
        context: QueryContext,
        types: list[str] | None,
        limit: int,
        response: dict[str, Any],
        question: bool = False,
        asked: bool = False,
    ) -> None:
        # A question asks how the rules work, however few its words ("¿cuándo puedo lanzar un
        # conjuro?"): its texts holding every word are ranked with the priors of questions, or
        # the cards named "Lanzar…" come before the rule.
        priors = self._state.question_priors(self.searcher) if asked else None
        # the words this pass's query records (a paged search ranks twice with one context)
        context.words.clear()
        filt, results, tree = self._first_pass(
            text, context, types, max(limit, NAMED_DEPTH), priors
        )
        # A question of fewer words than QUESTION_WORDS once its stop words are left out
        # ("¿cuándo se puede bloquear?") is ranked as other words are.
        question = question and len(context.words) >= QUESTION_WORDS
        hits = list(results)
        kind_of = self._state.priors(self.searcher).kind
        # each word's terms, worked out once
        words = word_terms(self.schema, text, context, self._words)
        # A question: the answer seldom holds every word of it (a ruling that does is long and
        # says little); rank by the words it holds, the rarer counting more.
        answers = self._question_hits(text, context, filt, limit, words) if question else None
        lead = []
        # Answers replace the hits; the named rule then only says which of the first ``limit``
        # hold every word, and when there are no more than that, all of them do.
        if answers is None or len(hits) > limit:
            # the rule a glossary entry naming the words sends to, fetched when it is not
            # among the hits ("damage assignment order", an obsolete term, holds only three
            # texts; its entry sends to 510.1c)
            fetch = self._rule_fetch(context, types)
            lead = named_lead(self.schema, hits, text, context, kind_of, words, fetch)
        # A French or Spanish term of the glossary: its rule and subrules are looked for among
        # the best rules, as when no rule was named (the first hits, at full history the cards
        # whose text says "marqueurs poison", seldom hold them).
        bridged = [] if question else self._bridged_glossary(context, types)
        if bridged:
            lead = self._named_below(tree, text, context, types, words, bridged) or lead
        elif not lead and not question and len(results) > len(hits):
            lead = self._named_below(tree, text, context, types, words)
        if lead:
            chosen = {h.docnum for h in lead}
            hits = lead + [h for h in hits if h.docnum not in chosen]
        hits = hits[:limit]
        response["total"] = len(results)
        some_words: list[int] = []
        if answers is not None:
            strict = {h.docnum for h in hits}
            hits = answers
            some_words = [i for i, h in enumerate(hits) if h.docnum not in strict]
            response["relaxed"] = bool(some_words)
        elif not question and len(hits) < limit and len(context.words) > 1:
            # Fewer results than asked for: add the best of those holding only some of the words.
            partial = self._partial_context(context, fuzzy=context.fuzzy)
            relaxed = self._tree(text, partial, relaxed=True)
            if partial.words and relaxed is not NULL:
                seen = {h.docnum for h in hits}
                extra = self._best_partial(relaxed, limit - len(hits), filt, seen)
                response["relaxed"] = bool(extra)
                hits += extra
        response["results"] = [
            self._result(hit, context.lang, rank, context.newest)
            for rank, hit in enumerate(hits, 1)
        ]
        for i in some_words if question else range(len(results), len(hits)):
            response["results"][i]["partial"] = True
        if context.words:
            response["did_you_mean"] = did_you_mean(
                self.searcher.reader(),
                self.schema,
                self._vocabulary,
                text,
                context.words,
                context.lang,
            )

    def _named_below(
        self,
        tree: Any,
        text: str,
        context: QueryContext,
        types: list[str] | None,
        words: list[dict[str, set[str]]],
        bridged: Sequence[Any] = (),
    ) -> list[Any]:
        """The rule the words name (then its subrules and glossary entries) when it is not among
        the first hits: the best rules and glossary entries holding every word, looked at apart
        (``bridged``: glossary entries the words were found to be, looked at too).

        At full history some 30,000 cards share the words of a rule's title ("protection": the
        Circles and Runes of Protection, short texts whose title is the word); BM25 puts them
        before the rule, whose text is only its title among its subrules' words.

        The best glossary entries are looked at apart too: a term whose rule has no title
        ("Mana Value … See rule 202.3") names that rule, yet its entry, a glossary entry's
        prior counted, is not among the best rules holding the words (202.3a–g, 107.3…).
        """
        named = [t for t in ("rule", "glossary") if not types or t in types]
        if not named or not context.words:
            return []
        ranked = list(self._run(tree, NAMED_DEPTH, self._filter(context, named)))
        if "glossary" in named:
            seen = {h.docnum for h in ranked}
            entries = self._run(tree, GLOSSARY_DEPTH, self._filter(context, ["glossary"]))
            ranked += [h for h in entries if h.docnum not in seen]
            seen |= {h.docnum for h in entries}
            for entry in [*self._glossary_terms(context), *bridged]:
                if entry.docnum not in seen:
                    ranked.append(entry)
                    seen.add(entry.docnum)
        kind_of = self._state.priors(self.searcher).kind
        fetch = self._rule_fetch(context, types)
        return named_lead(self.schema, ranked, text, context, kind_of, words, fetch)

    def _rule_fetch(
        self, context: QueryContext, types: list[str] | None
    ) -> Callable[[str, Any], Any | None] | None:
        """:meth:`_rule_of` for :func:`named_lead`, when the search's types let rules through."""
        if types and "rule" not in types:
            return None
        return lambda number, entry: self._rule_of(number, entry, context)

    def _glossary_terms(self, context: QueryContext) -> list[Any]:
        """The newest edition's glossary entries whose term is the query's words ("mana" is
        the entry "Mana", "card types" the entry "Card Type"), by their keys.

        Longer entries on the same word ("Mana Symbol", "Source of Mana", "Mana Value") hold it
        as often in fewer words: BM25 puts a dozen of them before the term itself.
        """
        newest = context.newest
        words = [w for w in context.words if ":" not in w]
        if not newest or not words or "edition" in context.filters:
            return []
        slugs = {glossary_slug(" ".join(words))}
        if len(words[-1]) > 3 and words[-1].lower().endswith("s"):
            slugs.add(glossary_slug(" ".join([*words[:-1], words[-1][:-1]])))
        langs = LANGS if context.any_language else (context.lang,)
        return self._glossary_keyed(context, newest, langs, slugs)

    def _glossary_keyed(
        self, context: QueryContext, edition: str, langs: Sequence[str], slugs: set[str]
    ) -> list[Any]:
        """An edition's glossary entries of these languages whose terms have these slugs."""
        keys = [f"glossary:{edition}:{lang}:{slug}" for lang in langs for slug in sorted(slugs)]
        return list(self._all_of("glossary", wq.Or([wq.Term("key", k) for k in keys]), context))

    def _bridged_glossary(self, context: QueryContext, types: list[str] | None) -> list[Any]:
        """The English glossary entry a French or Spanish term of two words is, word for word in
        either order ("marqueurs poison" is "Poison Counter", "contadores de veneno" too, "coste
        adicional" "Additional Cost": the two languages put the noun first).

        BM25 seldom finds it among the first hits: "Poisonous", "Poisoned" and the cards whose
        French text says "marqueurs poison" hold the words in fewer others. Only when each word
        leads to a single English word, so the term is what the words say.
        """
        newest = context.newest
        if (
            context.lang not in ("fr", "es")
            or not newest
            or "edition" in context.filters
            or (types and "glossary" not in types)
        ):
            return []
        language = search_language(context.lang)
        stopwords = language.folded_stopwords
        content = [fold_word(w) for w in context.words if ":" not in w]
        content = [w for w in content if w not in stopwords]
        if len(content) != 2:
            return []
        english: list[str] = []
        for word in content:
            found = language.english_for(language.stem(word))
            if len(found) != 1 or " " in found[0]:
                return []
            english.append(found[0])
        slugs = {glossary_slug(" ".join(english)), glossary_slug(" ".join(reversed(english)))}
        return self._glossary_keyed(context, newest, ("en",), slugs)

    def _rule_of(self, number: str, entry: Any, context: QueryContext) -> Any | None:
        """The rule numbered ``number`` in the newest edition of a glossary entry (the rule its
        "See rule" sends to), if the search's filters let it through."""
        edition = newest_edition(entry)
        found = self._all_of("rule", wq.Term("number", number), context)
        return next((h for h in found if edition in str(h.get("edition") or "").split()), None)

    def _all_of(self, kind: str, q: Any, context: QueryContext) -> Any:
        """Every item of one type matching ``q`` that the search's filters let through."""
        filt = as_set(self._filter(context, [kind]))
        return bounded_search(self.searcher, q, filter=filt, limit=None, terms=True)

    def _question_hits(
        self,
        text: str,
        context: QueryContext,
        filt: Any,
        limit: int,
        words: list[dict[str, set[str]]] | None = None,
    ) -> list[Any] | None:
        """The best answers to a question: documents holding one of its rarer words, scored by
        all of its words (None when it has no word to search).

        A common word alone ("player", "battlefield") does not make a document an answer, but it
        counts in the score of one that holds a rarer word: "token" and "battlefield" are what
        "a token that leaves the battlefield" is about, and BM25 weighs them by their rarity.
        """
        every_context = self._partial_context(context, fuzzy=False, common=True)
        every = self._tree(text, every_context, relaxed=True)
        if not every_context.words or every is NULL:
            return None
        rare_context = self._partial_context(context, fuzzy=False)
        rare = self._tree(text, rare_context, relaxed=True)
        within = filt
        if rare is not NULL and 0 < len(rare_context.words) < len(every_context.words):
            holding = self._matching(rare, filt)
            # Rare words found in fewer texts than the answers wanted ("usa", a verb the bridge
            # does not know, in three Spanish card texts) say little: every text is a candidate.
            # So do rare words that no rule holds ("garder", a French verb the bridge does not
            # know, in two dozen French card texts): a question asks how the rules work. A rule
            # holds them in its English text: the rules are English, and a few translated rules
            # (the Spanish page of 701.54, whose "empezar" and "cada jugador" are in no other
            # rule's Spanish) made "¿cuántas cartas roba cada jugador al empezar la partida?"
            # look among those few and the cards, not among the English rules.
            if len(holding) >= limit and self._holds_a_rule(
                self._matching(in_field(rare, text_field("en")), DocSet(holding))
            ):
                within = DocSet(holding)
        priors = self._state.question_priors(self.searcher)
        best = self._best_partial(every, limit + QUESTION_SPARE, within, set(), priors)
        if words is None:
            words = word_terms(self.schema, text, context, self._words)
        terms = english_terms(self.schema, text, context, words)
        english = self.schema[text_field("en")].analyzer
        kind_of = self._state.priors(self.searcher).kind
        english_field = text_field("en")

        def distinctive(term: str) -> bool:
            return not self._too_common(english_field, term)

        per_word = [w.get(english_field, set()) for w in words]
        return question_order(best, limit, terms, english, kind_of, distinctive, per_word)

    def _holds_a_rule(self, docs: set[int]) -> bool:
        """Whether any of the documents is a rule."""
        type_of = self._state.priors(self.searcher).type_of
        return any(type_of(docnum) == "rule" for docnum in docs)

    def _matching(self, tree: Any, filt: Any) -> set[int]:
        """The documents matching a tree among the filter's, unscored."""
        plan = plan_tree(tree) if self._engine is not None else None
        if plan is not None:
            return self._engine.matching(plan, filt)
        docs = set(self.searcher.docs_for_query(to_query(tree)))
        allowed = as_set(filt)
        return docs if allowed is None else docs & allowed

    def _run(self, tree: Any, limit: int, filt: Any, priors: Any = None) -> Any:
        """Every word required: kb's term engine when it can rank the query, else Whoosh (the
        type priors of ``priors``, the searcher's by default)."""
        searcher = self.searcher
        if priors is None:
            priors = searcher.weighting.priors
        plan = plan_tree(tree) if self._engine is not None else None
        if plan is not None:
            ranking = self._engine.rank(plan, limit=limit, allowed=filt, priors=priors)
            if ranking is not None:
                return ranking
        if priors is not searcher.weighting.priors:
            searcher = self._thread_readers().weighted(priors)
        # optimize=False: results that hold every word are few, and scoring them all gives the
        # exact count in the same pass (Whoosh's block skipping would need a second one).
        q = to_query(tree)
        return bounded_search(
            searcher, q, limit=limit, filter=as_set(filt), terms=True, optimize=False
        )

    def _too_common(self, fieldname: str, term: str) -> bool:
        """A term in more than COMMON_SHARE of the documents says little on its own."""
        limit = max(COMMON_SHARE * self._doc_count, COMMON_MIN)
        if self._engine is None:
            return self.searcher.doc_frequency(fieldname, term) > limit
        return self._engine.doc_frequency(fieldname, term) > limit

    def _best_partial(
        self, tree: Any, wanted: int, filt: Any, seen: set[int], priors: Any = None
    ) -> list[Any]:
        """The best documents holding only some of the words (not in ``seen``), prior applied.

        Any word matches here, so matches can be thousands: they are ranked by plain BM25F (with
        Whoosh's bonus for each further word) times the type prior, over all of them. (Applying
        the prior to the best few of plain BM25F only let the many cards and rulings of a full
        history crowd out the rules before the prior could count.)
        """
        limit = wanted + len(seen)
        priors = priors if priors is not None else self.searcher.weighting.priors
        plan = plan_tree(tree) if self._engine is not None else None
        results = None
        if plan is not None:
            results = self._engine.rank(
                plan, limit=limit, allowed=filt, priors=priors, weighting=self._plain.weighting
            )
        if results is None:  # Whoosh applies the prior as a final step (no block skipping)
            q = to_query(tree)
            results = bounded_search(
                self._thread_readers().weighted(priors),
                q,
                limit=limit,
                filter=as_set(filt),
                terms=True,
            )
        kept = [h for h in results if h.docnum not in seen]
        return sorted(kept, key=lambda h: (-h.score, h.docnum))[:wanted]


def only_stop_words_elsewhere(text: str, lang: str) -> bool:
    """Whether every word of a query is a stop word of some language, and one of them is none
    of ``lang``'s (the query's detected language): searched in every language, nothing of it
    would be left."""
    words = [fold_word(w) for w in _WORDS.findall(_FILTER_TOKEN.sub(" ", text))]
    stop = [search_language(code).folded_stopwords for code in LANGS]
    if not words or not all(any(w in words_of for words_of in stop) for w in words):
        return False
    return any(w not in search_language(lang).folded_stopwords for w in words)


def query_language(text: str, lang: str | None, default: str) -> tuple[str, bool]:
    """The language a query is searched in, and whether it was detected (no ``--lang``).

    Without ``--lang`` the query's words are searched in every language; the language the
    project's detector sees in them (English when nothing tells) counts most in ranking.
    """
    if lang:
        return check_language(lang, default), False
    from kb.search.detection import detect_query_language

    return detect_query_language(_FILTER_TOKEN.sub(" ", text)), True

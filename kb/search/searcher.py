"""Searching an open index: rule-number jumps, ranked results, did-you-mean and result records.

:class:`SearchIndex` keeps one Whoosh searcher warm (the server reuses it across requests and
reopens it when ``kb index`` or ``kb ingest`` rewrote the index), with kb's term engine over it:
word queries are ranked by the engine (:mod:`kb.search.engine`), the others by Whoosh's matchers.
``search`` returns plain, JSON-ready dicts: the CLI prints them, the server sends them.
"""

from __future__ import annotations

import logging
import re
import threading
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh import query as wq

from kb.errors import KbError
from kb.langs import LANGS
from kb.search.editions import newest_edition
from kb.search.engine import DocSet, TermEngine, as_set, unsupported
from kb.search.indexer import MANIFEST, check_index, read_manifest
from kb.search.lane import search_scope
from kb.search.lang import learned_language, learned_rule
from kb.search.learned import load_learned_terms
from kb.search.limits import bounded_search
from kb.search.naming import DEPTH as NAMED_DEPTH
from kb.search.naming import english_terms, named_lead
from kb.search.plain import NULL, QUERY, parse, plain_tree, to_query
from kb.search.plan import plan_tree
from kb.search.query import (
    QueryContext,
    QueryError,
    check_language,
    check_types,
    default_filter,
    drop_question_words,
    jump_numbers,
    parse_words,
)
from kb.search.questions import question_order
from kb.search.readers import Readers, ReaderSets, Snapshot
from kb.search.results import result_record
from kb.search.schema import (
    INDEX_NAME,
    NO_EDITION,
    text_field,
)
from kb.search.spelling import Vocabulary, did_you_mean

log = logging.getLogger(__name__)

MAX_LIMIT = 100
# Results holding only some of the words are looked for among the rarer words only: a word in
# more than this share of the documents ("creatures", "control") would match half the corpus.
COMMON_SHARE, COMMON_MIN = 0.05, 200
MAX_QUERY = 500
QUESTION_WORDS = 3  # words left in a question from which it is ranked by the words it holds
QUESTION_SPARE = 10  # answers looked at beyond the limit (a section counted down lets one in)
_FILTER_TOKEN = re.compile(r'(?<!\S)[-+]?\w+:(?:"[^"]*"|\[[^\]]*\]|\S+)')


class SearchIndex:
    """An open index with a warm searcher."""

    def __init__(self, index_dir: Path, *, term_engine: bool = True, reader_sets: int = 0) -> None:
        """``reader_sets``: 0, each thread searches with readers of its own (a CLI, a test); N,
        each search takes one of N sets for its length (a server, :class:`ReaderSets`)."""
        self.index_dir = Path(index_dir)
        self._use_engine = term_engine
        check_index(self.index_dir)
        manifest = read_manifest(self.index_dir) or {}
        # No lock around searching: a search reads with readers no other thread uses meanwhile
        # (Whoosh's posting readers seek a shared file); this lock only guards opening them
        # and reopening the index.
        self._lock = threading.RLock()
        self._local = threading.local()
        self._readers: list[Readers] = []
        self._sets = ReaderSets(reader_sets) if reader_sets > 0 else None
        self._generation = 0
        self._snapshot: Snapshot
        self._open(manifest)

    def _open(self, manifest: dict[str, Any]) -> None:
        """Open the index on disk as a new generation, published whole: a search sees the
        editions, counts and vocabulary of the readers it searches with, never a mix."""
        try:
            ix = whoosh_index.open_dir(str(self.index_dir), indexname=INDEX_NAME)
        except Exception as exc:
            raise KbError(
                f"cannot open the search index in {self.index_dir} ({exc}): run `kb index`"
            ) from None
        snapshot = Snapshot(
            ix=ix,
            build=manifest.get("build"),
            schema=ix.schema,
            doc_count=0,
            editions=[],
            vocabulary=Vocabulary(self.index_dir),
            scope=manifest.get("scope"),
        )
        with self._lock:
            generation = self._generation + 1
        # This thread's readers of the new generation, made before it is published: no other
        # thread can see the snapshot until its counts and editions are filled in.
        readers = Readers(snapshot, generation, self._use_engine)
        if self._use_engine:
            reason = unsupported(readers.searcher)
            if reason:
                log.warning("%s: searching through Whoosh's public API instead", reason)
                self._use_engine = False
                readers.engine = None
        snapshot.doc_count = readers.searcher.doc_count()
        snapshot.editions = sorted(
            e.decode("utf-8")
            for e in readers.searcher.reader().lexicon("edition")
            if e.decode("utf-8") != NO_EDITION
        )
        load_learned_terms(self.index_dir)
        with self._lock:
            old: Readers | None = getattr(self._local, "readers", None)
            if old is not None:
                old.close()
                self._readers.remove(old)
            self._stamp = self._manifest_stamp()
            self._snapshot = snapshot
            self._generation = generation
            if self._sets is not None:
                self._sets.publish(readers)  # the new generation's first set, warm already
                return
            self._readers.append(readers)
        self._local.readers = readers

    def _thread_readers(self) -> Readers:
        """This thread's readers of the index (opened on first use, renewed after a refresh)."""
        pinned: Readers | None = getattr(self._local, "pinned", None)
        if pinned is not None:
            return pinned  # one search reads one generation of the index from start to end
        readers: Readers | None = getattr(self._local, "readers", None)
        if readers is not None and readers.generation == self._generation:
            return readers
        with self._lock:
            if readers is not None:
                readers.close()
                self._readers.remove(readers)
            readers = Readers(self._snapshot, self._generation, self._use_engine)
            self._readers.append(readers)
        self._local.readers = readers
        return readers

    @property
    def _state(self) -> Snapshot:
        """The generation of the index this thread searches (its pinned readers' one)."""
        return self._thread_readers().snapshot

    @property
    def ix(self) -> Any:
        return self._state.ix

    @property
    def build(self) -> Any:
        return self._state.build

    @property
    def schema(self) -> Any:
        return self._state.schema

    @property
    def editions(self) -> list[str]:
        return self._state.editions

    @property
    def _doc_count(self) -> int:
        return self._state.doc_count

    @property
    def _vocabulary(self) -> Vocabulary:
        return self._state.vocabulary

    @property
    def searcher(self) -> Any:
        """This thread's Whoosh searcher (scoring with the type priors)."""
        return self._thread_readers().searcher

    @property
    def _plain(self) -> Any:
        return self._thread_readers().plain

    @property
    def _engine(self) -> TermEngine | None:
        return self._thread_readers().engine

    def _filter(self, context: QueryContext, types: list[str] | None) -> Any:
        """The document set of the default filter (cached: Whoosh would recompute it per query)."""
        filters = self._state.filters
        key = (tuple(types or ()), "edition" in context.filters, context.newest)
        if key not in filters:
            scoped = None if types or "edition" in context.filters else self._scope(context)
            if scoped is not None:
                filters[key] = scoped
                return scoped
            filt = default_filter(context, types)
            # A plain set (Whoosh tests a filter's truth on every search, which walks a BitSet),
            # sorted too: kb's term engine skips the posting blocks that hold none of it.
            docs = None if filt is None else self._filter_docs(filt)
            filters[key] = None if docs is None else DocSet(docs, lasting=True)
        return filters[key]

    def _scope(self, context: QueryContext) -> DocSet | None:
        """The default filter without reading a posting: the documents of the newest edition
        or of none are numbered first by a full build, which counted them in the manifest.
        None when the index is not that build's any more (an update adds and deletes)."""
        scope = self._state.scope
        if not scope or scope.get("edition") != context.newest:
            return None
        reader = self.searcher.reader()
        segments = list(reader.leaf_readers())
        count = self._doc_count
        if len(segments) != 1 or reader.has_deletions() or reader.doc_count_all() != count:
            return None
        docs = scope.get("docs")
        if not isinstance(docs, int) or not 0 <= docs <= count:
            return None
        return DocSet(range(docs), lasting=True)

    def _filter_docs(self, q: Any) -> Any:
        """The documents of a filter: by the term engine when it is terms, ORs and ANDs (the
        posting blocks decoded at once, not a document at a time as Whoosh's matchers do)."""
        engine = self._engine
        if engine is not None:
            docs = _term_set(engine, q)
            if docs is not None:
                return docs
        return self.searcher.docs_for_query(q)

    def _manifest_stamp(self) -> int:
        try:
            return (self.index_dir / MANIFEST).stat().st_mtime_ns
        except OSError:
            return 0

    def refresh(self) -> None:
        """Reopen the index if it was rebuilt or updated since it was opened."""
        with self._lock:
            if self._manifest_stamp() == self._stamp:
                return
            manifest = read_manifest(self.index_dir)
            if manifest is None:
                return  # being swapped: keep serving the old one
            # Other threads renew their readers on their next search (the generation moved on).
            self._open(manifest)

    def close(self) -> None:
        """Release every thread's searchers and the index."""
        with self._lock:
            for readers in self._readers:
                readers.close()
            self._readers.clear()
            if self._sets is not None:
                self._sets.close()
            self._generation += 1
            self._snapshot.ix.close()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- searching -------------------------------------------------------------------------------

    def search(self, text: str, **options: Any) -> dict[str, Any]:
        """Search; return the response dict (raise QueryError on a bad query or parameter).

        The search's readers are pinned for its whole length: an index rewritten meanwhile (an
        ingest, ``kb index``) is seen by the next search, never half-way through this one.
        """
        sets = self._sets
        readers = self._local.pinned = self._thread_readers() if sets is None else sets.take()
        try:
            with search_scope():  # a broad search's place in the broad lane, given back here
                return self._search(text, **options)
        finally:
            self._local.pinned = None
            if sets is not None:
                sets.give_back(readers)

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
        # A query that is a learned French or Spanish keyword term searches in that language.
        language, any_language = query_language(text, lang or learned_language(text), default_lang)
        type_list = check_types(",".join(types) if isinstance(types, list) else types)
        context = QueryContext(
            lang=language, editions=self.editions, fuzzy=fuzzy, any_language=any_language
        )
        response: dict[str, Any] = {
            "query": text,
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
        question = words != text and len(words.split()) >= QUESTION_WORDS
        self._ranked(words, context, type_list, limit, response, question=question)
        self._keyword_rule_first(words_only, context, type_list, limit, response)
        suggestion = response["did_you_mean"]
        if not response["results"] and suggestion:
            # Nothing for the words as typed: show what the corrected words find.
            retry = dict(response, results=[], total=0, relaxed=False)
            fresh = QueryContext(
                lang=language, editions=self.editions, fuzzy=fuzzy, any_language=any_language
            )
            self._ranked(suggestion, fresh, type_list, limit, retry)
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
        language, any_language = query_language(text, lang, "en")
        context = QueryContext(lang=language, editions=self.editions, any_language=any_language)
        words = drop_question_words(text, LANGS if any_language else (language,))
        return self._first_pass(words, context, types, limit)[1]

    def _first_pass(
        self, text: str, context: QueryContext, types: list[str] | None, limit: int
    ) -> tuple[Any, Any, Any]:
        """The filter, the ranking and the query tree of every word required."""
        tree = self._tree(text, context)
        if tree is NULL:
            if not context.filters:
                raise QueryError(f"{text!r} holds only common words: nothing to search for")
            tree = (QUERY, wq.Every())
        filt = self._filter(context, types)
        return filt, self._run(tree, limit, filt), tree

    def _tree(self, text: str, context: QueryContext, relaxed: bool = False) -> Any:
        """The query as a tree (:mod:`kb.search.plain`): plain words, or the parser's query."""
        tree = plain_tree(self.schema, text, context, relaxed=relaxed)
        if tree is None:
            q = parse_words(self.schema, text, context, relaxed=relaxed)
            tree = NULL if isinstance(q, wq.qcore._NullQuery) else (QUERY, q)
        return tree

    def _ranked(
        self,
        text: str,
        context: QueryContext,
        types: list[str] | None,
        limit: int,
        response: dict[str, Any],
        question: bool = False,
    ) -> None:
        filt, results, tree = self._first_pass(text, context, types, max(limit, NAMED_DEPTH))
        # A question of fewer words than QUESTION_WORDS once its stop words are left out
        # ("¿cuándo se puede lanzar un conjuro?") is ranked as other words are.
        question = question and len(context.words) >= QUESTION_WORDS
        hits = list(results)
        lead = named_lead(self.schema, hits, text, context)
        if not lead and not question and len(results) > len(hits):
            lead = self._named_below(tree, text, context, types)
        if lead:
            chosen = {h.docnum for h in lead}
            hits = lead + [h for h in hits if h.docnum not in chosen]
        hits = hits[:limit]
        response["total"] = len(results)
        some_words: list[int] = []
        if question:
            # A question: the answer seldom holds every word of it (a ruling that does is long
            # and says little); rank by the words it holds, the rarer counting more.
            strict = {h.docnum for h in hits}
            answers = self._question_hits(text, context, filt, limit)
            if answers is not None:
                hits = answers
                some_words = [i for i, h in enumerate(hits) if h.docnum not in strict]
                response["relaxed"] = bool(some_words)
        elif len(hits) < limit and len(context.words) > 1:
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
        self, tree: Any, text: str, context: QueryContext, types: list[str] | None
    ) -> list[Any]:
        """The rule the words name (then its subrules and glossary entries) when it is not among
        the first hits: the best rules and glossary entries holding every word, looked at apart.

        At full history some 30,000 cards share the words of a rule's title ("protection": the
        Circles and Runes of Protection, short texts whose title is the word); BM25 puts them
        before the rule, whose text is only its title among its subrules' words.
        """
        named = [t for t in ("rule", "glossary") if not types or t in types]
        if not named or not context.words:
            return []
        ranked = self._run(tree, NAMED_DEPTH, self._filter(context, named))
        return named_lead(self.schema, list(ranked), text, context)

    def _question_hits(
        self, text: str, context: QueryContext, filt: Any, limit: int
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
            if len(holding) >= limit:
                within = DocSet(holding)
        priors = self._state.question_priors(self.searcher)
        best = self._best_partial(every, limit + QUESTION_SPARE, within, set(), priors)
        terms = english_terms(self.schema, text, context)
        return question_order(best, limit, terms, self.schema[text_field("en")].analyzer)

    def _matching(self, tree: Any, filt: Any) -> set[int]:
        """The documents matching a tree among the filter's, unscored."""
        plan = plan_tree(tree) if self._engine is not None else None
        if plan is not None:
            return self._engine.matching(plan, filt)
        docs = set(self.searcher.docs_for_query(to_query(tree)))
        allowed = as_set(filt)
        return docs if allowed is None else docs & allowed

    def _run(self, tree: Any, limit: int, filt: Any) -> Any:
        """Every word required: kb's term engine when it can rank the query, else Whoosh."""
        plan = plan_tree(tree) if self._engine is not None else None
        if plan is not None:
            ranking = self._engine.rank(
                plan, limit=limit, allowed=filt, priors=self.searcher.weighting.priors
            )
            if ranking is not None:
                return ranking
        # optimize=False: results that hold every word are few, and scoring them all gives the
        # exact count in the same pass (Whoosh's block skipping would need a second one).
        q = to_query(tree)
        return bounded_search(
            self.searcher, q, limit=limit, filter=as_set(filt), terms=True, optimize=False
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

    def _keyword_rule_first(
        self,
        words: str,
        context: QueryContext,
        types: list[str] | None,
        limit: int,
        response: dict[str, Any],
    ) -> None:
        """A query that is a keyword's official French/Spanish name gets the keyword's rule first.

        Cards named like the keyword ("Vol", "Lien de vie") would otherwise outrank its rule.
        """
        rule = learned_rule(words, context.lang)
        if not rule or (types and "rule" not in types):
            return
        results = response["results"]
        at = next(
            (i for i, r in enumerate(results) if r["type"] == "rule" and r["number"] == rule), None
        )
        if at is None:
            found = self._jump([rule], "", context, types, 1)
            if not found:
                return
            results.insert(0, found[0])
            response["total"] += 1
        else:
            results.insert(0, results.pop(at))
        del results[limit:]
        for rank, result in enumerate(results, 1):
            result["rank"] = rank

    def _jump(
        self,
        numbers: list[str],
        filters_only: str,
        context: QueryContext,
        types: list[str] | None,
        limit: int,
    ) -> list[dict[str, Any]]:
        """The rules a number (or range) names, each followed by its subrules."""
        extra = parse(self.schema, filters_only, context) if filters_only else None
        filt = self._filter(context, types or ["rule"])
        found: list[dict[str, Any]] = []
        seen: set[str] = set()
        for number in numbers:
            wanted: Any = wq.Or([wq.Term("number", number), wq.Prefix("number", number)])
            if extra is not None and not isinstance(extra, wq.qcore._NullQuery):
                wanted = wq.And([wanted, extra])
            hits = [
                h
                for h in bounded_search(self.searcher, wanted, filter=as_set(filt), limit=None)
                if h["type"] == "rule"
            ]
            hits.sort(key=lambda h: _number_order(h["number"]))
            own = [h for h in hits if h["number"] == number]
            own.sort(key=lambda h: h.get("edition", ""), reverse=True)
            children = [
                h
                for h in hits
                if h["number"][:-1] == number
                and h["number"][-1:].isalpha()
                and len(numbers) == 1
                and (not own or newest_edition(own[0]) in str(h.get("edition", "")).split())
            ]
            for hit in own[:1] + children:
                if hit["key"] not in seen and len(found) < limit:
                    seen.add(hit["key"])
                    found.append(self._result(hit, context.lang, len(found) + 1, context.newest))
        return found

    # --- result records --------------------------------------------------------------------------

    def _result(self, hit: Any, lang: str, rank: int, newest: str | None) -> dict[str, Any]:
        return result_record(hit, self.schema, lang, rank, newest)


def _term_set(engine: TermEngine, q: Any) -> set[int] | None:
    """The documents of a query of terms, ORs and ANDs; None for any other query."""
    if type(q) is wq.Term:
        return engine.term_docs(q.fieldname, q.text)
    if type(q) in (wq.Or, wq.And) and q.subqueries:
        parts = [_term_set(engine, sub) for sub in q.subqueries]
        if any(part is None for part in parts):
            return None
        sets: list[set[int]] = parts  # type: ignore[assignment]
        return set().union(*sets) if type(q) is wq.Or else set.intersection(*sets)
    return None


def query_language(text: str, lang: str | None, default: str) -> tuple[str, bool]:
    """The language a query is searched in, and whether it was detected (no ``--lang``).

    Without ``--lang`` the query's words are searched in every language; the language the
    project's detector sees in them (English when nothing tells) counts most in ranking.
    """
    if lang:
        return check_language(lang, default), False
    from kb.search.detection import detect_query_language

    return detect_query_language(_FILTER_TOKEN.sub(" ", text)), True


def _number_order(number: str) -> str:
    from kb.corpus.numbers import sort_key

    try:
        return sort_key(number)
    except ValueError:
        return number


def open_index(index_dir: Path) -> SearchIndex:
    """Open the index in a folder for searching (KbError if there is none)."""
    return SearchIndex(index_dir)

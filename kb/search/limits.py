"""Bounds on what one query may cost, so that no request can stall the search API.

A wildcard, prefix, range or fuzzy term stands for every indexed term it matches: ``a*`` in
three languages is tens of thousands of posting lists. Each may stand for at most
``MAX_EXPANSIONS`` terms and a whole query for ``MAX_TOTAL_EXPANSIONS``; a search through
Whoosh's matchers also gets a budget of CPU time. Beyond either, the query is refused as too broad
(the API answers 400, ``kb search`` exits 2) rather than answered slowly for everyone.

A query allowed but broad (more than ``BROAD_EXPANSIONS`` expanded terms, more than
``BROAD_FUZZY_WORDS`` fuzzy words, or a wildcard or range whose terms can only be found by reading
a whole field's word list) runs in the broad lane
(:mod:`kb.search.lane`): one at a time per process, with a smaller budget, so that however many
clients send them, the other searches keep the rest of the threads and of the CPU.
"""

from __future__ import annotations

import time
from itertools import islice
from typing import Any

from kb.search import lane
from kb.search.query import QueryError

MAX_EXPANSIONS = 200  # indexed terms one wildcard, prefix, range or fuzzy term may match
MAX_TOTAL_EXPANSIONS = 600  # over the whole query
TIME_BUDGET = 2.0  # seconds of CPU a search through Whoosh's matchers may take
BROAD_EXPANSIONS = 40  # expanded terms beyond which a query is broad (runs in the broad lane)
# Fuzzy words beyond which a query is broad: each reads every indexed word of its first letter
# in each field it is searched in (some 30 ms of CPU on the shared corpus).
BROAD_FUZZY_WORDS = 2
BROAD_TIME_BUDGET = 0.5  # seconds of CPU a broad query may take


class QueryTooBroad(QueryError):
    """A query that would match too many terms, or take too long (the API answers 400)."""


def _describe(q: Any) -> str:
    """How the user wrote a term-expanding query, near enough (``a*``, ``[a TO z]``)."""
    from whoosh import query as wq

    if isinstance(q, wq.Prefix):
        return f"{q.text}*"
    if isinstance(q, wq.TermRange):
        return f"[{q.start or ''} TO {q.end or ''}]"
    if isinstance(q, wq.FuzzyTerm):
        return f"{q.text}~"
    return str(getattr(q, "text", q))


def scans_word_lists(q: Any) -> bool:
    """Whether a query reads long word lists to find its terms: a wildcard or range read only by
    reading a field's whole list (``*a*``, ``[a TO z]``), or many fuzzy words."""
    from whoosh import query as wq

    fuzzy = set()
    for sub in _multi_terms(q):
        if isinstance(sub, wq.TermRange) or (
            isinstance(sub, wq.Wildcard) and sub.text[:1] in ("*", "?")
        ):
            return True
        if isinstance(sub, wq.FuzzyTerm):
            fuzzy.add(sub.text)
    return len(fuzzy) > BROAD_FUZZY_WORDS


def check_expansions(q: Any, reader: Any) -> int:
    """Refuse a query whose wildcards, prefixes, ranges or fuzzy terms match too many terms;
    return how many terms they match."""
    from whoosh import query as wq

    if _every_word(q):
        raise QueryTooBroad(
            "query too broad: a field's wildcard alone (text_en:*) matches every word of it;"
            " give letters before the * or filter instead"
        )
    total = 0
    for sub in _multi_terms(q):
        if isinstance(sub, wq.Variations):
            continue  # a word's own inflections: a handful
        count = sum(1 for _ in islice(sub.expanded_terms(reader), MAX_EXPANSIONS + 1))
        if count > MAX_EXPANSIONS:
            raise QueryTooBroad(
                f"query too broad: {_describe(sub)!r} matches more than {MAX_EXPANSIONS} indexed"
                " words; give more letters or fewer wildcards"
            )
        total += count
        if total > MAX_TOTAL_EXPANSIONS:
            raise QueryTooBroad(
                f"query too broad: its wildcards, ranges and fuzzy words match more than"
                f" {MAX_TOTAL_EXPANSIONS} indexed words together; use fewer of them"
            )
    return total


def _every_word(q: Any) -> bool:
    """Whether ``q`` holds a field's every word (Whoosh's ``Every`` of a field, a lone ``*``):
    matching it reads the postings of every word of the field before the time budget first
    looks (seconds at the whole history). ``Every()`` of no field, the ``edition:all`` query on
    its own, lists the documents at once and stays."""
    from whoosh import query as wq

    if isinstance(q, wq.Every):
        return q.fieldname not in (None, "*")
    return any(_every_word(child) for child in q.children())


def _multi_terms(q: Any) -> list[Any]:
    """The term-expanding queries inside a query tree."""
    from whoosh import query as wq

    if isinstance(q, wq.MultiTerm):
        return [q]
    found = []
    for child in q.children():
        found.extend(_multi_terms(child))
    return found


def bounded_search(searcher: Any, q: Any, *, filter: Any = None, **options: Any) -> Any:
    """``Searcher.search`` with the expansion limits checked first and the time budget kept.

    A broad query first takes its place in the broad lane (kept to the end of the search). The
    collectors are Whoosh's own, as ``Searcher.search`` chains them, with the budget inside the
    filter (the filter's own loop then counts the documents it lets through).
    """
    from whoosh.collectors import FilterCollector

    _expand_once(q)
    scans = scans_word_lists(q)
    if scans and lane.diverting():
        lane.enter()  # Diverted: the broad worker reads the word lists, not the server's process
    # Counted first, outside the lane (at most a word list read per term of the query): a query
    # refused as too broad does not queue for the lane to be refused.
    expansions = check_expansions(q, searcher.reader())
    broad = expansions > BROAD_EXPANSIONS or scans
    if broad:
        lane.enter()
    budget = BROAD_TIME_BUDGET if broad or lane.inside() else TIME_BUDGET
    collector = _budget(searcher.collector(**options), budget)
    if filter:  # as Whoosh's: an empty set filters nothing
        collector = FilterCollector(collector, filter, None)
    searcher.search_with_collector(q, collector)
    return collector.results()


def _expand_once(q: Any) -> None:
    """Have each wildcard, prefix, range or fuzzy term of ``q`` find its terms once per reader.

    Whoosh finds them again to estimate a query's size and to match it, and once more per
    segment; a fuzzy word reads a whole word list each time (three quarters of the CPU of a
    one-word fuzzy search). Lists longer than the expansion limit are not kept: the query is
    refused for them.
    """
    for sub in _multi_terms(q):
        if "_btexts" in vars(sub):
            continue  # already done (a query searched twice)
        find = sub._btexts
        known: dict[int, tuple[Any, list[Any]]] = {}

        def once(reader: Any, find: Any = find, known: dict[int, Any] = known) -> Any:
            kept = known.get(id(reader))
            if kept is not None and kept[0] is reader:
                return iter(kept[1])
            terms = list(islice(find(reader), MAX_EXPANSIONS + 1))
            if len(terms) <= MAX_EXPANSIONS:
                known[id(reader)] = (reader, terms)
            return iter(terms)

        sub._btexts = once


def _budget(collector: Any, seconds: float) -> Any:
    """A collector that gives up (QueryTooBroad) once a search has taken ``seconds`` of CPU."""
    from whoosh.collectors import WrappingCollector

    class BudgetCollector(WrappingCollector):  # type: ignore[misc]
        """Looks at the thread's CPU time every 64 documents (no timer thread, no signal)."""

        def prepare(self, top_searcher: Any, q: Any, context: Any) -> None:
            # The thread's CPU time, not the clock: a loaded machine does not refuse queries.
            self.deadline = time.thread_time() + seconds
            self.seen = 0
            self.child.prepare(top_searcher, q, context)

        def collect(self, sub_docnum: int) -> Any:
            self.seen += 1
            if self.seen % 64 == 1 and time.thread_time() > self.deadline:
                raise QueryTooBroad(
                    f"query too broad: it takes longer than {seconds:g} s; add words or filters"
                )
            return self.child.collect(sub_docnum)

    return BudgetCollector(collector)

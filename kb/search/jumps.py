"""Rule-number jumps and keyword rules: the rules a number names, each followed by its subrules,
and the keyword rule a French or Spanish keyword's official name names.

Mixed into :class:`kb.search.searcher.SearchIndex` (through :class:`kb.search.ranking.Ranker`),
whose readers and default filters it searches with.
"""

from __future__ import annotations

from typing import Any

from whoosh import query as wq

from kb.search.editions import newest_edition
from kb.search.engine import as_set
from kb.search.lang import learned_rule
from kb.search.limits import bounded_search
from kb.search.plain import parse
from kb.search.query import QueryContext
from kb.search.results import result_record


class RuleJumps:
    """Rules found by their number (what :class:`SearchIndex` provides: schema, searcher)."""

    schema: Any
    searcher: Any

    def _filter(self, context: QueryContext, types: list[str] | None) -> Any:
        raise NotImplementedError

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

    def _result(self, hit: Any, lang: str, rank: int, newest: str | None) -> dict[str, Any]:
        return result_record(hit, self.schema, lang, rank, newest)


def _number_order(number: str) -> str:
    from kb.corpus.numbers import sort_key

    try:
        return sort_key(number)
    except ValueError:
        return number

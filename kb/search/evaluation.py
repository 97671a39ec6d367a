"""Relevance evaluation: run a set of queries with known answers and compute MRR and hit@k.

The set is a TSV file (``tests/data/search_eval.tsv``): language, query, expected result and a
note. ``rule:N`` expects that rule exactly, ``rule:N*`` the rule or one of its subrules, and
``card:NAME`` the card itself. Used by ``benchmarks/search.py`` and by the tests.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEPTH = 10  # results looked at per query (MRR counts a first hit below rank 10 as a miss)


@dataclass(frozen=True)
class EvalQuery:
    """One query of the set and the result a judge expects first."""

    lang: str
    query: str
    expected: str
    note: str = ""

    def matches(self, result: dict[str, Any]) -> bool:
        """Whether a search result is the expected one."""
        kind, _, value = self.expected.partition(":")
        if kind == "card":
            return result["type"] == "card" and result.get("card", {}).get("name") == value
        if kind != "rule" or result["type"] != "rule" or not result.get("number"):
            return False
        number = str(result["number"])
        if not value.endswith("*"):
            return number == value
        base = value[:-1]
        if number == base:
            return True
        if not number.startswith(base):
            return False
        rest = number[len(base) :]
        return rest[0].isalpha() if "." in base else rest[0] == "."


def load_queries(path: Path) -> list[EvalQuery]:
    """Read the evaluation set (``#`` lines are comments, the first other line the header)."""
    lines = [
        line
        for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    rows = list(csv.reader(lines[1:], delimiter="\t", quoting=csv.QUOTE_NONE))
    queries = []
    for number, row in enumerate(rows, 2):
        if len(row) < 3:
            raise ValueError(f"{path}: row {number}: expected language, query and expected result")
        kind = row[2].partition(":")[0]
        if kind not in ("rule", "card"):
            raise ValueError(f"{path}: row {number}: expected must start with rule: or card:")
        queries.append(EvalQuery(row[0], row[1], row[2], row[3] if len(row) > 3 else ""))
    return queries


def rank_of(query: EvalQuery, results: list[dict[str, Any]]) -> int | None:
    """The 1-based rank of the first expected result, or None."""
    for rank, result in enumerate(results, 1):
        if query.matches(result):
            return rank
    return None


def evaluate(index: Any, queries: list[EvalQuery]) -> dict[str, Any]:
    """Run every query; return per-language MRR, hit@1, hit@5 and each query's rank."""
    per_query = []
    for q in queries:
        response = index.search(q.query, lang=q.lang, limit=DEPTH)
        per_query.append(
            {
                "lang": q.lang,
                "query": q.query,
                "expected": q.expected,
                "rank": rank_of(q, response["results"]),
                "top": response["results"][0]["title"] if response["results"] else None,
            }
        )
    return {"languages": summarise(per_query), "queries": per_query}


def summarise(per_query: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """MRR, hit@1 and hit@5 per language (and for all queries)."""
    groups: dict[str, list[int | None]] = {}
    for row in per_query:
        groups.setdefault(row["lang"], []).append(row["rank"])
        groups.setdefault("all", []).append(row["rank"])
    summary = {}
    for lang, ranks in groups.items():
        n = len(ranks)
        summary[lang] = {
            "queries": n,
            "mrr": round(sum(1 / r for r in ranks if r) / n, 3),
            "hit@1": round(sum(1 for r in ranks if r == 1) / n, 3),
            "hit@5": round(sum(1 for r in ranks if r and r <= 5) / n, 3),
        }
    return summary

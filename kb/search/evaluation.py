"""Relevance evaluation: run a set of queries with known answers and compute MRR and hit@k.

Two sets, both TSV. ``tests/data/search/relevance.tsv`` (issue 12, written before tuning): split
(dev, dev2 to dev22 or test, fixed), language, style (title or question), query and the accepted
answers, space-separated. The older ``tests/data/search_eval.tsv``: language, query, one answer
and a note. An answer ``rule:N`` is that rule exactly, ``rule:N*`` the rule or one of its
subrules, ``card:NAME`` the card itself. Used by ``benchmarks/search.py`` and by the tests.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEPTH = 10  # results looked at per query (MRR counts a first hit below rank 10 as a miss)
# dev2 to dev22: later dev sets, each written once the dev sets before it were near their ceiling
SPLITS = (
    "dev",
    "dev2",
    "dev3",
    "dev4",
    "dev5",
    "dev6",
    "dev7",
    "dev8",
    "dev9",
    "dev10",
    "dev11",
    "dev12",
    "dev13",
    "dev14",
    "dev15",
    "dev16",
    "dev17",
    "dev18",
    "dev19",
    "dev20",
    "dev21",
    "dev22",
    "test",
)
STYLES = ("title", "question")


@dataclass(frozen=True)
class EvalQuery:
    """One query of the set and the results a judge accepts first."""

    lang: str
    query: str
    expected: str
    note: str = ""
    split: str = "dev"
    style: str = "title"
    # The accepted answers (any one is a hit); by default the one ``expected`` names.
    alternatives: tuple[str, ...] = ()

    @property
    def answers(self) -> tuple[str, ...]:
        """The accepted answers (any one of them is a hit)."""
        return self.alternatives or (self.expected,)

    def matches(self, result: dict[str, Any]) -> bool:
        """Whether a search result is one of the expected ones."""
        return any(_matches(answer, result) for answer in self.answers)


def _matches(answer: str, result: dict[str, Any]) -> bool:
    kind, _, value = answer.partition(":")
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
    """Read an evaluation set (``#`` lines are comments, the first other line the header)."""
    lines = [
        line
        for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    header = lines[0].split("\t") if lines else []
    rows = list(csv.reader(lines[1:], delimiter="\t", quoting=csv.QUOTE_NONE))
    queries = []
    for number, row in enumerate(rows, 2):
        if "split" in header:
            query = _split_row(path, number, row)
        else:
            if len(row) < 3:
                raise ValueError(
                    f"{path}: row {number}: expected language, query and expected result"
                )
            query = EvalQuery(row[0], row[1], row[2], row[3] if len(row) > 3 else "")
        for answer in query.answers:
            if answer.partition(":")[0] not in ("rule", "card"):
                raise ValueError(f"{path}: row {number}: {answer!r} must start with rule: or card:")
        queries.append(query)
    return queries


def _split_row(path: Path, number: int, row: list[str]) -> EvalQuery:
    if len(row) != 5:
        raise ValueError(f"{path}: row {number}: expected split, lang, style, query, expected")
    split, lang, style, query, expected = row
    if split not in SPLITS or style not in STYLES:
        raise ValueError(
            f"{path}: row {number}: split must be one of {', '.join(SPLITS)},"
            " style title or question"
        )
    answers = tuple(expected.split())
    return EvalQuery(lang, query, expected, split=split, style=style, alternatives=answers)


def rank_of(query: EvalQuery, results: list[dict[str, Any]]) -> int | None:
    """The 1-based rank of the first expected result, or None."""
    for rank, result in enumerate(results, 1):
        if query.matches(result):
            return rank
    return None


def evaluate(index: Any, queries: list[EvalQuery], *, with_lang: bool = True) -> dict[str, Any]:
    """Run every query (with its language as ``--lang``, or none); per-language MRR and hits."""
    per_query = []
    for q in queries:
        response = index.search(q.query, lang=q.lang if with_lang else None, limit=DEPTH)
        per_query.append(
            {
                "lang": q.lang,
                "split": q.split,
                "style": q.style,
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

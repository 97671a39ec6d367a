"""benchmarks/search.py times a search the engine refuses as too broad instead of failing."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from kb.search.limits import QueryTooBroad

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "search.py"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(SCRIPT.parent))  # it imports its neighbours
    try:
        spec = importlib.util.spec_from_file_location("search_benchmark", SCRIPT)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(SCRIPT.parent))


def _refuse(q):
    raise QueryTooBroad(f"{q.query}: too broad")


def test_a_refused_search_is_timed_and_counted(bench, capsys) -> None:
    queries = [SimpleNamespace(query="ring", lang="en"), SimpleNamespace(query="a*", lang="en")]
    runs = {"kb": lambda q: None, "public": lambda q: _refuse(q) if "*" in q.query else None}
    times = bench.time_turns(runs, queries, rounds=2)
    assert len(times["public"]["cpu"]) == len(times["kb"]["cpu"]) == 4
    assert times["public"]["refused"] == ["a*", "a*"] and times["kb"]["refused"] == []
    bench.summary("public", times["public"])
    assert "refused as too broad: 2 of 4 calls (a*)" in capsys.readouterr().out


def test_an_engine_that_refuses_a_query_gets_no_ratio(bench, capsys) -> None:
    queries = [SimpleNamespace(query="a*", lang="en")]
    engines = {"kb": lambda q: (["701.54"], 1), "public": _refuse}
    assert bench.per_query(queries, engines) == {"public"}
    assert "refused" in capsys.readouterr().out

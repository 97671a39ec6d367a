"""Bounded query cost, concurrent searches and checked date ranges (issue 15, items 1 and 2)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from search_kb import ingested, run


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small corpus ingested and indexed through the CLI."""
    folder = tmp_path_factory.mktemp("limits") / "_kb"
    ingested(folder)
    assert run(folder, "index").exit_code == 0
    return folder


@pytest.fixture
def index(home: Path) -> Any:
    from kb.search import open_index

    with open_index(home / "index") as opened:
        yield opened


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("date:[9999 TO 0]", "'0' is not a date"),
        ("date:[0 TO 9999]", "'0' is not a date"),
        ("date:[a TO b]", "'a' is not a date"),
        ("date:[2023 TO 2021]", "starts after it ends (2023 > 2021)"),
    ],
)
def test_bad_date_ranges_exit_2_naming_the_value(home: Path, query: str, named: str) -> None:
    result = run(home, "search", query)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("kb: error: ") and named in result.output
    assert "Traceback" not in result.output


def test_a_good_date_range_still_filters(home: Path) -> None:
    assert run(home, "search", "date:[2000 TO 2030]", "vote").exit_code in (0, 1)
    assert run(home, "search", "date:[2021-02 TO 2021-02]").exit_code in (0, 1)


def test_the_api_answers_400_for_a_bad_range_and_a_broad_query(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kb.config import Settings
    from kb.search import limits
    from kb.serve import ApiError, SearchService

    monkeypatch.setattr(limits, "MAX_EXPANSIONS", 3)
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    service = SearchService(Settings(home=home, database_url=url))
    try:
        for query, named in [("date:[a TO b]", "'a'"), ("a* b*", "query too broad")]:
            with pytest.raises(ApiError) as caught:
                service.search({"q": query, "fuzzy": "1", "lang": "fr"})
            assert caught.value.status == 400 and named in caught.value.message
    finally:
        service.close()


@pytest.mark.parametrize("query", ["a*", "*a*", "[a TO z]", "a* b* c* d* e* f* g* h*"])
def test_expansions_are_capped(home: Path, monkeypatch: pytest.MonkeyPatch, query: str) -> None:
    from kb.search import limits

    monkeypatch.setattr(limits, "MAX_EXPANSIONS", 5)
    result = run(home, "search", query, "--fuzzy")
    assert result.exit_code == 2, result.output
    assert "kb: error: query too broad" in result.output


def test_a_narrow_wildcard_is_still_answered(home: Path) -> None:
    result = run(home, "search", "tempt*", "--json")
    assert result.exit_code == 0, result.output


def test_the_time_budget_stops_a_slow_search(index: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kb.search import limits

    monkeypatch.setattr(limits, "TIME_BUDGET", 0.0)
    with pytest.raises(limits.QueryTooBroad, match="takes longer than"):
        index.search("tempt*", limit=5)
    monkeypatch.setattr(limits, "TIME_BUDGET", 2.0)
    assert index.search("tempt*", limit=5)["results"]


def test_searches_run_concurrently(index: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two searches are inside the index at once (a global lock would break the barrier)."""
    from kb.search.searcher import SearchIndex

    barrier = threading.Barrier(2, timeout=10)
    original = SearchIndex._ranked

    def meeting(self: Any, *args: Any, **kwargs: Any) -> Any:
        barrier.wait()
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SearchIndex, "_ranked", meeting)
    errors: list[BaseException] = []

    def search() -> None:
        try:
            index.search("vote")
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=search) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors


def test_concurrent_searches_give_the_serial_answers(index: Any) -> None:
    queries = ["vote", "ring tempts you", "lore counter", "saga OR vote", "tempt*", "ballot"]
    expected = {q: [r["key"] for r in index.search(q)["results"]] for q in queries}
    found: list[tuple[str, list[str]]] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(5):
            for q in queries:
                keys = [r["key"] for r in index.search(q)["results"]]
                with lock:
                    found.append((q, keys))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(found) == 4 * 5 * len(queries)
    assert all(keys == expected[q] for q, keys in found)


@pytest.mark.parametrize("query", ["tempt*", '"the ring"', "vote OR ring", "tempts --fuzzy"])
def test_searches_through_whooshs_matchers_keep_the_default_filter(index: Any, query: str) -> None:
    """Prefixes, phrases, fuzzy words: only the newest edition's items, as for plain words."""
    newest = index.editions[-1]
    text, _, option = query.partition(" --")
    response = index.search(text, fuzzy=option == "fuzzy", limit=50)
    assert response["results"], query
    for result in response["results"]:
        if result["type"] in ("rule", "example", "glossary"):
            assert newest in result["editions"], (query, result["key"], result["editions"])
    older = index.search(f"{text} edition:{index.editions[0]}", fuzzy=option == "fuzzy")
    assert all(index.editions[0] in r["editions"] for r in older["results"] if r["editions"])


@pytest.mark.parametrize("query", ["*", "*/*", "? *"])
def test_a_query_of_wildcards_alone_is_refused_at_once(home: Path, query: str) -> None:
    result = run(home, "search", query)
    assert result.exit_code == 2, result.output
    assert "has no word to search" in result.output and "Traceback" not in result.output


def test_a_field_wide_wildcard_is_refused_before_reading_every_word(
    index: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``text_en:*`` would read every word's postings before the time budget first looks."""
    from kb.search import limits

    looked: list[Any] = []
    original = limits._budget
    monkeypatch.setattr(limits, "_budget", lambda *a: looked.append(a) or original(*a))
    with pytest.raises(limits.QueryTooBroad, match="matches every word"):
        index.search("text_en:*", limit=5)
    assert not looked  # refused before any collector was made
    assert index.search("edition:all", limit=5)["results"]  # Every() of no field stays


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("a creature with * power", "a creature with power"),
        ("vote */*", "vote"),
        ("¿cuánto vale la fuerza de una criatura con * en el cementerio?", None),
    ],
)
def test_a_lone_star_among_words_is_no_wildcard(index: Any, query: str, words: str | None) -> None:
    """Players write * for a variable power or toughness: the other words are searched. Whoosh
    read a lone * as every word, which answered every text (or ran out of time)."""
    found = index.search(query, limit=10)
    assert found["results"] and found["query"] == query
    if words is not None:
        plain = index.search(words, limit=10)
        assert [r["url"] for r in found["results"]] == [r["url"] for r in plain["results"]]

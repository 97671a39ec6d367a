"""Queries in any language, the rule a query names first, stop and question words (issue 12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from search_kb import ingested, run


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small corpus ingested through the CLI: the ingest alone leaves a working index."""
    folder = tmp_path_factory.mktemp("languages") / "_kb"
    ingested(folder)
    return folder


@pytest.fixture(scope="module")
def index(home: Path) -> Any:
    from kb.search import open_index

    with open_index(home / "index") as opened:
        yield opened


def test_a_fresh_ingest_leaves_a_working_index(home: Path) -> None:
    result = run(home, "search", "vote")
    assert result.exit_code == 0, result.output
    assert "no search index" not in result.output


def test_words_of_another_language_are_found_without_lang(index: Any) -> None:
    response = index.search("Portador del Anillo")
    assert response["lang"] == "es" and response["lang_detected"] is True
    top = response["results"][0]
    assert top["number"].startswith("701.54") and "es" in top["matched_languages"]


def test_lang_still_narrows_the_search(index: Any) -> None:
    response = index.search("Portador del Anillo", lang="en")
    assert response["lang_detected"] is False
    assert not any("es" in r["matched_languages"] for r in response["results"])


@pytest.mark.parametrize(("query", "number"), [("ring tempts you", "701.54"), ("vote", "701.38")])
@pytest.mark.parametrize("lang", [None, "en"])
def test_the_rule_a_query_names_comes_first_then_its_subrules(
    index: Any, query: str, number: str, lang: str | None
) -> None:
    results = index.search(query, lang=lang)["results"]
    numbers = [r["number"] for r in results]
    assert numbers[0] == number, numbers
    subrules = [i for i, r in enumerate(results) if (r["number"] or "")[:-1] == number]
    assert subrules and subrules == list(range(1, len(subrules) + 1)), numbers
    glossary = [i for i, r in enumerate(results) if r["type"] == "glossary"]
    assert all(i > subrules[-1] for i in glossary), numbers


def test_a_question_is_searched_by_its_words(index: Any) -> None:
    from kb.search.query import drop_question_words

    question = "¿qué pasa si el Anillo te tienta dos veces?"
    assert drop_question_words(question, ("es",)) == "el Anillo te tienta dos veces"
    assert drop_question_words("what happens", ("en",)) == "what happens"  # nothing else left
    assert drop_question_words("tempt?", ("en",)) == "tempt?"  # a wildcard, not a question
    results = index.search(question)["results"]
    assert results and results[0]["number"].startswith("701.54")


@pytest.mark.parametrize(
    ("lang", "word", "terms"),
    [("fr", "les", ()), ("fr", "leurs", ()), ("fr", "cartes", ("cart",)), ("es", "los", ())],
)
def test_french_and_spanish_stop_words(lang: str, word: str, terms: tuple[str, ...]) -> None:
    from kb.search.analysis import query_terms, text_analyzer

    assert query_terms(text_analyzer(lang), word) == terms

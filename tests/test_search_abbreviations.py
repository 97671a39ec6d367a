"""Abbreviations a table uses ("ETB", "SBA"), and the rule a glossary term names ("APNAP order",
"hybrid mana"), on a made-up edition (tests/data/search/cr_apnap.txt)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from search_kb import ingested

from kb.search.abbreviations import expand_abbreviations

SAMPLE = Path(__file__).parent / "data" / "search" / "cr_apnap.txt"  # made-up rules


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from kb.search import open_index

    home = ingested(tmp_path_factory.mktemp("abbreviations") / "_kb", [SAMPLE])
    with open_index(home / "index") as opened:
        yield opened


@pytest.mark.parametrize(
    ("typed", "searched"),
    [
        ("ETB trigger", "enters the battlefield trigger"),
        ("SBAs", "state-based actions"),
        ("when are sba checked", "when are state-based actions checked"),
        ("une créature ETB", "une créature enters the battlefield"),
        ("cmc of a split card", "mana value of a split card"),
        # words that hold one, filters and the rules' own capitals stay as typed
        ("getb etbx type:rule", "getb etbx type:rule"),
        ("APNAP order", "APNAP order"),
    ],
)
def test_an_abbreviation_is_searched_as_the_rules_words(typed: str, searched: str) -> None:
    assert expand_abbreviations(typed) == searched


def test_an_abbreviation_finds_what_its_words_find(index: Any) -> None:
    """ "SBA" found nothing (no text writes it); it finds what "state-based actions" finds, and
    the query shown is the one typed."""
    typed = index.search("SBA", lang="en")
    written = index.search("state-based actions", lang="en")
    assert typed["query"] == "SBA"
    assert [r["key"] for r in typed["results"]] == [r["key"] for r in written["results"]]
    assert typed["results"][0]["number"] == "704"


def test_a_glossary_term_in_capitals_names_the_rule_its_entry_sends_to(index: Any) -> None:
    """ "APNAP order" is a glossary entry that sends to another ("See Active Player, Nonactive
    Player Order."), which cites 101.4: the words name 101.4, first, though five subrules say
    "APNAP order" in fewer words than 101.4 does. A word in capitals was left out of naming as
    if it were an operator (AND, OR, NOT), and the sending entry had no rule of its own."""
    results = index.search("APNAP order", lang="en")["results"]
    assert results[0]["number"] == "101.4", [r.get("number") for r in results]


def test_a_glossary_term_sent_to_an_untitled_rule_names_the_subrule_opening_with_it(
    index: Any,
) -> None:
    """ "Hybrid Mana Symbols ... See rule 107.4": 107.4 has no title of its own (it lists every
    kind of mana symbol), and 107.4c opens with the term ("A hybrid mana symbol is ..."): that
    subrule first, then 107.4 and its other subrules."""
    results = index.search("hybrid mana", lang="en")["results"]
    assert [r.get("number") for r in results[:2]] == ["107.4c", "107.4"]


@pytest.mark.parametrize(
    ("typed", "searched"),
    [
        ("who gets priority after a spell", "who gets priority receives priority after a spell"),
        ("my creature got killed", "my creature got killed destroy dies"),
        ("if I steal a creature", "if I steal gain control a creature"),
        ("a card in play", "a card in play battlefield"),
        ("who decides the order", "who decides chooses the order"),
        ("my trampler got blocked", "my trampler trample got blocked"),
        ("an extra cost", "an extra additional cost"),
        # a word that holds one, and a filter, stay as typed
        ("skilled type:rule", "skilled type:rule"),
    ],
)
def test_a_players_word_is_searched_with_the_rules_words(typed: str, searched: str) -> None:
    from kb.search.abbreviations import with_rules_words

    assert with_rules_words(typed) == searched


def test_only_an_english_question_gets_the_rules_words(
    index: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A title stays as typed ("Clone" and "Bounce" are cards); a question gets both."""
    import kb.search.ranking as ranking

    seen: list[str] = []
    original = ranking.with_rules_words
    monkeypatch.setattr(
        ranking, "with_rules_words", lambda text: seen.append(text) or original(text)
    )
    index.search("clone", lang="en")
    index.search("¿quién recibe la prioridad?", lang="es")
    assert seen == []
    found = index.search("when are state-based actions checked if I get priority", lang="en")
    assert seen and found["results"][0]["number"] == "704.2"

"""Ranking at the scale of a full history, on small synthetic indexes: many cards and rulings
beside few rules must not crowd the rule a query is about out of the results.

Each index is built by :func:`kb.search.indexer.build_index` from hand-made items (no database):
one edition's rules and glossary, and as many cards as a test needs.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest

from kb.search import indexer
from kb.search.indexer import item_hash
from kb.search.searcher import SearchIndex

EDITION = "2026-01-16"


def rule(number: str, title: str, text: str) -> dict[str, Any]:
    """A rule of the edition, as kb.search.documents builds one (English only)."""
    texts = {"en": {"title": title, "text": text, "provenance": "official"}}
    return {
        "key": f"rule:{EDITION}:{number}",
        "type": "rule",
        "kind": "rule",
        "number": number,
        "edition": EDITION,
        "bound": "edition",
        "date": datetime.datetime(2026, 1, 16),
        "text_en": f"{title}\n{title}\n{text}",
        "langs": "en",
        "provenance": "official",
        "data": {
            "number": number,
            "kind": "rule",
            "edition": EDITION,
            "texts": texts,
            "context": {},
            "editions": [EDITION],
        },
    }


def card(name: str, text: str, key: str) -> dict[str, Any]:
    """A card, as kb.search.card_docs builds one (English only)."""
    texts = {"en": {"title": name, "text": text, "provenance": "official"}}
    return {
        "key": f"card:{key}",
        "type": "card",
        "bound": "none",
        "card": name,
        "text_en": f"{name}\n{name}\n{text}",
        "langs": "en",
        "provenance": "official",
        "data": {"card_key": name, "name": name, "names": {"en": name}, "texts": texts},
    }


def build(folder: Path, items: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index of the items in ``folder`` (what ``kb index`` builds from a database)."""
    for item in items:
        item["hash"] = item_hash(item)
    with monkeypatch.context() as patch:
        patch.setattr(indexer, "all_items", lambda db: iter(items))
        patch.setattr(indexer, "save_learned_terms", lambda db, index_dir: None)
        indexer.build_index(None, folder)  # type: ignore[arg-type]
    return folder


@pytest.fixture(scope="module")
def poison(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One rule about poison counters and a hundred short cards that give them: each card
    scores higher than the rule by plain BM25, lower once a question's type prior counts."""
    items = [
        rule("704.5c", "State-Based Actions", "A player with ten or more poison counters loses."),
        rule("122.1", "Counters", "A counter is a marker placed on an object or player."),
        *(
            card(
                "Poison Counters",
                "When a player has ten poison counters, sacrifice this.",
                key=f"poison-{n}",
            )
            for n in range(100)
        ),
    ]
    with pytest.MonkeyPatch.context() as patch:
        return build(tmp_path_factory.mktemp("poison") / "index", items, patch)


@pytest.mark.parametrize("term_engine", [True, False])
def test_a_question_weighs_the_type_prior_before_choosing_its_best(
    poison: Path, term_engine: bool
) -> None:
    """The question's candidates are ranked by BM25F times the type prior over all of them: a
    prior applied to the best few of plain BM25F finds only cards there (a full history has
    some 30,000 of them beside 3,000 rules) and the rule never gets its chance."""
    question = "what happens when a player has ten poison counters"
    with SearchIndex(poison, term_engine=term_engine) as index:
        results = index.search(question, lang="en")["results"]
    assert results[0]["number"] == "704.5c", [r["title"] for r in results]


@pytest.fixture(scope="module")
def circles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rule "Protection", a long text, and thirty short cards named "Circle of Protection"
    that BM25 ranks before it: more than the first pass looks at for the named rule."""
    subrules = " ".join(
        f"Protection from {quality} means the permanent can't be blocked, enchanted, equipped,"
        f" fortified or targeted by anything {quality}, and damage from such sources is prevented."
        for quality in ("white", "blue", "black", "red", "green", "artifacts")
    )
    items = [
        rule("702.16", "Protection", subrules),
        rule("702.16a", "Protection", subrules),
        *(card("Circle of Protection", "Prevent damage.", key=f"c{n}") for n in range(30)),
    ]
    with pytest.MonkeyPatch.context() as patch:
        return build(tmp_path_factory.mktemp("circles") / "index", items, patch)


@pytest.mark.parametrize("lang", ["en", None])
def test_the_named_rule_comes_first_when_many_cards_share_its_name(
    circles: Path, lang: str | None
) -> None:
    """ "protection" names rule 702.16: it comes first, then its subrule, even when more cards
    than the first hits looked at (naming.DEPTH) hold the word in their names."""
    from kb.search.naming import DEPTH

    with SearchIndex(circles) as index:
        first = index.rank("protection", lang=lang, limit=DEPTH)
        assert all(hit["type"] == "card" for hit in first)  # the rule is below the first hits
        response = index.search("protection", lang=lang)
    shown = [(r["type"], r.get("number")) for r in response["results"]]
    assert shown[:2] == [("rule", "702.16"), ("rule", "702.16a")], shown
    assert response["total"] == 32


@pytest.fixture(scope="module")
def libraries(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rules that say "no cards in" a library (an empty one), one that says "no cards could be
    drawn" (not an empty library), and one where the stack is empty."""
    items = [
        rule(
            "121.4",
            "Drawing a Card",
            "A player who draws from a library with no cards in it loses.",
        ),
        rule("121.6a", "Drawing a Card", "No cards could be drawn from that library this turn."),
        rule("117.1a", "Timing", "A sorcery is cast while the stack is empty."),
    ]
    with pytest.MonkeyPatch.context() as patch:
        return build(tmp_path_factory.mktemp("libraries") / "index", items, patch)


@pytest.mark.parametrize("term_engine", [True, False])
def test_an_empty_library_is_found_where_the_rules_say_no_cards_in_it(
    libraries: Path, term_engine: bool
) -> None:
    """The rules say "a library with no cards in it" where a judge says "an empty library":
    the paraphrase is indexed as "empty", so every word of the query is found in that rule
    (and not in one where "no cards could be drawn")."""
    with SearchIndex(libraries, term_engine=term_engine) as index:
        response = index.search("empty library", lang="en")
        empty = index.search("empty", lang="en")["results"]
    assert response["total"] == 1, response["results"]
    assert response["results"][0]["number"] == "121.4"
    assert sorted(r["number"] for r in empty) == ["117.1a", "121.4"]

"""Keyword terms learned from card translations (kb.terminology): the method, the store, the CLI."""

from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from kb.cli import main
from kb.models import Card, CardTerm
from kb.terminology import CardText, conflicts, learn, list_terms, rule_terms, terms_current
from kb.terminology.align import KeywordMatcher, aligned_lines, g2
from kb.terminology.store import card_texts

SAMPLE = Path(__file__).parent / "data" / "terminology" / "hand_sample.tsv"


def _card(name: str, en: str, fr: str, *keywords: str) -> CardText:
    return CardText(name, f"{name} (fr)", en, fr, keywords)


def _synthetic() -> list[CardText]:
    cards = [_card(f"Snake {i}", "Deathtouch", "Contact mortel", "Deathtouch") for i in range(4)]
    cards += [
        _card(f"Bird {i}", f"Flying\nDraw {i} cards.", f"Vol\nPiochez {i} cartes.", "Flying")
        for i in range(5)
    ]
    cards += [
        _card(
            f"Assassin {i}",
            "Flying, deathtouch",
            "Vol, contact mortel",
            "Deathtouch",
            "Flying",
        )
        for i in range(2)
    ]
    cards += [
        _card(f"Bear {i}", "When this enters, draw a card.", "Quand il arrive, piochez une carte.")
        for i in range(6)
    ]
    return cards


def test_g2_is_signed_and_zero_without_association():
    assert g2(10, 0, 0, 90) > 50
    assert g2(1, 9, 9, 81) == pytest.approx(0.0, abs=1e-9)
    assert g2(0, 10, 10, 80) < 0


def test_matcher_inflects_actions_only_and_prefers_longest_names():
    matcher = KeywordMatcher(["Mill", "Enchant", "Partner", "Partner with"], ["Mill"])
    assert set(matcher.mentions("Target player mills three cards.")) == {"mill"}
    assert matcher.mentions("Enchanted creature gets +1/+1.") == {}
    assert set(matcher.mentions("Partner with Pako")) == {"partner with"}


def test_lines_pair_up_only_when_faces_and_lines_agree():
    assert aligned_lines("A\nB // C", "a\nb // c") == [("A", "a"), ("B", "b"), ("C", "c")]
    assert aligned_lines("A\nB", "a b") is None
    assert aligned_lines("A // B", "a") is None


def test_learns_terms_with_evidence_from_synthetic_cards():
    learned = {
        t.keyword: t for t in learn(_synthetic(), "fr", {"Deathtouch": True, "Flying": True})
    }
    assert learned["Deathtouch"].term == "contact mortel"
    assert learned["Deathtouch"].label == "contact mortel"  # mid-sentence spelling
    assert learned["Deathtouch"].cards == 6
    assert learned["Flying"].term == "vol" and learned["Flying"].label == "vol"  # opens lines
    assert len(learned["Deathtouch"].examples) == 2
    assert 0.9 <= learned["Deathtouch"].confidence <= 1.0
    # Nothing is invented for a keyword no card carries.
    assert "Trample" not in learned


def test_an_ability_word_printed_without_its_dash_stops_at_the_next_sentence():
    """Older printings' foreign texts lost the dash after an ability word ("Hermandad Al
    comienzo…"): every n-gram into the next sentence is on all the keyword's cards, yet the
    name ends where a capital opens the sentence."""
    cards = [
        CardText(
            f"Kith {i}",
            f"Hermanos {i}",
            f"Kinship — At the beginning of your upkeep, you may look at card {i}.",
            f"Hermandad Al comienzo de tu mantenimiento, puedes mirar la carta {i}.",
            ("Kinship",),
        )
        for i in range(5)
    ]
    cards += [
        CardText(
            f"Bear {i}",
            f"Oso {i}",
            "At the beginning of your end step, draw a card.",
            "Al comienzo de tu paso final, roba una carta.",
            (),
        )
        for i in range(3)
    ]
    learned = {t.keyword: t for t in learn(cards, "es", {"Kinship": True})}
    assert learned["Kinship"].term == "hermandad"
    assert learned["Kinship"].label == "hermandad"


def _sample() -> dict[tuple[str, str], list[str]]:
    with SAMPLE.open(encoding="utf-8") as handle:
        return {
            (row["language"], row["keyword"]): [f.casefold() for f in row["term"].split(";")]
            for row in csv.DictReader(handle, delimiter="\t")
        }


def test_hand_sample_has_forty_keywords_per_language_with_two_source_cards():
    sample = _sample()
    for lang in ("fr", "es"):
        assert sum(1 for key in sample if key[0] == lang) >= 40
    with SAMPLE.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            assert len(row["source_cards"].split("; ")) == 2, row


def test_precision_and_coverage_on_the_shared_sets(full_db):
    """KHM + CN2: the learned terms agree with the hand sample and cover the keywords."""
    sample = _sample()
    with full_db.session() as session:
        rows = list_terms(session)
        translated = {lang: card_texts(session, lang) for lang in ("fr", "es")}
    judged = [r for r in rows if (r["language"], r["keyword"]) in sample]
    right = [r for r in judged if r["term"].casefold() in sample[(r["language"], r["keyword"])]]
    assert len(judged) >= 25
    assert len(right) / len(judged) >= 0.9, [r["keyword"] for r in judged if r not in right]
    learned = {(r["language"], r["keyword"]) for r in rows}
    for lang in ("fr", "es"):
        counts = Counter(k for card in translated[lang] for k in card.keywords)
        frequent = [k for k, n in counts.items() if n >= 3]
        covered = [k for k in frequent if (lang, k) in learned]
        assert len(covered) / len(frequent) >= 0.8, sorted(set(frequent) - set(covered))


def test_keyword_rules_get_their_learned_titles(full_db):
    with full_db.session() as session:
        titles = rule_terms(session, ["702.2", "702.9", "701.54"], "fr")
        assert titles["702.2"] == "Contact mortel"
        assert titles["702.9"] == "Vol"
        assert "701.54" not in titles  # no card keyword: nothing learned
        assert rule_terms(session, ["702.2"], "es") == {"702.2": "Toque mortal"}
        assert terms_current(session)


def test_cards_keep_their_mtgjson_keywords(full_db):
    with full_db.session() as session:
        card = session.scalar(select(Card).where(Card.name == "Varragoth, Bloodsky Sire"))
        assert card is not None and "Deathtouch" in card.keywords and "Boast" in card.keywords


def test_terms_cli_lists_json_and_checks(full_settings):
    runner = CliRunner()
    home = ["--home", str(full_settings.home)]
    if full_settings.database_url:
        home += ["--database", full_settings.database_url]
    result = runner.invoke(main, [*home, "terms", "--lang", "es", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    deathtouch = next(r for r in rows if r["keyword"] == "Deathtouch")
    assert deathtouch["term"] == "toque mortal" and deathtouch["rule"] == "702.2"
    assert {r["language"] for r in rows} == {"es"}
    assert len(deathtouch["examples"]) == 2 and deathtouch["cards"] >= 3
    table = runner.invoke(main, [*home, "terms", "--lang", "fr"])
    assert "contact mortel" in table.output and "official card translations" in table.output
    check = runner.invoke(main, [*home, "terms", "--check", "--json"])
    assert check.exit_code in (0, 1)
    assert all(row["reasons"] for row in json.loads(check.output))
    bad = runner.invoke(main, [*home, "terms", "--lang", "en"])
    assert bad.exit_code == 2 and "fr and es only" in bad.output


def test_conflicts_flag_competing_translations(settings):
    from kb.pipeline import open_db

    db = open_db(settings)
    try:
        with db.session() as session, session.begin():
            session.add(
                CardTerm(
                    keyword="First strike",
                    language="es",
                    rule="702.7",
                    term="daña primero",
                    label="daña primero",
                    cards=120,
                    keyword_cards=190,
                    confidence=0.8,
                    source="lines",
                    reminder_cards=0,
                    examples=[["Tundra Wolves", "Lobos de la tundra"]],
                    alternatives=[{"term": "dañar primero", "cards": 66, "confidence": 0.5}],
                )
            )
        with db.session() as session:
            (found,) = conflicts(session, "es")
            assert "dañar primero" in found["reasons"][0]
            assert conflicts(session, "fr") == []
    finally:
        db.dispose()


def test_po_entries_carry_the_official_terms_they_name(full_db):
    from kb.export.po import export_po

    with full_db.session() as session:
        po = export_po(session, "fr", items=["702.2"]).data.decode("utf-8")
    assert "Official terms (from Wizards' card translations): Deathtouch = contact" in po


@pytest.fixture(scope="module")
def full_index(full_settings, tmp_path_factory):
    from kb.pipeline import open_db
    from kb.search import build_index

    index_dir = tmp_path_factory.mktemp("terms-index") / "index"
    db = open_db(full_settings, create=False)
    try:
        build_index(db, index_dir)
    finally:
        db.dispose()
    return index_dir


@pytest.mark.parametrize(
    ("query", "lang"),
    [
        ("contact mortel", None),
        ("contact mortel", "fr"),
        ("toque mortal", None),
        ("toque mortal", "es"),
        ("piétinement", None),
        ("arrolla", "es"),
    ],
)
def test_learned_terms_find_their_keyword_rule_first(full_index, query, lang):
    from kb.search import search

    expected = {"contact mortel": "702.2", "toque mortal": "702.2"}.get(query, "702.19")
    response = search(full_index, query, lang=lang, limit=3)
    assert response["results"][0]["number"] == expected


def test_official_keyword_names_reach_their_rule_first(full_settings, full_index):
    """tests/data/search_eval_terms.tsv, judged on the queries the shared sets' cards teach."""
    from kb.pipeline import open_db
    from kb.search import open_index
    from kb.search.evaluation import evaluate, load_queries

    db = open_db(full_settings, create=False)
    try:
        with db.session() as session:
            taught = {(r["language"], r["keyword"]) for r in list_terms(session)}
    finally:
        db.dispose()
    queries = [
        q
        for q in load_queries(Path(__file__).parent / "data" / "search_eval_terms.tsv")
        if (q.lang, q.note) in taught
    ]
    with open_index(full_index) as index:
        report = evaluate(index, queries)
    for lang in ("fr", "es"):
        scores = report["languages"][lang]
        assert scores["queries"] >= 12, scores
        assert scores["hit@1"] >= 0.9, [q for q in report["queries"] if q["rank"] != 1]


def _mill_cards() -> list[CardText]:
    """Old printings: Mill printed as "met … dans son cimetière"; since 2020, "meule"."""
    old = [
        CardText(
            f"Old {i}",
            f"Vieux {i}",
            f"Target player mills {i + 2} cards.",
            f"Le joueur ciblé met les {i + 2} cartes du dessus de sa bibliothèque dans son "
            f"cimetière.",
            ("Mill",),
            f"{1996 + i}-04-01",
        )
        for i in range(12)
    ]
    new = [
        CardText(
            f"New {i}",
            f"Neuf {i}",
            ("Target player" if i % 2 else "Each opponent") + f" mills {i + 2} cards.",
            ("Le joueur ciblé" if i % 2 else "Chaque adversaire") + f" meule {i + 2} cartes.",
            ("Mill",),
            f"{2021 + i % 3}-06-01",
        )
        for i in range(5)
    ]
    other = [
        CardText(
            f"Bear {i}",
            f"Ours {i}",
            "Target player draws a card.",
            "Le joueur ciblé pioche une carte.",
            (),
            "2010-01-01",
        )
        for i in range(8)
    ]
    return old + new + other


def test_a_renamed_keyword_gets_the_name_its_recent_cards_print():
    (mill,) = learn(_mill_cards(), "fr", {"Mill": True}, ["Mill"])
    assert mill.term == "meule"  # 5 recent cards, against 12 old ones
    (older,) = [a for a in mill.alternatives if a.get("older")]
    assert "cimetière" in older["term"] or "dessus" in older["term"]
    assert older["last"] == "2007-04-01" and older["current_since"] == "2021-06-01"
    # Undated cards: the best association wins, as before.
    undated = [replace(card, date="") for card in _mill_cards()]
    (plain,) = learn(undated, "fr", {"Mill": True}, ["Mill"])
    assert plain.term != "meule" and not any(a.get("older") for a in plain.alternatives)


def test_check_lists_an_older_and_a_newer_name_of_a_keyword(settings):
    from kb.pipeline import open_db

    (mill,) = learn(_mill_cards(), "fr", {"Mill": True}, ["Mill"])
    db = open_db(settings)
    try:
        with db.session() as session, session.begin():
            session.add(
                CardTerm(
                    keyword="Mill",
                    language="fr",
                    rule="701.17",
                    term=mill.term,
                    label=mill.label,
                    cards=mill.cards,
                    keyword_cards=mill.keyword_cards,
                    confidence=mill.confidence,
                    source=mill.source,
                    examples=[list(e) for e in mill.examples],
                    alternatives=mill.alternatives,
                )
            )
        with db.session() as session:
            (found,) = conflicts(session, "fr")
            (reason,) = [r for r in found["reasons"] if "changed over the years" in r]
            assert "'meule'" in reason and "first printed 2021-06-01" in reason
            assert "2007-04-01" in reason
    finally:
        db.dispose()


def test_term_links_of_french_and_spanish_cards_use_the_learned_terms(full_db):
    from kb.links.learned import learned_current, learned_names
    from kb.models import CardLocalization, Link

    with full_db.session() as session:
        names = {lang: learned_names(session, lang) for lang in ("fr", "es")}
        assert names["fr"]["contact mortel"] == "Deathtouch"
        assert names["es"]["toque mortal"] == "Deathtouch"
        # Everyday actions are left to where a text is about them, as in English.
        assert not {"Destroy", "Sacrifice", "Exile"} & set(names["fr"].values())
        assert learned_current(session)  # the ingest linked with the names stored now
        matched = session.scalars(
            select(Link.matched)
            .join(CardLocalization, CardLocalization.id == Link.source_id)
            .where(
                Link.source_type == "card_text",
                Link.kind == "term",
                Link.target == "702.2",
                CardLocalization.language == "fr",
            )
        ).all()
        assert matched and all(m.casefold() == "contact mortel" for m in matched)

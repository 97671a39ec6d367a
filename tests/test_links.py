"""Links on the real corpus and the seeds: rulings to rules, references, backlinks, kb check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from kb.cli import main
from kb.langs import normalize_typography
from kb.links import (
    backlinks,
    clarifications_for_rule,
    rules_for_clarification,
    unresolved,
)
from kb.links.evaluate import Score, load_labels
from kb.models import ClarificationText, Edition, Link, Rule, RuleText

LABELS = Path(__file__).parent / "data" / "links" / "labelled_clarifications.json"


def clarification_id(session, fragment: str) -> int:
    ids = session.scalars(
        select(ClarificationText.clarification_id).where(ClarificationText.text.contains(fragment))
    ).all()
    assert len(set(ids)) == 1, (fragment, ids)
    return ids[0]


def linked_numbers(session, fragment: str, edition=None) -> set[str]:
    return {
        r["number"]
        for r in rules_for_clarification(session, clarification_id(session, fragment), edition)
    }


@pytest.mark.parametrize(
    ("fragment", "number"),
    [
        ("Each time the Ring tempts you, you must choose", "701.54"),
        ("The Ring can tempt you even if", "701.54"),
        ("cause the Ring to tempt you may require targets", "701.54"),
        ("only one Ring-bearer at a time", "701.54"),
        ("the vote is tied", "701.38"),
        ("non-secret voting", "701.38"),
        ("finish voting", "701.38"),
        ("They can't abstain", "701.38"),
        ("Removing lore counters", "714"),
        ("Each symbol on the left of a Saga", "714"),
        ("If multiple chapter abilities trigger", "714"),
        ("This state-based action doesn", "704"),
        ("Each player can have only one emblem named The Ring", "114"),
    ],
)
def test_seed_rulings_link_to_the_rules_that_govern_them(full_db, fragment, number) -> None:
    with full_db.session() as s:
        numbers = linked_numbers(s, fragment)
        assert any(n == number or n.startswith(number + ".") for n in numbers), numbers


def test_term_links_follow_each_edition_numbering(full_db) -> None:
    with full_db.session() as s:
        assert "701.38" in linked_numbers(s, "They can't abstain")  # Vote today
        assert "701.32" in linked_numbers(s, "They can't abstain", "2021-02-05")  # Vote in 2021
        assert "701.38" not in linked_numbers(s, "They can't abstain", "2021-02-05")  # Goad
        # The Ring Tempts You is not in the 2021 edition: nothing to link to there.
        assert not linked_numbers(s, "Each time the Ring tempts you", "2021-02-05")


def test_spanish_rule_page_reference_resolves(full_db) -> None:
    with full_db.session() as s:
        text_id = s.scalar(
            select(RuleText.id)
            .join(Rule, Rule.id == RuleText.rule_id)
            .join(Edition, Edition.id == Rule.edition_id)
            .where(Edition.key == "es:translations", Rule.number == "701.54d")
        )
        links = s.scalars(
            select(Link).where(
                Link.source_type == "rule_text", Link.source_id == text_id, Link.kind == "explicit"
            )
        ).all()
        assert [(link.target, link.matched, link.resolved) for link in links] == [
            ("701.54a", "regla 701.54a", True)
        ]
        edition = s.get(Edition, links[0].target_edition_id)
        assert edition.key == "en:2026-01-16"
        assert s.get(Rule, links[0].target_rule_id).number == "701.54a"


def test_backlinks_of_a_rule(full_db) -> None:
    with full_db.session() as s:
        found = backlinks(s, "701.54")
        glossary = {b["term"] for b in found if b["source_type"] == "glossary"}
        assert glossary == {"Ring-bearer", "The Ring", "The Ring Tempts You"}
        rulings = [b for b in found if b["source_type"] == "clarification_text"]
        assert len(rulings) >= 7
        assert all(b["kind"] == "term" and b["cards"] for b in rulings)
        # 701.54d citing 701.54a is inside the rule asked about: not a backlink of 701.54
        assert not [b for b in found if b["source_type"] == "rule_text"]
        for b in found:
            assert {
                "source_type",
                "language",
                "kind",
                "label",
                "number",
                "term",
                "clarification_id",
                "cards",
                "matched",
            } <= set(b)
        sub = backlinks(s, "701.54a")
        citing = {(b["number"], b["language"]) for b in sub if b["source_type"] == "rule_text"}
        assert citing == {("701.54d", "en"), ("701.54d", "es")}


def test_backlinks_of_a_rule_cited_by_rules_and_examples(full_db) -> None:
    with full_db.session() as s:
        found = backlinks(s, "608.2b")
        kinds = {b["source_type"] for b in found}
        assert {"rule_text", "glossary", "clarification_text"} <= kinds
        assert found == sorted(
            found,
            key=lambda b: ["rule_text", "example", "glossary", "clarification_text"].index(
                b["source_type"]
            ),
        )


def test_clarifications_for_rule(full_db) -> None:
    with full_db.session() as s:
        today = clarifications_for_rule(s, "701.38")
        then = clarifications_for_rule(s, "701.32", "2021-02-05")
        assert {c["id"] for c in today} == {c["id"] for c in then}
        assert len(today) >= 8
        goad_2021 = {c["id"] for c in clarifications_for_rule(s, "701.38", "2021-02-05")}
        assert goad_2021 and not goad_2021 & {c["id"] for c in today}
        first = today[0]
        assert set(first) >= {"id", "date", "source", "texts", "cards", "rules", "kind"}
        assert first["texts"]["en"]["provenance"] == "official"
        assert [c["date"] for c in today] == sorted(c["date"] for c in today)
        saga = clarifications_for_rule(s, "714")
        only_rule = clarifications_for_rule(s, "714", include_subrules=False)
        assert len(saga) > len(only_rule) >= 5  # some reach 714 through 714.2 (chapter ability)


def test_unresolved_references_are_kept_and_listed(full_db) -> None:
    with full_db.session() as s:
        found = unresolved(s, all_editions=True)
    where = {(u["edition"], u["target"], u["source_type"], u["label"]) for u in found}
    # The real 2025 and 2026 glossaries cite a rule 110.10 that neither edition has.
    assert ("2026-01-16", "110.10", "glossary", "Map") in where
    assert ("2025-11-14", "110.10", "glossary", "Map") in where
    # The Spanish rule page's sibling list names rules no edition has.
    siblings = sorted(u["target"] for u in found if u["kind"] == "sibling")
    assert siblings == ["701.69", "701.70", "701.71"]


def test_kb_check_lists_them_and_fails(full_settings) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["--home", str(full_settings.home), "check", "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    # Only the real 2025 and 2026 glossaries' 110.10: the Spanish page's siblings 701.69-701.71
    # are not unresolved, the page follows an English edition newer than any loaded.
    assert report["counts"]["unresolved"] == len(report["unresolved"]) == 2
    assert {u["target"] for u in report["unresolved"]} == {"110.10"}
    assert [
        (n["language"], n["number"], n["newer_than"], n["lacking"]) for n in report["newer"]
    ] == [("es", "701.54", "2026-01-16", ["701.69", "701.70", "701.71"])]
    assert report["translations"] == []
    text = runner.invoke(main, ["--home", str(full_settings.home), "check"])
    assert "110.10" in text.output and "glossary Map" in text.output


def test_term_links_reach_the_precision_and_recall_targets(full_db) -> None:
    labels = load_labels(LABELS)
    assert len(labels["items"]) >= 60
    score = Score()
    with full_db.session() as s:
        by_text = {
            normalize_typography(t).casefold(): cid
            for cid, t in s.execute(
                select(ClarificationText.clarification_id, ClarificationText.text)
            ).all()
        }
        for item in labels["items"]:
            clar_id = by_text[normalize_typography(item["text"]).casefold()]
            rules = rules_for_clarification(s, clar_id, labels["edition"])
            score.add(item, [r["number"] for r in rules])
    assert score.precision >= 0.9, score.mistakes
    assert score.recall >= 0.8, score.mistakes


def test_cli_backlinks(full_settings) -> None:
    runner = CliRunner()
    home = str(full_settings.home)
    result = runner.invoke(
        main, ["--home", home, "backlinks", "701.32", "--edition", "2021-02-05", "--json"]
    )
    assert result.exit_code == 0, result.output
    items = json.loads(result.output)
    assert any(i["term"] == "Vote" for i in items)
    text = runner.invoke(main, ["--home", home, "backlinks", "701.54"])
    assert "glossary The Ring Tempts You" in text.output
    bad = runner.invoke(main, ["--home", home, "backlinks", "70x"])
    assert bad.exit_code == 2 and "not a rule number" in bad.output


def test_cli_link(settings, cr_path) -> None:
    from kb.pipeline import ingest

    ingest(settings, [settings.corpus[0], cr_path("2026-01-16")])
    result = CliRunner().invoke(main, ["--home", str(settings.home), "link", "--json"])
    assert result.exit_code == 0, result.output
    counts = json.loads(result.output)
    assert counts["editions"] == ["2026-01-16"]
    assert counts["unresolved"] == 4  # glossary "Map" cites 110.10; three siblings
    # every seed ruling ("you don't have to control either target" counts targets: 115)
    assert counts["clarifications"] == 25 and counts["clarifications_linked"] == 25
    text = CliRunner().invoke(main, ["--home", str(settings.home), "link"])
    assert "linked 2026-01-16:" in text.output and "rulings and" in text.output


def test_ingest_keeps_links_in_step(settings, cr_path) -> None:
    from kb.pipeline import ingest, open_db

    ingest(settings)  # the seeds: no English edition yet
    db = open_db(settings, create=False)
    with db.session() as s:
        assert not s.scalar(select(func.count()).select_from(Link).where(Link.kind == "term"))
        pending = s.scalars(select(Link.target).where(Link.kind == "sibling")).all()
        assert len(pending) == 71  # kept, unresolved, until an edition is loaded
    report = ingest(settings, [cr_path("2026-01-16")])
    assert report.loaded
    with db.session() as s:
        assert "701.54" in linked_numbers(s, "Each time the Ring tempts you")
        assert [u["target"] for u in unresolved(s) if u["kind"] == "sibling"] == [
            "701.69",
            "701.70",
            "701.71",
        ]
        before = s.execute(select(func.count(Link.id), func.max(Link.id))).one()
    ingest(settings, [cr_path("2026-01-16")])  # unchanged: nothing relinked
    with db.session() as s:
        assert s.execute(select(func.count(Link.id), func.max(Link.id))).one() == before
    db.dispose()


def test_cards_cite_the_rules_their_text_uses(full_db) -> None:
    from kb.links import cards_for_rule

    with full_db.session() as s:
        voting = {c["name"] for c in cards_for_rule(s, "701.38")}
        sagas = cards_for_rule(s, "714")
        cited = backlinks(s, "701.38")
    assert {"Expropriate", "Capital Punishment", "Ballot Broker"} <= voting
    heist = next(c for c in sagas if c["name"] == "The Trickster-God's Heist")
    assert {"en", "fr", "es"} <= set(heist["languages"])  # "Saga", "saga", "Saga"
    assert "lore counter" in heist["matched"]
    cards = [b for b in cited if b["source_type"] == "card_text"]
    assert cards and all(b["card_key"] and b["cards"] for b in cards)
    # a card's own name is not a term: Blizzard Brawl's text does not cite the Brawl variant
    with full_db.session() as s:
        brawl = [b for b in backlinks(s, "903.12") if "Blizzard Brawl" in b["cards"]]
    assert brawl == []


def test_translations_read_once_for_a_run_are_each_editions_own(full_db) -> None:
    """A link run reads the translated rule texts of every edition at once
    (kb.links.rule_sources.TranslatedTexts); each edition gets the rows it gets alone."""
    from kb.links.build import _Rows
    from kb.links.rule_sources import BodyReferences, TranslatedTexts, translation_sources
    from kb.versions import english_editions

    with full_db.session() as s:
        translated = TranslatedTexts()
        seen = 0
        for edition in english_editions(s):
            once, alone = _Rows(edition, {}), _Rows(edition, {})
            translation_sources(s, edition, once, BodyReferences(), translated)
            translation_sources(s, edition, alone, BodyReferences())
            assert (once.rows, once.translation_ids) == (alone.rows, alone.translation_ids)
            seen += len(once.translation_ids)
        assert seen  # the fixtures' rule pages follow an edition

"""Ingest into a real SQLite database: idempotency, failures, recognition, shared rulings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, select

from kb.errors import NotFoundError
from kb.lookup import card_view, rule_view
from kb.models import (
    Card,
    CardClarification,
    Clarification,
    ClarificationText,
    Document,
    Edition,
    Rule,
    RuleText,
    RulingsPage,
)
from kb.pipeline import ingest, open_db
from kb.stats import stats_view

HEIST = "The Trickster-God's Heist"
HEIST_ORACLE = "78f99c66-cb50-49e3-ab2d-e7755818ffd7"


def _counts(settings) -> dict[str, int]:
    db = open_db(settings)
    try:
        with db.session() as s:
            return {
                model.__tablename__: s.scalar(select(func.count()).select_from(model)) or 0
                for model in (
                    Document,
                    Edition,
                    Rule,
                    RuleText,
                    Card,
                    Clarification,
                    ClarificationText,
                    CardClarification,
                )
            }
    finally:
        db.dispose()


def test_seeds_alone_load_and_stay_their_own_cards(settings, seeds):
    report = ingest(settings, [seeds])
    assert len(report.loaded) == 3 and not report.failed
    db = open_db(settings)
    with db.session() as s:
        view = card_view(s, "003_c5873bb13b9e08b7")
        assert view["key"] == "003_c5873bb13b9e08b7"
        assert view["oracle_id"] is None
        assert view["mana_value"] == 4
        assert len(view["rulings"]) == 12
        assert {r["date"] for r in card_view(s, "000_c70b93c6d7c03b3c")["rulings"]} == {
            "2023-06-16"
        }
        # No English edition yet: the Spanish rule is there, following nothing so far.
        text = s.scalar(select(RuleText).where(RuleText.language == "es").limit(1))
        assert text is not None and text.follows_edition_id is None
    db.dispose()


def test_reingest_is_a_noop(settings, seeds):
    ingest(settings, [seeds])
    before = _counts(settings)
    report = ingest(settings, [seeds])
    assert report.loaded == [] and len(report.unchanged) == 3
    assert _counts(settings) == before


def test_changed_file_replaces_its_rows(settings, seed, tmp_path):
    corpus = tmp_path / "c"
    corpus.mkdir()
    page = corpus / seed("000").name
    shutil.copy(seed("000"), page)
    ingest(settings, [corpus])
    lines = page.read_text(encoding="utf-8").splitlines()
    page.write_text("\n".join(lines[:-2]) + "\n", encoding="utf-8")  # drop the last ruling
    report = ingest(settings, [corpus])
    assert len(report.loaded) == 1
    db = open_db(settings)
    with db.session() as s:
        assert len(card_view(s, page.stem)["rulings"]) == 12
        assert s.scalar(select(func.count()).select_from(Clarification)) == 12
    db.dispose()


def test_bad_documents_fail_alone(settings, seeds, tmp_path, shared_corpus):
    corpus = tmp_path / "mixed"
    shutil.copytree(seeds, corpus)
    (corpus / "900_badbadbadbadbad0.txt").write_text(
        "Clarifications officielles de Wizards of the Coast.\n"
        "30 février 2021 · source : wotc\nTexte.\n",
        encoding="utf-8",
    )
    (corpus / "901_latin1latin1lat.txt").write_bytes("Règle\n".encode("latin-1"))
    (corpus / "902_empty00000000000.txt").write_bytes(b"")
    (corpus / "903_junk.json").write_bytes(bytes(range(256)) * 4)
    khm = (shared_corpus / "mtgjson" / "KHM.json").read_bytes()
    (corpus / "904_truncated.json").write_bytes(khm[: len(khm) // 2])
    (corpus / "905_0000000000000000.txt").write_text(
        "Hello there, this is not a rulings page.\nJune 16, 2023 · source: wotc\nText.\n",
        encoding="utf-8",
    )
    (corpus / "906_rule_page.txt").write_text(
        "701.54. The Ring Tempts You\nSubrules\nOther rules in this section\n- 701.1\n",
        encoding="utf-8",
    )
    report = ingest(settings, [corpus])
    assert len(report.loaded) == 3
    failed = {Path(f.path).name: f for f in report.failed}
    assert set(failed) == {
        "900_badbadbadbadbad0.txt",
        "901_latin1latin1lat.txt",
        "902_empty00000000000.txt",
        "903_junk.json",
        "904_truncated.json",
        "905_0000000000000000.txt",
        "906_rule_page.txt",
    }
    for name, f in sorted(failed.items()):
        print(f"{name}:{f.line}: {f.reason}")
    assert failed["901_latin1latin1lat.txt"].line == 1
    assert "UTF-8" in failed["901_latin1latin1lat.txt"].reason
    assert "empty" in failed["902_empty00000000000.txt"].reason
    assert "binary" in failed["903_junk.json"].reason
    assert "invalid JSON" in failed["904_truncated.json"].reason  # KHM.json is one long line
    assert "header" in failed["905_0000000000000000.txt"].reason
    assert "no subrules" in failed["906_rule_page.txt"].reason
    assert failed["900_badbadbadbadbad0.txt"].line == 2
    assert "février" in failed["900_badbadbadbadbad0.txt"].reason
    assert all(f.reason for f in report.failed)
    db = open_db(settings)
    with db.session() as s:
        statuses = dict(s.execute(select(Document.path, Document.status)).all())
        assert sum(1 for v in statuses.values() if v == "failed") == 7
        assert s.scalar(select(func.count()).select_from(RulingsPage)) == 2
    db.dispose()
    # A second run reports the same failures without loading anything again.
    again = ingest(settings, [corpus])
    assert again.loaded == [] and len(again.failed) == 7


def test_failed_new_version_keeps_the_previous_one(settings, seed, tmp_path):
    corpus = tmp_path / "c"
    corpus.mkdir()
    page = corpus / seed("003").name
    shutil.copy(seed("003"), page)
    ingest(settings, [corpus])
    page.write_text(
        page.read_text(encoding="utf-8").replace("05 février", "31 février", 1), encoding="utf-8"
    )
    report = ingest(settings, [corpus])
    assert len(report.failed) == 1 and report.failed[0].line == 2
    db = open_db(settings)
    with db.session() as s:
        assert len(card_view(s, page.stem)["rulings"]) == 12
    db.dispose()


def test_full_corpus_recognises_seed_003(full_db):
    with full_db.session() as s:
        view = card_view(s, "003_c5873bb13b9e08b7")
        assert view["name"] == HEIST
        assert view["oracle_id"] == HEIST_ORACLE
        assert len(view["rulings"]) == 12  # 7 shared Saga rulings + 5 specific, no duplicates
        assert {r["date"] for r in view["rulings"]} == {"2021-02-05"}
        assert view["names"] == {
            "en": HEIST,
            "fr": "Le vol du dieu-décepteur",
            "es": "El robo del dios embaucador",
        }
        page = s.scalar(select(RulingsPage).where(RulingsPage.page_id == "003_c5873bb13b9e08b7"))
        assert page is not None and page.recognised
        assert s.scalar(select(Card).where(Card.key == "003_c5873bb13b9e08b7")) is None


def test_shared_saga_rulings_are_stored_once(full_db):
    with full_db.session() as s:
        text = s.scalar(
            select(ClarificationText).where(
                ClarificationText.text.startswith(
                    "As a Saga enters the battlefield, its controller"
                )
            )
        )
        assert text is not None
        cards = s.scalars(
            select(Card.name)
            .join(CardClarification, CardClarification.card_id == Card.id)
            .where(CardClarification.clarification_id == text.clarification_id)
            .distinct()
        ).all()
        # Every Saga of Kaldheim carries it (checked with a one-liner on KHM.json: 20 Sagas).
        assert len(cards) == 20 and HEIST in cards
        # One row of that text, whatever the number of cards and documents carrying it.
        same = s.scalar(
            select(func.count())
            .select_from(ClarificationText)
            .where(
                ClarificationText.clarification_id == text.clarification_id,
                ClarificationText.language == "en",
            )
        )
        assert same == 1
        # The page's straight apostrophes gave way to MTGJSON's typography.
        assert "doesn’t use the stack" in text.text


def test_unnamed_page_without_matching_card_stays_its_own(full_db):
    with full_db.session() as s:
        view = card_view(s, "000_c70b93c6d7c03b3c")
        assert view["key"] == "000_c70b93c6d7c03b3c" and len(view["rulings"]) == 13


def test_editions_coexist(full_db):
    with full_db.session() as s:
        dates = sorted(
            e.effective_date.isoformat()
            for e in s.scalars(select(Edition).where(Edition.kind == "comprules"))
        )
        assert dates == ["2021-02-05", "2025-11-14", "2026-01-16"]
        numbers = s.scalars(select(Rule.edition_id).where(Rule.number == "701.54")).all()
        assert len(numbers) == 3  # 2025-11-14, 2026-01-16 and the Spanish rule page (not in 2021)
        with pytest.raises(NotFoundError):
            rule_view(s, "701.54", "en", "2021-02-05")
        old = rule_view(s, "701.32", "en", "2021-02-05")  # Vote, 701.38 today
        new = rule_view(s, "701.54", "en")
        assert old["edition"] == "2021-02-05" and old["rules"][0]["english"]["title"] == "Vote"
        assert new["edition"] == "2026-01-16"
        assert new["rules"][0]["english"]["title"] == "The Ring Tempts You"


def test_rule_view_shows_spanish_beside_english(full_db):
    with full_db.session() as s:
        view = rule_view(s, "701.54", "es")
        numbers = [r["number"] for r in view["rules"]]
        assert numbers == ["701.54", "701.54a", "701.54b", "701.54c", "701.54d", "701.54e"]
        assert view["rules"][0]["translation"]["title"] == "El Anillo te tienta"
        d = view["rules"][4]["translation"]
        assert "la regla 701.54a" in d["text"]
        assert d["follows_edition"] == "2026-01-16" and d["follows_assumed"] is True
        assert view["missing"] == 0
        other = rule_view(s, "701.38", "es")
        assert all(r["translation"] is None for r in other["rules"])


def test_stats_count_everything(full_db):
    with full_db.session() as s:
        stats = stats_view(s)
    assert stats["documents"]["comprules"]["loaded"] == 3
    assert stats["documents"]["mtgjson"]["loaded"] == 2
    assert stats["documents"]["rulings_page"]["loaded"] == 2
    es = stats["languages"]["es"]["rule_texts"]
    assert es["translated"] == 6 and es["by_provenance"] == {"official": 6}
    assert stats["languages"]["fr"]["rule_texts"]["translated"] == 0
    assert stats["cards_recognised_pages"] == 1


@pytest.mark.parametrize("order", ["pages_first", "cards_first"])
def test_recognition_does_not_depend_on_order(settings, seed, khm_part, order):
    khm = khm_part
    steps = [[seed("003")], [khm]] if order == "pages_first" else [[khm], [seed("003")]]
    for paths in steps:
        ingest(settings, paths)
    db = open_db(settings)
    with db.session() as s:
        assert card_view(s, "003_c5873bb13b9e08b7")["oracle_id"] == HEIST_ORACLE
    db.dispose()

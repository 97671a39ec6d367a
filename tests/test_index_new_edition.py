"""A new edition updates only the rules' index items (the card and ruling items are not built
again) and adjusts the word list from its kept rules' part; the result is a fresh build's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_index_one_set import _index, _scratch, _set_file
from test_scale import DATA

from kb.config import Settings
from kb.pipeline import ingest
from kb.search.rules_update import RULES_WORDS_FILE


def _editions(folder: Path) -> list[Path]:
    """The sample edition, and a later one with a changed rule, a new rule and a changed
    glossary entry."""
    folder.mkdir(parents=True, exist_ok=True)
    sample = (DATA / "comprules" / "sample.txt").read_text(encoding="utf-8")
    later = sample.replace("March 3, 2024", "March 3, 2025").replace(
        "100.3 A player with 0 or less life loses the game.",
        "100.3 A player with 0 or less life loses the game at once.\n\n"
        "100.4. Tidewalking players wade through puddles.",
    )
    assert later.count("Tidewalking") == 1
    (folder / "cr_2024.txt").write_text(sample, encoding="utf-8")
    (folder / "cr_2025.txt").write_text(later, encoding="utf-8")
    return [folder / "cr_2024.txt", folder / "cr_2025.txt"]


def _no_card_items(monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.search.card_docs as card_docs
    import kb.search.indexer as indexer

    def refuse(*args: Any) -> Any:
        raise AssertionError("a new edition's update built the card items")

    monkeypatch.setattr(indexer, "all_items", refuse)
    monkeypatch.setattr(card_docs, "card_items", refuse)


@pytest.fixture(autouse=True)
def _no_rebuild_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new edition is most of a small knowledge base: update it item by item all the same."""
    import kb.search.indexer as indexer

    monkeypatch.setattr(indexer, "REBUILD_SHARE", 10.0)


def _kept_part(settings: Settings) -> Any:
    return json.loads((settings.index_dir / RULES_WORDS_FILE).read_text(encoding="utf-8"))


def test_a_new_edition_rewrites_only_the_rules_items_as_a_fresh_build_would(
    settings, seeds, tmp_path, monkeypatch
) -> None:
    first, second = _editions(tmp_path / "cr")
    mini, _ = _set_file(tmp_path)
    ingest(settings, [seeds, first, mini])
    before, _, before_words = _index(settings)
    with monkeypatch.context() as patch:
        _no_card_items(patch)
        assert ingest(settings, [second]).loaded
    after, stored, words = _index(settings)
    assert words != before_words  # "tidewalking" is a new word
    assert "tidewalking" in json.loads(words)["en"]
    assert any(k.startswith("rule:2025-03-03:") for k in after)
    assert {k: h for k, h in after.items() if k.startswith(("card:", "ruling:"))} == {
        k: h for k, h in before.items() if k.startswith(("card:", "ruling:"))
    }
    scratch = _scratch(settings, tmp_path)
    ingest(scratch, [seeds, first, mini, second])
    fresh, fresh_stored, fresh_words = _index(scratch)
    assert after == fresh
    assert stored == fresh_stored
    assert words == fresh_words
    assert _kept_part(settings) == _kept_part(scratch)


@pytest.mark.parametrize("damage", ["missing", "stale"])
def test_without_a_matching_rules_part_the_update_counts_everything(
    settings, seeds, tmp_path, damage
) -> None:
    first, second = _editions(tmp_path / "cr")
    mini, _ = _set_file(tmp_path)
    ingest(settings, [seeds, first, mini])
    part = settings.index_dir / RULES_WORDS_FILE
    if damage == "missing":  # an index made before the part was kept
        part.unlink()
    else:  # a part that counts other items than the index holds
        kept = _kept_part(settings)
        kept["words"]["en"]["zzzwrong"] = 7
        kept["items"] = "0" * 64
        part.write_text(json.dumps(kept), encoding="utf-8")
    assert ingest(settings, [second]).loaded
    after, _, words = _index(settings)
    scratch = _scratch(settings, tmp_path)
    ingest(scratch, [seeds, first, mini, second])
    fresh, _, fresh_words = _index(scratch)
    assert after == fresh
    assert words == fresh_words
    assert _kept_part(settings) == _kept_part(scratch)  # the full update kept it again


def test_a_changed_set_keeps_the_rules_part_valid_for_the_next_edition(
    settings, seeds, tmp_path, monkeypatch
) -> None:
    first, second = _editions(tmp_path / "cr")
    mini, data = _set_file(tmp_path)
    ingest(settings, [seeds, first, mini])
    data["data"]["cards"][0]["rulings"][0]["text"] += " Puddles matter."
    mini.write_text(json.dumps(data), encoding="utf-8")
    assert ingest(settings, [mini]).loaded  # the card scope adjusts the words, not the part
    with monkeypatch.context() as patch:
        _no_card_items(patch)
        assert ingest(settings, [second]).loaded
    after, _, words = _index(settings)
    assert "puddles" in json.loads(words)["en"]
    scratch = _scratch(settings, tmp_path)
    ingest(scratch, [seeds, first, second, mini])
    fresh, _, fresh_words = _index(scratch)
    assert after == fresh
    assert words == fresh_words

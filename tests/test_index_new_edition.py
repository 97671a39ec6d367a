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


def _third(folder: Path) -> Path:
    """A third edition: the first one again (100.3 back to its first wording, 100.4 gone)."""
    sample = (DATA / "comprules" / "sample.txt").read_text(encoding="utf-8")
    third = sample.replace("March 3, 2024", "March 3, 2026")
    assert third != sample
    (folder / "cr_2026.txt").write_text(third, encoding="utf-8")
    return folder / "cr_2026.txt"


def _only_two_editions_built(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Refuse every build of all the rules' items; note the editions built one by one."""
    import kb.search.documents as documents
    import kb.search.rules_update as rules_update

    def refuse(*args: Any) -> Any:
        raise AssertionError("a new edition's update built every edition's rules items")

    built: list[Any] = []
    rule_items, glossary_items = documents.rule_items, documents.glossary_items

    def some_rules(session: Any, edition_ids: Any = None, newest: Any = None) -> Any:
        assert edition_ids is not None, "every edition's rule items were built"
        built.append(tuple(edition_ids))
        return rule_items(session, edition_ids, newest)

    def some_glossary(session: Any, edition_ids: Any = None) -> Any:
        assert edition_ids is not None, "every edition's glossary items were built"
        return glossary_items(session, edition_ids)

    monkeypatch.setattr(rules_update, "_rules_items", refuse)
    monkeypatch.setattr(documents, "rule_items", some_rules)
    monkeypatch.setattr(documents, "glossary_items", some_glossary)
    _no_card_items(monkeypatch)
    return built


def _doc_order(settings: Settings) -> list[str]:
    """The keys of the live documents in the index's order (ties in a search go to the first)."""
    from whoosh import index as whoosh_index

    ix = whoosh_index.open_dir(str(settings.index_dir), indexname="kb")
    try:
        with ix.searcher() as searcher:
            reader = searcher.reader()
            keys = reader.column_reader("key")
            return [keys[n] for n in reader.all_doc_ids()]
    finally:
        ix.close()


def test_a_new_edition_builds_its_items_and_the_previous_ones_only(
    settings, seeds, tmp_path, monkeypatch
) -> None:
    """The third edition returns 100.3 to the first one's wording: that item, the first
    edition's, lists the third too; 100.4 stays the second edition's; the result is a fresh
    build's, written in the order the update that builds every edition writes."""
    first, second = _editions(tmp_path / "cr")
    third = _third(tmp_path / "cr")
    mini, _ = _set_file(tmp_path)
    ingest(settings, [seeds, first, mini, second])
    before = _index(settings)[1]
    assert before["rule:2024-03-03:100.3"]["edition"] == "2024-03-03"
    with monkeypatch.context() as patch:
        built = _only_two_editions_built(patch)
        assert ingest(settings, [third]).loaded
    assert built  # the new path ran: the second and third editions' items only
    after, stored, words = _index(settings)
    assert stored["rule:2026-03-03:100.3"]["edition"] == "2026-03-03 2024-03-03"
    assert stored["rule:2025-03-03:100.4"]["edition"] == "2025-03-03"
    assert "rule:2024-03-03:100.3" not in after

    def translated(found: dict[str, Any], edition: str) -> set[str]:
        prefix = f"rule:{edition}:"
        return {k for k, v in found.items() if k.startswith(prefix) and "es" in v["data"]["texts"]}

    # The seeds' rule pages follow the newest edition: they moved from the second to the third.
    assert translated(before, "2025-03-03")
    assert translated(stored, "2026-03-03") and not translated(stored, "2025-03-03")
    scratch = _scratch(settings, tmp_path)
    ingest(scratch, [seeds, first, mini, second, third])
    fresh, fresh_stored, fresh_words = _index(scratch)
    assert after == fresh
    assert stored == fresh_stored
    assert words == fresh_words
    assert _kept_part(settings) == _kept_part(scratch)

    import kb.pipeline as pipeline

    every = Settings(home=tmp_path / "every", corpus=settings.corpus, base_dir=settings.base_dir)
    ingest(every, [seeds, first, mini, second])
    with monkeypatch.context() as patch:
        patch.setattr(pipeline, "added_edition", lambda *args: None)
        assert ingest(every, [third]).loaded
    assert _index(every) == (after, stored, words)
    assert _doc_order(every) == _doc_order(settings)


def test_an_edition_older_than_the_newest_updates_every_rules_item(
    settings, seeds, tmp_path, monkeypatch
) -> None:
    first, second = _editions(tmp_path / "cr")
    mini, _ = _set_file(tmp_path)
    ingest(settings, [seeds, second, mini])
    import kb.search.new_edition as new_edition

    def refuse(*args: Any) -> Any:
        raise AssertionError("an older edition took the new edition's path")

    with monkeypatch.context() as patch:
        patch.setattr(new_edition, "new_edition_changes", refuse)
        assert ingest(settings, [first]).loaded
    scratch = _scratch(settings, tmp_path)
    ingest(scratch, [seeds, first, mini, second])
    assert _index(settings) == _index(scratch)

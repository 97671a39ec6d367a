"""A changed set file updates only its cards' and rulings' index items, and relearns the keyword
terms only when what they are learned from changed; the result is a fresh build's, exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_scale import DATA, dump, two_editions

from kb.config import Settings
from kb.pipeline import ingest, open_db

ROOT = Path(__file__).resolve().parent.parent


def _scratch(settings: Settings, tmp_path: Path) -> Settings:
    """A second, empty knowledge base beside the test's (its own SQLite file or schema)."""
    return Settings(home=tmp_path / "scratch", corpus=settings.corpus, base_dir=ROOT)


def _index(settings: Settings) -> tuple[dict[str, str], dict[str, Any], str]:
    """Every indexed item's hash and stored fields, and the did-you-mean word list."""
    from whoosh import index as whoosh_index

    ix = whoosh_index.open_dir(str(settings.index_dir), indexname="kb")
    try:
        with ix.searcher() as searcher:
            reader = searcher.reader()
            keys, hashes = reader.column_reader("key"), reader.column_reader("hash")
            live = list(reader.all_doc_ids())
            found = {keys[n]: hashes[n] for n in live}
            stored = {keys[n]: reader.stored_fields(n) for n in live}
    finally:
        ix.close()
    words = (settings.index_dir / "kb-words.json").read_text(encoding="utf-8")
    return found, stored, words


def _set_file(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    sets = tmp_path / "sets"
    sets.mkdir()
    data = json.loads((DATA / "mtgjson" / "mini.json").read_text(encoding="utf-8"))
    path = sets / "mini.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, data


def _no_full_item_build(monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.search.indexer as indexer

    def refuse(db: Any) -> Any:
        raise AssertionError("a one-set update built every item of the database")

    monkeypatch.setattr(indexer, "all_items", refuse)


def test_a_changed_set_rewrites_only_its_items_as_a_fresh_build_would(
    settings, seeds, tmp_path, monkeypatch
) -> None:
    first, second = two_editions(tmp_path / "cr")
    mini, data = _set_file(tmp_path)
    ingest(settings, [seeds, first, second, mini])
    cards = data["data"]["cards"]
    cards[0]["rulings"][0]["text"] += " Flying matters."
    cards[0]["text"] += "\nVigilance"
    cards[1]["rulings"] = []  # a ruling no card carries any more: its item goes
    del cards[3]  # a card no document prints any more: its item goes
    mini.write_text(json.dumps(data), encoding="utf-8")
    before, _, _ = _index(settings)
    with monkeypatch.context() as patch:
        _no_full_item_build(patch)
        assert ingest(settings, [mini]).loaded
    after, stored, words = _index(settings)
    assert set(before) - set(after), "the test removes a card and a ruling"
    assert any(before[k] != after[k] for k in set(before) & set(after))
    scratch = _scratch(settings, tmp_path)
    ingest(scratch, [seeds, first, second, mini])
    fresh, fresh_stored, fresh_words = _index(scratch)
    assert after == fresh
    assert stored == fresh_stored
    assert words == fresh_words
    assert dump(settings) == dump(scratch)


def test_the_words_of_indexed_cards_and_rulings_read_back_as_they_were_counted(
    settings, seeds, tmp_path
) -> None:
    from kb.search.card_update import item_words, stored_words
    from kb.search.indexer import all_items

    mini, _ = _set_file(tmp_path)
    (first, _) = two_editions(tmp_path / "cr")
    ingest(settings, [seeds, first, mini, DATA / "mtgjson"])
    db = open_db(settings, create=False)
    try:
        items = [i for i in all_items(db) if i["type"] in ("card", "ruling")]
    finally:
        db.dispose()
    _, stored, _ = _index(settings)
    names = {
        key.removeprefix("card:"): [str(n) for n in fields["data"]["names"].values()]
        for key, fields in stored.items()
        if key.startswith("card:")
    }
    assert {i["type"] for i in items} == {"card", "ruling"}
    assert any(len(i["data"].get("texts", {})) > 1 for i in items)  # translations included
    for item in items:
        counted = {lang: w for lang, w in item_words(item).items() if w}
        read = stored_words(stored[item["key"]], names)
        assert read is not None
        assert {lang: w for lang, w in read.items() if w} == counted, item["key"]


def test_terms_are_relearned_only_when_what_they_are_learned_from_changed(
    settings, seeds, tmp_path, monkeypatch
) -> None:
    import kb.terminology.store as store
    from kb.terminology import list_terms, rebuild_terms

    mini, data = _set_file(tmp_path)
    (first, _) = two_editions(tmp_path / "cr")
    ingest(settings, [seeds, first, mini])
    calls: list[str] = []
    learn = store.learn

    def counted(cards: Any, language: str, *args: Any) -> Any:
        calls.append(language)
        return learn(cards, language, *args)

    monkeypatch.setattr(store, "learn", counted)
    # A ruling changes nothing the terms are learned from: they are kept.
    data["data"]["cards"][0]["rulings"][0]["text"] += " Still so."
    mini.write_text(json.dumps(data), encoding="utf-8")
    assert ingest(settings, [mini]).loaded
    assert calls == []
    # A translated card's English text is: they are relearned.
    data["data"]["cards"][0]["text"] += "\nVigilance"
    mini.write_text(json.dumps(data), encoding="utf-8")
    assert ingest(settings, [mini]).loaded
    assert calls == ["fr", "es"]
    db = open_db(settings, create=False)
    try:
        with db.session() as session, session.begin():
            stored = list_terms(session)
            assert rebuild_terms(session, reuse=True)["relearned"] is False
            forced = rebuild_terms(session)
            assert forced["relearned"] is True and forced["changed"] is False
            assert list_terms(session) == stored
    finally:
        db.dispose()

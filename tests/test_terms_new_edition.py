"""A new edition whose keyword rule titles only add names no card carries or prints keeps the
learned terms without learning again; anything else learns again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_index_one_set import _set_file
from test_scale import DATA
from test_terminology import _synthetic

from kb.pipeline import ingest, open_db
from kb.terminology import learn, list_terms, rebuild_terms
from kb.terminology.titles import inventory_of, only_unmentioned_additions

_OLD = {"Deathtouch": True, "Flying": True}


def _with(*added: str) -> dict[str, bool]:
    return {**_OLD, **dict.fromkeys(added, False)}


def test_an_unprinted_title_changes_nothing_learning_would_find() -> None:
    cards = _synthetic()
    texts = {"fr": cards}
    learned = learn(cards, "fr", _OLD, set())
    assert learned, "the synthetic cards teach terms"
    for added, actions in ((("Tidewalking",), set()), (("Tidewalk",), {"tidewalk"})):
        now = _with(*added)
        assert only_unmentioned_additions((_OLD, set()), (now, actions), texts)
        assert learn(cards, "fr", now, actions) == learned


def test_a_printed_title_or_a_change_of_what_cards_carry_is_learned_again() -> None:
    cards = _synthetic()
    texts = {"fr": cards}
    # "Draw" is printed on the birds and bears: the matcher would find it.
    assert not only_unmentioned_additions((_OLD, set()), (_with("Draw"), set()), texts)
    # A new keyword action printed inflected ("enters").
    assert not only_unmentioned_additions((_OLD, set()), (_with("Enter"), {"enter"}), texts)
    # A name gone, a name cards now carry, the same words as a known name.
    assert not only_unmentioned_additions((_with("Gone"), set()), (_OLD, set()), texts)
    assert not only_unmentioned_additions(
        (_OLD, set()), ({**_OLD, "Tidewalking": True}, set()), texts
    )
    assert not only_unmentioned_additions((_OLD, set()), (_with("FLYING!"), set()), texts)
    # A known name becoming an action changes its inflected forms.
    assert not only_unmentioned_additions((_OLD, set()), (_OLD, {"flying"}), texts)


def test_inventory_lists_carried_keywords_then_uncarried_titles() -> None:
    rules = {"tidewalking": ("702.190", "Tidewalking"), "flying": ("702.9", "Flying")}
    assert list(inventory_of(rules, ["Flying", "Deathtouch"]).items()) == [
        ("Deathtouch", True),
        ("Flying", True),
        ("Tidewalking", False),
    ]


def _editions(folder: Path, title: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    sample = (DATA / "comprules" / "sample.txt").read_text(encoding="utf-8")
    rules = "7. Additional Rules\n\n"
    rules += f"702. Keyword Abilities\n\n702.1. {title}\n\n702.1a {title} is a made-up keyword.\n\n"
    later = sample.replace("March 3, 2024", "March 3, 2025").replace(
        "\nGlossary\n\n", f"\n{rules}Glossary\n\n", 1
    )
    assert later.count(f"702.1. {title}") == 1
    (folder / "cr_2024.txt").write_text(sample, encoding="utf-8")
    (folder / "cr_2025.txt").write_text(later, encoding="utf-8")
    return [folder / "cr_2024.txt", folder / "cr_2025.txt"]


def _count_learning(monkeypatch: Any) -> list[str]:
    import kb.terminology.store as store

    calls: list[str] = []
    learn_terms = store.learn

    def counted(cards: Any, language: str, *args: Any) -> Any:
        calls.append(language)
        return learn_terms(cards, language, *args)

    monkeypatch.setattr(store, "learn", counted)
    return calls


def test_a_new_edition_adding_an_unprinted_keyword_keeps_the_terms(
    settings, seeds, tmp_path, monkeypatch
) -> None:
    first, second = _editions(tmp_path / "cr", "Tidewalking")
    mini, _ = _set_file(tmp_path)
    ingest(settings, [seeds, first, mini])
    calls = _count_learning(monkeypatch)
    assert ingest(settings, [second]).loaded
    assert calls == []
    db = open_db(settings, create=False)
    try:
        with db.session() as session, session.begin():
            kept = list_terms(session)
            assert rebuild_terms(session, reuse=True)["relearned"] is False  # in step now
            forced = rebuild_terms(session)
            assert forced["relearned"] is True and forced["changed"] is False
            assert list_terms(session) == kept
    finally:
        db.dispose()


def test_a_new_edition_adding_a_printed_word_as_keyword_learns_again(
    settings, seeds, tmp_path, monkeypatch
) -> None:
    first, second = _editions(tmp_path / "cr", "Draw")  # "Draw a card." is on the mini set
    mini, _ = _set_file(tmp_path)
    ingest(settings, [seeds, first, mini])
    calls = _count_learning(monkeypatch)
    assert ingest(settings, [second]).loaded
    assert calls == ["fr", "es"]


def test_the_last_language_learned_in_a_second_process_is_learned_the_same(monkeypatch) -> None:
    """At the whole history Spanish is learned in a helper process while French is learned
    here (kb.terminology.store._learn_languages): the same terms either way."""
    import kb.terminology.store as store

    cards = _synthetic()
    texts = {"fr": cards, "es": cards}
    monkeypatch.setattr(store, "APART_CARDS", 10**9)
    here = store._learn_languages(texts, _OLD, set())
    assert here["fr"] and here["es"]
    pools: list[object] = []

    class Counted(store.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            pools.append(self)

    monkeypatch.setattr(store, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(store, "APART_CARDS", 1)
    assert store._learn_languages(texts, _OLD, set()) == here
    assert len(pools) == 1

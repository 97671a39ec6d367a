"""Words kept through a link run are the words a fresh split gives, and are not split again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from kb.links import words
from kb.links.carry import CarriedMatches
from kb.links.term_vocabulary import GlossaryItem, RuleEntry, english_vocabulary
from kb.links.words import tokenize, words_kept

TEXTS = [
    ("en", "Each player votes for one choice. The Ring tempts you, and then {T}: Add {R}."),
    ("en", "If you goad a creature, it attacks each combat if able — “Chapter II” aside."),
    ("fr", "Chaque joueur vote. L’Anneau vous tente ; X est 0."),
    ("es", "Cada jugador vota. El Anillo te tienta (y luego roba una carta)."),
    ("en", "In a Team vs. Team game, each team takes a turn."),
]


class _NoSplit:
    """Stands for the token pattern: any split of a text fails the test."""

    def finditer(self, text: str) -> Any:
        raise AssertionError(f"split again: {text!r}")


def _fresh(text: str, language: str) -> tuple:
    words._WORDS.clear()
    return tokenize.__wrapped__(text, language)


def test_kept_words_equal_a_fresh_split_and_are_not_split_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fresh = {(language, text): _fresh(text, language) for language, text in TEXTS}
    tokenize.cache_clear()
    with words_kept():
        first = {(language, text): tokenize(text, language) for language, text in TEXTS}
        tokenize.cache_clear()  # past the cache of the last texts, as at the whole history
        with monkeypatch.context() as patched:
            patched.setattr(words, "_TOKEN", _NoSplit())
            again = {(language, text): tokenize(text, language) for language, text in TEXTS}
    assert first == fresh
    assert again == fresh
    assert all(type(t) is words.Token for tokens in again.values() for t in tokens)
    assert [t.raw for t in again[TEXTS[0]]][:3] == ["Each", "player", "votes"]


def test_words_are_kept_only_while_the_context_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    language, text = TEXTS[0]
    tokenize.cache_clear()
    with words_kept():
        with words_kept():  # a nested run shares the outer one's words
            tokenize(text, language)
        tokenize.cache_clear()
        monkeypatch.setattr(words, "_TOKEN", _NoSplit())
        tokenize(text, language)
    tokenize.cache_clear()
    with pytest.raises(AssertionError, match="split again"):
        tokenize(text, language)


@dataclass(frozen=True)
class _Text:
    language: str
    text: str
    mask: tuple[str, ...] = ()


def test_carried_matches_with_kept_words_equal_fresh_matches() -> None:
    texts = [_Text(language, text) for language, text in TEXTS if language == "en"] + [
        _Text("en", "Then you end the turn. Blizzard Brawl fights.", ("Blizzard Brawl",)),
    ]
    editions = [
        english_vocabulary([RuleEntry("701.38", "rule", "Vote", "")], []),
        english_vocabulary(
            [
                RuleEntry("701.15", "rule", "Goad", ""),
                RuleEntry("701.38", "rule", "Vote", ""),
                RuleEntry("701.54", "rule", "The Ring Tempts You", ""),
                RuleEntry("723", "rule", "End the Turn", ""),
            ],
            [GlossaryItem("Goad", "A keyword action. See rule 701.15, “Goad.”")],
        ),
    ]

    def plain(found: list) -> list[tuple]:
        return [(m.start, m.end, m.matched, m.term.words, m.term.targets) for m in found]

    carried = CarriedMatches(texts)
    with words_kept():
        for vocabulary in editions:
            tokenize.cache_clear()
            got = {i: plain(m) for i, m in carried.matches({"en": vocabulary})}
            tokenize.cache_clear()
            fresh = {i: plain(vocabulary.match(t.text, mask=t.mask)) for i, t in enumerate(texts)}
            assert got == fresh
    assert carried.rematched > len(texts)  # the second edition matched some texts again
    assert any(targets == ("723",) for *_, targets in got[len(texts) - 1])


def test_a_link_run_pauses_the_cycle_collector_and_resumes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The collector is off while the links are built, and on again after, even on failure."""
    import gc

    from kb.links import build

    seen: list[bool] = []

    def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
        seen.append(gc.isenabled())
        seen.append(words._kept is not None)
        if kwargs.get("unfollowed"):
            raise RuntimeError("stopped")
        return {}

    monkeypatch.setattr(build, "_build_links", run)
    assert gc.isenabled()
    assert build.build_links(None) == {}  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="stopped"):
        build.build_links(None, unfollowed=True)  # type: ignore[arg-type]
    assert seen == [False, True, False, True]
    assert gc.isenabled()
    assert words._kept is None


def test_vs_is_a_word_not_a_sentence_break() -> None:
    """808 "Team vs. Team Variant": the period of "vs." ends no sentence, so the title matches
    in "a Team vs. Team game"."""
    tokens = [(t.raw, t.norm, t.brk) for t in tokenize("In a Team vs. Team game.", "en")]
    assert ("vs.", "vs", False) in tokens
    assert [t for t in tokens if t[2]] == [(".", "", True)]
    vocab = english_vocabulary(
        [RuleEntry("808", "chapter", "Team vs. Team Variant", "")],
        [GlossaryItem("Team vs. Team Variant", "A multiplayer variant. See rule 808.")],
    )
    found = vocab.match("In a Team vs. Team game, each team takes a turn.")
    assert [(m.matched, m.term.targets) for m in found] == [("Team vs. Team", ("808",))]


def test_a_hyphenated_prefix_makes_one_word() -> None:
    """ "multi-player game" is the glossary's "Multiplayer Game" (800); a prefix that is no word
    of its own joins what follows, so "non-mana abilities" are no mana abilities (605)."""
    vocab = english_vocabulary(
        [
            RuleEntry("800", "chapter", "General", ""),
            RuleEntry("605", "chapter", "Mana Abilities", ""),
        ],
        [GlossaryItem("Multiplayer Game", "A game with more than two players. See rule 800.")],
    )
    found = vocab.match("In a multi-player game, non-mana abilities use the stack.")
    assert [(m.matched, m.term.targets) for m in found] == [("multi-player game", ("800",))]
    assert [t.norm for t in tokenize("non-mana", "en")] == ["nonmana"]

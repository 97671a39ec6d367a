"""Ranking fixes judged on the relevance set's dev splits (issue 12), each on a stand-in case."""

from __future__ import annotations

from typing import Any

import pytest


class _Hit(dict):  # type: ignore[type-arg]
    """A stand-in search hit: stored fields by key, ``fields()`` the lot, a score, a docnum."""

    def __init__(self, score: float, docnum: int, **fields: Any) -> None:
        super().__init__(**fields)
        self.score, self.docnum = score, docnum

    def fields(self) -> dict[str, Any]:
        return dict(self)


def _rule(score: float, docnum: int, number: str, section: str, title: str = "") -> _Hit:
    data = {"texts": {"en": {"title": title, "text": "Some text."}}, "context": {"en": section}}
    return _Hit(score, docnum, type="rule", number=number, data=data)


@pytest.mark.parametrize(
    ("lang", "question", "words"),
    [
        ("fr", "combien de terrains puis-je jouer par tour", "de terrains jouer par tour"),
        ("fr", "combien de cartes dois-je défausser", "de cartes défausser"),
        ("es", "¿puedo lanzar un conjuro?", "lanzar un conjuro"),
        ("es", "¿cuántas cartas debo descartar?", "cartas descartar"),
    ],
)
def test_the_first_person_of_can_and_must_frames_a_question(
    lang: str, question: str, words: str
) -> None:
    """ "puis-je", "puedo", "dois-je", "debo" ask, as "peut-il" and "puede" do: searched, they
    made a French or Spanish card text holding "puis" or "puedo" an answer."""
    from kb.search.questions import drop_question_words

    assert drop_question_words(question, (lang,)) == words

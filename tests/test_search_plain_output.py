"""Piped search output: the plain lines are exactly what rich prints, on real results."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from search_kb import ingested

from kb.cli.plain_output import markup_text, plain_lines, wrap
from kb.cli.search_output import renderables


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small corpus ingested (the ingest builds the index)."""
    return ingested(tmp_path_factory.mktemp("plain") / "_kb")


def _rich(response: dict[str, Any], width: int) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, soft_wrap=False)
    for renderable in renderables(response):
        console.print(renderable)
    return out.getvalue().split("\n")[:-1]


def _result(rank: int, title: str, snippet: str, **extra: Any) -> dict[str, Any]:
    return {
        "rank": rank,
        "type": "ruling",
        "title": title,
        "language": "en",
        "date": "2023-06-16",
        "source": "wotc",
        "snippet": snippet,
        "highlights": [[snippet[:9], False], [snippet[9:20], True], [snippet[20:], False]],
        "url": "/en/cards/x.html",
        **extra,
    }


SYNTHETIC = [
    _result(1, "Ruling — The Ring Tempts You [bold]x[/bold] \\[y]", "a " * 70 + "end"),
    _result(10, "A" * 130, "word " + "W" * 95 + "   spaced   out   …   " * 6),
    _result(2, "Short", "ends with a backslash \\", cards=[{"name": f"C{n}"} for n in range(9)]),
]


@pytest.mark.parametrize("width", [80, 44, 120])
def test_synthetic_results_print_as_rich_prints_them(width: int) -> None:
    response = {"results": SYNTHETIC, "lang": "en", "total": 40, "query": "ring [b] tempts"}
    assert plain_lines(response, width) == _rich(response, width)


@pytest.mark.parametrize(
    ("query", "lang"),
    [
        ("ring tempts you", None),
        ("vote", "en"),
        ("l'anneau vous tente", "fr"),
        ("¿qué pasa si dos jugadores empatan en una votación?", "es"),
        ("votr", None),  # did-you-mean
        ("701.54", None),  # a rule jump
    ],
)
@pytest.mark.parametrize("width", [80, 50])
def test_real_results_print_as_rich_prints_them(
    home: Path, query: str, lang: str | None, width: int
) -> None:
    from kb.search import search

    response = search(home / "index", query, lang=lang, limit=12)
    lines = plain_lines(response, width)
    assert lines is not None  # these texts are all one cell wide: the plain path prints them
    assert lines == _rich(response, width)


def test_what_only_rich_prints_exactly_goes_to_rich() -> None:
    assert markup_text("a :smile: b") is None  # an emoji code
    assert markup_text("漢字") is None  # two cells wide
    assert markup_text("[bold]x[/bold] \\[y] a\\\\[dim]b[/dim]") == "x [y] a\\b"
    narrow = {"results": SYNTHETIC, "lang": "en", "total": 3, "query": "q"}
    assert plain_lines(narrow, 22) is None  # too narrow for the hanging indent
    assert wrap("", 10) == [""]

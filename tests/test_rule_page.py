"""Rule pages: seed 004 (Spanish), synthetic English and French pages, letters, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.corpus import rule_page
from kb.corpus.numbers import SUBRULE_LETTERS
from kb.errors import ParseError

DATA = Path(__file__).resolve().parent / "data"


def parse_path(path: Path):
    return rule_page.parse(path.read_text(encoding="utf-8"), str(path))


def page_text(subrules: int, label: str = "Subrules", siblings: tuple[str, ...] = ()) -> str:
    lines = ["701.9. Discard", label]
    lines += [f"Paragraph {i} of the discard rule." for i in range(1, subrules + 1)]
    if siblings:
        lines += ["Other rules in this section", *(f"- {n}" for n in siblings)]
    return "\n".join(lines) + "\n"


def test_seed_004_spanish_rule_page(seed):
    page = parse_path(seed("004"))
    assert page.language == "es"
    assert (page.number, page.title) == ("701.54", "El Anillo te tienta")
    assert [s.number for s in page.subrules] == [f"701.54{c}" for c in "abcde"]
    assert {s.kind for s in page.subrules} == {"subrule"}
    assert {s.parent for s in page.subrules} == {"701.54"}
    assert [s.line for s in page.subrules] == [3, 4, 5, 6, 7]
    assert "la regla 701.54a" in page.subrules[3].text
    assert page.subrules[0].text.startswith("Ciertos hechizos y habilidades")
    assert len(page.siblings) == 71
    assert page.siblings == [f"701.{n}" for n in range(1, 72)]
    assert page.provenance == "official"
    assert page.follows_edition is None


def test_english_page_with_an_example():
    page = parse_path(DATA / "rule_pages" / "en_701_54.txt")
    assert (page.language, page.number, page.title) == ("en", "701.54", "The Ring Tempts You")
    assert [s.number for s in page.subrules] == ["701.54a", "701.54b", "701.54c", "701.54d"]
    # "Example:" belongs to the subrule above it and takes no letter.
    assert page.subrules[1].examples == [
        "A player controls no creatures. The Ring still tempts them."
    ]
    assert page.subrules[2].line == 6
    assert page.siblings == ["701.53", "701.54", "701.55"]


def test_french_page_letters_skip_l_and_o():
    page = parse_path(DATA / "rule_pages" / "fr_13_subrules.txt")
    assert page.language == "fr"
    assert page.title == "Défausser"
    letters = "".join(s.number.removeprefix("701.9") for s in page.subrules)
    assert letters == "abcdefghijkmn"
    assert page.siblings == ["701.8", "701.9", "701.10"]


def test_24_subrules_run_a_to_z_and_the_25th_is_an_error():
    page = rule_page.parse(page_text(24), "p.txt")
    assert page.subrules[-1].number == "701.9z"
    assert "".join(s.number[-1] for s in page.subrules) == SUBRULE_LETTERS
    with pytest.raises(ParseError) as caught:
        rule_page.parse(page_text(25), "p.txt")
    assert caught.value.line == 27  # the 25th paragraph
    assert "more than 24 subrules" in caught.value.reason


def test_label_is_matched_loosely():
    page = rule_page.parse(page_text(2, label="SOUS-REGLES:"), "p.txt")
    assert page.language == "fr"


def test_siblings_are_optional_and_not_rules():
    page = rule_page.parse(page_text(2), "p.txt")
    assert page.siblings == []
    assert all(s.kind == "subrule" for s in page.subrules)


@pytest.mark.parametrize(
    ("name", "line", "words"),
    [
        ("rule_page_no_subrules.txt", 2, "rule page has no subrules"),
        ("rule_page_junk_after_siblings.txt", 6, "unexpected line"),
        ("rule_page_unknown_label.txt", 2, "unknown label 'Subrègles'"),
    ],
)
def test_bad_pages_name_their_line(name, line, words):
    path = DATA / "bad" / name
    with pytest.raises(ParseError) as caught:
        parse_path(path)
    assert (caught.value.path, caught.value.line) == (str(path), line)
    assert words in caught.value.reason


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "empty file"),
        ("701.54 El Anillo\nSubreglas\nTexto.\n", 1, "bad number line"),
        ("701. Acciones\nSubreglas\nTexto.\n", 1, "bad number line"),
        ("701.54. El Anillo te tienta\n", 1, "unknown label"),
        (
            "701.54. T\nSubreglas\nTexto.\nOther rules in this section\n- 701.1\n",
            4,
            "not in the page's",
        ),
        (
            "701.54. T\nSubreglas\nTexto.\nOtras reglas de este apartado\n- 702.1\n",
            5,
            "not in section 701",
        ),
        (
            "701.54. T\nSubreglas\nTexto.\nOtras reglas de este apartado\n- 701.1\n- 701.1\n",
            6,
            "twice",
        ),
        ("701.54. T\nSubreglas\nEjemplo: primero.\n", 3, "example comes before"),
        ("701.54. T\nSubreglas\n- 701.1\n", 3, "before the label"),
    ],
)
def test_more_errors(text, line, words):
    with pytest.raises(ParseError) as caught:
        rule_page.parse(text, "p.txt")
    assert caught.value.line == line
    assert words in caught.value.reason


def test_looks_like(seed):
    assert rule_page.looks_like(seed("004").read_text(encoding="utf-8"))
    assert rule_page.looks_like(page_text(1))
    assert not rule_page.looks_like("Official clarifications from Wizards of the Coast.\n")
    assert not rule_page.looks_like("701.54. The Ring Tempts You\n")
    assert not rule_page.looks_like("")

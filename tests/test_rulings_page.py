"""Rulings pages: the seeds, synthetic English/French/Spanish pages, every error with its line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kb.corpus import rulings_page
from kb.errors import ParseError

DATA = Path(__file__).resolve().parent / "data"

FR_HEADER = (
    "Clarifications officielles de Wizards of the Coast. La traduction FR ci-dessous est générée "
    "automatiquement (IA) — l'original anglais reste la source de vérité."
)


def parse_path(path: Path):
    return rulings_page.parse(path.read_text(encoding="utf-8"), str(path))


def parse_lines(*lines: str, path: str = "page.txt"):
    return rulings_page.parse("\n".join(lines) + "\n", path)


def test_seed_000_is_a_french_page_of_13_english_rulings(seed):
    page = parse_path(seed("000"))
    assert page.page_id == "000_c70b93c6d7c03b3c"
    assert page.language == "fr"
    assert page.machine_translation_notice is True
    assert page.header.startswith("Clarifications officielles")
    assert len(page.rulings) == 13
    assert {r.date for r in page.rulings} == {dt.date(2023, 6, 16)}
    assert {r.source for r in page.rulings} == {"wotc"}
    for ruling in page.rulings:
        assert list(ruling.texts) == ["en"]
        assert ruling.provenance == {"en": "official"}
    assert page.rulings[0].texts["en"].startswith("Each player can have only one emblem")
    assert [r.line for r in page.rulings] == list(range(2, 27, 2))
    assert page.attributes == {}
    assert page.mana_value is None


def test_seed_003_has_12_rulings_and_a_cmc_attribute(seed):
    page = parse_path(seed("003"))
    assert page.language == "fr"
    assert len(page.rulings) == 12
    assert {r.date for r in page.rulings} == {dt.date(2021, 2, 5)}
    assert page.attributes == {"CMC": "4"}
    assert page.mana_value == 4.0
    # The attribute line is not swallowed into the last ruling.
    assert page.rulings[-1].texts == {
        "en": "For those two abilities, you don't have to control either target."
    }


def test_english_page_without_notice_multiline_and_scryfall():
    page = parse_path(DATA / "rulings" / "en_page.txt")
    assert (page.language, page.machine_translation_notice) == ("en", False)
    assert page.page_id == "en_page"
    first, second, third = page.rulings
    assert first.date == dt.date(2023, 6, 1)
    assert first.texts["en"].endswith("available options.\nYou can't abstain.")
    assert (second.source, second.date, second.line) == ("scryfall", dt.date(2021, 3, 3), 5)
    assert third.texts == {"en": "Tokens created this way are copies of the original creature."}
    assert page.attributes == {"CMC": "3", "COLOR": "W"}


def test_french_page_with_translations_and_1er_dates():
    page = parse_path(DATA / "rulings" / "fr_bilingual.txt")
    first, second, only_french = page.rulings
    assert first.date == dt.date(2023, 6, 1)  # "1er juin 2023"
    assert first.texts["fr"].startswith("Chaque joueur ne peut avoir")
    assert first.provenance == {"en": "official", "fr": "machine"}
    # Consecutive paragraphs of one language are joined with a newline.
    assert second.texts["en"].count("\n") == 1 and second.texts["fr"].count("\n") == 1
    assert second.source == "scryfall"
    # A ruling with only a translation is kept, in that language alone.
    assert only_french.texts.keys() == {"fr"}
    assert only_french.provenance == {"fr": "machine"}


def test_spanish_page():
    page = parse_path(DATA / "rulings" / "es_page.txt")
    assert (page.language, page.machine_translation_notice) == ("es", True)
    first, second = page.rulings
    assert first.date == dt.date(2023, 6, 16)
    assert first.provenance == {"en": "official", "es": "machine"}
    assert first.texts["es"].startswith("Cada jugador debe votar")
    assert (second.source, second.date) == ("scryfall", dt.date(2021, 3, 1))
    assert page.attributes == {"CMC": "4"}


@pytest.mark.parametrize(
    ("header", "lang", "notice"),
    [
        ("Official clarifications from Wizards of the Coast.", "en", False),
        ("Official rulings from Wizards of the Coast", "en", False),
        (FR_HEADER, "fr", True),
        ("Clarifications officielles de Wizards of the Coast.", "fr", False),
        (
            "Aclaraciones oficiales de Wizards of the Coast. La traducción ES a continuación se "
            "genera automáticamente (IA) — el original en inglés sigue siendo la fuente de verdad.",
            "es",
            True,
        ),
        ("Aclaraciones oficiales de Wizards of the Coast", "es", False),
    ],
)
def test_header_language_is_read_from_its_words(header, lang, notice):
    assert rulings_page.header_language(header) == (lang, notice)


@pytest.mark.parametrize(
    "line",
    ["Notes about Galadriel", "701.54. The Ring Tempts You", "{", "Wizards"],
)
def test_lines_that_are_not_headers(line):
    assert rulings_page.header_language(line) is None


def test_one_line_ruling_is_not_an_attribute():
    page = parse_lines(
        "Official clarifications from Wizards of the Coast.",
        "June 16, 2023 · source: wotc",
        "CMC is the old name of mana value.",
    )
    assert page.attributes == {}
    assert page.rulings[0].texts["en"] == "CMC is the old name of mana value."


def test_page_id_from_file_name():
    page_id = rulings_page.page_id_from_path("corpus/003_c5873bb13b9e08b7.txt")
    assert page_id == "003_c5873bb13b9e08b7"
    assert rulings_page.page_id_from_path("some/galadriel.txt") == "galadriel"


def test_crlf_and_bom_are_accepted(seed):
    text = seed("003").read_text(encoding="utf-8")
    page = rulings_page.parse("\ufeff" + text.replace("\n", "\r\n"), "x.txt")
    assert len(page.rulings) == 12 and page.attributes == {"CMC": "4"}


@pytest.mark.parametrize(
    ("name", "line", "words"),
    [
        ("rulings_impossible_date.txt", 4, "impossible date '30 février 2021'"),
        ("rulings_unknown_header.txt", 1, "unknown header"),
        ("rulings_truncated.txt", 4, "ruling has no text"),
        ("rulings_month_not_page_language.txt", 2, "written in English but the page is French"),
        ("rulings_text_before_date.txt", 2, "text before the first date line"),
    ],
)
def test_bad_pages_name_their_line(name, line, words):
    path = DATA / "bad" / name
    with pytest.raises(ParseError) as caught:
        parse_path(path)
    assert (caught.value.path, caught.value.line) == (str(path), line)
    assert words in caught.value.reason


@pytest.mark.parametrize(
    ("lines", "line", "words"),
    [
        ((), 1, "empty file"),
        (("", "   "), 1, "empty file"),
        ((FR_HEADER,), 1, "no rulings"),
        (("16 juin 2023 · source : wotc", "Text."), 1, "missing header"),
        ((FR_HEADER, "16 juni 2023 · source : wotc", "Text."), 2, "unknown month 'juni'"),
        ((FR_HEADER, "16 juin 2023 · source : wotc", "Text.", "CMC 4", "CMC 5"), 5, "given twice"),
        ((FR_HEADER, "16 juin 2023 · source : wotc", "CMC 4"), 2, "ruling has no text"),
        (
            (FR_HEADER, "16 juin 2023 · source : wotc", "Text.", "16 juin 2023 · source :"),
            4,
            "malformed",
        ),
        ((FR_HEADER, "16 juin 2023 · wotc", "Text."), 2, "malformed date line"),
    ],
)
def test_more_errors(lines, line, words):
    with pytest.raises(ParseError) as caught:
        parse_lines(*lines)
    assert caught.value.line == line
    assert words in caught.value.reason


def test_looks_like():
    assert rulings_page.looks_like(FR_HEADER + "\n16 juin 2023 · source : wotc\nText.\n")
    assert rulings_page.looks_like("Garbled header\nJune 16, 2023 · source: wotc\nText.\n")
    assert not rulings_page.looks_like("701.54. El Anillo te tienta\nSubreglas\n")
    assert not rulings_page.looks_like('{"meta": {}, "data": {"name": "Wizards official"}}')
    assert not rulings_page.looks_like("")

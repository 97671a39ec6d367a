"""Each era's layout and each kind of official slip, on the sample text (no real data needed).

The real editions these imitate are tested in test_history_corpus.py; here every variant is made
from tests/data/comprules/sample.txt by one edit, so the rule is tested, not the files at hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.corpus import comprules, decode_file
from kb.errors import ParseError

SAMPLE = Path(__file__).resolve().parent / "data" / "comprules" / "sample.txt"


def sample() -> str:
    return SAMPLE.read_text(encoding="utf-8")


def line_of(text: str, start: str, nth: int = 1) -> int:
    found = [i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start)]
    return found[nth - 1]


def parse(text: str):
    return comprules.parse(text, "era.txt")


def numbers(text: str) -> list[str]:
    return [r.number for r in parse(text).rules]


def test_current_as_of_and_indented_rules_and_subrule_periods():
    base = parse(sample())
    old = sample().replace("effective as of", "current as of")
    old = old.replace("\n100.2. Each", "\n 100.2. Each").replace("\n100.1a A", "\n100.1a. A")
    document = parse(old)
    assert document.effective_date == base.effective_date
    assert [r.to_dict() for r in document.rules] == [r.to_dict() for r in base.rules]
    assert document.warnings == []


def test_a_body_whose_part_heading_differs_from_the_contents():
    text = sample().replace("\n1. Game Concepts\n\n100.", "\n1. The Game\n\n100.")
    document = parse(text)
    assert document.rules[0].title == "The Game"
    assert numbers(text) == numbers(sample())


def test_no_contents_at_all():
    text = sample()
    start, end = text.index("Contents\n"), text.index("\n1. Game Concepts\n\n100.")
    assert numbers(text[:start] + text[end + 1 :]) == numbers(sample())


def test_typo_in_a_rule_number_is_kept_in_sequence_with_a_warning():
    text = sample().replace("\n100.2. Each", "\n100.24. Each")
    document = parse(text)
    assert numbers(text) == numbers(sample())
    (warning,) = document.warnings
    assert warning.line == line_of(text, "100.24.")
    assert warning.message.startswith("100.24. kept as 100.2: number out of sequence")


def test_glued_number_and_space_inside_a_number():
    glued = sample().replace("\n100.2. Each", "\n100.2.Each")
    assert numbers(glued) == numbers(sample())
    assert [w.kind for w in parse(glued).warnings] == ["no_space_after_number"]
    spaced = sample().replace("\n100.1b A game", "\n100. 1b A game")
    assert numbers(spaced) == numbers(sample())
    assert [w.kind for w in parse(spaced).warnings] == ["space_in_number"]


def test_repeated_heading_is_ignored_with_a_warning():
    text = sample().replace("\n100.2. Each", "\n100. General\n\n100.2. Each")
    document = parse(text)
    assert numbers(text) == numbers(sample())
    assert [(w.kind, w.line) for w in document.warnings] == [
        ("duplicate_heading", line_of(text, "100. General", 3))
    ]


def test_lines_wrapped_by_hand_join_their_sentence():
    text = sample().replace(
        "100.1b A game with more players is a “crowd game.” See rule 100.2.",
        "100.1b A game with more players is a “crowd game.” See rule\n100.2.",
    )
    rules = {r.number: r for r in parse(text).rules}
    assert rules["100.1b"].text == "A game with more players is a “crowd game.” See rule 100.2."


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("\n100.1b A game", "\n100.4c A game"),  # neither the due letter nor a repeat
        ("\n100.2. Each", "\n101.7. Each"),  # another chapter's number, not the due 100.2
    ],
)
def test_a_misfit_that_the_sequence_does_not_explain_is_still_an_error(old, new):
    text = sample().replace(old, new)
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert caught.value.line == line_of(text, new.strip()[:6])


# --- encodings ---------------------------------------------------------------------------------


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "MagicCompRules.txt"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("codec", "bom", "name"),
    [
        ("utf-8", b"\xef\xbb\xbf", "utf-8-sig"),
        ("utf-8", b"", "utf-8"),
        ("utf-16-le", b"\xff\xfe", "utf-16-le"),
        ("utf-16-be", b"\xfe\xff", "utf-16-be"),
        ("cp1252", b"", "cp1252"),
    ],
)
def test_each_published_encoding_is_read_and_named(tmp_path, codec, bom, name):
    # What Windows-1252 cannot hold (the minus sign, ∞) becomes "?" in every variant alike.
    original = sample().encode("cp1252", errors="replace").decode("cp1252")
    path = _write(tmp_path, bom + original.encode(codec))
    text, encoding = decode_file(path)
    assert encoding == name
    assert "kb’s tests" in text  # 0x92 in Windows-1252 is the curly apostrophe
    assert text == original


def test_a_legacy_encoding_that_is_not_windows_1252_is_refused(tmp_path):
    russian = sample().replace("This sample", "Пример правил для проверки " * 40)
    path = _write(tmp_path, russian.encode("koi8_r", errors="replace"))
    with pytest.raises(ParseError, match=r"not UTF-8 text .*nor plausible Windows-1252"):
        decode_file(path)


def test_windows_1252_is_only_for_comprehensive_rules(tmp_path):
    page = (
        "Official clarifications from Wizards of the Coast.\nJune 16, 2023 · source: wotc\nIt’s\n"
    )
    path = _write(tmp_path, page.encode("cp1252"))
    with pytest.raises(ParseError, match="not UTF-8 text"):
        decode_file(path)


def test_kb_ingest_prints_the_warnings_and_kb_check_lists_them(tmp_path, settings):
    import json

    from click.testing import CliRunner

    from kb.cli import main

    path = tmp_path / "MagicCompRules_20240303.txt"
    path.write_text(sample().replace("\n100.2. Each", "\n100.24. Each"), encoding="utf-8")
    home = ["--home", str(settings.home)]
    runner = CliRunner()
    result = runner.invoke(main, [*home, "ingest", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 documents read: 1 loaded, 0 unchanged, 0 failed, 1 warnings" in result.output
    line = line_of(path.read_text(encoding="utf-8"), "100.24.")
    assert f"MagicCompRules_20240303.txt:{line}: 100.24. kept as 100.2" in result.output
    report = json.loads(runner.invoke(main, [*home, "check", "--json"]).output)
    assert [(w["line"], w["kind"]) for w in report["warnings"]] == [
        (line, "number_out_of_sequence")
    ]
    assert report["counts"]["warnings"] == 1

"""Reading, format detection, dispatch, folder iteration, golden parses and robustness.

Golden files live in tests/data/golden/; regenerate them on purpose with
``KB_REGEN_GOLDEN=1 pytest tests/test_corpus_detect.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest

from kb import corpus
from kb.corpus import (
    FORMATS,
    detect_format,
    iter_corpus_files,
    parse_file,
    parse_text,
    read_text,
)
from kb.corpus import mtgjson as mtgjson_format
from kb.corpus import rule_page as rule_page_format
from kb.corpus import rulings_page as rulings_page_format
from kb.errors import KbError, ParseError

DATA = Path(__file__).resolve().parent / "data"
GOLDEN = DATA / "golden"
SEEDS = {"000": "rulings_page", "003": "rulings_page", "004": "rule_page"}
SAMPLES = [
    DATA / "rulings" / "en_page.txt",
    DATA / "rulings" / "fr_bilingual.txt",
    DATA / "rulings" / "es_page.txt",
    DATA / "rule_pages" / "en_701_54.txt",
    DATA / "rule_pages" / "fr_13_subrules.txt",
    DATA / "mtgjson" / "mini.json",
]


def check_golden(name: str, actual: dict) -> None:
    """Compare a parse with its golden file; KB_REGEN_GOLDEN=1 rewrites the file instead."""
    path = GOLDEN / f"{name}.json"
    if os.environ.get("KB_REGEN_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(actual, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert path.is_file(), f"missing golden file {path} (run with KB_REGEN_GOLDEN=1)"
    assert json.loads(path.read_text(encoding="utf-8")) == actual


# --- golden parses ---------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", sorted(SEEDS))
def test_seed_golden(seed, prefix):
    path = seed(prefix)
    document = parse_file(path)
    assert document.format == SEEDS[prefix]
    check_golden(path.stem, document.to_dict())


def test_mtgjson_mini_golden():
    check_golden("mtgjson_mini", parse_file(DATA / "mtgjson" / "mini.json").to_dict())


# --- detection -------------------------------------------------------------------------------


def test_formats_are_the_four_of_the_contract():
    assert set(FORMATS) == {"comprules", "rule_page", "rulings_page", "mtgjson"}


@pytest.mark.parametrize("prefix", sorted(SEEDS))
def test_seed_detected_from_content_with_a_wrong_extension(seed, tmp_path, prefix):
    copy = tmp_path / "renamed.dat"
    shutil.copyfile(seed(prefix), copy)
    assert detect_format(read_text(copy), str(copy)) == SEEDS[prefix]
    assert parse_file(copy).format == SEEDS[prefix]


def test_mtgjson_detected_with_a_wrong_extension(tmp_path):
    copy = tmp_path / "cards.txt"
    shutil.copyfile(DATA / "mtgjson" / "mini.json", copy)
    assert detect_format(read_text(copy), str(copy)) == "mtgjson"


def test_real_files_are_detected(shared_corpus, cr_path):
    for name in ("KHM.json", "CN2.json"):
        path = shared_corpus / "mtgjson" / name
        assert detect_format(read_text(path), str(path)) == "mtgjson"
    path = cr_path("2026-01-16")
    assert detect_format(read_text(path), str(path)) == "comprules"


@pytest.mark.parametrize(
    "text",
    ["Hello, world.\nThis is a note.\n", "[1, 2, 3]\n", "CMC 4\n", "- 701.1\n- 701.2\n"],
)
def test_unknown_content_is_a_parse_error(text):
    with pytest.raises(ParseError) as caught:
        detect_format(text, "note.txt")
    assert caught.value.line == 1
    assert caught.value.reason.startswith("unknown format")
    assert "rulings page" in caught.value.reason and "MTGJSON" in caught.value.reason


def test_parser_for_rejects_an_unknown_format():
    with pytest.raises(KbError):
        corpus.parser_for("pdf")


# --- reading ---------------------------------------------------------------------------------


def test_read_text_strips_the_bom(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfOfficial clarifications from Wizards of the Coast.\n")
    assert read_text(path).startswith("Official")


@pytest.mark.parametrize(
    ("data", "line", "words"),
    [
        (b"", 1, "empty file"),
        (b"\xef\xbb\xbf \n\t\n", 1, "empty file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 2, "binary file, not a text corpus document"),
        (b"line one\nline two\n\x00\x01\x02\x03junk", 3, "binary file"),
        (
            b"ok\nLe joueur peut voter \xe0 la fin.\n",
            2,
            "not UTF-8 text (byte 0xe0 at column 22; Latin-1?)",
        ),
        (b"ok\r\nsecond\rcaf\xe9\n", 3, "byte 0xe9 at column 4"),
        ("Official".encode("utf-16-le"), 1, "UTF-16 text without a byte order mark"),
    ],
)
def test_read_text_errors(tmp_path, data, line, words):
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    with pytest.raises(ParseError) as caught:
        read_text(path)
    assert (caught.value.path, caught.value.line) == (str(path), line)
    assert words in caught.value.reason


def test_read_text_and_parse_file_accept_what_the_caller_already_read(seed):
    path = seed("004")
    data = path.read_bytes()
    text = read_text(Path("elsewhere.txt"), data)
    assert text == path.read_text(encoding="utf-8")
    assert parse_file(path, text=text) == parse_file(path)
    with pytest.raises(ParseError, match=r"elsewhere\.txt:1: empty file"):
        read_text(Path("elsewhere.txt"), b"")


def test_read_text_of_a_missing_file(tmp_path):
    with pytest.raises(KbError):
        read_text(tmp_path / "absent.txt")


# --- bad files end to end: every error names the file and the line ------------------------------


@pytest.mark.parametrize(
    ("name", "line", "words"),
    [
        ("empty.txt", 1, "empty file"),
        ("rulings_latin1.txt", 1, "not UTF-8 text (byte 0xe9 at column 86; Latin-1?)"),
        ("rulings_impossible_date.txt", 4, "impossible date '30 février 2021'"),
        ("rulings_unknown_header.txt", 1, "unknown header"),
        ("rulings_truncated.txt", 4, "ruling has no text"),
        ("rule_page_no_subrules.txt", 2, "rule page has no subrules"),
        ("rule_page_unknown_label.txt", 2, "unknown label"),
        ("mtgjson_truncated.json", 72, "invalid JSON"),
    ],
)
def test_bad_files(name, line, words):
    path = DATA / "bad" / name
    with pytest.raises(ParseError) as caught:
        parse_file(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert words in caught.value.reason


def test_binary_junk_file(tmp_path):
    path = tmp_path / "junk.txt"
    path.write_bytes(random.Random(1).randbytes(4096))
    with pytest.raises(ParseError, match="binary file, not a text corpus document"):
        parse_file(path)


# --- iterating a corpus ----------------------------------------------------------------------


def test_iter_corpus_files(tmp_path):
    for name in [
        "b/002_0123456789abcdef.txt",
        "a/set.json",
        "a/deep/er/rules.txt",
        "a/README.md",
        "SOURCES.md",
        "readme.txt",
        "notes.pdf",
        ".hidden.txt",
        ".git/config.txt",
        "sub/.cache/x.json",
    ]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x", encoding="utf-8")
    explicit = tmp_path / "notes.pdf"
    found = iter_corpus_files([tmp_path, explicit, tmp_path / "a"])
    assert found == sorted(
        [
            tmp_path / "a" / "deep" / "er" / "rules.txt",
            tmp_path / "a" / "set.json",
            tmp_path / "b" / "002_0123456789abcdef.txt",
            explicit,
        ]
    )


def test_iter_corpus_files_on_the_seeds(seeds):
    assert [p.name[:3] for p in iter_corpus_files([seeds])] == ["000", "003", "004"]


def test_iter_corpus_files_missing_path(tmp_path):
    with pytest.raises(KbError, match="no such file or folder"):
        iter_corpus_files([tmp_path / "nowhere"])


# --- robustness: parsers raise ParseError and nothing else ------------------------------------

_TRICKY_LINES = [
    "",
    " ",
    "·",
    "CMC 4",
    "CMC",
    "- 701.1",
    "- 701.",
    "Subreglas",
    "Sous-règles",
    "Other rules in this section",
    "Ejemplo: x",
    "701.54. Title",
    "701.54a",
    "30 février 2021 · source : wotc",
    "16 juin 2023 · source : wotc",
    "June 16, 2023 · source: wotc",
    "16 de junio de 2023 · fuente: wotc",
    "0 juin 0000 · source : x",
    "99 de foo de 2023 · fuente:",
    "Official clarifications from Wizards of the Coast.",
    "{",
    '{"data": {"cards": [{}]}}',
    "\ufeff",
    "\x00",
]


def _mutations(text: str, rng: random.Random, count: int):
    lines = text.splitlines()
    for _ in range(count):
        mutated = list(lines)
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(6)
            i = rng.randrange(len(mutated)) if mutated else 0
            if op == 0 and mutated:
                del mutated[i]
            elif op == 1 and mutated:
                mutated.insert(i, mutated[rng.randrange(len(mutated))])
            elif op == 2:
                mutated.insert(i, rng.choice(_TRICKY_LINES))
            elif op == 3 and mutated:
                mutated[i] = rng.choice(_TRICKY_LINES)
            elif op == 4 and mutated and mutated[i]:
                cut = rng.randrange(len(mutated[i]))
                mutated[i] = mutated[i][:cut]
                mutated = mutated[: i + 1]
            elif op == 5 and mutated and mutated[i]:
                j = rng.randrange(len(mutated[i]))
                mutated[i] = mutated[i][:j] + rng.choice("·:.-{}\"' 0aé\t") + mutated[i][j + 1 :]
        yield "\n".join(mutated)


@pytest.mark.parametrize("sample", [*sorted(SEEDS), *[p.name for p in SAMPLES]])
def test_mutated_texts_only_raise_parse_errors(seed, sample):
    path = seed(sample) if sample in SEEDS else next(p for p in SAMPLES if p.name == sample)
    text = path.read_text(encoding="utf-8")
    rng = random.Random(sample)
    parsers = [rulings_page_format.parse, rule_page_format.parse, mtgjson_format.parse, parse_text]
    for mutated in [text, *_mutations(text, rng, 150)]:
        for parse in parsers:
            try:
                parse(mutated, "mutated.txt")
            except ParseError as error:
                assert error.line >= 1 and error.reason

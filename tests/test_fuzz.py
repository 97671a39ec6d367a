"""Hostile and broken input for every parser: only ParseError (with file and line), in bounded time.

Small inputs run in this process under a wall-clock alarm, thousands of them through Hypothesis:
random bytes, random Unicode, real lines shuffled, real files truncated or with mixed line
endings. Huge inputs (10 MB lines, sections repeated thousands of times, a rule page of 10,000
subrules, JSON nested 100,000 deep) run each in a child process with a timeout and an address
space limit, which reports the parse's time and peak memory.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest
from conftest import DATA, ROOT, SEEDS, SHARED_CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.corpus import FORMATS, parse_text, parser_for, read_text
from kb.errors import ParseError

PATH = "fuzz/input.txt"
SMALL_PARSE_SECONDS = 5.0  # one small input, generously (a shared 2-core machine)
HUGE_PARSE_SECONDS = 60.0  # one 10 MB input in a child process
HUGE_MEMORY_FACTOR = 40  # peak Python allocations per byte of input, at most
HUGE_ADDRESS_SPACE = 3 * 1024**3  # the child's hard limit: a runaway parse dies, not the machine

FUZZ = settings(
    max_examples=int(os.environ.get("KB_FUZZ_EXAMPLES") or 150),  # more: benchmarks/reliability.py
    deadline=None,  # the alarm below bounds each parse; Hypothesis' own deadline is flaky on CI
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class ParseTimeout(Exception):
    """A parse ran past its time bound (a hang or a quadratic blow-up)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ParseTimeout in this thread if the block runs longer than ``seconds``."""

    def expire(_signum: int, _frame: object) -> None:
        raise ParseTimeout(f"parse took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_parse(parse: Callable[[str, str], object], text: str) -> None:
    """Parse; anything but success or a well-formed ParseError fails the test."""
    try:
        with time_limit(SMALL_PARSE_SECONDS):
            parse(text, PATH)
    except ParseError as error:
        check_error(error, text)


def check_error(error: ParseError, text: str) -> None:
    """A ParseError names the file and a line that exists (or the one just past the end)."""
    assert error.path == PATH
    assert isinstance(error.line, int)
    assert 1 <= error.line <= len(text.splitlines()) + 1, (error.line, str(error))
    assert error.reason.strip()
    assert str(error).startswith(f"{PATH}:{error.line}: ")


def every_parser() -> list[tuple[str, Callable[[str, str], object]]]:
    """Each format's parser called directly (whatever its sniffing says), then the dispatcher."""
    return [*((name, parser_for(name)) for name in FORMATS), ("detect", parse_text)]


# --- the real files the mutations start from ------------------------------------------------


@cache
def real_files() -> dict[str, str]:
    """Every small real input of the repository (seeds, test data) and, if present, one CR."""
    files = sorted(SEEDS.glob("*.txt")) + sorted(
        p for p in DATA.rglob("*") if p.suffix in (".txt", ".json") and "golden" not in p.parts
    )
    texts = {}
    for path in files:
        try:
            texts[path.name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # the Latin-1 sample: bytes fuzzing covers it
    cr = SHARED_CORPUS / "cr" / "en" / "MagicCompRules_20260116.txt"
    if cr.is_file():
        texts[cr.name] = cr.read_text(encoding="utf-8-sig")
    return texts


@cache
def real_lines() -> list[str]:
    """Distinct lines of the real files (the CR's first 4,000): noise a parser half-recognises."""
    lines: set[str] = set()
    for name, text in real_files().items():
        chosen = text.splitlines()
        lines.update(chosen[:4000] if name.startswith("MagicCompRules") else chosen)
    return sorted(lines)


NEWLINES = st.sampled_from(["\n", "\r\n", "\r", "\n\n", "\u2028", "\x85", "\x0c"])
real_file = st.sampled_from(sorted(real_files()))
parser_choice = st.sampled_from(every_parser())


# --- small inputs, in process ---------------------------------------------------------------


@FUZZ
@given(data=st.binary(max_size=4096))
def test_random_bytes_through_read_and_detect(data: bytes) -> None:
    try:
        with time_limit(SMALL_PARSE_SECONDS):
            text = read_text(Path(PATH), data)
    except ParseError as error:
        assert error.path == PATH and error.line >= 1
        assert error.line <= len(re.split(rb"\r\n|\r|\n", data))
        return
    check_parse(parse_text, text)


@FUZZ
@given(parser=parser_choice, text=st.text(max_size=3000))
def test_random_unicode(parser: tuple[str, Callable[[str, str], object]], text: str) -> None:
    check_parse(parser[1], text)


@FUZZ
@given(
    parser=parser_choice,
    lines=st.lists(st.sampled_from(real_lines()), min_size=1, max_size=60),
    newline=NEWLINES,
)
def test_shuffled_real_lines(
    parser: tuple[str, Callable[[str, str], object]], lines: list[str], newline: str
) -> None:
    check_parse(parser[1], newline.join(lines))


@FUZZ
@given(name=real_file, cut=st.floats(0, 1), parser=parser_choice)
def test_truncated_real_files(
    name: str, cut: float, parser: tuple[str, Callable[[str, str], object]]
) -> None:
    text = real_files()[name]
    check_parse(parser[1], text[: int(len(text) * cut)])


@FUZZ
@given(name=real_file, cut=st.floats(0, 1))
def test_truncated_real_bytes_mid_character(name: str, cut: float) -> None:
    """A file cut at any byte (in the middle of an é or a ·): a clean ParseError or a parse."""
    data = real_files()[name].encode("utf-8")
    data = data[: int(len(data) * cut)]
    try:
        text = read_text(Path(PATH), data)
    except ParseError as error:
        assert error.path == PATH and error.line >= 1
        return
    check_parse(parse_text, text)


@FUZZ
@given(name=real_file, endings=st.lists(NEWLINES, min_size=1, max_size=8), seed=st.integers())
def test_mixed_line_endings(name: str, endings: list[str], seed: int) -> None:
    lines = real_files()[name].splitlines()
    text = "".join(line + endings[(seed + i) % len(endings)] for i, line in enumerate(lines))
    for _, parse in every_parser():
        check_parse(parse, text)


def test_mixed_line_endings_do_not_change_a_good_parse() -> None:
    """CRLF, CR and LF mixed in one real page parse exactly like the LF original."""
    for name in ("en_701_54.txt", "fr_bilingual.txt", "003_c5873bb13b9e08b7.txt"):
        text = real_files()[name]
        mixed = "".join(
            line + ("\r\n", "\r", "\n")[i % 3] for i, line in enumerate(text.splitlines())
        )
        assert parse_text(mixed, PATH) == parse_text(text, PATH), name


@FUZZ
@given(
    name=real_file,
    position=st.floats(0, 1),
    insert=st.sampled_from(
        ["\x00", "\ufeff", "\u202e", "\u200b", "\ud7ff", "{", "}", '"', "·", "\t", "701.54a", ""]
    ),
    count=st.integers(1, 50),
)
def test_real_files_with_hostile_characters(
    name: str, position: float, insert: str, count: int
) -> None:
    text = real_files()[name]
    at = int(len(text) * position)
    check_parse(parse_text, text[:at] + insert * count + text[at:])


# --- huge inputs, each in a child process ---------------------------------------------------

CHILD = textwrap.dedent(
    """
    import json, resource, sys, time, tracemalloc
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from kb.corpus import parse_text, parser_for
    from kb.errors import ParseError
    text = open(sys.argv[1], encoding="utf-8", newline="").read()
    tracemalloc.start()
    for name in sys.argv[2:]:
        parse = parse_text if name == "detect" else parser_for(name)
        tracemalloc.reset_peak()
        start = time.perf_counter()
        outcome = {{"parser": name, "error": None}}
        try:
            parse(text, "{path}")
        except ParseError as error:
            outcome["error"] = {{"path": error.path, "line": error.line, "reason": error.reason}}
        except BaseException as error:
            outcome["crash"] = repr(error)[:500]
        outcome["seconds"] = time.perf_counter() - start
        outcome["peak"] = tracemalloc.get_traced_memory()[1]
        print(json.dumps(outcome), flush=True)
    """
).format(limit=HUGE_ADDRESS_SPACE, path=PATH)


def parse_in_child(tmp_path: Path, text: str, *parsers: str) -> dict[str, dict[str, object]]:
    """Parse ``text`` with each parser in a fresh interpreter; return outcome, time and memory."""
    source = tmp_path / "huge.txt"
    source.write_text(text, encoding="utf-8", newline="")
    budget = HUGE_PARSE_SECONDS * len(parsers)
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(source), *parsers],
            capture_output=True,
            text=True,
            timeout=budget,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired as expired:
        finished = (expired.stdout or b"").count(b"\n") if expired.stdout else 0
        pytest.fail(
            f"{parsers[finished]}: parsing {len(text):,} characters ran past the {budget} s bound"
        )
    assert done.returncode == 0, f"{parsers}: child died ({done.returncode}): {done.stderr[-2000:]}"
    outcomes = {}
    limit = HUGE_MEMORY_FACTOR * len(text.encode("utf-8")) + 64 * 1024**2
    for line in done.stdout.strip().splitlines():
        outcome = json.loads(line)
        name = outcome["parser"]
        assert "crash" not in outcome, f"{name}: raised {outcome['crash']}"
        assert outcome["seconds"] <= HUGE_PARSE_SECONDS, f"{name}: {outcome['seconds']:.1f} s"
        assert outcome["peak"] <= limit, f"{name}: peak {outcome['peak']:,} B for {len(text):,}"
        if outcome["error"] is not None:
            error = outcome["error"]
            assert error["path"] == PATH
            assert 1 <= error["line"] <= len(text.splitlines()) + 1, error
        outcomes[name] = outcome
    assert sorted(outcomes) == sorted(parsers), done.stdout
    return outcomes


TEN_MB = 10 * 1024 * 1024


def huge_inputs() -> dict[str, str]:
    """The large hostile inputs, by name (built from the real pages so parsers get far)."""
    rule = real_files()["en_701_54.txt"]
    rulings = real_files()["003_c5873bb13b9e08b7.txt"]
    mini = json.loads(real_files()["mini.json"])
    head, rest = rulings.split("\n", 1)
    first_ruling = rest.split("\n\n")[0] if "\n\n" in rest else rest
    letters_line = "Some spells and abilities say that the Ring tempts you."
    return {
        "ten_mb_line_in_rule_page": rule.replace(letters_line, "x" * TEN_MB, 1),
        "ten_mb_line_in_rulings_page": head + "\n" + rest.replace("\n", "\n" + "y" * TEN_MB, 1),
        "ten_mb_single_line": "701.54. " + "z" * TEN_MB,
        "a_million_empty_lines": "\r\n" * 1_000_000,
        "ten_mb_json_string": json.dumps({**mini, "data": {**mini["data"], "name": "n" * TEN_MB}}),
        "rule_page_of_10000_subrules": "701.54. The Ring Tempts You\nSubrules\n"
        + "".join(f"Subrule paragraph number {i}.\n" for i in range(10_000)),
        "rule_page_of_10000_examples": "701.54. The Ring Tempts You\nSubrules\nA rule.\n"
        + "Example: again.\n" * 10_000,
        "rulings_page_repeated_1000_times": head + "\n" + (first_ruling + "\n\n") * 1_000,
        "rule_page_sections_repeated": rule * 2_000,
        "comprules_rules_repeated": _repeated_comprules(),
        "json_nested_100000_deep": "[" * 100_000 + "]" * 100_000,
        "json_object_nested_100000_deep": '{"a":' * 100_000 + "1" + "}" * 100_000,
        "mtgjson_10000_cards": json.dumps(
            {**mini, "data": {**mini["data"], "cards": mini["data"]["cards"] * 2_000}}
        ),
    }


def _repeated_comprules() -> str:
    """The sample CR with its rules section repeated 300 times (duplicate numbers galore)."""
    text = real_files()["sample.txt"]
    match = re.search(r"^1\. ", text, flags=re.MULTILINE)
    glossary = text.find("\nGlossary", match.end() if match else 0)
    if match is None or glossary < 0:
        return text * 300
    body = text[match.start() : glossary]
    return text[: match.start()] + body * 300 + text[glossary:]


@pytest.mark.parametrize("name", sorted(huge_inputs()))
def test_huge_inputs_are_bounded(tmp_path: Path, name: str) -> None:
    parse_in_child(tmp_path, huge_inputs()[name], "detect", *FORMATS)


def test_10000_subrules_fail_at_the_25th_with_its_line(tmp_path: Path) -> None:
    """Letters a-z without l and o give 24 subrules; the 25th is named by its line."""
    outcomes = parse_in_child(tmp_path, huge_inputs()["rule_page_of_10000_subrules"], "rule_page")
    outcome = outcomes["rule_page"]
    assert outcome["error"] is not None
    assert outcome["error"]["line"] == 2 + 25
    assert "more than 24 subrules" in outcome["error"]["reason"]

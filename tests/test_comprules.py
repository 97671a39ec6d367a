"""The Comprehensive Rules parser: the real editions, a golden sample, line endings, bad input."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import time
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.corpus import comprules
from kb.corpus.numbers import SUBRULE_LETTERS
from kb.corpus.records import CompRulesDocument
from kb.errors import ParseError

DATA = Path(__file__).parent / "data" / "comprules"
SAMPLE = DATA / "sample.txt"
GOLDEN = DATA / "golden_sample.json"
EDITIONS = ("2021-02-05", "2025-11-14", "2026-01-16")

# --- the real editions ---------------------------------------------------------------------------
#
# Every expected number below was counted in the shell without the parser (FILE = the edition):
#
#   perl -0777 -pe 's/^\xEF\xBB\xBF//; s/\r\n?/\n/g' FILE > /tmp/cr.txt  # no BOM; CR, CRLF -> LF
#   awk '/^1\. Game Concepts$/{p++} /^Glossary$/{g++} p==2 && g<2' /tmp/cr.txt > /tmp/body.txt
#   awk '/^Glossary$/{g++} /^Credits$/{c++} g==2 && c<2' /tmp/cr.txt > /tmp/gloss.txt
#
#   date        grep -m1 'These rules are effective as of' /tmp/cr.txt
#   parts       grep -cE '^[1-9]\. ' /tmp/body.txt
#   chapters    grep -cE '^[0-9]{3}\. ' /tmp/body.txt
#   rules       grep -cE '^[0-9]{3}\.[0-9]+\.? ' /tmp/body.txt
#   subrules    grep -cE '^[0-9]{3}\.[0-9]+[a-z]\.? ' /tmp/body.txt
#   examples    grep -c '^Example: ' /tmp/body.txt
#   title_only  (rules with subrules whose text, closing quotes/brackets aside, ends in neither
#               . nor :)
#               awk 'match($0,/^[0-9]+\.[0-9]+[a-z]/){s[substr($0,1,RLENGTH-1)]=1}
#                    /^[0-9]+\.[0-9]+\.? /{n=$1; sub(/\.$/,"",n); t=$0; sub(/ +$/,"",t);
#                      sub(/[”’)\]]+$/,"",t); if (t !~ /[.:]$/) c[n]=1}
#                    END{for(n in c) if(n in s) k++; print k}' /tmp/body.txt
#   glossary    awk 'BEGIN{RS=""} END{print NR-1}' /tmp/gloss.txt      # paragraphs minus heading
#   obsolete    grep -cE ' \(Obsolete\)$|^\(Obsolete\) ' /tmp/gloss.txt
#   redirects   awk 'BEGIN{RS="";FS="\n"} NF==2 && $2 ~ /^See / && $2 !~ /^See (rule|section)/
#                    {k++} END{print k}' /tmp/gloss.txt
#   multi_sense awk 'BEGIN{RS="";FS="\n"} $2 ~ /^1\. /{k++} END{print k}' /tmp/gloss.txt
EXPECTED = {
    "2021-02-05": dict(
        parts=9,
        chapters=133,
        rules=988,
        subrules=1526,
        examples=257,
        title_only=191,
        glossary=585,
        obsolete=29,
        redirects=20,
        multi_sense=23,
    ),
    "2025-11-14": dict(
        parts=9,
        chapters=146,
        rules=1155,
        subrules=1954,
        examples=276,
        title_only=262,
        glossary=725,
        obsolete=34,
        redirects=20,
        multi_sense=28,
    ),
    "2026-01-16": dict(
        parts=9,
        chapters=146,
        rules=1157,
        subrules=1957,
        examples=276,
        title_only=263,
        glossary=725,
        obsolete=34,
        redirects=20,
        multi_sense=28,
    ),
}


@pytest.fixture(scope="module")
def edition(cr_path):
    """Return the parse of a real edition (each file read and parsed once per module)."""

    @cache
    def load(effective: str) -> CompRulesDocument:
        path = cr_path(effective)
        return comprules.parse(path.read_bytes().decode("utf-8"), str(path))

    return load


def rules_of(doc: CompRulesDocument) -> dict[str, object]:
    return {rule.number: rule for rule in doc.rules}


def terms_of(doc: CompRulesDocument) -> dict[str, object]:
    return {entry.term: entry for entry in doc.glossary}


@pytest.mark.parametrize("effective", EDITIONS)
def test_counts_match_the_shell(edition, effective):
    doc = edition(effective)
    kinds = Counter(rule.kind for rule in doc.rules)
    counted = dict(
        parts=kinds["part"],
        chapters=kinds["chapter"],
        rules=kinds["rule"],
        subrules=kinds["subrule"],
        examples=sum(len(rule.examples) for rule in doc.rules),
        title_only=sum(1 for rule in doc.rules if rule.kind == "rule" and rule.title),
        glossary=len(doc.glossary),
        obsolete=sum(entry.obsolete for entry in doc.glossary),
        redirects=sum(entry.redirect is not None for entry in doc.glossary),
        multi_sense=sum(len(entry.senses) > 1 for entry in doc.glossary),
    )
    assert counted == EXPECTED[effective]
    assert doc.effective_date == dt.date.fromisoformat(effective)
    assert doc.language == "en"


@pytest.mark.parametrize("effective", EDITIONS)
def test_every_parent_exists_and_numbers_are_unique(edition, effective):
    doc = edition(effective)
    numbers = [rule.number for rule in doc.rules]
    assert len(numbers) == len(set(numbers))
    known = set(numbers)
    for rule in doc.rules:
        assert (rule.parent is None) == (rule.kind == "part")
        assert rule.parent is None or rule.parent in known, rule.number


@pytest.mark.parametrize("effective", EDITIONS)
def test_letters_skip_l_and_o_without_gaps(edition, effective):
    letters: dict[str, str] = {}
    for rule in edition(effective).rules:
        if rule.kind == "subrule":
            letters[rule.parent] = letters.get(rule.parent, "") + rule.number[-1]
    assert letters, "no subrules"
    for parent, run in letters.items():
        assert run == SUBRULE_LETTERS[: len(run)], parent
    assert letters["704.5"][10:12] == "km"


@pytest.mark.parametrize("effective", EDITIONS)
def test_texts_are_clean(edition, effective):
    doc = edition(effective)
    for rule in doc.rules:
        assert rule.title or rule.text, rule.number
        for piece in [rule.title, rule.text, *rule.examples]:
            assert piece == piece.strip() and "\r" not in piece, rule.number
            assert not piece.startswith("Example:"), rule.number
        if rule.kind in ("part", "chapter"):
            assert rule.title and not rule.text
    for entry in doc.glossary:
        assert entry.term and entry.term == entry.term.strip() and "(Obsolete)" not in entry.term
        assert entry.senses or entry.redirect
        assert entry.line > 0


def test_ring_tempts_you_2026(edition):
    rules = rules_of(edition("2026-01-16"))
    ring = rules["701.54"]
    assert (ring.kind, ring.title, ring.text, ring.parent) == (
        "rule",
        "The Ring Tempts You",
        "",
        "701",
    )
    # copied from MagicCompRules_20260116.txt (lines 3732-3740)
    expected = {
        "701.54a": (
            "Certain spells and abilities have the text “the Ring tempts you.” Each time the "
            "Ring tempts you, choose a creature you control. That creature becomes your "
            "Ring-bearer until another creature becomes your Ring-bearer or another player "
            "gains control of it."
        ),
        "701.54b": (
            "Ring-bearer is a designation a permanent can have. Being a Ring-bearer is not a "
            "copiable value."
        ),
        "701.54c": (
            "If a player doesn’t have an emblem named The Ring at the time the Ring tempts "
            "them, they get an emblem named The Ring before choosing a creature to be their "
            "Ring-bearer. The Ring has “Your Ring-bearer is legendary and can’t be blocked by "
            "creatures with greater power.” As long as the Ring has tempted that player two or "
            "more times, it has “Whenever your Ring-bearer attacks, draw a card, then discard "
            "a card.” As long as the Ring has tempted that player three or more times, it has "
            "“Whenever your Ring-bearer becomes blocked by a creature, the blocking creature’s "
            "controller sacrifices it at end of combat.” As long as the Ring has tempted that "
            "player four or more times, it has “Whenever your Ring-bearer deals combat damage "
            "to a player, each opponent loses 3 life.”"
        ),
        "701.54d": (
            "Some abilities trigger “Whenever the Ring tempts you.” The Ring tempts a player "
            "whenever they complete the actions in 701.54a, even if some or all of those "
            "actions were impossible."
        ),
        "701.54e": (
            "Some abilities check to see if a creature “is your Ring-bearer.” For the purposes "
            "of those abilities, that condition is true if that creature is on the battlefield "
            "under your control and has the Ring-bearer designation."
        ),
    }
    for number, text in expected.items():
        rule = rules[number]
        assert (rule.kind, rule.title, rule.text, rule.examples, rule.parent) == (
            "subrule",
            "",
            text,
            [],
            "701.54",
        )
    assert "701.54f" not in rules
    # grep -n '^701\.54[. ]' /tmp/cr.txt  -> 3730 (the line a text editor shows)
    assert ring.line == 3730
    assert rules["701.54e"].line == 3740


@pytest.mark.parametrize("effective", EDITIONS)
def test_numbering_slips(edition, effective):
    rules = rules_of(edition(effective))
    brawl = rules["119.1d"]  # printed "119.1d." in every edition
    assert (brawl.kind, brawl.parent) == ("subrule", "119.1")
    assert brawl.text.startswith("In a two-player Brawl game, each player’s starting life")
    loyalty = rules["606.5"]  # printed "606.5 If …" from 2025 on
    assert (loyalty.kind, loyalty.parent, loyalty.title) == ("rule", "606", "")
    if effective != "2021-02-05":
        assert loyalty.text.startswith("If the total cost to activate a loyalty ability")
        assert loyalty.examples[0].startswith("A player controls Carth the Lion")
        assert "[−4]" in loyalty.examples[0]  # U+2212 kept
        # grep -n '^606\.5 ' /tmp/cr.txt -> 2708 in both
        assert loyalty.line == 2708
        assert rules["704.5z"].text.startswith("If a player controls a permanent with start your")


@pytest.mark.parametrize("effective", EDITIONS)
def test_title_only_rules(edition, effective):
    rules = rules_of(edition(effective))
    assert (rules["205.3"].title, rules["205.3"].text) == ("Subtypes", "")
    assert rules["113.3"].title == ""  # "There are four general categories of abilities:"
    assert rules["113.3"].text.endswith(":")
    assert rules["100"].title == "General" and rules["1"].title == "Game Concepts"
    if effective != "2021-02-05":
        assert rules["702.163"].title == "For Mirrodin!"
        assert rules["702.186"].title == "∞ (Infinity)"
    for rule in rules.values():
        if rule.kind == "rule" and rule.title:
            assert not rule.text and not rule.examples
            assert rule.title[-1] not in ".:", rule.number


def test_examples_belong_to_the_rule_above(edition):
    rules = rules_of(edition("2026-01-16"))
    assert rules["101.2"].examples == [
        "If one effect reads “You may play an additional land this turn” and another reads “You "
        "can’t play lands this turn,” the effect that precludes you from playing lands wins."
    ]
    assert rules["101.2a"].examples == []
    # awk '/^Example: /{c++; next} {if (c>=3) print prev, c; c=0; prev=$1}' /tmp/body.txt
    assert len(rules["613.6"].examples) == 4
    assert len(rules["707.3"].examples) == 4
    assert len(rules["107.1b"].examples) == 3
    # the one example after a blank line
    assert rules["701.67b"].examples[0].startswith("Spirit Water Revival is a spell")
    assert rules["701.67c"].examples == []


def test_continuation_paragraphs_join_with_newline(edition):
    rules = rules_of(edition("2026-01-16"))
    first, second = rules["205.4c"].text.split("\n")
    assert first.endswith("even if it has a basic land type.")
    assert second.startswith("Cards printed in sets prior to the Eighth Edition core set")
    blockers = rules["509.1b"]
    assert blockers.text.split("\n")[1].startswith("A restriction may be created by an evasion")
    assert blockers.examples[0].startswith("An attacking creature with flying and shadow")


def test_glossary_2026(edition):
    doc = edition("2026-01-16")
    terms = terms_of(doc)
    ability = terms["Ability"]
    assert ability.senses == [
        "Text on an object that explains what that object does or can do.",
        "An activated or triggered ability on the stack. This kind of ability is an object.\n"
        "See rule 113, “Abilities,” and section 6, “Spells, Abilities, and Effects.”",
    ]
    assert ability.definition.startswith("1. Text on an object")
    assert "\n2. An activated" in ability.definition
    wizard = terms["Wizardcycling"]
    assert (wizard.redirect, wizard.senses, wizard.definition) == (
        "Typecycling",
        [],
        "See Typecycling.",
    )
    assert terms["If"].redirect == "Intervening “If” Clause"
    assert terms["Bury"].obsolete and terms["Bury"].senses[0].startswith("A term that meant")
    assert terms["Placed"].obsolete and terms["Placed"].senses[0].startswith("Some spells")
    play = terms["Play"]
    assert not play.obsolete and len(play.senses) == 5
    assert play.senses[2].startswith("(Obsolete) Casting a spell")
    assert len(terms["Face Down"].senses) == 3
    assert terms["Move"].senses[0].count("\n") == 1  # one sense in two paragraphs
    assert terms["Dependency"].senses[0].endswith("See also Timestamp Order.")
    assert terms["Blight"].senses[0].startswith("A keyword action. To blight N")
    # credits are not in the glossary
    assert doc.glossary[0].term == "Abandon" and doc.glossary[-1].term == "Zone-Change Triggers"
    assert not any(term.startswith(("Credits", "Magic: The Gathering")) for term in terms)
    # grep -n '^Wizardcycling$' /tmp/cr.txt -> 9195
    assert wizard.line == 9195


def test_changes_from_2025_to_2026(edition):
    old, new = rules_of(edition("2025-11-14")), rules_of(edition("2026-01-16"))
    assert set(new) - set(old) == {"610.5", "701.68", *(f"701.68{c}" for c in "abcd")}
    assert set(old) - set(new) == {"702.124p"}
    assert set(terms_of(edition("2026-01-16"))) - set(terms_of(edition("2025-11-14"))) == {"Blight"}


@pytest.mark.parametrize("effective", EDITIONS)
def test_parse_is_sniffed(cr_path, effective):
    # (speed is the ingest benchmark's business, never a timed assertion here)
    text = cr_path(effective).read_bytes().decode("utf-8")
    assert text.startswith("\ufeff")
    assert comprules.looks_like(text)
    assert comprules.parse(text).rules


# --- the synthetic sample ------------------------------------------------------------------------


def sample_text() -> str:
    return SAMPLE.read_text(encoding="utf-8")


def test_sample_matches_golden():
    got = comprules.parse(sample_text(), "sample.txt").to_dict()
    if os.environ.get("KB_REGEN_GOLDEN") == "1":
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert got == json.loads(GOLDEN.read_text(encoding="utf-8")), (
        "parse changed: check it, then rerun with KB_REGEN_GOLDEN=1 to rewrite the golden file"
    )


def test_sample_highlights():
    doc = comprules.parse(sample_text())
    rules = rules_of(doc)
    assert doc.effective_date == dt.date(2024, 3, 3)
    assert [r.number for r in doc.rules if r.kind in ("part", "chapter")] == [
        "1",
        "100",
        "101",
        "2",
        "200",
    ]
    assert rules["100.3"].kind == "rule" and rules["101.1b"].kind == "subrule"  # the slips
    assert rules["100.1b"].text.endswith("See rule 100.2.")  # trailing spaces stripped
    assert rules["101.1"].title == "Numbers" and rules["200.1"].title == "Count Up!"
    assert rules["101.2"].text == "Some rules list things:"
    assert rules["100.2"].examples[1].startswith("In a crowd game")
    assert rules["101.1c"].text.endswith(
        "∞ and is larger than any number.\nIt can’t be counted, doubled or halved."
    )
    assert "101.1m" in rules and "101.1l" not in rules
    terms = terms_of(doc)
    assert terms["Landcounting"].redirect == "Count Up"
    assert terms["Old Count"].obsolete and terms["Shuffle"].obsolete
    assert terms["Shuffle"].senses == [
        "An old word for mixing a deck. Cards with that text now say “randomize.”"
    ]
    assert "Sample Design: The kb project" not in terms


def test_looks_like(seeds):
    assert comprules.looks_like(sample_text())
    assert comprules.looks_like("\ufeff" + sample_text().replace("\n", "\r"))
    headless = sample_text().split("\n", 1)[1]  # no title line: the date and a rule are enough
    assert comprules.looks_like(headless)
    assert not comprules.looks_like("")
    assert not comprules.looks_like('{"data": {"cards": []}}')
    assert not comprules.looks_like("701.54. The Ring Tempts You\nSubrules\n701.54a Text.\n")
    for seed in sorted(seeds.glob("*.txt")):
        assert not comprules.looks_like(seed.read_text(encoding="utf-8")), seed.name


# --- line endings --------------------------------------------------------------------------------


def without_lines(doc: CompRulesDocument) -> dict:
    data = doc.to_dict()
    for item in data["rules"] + data["glossary"]:
        item.pop("line")
    return data


def test_line_endings_give_the_same_records():
    lines = sample_text().split("\n")
    reference = comprules.parse("\n".join(lines))
    # mixed: CRLF, CR and LF in turn (a CR before an empty line would merge with the next LF
    # into one CRLF, so such a CR is written as a CRLF)
    cycle = ["\r\n", "\r", "\n"]
    ends = [cycle[i % 3] for i in range(len(lines))]
    ends = [
        "\r\n" if end == "\r" and i + 1 < len(lines) and not lines[i + 1] else end
        for i, end in enumerate(ends)
    ]
    mixed = "".join(line + end for line, end in zip(lines, ends, strict=True))
    assert {"\r\n", "\r", "\n"} <= set(ends)
    for text in ("\r\n".join(lines), "\r".join(lines), mixed, "\ufeff" + "\r\n".join(lines)):
        assert comprules.parse(text) == reference
    # A "\r\r\n" run (the 2026 edition has 12, between sections) is a CR then a CRLF: two line
    # breaks, as str.splitlines() and editors count it, so it stands for "\n\n" (one blank line)
    # and line numbers do not move.
    runs = "\r".join(lines).replace("\r\r", "\r\r\n")
    assert runs.count("\r\r\n") > 10
    assert comprules.parse(runs) == reference
    assert len("a\r\r\nb".splitlines()) == 3
    # separators an editor shows inside a line do not split it
    formfeed = comprules.parse("\n".join(lines).replace("Numbers in rules", "Numbers\x0cin rules"))
    assert rules_of(formfeed)["101.1a"].text.startswith("Numbers\x0cin rules")
    assert [r.line for r in formfeed.rules] == [r.line for r in reference.rules]


# --- bad input -----------------------------------------------------------------------------------


def line_of(text: str, start: str, nth: int = 1) -> int:
    """The 1-based number of the nth line of an LF text starting with ``start``."""
    found = [i for i, line in enumerate(text.split("\n"), 1) if line.startswith(start)]
    return found[nth - 1]


def last_line(text: str) -> int:
    return max(i for i, line in enumerate(text.split("\n"), 1) if line.strip())


def _truncate(text: str, heading: str) -> str:
    return text[: text.index("\n" + heading + "\n", text.index("\n1. Game Concepts\n\n100."))]


def _bad_cases():
    s = sample_text()
    body_rule = "100.2. Each player starts with 20 life."
    cases = {
        "empty": ("", 1),
        "no date": (s.replace("These rules are effective", "These rules were effective"), 1),
        "impossible date": (
            s.replace("March 3, 2024", "February 30, 2024", 1),
            line_of(s, "These rules are effective"),
        ),
        "no part heading before the first rule": (
            s.replace("\n1. Game Concepts\n\n100. General", "\nGame Concepts\n\n100. General"),
            None,  # the chapter 100 heading of the body, without its part
        ),
        "subrule without its rule": (
            # 100.4b under 100.1a would be read as 100.1b (a typo'd rule, with a warning).
            s.replace("100.1b A game", "100.4c A game"),
            line_of(s, "100.1b"),
        ),
        "duplicate number": (s.replace("100.3 A player", "100.2. A player"), line_of(s, "100.3")),
        "out of order": (s.replace("100.3 A player", "100.0. A player"), line_of(s, "100.3")),
        "letter l": (s.replace("101.1m This", "101.1l This"), line_of(s, "101.1m")),
        "not a rule number": (s.replace("100.3 A player", "1000.3 A player"), line_of(s, "100.3")),
        "empty rule": (s.replace(body_rule, "100.2."), line_of(s, "100.2.")),
        "no glossary": (_truncate(s, "Glossary"), last_line(_truncate(s, "Glossary"))),
        "no credits": (_truncate(s, "Credits"), last_line(_truncate(s, "Credits"))),
        "empty glossary": (
            s[: s.index("Count Up\nA keyword")] + s[s.index("Credits\n\nSample") :],
            line_of(s, "Glossary", 2),
        ),
        "term without definition": (
            s.replace("Duel\nA game with two players. See rule 100.1a.\n", "Duel\n"),
            line_of(s, "Duel"),
        ),
        "sense skipped": (s.replace("2. To cancel", "3. To cancel"), line_of(s, "2. To cancel")),
        "repeated term": (s.replace("Shuffle\n", "Duel\n"), line_of(s, "Shuffle")),
        "NUL byte": (s.replace("101.1i Fractions", "101.1i Frac\x00tions"), line_of(s, "101.1i")),
        "binary junk": (
            bytes(random.Random(7).randrange(256) for _ in range(4000)).decode("latin-1"),
            None,
        ),
    }
    return cases


BAD = _bad_cases()


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_names_the_line(case):
    text, line = BAD[case]
    with pytest.raises(ParseError) as caught:
        comprules.parse(text, "bad.txt")
    assert caught.value.path == "bad.txt"
    if line is not None:
        assert caught.value.line == line, caught.value
    assert str(caught.value).startswith(f"bad.txt:{caught.value.line}: ")


def test_huge_lines_are_linear():
    ten_mb = 10_000_000
    junk = [
        "1" * ten_mb,
        "1." * (ten_mb // 2),
        "These rules are effective as of " + "x" * ten_mb,
        sample_text().replace("100.3 A player", "100.3 " + "a " * (ten_mb // 2)),
        sample_text().replace("Duel\n", "Duel" + "e" * ten_mb + "\n"),
    ]
    started = time.perf_counter()
    for text in junk:
        try:
            comprules.parse(text)
        except ParseError as exc:
            assert len(str(exc)) < 300
        comprules.looks_like(text)
    assert time.perf_counter() - started < 10


_fuzz = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_fuzz
@given(st.binary(max_size=3000))
def test_random_bytes_raise_only_parse_errors(data):
    for text in (data.decode("utf-8", "replace"), data.decode("latin-1")):
        comprules.looks_like(text)
        with pytest.raises(ParseError):
            comprules.parse(text)


@_fuzz
@given(st.lists(st.tuples(st.integers(0, 200), st.sampled_from("dcsx"), st.text(max_size=12))))
def test_mutated_sample_raises_only_parse_errors(edits):
    lines = sample_text().split("\n")
    for position, action, piece in edits:
        i = position % len(lines)
        if action == "d":
            del lines[i]
        elif action == "c":
            lines.insert(i, lines[i])
        elif action == "s":
            lines[i], lines[-1 - i] = lines[-1 - i], lines[i]
        else:
            lines[i] = lines[i][: len(piece)] + piece
        if not lines:
            lines = [""]
    try:
        doc = comprules.parse("\n".join(lines))
    except ParseError:
        return
    numbers = {rule.number for rule in doc.rules}
    assert all(rule.parent is None or rule.parent in numbers for rule in doc.rules)

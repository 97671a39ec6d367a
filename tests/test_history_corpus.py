"""The whole real history (../shared/corpus-full): every era and format variant of the CR text.

The expected counts were established without kb, by shell one-liners over each file (F its
path, ENC its encoding: cp1252, utf-8 or utf-16, which iconv tells from the BOM):

    t() { iconv -f ENC -t utf-8 F | sed 's/^\\xef\\xbb\\xbf//; s/\\r$//' | tr '\\r' '\\n'; }
    body() { t | head -n "$(t | grep -n '^Glossary$' | tail -1 | cut -d: -f1)"; }
    rules:     body | grep -cE '^ ?[0-9]{3}\\.[0-9]+\\.? ?[^0-9a-z .]'
    subrules:  body | grep -cE '^ ?[0-9]{3}\\.[0-9]+[a-z]\\.? '
    examples:  body | grep -cE '^ *Example:'
    glossary:  t | awk '/^Glossary$/{g++; next} /^Credits$/{c++} g==2 && c<2' \\
                 | awk 'BEGIN{RS=""} /^[^ \\t]/{n++} END{print n}'
    date:      t | grep -m1 -oE 'rules are (effective|current) as of .*'

(the rules pattern also counts ``606.5 If …`` without its period and ``901.4.All``; the glossary
one skips indented paragraphs, which continue the entry above). Where kb's count differs from
the one-liner's, the comment beside it says which official slip kb repaired.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kb.corpus import decode_file, parse_text
from kb.errors import ParseError


def _cr(corpus_full: Path, stamp: str) -> Path:
    return corpus_full / "cr" / "en" / f"MagicCompRules_{stamp}.txt"


# stamp: (encoding, effective date, rules, subrules, examples, glossary entries)
EDITIONS = {
    # Windows-1252, "current as of", and the 2005-era "606. 8b" (606.8b with a space, which
    # made chapter 606 appear twice): the one-liner sees 503 subrules, kb reads 606.8b too.
    "20051001": ("cp1252", "2005-10-01", 396, 504, 142, 342),
    # UTF-8 without BOM, indented rule lines (" 611.2."), a second 702.30d (kept as 702.30e).
    "20090904": ("utf-8", "2009-09-04", 684, 864, 189, 419),
    # Windows-1252, "effective as of", no defect.
    "20100201": ("cp1252", "2010-02-01", 718, 919, 200, 425),
    # The typo "505.54." for 505.5 (kept as 505.5).
    "20100618": ("utf-8", "2010-06-18", 766, 963, 201, 441),
    # UTF-16 big-endian; the file dated 2013-04-29 is effective May 1, 2013.
    "20130429": ("utf-16-be", "2013-05-01", 841, 1089, 223, 476),
    # UTF-16 little-endian.
    "20160826": ("utf-16-le", "2016-08-26", 904, 1228, 238, 519),
    # UTF-8 with BOM, "901.4.All" with no space after the number.
    "20231117": ("utf-8-sig", "2023-11-17", 1100, 1799, 276, 668),
}

# Every defect of these files, read by eye: kb must report these and nothing else.
WARNINGS = {
    "20051001": [(2146, "space_in_number", "'606. 8b' read as 606.8b: a space inside the number")],
    "20090904": [
        (
            2611,
            "number_out_of_sequence",
            "702.30d kept as 702.30e: number out of sequence (702.30d before it)",
        )
    ],
    "20100201": [],
    "20100618": [
        (
            1545,
            "number_out_of_sequence",
            "505.54. kept as 505.5: number out of sequence (505.4 before it, 505.5a after it)",
        )
    ],
    "20130429": [],
    "20160826": [],
    "20231117": [
        (
            6307,
            "no_space_after_number",
            "'901.4.All plane and phe…' read as rule 901.4 followed by its text: no space after "
            "the number",
        )
    ],
    # 2003: lines wrapped by hand ("See rule" / "419.8 …"), the glossary's indented table of sets.
    "20030315": [],
    # Chapter 510's rules printed as 501.2-501.6 after 510.1; "606. 8b" again.
    "20060501": [
        *(
            (
                line,
                "number_out_of_sequence",
                f"501.{n}. kept as 510.{n}: number out of sequence (510.{n - 1} before it)",
            )
            for line, n in ((2026, 2), (2028, 3), (2030, 4), (2033, 5), (2035, 6))
        ),
        (2225, "space_in_number", "'606. 8b' read as 606.8b: a space inside the number"),
    ],
    # "306.b" (the rule missing) then "306.1c" for 306.3c.
    "20081001": [
        (
            837,
            "rule_missing_from_number",
            "'306.b' kept as 306.3b: the rule is missing from the number",
        ),
        (
            839,
            "number_out_of_sequence",
            "306.1c kept as 306.3c: number out of sequence (306.3b before it)",
        ),
    ],
}


@pytest.mark.parametrize("stamp", sorted(EDITIONS))
def test_counts_of_each_era_match_the_one_liners(corpus_full, stamp):
    encoding, effective, rules, subrules, examples, glossary = EDITIONS[stamp]
    text, found = decode_file(_cr(corpus_full, stamp))
    document = parse_text(text, stamp)
    assert found == encoding
    assert document.effective_date == dt.date.fromisoformat(effective)
    kinds = [r.kind for r in document.rules]
    assert (kinds.count("rule"), kinds.count("subrule")) == (rules, subrules)
    assert sum(len(r.examples) for r in document.rules) == examples
    assert len(document.glossary) == glossary


@pytest.mark.parametrize("stamp", sorted(WARNINGS))
def test_warnings_are_exactly_the_real_defects(corpus_full, stamp):
    text, _ = decode_file(_cr(corpus_full, stamp))
    document = parse_text(text, stamp)
    assert [(w.line, w.kind, w.message) for w in document.warnings] == WARNINGS[stamp]


def test_repaired_numbers_hold_their_text(corpus_full):
    text, _ = decode_file(_cr(corpus_full, "20100618"))
    rules = {r.number: r for r in parse_text(text, "x").rules}
    assert "505.54" not in rules
    assert rules["505.5"].text.startswith("Third, the active player gets priority")
    assert rules["505.5a"].parent == "505.5"
    text, _ = decode_file(_cr(corpus_full, "20231117"))
    rules = {r.number: r for r in parse_text(text, "x").rules}
    assert rules["901.4"].text.startswith("All plane and phenomenon cards")
    assert "901.4" not in rules["901.3"].text


def test_2003_wrapped_lines_and_glossary_table(corpus_full):
    text, encoding = decode_file(_cr(corpus_full, "20030315"))
    document = parse_text(text, "x")
    assert (encoding, document.effective_date) == ("utf-8", dt.date(2003, 3, 15))
    rules = {r.number: r for r in document.rules}
    # "See rule" at a line's end, "419.8 …" on the next: one sentence, not a rule 419.8 in 200.
    assert "419.8" not in {n for n in rules if n.startswith("2")}
    symbol = next(g for g in document.glossary if g.term == "Expansion Symbol")
    assert "Arabian Nights" in symbol.definition and "Unglued" in symbol.definition
    assert not {"Expansions and Editions", "Promotional Cards"} & {
        g.term for g in document.glossary
    }


def test_the_truncated_edition_stays_refused(corpus_full):
    path = _cr(corpus_full, "20130201")
    text, _ = decode_file(path)
    with pytest.raises(ParseError) as caught:
        parse_text(text, str(path))
    assert caught.value.line == 4609
    assert "the glossary has no Credits after it: truncated?" in caught.value.reason


def test_ingest_stores_encodings_and_warnings_and_refuses_the_truncated(corpus_full, settings):
    from click.testing import CliRunner
    from sqlalchemy import select

    from kb.cli import main
    from kb.ingest import ingest_paths
    from kb.models import Document, IngestWarning
    from kb.pipeline import open_db

    paths = [_cr(corpus_full, s) for s in ("20100618", "20130201", "20160826")]
    db = open_db(settings)
    try:
        report = ingest_paths(db, paths)
        assert [Path(p).name for p in report.loaded] == [
            "MagicCompRules_20100618.txt",
            "MagicCompRules_20160826.txt",
        ]
        assert [(Path(f.path).name, f.line) for f in report.failed] == [
            ("MagicCompRules_20130201.txt", 4609)
        ]
        assert [(w.line, w.kind) for w in report.warnings] == [(1545, "number_out_of_sequence")]
        with db.session() as session:
            encodings = dict(session.execute(select(Document.path, Document.encoding)).all())
            stored = session.execute(
                select(Document.path, IngestWarning.line, IngestWarning.message).join(Document)
            ).all()
    finally:
        db.dispose()
    assert {Path(p).name: e for p, e in encodings.items() if e} == {
        "MagicCompRules_20100618.txt": "utf-8",
        "MagicCompRules_20160826.txt": "utf-16-le",
    }
    assert [(Path(p).name, line) for p, line, _ in stored] == [
        ("MagicCompRules_20100618.txt", 1545)
    ]
    assert "kept as 505.5" in stored[0][2]
    result = CliRunner().invoke(main, ["--home", str(settings.home), "check", "--json"])
    import json

    listed = json.loads(result.output)["warnings"]
    assert [(Path(w["path"]).name, w["line"], w["kind"]) for w in listed] == [
        ("MagicCompRules_20100618.txt", 1545, "number_out_of_sequence")
    ]


def test_history_names_the_edition_in_between_once_it_is_loaded(corpus_full, settings):
    from kb.ingest import ingest_paths
    from kb.pipeline import open_db
    from kb.versions import trace

    db = open_db(settings)
    try:
        ingest_paths(db, [_cr(corpus_full, "20090904"), _cr(corpus_full, "20100618")])
        with db.session() as session:
            gap = trace(session, "903.1")["history"][0]  # the EDH variant, new in 2010-02-01
        ingest_paths(db, [_cr(corpus_full, "20100201")])
        with db.session() as session:
            history = trace(session, "903.1")["history"]
    finally:
        db.dispose()
    assert (gap["edition"], gap["status"]) == ("2010-06-18", "added")
    assert gap["note"] == "first seen in 2010-06-18 (previous loaded edition: 2009-09-04)"
    assert [(h["edition"], h["status"]) for h in history] == [
        ("2010-02-01", "added"),
        ("2010-06-18", "same"),
    ]
    assert history[0]["note"] == "first seen in 2010-02-01 (previous loaded edition: 2009-09-04)"


def test_lines_wrapped_by_hand_are_joined(corpus_full):
    # 2003-10-01 (Windows-1252) wraps "…in conjunction with the word "spell," / means a spell…"
    # and "See rule / 419.8 "Sources of Damage."" across lines.
    text, encoding = decode_file(_cr(corpus_full, "20031001"))
    rules = {r.number: r for r in parse_text(text, "x").rules}
    assert encoding == "cp1252"
    assert rules["200.9b"].text.endswith(
        'the word "spell," it means a spell of that type on the stack.'
    )
    assert rules["200.9c"].text.endswith('See rule 419.8 "Sources of Damage."')
    assert "\n" not in rules["200.9c"].text

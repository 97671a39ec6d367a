"""Edition diffs, rule history and word diffs on the three real editions."""

from __future__ import annotations

import difflib
import json
import re

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from kb.cli import main
from kb.lookup import rule_view
from kb.versions import diff_editions, today, trace, word_ops

_NUMBERED = re.compile(r"^(?P<number>\d{3}\.\d+[a-z]?)\.? (?P<text>.*)$")


def independent_changes(old_path, new_path) -> dict:
    """The rule changes between two CR files, worked out from a plain line diff of the files.

    Numbered lines that differ are taken from difflib; an ``Example:`` line counts for the
    numbered line above it. A deleted and an inserted line with the same text under different
    numbers is a renumbering; the same number on both sides with different text, an edit.
    """
    a = old_path.read_text(encoding="utf-8-sig").splitlines()
    b = new_path.read_text(encoding="utf-8-sig").splitlines()

    def owner(lines: list[str], index: int) -> str | None:
        for line in reversed(lines[: index + 1]):
            match = _NUMBERED.match(line)
            if match:
                return match["number"]
            if line and not line.startswith("Example:"):
                return None
        return None

    deleted: dict[str, str] = {}
    inserted: dict[str, str] = {}
    edited: set[str] = set()
    glossary = {"deleted": [], "inserted": []}
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for side, lines, lo, hi, bucket in (
            ("deleted", a, i1, i2, deleted),
            ("inserted", b, j1, j2, inserted),
        ):
            for k in range(lo, hi):
                line = lines[k]
                match = _NUMBERED.match(line)
                if match:
                    bucket[match["number"]] = match["text"]
                elif line.startswith("Example:"):
                    edited.add(owner(lines, k))
                elif line and not line.startswith("These rules are effective"):
                    glossary[side].append(line)
    renumbered = {
        (o, n) for o, t in deleted.items() for n, u in inserted.items() if t == u and o != n
    }
    moved_old = {o for o, _ in renumbered}
    moved_new = {n for _, n in renumbered}
    edited |= {n for n in deleted if n in inserted and n not in moved_old and n not in moved_new}
    removed = set(deleted) - moved_old - edited
    added = set(inserted) - moved_new - edited
    return {
        "added": added,
        "removed": removed,
        "changed": edited,
        "renumbered": renumbered,
        "glossary": glossary,
        "numbers_added": set(inserted) - set(deleted),
        "numbers_removed": set(deleted) - set(inserted),
    }


def test_diff_2025_2026_is_exactly_the_real_change_set(full_db, cr_path) -> None:
    expected = independent_changes(cr_path("2025-11-14"), cr_path("2026-01-16"))
    # what the line diff says, written out (FORMATS.md lists it by number)
    assert expected["numbers_added"] == {
        "610.5",
        "701.68",
        "701.68a",
        "701.68b",
        "701.68c",
        "701.68d",
    }
    assert expected["numbers_removed"] == {"702.124p"}
    assert expected["renumbered"] == {
        ("702.124m", "702.124k"),
        ("702.124n", "702.124m"),
        ("702.124p", "702.124n"),
    }
    assert expected["removed"] == {"702.124k"}  # "Friends forever"
    assert expected["changed"] == {"115.7e", "205.3m", "207.2c", "601.2a", "702.124a", "702.124i"}
    assert "Blight" in expected["glossary"]["inserted"]
    assert "Friends Forever" in expected["glossary"]["deleted"]

    with full_db.session() as s:
        diff = diff_editions(s, "2025-11-14", "2026-01-16")
    assert {r["number"] for r in diff["added"]} == expected["added"]
    assert {r["number"] for r in diff["removed"]} == expected["removed"]
    assert {(r["old_number"], r["new_number"]) for r in diff["renumbered"]} == expected[
        "renumbered"
    ]
    assert not any(r["changed"] for r in diff["renumbered"])
    assert {c["new_number"] for c in diff["changed"]} == expected["changed"]
    assert all(c["old_number"] == c["new_number"] for c in diff["changed"])
    assert not any(c["reference_only"] for c in diff["changed"])
    assert set(diff["numbers"]["added"]) == expected["numbers_added"]
    assert set(diff["numbers"]["removed"]) == expected["numbers_removed"]
    assert diff["glossary"] == {"added": ["Blight"], "removed": ["Friends Forever"], "changed": []}
    vivid = next(c for c in diff["changed"] if c["new_number"] == "207.2c")
    assert [op for op in vivid["ops"] if op[0] != "equal"] == [["insert", "vivid, "]]


def test_diff_2021_2026_detects_renumbered_keyword_actions(full_db) -> None:
    with full_db.session() as s:
        diff = diff_editions(s, "2021-02-05", "2026-01-16")
    moved = {(r["old_number"], r["new_number"]): r["title"] for r in diff["renumbered"]}
    assert moved[("701.32", "701.38")] == "Vote"
    assert moved[("701.38", "701.15")] == "Goad"
    assert moved[("702.88", "702.89")] == "Umbra Armor"  # renamed from Totem Armor too
    assert ("701.32a", "701.38a") in moved
    actions = [(o, n, t) for (o, n), t in moved.items() if re.fullmatch(r"701\.\d+", n)]
    assert len(actions) >= 40
    assert "The Ring Tempts You" in {r["title"] for r in diff["added"]}
    # no keyword action was taken for another: every renumbered one kept its title
    with full_db.session() as s:
        titles_2021 = {
            r["number"]: r["english"]["title"]
            for r in rule_view(s, "701", "en", "2021-02-05")["rules"]
        }
    assert all(titles_2021[o] in (t, "Tribal") for o, _, t in actions)


def test_reference_only_changes_are_reported_as_such(full_db) -> None:
    with full_db.session() as s:
        diff = diff_editions(s, "2021-02-05", "2026-01-16")
    by_number = {c["new_number"]: c for c in diff["changed"]}
    restart = by_number["104.6"]  # cites rule 719 (2021) = 726 (2026): Restarting the Game
    assert restart["reference_only"]
    assert [op for op in restart["ops"] if op[0] != "equal"] == [
        ["delete", "719"],
        ["insert", "726"],
    ]
    assert by_number["120.6"]["reference_only"]  # Regenerate: 701.15 -> 701.19
    real_edits = [c for c in diff["changed"] if not c["reference_only"]]
    assert by_number["701.15b"] in real_edits  # goaded became a designation
    assert diff["summary"]["reference_only"] == sum(c["reference_only"] for c in diff["changed"])
    assert 50 <= diff["summary"]["reference_only"] < diff["summary"]["changed"]


def test_trace_follows_a_rule_across_renumbering(full_db) -> None:
    with full_db.session() as s:
        ring = trace(s, "701.54")
        vote = trace(s, "701.32", "2021-02-05")
        friends = today(s, "702.124k", "2025-11-14")
        moved = today(s, "702.124p", "2025-11-14")
    assert [(h["edition"], h["number"], h["status"]) for h in ring["history"]] == [
        ("2025-11-14", "701.54", "added"),
        ("2026-01-16", "701.54", "same"),
    ]
    # Only three editions are loaded: the history says when it was first seen, not "added".
    assert [h["note"] for h in ring["history"]] == [
        "first seen in 2025-11-14 (previous loaded edition: 2021-02-05)",
        "same text as in 2025-11-14",
    ]
    assert ring["history"][0]["title"] == "The Ring Tempts You"
    assert [sub["number"] for sub in ring["history"][0]["subrules"]][-1] == "701.54e"
    assert vote["number"] == "701.38" and vote["asked"] == "701.32"
    assert [(h["edition"], h["number"], h["status"]) for h in vote["history"]] == [
        ("2021-02-05", "701.32", "earliest"),
        ("2025-11-14", "701.38", "renumbered"),
        ("2026-01-16", "701.38", "same"),
    ]
    assert friends == {
        "asked": "702.124k",
        "asked_edition": "2025-11-14",
        "last_seen": "2025-11-14",
        "number": None,
        "edition": "2026-01-16",
        "removed_in": "2026-01-16",
    }
    assert moved["number"] == "702.124n"


def test_rule_with_an_old_edition_says_todays_number(full_db) -> None:
    with full_db.session() as s:
        old = rule_view(s, "701.32", "en", "2021-02-05")
        new = rule_view(s, "701.38", "en")
    assert old["rules"][0]["english"]["title"] == "Vote"
    assert old["today"]["number"] == "701.38" and old["today"]["edition"] == "2026-01-16"
    assert new["today"] is None


def test_cli_diff_and_trace(full_settings) -> None:
    runner = CliRunner()
    home = str(full_settings.home)
    result = runner.invoke(main, ["--home", home, "diff", "2025-11-14", "2026-01-16"])
    assert result.exit_code == 0, result.output
    assert "702.124m → 702.124k" in result.output
    assert "{+vivid, +}" in result.output  # piped output marks the words changed
    assert "+ Blight" in result.output and "- Friends Forever" in result.output
    as_json = runner.invoke(main, ["--home", home, "diff", "2021-02-05", "2026-01-16", "--json"])
    assert json.loads(as_json.output)["summary"]["renumbered"] > 900
    short = runner.invoke(main, ["--home", home, "diff", "2021-02-05", "2026-01-16"])
    assert "more (--all or --json)" in short.output
    traced = runner.invoke(main, ["--home", home, "trace", "701.32", "--edition", "2021-02-05"])
    assert traced.exit_code == 0, traced.output
    assert "is rule 701.38 in the 2026-01-16 edition" in traced.output
    rule = runner.invoke(main, ["--home", home, "rule", "701.32", "--edition", "2021-02-05"])
    assert "today: rule 701.38 in the 2026-01-16 edition" in rule.output
    missing = runner.invoke(main, ["--home", home, "trace", "701.54", "--edition", "2021-02-05"])
    assert missing.exit_code == 1 and "not in the 2021-02-05 edition" in missing.output
    unknown = runner.invoke(main, ["--home", home, "diff", "2020-01-01", "2026-01-16"])
    assert unknown.exit_code == 1 and "no edition effective 2020-01-01" in unknown.output


_WORDS = st.lists(st.sampled_from(["rule", "701.54a", "the", "Ring", ",", " ", "tempts", "\n"]))


@given(_WORDS, _WORDS)
def test_word_ops_rebuild_both_texts(a: list[str], b: list[str]) -> None:
    old, new = "".join(a), "".join(b)
    ops = word_ops(old, new)
    assert "".join(t for op, t in ops if op != "insert") == old
    assert "".join(t for op, t in ops if op != "delete") == new
    assert all(op in ("equal", "insert", "delete") for op, _ in ops)


def test_word_ops_of_a_pair_are_computed_once_and_the_lists_are_the_callers() -> None:
    from kb.versions.diff import _cached_ops

    _cached_ops.cache_clear()
    first = word_ops("The Ring tempts you.", "The Ring tempts you again.")
    first[0][1] = "changed by the caller"
    first.append(["equal", "more"])
    again = word_ops("The Ring tempts you.", "The Ring tempts you again.")
    assert _cached_ops.cache_info().hits == 1 and _cached_ops.cache_info().misses == 1
    assert "".join(t for op, t in again if op != "delete") == "The Ring tempts you again."

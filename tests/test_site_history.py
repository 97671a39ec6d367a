"""Rule histories and the citation map, from hand-made edition diffs (no database)."""

from __future__ import annotations

import re
from pathlib import Path

from kb.site.cite import cite_map
from kb.site.history import rule_versions
from kb.versions import word_ops

EDITIONS = ["2021-02-05", "2023-10-13", "2025-11-14", "2026-01-16"]


def _diff(added=(), removed=(), changed=(), renumbered=()):
    return {
        "added": [{"number": n} for n in added],
        "removed": [{"number": n} for n in removed],
        "changed": [{"old_number": o, "new_number": n} for o, n in changed],
        "renumbered": [{"old_number": o, "new_number": n} for o, n in renumbered],
    }


DIFFS = [
    _diff(added=["701.60"]),
    _diff(renumbered=[("701.32", "701.38")], removed=["701.40"]),
    _diff(changed=[("701.38", "701.38")]),
]
TEXTS = [
    {"701.32": "Vote\n(a) Old words.", "701.40": "Gone"},
    {"701.32": "Vote\n(a) Old words.", "701.40": "Gone", "701.60": "New"},
    {"701.38": "Vote\n(a) Old words.", "701.60": "New"},
    {"701.38": "Vote\n(a) New words.", "701.60": "New"},
]


def test_versions_follow_renumbering_and_group_editions_by_text():
    found = rule_versions(DIFFS, EDITIONS, TEXTS, {"701.38", "701.60"}, word_ops)
    current, older = found["701.38"]
    assert (current["start"], current["end"], current["editions"]) == ("2026-01-16",) * 2 + (1,)
    assert current["since"] == "changed" and current["before"] == "2025-11-14"
    assert ["delete", "Old"] in current["ops"] and ["insert", "New"] in current["ops"]
    assert (older["start"], older["end"], older["editions"]) == ("2021-02-05", "2025-11-14", 3)
    assert older["since"] == "earliest" and older["ops"] is None
    assert older["numbers"] == [
        {"number": "701.38", "start": "2025-11-14", "end": "2025-11-14"},
        {"number": "701.32", "start": "2021-02-05", "end": "2023-10-13"},
    ]
    (added,) = found["701.60"]
    assert added["since"] == "added" and added["before"] == "2021-02-05"
    assert added["start"] == "2023-10-13" and added["editions"] == 3


def test_a_rule_that_never_changed_has_no_history_and_missing_diffs_give_none():
    texts = [{"100.1": "Same"} for _ in EDITIONS]
    assert rule_versions([_diff()] * 3, EDITIONS, texts, {"100.1"}, word_ops) == {}
    assert rule_versions(DIFFS[:2], EDITIONS, TEXTS, {"701.38"}, word_ops) == {}


def test_the_cite_map_holds_each_step_and_when_texts_changed():
    versions = rule_versions(DIFFS, EDITIONS, TEXTS, {"701.38", "701.60"}, word_ops)
    found = cite_map(EDITIONS, DIFFS, versions, ["701.38", "701.38a", "701.60"])
    assert found["steps"][1] == {"moved": {"701.32": "701.38"}, "removed": ["701.40"]}
    assert found["since"] == {"701.38": "2026-01-16", "701.60": "2023-10-13"}
    assert found["added"] == {"701.60": "2023-10-13"}
    assert found["today"] == ["701.38", "701.38a", "701.60"]


PAGE_ID = re.compile(r"\d{3}_[0-9a-f]{16}")
HIDDEN = re.compile(r"<(script|style|details)\b.*?</\1>|<[^>]+>", re.S)


def test_no_page_id_is_visible_on_any_page_of_the_seed_site(settings, tmp_path: Path):
    from kb.pipeline import build

    out = tmp_path / "site"
    build(settings, out, search=False)
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 20
    for path in pages:
        text = HIDDEN.sub(" ", path.read_text(encoding="utf-8"))
        match = PAGE_ID.search(text)
        assert match is None, f"{path.relative_to(out)} shows {match.group()}"

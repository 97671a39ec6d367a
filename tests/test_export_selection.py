"""Which rules a sheet holds: numbers, chapters, parts and ranges resolved in a real edition."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from kb.errors import KbError, NotFoundError
from kb.export.selection import expand_item, select_rules, split_items
from kb.lookup import find_edition
from kb.models import Rule


def test_split_items_on_spaces_commas_and_dash_variants():
    assert split_items(["701.54, 702.2", "714", "701.38 – 701.40", "601.2f—h"]) == [
        "701.54",
        "702.2",
        "714",
        "701.38-701.40",
        "601.2f-h",
    ]
    assert split_items(["  701.54.  "]) == ["701.54"]


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("701.54", ["701.54"]),
        ("701.38-701.40", ["701.38", "701.39", "701.40"]),
        ("701.38-40", ["701.38", "701.39", "701.40"]),
        ("601.2f-h", ["601.2f", "601.2g", "601.2h"]),
        ("704.5k-704.5n", ["704.5k", "704.5m", "704.5n"]),
        ("714-716", ["714", "715", "716"]),
    ],
)
def test_expand_item(item, expected):
    assert expand_item(item) == expected


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("ring", "not a rule number"),
        ("701.40-701.38", "not a range of rules"),
        ("601.2h-f", "runs backwards"),
        ("701.38-702.1", "not a range of rules"),
        ("701.38-x1", "not a rule number"),
    ],
)
def test_bad_items_are_refused_with_the_item_named(item, message):
    with pytest.raises(KbError, match=message) as caught:
        expand_item(item)
    assert item.split("-")[0] in str(caught.value)


def test_selection_in_the_real_edition(full_db):
    with full_db.session() as session:
        edition = find_edition(session, "2026-01-16")
        numbers = {
            r.number: r.kind
            for r in session.scalars(select(Rule).where(Rule.edition_id == edition.id))
        }
        picked = select_rules(session, edition, ["714", "701.54", "701.38-40", "704.5k"])
        got = [s.number for s in picked]
        chapter = {n for n in numbers if n == "714" or n.startswith("714.")}
        # the chapter's title and every rule and subrule under it
        assert numbers["714"] == "chapter" and len(chapter) > 10
        assert {n for n in got if n == "714" or n.startswith("714.")} == chapter
        assert [n for n in got if n.startswith("701.54")] == [
            "701.54", "701.54a", "701.54b", "701.54c", "701.54d", "701.54e",
        ]  # fmt: skip
        assert {"701.38", "701.39", "701.40", "701.38a", "704.5k"} <= set(got)
        assert "704.5m" not in got and "704.5" not in got
        assert got.index("701.38") < got.index("701.54") < got.index("704.5k") < got.index("714")
        assert len(got) == len(set(got))
        # a subrule asked for beside its rule is not repeated
        twice = select_rules(session, edition, ["701.54a", "701.54"])
        assert [s.number for s in twice] == [n for n in got if n.startswith("701.54")]


def test_numbers_missing_from_the_edition_are_all_named(full_db):
    with full_db.session() as session:
        edition = find_edition(session, "2026-01-16")
        with pytest.raises(NotFoundError) as caught:
            select_rules(session, edition, ["701.54", "999.1", "701.54z"])
        assert "999.1, 701.54z" in str(caught.value)
        assert "2026-01-16" in str(caught.value)
        old = find_edition(session, "2021-02-05")
        with pytest.raises(NotFoundError, match=r"610\.5"):
            select_rules(session, old, ["610.5"])  # added in 2026
        with pytest.raises(KbError, match="at least one"):
            select_rules(session, edition, [" ", ","])

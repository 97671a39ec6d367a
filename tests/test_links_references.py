"""Explicit rule references in texts of the three languages (kb.links.find_references)."""

from __future__ import annotations

import pytest

from kb.links import Reference, find_references


def refs(text: str, language: str = "en") -> list[tuple[str, tuple[str, ...]]]:
    return [(r.text, r.numbers) for r in find_references(text, language)]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("See rule 701.54, “The Ring Tempts You.”", "en", [("rule 701.54", ("701.54",))]),
        ("(See rule 601.2b.)", "en", [("rule 601.2b", ("601.2b",))]),
        ("the rule 704", "en", [("rule 704", ("704",))]),
        (
            "rules 601.2f–h",
            "en",
            [("rules 601.2f–h", ("601.2f", "601.2g", "601.2h"))],
        ),
        ("rules 601.2f-h", "en", [("rules 601.2f-h", ("601.2f", "601.2g", "601.2h"))]),
        ("See section 9, “Casual Variants.”", "en", [("section 9", ("9",))]),
        ("sections 1–3", "en", [("sections 1–3", ("1", "2", "3"))]),
        (
            "See rules 613.2, 707.2, and 707.3.",
            "en",
            [("rules 613.2", ("613.2",)), ("707.2", ("707.2",)), ("707.3", ("707.3",))],
        ),
        (
            "See rules 903.6–903.11.",
            "en",
            [("rules 903.6–903.11", tuple(f"903.{n}" for n in range(6, 12)))],
        ),
        ("la regla 701.54a, aunque", "es", [("regla 701.54a", ("701.54a",))]),
        (
            "las reglas 103.2a–c y 103.3",
            "es",
            [("reglas 103.2a–c", ("103.2a", "103.2b", "103.2c")), ("103.3", ("103.3",))],
        ),
        ("la règle 701.54a", "fr", [("règle 701.54a", ("701.54a",))]),
        (
            "les règles 601.2f–h et 601.3",
            "fr",
            [("règles 601.2f–h", ("601.2f", "601.2g", "601.2h")), ("601.3", ("601.3",))],
        ),
        ("véase la sección 9", "es", [("sección 9", ("9",))]),
        ("the actions in 701.54a, even", "en", [("701.54a", ("701.54a",))]),
        (
            "(see 601.2b and 601.2f–h).",
            "en",
            [("601.2b", ("601.2b",)), ("601.2f–h", ("601.2f", "601.2g", "601.2h"))],
        ),
        ("See 718, “Prototype Cards.”", "en", [("718", ("718",))]),
    ],
)
def test_references(text: str, language: str, expected: list) -> None:
    assert refs(text, language) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Each deck must contain exactly 100 cards.",
        "repeating that sequence 999,999 more times",
        "Comprehensive Rules 2026",
        "a rule of the game",
        "version 100.5.3 of the app",
        "rule 1",  # a part is a "section", not a "rule"
        "",
    ],
)
def test_not_references(text: str) -> None:
    assert find_references(text, "en") == []


def test_spans_point_into_the_text() -> None:
    text = "A is (see rule 601.2b) and rules 702.19c–e and 702.19g apply."
    found = find_references(text, "en")
    assert [text[r.start : r.end] for r in found] == [r.text for r in found]
    assert found[0] == Reference(10, 21, "rule 601.2b", ("601.2b",))
    assert found[1].numbers == ("702.19c", "702.19d", "702.19e")
    assert found[2].numbers == ("702.19g",)


def test_backwards_range_keeps_its_ends() -> None:
    assert refs("rules 601.2h–f") == [("rules 601.2h–f", ("601.2h", "601.2f"))]


def test_every_reference_of_a_real_edition_is_found(full_db) -> None:
    """Every number-shaped string in the 2026 rules and glossary is inside a found reference."""
    import re

    from sqlalchemy import select

    from kb.models import Edition, GlossaryEntry, Rule, RuleText

    with full_db.session() as s:
        edition = s.scalar(select(Edition).where(Edition.key == "en:2026-01-16"))
        bodies = s.scalars(
            select(RuleText.body).join(Rule).where(Rule.edition_id == edition.id)
        ).all()
        bodies += s.scalars(
            select(GlossaryEntry.definition).where(GlossaryEntry.edition_id == edition.id)
        ).all()
    total = 0
    for body in bodies:
        found = find_references(body, "en")
        total += len(found)
        for m in re.finditer(r"(?<![\d.])\d{3}\.\d+[a-z]?", body):
            assert any(r.start <= m.start() < r.end for r in found), body
    assert total > 1400  # FORMATS.md: about 1,500 cross references per edition

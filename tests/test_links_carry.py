"""Term spans carried across editions give exactly the matches a fresh match would."""

from __future__ import annotations

from dataclasses import dataclass

from kb.links.carry import CarriedMatches
from kb.links.terms import GlossaryItem, RuleEntry, english_vocabulary


@dataclass(frozen=True)
class _Text:
    language: str
    text: str
    mask: tuple[str, ...] = ()


TEXTS = [
    _Text("en", "Each player votes for one choice. The Ring tempts you."),
    _Text("en", "Put a lore counter on each Saga you control."),
    _Text("en", "If you goad a creature, it attacks each combat if able."),
    _Text("en", "Blizzard Brawl fights nothing here; plot it later.", ("Blizzard Brawl",)),
    _Text("en", "Nothing in this text names a rule."),
]

# Three editions: the same rules renumbered (Vote 701.32 -> 701.38), then a term added (Plot).
EDITIONS = [
    ([RuleEntry("701.32", "rule", "Vote", ""), RuleEntry("714", "chapter", "Saga Cards", "")], []),
    ([RuleEntry("701.38", "rule", "Vote", ""), RuleEntry("714", "chapter", "Saga Cards", "")], []),
    (
        [
            RuleEntry("701.15", "rule", "Goad", ""),
            RuleEntry("701.38", "rule", "Vote", ""),
            RuleEntry("701.54", "rule", "The Ring Tempts You", ""),
            RuleEntry("702.170", "rule", "Plot", ""),
            RuleEntry("714", "chapter", "Saga Cards", ""),
        ],
        [GlossaryItem("Goad", "A keyword action. See rule 701.15, “Goad.”")],
    ),
]


def _plain(matches: list) -> list[tuple]:
    return [(m.start, m.end, m.matched, m.term.words, m.term.targets) for m in matches]


def test_carried_matches_equal_fresh_matches_edition_after_edition() -> None:
    carried = CarriedMatches(TEXTS)
    for rules, glossary in EDITIONS:
        vocabulary = english_vocabulary(rules, glossary)
        got = {i: _plain(m) for i, m in carried.matches({"en": vocabulary})}
        fresh = {i: _plain(vocabulary.match(t.text, mask=t.mask)) for i, t in enumerate(TEXTS)}
        assert got == fresh
    # The renumbering changed no term's words: the second edition matched no text again; the
    # third added terms whose words three of the texts hold.
    assert carried.rematched == len(TEXTS) + 3
    assert any(targets == ("701.38",) for *_, targets in got[0])

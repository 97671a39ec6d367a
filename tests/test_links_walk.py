"""Walking the editions gives exactly the rows that matching every text in each one gives."""

from __future__ import annotations

import datetime as dt
import io
import pickle
import zlib
from dataclasses import dataclass, replace

import pytest

from kb.links.build import _Rows
from kb.links.implied import implied_matches
from kb.links.lineage_rows import LineageLinks
from kb.links.term_vocabulary import GlossaryItem, RuleEntry, english_vocabulary
from kb.links.text_sources import _TermSource
from kb.links.walk import TermWalk
from kb.links.walk_state import _PlainValues, inputs_digest


@dataclass(frozen=True)
class _Edition:
    id: int
    effective_date: dt.date


SOURCES = [
    _TermSource(
        "clarification_text",
        1,
        1,
        "en",
        "If it would die, exile it instead. Each player votes.",
        (),
    ),
    _TermSource(
        "clarification_text", 2, 2, "en", "See rule 701.32. Put a lore counter on a Saga.", ()
    ),
    _TermSource(
        "card_text", 3, 7, "en", "Will of the council — each player votes. Plot {2}{R}", ()
    ),
    _TermSource("card_text", 4, 8, "en", "Chapter abilities of a Saga trigger.", ("Saga Scribe",)),
    _TermSource("clarification_text", 5, 3, "en", "Nothing here names a rule at all.", ()),
    _TermSource("clarification_text", 6, 4, "en", "You don't need to find a basic land card.", ()),
]

_REPLACEMENT = GlossaryItem("Replacement Effect", "An effect that replaces an event. See rule 614.")


def _edition(
    rules: list[tuple[str, str, str, int | None]],
    replacement: GlossaryItem = _REPLACEMENT,
    search: str = "",
) -> tuple:
    entries = [RuleEntry(number, kind, title, "") for number, kind, title, _ in rules]
    lineages = {number: lineage for number, _, _, lineage in rules if lineage is not None}
    numbers = {number: 100 + i for i, (number, *_) in enumerate(rules)}
    glossary = [replacement]
    if search:  # a rule kb.links.described names by concept
        glossary.append(GlossaryItem("Search", f"To look for a card. See rule {search}."))
    return english_vocabulary(entries, glossary), numbers, lineages


_ELSEWHERE = GlossaryItem("Replacement Effect", "An effect that replaces an event. See rule 616.")

# Six editions: one repeated, then the same numbers with Saga Cards in another lineage, Vote
# renumbered (701.32 becomes Goad), Plot without a lineage, Saga Cards gone for one edition and
# back again, the replacement effects' rule moved to one no edition has, then back, and the
# rule of searching renumbered.
EDITIONS = [
    _edition(
        [
            ("614", "rule", "Replacement Effects", 3),
            ("701.32", "rule", "Vote", 1),
            ("714", "chapter", "Saga Cards", 2),
        ]
    ),
    _edition(
        [
            ("614", "rule", "Replacement Effects", 3),
            ("701.32", "rule", "Vote", 1),
            ("714", "chapter", "Saga Cards", 2),
        ]
    ),
    _edition(
        [
            ("614", "rule", "Replacement Effects", 3),
            ("701.32", "rule", "Vote", 1),
            ("714", "chapter", "Saga Cards", 6),
        ]
    ),
    _edition(
        [
            ("614", "rule", "Replacement Effects", 3),
            ("701.32", "rule", "Goad", 4),
            ("701.38", "rule", "Vote", 1),
            ("714", "chapter", "Saga Cards", 2),
        ]
    ),
    _edition(
        [
            ("614", "rule", "Replacement Effects", 3),
            ("701.32", "rule", "Goad", 4),
            ("701.38", "rule", "Vote", 1),
            ("702.170", "rule", "Plot", None),
        ]
    ),
    _edition(
        [
            ("614", "rule", "Replacement Effects", 3),
            ("701.32", "rule", "Goad", 4),
            ("701.38", "rule", "Vote", 1),
            ("702.170", "rule", "Plot", None),
            ("714", "chapter", "Saga Cards", 2),
        ]
    ),
    _edition(
        [
            ("614", "rule", "Replacement Effects", 3),
            ("701.32", "rule", "Goad", 4),
            ("701.38", "rule", "Vote", 1),
            ("702.170", "rule", "Plot", None),
            ("714", "chapter", "Saga Cards", 2),
        ],
        _ELSEWHERE,
    ),
    *(  # then only the rule of "search" (701.23b: failing to find) renumbered
        _edition(
            [
                ("614", "rule", "Replacement Effects", 3),
                (number, "rule", "Search", 7),
                ("701.38", "rule", "Vote", 1),
                ("714", "chapter", "Saga Cards", 2),
            ],
            search=number,
        )
        for number in ("701.19", "701.19", "701.23")
    ),
]
STUBS = [_Edition(i + 1, dt.date(2020 + i, 1, 1)) for i in range(len(EDITIONS))]


def _match_cold(vocabulary, rows, sources) -> None:
    """Every text matched from scratch against one edition's vocabulary, as without a walk."""
    for source in sources:
        matches = vocabulary.match(source.text, mask=source.mask)
        if source.source_type == "clarification_text":
            rows.explicit(source.source_type, source.source_id, "en", source.text)
            matches += implied_matches(vocabulary, source.text, matches, source.context)
        rows.terms(source, matches)


def _every_text_matched(places: list[int]) -> tuple[list[list[dict]], list[dict]]:
    """What matching each text afresh in each edition gives (as kb.links.build once did)."""
    shared = LineageLinks(STUBS)
    own = []
    for place in places:
        vocabulary, numbers, lineages = EDITIONS[place]
        rows = _Rows(STUBS[place], numbers, lineages, shared, place)
        _match_cold(vocabulary, rows, SOURCES)
        own.append(rows.rows)
    return own, shared.rows()


def _walked(places: list[int]) -> tuple[list[list[dict]], list[dict], TermWalk]:
    shared = LineageLinks(STUBS)
    walk = TermWalk(SOURCES)
    own = []
    for place in places:
        vocabulary, numbers, lineages = EDITIONS[place]
        rows = _Rows(STUBS[place], numbers, lineages, shared, place)
        walk.step({"en": vocabulary}, rows)
        own.append(rows.rows)
    walk.finish()
    return own, shared.rows(), walk


def test_walking_the_editions_gives_the_rows_of_matching_every_text_in_each() -> None:
    every = list(range(len(EDITIONS)))
    own, lineage_rows, walk = _walked(every)
    assert (own, lineage_rows) == _every_text_matched(every)
    # The repeated edition looked at no text; the others only at the texts they concern.
    assert walk.looked_at < 5 * len(SOURCES)
    runs = {(r["matched"], r["first_date"].year, r["last_date"].year) for r in lineage_rows}
    assert ("votes", 2020, 2029) in runs  # one row across the renumbering
    assert {("Saga", 2020, 2021), ("Saga", 2022, 2022), ("Saga", 2023, 2023)} <= runs
    assert ("Saga", 2025, 2029) in runs  # Saga Cards gone in 2024
    assert ("If it would", 2020, 2025) in runs
    assert any(r["target"] == "702.170" for rows in own[4:] for r in rows)  # no lineage: its own
    assert any(r["target"] == "616" for r in own[6])  # the implied rule moved
    assert ("don't need to find", 2027, 2029, "701.23") in {
        (r["matched"], r["first_date"].year, r["last_date"].year, r["target"]) for r in lineage_rows
    }
    assert any(r["kind"] == "explicit" for r in own[0])


def test_editions_walked_with_gaps_start_their_texts_afresh() -> None:
    own, lineage_rows, _ = _walked([0, 3, 5])
    assert (own, lineage_rows) == _every_text_matched([0, 3, 5])


def _round_trip(state: dict) -> dict:
    """A state as the database keeps it: pickled, compressed, read by the plain-values reader."""
    data = zlib.compress(pickle.dumps(state, protocol=5), 1)
    return _PlainValues(io.BytesIO(zlib.decompress(data))).load()


@pytest.mark.parametrize("kept", range(len(EDITIONS)))
def test_a_walk_taking_up_a_kept_state_gives_the_rows_of_matching_every_text(kept: int) -> None:
    """From the state after any edition, walking on from any other (as adding one does) gives
    the rows of a walk that matched every text there, and looks again at few texts."""
    _, _, walked = _walked(list(range(kept + 1)))
    state = _round_trip(walked.state())
    for start in range(len(EDITIONS)):
        places = list(range(start, len(EDITIONS)))
        shared = LineageLinks(STUBS)
        walk = TermWalk(SOURCES)
        walk.restore(state)
        own = []
        for place in places:
            vocabulary, numbers, lineages = EDITIONS[place]
            rows = _Rows(STUBS[place], numbers, lineages, shared, place)
            linked = walk.step({"en": vocabulary}, rows)
            if place == start:  # every text that matches counts, looked at again or not
                fresh = TermWalk(SOURCES).step(
                    {"en": vocabulary},
                    _Rows(STUBS[place], numbers, lineages, LineageLinks(STUBS), place),
                )
                assert linked == fresh
                if start == kept:  # the same vocabulary: no text is matched again
                    assert walk.carried.rematched == 0
            own.append(rows.rows)
        walk.finish()
        assert (own, shared.rows()) == _every_text_matched(places), (kept, start)


def test_the_kept_state_is_read_without_running_code() -> None:
    """A stored state that names a class (what a tampered row would) is refused, not run."""
    data = pickle.dumps({"outputs": [_Edition(1, dt.date(2020, 1, 1))]}, protocol=5)
    with pytest.raises(pickle.UnpicklingError, match="_Edition"):
        _PlainValues(io.BytesIO(data)).load()
    _, _, walked = _walked([0, 1])
    assert _round_trip(walked.state()) == walked.state()


def test_the_kept_state_is_of_its_texts_and_masks_only() -> None:
    """Another text, another card name masked, or another order: the state is not taken up."""
    digest = inputs_digest(SOURCES)
    assert inputs_digest(list(SOURCES)) == digest
    changed = [SOURCES[0], replace(SOURCES[1], text=SOURCES[1].text + " Vote."), *SOURCES[2:]]
    masked = [*SOURCES[:3], replace(SOURCES[3], mask=("Saga",)), *SOURCES[4:]]
    assert (
        len({digest, inputs_digest(changed), inputs_digest(masked), inputs_digest(SOURCES[::-1])})
        == 4
    )


_RENUMBERED_SOURCES = [
    _TermSource("clarification_text", 1, 1, "en", "Each player votes once.", ()),
    _TermSource(
        "clarification_text",
        2,
        2,
        "en",
        "Each player votes. A creature with 0 toughness is put into the graveyard.",
        (),
    ),
    _TermSource("card_text", 3, 7, "en", "Will of the council — each player votes.", ()),
]
# Vote renumbered within 704, then out of it: the second ruling's prefix test (is a rule it
# links one of the state-based actions?) reads otherwise, so that ruling is matched again.
_RENUMBERED = [
    _edition([("704", "rule", "State-Based Actions", 10), (number, "rule", "Vote", 1)])
    for number in ("704.8", "704.9", "701.38")
]


def _rows_of(editions: list[tuple], walked: bool) -> tuple[list[list[dict]], list[dict], int]:
    """Each edition's own rows and the lineage rows: walked, or every text matched in each."""
    shared = LineageLinks(STUBS)
    walk = TermWalk(_RENUMBERED_SOURCES)
    own = []
    for place, (vocabulary, numbers, lineages) in enumerate(editions):
        rows = _Rows(STUBS[place], numbers, lineages, shared, place)
        if walked:
            walk.step({"en": vocabulary}, rows)
        else:
            _match_cold(vocabulary, rows, _RENUMBERED_SOURCES)
        own.append(rows.rows)
    walk.finish()
    return own, shared.rows(), walk.looked_at


def test_a_renumbering_alone_renumbers_the_rows_without_matching_again() -> None:
    own, lineage_rows, looked_at = _rows_of(_RENUMBERED[:2], walked=True)
    assert (own, lineage_rows) == _rows_of(_RENUMBERED[:2], walked=False)[:2]
    assert looked_at == len(_RENUMBERED_SOURCES)  # the first edition only
    votes = {(r["matched"], r["target"], r["last_date"].year) for r in lineage_rows}
    assert ("votes", "704.9", 2021) in votes


def test_a_renumbering_that_changes_a_prefix_test_matches_its_rulings_again() -> None:
    own, lineage_rows, looked_at = _rows_of(_RENUMBERED, walked=True)
    every_own, every_lineage_rows, _ = _rows_of(_RENUMBERED, walked=False)
    assert (own, lineage_rows) == (every_own, every_lineage_rows)
    assert looked_at > len(_RENUMBERED_SOURCES)
    # Matching every text finds the state-based actions implied once Vote is out of 704.
    implied = {(r["matched"], r["first_date"].year) for r in every_lineage_rows}
    assert ("0 toughness", 2022) in implied


def test_a_number_given_to_another_rule_that_a_term_still_names_is_resolved_again() -> None:
    """Vote moves from 701.32 to 701.38 and Goad takes 701.32, which the glossary's Council still
    cites: which of the card text's two 701.32 outputs moved is not known, so it is matched again
    (renumbering both would send "council" to Vote)."""
    council = GlossaryItem("Council", "A group. See rule 701.32.")

    def edition(rules: list[tuple[str, str, int]]) -> tuple:
        entries = [RuleEntry(number, "rule", title, "") for number, title, _ in rules]
        lineages = {number: lineage for number, _, lineage in rules}
        numbers = {number: 100 + i for i, (number, *_) in enumerate(rules)}
        return english_vocabulary(entries, [_REPLACEMENT, council]), numbers, lineages

    editions = [
        edition([("701.32", "Vote", 1)]),
        edition([("701.32", "Goad", 4), ("701.38", "Vote", 1)]),
    ]
    own, lineage_rows, _ = _rows_of(editions, walked=True)
    assert (own, lineage_rows) == _rows_of(editions, walked=False)[:2]
    last = {(r["matched"], r["target"]) for r in lineage_rows if r["last_date"].year == 2021}
    assert {("council", "701.32"), ("votes", "701.38")} <= last


def test_the_walks_own_caches_are_not_kept_with_its_state() -> None:
    """The implied-rule evidence and the is_about answers the walk keeps per text (their rows
    equal matching every text afresh, above) live for its run only: the state kept between
    runs holds neither, and a walk taking it up starts without them."""
    _, _, walked = _walked(list(range(len(EDITIONS))))
    assert walked.evidence  # the rulings' evidence was kept through the walk
    assert all(about is not None for about in walked.carried.about)  # every text was matched
    state = walked.state()
    assert set(state) == {"carried", "outputs", "hit", "resolution", "implied"}
    assert set(state["carried"]) == {"spans", "shapes", "byteorder", "words"}
    restored = TermWalk(SOURCES)
    restored.restore(_round_trip(state))
    assert not restored.evidence
    assert all(about is None for about in restored.carried.about)

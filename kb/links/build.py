"""Build the Link rows: explicit references, term links from rulings, rule pages' sibling lists.

Links are derived data, partitioned by the English edition they point into: rebuilding an
edition deletes the links that target it and makes them again from

- the edition's own rule texts, examples and glossary entries (explicit references);
- the translated rule texts that follow it (explicit references, and the sibling list of a rule
  page, kept as references even to rules no edition has);
- every clarification text, whatever its language (explicit references and term links, matched
  with that language's vocabulary for that edition; the names of the ruling's own cards are
  masked, so "Blizzard Brawl" does not link to the Brawl variant);
- every card's rules text in each language (term links: a Saga's text names lore counters, a
  voting card "will of the council"), so that a rule's backlinks list the cards that use it.

A reference to a number the edition does not have is stored unresolved (``kb check`` lists it).
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from kb.bulk import insert_many
from kb.collector import cycles_paused
from kb.db import documents_digest
from kb.models import DerivedState, Edition, Link, Rule
from kb.versions import EditionRef, english_editions, resolve_edition

from .ahead import VocabulariesAhead
from .carry import CarriedMatches
from .implied import implied_matches
from .learned import mark_learned
from .lineage_rows import (
    LINEAGE_SOURCES,
    LineageLinks,
    lineage_digests,
    record_digests,
    reusable,
)
from .references import Reference, find_references
from .rule_sources import BodyReferences, TranslatedTexts, edition_sources, translation_sources
from .terms import TermMatch
from .text_sources import _term_sources, _TermSource, card_names, name_forms
from .vocabularies import edition_vocabulary, forget_vocabularies, vocabularies
from .walk import TermWalk
from .walk_state import keep_walk, take_up_walk
from .words import words_kept

__all__ = ["build_links", "card_names", "edition_vocabulary", "name_forms", "vocabularies"]

log = logging.getLogger(__name__)


class _Rows:
    """Link rows for one target edition, resolved against its rule numbers.

    With ``shared``, the resolved term links of rulings and card texts go there, one per
    lineage (``lineages``: the edition's rule numbers' lineages; ``order``: the edition's place
    among the English editions, oldest first), instead of one row per edition.
    """

    def __init__(
        self,
        edition: Edition | None,
        numbers: dict[str, int],
        lineages: dict[str, int] | None = None,
        shared: LineageLinks | None = None,
        order: int = -1,
    ) -> None:
        self.edition_id = edition.id if edition else None
        self.numbers = numbers
        self.lineages = lineages or {}
        self.shared = shared
        self.order = order
        self.rows: list[dict[str, Any]] = []
        self.counts: dict[str, int] = defaultdict(int)
        self.translation_ids: list[int] = []  # translated texts that now follow this edition
        self.kept = True  # False: only the lineage rows of this edition are wanted

    def add(
        self,
        source_type: str,
        source_id: int,
        language: str,
        target: str,
        kind: str,
        matched: str,
        start: int = 0,
        end: int = 0,
    ) -> None:
        rule_id = self.numbers.get(target)
        self.rows.append(
            {
                "source_type": source_type,
                "source_id": source_id,
                "source_language": language,
                "target": target,
                "target_edition_id": self.edition_id,
                "target_rule_id": rule_id,
                "kind": kind,
                "matched": matched,
                "start": start,
                "end": end,
                "resolved": rule_id is not None,
            }
        )
        self.counts[kind] += 1
        if rule_id is None:
            self.counts[f"{kind}_unresolved"] += 1

    def terms(self, source: Any, matches: Iterable[TermMatch]) -> None:
        """The term links of one text: a row per rule each match names (or per lineage)."""
        shared = self.shared if source.source_type in LINEAGE_SOURCES else None
        for found in matches:
            for target in found.term.targets:
                lineage = self.lineages.get(target) if shared is not None else None
                if lineage is not None and shared is not None:
                    shared.add(
                        self.order, source, lineage, target, found.matched, found.start, found.end
                    )
                    continue
                self.add(
                    source.source_type,
                    source.source_id,
                    source.language,
                    target,
                    "term",
                    found.matched,
                    found.start,
                    found.end,
                )

    def explicit(self, source_type: str, source_id: int, language: str, text: str) -> None:
        self.references(source_type, source_id, language, _references(text, language))

    def references(
        self, source_type: str, source_id: int, language: str, refs: Iterable[Reference]
    ) -> None:
        """The explicit references of one text, parsed already (kb.links.rule_sources)."""
        for ref in refs:
            for number in ref.numbers:
                self.add(
                    source_type,
                    source_id,
                    language,
                    number,
                    "explicit",
                    ref.text,
                    ref.start,
                    ref.end,
                )


@lru_cache(maxsize=1 << 20)
def _references(text: str, language: str) -> tuple[Reference, ...]:
    """References parsed once per distinct text (most rule texts repeat in every edition)."""
    return tuple(find_references(text, language))


def _rule_numbers(session: Session, edition: Edition) -> dict[str, int]:
    query = select(Rule.number, Rule.id).where(Rule.edition_id == edition.id)
    return {number: rule_id for number, rule_id in session.execute(query).all()}


def edition_rows(
    session: Session, edition: Edition, shared: LineageLinks, *, kept: bool = True
) -> _Rows:
    """The rows of one edition, its rulings' and cards' term links collected per lineage.

    ``kept``: the edition's own rows are wanted (not only its lineage rows).
    """
    numbers: dict[str, int] = {}
    lineages: dict[str, int] = {}
    for number, rule_id, lineage in session.execute(
        select(Rule.number, Rule.id, Rule.lineage_id).where(Rule.edition_id == edition.id)
    ):
        numbers[number] = rule_id
        if lineage is not None:
            lineages[number] = lineage
    order = shared.orders.get(edition.id)
    if order is None:  # not an English edition: no lineages
        return _Rows(edition, numbers)
    rows = _Rows(edition, numbers, lineages, shared, order)
    rows.kept = kept
    return rows


def _term_links(
    session: Session,
    edition: Edition,
    rows: _Rows,
    sources: Sequence[_TermSource],
    walk: TermWalk | None = None,
) -> dict[str, set[int]]:
    """Explicit references (rulings) and term links of every text; return the owners linked.

    ``walk`` carries the texts' term links from the English edition walked before (the same
    sources, kb.links.walk); without one, or for an edition with no lineages, every text is
    matched here.
    """
    if rows.shared is not None:
        walk = walk if walk is not None else TermWalk(sources)
        vocab = vocabularies(
            session, edition, {s.language for s in sources}, walk.learned, walk.titles, walk.ahead
        )
        return walk.step(vocab, rows, emit=rows.kept)
    vocab = vocabularies(session, edition, {s.language for s in sources})
    linked: dict[str, set[int]] = defaultdict(set)
    for i, matches in CarriedMatches(sources).matches(vocab):
        source = sources[i]
        if source.source_type == "clarification_text":
            rows.explicit(source.source_type, source.source_id, source.language, source.text)
            matches = matches + implied_matches(
                vocab[source.language], source.text, matches, source.context
            )
        if matches:
            linked[source.source_type].add(source.owner)
        rows.terms(source, matches)
    return linked


def build_links(
    session: Session,
    editions: Iterable[EditionRef] | None = None,
    *,
    commit_each: bool = False,
    unfollowed: bool | None = None,
) -> dict[str, Any]:
    """(Re)build the links into all English editions, or the given ones; return the counts.

    ``commit_each``: commit after each edition and record it in ``derived_state``
    (``links:<edition id>``, with the documents digest), so that a rebuild killed half-way
    resumes at the first edition not yet done, against the same documents, instead of starting
    over; the caller marks the whole ``links`` stage once this returns.

    The term links of rulings and cards are walked through the English editions oldest first
    (kb.links.walk): through the given ones when the other editions' lineage rows can stay,
    else through all of them, the others' rows left as they are but for their lineage rows.
    Each text's words are kept through the run (kb.links.words.words_kept): the walk matches
    a text again in every edition whose vocabulary changes a term it holds.
    """
    with words_kept(), cycles_paused():
        return _build_links(session, editions, commit_each=commit_each, unfollowed=unfollowed)


def _build_links(
    session: Session,
    editions: Iterable[EditionRef] | None,
    *,
    commit_each: bool,
    unfollowed: bool | None,
) -> dict[str, Any]:
    began = time.perf_counter()
    digest = documents_digest(session) if commit_each else ""
    english = english_editions(session)
    if editions is None:
        targets = english
    else:
        chosen = {row.id: row for row in (resolve_edition(session, e) for e in editions)}
        targets = sorted(chosen.values(), key=lambda e: (e.effective_date, e.id))
    done = _done_editions(session, digest) if commit_each else set()
    if editions is None and not done:
        session.execute(delete(Link))
        forget_vocabularies(session)  # a full rebuild builds every edition's vocabulary afresh
    sources = _term_sources(session) if targets else []
    walk = TermWalk(sources)
    if sources and editions is not None:  # kb link from scratch matches every text itself
        walk = take_up_walk(session, walk)
    totals: dict[str, int] = defaultdict(int)
    linked: dict[str, set[int]] = defaultdict(set)
    shared = LineageLinks.of(session)
    bodies = BodyReferences()  # each distinct rule body parsed once, whatever its editions
    translated = TranslatedTexts()  # the translations following each edition, read once
    target_ids = {e.id for e in targets}
    digests = lineage_digests(session) if sources else {}
    reuse = bool(sources) and editions is not None and reusable(session, digests, target_ids)
    walked = [] if not sources or reuse else [e for e in english if e.id not in target_ids]
    walking = sorted([*targets, *walked], key=lambda e: (e.effective_date, e.id))
    if editions is None and not done and sources:  # every vocabulary is built afresh
        texts = [(s.language, s.text, s.mask) for s in sources]
        walk.ahead = VocabulariesAhead.start(session, [e.id for e in walking], texts)
    try:
        for edition in walking:
            if edition.id not in target_ids:  # only its lineage rows are made again
                rows = edition_rows(session, edition, shared, kept=False)
                _merge(linked, _term_links(session, edition, rows, sources, walk))
                continue
            if edition.id in done:
                log.info("links into edition %s already built by an interrupted run", edition.key)
                if sources:
                    rows = edition_rows(session, edition, shared, kept=False)
                    _merge(linked, _term_links(session, edition, rows, sources, walk))
                continue
            session.execute(
                delete(Link).where(Link.target_edition_id == edition.id)
            )  # its lineage rows are all made again below
            rows = edition_rows(session, edition, shared)
            edition_sources(session, edition, rows, bodies)
            translation_sources(session, edition, rows, bodies, translated)
            _merge(linked, _term_links(session, edition, rows, sources, walk))
            _forget_moved_translations(session, rows)
            insert_many(session, Link, rows.rows)
            for key, value in rows.counts.items():
                totals[key] += value
            if commit_each:
                session.merge(DerivedState(stage=f"{_EDITION_STAGE}{edition.id}", inputs=digest))
                session.commit()
            log.info("linked edition %s: %d links", edition.key, len(rows.rows))
        if walk.ahead is not None and not walk.ahead.failed:
            words = walk.ahead.word_index()  # the walk matched nothing itself: no word noted
            if words is not None:
                walk.carried.take_word_index(words)
    finally:
        if walk.ahead is not None:
            walk.ahead.close()
            walk.ahead = None
    if sources:
        if walk.last is not None and walk.last == len(shared.ids) - 1:
            keep_walk(session, walk, shared.dates[-1])  # the next new edition steps from it
        walk.finish()
        if reuse:
            shared.load(session, target_ids)
        totals["term"] += shared.replace_all(session)
        record_digests(session, digests)
    if editions is None if unfollowed is None else unfollowed:
        # Translations that follow no English edition (none was loaded when they were).
        session.execute(
            delete(Link).where(Link.target_edition_id.is_(None), Link.target_lineage_id.is_(None))
        )
        rows = _Rows(None, {})
        translation_sources(session, None, rows, bodies)
        _forget_moved_translations(session, rows)
        insert_many(session, Link, rows.rows)
        for key, value in rows.counts.items():
            totals[key] += value
    if commit_each:
        session.execute(delete(DerivedState).where(DerivedState.stage.startswith(_EDITION_STAGE)))
    if editions is None:  # every French and Spanish text matched with the names stored now
        mark_learned(session)
    log.info(
        "links built in %.2f s (%d texts matched for %d editions)",
        time.perf_counter() - began,
        walk.carried.rematched,
        len(targets),
    )
    clarifications = {s.owner for s in sources if s.source_type == "clarification_text"}
    cards = {s.owner for s in sources if s.source_type == "card_text"}
    return {
        "editions": [e.effective_date.isoformat() if e.effective_date else e.key for e in targets],
        "links": sum(v for k, v in totals.items() if not k.endswith("_unresolved")),
        **{k: totals.get(k, 0) for k in ("explicit", "term", "sibling")},
        "unresolved": sum(v for k, v in totals.items() if k.endswith("_unresolved")),
        "clarifications": len(clarifications),
        "clarifications_linked": len(linked["clarification_text"]),
        "cards": len(cards),
        "cards_linked": len(linked["card_text"]),
    }


_EDITION_STAGE = "links:"


def _merge(linked: dict[str, set[int]], found: dict[str, set[int]]) -> None:
    for source_type, owners in found.items():
        linked[source_type] |= owners


def _forget_moved_translations(session: Session, rows: _Rows) -> None:
    """Drop the links a translated text still has into the edition it followed before.

    An assumed translation is placed again after every ingest (a newer edition may fit its
    siblings): relinking only the edition it now follows must not leave its links into the old
    one behind, or an incremental relink would differ from a full rebuild.
    """
    for start in range(0, len(rows.translation_ids), 500):
        chunk = rows.translation_ids[start : start + 500]
        session.execute(
            delete(Link).where(Link.source_type == "rule_text", Link.source_id.in_(chunk))
        )


def _done_editions(session: Session, digest: str) -> set[int]:
    """Editions an interrupted batched rebuild already linked against these same documents."""
    done = set()
    for stage, inputs in session.execute(
        select(DerivedState.stage, DerivedState.inputs).where(
            DerivedState.stage.startswith(_EDITION_STAGE)
        )
    ):
        if inputs == digest and stage[len(_EDITION_STAGE) :].isdigit():
            done.add(int(stage[len(_EDITION_STAGE) :]))
    return done

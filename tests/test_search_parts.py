"""The some-of-the-words pass from the terms' kept parts (kb.search.parts) against the postings.

Once warm, the term engine scores a scaled OR from each term's part of the scores, computed once
per open index; cold, or with ``parts_kept`` off, it reads the postings and scores each
(document, term) as before. Both must give the same documents, scores to the last bit, order,
matched terms and counts: on the synthetic index of test_search_engine.py (two segments, deleted
documents, blocks of eight postings), and on Whoosh's own layout of it.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest
from whoosh import query as wq
from whoosh.scoring import BM25F

from kb.search.engine import WARM_AFTER, DocSet, TermEngine
from kb.search.plan import plan_query

_spec = importlib.util.spec_from_file_location(
    "engine_tests", Path(__file__).with_name("test_search_engine.py")
)
assert _spec is not None and _spec.loader is not None
engine_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(engine_tests)


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The synthetic index in blocks of 8 postings and in Whoosh's default ones (128)."""
    from whoosh.codec.whoosh3 import W3Codec

    root = tmp_path_factory.mktemp("parts")
    ours = engine_tests._write(root / "kb", W3Codec(blocklimit=8))
    theirs = engine_tests._write(root / "whoosh", W3Codec())
    assert len(ours._segments()) == 2 and ours.reader().has_deletions()
    yield ours, theirs
    ours.close()
    theirs.close()


def _t(field: str, word: str, boost: float = 1.0) -> Any:
    return wq.Term(field, word, boost=boost)


SCALED = [
    ("common and rare words", wq.Or([_t("en", w) for w in ("w0", "w1", "w5", "w14")], scale=0.9)),
    (
        "words in two fields, boosted",
        wq.Or(
            [_t("en", "w1"), _t("fr", "w1", 0.5), _t("en", "w7", 1.5), _t("fr", "w30")], scale=0.9
        ),
    ),
    (
        "phrases among the words",
        wq.Or(
            [
                _t("en", "w2"),
                wq.Phrase("en", ["w0", "w1"]),
                wq.Phrase("fr", ["w0", "w0", "w2"], boost=0.7),
                _t("fr", "w3"),
            ],
            scale=0.9,
        ),
    ),
    ("an unscored field", wq.Or([_t("en", "w4"), _t("tag", "b")], scale=0.9)),
    (
        "words nowhere, a field nowhere",
        wq.Or([_t("en", "w3"), _t("en", "nowhere"), _t("nofield", "w3")], scale=0.9),
    ),
    ("a word twice", wq.Or([_t("en", "w6"), _t("en", "w6"), _t("en", "w2")], scale=0.9)),
]
# Every word required (the first pass), a word's alternatives, a split word, one word alone.
REQUIRED = [
    ("two words", wq.And([_t("en", "w0"), _t("en", "w5")])),
    (
        "a word in either language, boosted, and another",
        wq.And([wq.Or([_t("en", "w1"), _t("fr", "w1", 0.5)]), _t("en", "w2", 1.5)]),
    ),
    (
        "a split word among alternatives, and a phrase",
        wq.And(
            [
                wq.Or([wq.And([_t("en", "w0"), _t("en", "w3")]), _t("fr", "w3")]),
                wq.Phrase("en", ["w0", "w1"]),
            ]
        ),
    ),
    ("an unscored field required", wq.And([_t("en", "w4"), _t("tag", "b")])),
    ("one word", _t("en", "w2")),
    ("one boosted word", _t("fr", "w1", 0.5)),
    ("a word nowhere", wq.And([_t("en", "w1"), _t("en", "nowhere")])),
    ("alternatives without a bonus", wq.Or([_t("en", "w7"), _t("fr", "w30")])),
]


def _filters(ix: Any) -> list[Any]:
    rng = random.Random(7)
    every = list(ix.reader().all_doc_ids())
    deleted = [d for d in range(ix.reader().doc_count_all()) if ix.reader().is_deleted(d)]
    return [
        None,
        DocSet(rng.sample(every, len(every) // 2)),
        set(rng.sample(every, 60)) | set(deleted[:5]),  # deleted documents are never matched
    ]


def _ranked(searcher: Any, q: Any, allowed: Any, kept: bool, priors: Any) -> Any:
    engine = TermEngine(searcher)
    engine.parts_kept = kept
    engine._searches = WARM_AFTER + 1  # warm: the term tables in memory
    ranking = engine.search(q, limit=25, allowed=allowed, priors=priors)
    assert ranking is not None
    plan = plan_query(q)
    assert plan is not None
    matched = engine.matching(plan, allowed)
    hits = [(h.docnum, h.score, sorted(h.matched_terms())) for h in ranking]
    return hits, len(ranking), matched, engine.parts.size


@pytest.mark.parametrize(("name", "q"), SCALED + REQUIRED)
def test_kept_parts_rank_as_the_postings_do(twins: Any, name: str, q: Any) -> None:
    for ix in twins:
        with ix.searcher(weighting=BM25F()) as searcher:
            priors = [1.0 - (d % 5) / 10 for d in range(searcher.doc_count_all())]
            for allowed in _filters(ix):
                for prior in (None, priors):
                    *postings, none_kept = _ranked(searcher, q, allowed, False, prior)
                    *parts, some_kept = _ranked(searcher, q, allowed, True, prior)
                    assert parts == postings, name  # exact scores, not approximately
                    assert none_kept == 0 and some_kept > 0
                    _hits, total, matched = parts
                    assert total == len(matched)
                    assert not any(searcher.reader().is_deleted(d) for d in matched)
                    if name == "a word nowhere":  # every word required
                        assert total == 0
                    elif "nowhere" not in name or allowed is None:
                        assert total > 0


def test_kept_parts_rank_as_whoosh_does(twins: Any) -> None:
    """The parts' ranking of a scaled OR is Whoosh's, scoring every match."""
    ours, _ = twins
    q = SCALED[2][1]
    with ours.searcher(weighting=BM25F()) as searcher:
        for allowed in _filters(ours):
            hits, total, _, _ = _ranked(searcher, q, allowed, True, None)
            whoosh = engine_tests.whoosh_scoring_everything(searcher, q, 25, allowed)
            assert [d for d, _, _ in hits] == [h.docnum for h in whoosh]
            assert [s for _, s, _ in hits] == pytest.approx([h.score for h in whoosh], rel=1e-9)
            assert total == len(whoosh) > 10


def test_the_parts_kept_stay_within_their_budget(twins: Any) -> None:
    from kb.search.parts import PartCache

    ours, _ = twins
    with ours.searcher(weighting=BM25F()) as searcher:
        engine = TermEngine(searcher)
        engine.parts = PartCache(budget=300)
        engine._searches = WARM_AFTER + 1
        first = engine.search(SCALED[0][1], limit=25)
        assert first is not None
        largest = max(len(part) for part in engine.parts.parts.values())
        assert engine.parts.size <= max(300, largest)
        assert len(engine.parts.parts) < 4  # the oldest terms were dropped
        again = engine.search(SCALED[0][1], limit=25)  # computed again, the same
        assert again is not None
        assert [(h.docnum, h.score) for h in again] == [(h.docnum, h.score) for h in first]


def test_only_the_best_few_come_back_and_the_rest_are_counted(twins: Any) -> None:
    """With a limit, only the documents that may be among the best few come back (the rest
    are counted), with the scores and order of scoring every match (random word sets, boosts
    and limits, so that some of the best hold only common words)."""
    from kb.search import parts

    ours, _ = twins
    rng = random.Random(3)
    pruned = 0
    with ours.searcher(weighting=BM25F()) as searcher:
        engine = TermEngine(searcher)
        engine._searches = WARM_AFTER + 1
        filters = _filters(ours)[:2]
        for _ in range(16):
            words = rng.sample(engine_tests.WORDS[:12], 2) + rng.sample(engine_tests.WORDS[12:], 2)
            q = wq.Or(
                [_t(rng.choice(["en", "fr"]), w, rng.choice([1.0, 0.5, 1.7])) for w in words],
                scale=0.9,
            )
            for allowed in filters:
                for limit in (1, 4, 10, 20):
                    plan = plan_query(q)
                    assert plan is not None
                    engine._look_up(plan, searcher.weighting)
                    scores, total = parts.scored_by_parts(engine, plan, allowed, engine.parts)
                    best = sorted((-s, d) for d, s in scores.items())[:limit]
                    some, counted = parts.scored_by_parts(
                        engine, plan, allowed, engine.parts, limit
                    )
                    assert counted == total == len(scores)
                    assert all(some[d] == scores[d] for d in some)
                    assert sorted((-s, d) for d, s in some.items())[:limit] == best
                    pruned += len(some) < total
    assert pruned > 10  # documents were only counted


class _Priors(list):  # type: ignore[type-arg]
    """Priors by document number."""


class _ManyPriors(_Priors):
    """Priors read many at a time (as LazyPriors are)."""

    def many(self, docs: Any) -> list[float]:
        return [self[d] for d in docs]


class _DensePriors(_Priors):
    """Priors that keep an array of them all (as LazyPriors do)."""

    def dense(self) -> Any:
        import numpy as np

        return np.array(self, dtype=np.float64)


@pytest.mark.parametrize("kind", [_Priors, _ManyPriors, _DensePriors])
def test_with_priors_the_best_few_are_those_of_the_scores_times_the_priors(
    twins: Any, kind: Any
) -> None:
    """With type priors (a question's: cards 0.4, rules 1), the best few come back by their
    scores times the priors: those of scoring every match and applying the priors, ties
    included, through ``rank`` too."""
    from kb.search import parts

    ours, _ = twins
    rng = random.Random(5)
    pruned = 0
    with ours.searcher(weighting=BM25F()) as searcher:
        engine = TermEngine(searcher)
        engine._searches = WARM_AFTER + 1
        priors = kind(rng.choice([0.4, 0.6, 1.0]) for _ in range(searcher.doc_count_all()))
        for _ in range(16):
            words = rng.sample(engine_tests.WORDS[:12], 2) + rng.sample(engine_tests.WORDS[12:], 2)
            q = wq.Or(
                [_t(rng.choice(["en", "fr"]), w, rng.choice([1.0, 0.5, 1.7])) for w in words],
                scale=0.9,
            )
            for allowed in _filters(ours)[:2]:
                for limit in (1, 4, 10, 20):
                    plan = plan_query(q)
                    assert plan is not None
                    engine._look_up(plan, searcher.weighting)
                    scores, total = parts.scored_by_parts(engine, plan, allowed, engine.parts)
                    best = sorted((-(s * priors[d]), d) for d, s in scores.items())[:limit]
                    some, counted = parts.scored_by_parts(
                        engine, plan, allowed, engine.parts, limit, priors
                    )
                    assert counted == total == len(scores)
                    assert all(some[d] == scores[d] for d in some)
                    assert sorted((-(s * priors[d]), d) for d, s in some.items())[:limit] == best
                    pruned += len(some) < total
                    fresh = plan_query(q)  # a plan is searched once (its clauses keep the docs)
                    assert fresh is not None
                    ranking = engine.rank(fresh, limit=limit, allowed=allowed, priors=priors)
                    assert ranking is not None
                    assert [(-h.score, h.docnum) for h in ranking] == best
    assert pruned > 10

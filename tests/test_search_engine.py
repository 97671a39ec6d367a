"""kb's term engine against Whoosh's own matchers: the same documents, scores, order and counts.

A synthetic index of a few hundred documents, written eight postings to a block (so that posting
lists span many blocks), in two segments with deleted documents, beside a twin written by
Whoosh's own codec; then the small knowledge base through ``SearchIndex``. The real corpus is
compared in test_search_eval.py.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from whoosh import collectors
from whoosh import query as wq
from whoosh.scoring import BM25F

from kb.search.engine import WARM_AFTER, DocSet, TermEngine, as_set, plan_query
from kb.search.indexer import index_order

WORDS = [f"w{n}" for n in range(40)]
DOCS, LATER, DELETED = 420, 60, 35


def _text(rng: random.Random) -> str:
    # Zipf-like: w0 is in most documents, w39 in a few.
    count = rng.randint(3, 30)
    return " ".join(WORDS[min(int(rng.paretovariate(0.7)) - 1, 39)] for _ in range(count))


def _write(folder: Path, codec: Any) -> Any:
    from whoosh.fields import ID, KEYWORD, TEXT, Schema
    from whoosh.index import create_in

    schema = Schema(
        key=ID(stored=True, unique=True),
        kind=ID(stored=True),
        tag=KEYWORD(scorable=False),
        en=TEXT(phrase=True),
        fr=TEXT(phrase=True),
    )
    folder.mkdir()
    ix = create_in(str(folder), schema)
    rng = random.Random(11)
    writer = ix.writer(codec=codec)
    for n in range(DOCS):
        writer.add_document(
            key=f"d{n}",
            kind=rng.choice(["rule", "ruling", "card"]),
            tag=rng.choice(["a", "b", "a b"]),
            en=_text(rng),
            fr=_text(rng) if n % 3 else "",
        )
    writer.commit()
    writer = ix.writer(codec=codec)
    for n in rng.sample(range(DOCS), DELETED):
        writer.delete_by_term("key", f"d{n}")
    for n in range(DOCS, DOCS + LATER):
        writer.add_document(key=f"d{n}", kind="rule", tag="b", en=_text(rng), fr=_text(rng))
    writer.commit(merge=False)  # a second segment, and deleted documents in the first
    return ix


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The synthetic index in small blocks (8 postings) and in Whoosh's default ones (128)."""
    from whoosh.codec.whoosh3 import W3Codec

    root = tmp_path_factory.mktemp("engine")
    ours = _write(root / "kb", W3Codec(blocklimit=8))
    theirs = _write(root / "whoosh", W3Codec())
    assert len(ours._segments()) == 2
    yield ours, theirs
    ours.close()
    theirs.close()


def _queries() -> list[tuple[str, Any]]:
    t = wq.Term
    return [
        ("one rare word", t("en", "w30")),
        ("one common word", t("en", "w0")),
        ("two words", wq.And([t("en", "w0"), t("en", "w3")])),
        ("three words", wq.And([t("en", "w1"), t("en", "w2"), t("en", "w7")])),
        (
            "words in two fields, boosted",
            wq.And(
                [
                    wq.Or([t("fr", "w2"), t("en", "w2", boost=0.5), t("en", "w9", boost=0.7)]),
                    wq.Or([t("fr", "w0"), t("en", "w0", boost=0.5)]),
                ]
            ),
        ),
        (
            "a hyphenated word",
            wq.And(
                [
                    t("en", "w1"),
                    wq.Or([wq.And([t("fr", "w4"), t("fr", "w5")]), t("en", "w6", boost=0.5)]),
                ]
            ),
        ),
        ("a filter term", wq.And([t("en", "w4"), t("kind", "ruling")])),
        ("an unscored field", wq.And([t("en", "w1"), t("tag", "b")])),
        ("a word nowhere", wq.And([t("en", "w0"), t("en", "nowhere")])),
        ("an unknown field", wq.Or([t("en", "w12"), t("nofield", "w12")])),
        ("a boosted group", wq.And([t("en", "w2"), t("en", "w3")], boost=2.0)),
        ("a phrase", wq.Phrase("en", ["w0", "w1"])),
        ("a phrase of three words", wq.Phrase("en", ["w0", "w0", "w1"], boost=0.6)),
        (
            "a phrase among a word's alternatives (the term bridge)",
            wq.And(
                [
                    wq.Or([t("fr", "w1"), t("en", "w1", boost=0.5), wq.Phrase("en", ["w1", "w2"])]),
                    wq.Or([t("fr", "w0"), wq.Phrase("en", ["w2", "w0"], boost=0.7)]),
                ]
            ),
        ),
        ("a phrase of a word nowhere", wq.Or([t("en", "w3"), wq.Phrase("en", ["w3", "nowhere"])])),
    ]


def _filters(ix: Any) -> list[Any]:
    rng = random.Random(5)
    every = list(ix.reader().all_doc_ids())
    return [None, DocSet(rng.sample(every, len(every) // 3)), set(rng.sample(every, 40))]


def _same_hits(mine: Any, theirs: Any) -> None:
    assert [h.docnum for h in mine] == [h.docnum for h in theirs]
    assert [h.score for h in mine] == pytest.approx([h.score for h in theirs], rel=1e-9)


def whoosh_scoring_everything(searcher: Any, q: Any, limit: int, allowed: Any = None) -> Any:
    """Whoosh's matchers, scoring every match: the engine's reference.

    Whoosh's collector otherwise replaces its matchers every few matches by cheaper ones that
    leave out what cannot reach the top by the scores seen so far; they compare a query's own
    scores with the boosted or final ones, and can miss (a boosted group, an OR holding an
    AND) or stop counting.
    """
    collector: Any = collectors.TopCollector(limit=limit, usequality=False, replace=0)
    collector = collectors.TermsCollector(collector)
    if allowed is not None:  # outermost, as Searcher.collector wraps it
        collector = collectors.FilterCollector(collector, allow=as_set(allowed))
    searcher.search_with_collector(q, collector)
    return collector.results()


@pytest.mark.parametrize(("name", "q"), _queries())
def test_the_engine_ranks_as_whoosh_does(twins: Any, name: str, q: Any) -> None:
    from kb.search.readers import PriorWeighting

    ours, theirs = twins
    for ix in (ours, theirs):  # Whoosh's format and kb's give the same results too
        with ix.searcher() as searcher:
            # kb's priors are at most 1 (Whoosh prunes by scores before priors are applied)
            priors = [1.0 - (d % 7) / 10 for d in range(searcher.doc_count_all())]
            searcher.weighting = PriorWeighting(priors)
            for allowed, warm in itertools.product(_filters(ix), (False, True)):
                engine = TermEngine(searcher)  # terms looked up on disk, or (warm) in memory
                engine._searches = WARM_AFTER + 1 if warm else 0
                mine = engine.search(q, limit=10, allowed=allowed, priors=priors)
                assert engine._loaded == warm
                assert mine is not None, name
                whoosh = whoosh_scoring_everything(searcher, q, 10, allowed)
                _same_hits(mine, whoosh)
                assert len(mine) == len(whoosh)
                assert [set(h.matched_terms()) for h in mine] == [
                    set(h.matched_terms()) for h in whoosh
                ]
                assert not any(searcher.reader().is_deleted(h.docnum) for h in mine)


def test_a_warm_engine_keeps_what_it_found_of_phrases_across_searches(twins: Any) -> None:
    """The documents found to hold a phrase are kept: the next searches, among other documents
    (another filter), or the same, rank as Whoosh does."""
    from kb.search.readers import PriorWeighting

    ours, _ = twins
    phrases = [(name, q) for name, q in _queries() if "Phrase" in repr(q)]
    assert phrases
    with ours.searcher() as searcher:
        priors = [1.0 - (d % 7) / 10 for d in range(searcher.doc_count_all())]
        searcher.weighting = PriorWeighting(priors)
        engine = TermEngine(searcher)
        engine._searches = WARM_AFTER + 1
        for _ in range(2):
            for (name, q), allowed in itertools.product(phrases, _filters(ours)):
                mine = engine.search(q, limit=10, allowed=allowed, priors=priors)
                assert mine is not None, name
                whoosh = whoosh_scoring_everything(searcher, q, 10, allowed)
                _same_hits(mine, whoosh)
                assert len(mine) == len(whoosh)
        assert engine.phrases.phrases  # (kept)


def test_the_engine_has_found_something(twins: Any) -> None:
    ours, _ = twins
    with ours.searcher() as searcher:
        totals = [len(TermEngine(searcher).search(q, limit=10)) for _, q in _queries()]
    assert (
        sum(1 for total in totals if total > 10) >= 4
    )  # the comparisons above rank, not agree on nothing
    assert totals[-7] == 0  # a word nowhere


def test_the_coordination_bonus_is_whooshs(twins: Any) -> None:
    """An OR scaled by the number of words matched (the some-of-the-words pass)."""
    ours, _ = twins
    q = wq.Or([wq.Term("en", w) for w in ("w5", "w9", "w14", "w20")], scale=0.9)
    with ours.searcher(weighting=BM25F()) as searcher:
        engine = TermEngine(searcher)
        for allowed in _filters(ours):
            mine = engine.search(q, limit=40, allowed=allowed)
            assert mine is not None and len(mine) > (40 if allowed is None else 10)
            # (midway, Whoosh would also recount the terms whose postings have not run out)
            whoosh = whoosh_scoring_everything(searcher, q, 40, allowed)
            _same_hits(mine, whoosh)
            assert len(mine) == len(whoosh)


@pytest.mark.parametrize(
    "q",
    [
        wq.Phrase("en", ["w0", "w1"], slop=2),
        wq.Prefix("en", "w1"),
        wq.And([wq.Term("en", "w0"), wq.Not(wq.Term("en", "w1"))]),
        wq.FuzzyTerm("en", "w11"),
        wq.Every(),
        wq.Or([wq.Term("en", "w1"), wq.And([wq.Term("en", "w2"), wq.Or([wq.Term("en", "w3")])])]),
        wq.And([wq.Term("en", "w1"), wq.Or([wq.Term("en", "w2"), wq.Term("en", "w3")], scale=0.9)]),
    ],
)
def test_other_queries_are_left_to_whoosh(twins: Any, q: Any) -> None:
    ours, _ = twins
    assert plan_query(q) is None
    with ours.searcher() as searcher:
        assert TermEngine(searcher).search(q, limit=10) is None


def test_the_coordination_bonus_counts_a_phrases_words_where_it_matches(twins: Any) -> None:
    """The some-of-the-words pass of a word the bridge turns into a phrase."""
    ours, _ = twins
    q = wq.Or(
        [
            wq.Term("en", "w5"),
            wq.Phrase("en", ["w0", "w1"]),
            wq.Term("fr", "w9"),
            wq.Term("en", "w14"),
        ],
        scale=0.9,
    )
    assert plan_query(q) is not None
    with ours.searcher(weighting=BM25F()) as searcher:
        engine = TermEngine(searcher)
        for allowed in _filters(ours):
            mine = engine.search(q, limit=40, allowed=allowed)
            assert mine is not None and len(mine) > 10
            whoosh = whoosh_scoring_everything(searcher, q, 40, allowed)
            _same_hits(mine, whoosh)
            assert len(mine) == len(whoosh)


def test_phrases_read_the_packed_positions(twins: Any) -> None:
    ours, theirs = twins
    q = wq.Phrase("en", ["w0", "w1"])
    found = []
    for ix in (ours, theirs):
        with ix.searcher() as searcher:
            found.append([(h.docnum, h.score) for h in searcher.search(q, limit=None)])
    assert found[0] == found[1] and len(found[0]) > 10


def test_terms_read_block_by_block_as_whooshs_reader_reads_them(twins: Any) -> None:
    from kb.search import postings

    for ix in twins:  # kb's format (read from the mapped buffer) and Whoosh's
        with ix.searcher() as searcher:
            for segment, offset in searcher.reader().leaf_readers():
                for field in ("en", "fr"):
                    for text in segment.lexicon(field):
                        terminfo = segment.term_info(field, text)
                        mine: dict[int, float] = {}
                        postings.read_term(segment, offset, field, text, terminfo, None, mine)
                        matcher = postings.open_postings(segment, field, text, terminfo)
                        whoosh = {d + offset: w for d, w in matcher.items_as("weight")}
                        assert mine == whoosh, (field, text)
                        # the fallback, through Whoosh's reader's blocks
                        again: dict[int, float] = {}
                        reader = postings.open_postings(segment, field, text, terminfo)
                        postings._read_blocks(reader, offset, None, again)
                        assert again == whoosh


def test_skipped_blocks_are_those_without_the_documents_wanted(twins: Any) -> None:
    from kb.search.postings import read_term

    ours, _ = twins
    with ours.searcher() as searcher:
        segment, offset = next(iter(searcher.reader().leaf_readers()))
        terminfo = segment.term_info("en", b"w0")
        full: dict[int, float] = {}
        read_term(segment, offset, "en", b"w0", terminfo, None, full)
        live = {d + offset for d in segment.postings("en", b"w0").all_ids()}
        assert set(full) > live  # deleted documents included: the engine drops them
        wanted = sorted(full)[5:9] + sorted(full)[-3:]
        some: dict[int, float] = {}
        read_term(segment, offset, "en", b"w0", terminfo, wanted, some)
        assert set(wanted) <= set(some) < set(full)
        assert all(full[d] == w for d, w in some.items())
        assert len(some) <= 3 * 8  # at most the three blocks that hold them


def test_cached_blocks_give_the_same_postings_and_stay_within_the_budget(twins: Any) -> None:
    from kb.search.postings import BlockCache, read_term

    ours, _ = twins
    with ours.searcher() as searcher:
        for segment, offset in searcher.reader().leaf_readers():
            for word in ("w0", "w1", "w7"):
                terminfo = segment.term_info("en", word.encode())
                plain: dict[int, float] = {}
                read_term(segment, offset, "en", word.encode(), terminfo, None, plain)
                wanted = sorted(plain)[::7]
                cache = BlockCache(budget=20)
                for within in (None, wanted, None, wanted):  # decoded, then read from the cache
                    cached: dict[int, float] = {}
                    read_term(segment, offset, "en", word.encode(), terminfo, within, cached, cache)
                    expected = plain if within is None else {d: plain[d] for d in within}
                    assert {d: cached[d] for d in expected} == expected
                    assert within is not None or cached == plain
                assert cache.blocks and cache.headers
                assert cache.size <= 20 or len(cache.blocks) == 1


def test_the_index_numbers_the_default_searchs_documents_first() -> None:
    items = [
        {"key": "a", "bound": "edition", "edition": "2021-02-05"},
        {"key": "b", "bound": "none"},
        {"key": "c", "bound": "edition", "edition": "2026-01-16"},
        {"key": "d", "bound": "edition", "edition": "2025-11-14"},
        {"key": "e", "bound": "none", "edition": "-"},
        {"key": "f", "bound": "edition", "edition": "2026-01-16"},
    ]
    assert [i["key"] for i in index_order(items)] == ["b", "c", "e", "f", "d", "a"]
    assert DocSet([5, 1, 3]).ordered == [1, 3, 5]


class _PublicOnly:
    """A segment reader showing only Whoosh's public interface (another codec, say)."""

    def __init__(self, segment: Any) -> None:
        self._segment = segment

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._segment, name)


def test_the_engine_reads_through_whooshs_public_interface_too(
    twins: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the mapped buffer, the in-memory terms or the lengths column: the same results."""
    from kb.search import postings
    from kb.search.readers import PriorWeighting

    ours, _ = twins
    with ours.searcher() as searcher:
        priors = [1.0 - (d % 7) / 10 for d in range(searcher.doc_count_all())]
        searcher.weighting = PriorWeighting(priors)
        fast = TermEngine(searcher)
        expected = [fast.search(q, limit=10, priors=priors) for _, q in _queries()]
        for segment, _ in searcher.reader().leaf_readers():
            public = _PublicOnly(segment)
            assert postings.field_lengths(public, "en") == postings.field_lengths(segment, "en")
            assert postings.TermTable(public).info("en", b"w0") is not None

        def other_layout(*args: Any) -> None:
            raise postings.OtherLayout

        monkeypatch.setattr(postings, "_walk_blocks", other_layout)
        monkeypatch.setattr(postings, "_is_block_reader", lambda matcher: False)
        slow = TermEngine(searcher)
        slow._tables = [postings.TermTable(_PublicOnly(s)) for s, _ in slow.segments]
        slow._loaded = True  # (kept: a loaded table of another codec is Whoosh's lookups)
        for (name, q), before in zip(_queries(), expected, strict=True):
            after = slow.search(q, limit=10, priors=priors)
            assert after is not None and before is not None
            _same_hits(after, before)
            assert len(after) == len(before), name


def test_an_index_the_engine_was_not_verified_on_is_searched_through_whoosh(
    twins: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The on-disk format is checked when an index opens: another version, Whoosh's public API."""
    from kb.search import engine

    ours, _ = twins
    with ours.searcher() as searcher:
        assert engine.unsupported(searcher) is None
        monkeypatch.setattr(engine, "VERIFIED_WHOOSH", ((9, 9, 9),))
        assert "not a version the term engine was verified on" in (
            engine.unsupported(searcher) or ""
        )


def test_search_index_falls_back_to_whoosh_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from click.testing import CliRunner

    from kb.cli import main
    from kb.search import engine
    from kb.search.searcher import SearchIndex

    home = tmp_path / "_kb"
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    seeds = Path(__file__).resolve().parent.parent / "corpus"
    result = CliRunner().invoke(
        main, ["--home", str(home), "--database", url, "ingest", str(seeds)]
    )
    assert result.exit_code == 0, result.output
    with SearchIndex(home / "index") as fast:
        expected = [r["key"] for r in fast.search("ring bearer")["results"]]
        assert fast._engine is not None
    monkeypatch.setattr(engine, "VERIFIED_WHOOSH", ())
    with caplog.at_level("WARNING"), SearchIndex(home / "index") as slow:
        assert slow._engine is None
        assert [r["key"] for r in slow.search("ring bearer")["results"]] == expected
    assert "searching through Whoosh's public API instead" in caplog.text


def test_a_filters_documents_are_whooshs(twins: Any) -> None:
    """The documents of a filter of terms, as the engine reads them, are those Whoosh finds
    (deleted documents left out, both segments read)."""
    from kb.search.searcher import _term_set

    filters = [
        wq.Term("kind", "rule"),
        wq.Term("tag", "b"),
        wq.Or([wq.Term("kind", "card"), wq.Term("tag", "a")]),
        wq.And([wq.Or([wq.Term("kind", "rule"), wq.Term("kind", "ruling")]), wq.Term("tag", "a")]),
        wq.Term("kind", "nothing"),
    ]
    for ix in twins:
        with ix.searcher() as searcher:
            engine = TermEngine(searcher)
            for q in filters:
                assert _term_set(engine, q) == set(searcher.docs_for_query(q)), q
            assert _term_set(engine, wq.Prefix("kind", "r")) is None


def test_the_phrase_cache_walks_each_document_once() -> None:
    from kb.search.phrases import PhraseCache

    holding = {2, 5, 8, 13}
    asked: list[set[int]] = []

    def find(candidates: set[int]) -> set[int]:
        asked.append(set(candidates))
        return candidates & holding

    cache = PhraseCache(budget=12)
    assert cache.holding("a", set(range(6)), find) == {2, 5}
    assert cache.holding("a", set(range(3, 10)), find) == {5, 8}
    assert cache.holding("a", {2, 8}, find) == {2, 8}
    assert asked == [set(range(6)), {6, 7, 8, 9}]
    assert cache.holding("b", set(range(10, 14)), find) == {13}  # past the budget: "a" goes
    assert list(cache.phrases) == ["b"] and cache.size == 4


def test_lazy_priors_of_many_documents_are_each_ones() -> None:
    from kb.search.readers import LazyPriors

    types = ["rule", "card", "ruling", "example", "glossary", "other"] * 5
    one = LazyPriors(types, len(types))
    expected = [one[d] for d in range(len(types))]
    scores = {d: 1.0 for d in (7, 3, 11, 29)}
    for docs in (set(range(0, 30, 2)), scores.keys(), [5, 5, 1, 28], []):
        many = LazyPriors(types, len(types))
        many[3]  # one known before
        assert many.many(docs) == [expected[d] for d in docs]
        assert many.many(docs) == [expected[d] for d in docs]  # all known now

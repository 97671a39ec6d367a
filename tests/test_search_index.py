"""Index and search on a small knowledge base: jumps, ranking, filters, languages, did-you-mean.

The corpus is tests/data/search (two made-up editions), the seed pages, the MTGJSON sample and
a Spanish rulings page with a machine translation.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from kb.errors import KbError
from kb.search.query import QueryError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SMALL_CORPUS = [
    ROOT / "corpus",
    DATA / "search" / "cr_2024.txt",
    DATA / "search" / "cr_2025.txt",
    DATA / "mtgjson" / "mini.json",
    DATA / "rulings" / "es_page.txt",
]
NEWEST, OLDER = "2025-02-07", "2024-01-05"


def make_small_kb(settings: Any, corpus: list[Path] | None = None) -> Any:
    """Ingest the small corpus and build its search index; return the ingest report."""
    from kb import pipeline

    report = pipeline.ingest(settings, corpus or SMALL_CORPUS)
    assert not report.failed, report.failed
    pipeline.index(settings)
    return report


@pytest.fixture(scope="module")
def small_index(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A search index of the small corpus (SQLite, built once for the module)."""
    from kb.config import Settings
    from kb.search import open_index

    settings = Settings(home=tmp_path_factory.mktemp("search") / "_kb", corpus=tuple(SMALL_CORPUS))
    make_small_kb(settings)
    index = open_index(settings.index_dir)
    yield index
    index.close()


def _numbers(response: dict[str, Any]) -> list[str | None]:
    return [r.get("number") for r in response["results"]]


# --- rule-number jumps -------------------------------------------------------------------------


def test_rule_number_jumps_to_the_rule_then_its_subrules(small_index: Any) -> None:
    response = small_index.search("701.54")
    assert response["jump"]["numbers"] == ["701.54"]
    assert response["jump"]["url"] == "/en/rules/701.54.html"
    # 701.54e exists only in the Spanish rule page (the made-up English edition stops at d).
    assert _numbers(response) == ["701.54", "701.54a", "701.54b", "701.54c", "701.54d", "701.54e"]
    assert {r["edition"] for r in response["results"]} == {NEWEST}
    assert response["results"][-1]["language"] == "es"


def test_range_jump(small_index: Any) -> None:
    response = small_index.search("701.54a–c")
    assert _numbers(response) == ["701.54a", "701.54b", "701.54c"]
    assert small_index.search("rule 701.54b")["results"][0]["number"] == "701.54b"


def test_jump_in_an_older_edition_has_no_site_link(small_index: Any) -> None:
    response = small_index.search(f"701.38a edition:{OLDER}")
    (result,) = response["results"]
    assert result["edition"] == OLDER and "ballot" in result["snippet"]
    assert result["url"] is None


def test_jump_in_spanish_shows_the_translation(small_index: Any) -> None:
    response = small_index.search("701.54a", lang="es")
    result = response["results"][0]
    assert result["language"] == "es"
    assert "Anillo" in result["snippet"]
    assert result["original"]["language"] == "en"
    assert result["url"] == "/es/rules/701.54.html#701.54a"


def test_a_number_no_edition_has_falls_back_to_text(small_index: Any) -> None:
    response = small_index.search("701.99")
    assert response["jump"] is None
    assert response["results"] == []


# --- ranking and text ----------------------------------------------------------------------------


def test_keywords_find_the_rule(small_index: Any) -> None:
    top = small_index.search("ring tempts you")["results"][0]
    assert top["type"] == "rule" and top["number"].startswith("701.54")
    assert "<mark>" in top["snippet_html"] or top["number"] == "701.54"


def test_typographic_apostrophe_matches_a_straight_one(small_index: Any) -> None:
    response = small_index.search('"doesn\'t abstain"')
    assert _numbers(response)[0] == "701.38b"
    assert "doesn’t" in response["results"][0]["snippet"]


def test_highlighting_marks_stemmed_matches(small_index: Any) -> None:
    results = small_index.search("tempted", types="rule")["results"]
    section = next(r for r in results if r["number"] == "701.54")  # searched with its subrules
    assert section["snippet_html"] == "The Ring <mark>Tempts</mark> You"
    subrule = next(r for r in results if r["number"] == "701.54a")
    assert "<mark>tempts</mark>" in subrule["snippet_html"]
    assert ["tempts", True] in subrule["highlights"]


def test_snippets_escape_html_and_centre_on_matches() -> None:
    from kb.search import highlight
    from kb.search.analysis import text_analyzer

    analyzer = text_analyzer("en")
    segments = highlight.snippet(analyzer, "a <b>vote</b> & more", {"vote"})
    assert highlight.as_html(segments) == "a &lt;b&gt;<mark>vote</mark>&lt;/b&gt; &amp; more"
    assert highlight.as_markup(segments).count("[bold yellow]vote[/bold yellow]") == 1
    long_text = "filler " * 80 + "the vote is tied " + "filler " * 80
    segments = highlight.snippet(analyzer, long_text, {"vote", "tie"})
    text = highlight.as_text(segments)
    assert text.startswith("…") and text.endswith("…") and "vote is tied" in text
    assert len(text) <= highlight.WINDOW + 2


def test_results_carry_links_badges_and_editions(small_index: Any) -> None:
    card = small_index.search("Test Saga", types="card")["results"][0]
    assert card["url"] == "/en/cards/aaaaaaaa-0000-0000-0000-000000000001.html"
    assert card["card"]["name"] == "Test Saga" and card["badge"] == "official"
    assert card["sets"] == ["TST"]
    glossary = small_index.search("blight", types="glossary")["results"][0]
    assert glossary["url"] == "/en/glossary.html#blight"
    assert glossary["edition"] == NEWEST
    ruling = small_index.search("abstain", types="ruling")["results"][0]
    assert ruling["url"].startswith("/en/cards/") and ruling["date"] == "2023-06-16"
    assert ruling["source"] == "wotc"


def test_card_name_in_any_language_finds_the_card_and_its_rulings(small_index: Any) -> None:
    for name in ("La saga d'essai", "La saga de prueba", "Test Saga"):
        results = small_index.search(name)["results"]
        assert results[0]["type"] == "card" and results[0]["card"]["name"] == "Test Saga", name
        assert any(r["type"] == "ruling" for r in results), name
    french = small_index.search("saga d'essai", lang="fr")["results"][0]
    assert french["title"] == "La saga d'essai" and french["language"] == "fr"
    assert french["url"] == "/fr/cards/aaaaaaaa-0000-0000-0000-000000000001.html"


def test_accents_are_optional(small_index: Any) -> None:
    with_accent = small_index.search("Face arrière", lang="fr")["results"]
    without = small_index.search("face arriere", lang="fr")["results"]
    assert with_accent and [r["key"] for r in with_accent] == [r["key"] for r in without]


def test_spanish_query_finds_the_english_original_of_a_translation(small_index: Any) -> None:
    result = small_index.search("abstenerse", lang="es")["results"][0]
    assert result["type"] == "ruling"
    assert result["matched_languages"] == ["es"]
    assert result["language"] == "es" and result["badge"] == "machine translation"
    assert "abstenerse" in result["snippet"]
    assert "abstain" in result["original"]["snippet"]


def test_spanish_query_reaches_english_rules_through_the_bridge(small_index: Any) -> None:
    result = small_index.search("voto empate", lang="es")["results"][0]
    assert result["number"] in ("701.38", "701.38c")  # the section, or the subrule on ties
    assert result["matched_languages"] == ["en"] and result["language"] == "en"
    assert (
        result["url"]
        == {
            "701.38": "/es/rules/701.38.html",
            "701.38c": "/es/rules/701.38.html#701.38c",
        }[result["number"]]
    )


def test_words_missing_together_give_partial_results(small_index: Any) -> None:
    response = small_index.search("tempts banana")
    assert response["relaxed"] is True
    assert response["results"] and all(r.get("partial") for r in response["results"])


# --- filters ---------------------------------------------------------------------------------


def test_the_default_filter_counted_at_build_is_the_one_postings_give(small_index: Any) -> None:
    from kb.search.query import QueryContext, default_filter

    context = QueryContext(lang="en", editions=small_index.editions)
    scoped = small_index._scope(context)
    assert scoped is not None and 0 < len(scoped.docs) < small_index.searcher.doc_count_all()
    postings = small_index.searcher.docs_for_query(default_filter(context, None))
    assert scoped.docs == set(postings)
    older = QueryContext(lang="en", editions=small_index.editions[:-1])
    assert small_index._scope(older) is None  # another edition: read from the postings


def test_newest_edition_by_default(small_index: Any) -> None:
    assert small_index.search("ballot")["results"] == []  # only the older edition says it
    older = small_index.search(f"ballot edition:{OLDER}")["results"]
    assert {r["number"] for r in older} == {"701.38", "701.38a"}
    every = small_index.search("ballot edition:all")
    assert {r["edition"] for r in every["results"]} == {OLDER}
    # edition:all only lifts the default: the words still have to match (in a relaxed pass too)
    assert every["total"] == 2 and not every["relaxed"]
    assert {r["number"] for r in every["results"]} == {"701.38", "701.38a"}
    some = small_index.search("ballot zzyzx edition:all")
    assert some["total"] == 0 and {r["number"] for r in some["results"]} == {"701.38", "701.38a"}


@pytest.mark.parametrize(
    ("query", "check"),
    [
        ("vote type:ruling", lambda r: r["type"] == "ruling"),
        ("saga type:card", lambda r: r["type"] == "card"),
        ("lang:es", lambda r: "es" in r["languages"]),
        ("provenance:machine", lambda r: r["type"] == "ruling"),
        ("source:scryfall", lambda r: r["source"] == "scryfall"),
        ("date:2021 type:ruling", lambda r: r["date"].startswith("2021")),
        ("set:tst", lambda r: "TST" in r["sets"]),
        ('card:"Test Saga"', lambda r: r["type"] == "card" or "Test Saga" in str(r["cards"])),
        ("rule:701.38b", lambda r: r["number"] == "701.38b"),
    ],
)
def test_filters(small_index: Any, query: str, check: Any) -> None:
    results = small_index.search(query, limit=50)["results"]
    assert results, query
    assert all(check(r) for r in results), query


def test_filter_combinations_exclude(small_index: Any) -> None:
    assert small_index.search("source:scryfall date:2023")["results"] == []
    assert small_index.search("lang:fr type:ruling")["results"] == []
    not_tst = small_index.search("saga -set:tst type:card")["results"]
    assert all("TST" not in r["sets"] for r in not_tst)


def test_type_parameter_restricts(small_index: Any) -> None:
    results = small_index.search("vote", types="glossary,rule", limit=50)["results"]
    assert results and {r["type"] for r in results} <= {"glossary", "rule"}


# --- did-you-mean and fuzziness ------------------------------------------------------------------


def test_did_you_mean(small_index: Any) -> None:
    response = small_index.search("rign tempts")
    assert response["did_you_mean"] == "ring tempts"


def test_nothing_found_shows_the_correction(small_index: Any) -> None:
    response = small_index.search("tempst rign")
    assert response["showing"] in ("tempt ring", "tempts ring")
    assert response["results"][0]["number"].startswith("701.54")


def test_no_suggestion_for_known_or_unknowable_words(small_index: Any) -> None:
    assert small_index.search("ring tempts")["did_you_mean"] is None
    response = small_index.search("zzqxv")
    assert response["results"] == [] and response["did_you_mean"] is None


def test_fuzzy_matching_on_request(small_index: Any) -> None:
    plain = small_index.search("tempst", types="rule")
    assert plain["showing"] in ("tempt", "tempts")  # found only through the correction
    fuzzy = small_index.search("tempst", types="rule", fuzzy=True)
    assert fuzzy["showing"] is None
    assert fuzzy["results"][0]["number"].startswith("701.54")


# --- bad requests --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"text": "  "}, "the query is empty"),
        ({"text": "the of"}, "only common words"),
        ({"text": "vote", "limit": 0}, "limit must be between 1 and 100"),
        ({"text": "vote", "lang": "de"}, "unsupported language"),
        ({"text": "vote", "types": "spell"}, "unknown type"),
        ({"text": "x" * 501}, "too long"),
        ({"text": "type:spell"}, "unknown type"),
    ],
)
def test_bad_requests_are_query_errors(
    small_index: Any, kwargs: dict[str, Any], message: str
) -> None:
    text = kwargs.pop("text")
    with pytest.raises(QueryError, match=message):
        small_index.search(text, **kwargs)


# --- building and updating ----------------------------------------------------------------------


def test_ingest_keeps_the_index_in_step(settings: Any, tmp_path: Path) -> None:
    from kb import pipeline
    from kb.search import open_index, update_index

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    edition = corpus / "cr_2025.txt"
    shutil.copy(DATA / "search" / "cr_2025.txt", edition)
    make_small_kb(settings, [edition, ROOT / "corpus"])
    with open_index(settings.index_dir) as index:
        assert index.search("abstain")["results"]
        assert not index.search("hesitate")["results"]

    edition.write_text(
        edition.read_text(encoding="utf-8").replace("doesn’t abstain", "doesn’t hesitate"),
        encoding="utf-8",
    )
    pipeline.ingest(settings, [edition])  # the ingest updates the index by itself
    with open_index(settings.index_dir) as index:
        hits = index.search("hesitate")["results"]
        assert {h["number"] for h in hits} == {"701.38", "701.38b"}
        assert not index.search("abstain type:rule")["results"]

    db = pipeline.open_db(settings, create=False)
    try:
        assert update_index(db, settings.index_dir).written == 0  # nothing left to do
    finally:
        db.dispose()


def test_update_rewrites_only_what_changed(settings: Any, tmp_path: Path) -> None:
    from kb import pipeline
    from kb.ingest import ingest_paths
    from kb.search import update_index

    edition = tmp_path / "cr_2025.txt"
    shutil.copy(DATA / "search" / "cr_2025.txt", edition)
    make_small_kb(settings, [edition, DATA / "mtgjson" / "mini.json"])
    edition.write_text(
        edition.read_text(encoding="utf-8").replace("It isn’t copiable.", "It can’t be copied."),
        encoding="utf-8",
    )
    db = pipeline.open_db(settings, create=False)
    try:
        ingest_paths(db, [edition])  # straight to the database: the index is now behind
        report = update_index(db, settings.index_dir, [str(edition)])
        assert report.full is False
        assert report.written == 2  # 701.54b, and 701.54 that indexes its subrules' text
        assert report.removed == 0
        assert report.items > 20
    finally:
        db.dispose()


def test_removed_documents_leave_the_index(settings: Any) -> None:
    from kb import pipeline
    from kb.ingest import document_key, forget_documents
    from kb.search import open_index, update_index

    make_small_kb(settings)
    db = pipeline.open_db(settings, create=False)
    try:
        forget_documents(db, [document_key(DATA / "search" / "cr_2024.txt")])
        report = update_index(db, settings.index_dir)
        # Only the texts the edition alone held go: the others are items of the newer one too.
        assert report.removed > 0
    finally:
        db.dispose()
    with open_index(settings.index_dir) as index:
        assert index.editions == [NEWEST]
        with pytest.raises(QueryError, match="no such edition"):
            index.search(f"vote edition:{OLDER}")


def test_rebuild_swaps_the_folder_atomically(settings: Any) -> None:
    from kb import pipeline
    from kb.search import open_index

    make_small_kb(settings)
    with open_index(settings.index_dir) as index:
        first_build = index.build
        report = pipeline.index(settings, rebuild=True)
        assert report.full and report.items == report.written
        index.refresh()  # a server notices the new manifest and reopens
        assert index.build != first_build
        assert index.search("701.54")["results"]
    siblings = sorted(p.name for p in settings.index_dir.parent.iterdir())
    assert "index.new" not in siblings and "index.old" not in siblings


def test_a_search_under_way_keeps_its_generations_editions_and_counts(settings: Any) -> None:
    """A reopen by another thread (a server's refresh after an ingest) publishes the new index's
    editions and counts with its readers: a search already under way keeps its own."""
    import threading

    from kb import pipeline
    from kb.search import open_index

    make_small_kb(settings)
    with open_index(settings.index_dir) as index:
        index._local.pinned = index._thread_readers()  # as ``search`` does, for its whole length
        before = (index.build, index.editions, index._doc_count, index._vocabulary)
        pipeline.index(settings, rebuild=True)
        reopened = threading.Thread(target=index.refresh)
        reopened.start()
        reopened.join()
        seen: list[Any] = []
        other = threading.Thread(target=lambda: seen.append(index.build))
        other.start()
        other.join()
        assert seen[0] != before[0]  # the new generation is published to other threads...
        assert (index.build, index.editions, index._doc_count, index._vocabulary) == before
        index._local.pinned = None  # ...and this thread's next search reads it
        assert index.build == seen[0]
        assert index.search("701.54")["results"]


def test_searches_take_a_set_of_readers_no_other_search_uses(settings: Any) -> None:
    """A server's index (``reader_sets``): a search in any thread takes one of the sets for its
    length; two at once read different sets, a third waits for one, and a rebuild renews them."""
    import threading

    from kb import pipeline
    from kb.search import SearchIndex

    make_small_kb(settings)
    index = SearchIndex(settings.index_dir, reader_sets=2)
    inside: list[Any] = []  # the set each search read, while it was inside
    entered = threading.Semaphore(0)
    leave = threading.Event()
    real = index._search

    def held(*args: Any, **options: Any) -> Any:
        inside.append(index._local.pinned)
        entered.release()
        leave.wait(60)
        return real(*args, **options)

    index._search = held  # type: ignore[method-assign]
    try:
        threads = [threading.Thread(target=index.search, args=("vote",)) for _ in range(3)]
        for thread in threads:
            thread.start()
        entered.acquire()
        entered.acquire()
        assert len(inside) == 2 and inside[0] is not inside[1]
        assert index._sets is not None and not index._sets._slots.acquire(blocking=False)
        assert len(inside) == 2  # the third search waits for a set...
        leave.set()
        for thread in threads:
            thread.join()
        assert len(inside) == 3 and inside[2] in inside[:2]  # ...and reads one given back
    finally:
        index._search = real  # type: ignore[method-assign]
    first = index._sets.open_sets()
    assert len(first) == 2 and not index._readers  # no thread has readers of its own
    pipeline.index(settings, rebuild=True)
    index.refresh()
    assert index.search("701.54")["results"]
    renewed = index._sets.open_sets()  # one set of the new generation; the old ones closed
    assert len(renewed) == 1 and renewed[0] not in first
    assert renewed[0].generation == index._generation
    assert all(readers.searcher.is_closed for readers in first)
    index.close()


def test_no_index_and_old_index_are_clear_errors(settings: Any) -> None:
    from kb import pipeline
    from kb.search import open_index
    from kb.search.indexer import MANIFEST

    with pytest.raises(KbError, match=r"no search index .* run `kb index`"):
        open_index(settings.index_dir)
    pipeline.ingest(settings, [ROOT / "corpus"])
    with open_index(settings.index_dir) as index:  # an ingest builds the index when there is none
        assert index.search("vote")["results"]
    pipeline.index(settings)
    manifest = settings.index_dir / MANIFEST
    manifest.write_text(re.sub(r'"schema": \d+', '"schema": 0', manifest.read_text()))
    with pytest.raises(KbError, match="another version of kb"):
        open_index(settings.index_dir)
    assert pipeline.index(settings).full  # an update of an old index rebuilds it
    with open_index(settings.index_dir) as index:
        assert index.search("vote")["results"]
    # An index analysed by another kb's languages (a stop word, a bridge's word, a keyword's
    # name changed; the schema the same) holds other terms than this kb's queries look for.
    manifest.write_text(re.sub(r'"analysis": "\w+"', '"analysis": "0"', manifest.read_text()))
    with pytest.raises(KbError, match="another version of kb"):
        open_index(settings.index_dir)
    assert pipeline.index(settings).full
    with open_index(settings.index_dir) as index:
        assert index.search("vote")["results"]


def test_identical_texts_of_several_editions_are_one_item(settings: Any) -> None:
    """One item per distinct text, with the editions that hold it; edition: still finds it."""
    from kb import pipeline
    from kb.search import open_index
    from kb.search.analysis import sentence_masks, text_analyzer
    from kb.search.indexer import all_items

    make_small_kb(settings)
    db = pipeline.open_db(settings, create=False)
    try:
        items = list(all_items(db))
    finally:
        db.dispose()
    rules = [i for i in items if i["type"] == "rule"]
    shared = [i for i in rules if i["edition"] == f"{NEWEST} {OLDER}"]
    assert shared and len({i["key"] for i in rules}) == len(rules)
    # each rule with an English text keeps its sentences' terms (a question weighs them)
    english = text_analyzer("en")
    for item in rules:
        body = item["data"]["texts"].get("en", {}).get("text")
        assert item["data"].get("sentences") == (sentence_masks(english, body) if body else None)
    assert all(i["key"].startswith(f"rule:{NEWEST}:") for i in shared)
    with open_index(settings.index_dir) as index:
        number = shared[0]["number"]
        for edition in (NEWEST, OLDER):
            hits = index.search(f"{number} edition:{edition}")["results"]
            assert hits and hits[0]["number"] == number, edition
            assert hits[0]["editions"] == [NEWEST, OLDER]


def test_a_language_with_no_words_suggests_nothing_instead_of_failing(tmp_path: Path) -> None:
    """An index whose texts hold no word of a language (cards only, none translated)."""
    import json

    from kb.search.spelling import WORDS_FILE, Vocabulary

    (tmp_path / WORDS_FILE).write_text(
        json.dumps({"en": {"deathtouch": 3}, "fr": {}, "es": {}}), encoding="utf-8"
    )
    vocabulary = Vocabulary(tmp_path)
    assert vocabulary.suggest("contct", ["fr", "en"]) is None
    assert vocabulary.suggest("deathtuch", ["es", "en"]) == "deathtouch"


def test_index_in_step_builds_no_item_and_rebuild_builds_them_all(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kb index`` trusts the database's in-step mark, as an ingest does: nothing is built or
    compared. ``--rebuild`` builds every item; a mark out of step brings the update back."""
    from kb import pipeline
    from kb.db import mark_derived
    from kb.search import indexer

    make_small_kb(settings)
    real = indexer.all_items
    built: list[int] = []

    def counted(db: Any) -> Any:
        built.append(1)
        return real(db)

    monkeypatch.setattr(indexer, "all_items", counted)
    manifest = indexer.read_manifest(settings.index_dir)
    report = pipeline.index(settings)
    assert not built and not report.full and (report.written, report.removed) == (0, 0)
    assert report.items == manifest["items"] > 50
    assert indexer.read_manifest(settings.index_dir) == manifest  # the index was not touched

    report = pipeline.index(settings, rebuild=True)
    assert built and report.full and report.items == manifest["items"]

    built.clear()
    db = pipeline.open_db(settings, create=False)
    try:
        with db.session() as session, session.begin():
            mark_derived(session, "index", inputs="")  # as a run killed before the index
    finally:
        db.dispose()
    report = pipeline.index(settings)
    assert built and not report.full and report.written == 0
    built.clear()
    assert pipeline.index(settings).items == report.items and not built  # in step again


def test_the_fast_text_fields_index_what_whooshs_own_would(
    settings: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An index built with kb's text fields (kb.search.analysis.PositionalText) and one built
    with Whoosh's TEXT hold the same postings, weights and field lengths, and answer the same."""
    from whoosh import index as whoosh_index
    from whoosh.fields import TEXT

    from kb import pipeline
    from kb.search import analysis, open_index
    from kb.search.schema import INDEX_NAME

    make_small_kb(settings)
    ours = settings.index_dir
    whooshs = tmp_path / "whoosh-index"
    monkeypatch.setattr(analysis, "PositionalText", TEXT)
    db = pipeline.open_db(settings, create=False)
    try:
        from kb.search import build_index

        build_index(db, whooshs)
    finally:
        db.dispose()
    monkeypatch.undo()

    def content(folder: Path) -> list[Any]:
        ix = whoosh_index.open_dir(str(folder), indexname=INDEX_NAME)
        with ix.searcher() as searcher:
            reader = searcher.reader()
            found: list[Any] = [reader.doc_count(), reader.field_length("text_en")]
            for name in sorted(reader.indexed_field_names()):
                for term in reader.lexicon(name):
                    postings = reader.postings(name, term)
                    while postings.is_active():
                        found.append(
                            (name, term, postings.id(), postings.weight(), postings.value())
                        )
                        postings.next()
            for docnum in reader.all_doc_ids():
                found.append([reader.doc_field_length(docnum, f) for f in ("text_en", "card")])
        ix.close()
        return found

    assert content(ours) == content(whooshs)
    with open_index(ours) as a, open_index(whooshs) as b:
        for query in ("vote", "ring tempts you", "voto empate", "compteur de lore", "trickster"):
            assert a.search(query) == b.search(query)

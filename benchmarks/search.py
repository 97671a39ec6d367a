"""Search speed and relevance on the real corpus, Whoosh and SQLite FTS5 side by side.

Usage: python benchmarks/search.py [--corpus ../shared/corpus] [--rounds 5] [--keep DIR]

Prints, in one run on the same documents and queries:
- the time to build the Whoosh index of the whole real corpus (seeds + ../shared/corpus);
- the time of an update when nothing changed, and after one rulings page changed (the searches
  below run on that updated index: two segments, one with deleted documents);
- warm-searcher latency (median, p95) over the evaluation queries, at two levels, each beside
  SQLite FTS5 on an in-memory table of the same items (rows in the index's order), with the
  same newest-edition restriction and ``bm25`` ranking:
  * engine: the first pass of ``kb search`` (``SearchIndex.rank``: the query parsed, every word
    required, the newest edition, the top 10 by BM25F and the count) against FTS5 (every word
    required, the newest edition, the top 10 by ``bm25`` and the count). kb ranks word queries
    with its term engine (kb/search/engine.py), which reads Whoosh's posting lists a block at a
    time and gives the documents, scores and order of Whoosh's own matchers (checked below and
    by the tests); other queries go through Whoosh's matchers. Timed twice: the two engines
    taking turns query by query (the target's measure: each runs after the other, as in a
    process that does more than search), then each on its own, every query in a row (warm CPU
    caches, which favour FTS5's C code). For reference, the same parsed queries run through
    Whoosh's own matchers (``Searcher.search``), taking turns with FTS5 in a separate pass;
  * end to end: ``SearchIndex.search`` as ``kb search`` and the API run it (partial matches,
    did-you-mean, results with highlighted snippets) against FTS5 adding ``snippet()``, taking
    turns;
  wall-clock time, and the process's CPU time (what the machine's other load cannot inflate);
- a cold ``kb search`` in a new process (open the index, one query, print);
- MRR, hit@1 and hit@5 per language over tests/data/search_eval.tsv.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
EVAL_SET = ROOT / "tests" / "data" / "search_eval.tsv"
TARGETS = {"median_ms": 5.0, "p95_ms": 25.0, "ratio": 4.0, "build_s": 30.0, "cold_s": 1.0}


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def build_fts(items: list[dict[str, Any]]) -> sqlite3.Connection:
    """An in-memory FTS5 table of the same items: titles, texts and card names, all languages.

    The rows go in the order the Whoosh index numbers its documents (the newest edition's
    first), so that neither engine has its documents in a friendlier order.
    """
    con = sqlite3.connect(":memory:")
    con.execute(
        "CREATE VIRTUAL TABLE items USING fts5(key UNINDEXED, edition UNINDEXED, title, body,"
        " card, tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    rows = []
    for item in items:
        title = " ".join(item.get(f"title_{lang}", "") for lang in ("en", "fr", "es"))
        body = " ".join(item.get(f"body_{lang}", "") for lang in ("en", "fr", "es"))
        rows.append((item["key"], item.get("edition", ""), title, body, item.get("card", "")))
    con.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?)", rows)
    con.commit()
    return con


def fts_query(text: str) -> str:
    """The words of a query as an FTS5 expression (each word quoted, all required)."""
    return " ".join(f'"{w}"' for w in re.findall(r"\w+(?:\.\w+)*", text))


def fts_search(con: sqlite3.Connection, text: str, newest: str) -> tuple[list[Any], int]:
    match = fts_query(text)
    where = "items MATCH ? AND (edition = ? OR edition = '')"
    rows = con.execute(
        "SELECT key, snippet(items, 3, '<mark>', '</mark>', '…', 32), bm25(items, 3.0, 1.0, 2.5)"
        f" AS score FROM items WHERE {where} ORDER BY score LIMIT 10",
        (match, newest),
    ).fetchall()
    (count,) = con.execute(f"SELECT count(*) FROM items WHERE {where}", (match, newest)).fetchone()
    return rows, count


def time_turns(runs: list[Any], queries: list[Any], rounds: int) -> list[dict[str, list[float]]]:
    """Milliseconds (wall and CPU) per call of searches taking turns on every query."""
    for q in queries:  # warm-up round
        for run in runs:
            run(q)
    times: list[dict[str, list[float]]] = [{"wall": [], "cpu": []} for _ in runs]
    for _ in range(rounds):
        for q in queries:
            for run, timing in zip(runs, times, strict=True):
                wall, cpu = time.perf_counter(), time.process_time()
                run(q)
                timing["wall"].append((time.perf_counter() - wall) * 1000)
                timing["cpu"].append((time.process_time() - cpu) * 1000)
    return times


def kb_engine(index: Any, keys: Any, q: Any) -> tuple[list[str], int]:
    """The first pass of ``kb search`` for ``q``: top 10 keys and the count."""
    ranking = index.rank(q.query, lang=q.lang, limit=10)
    return [keys[hit.docnum] for hit in ranking], len(ranking)


def whoosh_matchers(index: Any, keys: Any, q: Any) -> tuple[list[str], int]:
    """The same query and filter through Whoosh's own matchers (for reference)."""
    from kb.search.engine import as_set
    from kb.search.query import QueryContext, parse

    context = QueryContext(lang=q.lang, editions=index.editions)
    parsed = parse(index.schema, q.query, context)
    allowed = as_set(index._filter(context, None))
    results = index.searcher.search(parsed, limit=10, filter=allowed, optimize=False)
    return [keys[docnum] for _, docnum in results.top_n], len(results)


def engine_share(index: Any, queries: list[Any]) -> int:
    """How many of the queries kb's term engine ranks (the others go through Whoosh)."""
    from kb.search.engine import plan_query
    from kb.search.query import QueryContext, parse

    return sum(
        plan_query(parse(index.schema, q.query, QueryContext(q.lang, index.editions))) is not None
        for q in queries
    )


def fts_engine(con: sqlite3.Connection, text: str, newest: str) -> tuple[list[str], int]:
    match = fts_query(text)
    where = "items MATCH ? AND (edition = ? OR edition = '')"
    keys = [
        key
        for (key,) in con.execute(
            f"SELECT key FROM items WHERE {where} ORDER BY bm25(items, 3.0, 1.0, 2.5) LIMIT 10",
            (match, newest),
        )
    ]
    (count,) = con.execute(f"SELECT count(*) FROM items WHERE {where}", (match, newest)).fetchone()
    return keys, count


def summary(name: str, times: dict[str, list[float]]) -> tuple[float, float]:
    """Print median and p95 (wall, then CPU); return the wall median and p95."""
    wall, cpu = times["wall"], times["cpu"]
    median, p95 = statistics.median(wall), percentile(wall, 0.95)
    print(
        f"    {name:<20} median {median:6.3f} ms  p95 {p95:6.3f} ms"
        f"   (CPU: median {statistics.median(cpu):6.3f} ms, p95 {percentile(cpu, 0.95):6.3f})"
    )
    return statistics.median(wall), percentile(wall, 0.95)


def cold_search(home: Path, runs: int = 5) -> list[float]:
    """Seconds of ``kb search`` in a fresh process, ``runs`` times."""
    times = []
    env = dict(os.environ, KB_HOME=str(home))
    env.pop("KB_DATABASE_URL", None)
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "kb", "--home", str(home), "search", "ring tempts you"],
            check=True,
            capture_output=True,
            cwd=ROOT,
            env=env,
        )
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="Keep the data folder here (default: a temp dir)")
    args = parser.parse_args()

    from kb import pipeline
    from kb.config import Settings
    from kb.ingest import ingest_paths
    from kb.search import build_index, open_index, update_index
    from kb.search.evaluation import evaluate, load_queries
    from kb.search.indexer import all_items, index_order

    work = Path(tempfile.mkdtemp(prefix="kb-search-bench-"))
    home = args.keep or work / "_kb"
    seeds = work / "seeds"
    shutil.copytree(ROOT / "corpus", seeds)  # a copy, so that one page can be changed below
    settings = Settings(home=home, corpus=(seeds, args.corpus))
    report = pipeline.ingest(settings, [seeds, args.corpus])
    if report.failed:
        sys.exit(f"ingest failed: {report.failed}")
    db = pipeline.open_db(settings, create=False)
    queries = load_queries(EVAL_SET)
    try:
        built = build_index(db, settings.index_dir)
        print(f"corpus: seeds + {args.corpus} ({report.files} documents, {built.items} items)")
        print(f"index build (whole corpus):         {built.seconds:7.2f} s")
        nothing = update_index(db, settings.index_dir)
        print(
            f"update, nothing changed:            {nothing.seconds:7.2f} s"
            f" ({nothing.written} items rewritten)"
        )
        page = sorted(seeds.glob("003_*.txt"))[0]
        page.write_text(
            page.read_text(encoding="utf-8").replace("either target", "either chosen target"),
            encoding="utf-8",
        )
        ingest_paths(db, [page])
        one = update_index(db, settings.index_dir, [str(page)])
        print(
            f"update, one rulings page changed:   {one.seconds:7.2f} s"
            f" ({one.written} items rewritten of {one.items})"
        )

        with open_index(settings.index_dir) as index:
            newest = index.editions[-1]
            con = build_fts(index_order(list(all_items(db))))  # rows in the index's order
            keys = index.searcher.reader().column_reader("key")
            # The top 10 and the count from kb and from Whoosh's matchers (the tests check it too).
            same = sum(
                kb_engine(index, keys, q) == whoosh_matchers(index, keys, q) for q in queries
            )
            kb_run = lambda q: kb_engine(index, keys, q)  # noqa: E731
            fts_run = lambda q: fts_engine(con, q.query, newest)  # noqa: E731
            engine, fts = time_turns([kb_run, fts_run], queries, args.rounds)
            (engine_alone,) = time_turns([kb_run], queries, args.rounds)
            (fts_alone,) = time_turns([fts_run], queries, args.rounds)
            matchers, fts_beside = time_turns(
                [lambda q: whoosh_matchers(index, keys, q), fts_run], queries, args.rounds
            )
            served = engine_share(index, queries)
            end_to_end, fts_snippets = time_turns(
                [
                    lambda q: index.search(q.query, lang=q.lang),
                    lambda q: fts_search(con, q.query, newest),
                ],
                queries,
                args.rounds,
            )
            relevance = evaluate(index, queries)
    finally:
        db.dispose()

    print(f"\nwarm latency over {len(queries)} queries x {args.rounds} rounds (wall-clock):")
    print(" engine: every word required, newest edition, top 10 by BM25 and the count")
    print("  taking turns query by query (the target's measure):")
    w_med, _ = summary("Whoosh (kb)", engine)
    f_med, _ = summary("SQLite FTS5", fts)
    ratio = w_med / f_med if f_med else float("inf")
    print(f"    Whoosh (kb) / FTS5 median: {ratio:.2f}x")
    print(
        f"    (kb's term engine ranked {served} of the {len(queries)} queries, Whoosh's matchers"
        f" the others; the same top 10 and count as Whoosh's matchers for {same})"
    )
    print("  each on its own, every query in a row (warm caches favour FTS5's C code):")
    a_med, _ = summary("Whoosh (kb)", engine_alone)
    b_med, _ = summary("SQLite FTS5", fts_alone)
    print(f"    Whoosh (kb) / FTS5 median: {a_med / b_med if b_med else float('inf'):.2f}x")
    print("  reference: Whoosh's own matchers on the same parsed queries, taking turns with FTS5:")
    m_med, _ = summary("Whoosh matchers", matchers)
    fb_med, _ = summary("SQLite FTS5", fts_beside)
    print(f"    Whoosh's matchers / FTS5 median: {m_med / fb_med if fb_med else float('inf'):.2f}x")
    print(" end to end: kb search (results with snippets, partial matches, did-you-mean)")
    print("  taking turns query by query:")
    e_med, e_p95 = summary("Whoosh (kb search)", end_to_end)
    s_med, _ = summary("FTS5 with snippet()", fts_snippets)
    print(f"    Whoosh / FTS5 median: {e_med / s_med if s_med else float('inf'):.2f}x")

    cold = cold_search(home)
    print(
        f"\ncold `kb search` (new process): first {cold[0]:.2f} s, median "
        f"{statistics.median(cold):.2f} s, max {max(cold):.2f} s over {len(cold)} runs"
    )

    print("\nrelevance (tests/data/search_eval.tsv):")
    print(f"  {'lang':<5} {'queries':>7} {'MRR':>6} {'hit@1':>6} {'hit@5':>6}")
    for lang in ("en", "fr", "es", "all"):
        row = relevance["languages"][lang]
        print(
            f"  {lang:<5} {row['queries']:>7} {row['mrr']:>6.3f} {row['hit@1']:>6.3f}"
            f" {row['hit@5']:>6.3f}"
        )
    missed = [q for q in relevance["queries"] if q["rank"] != 1]
    if missed:
        print("  not first:")
        for q in missed:
            print(f"    [{q['lang']}] {q['query']!r}: expected {q['expected']} at {q['rank']}")

    checks = [
        ("index build < 30 s", built.seconds < TARGETS["build_s"]),
        ("kb search median < 5 ms", e_med < TARGETS["median_ms"]),
        ("kb search p95 < 25 ms", e_p95 < TARGETS["p95_ms"]),
        ("Whoosh (kb) engine median <= 4x FTS5", ratio <= TARGETS["ratio"]),
        ("cold kb search < 1 s", statistics.median(cold) < TARGETS["cold_s"]),
    ]
    print("\ntargets: " + ", ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in checks))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Search speed and relevance on the real corpus, Whoosh and SQLite FTS5 side by side.

Usage: python benchmarks/search.py [--corpus ../shared/corpus] [--rounds 5] [--keep DIR]

Prints, in one run on the same documents and queries:
- the time to build the Whoosh index of the whole real corpus (seeds + ../shared/corpus);
- the time of an update when nothing changed, and after one rulings page changed;
- warm-searcher latency (median, p95) over the evaluation queries, at two levels, each beside
  SQLite FTS5 on an in-memory table of the same items, with the same newest-edition restriction
  and ``bm25`` ranking, the two engines taking turns query by query:
  * engine: kb's query parsed and run by Whoosh (all words required, top 10 keys and the
    count) against FTS5 (all words required, top 10 keys and the count);
  * end to end: ``SearchIndex.search`` as ``kb search`` and the API run it (partial matches,
    did-you-mean, results with highlighted snippets) against FTS5 adding ``snippet()``;
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
    """An in-memory FTS5 table of the same items: titles, texts and card names, all languages."""
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


def time_pairs(
    first: Any, second: Any, queries: list[Any], rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Milliseconds (wall and CPU) per call of two searches taking turns on every query."""
    for q in queries:  # warm-up round
        first(q)
        second(q)
    times: dict[str, dict[str, list[float]]] = {
        "first": {"wall": [], "cpu": []},
        "second": {"wall": [], "cpu": []},
    }
    for _ in range(rounds):
        for q in queries:
            for name, run in (("first", first), ("second", second)):
                wall, cpu = time.perf_counter(), time.process_time()
                run(q)
                times[name]["wall"].append((time.perf_counter() - wall) * 1000)
                times[name]["cpu"].append((time.process_time() - cpu) * 1000)
    return times["first"], times["second"]


def whoosh_engine(index: Any, keys: Any, q: Any) -> tuple[list[str], int]:
    """kb's query for ``q`` run by Whoosh: all words required, top 10 keys and the count."""
    from kb.search.query import QueryContext, parse

    context = QueryContext(lang=q.lang, editions=index.editions)
    parsed = parse(index.schema, q.query, context)
    results = index.searcher.search(
        parsed, limit=10, filter=index._filter(context, None), optimize=False
    )
    return [keys[docnum] for _, docnum in results.top_n], len(results)


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
    print(
        f"  {name:<22} median {statistics.median(wall):6.2f} ms  p95 {percentile(wall, 0.95):6.2f}"
        f" ms   (CPU: median {statistics.median(cpu):6.2f} ms, p95 {percentile(cpu, 0.95):6.2f})"
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
    from kb.search.indexer import all_items

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
            con = build_fts(list(all_items(db)))
            keys = index.searcher.reader().column_reader("key")
            engine, fts = time_pairs(
                lambda q: whoosh_engine(index, keys, q),
                lambda q: fts_engine(con, q.query, newest),
                queries,
                args.rounds,
            )
            end_to_end, fts_snippets = time_pairs(
                lambda q: index.search(q.query, lang=q.lang),
                lambda q: fts_search(con, q.query, newest),
                queries,
                args.rounds,
            )
            relevance = evaluate(index, queries)
    finally:
        db.dispose()

    print(f"\nwarm latency over {len(queries)} queries x {args.rounds} rounds (wall-clock):")
    print(" engine: all words required, top 10 and the count")
    w_med, _ = summary("Whoosh", engine)
    f_med, _ = summary("SQLite FTS5", fts)
    ratio = w_med / f_med if f_med else float("inf")
    print(f"  Whoosh / FTS5 median: {ratio:.2f}x")
    print(" end to end: kb search (results with snippets, partial matches, did-you-mean)")
    e_med, e_p95 = summary("Whoosh (kb search)", end_to_end)
    s_med, _ = summary("FTS5 with snippet()", fts_snippets)
    print(f"  Whoosh / FTS5 median: {e_med / s_med if s_med else float('inf'):.2f}x")

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
        ("Whoosh engine median <= 4x FTS5", ratio <= TARGETS["ratio"]),
        ("cold kb search < 1 s", statistics.median(cold) < TARGETS["cold_s"]),
    ]
    print("\ntargets: " + ", ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in checks))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

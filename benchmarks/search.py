"""Search speed and relevance at two scales, kb beside SQLite FTS5 (and tantivy-py if installed).

Usage: python benchmarks/search.py [--shared ../shared/corpus] [--full ../shared/corpus-full]
       [--scales shared,full] [--rounds 3] [--keep DIR] [--full-home DIR] [--kb-only SCALES]

``--full-home`` takes a data folder where the full history is already ingested (a copy: the
benchmark rebuilds its index, timing the build, unless ``--reuse-index full``); ``--kb-only
full`` leaves FTS5 and tantivy out at that scale (building their tables from kb's analysis takes
minutes at full history).

One run, for each scale (the shared corpus; the full history of corpus-full), on the same items:
- what loads (CR editions loaded of the files given) and the index build time;
- FTS5 (and tantivy) index the very texts kb indexes (``text_en/fr/es``), each language column
  holding kb's own analysis of it (the same stems and stop words), so counts can be compared;
- for every query: each engine's count and the overlap of its top 10 with kb's; a speed ratio
  is printed only when no engine returns nothing for a query another engine answers;
- warm latency (median, p95; wall and CPU), engines taking turns query by query: the first pass
  (every word required, newest edition, top 10 and the count) and the full search (``kb
  search``: partial matches, did-you-mean, snippets), each through kb's term engine and through
  Whoosh's public API (``SearchIndex(term_engine=False)``);
- a cold ``kb search`` in a new process;
- relevance (MRR, hit@1, hit@5 per language) on the dev, dev2 to dev18 and test splits of
  tests/data/search/relevance.tsv, with and without ``--lang``, and the misses of the dev splits
  (tuning looks at those only; the test split is scored, never listed).
"""

from __future__ import annotations

import argparse
import os
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
RELEVANCE = ROOT / "tests" / "data" / "search" / "relevance.tsv"
OLD_SET = ROOT / "tests" / "data" / "search_eval.tsv"
TARGETS = {
    "shared": {"p95_ms": 5.0, "cold_s": 0.3},
    "full": {"p95_ms": 10.0, "cold_s": 0.5, "build_s": 90.0},
}
RELEVANCE_TARGETS = {"en": 0.95, "fr": 0.9, "es": 0.9, "mrr": 0.85}
LANGS = ("en", "fr", "es")


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


# --- the other engines, on kb's own analysis ----------------------------------------------------


def analysed(schema: Any, lang: str, text: str) -> str:
    """kb's terms of a text in one language, space-separated (what FTS5 and tantivy index)."""
    from kb.search.analysis import analyze
    from kb.search.schema import text_field

    return " ".join(analyze(schema[text_field(lang)].analyzer, text))


def in_newest(item: dict[str, Any], newest: str) -> bool:
    """Whether kb's default filter keeps an item: the newest edition holds it, or it has none."""
    return item.get("bound") != "edition" or newest in str(item.get("edition", "")).split()


def build_fts(items: list[dict[str, Any]], schema: Any, newest: str) -> sqlite3.Connection:
    """An in-memory FTS5 table of kb's items: one column per language of kb's analysed text.

    Rows go in the index's order (the newest edition first), so neither engine is favoured.
    """
    con = sqlite3.connect(":memory:")
    con.execute(
        "CREATE VIRTUAL TABLE items USING fts5(key UNINDEXED, edition UNINDEXED,"
        " text_en, text_fr, text_es, tokenize = 'unicode61 remove_diacritics 0')"
    )
    rows = []
    for item in items:
        texts = [analysed(schema, lang, item.get(f"text_{lang}", "")) for lang in LANGS]
        rows.append((item["key"], "newest" if in_newest(item, newest) else "older", *texts))
    con.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?)", rows)
    con.commit()
    return con


def fts_match(schema: Any, text: str, lang: str | None) -> str | None:
    """The query as FTS5 MATCH: every word required, in the languages kb searches it in."""
    from kb.search.analysis import query_terms
    from kb.search.schema import text_field

    langs = LANGS if lang is None else (lang,) if lang == "en" else (lang, "en")
    groups = []
    for word in text.split():
        options = set()
        for code in langs:
            for term in query_terms(schema[text_field(code)].analyzer, word.strip("?¿!¡,.")):
                options.add(f'text_{code} : "{term}"')
        if options:
            groups.append("(" + " OR ".join(sorted(options)) + ")")
    return " AND ".join(groups) or None


def fts_run(con: sqlite3.Connection, match: str | None, newest: str, snippets: bool) -> Any:
    """Top-10 keys and the count of an FTS5 query (with snippets when asked)."""
    if match is None:
        return [], 0
    where = "items MATCH ? AND edition = 'newest'"
    extra = ", snippet(items, 2, '<mark>', '</mark>', '…', 32)" if snippets else ""
    rows = con.execute(
        f"SELECT key{extra} FROM items WHERE {where} ORDER BY bm25(items) LIMIT 10", (match,)
    ).fetchall()
    (count,) = con.execute(f"SELECT count(*) FROM items WHERE {where}", (match,)).fetchone()
    return [row[0] for row in rows], count


def build_tantivy(items: list[dict[str, Any]], schema: Any, newest: str) -> Any | None:
    """A tantivy-py index of the same analysed texts, or None when tantivy is not installed."""
    try:
        import tantivy
    except ImportError:
        return None
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("key", stored=True, tokenizer_name="raw")
    builder.add_text_field("edition", stored=False, tokenizer_name="raw")
    for lang in LANGS:
        builder.add_text_field(f"text_{lang}", stored=False, tokenizer_name="whitespace")
    index = tantivy.Index(builder.build())
    writer = index.writer()
    for item in items:
        fields = {"key": item["key"], "edition": "newest" if in_newest(item, newest) else "older"}
        for lang in LANGS:
            fields[f"text_{lang}"] = analysed(schema, lang, item.get(f"text_{lang}", ""))
        writer.add_document(tantivy.Document(**fields))
    writer.commit()
    index.reload()
    return index


def tantivy_run(index: Any, match: str | None, newest: str) -> Any:
    """Top-10 keys and the count of the FTS5 expression, in tantivy's query language."""
    if match is None:
        return [], 0
    text = match.replace(" : ", ":")
    query = index.parse_query(f'({text}) AND edition:"newest"')
    searcher = index.searcher()
    found = searcher.search(query, 10, count=True)
    return [searcher.doc(addr)["key"][0] for _, addr in found.hits], found.count


# --- timing -------------------------------------------------------------------------------------


def time_turns(runs: dict[str, Any], queries: list[Any], rounds: int) -> dict[str, dict]:
    """Milliseconds (wall and CPU) per call, the runs taking turns on every query.

    A call the engine refuses as too broad (over kb's per-search CPU budget, which the API
    answers with 400) is timed like any other, as a user waits that long for the refusal, and
    counted: :func:`summary` prints how many there were.
    """
    from kb.search.limits import QueryTooBroad

    def call(run: Any, q: Any) -> bool:
        try:
            run(q)
        except QueryTooBroad:
            return False
        return True

    for q in queries:  # warm-up round
        for run in runs.values():
            call(run, q)
    times: dict[str, dict[str, list[float]]] = {
        n: {"wall": [], "cpu": [], "refused": []} for n in runs
    }
    for _ in range(rounds):
        for q in queries:
            for name, run in runs.items():
                wall, cpu = time.perf_counter(), time.process_time()
                answered = call(run, q)
                times[name]["wall"].append((time.perf_counter() - wall) * 1000)
                times[name]["cpu"].append((time.process_time() - cpu) * 1000)
                if not answered:
                    times[name]["refused"].append(q.query)
    return times


def summary(name: str, times: dict[str, list[float]]) -> tuple[float, float]:
    """Print median and p95 (wall, then CPU); return the wall median and p95."""
    wall, cpu = times["wall"], times["cpu"]
    median, p95 = statistics.median(wall), percentile(wall, 0.95)
    print(
        f"    {name:<24} median {median:7.3f} ms  p95 {p95:7.3f} ms"
        f"   (CPU: median {statistics.median(cpu):6.3f}, p95 {percentile(cpu, 0.95):6.3f})"
    )
    refused = times.get("refused", [])
    if refused:
        print(
            f"    {'':<24} refused as too broad: {len(refused)} of {len(wall)} calls"
            f" ({', '.join(sorted(set(refused)))}); their time is counted above"
        )
    return median, p95


def cold_search(home: Path, runs: int = 5) -> tuple[list[float], list[float]]:
    """Seconds (wall, then CPU) of ``kb search`` in a fresh process, ``runs`` times."""
    times, cpu = [], []
    env = dict(os.environ, KB_HOME=str(home))
    env.pop("KB_DATABASE_URL", None)
    # As installed, kb's modules are compiled once (pip writes their bytecode): the first run
    # writes it if the environment forbade it, and is shown apart.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for _ in range(runs):
        start, before = time.perf_counter(), os.times()
        subprocess.run(
            [sys.executable, "-m", "kb", "--home", str(home), "search", "ring tempts you"],
            check=True,
            capture_output=True,
            cwd=ROOT,
            env=env,
        )
        times.append(time.perf_counter() - start)
        after = os.times()
        cpu.append(
            after.children_user
            + after.children_system
            - before.children_user
            - before.children_system
        )
    return times, cpu


# --- one scale ----------------------------------------------------------------------------------


def prepare(name: str, home: Path, sources: list[Path], prebuilt: bool = False) -> Any:
    """Ingest the sources into ``home`` (once: a kept or prebuilt home is reused); print what
    loaded."""
    from kb import pipeline
    from kb.config import Settings
    from kb.models import Edition

    settings = Settings(home=home, corpus=tuple(sources))
    done = home / ".bench-ingested"
    if prebuilt:
        pipeline.open_db(settings, create=False).dispose()  # an older schema: `kb db upgrade` it
    elif not done.exists():
        report = pipeline.ingest(settings, sources)
        if report.failed and not report.files:
            sys.exit(f"{name}: nothing loaded: {report.failed}")
        done.write_text("ok\n", encoding="utf-8")
    db = pipeline.open_db(settings, create=False)
    with db.session() as session:
        editions = session.query(Edition).filter_by(kind="comprules", language="en").count()
    files = sum(len(list((s / "cr" / "en").glob("*.txt"))) for s in sources)
    shown = f"{home} (prebuilt)" if prebuilt else ", ".join(map(str, sources))
    print(f"\n=== {name}: {shown}")
    print(f"  CR editions loaded: {editions} (of {files} CR files given)")
    return settings, db


def per_query(queries: list[Any], engines: dict[str, Any]) -> set[str]:
    """Print each engine's count and top-10 overlap with kb's; return the engines that miss."""
    names = list(engines)
    print(f"  {'query':<46} " + " ".join(f"{n:>14}" for n in names))
    from kb.search.limits import QueryTooBroad

    missing: set[str] = set()
    for q in queries:
        answers, refused = {}, set()
        for n, run in engines.items():
            try:
                answers[n] = run(q)
            except QueryTooBroad:  # answers nothing: no ratio is printed for it (below)
                answers[n] = ([], 0)
                refused.add(n)
        kb_top = set(answers[names[0]][0])
        cells = []
        for n in names:
            top, count = answers[n]
            overlap = len(kb_top & set(top))
            if n in refused:
                cells.append("refused")
            else:
                cells.append(f"{count:>6} {overlap:>2}/10" if n != names[0] else f"{count:>14}")
        found = [n for n in names if answers[n][1]]
        if found:
            missing.update(n for n in names if not answers[n][1])
        print(f"  [{q.lang}] {q.query[:41]:<41} " + " ".join(f"{c:>14}" for c in cells))
    print(
        "  (count, then how many of kb's top 10 the engine's top 10 holds; refused: over kb's"
        " per-search CPU budget)"
    )
    return missing


def relevance(index: Any, queries: list[Any]) -> dict[str, Any]:
    """Print MRR and hits per split, with and without --lang; return the test figures."""
    from kb.search.evaluation import SPLITS, evaluate

    figures = {}
    for split in SPLITS:  # the dev splits in their order, then test
        chosen = [q for q in queries if q.split == split]
        for with_lang in (True, False):
            report = evaluate(index, chosen, with_lang=with_lang)
            label = f"{split}, {'with --lang' if with_lang else 'without --lang'}"
            rows = report["languages"]
            print(
                f"  {label:<26} "
                + "  ".join(
                    f"{lang} MRR {rows[lang]['mrr']:.3f} hit@1 {rows[lang]['hit@1']:.3f}"
                    f" hit@5 {rows[lang]['hit@5']:.3f}"
                    for lang in (*LANGS, "all")
                )
            )
            figures[(split, with_lang)] = report
            if split != "test":  # tuning looks at the dev splits' errors only, never the test's
                for row in report["queries"]:
                    if row["rank"] != 1:
                        print(
                            f"      [{row['lang']}] rank {row['rank'] or '-':>2}  {row['query']}"
                            f"  (want {row['expected']}; first: {(row['top'] or '')[:40]})"
                        )
    return figures


def run_scale(name: str, settings: Any, db: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Build, compare, time and score one scale; return the figures the targets look at."""
    from kb.search import build_index
    from kb.search.evaluation import load_queries
    from kb.search.indexer import all_items, index_order, index_ready
    from kb.search.searcher import SearchIndex

    queries = load_queries(RELEVANCE) + load_queries(OLD_SET)
    figures: dict[str, Any] = {}
    if name in args.reuse_index.split(",") and index_ready(settings.index_dir):
        print("  index build: left out, the index in place is searched (--reuse-index)")
    else:
        cpu = time.process_time()
        built = build_index(db, settings.index_dir)
        cpu = time.process_time() - cpu
        print(f"  index build: {built.seconds:.1f} s, CPU {cpu:.1f} s ({built.items} items)")
        figures.update(build_s=built.seconds, build_cpu_s=cpu)
    with (
        SearchIndex(settings.index_dir) as kb_index,
        SearchIndex(settings.index_dir, term_engine=False) as public,
    ):
        schema, newest = kb_index.schema, kb_index.editions[-1]
        con = tantivy_index = None
        if name in args.kb_only.split(","):
            print("  FTS5 and tantivy: left out at this scale (--kb-only)")
        else:
            items = index_order(list(all_items(db)))
            started = time.perf_counter()
            con = build_fts(items, schema, newest)
            print(f"  FTS5 table of the same analysed texts: {time.perf_counter() - started:.1f} s")
            tantivy_index = build_tantivy(items, schema, newest)
            if tantivy_index is None:
                print("  tantivy-py: not installed, left out")
        keys = kb_index.searcher.reader().column_reader("key")
        matches = {(q.query, q.lang): fts_match(schema, q.query, q.lang) for q in queries}

        def kb_first(index: Any) -> Any:
            def run(q: Any) -> Any:
                ranking = index.rank(q.query, lang=q.lang, limit=10)
                return [keys[hit.docnum] for hit in ranking], len(ranking)

            return run

        engines = {
            "kb (term engine)": kb_first(kb_index),
            "Whoosh public": kb_first(public),
        }
        if con is not None:
            engines["FTS5"] = lambda q: fts_run(con, matches[(q.query, q.lang)], newest, False)
        if tantivy_index is not None:
            engines["tantivy"] = lambda q: tantivy_run(
                tantivy_index, matches[(q.query, q.lang)], newest
            )
        runnable = [q for q in queries if _answers(kb_index, q)]
        missing = per_query(runnable, engines)

        print(f"\n  warm latency, {len(runnable)} queries x {args.rounds} rounds, taking turns:")
        print("   first pass (every word required, newest edition, top 10 and the count):")
        first = time_turns(engines, runnable, args.rounds)
        medians = {n: summary(n, t)[0] for n, t in first.items()}
        kb_name, *others = engines
        for other in others:
            if {kb_name, other} & missing:
                print(f"    no ratio kb / {other}: one finds nothing for a query the other answers")
            else:
                print(f"    kb / {other} median: {medians[kb_name] / medians[other]:.2f}x")
        print("   full search (kb search: partial matches, did-you-mean, snippets):")
        searches = {
            "kb search (term engine)": lambda q: kb_index.search(q.query, lang=q.lang),
            "kb search (Whoosh public)": lambda q: public.search(q.query, lang=q.lang),
            "kb search, no --lang": lambda q: kb_index.search(q.query),
        }
        if con is not None:
            searches["FTS5 with snippet()"] = lambda q: fts_run(
                con, matches[(q.query, q.lang)], newest, True
            )
        full = time_turns(searches, runnable, args.rounds)
        for n, t in full.items():
            figures[n] = (*summary(n, t), percentile(t["cpu"], 0.95))
        print("\n  relevance (tests/data/search/relevance.tsv), term engine:")
        figures["relevance"] = relevance(kb_index, load_queries(RELEVANCE))
    cold, cold_cpu = cold_search(settings.home)
    figures["cold_s"] = statistics.median(cold)
    figures["cold_cpu_s"] = statistics.median(cold_cpu)
    print(
        f"\n  cold `kb search` (new process): first {cold[0]:.2f} s, median"
        f" {statistics.median(cold):.2f} s, max {max(cold):.2f} s over {len(cold)} runs"
        f" (CPU: median {statistics.median(cold_cpu):.2f} s)"
    )
    return figures


def _answers(index: Any, q: Any) -> bool:
    """Whether the first pass can run the query (a rule number jump or stop words cannot)."""
    from kb.search.query import QueryError

    try:
        index.rank(q.query, lang=q.lang, limit=1)
    except QueryError:
        return False
    return True


def check_targets(name: str, figures: dict[str, Any]) -> None:
    """Print each target of the scale: met or not."""
    targets = TARGETS[name]
    checks = []
    # Wall-clock time is the target's measure; the CPU time beside it is what a loaded machine
    # (other processes on the same cores) cannot inflate.
    for engine in ("kb search (term engine)", "kb search (Whoosh public)"):
        _, p95, cpu95 = figures[engine]
        limit = targets["p95_ms"]
        checks.append((f"{engine} p95 {p95:.2f} ms < {limit} ms", p95 < limit))
        checks.append((f"{engine} CPU p95 {cpu95:.2f} ms < {limit} ms", cpu95 < limit))
    for what, unit_target in (("cold", "cold_s"), ("build", "build_s")):
        if unit_target not in targets or unit_target not in figures:
            continue
        wall, cpu = figures[unit_target], figures[unit_target.replace("_s", "_cpu_s")]
        limit = targets[unit_target]
        checks.append((f"{what} {wall:.2f} s < {limit} s", wall < limit))
        checks.append((f"{what} CPU {cpu:.2f} s < {limit} s", cpu < limit))
    for (split, with_lang), report in figures["relevance"].items():
        if split != "test":
            continue
        rows = report["languages"]
        label = "with --lang" if with_lang else "without --lang"
        for lang in LANGS:
            hit5 = rows[lang]["hit@5"]
            checks.append(
                (
                    f"test {label} {lang} hit@5 {hit5:.3f} >= {RELEVANCE_TARGETS[lang]}",
                    hit5 >= RELEVANCE_TARGETS[lang],
                )
            )
        mrr = rows["all"]["mrr"]
        checks.append(
            (
                f"test {label} MRR {mrr:.3f} >= {RELEVANCE_TARGETS['mrr']}",
                mrr >= RELEVANCE_TARGETS["mrr"],
            )
        )
    print(f"\n  targets ({name}):")
    for label, ok in checks:
        print(f"    {'yes' if ok else 'NO '}  {label}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--full", type=Path, default=ROOT.parent / "shared" / "corpus-full")
    parser.add_argument("--scales", default="shared,full", help="Comma-separated: shared, full")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="Keep (and reuse) the data folders here")
    parser.add_argument(
        "--full-home", type=Path, help="A data folder with the full history already ingested"
    )
    parser.add_argument(
        "--kb-only", default="", help="Comma-separated scales timed without FTS5 and tantivy"
    )
    parser.add_argument(
        "--reuse-index",
        default="",
        help="Comma-separated scales whose index in place is searched, not rebuilt (no build time)",
    )
    args = parser.parse_args()

    work = args.keep or Path(tempfile.mkdtemp(prefix="kb-search-bench-"))
    seeds = ROOT / "corpus"
    sources = {"shared": [seeds, args.shared], "full": [seeds, args.full, args.shared]}
    for name in args.scales.split(","):
        prebuilt = name == "full" and args.full_home is not None
        home = args.full_home if prebuilt else work / name
        home.mkdir(parents=True, exist_ok=True)
        settings, db = prepare(name, home, sources[name], prebuilt)
        try:
            figures = run_scale(name, settings, db, args)
        finally:
            db.dispose()
        check_targets(name, figures)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

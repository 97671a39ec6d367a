"""Re-ingest one changed set file into a prebuilt knowledge base, as whole `kb` processes.

Usage: python benchmarks/one_set.py --from-kb DIR [--set ../shared/corpus/mtgjson/KHM.json]
           [--runs N] [--keep DIR]

The full-history figure of benchmarks/full_scale.py ("re-ingest one set") without rebuilding the
history first: the knowledge base in ``--from-kb`` (never written) is copied, a copy of the set
file is ingested into it from a folder of its own (the preparation, printed too), one card's text
is edited as full_scale.py does, and the folder is ingested again: that is the figure. With
``--runs N`` the edited ingest is repeated on fresh copies of the prepared knowledge base. Each
step is a fresh process; CPU seconds (user + system) and peak RSS are the child's own.

``--check`` then compares the first run's result with a from-scratch run on the same input: its
link rows with those of ``kb link`` on a copy (the same rows, and in the same id order?), and its
index with ``kb index --rebuild`` on another copy (every item's hash, the did-you-mean word list,
and the results of the evaluation queries and of queries about the edited card: keys, scores,
snippets, totals, did-you-mean).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

from full_scale import edit_set, kb, show  # benchmarks/full_scale.py

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from-kb", type=Path, required=True, help="a prebuilt kb home")
    parser.add_argument(
        "--set", type=Path, default=ROOT.parent / "shared" / "corpus" / "mtgjson" / "KHM.json"
    )
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    parser.add_argument("--check", action="store_true", help="compare with from-scratch runs")
    args = parser.parse_args()
    if not (args.from_kb / "kb.sqlite").is_file():
        sys.exit(f"no SQLite knowledge base in {args.from_kb}")
    print(f"$ {' '.join([Path(sys.executable).name, *sys.argv])}")
    with tempfile.TemporaryDirectory(prefix="kb-one-set-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        prepared, sets = work / "prepared", work / "sets"
        shutil.rmtree(prepared, ignore_errors=True)
        shutil.rmtree(sets, ignore_errors=True)
        shutil.copytree(args.from_kb, prepared, symlinks=True)
        sets.mkdir()
        shutil.copy(args.set, sets / args.set.name)
        print(f"(load average {load()})")
        show("prepare: ingest copy", kb(prepared, None, "ingest", str(sets)))
        original = (sets / args.set.name).read_bytes()
        edit_set(sets / args.set.name)
        edited = (sets / args.set.name).read_bytes()
        for run in range(args.runs):
            home = work / f"run{run}"
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(prepared, home, symlinks=True)
            # The same edited bytes, written anew: the stat differs, the ingest reads the file.
            (sets / args.set.name).write_bytes(original)
            (sets / args.set.name).write_bytes(edited)
            print(f"(load average {load()})")
            show("re-ingest one set", kb(home, None, "ingest", str(sets)))
        print(f"(load average {load()})")
        if args.check:
            check(work / "run0", work)
            print(f"(load average {load()})")


def check(home: Path, work: Path) -> None:
    """Compare a re-ingested knowledge base with from-scratch links and a rebuilt index."""
    linked, rebuilt = work / "scratch-link", work / "scratch-index"
    for copy in (linked, rebuilt):
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(home, copy, symlinks=True)
    show("check: kb link", kb(linked, None, "link"))
    show("check: kb index --rebuild", kb(rebuilt, None, "index", "--rebuild"))
    ours, theirs = link_rows(home), link_rows(linked)
    print(
        f"  links: {len(ours)} rows / {len(theirs)} from scratch; same rows: "
        f"{sorted(map(repr, ours)) == sorted(map(repr, theirs))}; same id order: {ours == theirs}"
    )
    ours_ix, theirs_ix = indexed(home), indexed(rebuilt)
    print(f"  index: {len(ours_ix)} items / {len(theirs_ix)} rebuilt; same: {ours_ix == theirs_ix}")
    words = [(h / "index" / "kb-words.json").read_bytes() for h in (home, rebuilt)]
    print(f"  did-you-mean word list byte-identical: {words[0] == words[1]}")
    queries = search_queries()
    a, b = search_results(home, queries), search_results(rebuilt, queries)
    same = sum(x == y for x, y in zip(a, b, strict=True))
    print(f"  searches: {same} of {len(queries)} identical (keys, scores, snippets, totals)")
    for x, y in zip(a, b, strict=True):
        if x != y:
            print(f"    differs: {x[0]!r}: {x[2][:3]} / {y[2][:3]}"[:300])


def link_rows(home: Path) -> list[tuple]:
    """The link table, every column but the id, in id order."""
    con = sqlite3.connect(home / "kb.sqlite")
    try:
        columns = [r[1] for r in con.execute("PRAGMA table_info(links)") if r[1] != "id"]
        return con.execute(f"SELECT {', '.join(columns)} FROM links ORDER BY id").fetchall()
    finally:
        con.close()


def indexed(home: Path) -> dict[str, str]:
    """Key -> hash of every live item of a home's index."""
    from whoosh import index as whoosh_index

    ix = whoosh_index.open_dir(str(home / "index"), indexname="kb")
    try:
        with ix.searcher() as searcher:
            reader = searcher.reader()
            keys, hashes = reader.column_reader("key"), reader.column_reader("hash")
            return {keys[n]: hashes[n] for n in reader.all_doc_ids()}
    finally:
        ix.close()


def search_queries() -> list[str]:
    from kb.search.evaluation import load_queries

    data = ROOT / "tests" / "data"
    found = load_queries(data / "search" / "relevance.tsv") + load_queries(data / "search_eval.tsv")
    return [q.query for q in found] + [
        "Axgard Braggart",
        "boast",
        "vantardise",
        "alardear",
        "ring tempts you",
        "set:KHM foretell",
        "type:ruling boast",
        "braggart",
    ]


def search_results(home: Path, queries: list[str]) -> list[tuple]:
    from kb.search.searcher import SearchIndex

    out = []
    with SearchIndex(home / "index") as index:
        for query in queries:
            r = index.search(query, limit=20)
            hits = [(h["key"], round(h.get("score", 0), 6), h.get("snippet")) for h in r["results"]]
            out.append((query, r.get("total"), hits, r.get("did_you_mean")))
    return out


if __name__ == "__main__":
    main()

"""Ingest speed and memory on the real corpus: cold ingest, then a no-op re-ingest.

Usage: python benchmarks/ingest.py [--corpus ../shared/corpus] [--keep DIR]

Each measurement runs `kb ingest` in a fresh process (so peak memory is the process's own, read
from getrusage) over the seeds plus the real corpus, into a new SQLite database.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
from pathlib import Path

from fresh_process import run_python  # benchmarks/fresh_process.py

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
from pathlib import Path
from kb.config import Settings
from kb.pipeline import ingest
home, *paths = sys.argv[1:]
start = time.perf_counter()
report = ingest(Settings(home=Path(home)), [Path(p) for p in paths])
seconds = time.perf_counter() - start
print(json.dumps({
    "seconds": seconds,
    "loaded": len(report.loaded),
    "unchanged": len(report.unchanged),
    "failed": [str(f) for f in report.failed],
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def run(home: Path, paths: list[Path]) -> dict:
    """Run one ingest in a new Python process and return its measurements."""
    return run_python(CHILD, str(home), *map(str, paths))


def counts(home: Path) -> dict:
    """Rules and documents in the database just built."""
    from kb.config import Settings
    from kb.lookup import stats_view
    from kb.pipeline import open_db

    db = open_db(Settings(home=home), create=False)
    with db.session() as session:
        stats = stats_view(session)
    db.dispose()
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--keep", type=Path, help="keep the database in this folder")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"no corpus at {args.corpus}")
    paths = [ROOT / "corpus", args.corpus]
    with tempfile.TemporaryDirectory() as tmp:
        home = args.keep or Path(tmp) / "_kb"
        cold = run(home, paths)
        noop = run(home, paths)
        stats = counts(home)
    rules = sum(e["rules"]["rule"] + e["rules"]["subrule"] for e in stats["editions"])
    documents = cold["loaded"] + len(cold["failed"])
    failed = len(cold["failed"])
    print(f"documents            {documents} ({cold['loaded']} loaded, {failed} failed)")
    print(f"rules + subrules     {rules}")
    print(f"cold ingest          {cold['seconds']:.2f} s  (target < 20 s)")
    print(f"  documents/s        {documents / cold['seconds']:.1f}")
    print(f"  rules/s            {rules / cold['seconds']:.0f}")
    print(f"  peak memory        {cold['peak_rss_mb']:.0f} MB  (target < 400 MB)")
    print(f"no-op re-ingest      {noop['seconds']:.3f} s  (target < 1 s)")
    print(f"  unchanged          {noop['unchanged']} documents")
    print(f"  peak memory        {noop['peak_rss_mb']:.0f} MB")
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


if __name__ == "__main__":
    main()

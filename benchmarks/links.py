"""Linking speed on the real corpus: all three editions plus the card data, on a fresh KB.

Usage: python benchmarks/links.py [--corpus ../shared/corpus] [--keep DIR]

Ingests the seeds and the real corpus into a new SQLite database (which links once, as
``kb ingest`` does), then, in a fresh Python process each (cold caches), times a full
``build_links`` — the figure the 15 s target is about — and the versions queries built on the
same data: the 2021 -> 2026 diff, a trace across renumbering and the translation drift summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from fresh_process import run_python  # benchmarks/fresh_process.py

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 15.0

CHILD = """
import json, sys, time
from pathlib import Path
from kb.config import Settings
from kb.pipeline import open_db
home, what = sys.argv[1:]
db = open_db(Settings(home=Path(home)), create=False)
with db.session() as session:
    start = time.perf_counter()
    if what == "link":
        from kb.links import build_links
        result = build_links(session)
        session.commit()
    elif what == "diff":
        from kb.versions import diff_editions
        result = diff_editions(session, "2021-02-05", "2026-01-16")["summary"]
    elif what == "trace":
        from kb.versions import trace
        result = {"number": trace(session, "701.32", "2021-02-05")["number"]}
    else:
        from kb.versions import drift_summary
        result = drift_summary(session)
    seconds = time.perf_counter() - start
db.dispose()
print(json.dumps({"seconds": seconds, "result": result}))
"""


def child(home: Path, what: str) -> dict:
    """Run one measurement in a new Python process; return its seconds and result."""
    return run_python(CHILD, str(home), what)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--keep", type=Path, help="keep the database in this folder")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"no corpus at {args.corpus}")

    from kb.config import Settings
    from kb.pipeline import ingest

    with tempfile.TemporaryDirectory() as tmp:
        home = args.keep or Path(tmp) / "_kb"
        start = time.perf_counter()
        report = ingest(Settings(home=home), [ROOT / "corpus", args.corpus])
        ingest_seconds = time.perf_counter() - start
        if report.failed:
            sys.exit(f"ingest failed: {report.failed}")
        link = child(home, "link")
        diff = child(home, "diff")
        trace = child(home, "trace")
        drift = child(home, "drift")

    counts = link["result"]
    print(f"fresh KB: seeds + {args.corpus} ingested (and linked) in {ingest_seconds:.2f} s")
    print(
        f"build_links, editions {', '.join(counts['editions'])} + card data: "
        f"{link['seconds']:.2f} s (target < {TARGET_SECONDS:.0f} s: "
        f"{'met' if link['seconds'] < TARGET_SECONDS else 'NOT met'})"
    )
    print(
        f"  {counts['links']} links: {counts['explicit']} explicit, {counts['term']} term, "
        f"{counts['sibling']} sibling; {counts['unresolved']} unresolved; "
        f"{counts['clarifications_linked']}/{counts['clarifications']} rulings and "
        f"{counts['cards_linked']}/{counts['cards']} cards linked"
    )
    summary = diff["result"]
    print(
        f"diff 2021-02-05 -> 2026-01-16 (cold): {diff['seconds']:.2f} s "
        f"({summary['renumbered']} renumbered, {summary['changed']} changed of which "
        f"{summary['reference_only']} only in references, {summary['added']} added, "
        f"{summary['removed']} removed)"
    )
    print(
        f"trace 701.32 of 2021-02-05 (cold): {trace['seconds']:.2f} s "
        f"-> today {trace['result']['number']}"
    )
    print(f"drift summary (cold): {drift['seconds']:.2f} s {json.dumps(drift['result'])}")


if __name__ == "__main__":
    main()

"""The ingest stage alone: documents parsed, loaded and kept up (no links, terms or index).

Usage: python benchmarks/ingest_stage.py [--editions N] [--full ../shared/corpus-full]
           [--corpus ../shared/corpus] [--profile FILE]

`kb ingest` also links, relearns the keyword terms and indexes; this times only
``kb.ingest.ingest_paths`` (parsing each edition and set, loading them, lineages, recognition,
warnings and commits) into a new SQLite database, in a fresh process, so that the cost of the
stage itself can be followed apart from the others. Corpus: corpus/ seeds, ``--corpus``, the
newest ``N`` editions of ``--full`` and its AllPrintings. Then the same paths again (a no-op).
Prints CPU and wall seconds, peak RSS and the load average; ``--profile`` writes a cProfile
(CPU time) of the cold run.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from fresh_process import run_python  # benchmarks/fresh_process.py

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import cProfile, json, resource, sys, time
from pathlib import Path
from kb.db import open_database
from kb.ingest import ingest_paths
home, profile, *paths = sys.argv[1:]
db = open_database(f"sqlite:///{home}/kb.sqlite")
profiler = cProfile.Profile(time.process_time) if profile else None
cpu, wall = time.process_time(), time.perf_counter()
if profiler:
    profiler.enable()
report = ingest_paths(db, [Path(p) for p in paths])
if profiler:
    profiler.disable()
    profiler.dump_stats(profile)
print(json.dumps({
    "cpu": time.process_time() - cpu,
    "seconds": time.perf_counter() - wall,
    "loaded": len(report.loaded),
    "unchanged": len(report.unchanged),
    "failed": len(report.failed),
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def run(home: Path, paths: list[str], profile: str = "") -> dict:
    """One ingest_paths run in a fresh process; its figures."""
    return run_python(CHILD, str(home), profile, *paths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", type=Path, default=ROOT.parent / "shared" / "corpus-full")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--editions", type=int, default=20, help="newest corpus-full editions")
    parser.add_argument("--profile", default="", help="write a cProfile of the cold run here")
    args = parser.parse_args()
    shared = {p.name for p in (args.corpus / "cr" / "en").glob("*.txt")}
    editions = sorted(p for p in (args.full / "cr" / "en").glob("*.txt") if p.name not in shared)
    paths = [
        str(ROOT / "corpus"),
        str(args.corpus),
        *map(str, editions[-args.editions :] if args.editions else []),
        str(args.full / "mtgjson"),
    ]
    with tempfile.TemporaryDirectory(prefix="kb-ingest-stage-") as folder:
        home = Path(folder)
        print(f"load average before: {os.getloadavg()[0]:.1f}")
        for label, profile in (("cold", args.profile), ("no-op", "")):
            result = run(home, paths, profile)
            print(
                f"  {label:<6} cpu {result['cpu']:7.2f} s  wall {result['seconds']:7.2f} s"
                f"  peak {result['peak_rss_mb']:5.0f} MB  loaded {result['loaded']}"
                f"  unchanged {result['unchanged']}  failed {result['failed']}"
            )
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        print(f"$ python benchmarks/ingest_stage.py --editions {args.editions}")


if __name__ == "__main__":
    main()

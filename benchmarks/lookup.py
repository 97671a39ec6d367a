"""How long a lookup takes: `kb rule` and `kb card` as whole processes (target < 0.5 s each).

Usage: python benchmarks/lookup.py [--home DIR] [--corpus ../shared/corpus] [--runs N]

Without ``--home`` a knowledge base of corpus/ seeds + ``--corpus`` is ingested into a temporary
folder first; give ``--home`` to time an existing one (e.g. a copy of a full-history KB). Each
lookup runs ``N`` times as ``python -m kb ...`` in a fresh process; the figures are the median
wall-clock seconds and the median CPU seconds (user + system, from getrusage) of the child. On a
shared, busy machine the CPU seconds are what a quiet machine's wall clock would show; the load
average is printed beside them. Baselines: ``python -c pass`` and ``kb --help``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.5
LOOKUPS = (
    ("kb rule 701.54", ["rule", "701.54"]),
    ("kb rule 701.54 --lang es", ["rule", "701.54", "--lang", "es"]),
    ("kb rule 702 (a chapter)", ["rule", "702"]),
    ("kb card (name as printed)", ["card", "The Trickster-God's Heist"]),
    ("kb card (folded name)", ["card", "the trickster-god's heist"]),
    ("kb card (French name)", ["card", "Le vol du dieu-décepteur"]),
)


def timed(argv: list[str]) -> tuple[float, float, int]:
    """Wall and CPU seconds of one child process, and its exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode:
        sys.stderr.write(done.stderr.decode(errors="replace"))
    return wall, cpu, done.returncode


def measure(label: str, argv: list[str], runs: int, target: float | None) -> None:
    """Print the median wall and CPU seconds of ``runs`` runs (after one warm-up run)."""
    timed(argv)  # warm the OS file cache and the bytecode cache
    walls, cpus, codes = zip(*(timed(argv) for _ in range(runs)), strict=True)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    verdict = "" if target is None else ("  ok" if cpu < target else "  OVER TARGET")
    status = "" if set(codes) == {0} else f"  exit {sorted(set(codes))}"
    print(f"{label:32s} wall {wall:5.2f} s   cpu {cpu:5.2f} s{verdict}{status}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, help="An existing knowledge base to time.")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    kb = [sys.executable, "-m", "kb"]
    with tempfile.TemporaryDirectory(prefix="kb-lookup-") as tmp:
        home = args.home
        if home is None:
            home = Path(tmp) / "_kb"
            env = {**os.environ, "KB_HOME": str(home)}
            subprocess.run(
                [*kb, "ingest", str(ROOT / "corpus"), str(args.corpus)],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
            )
        print(f"knowledge base: {home}   runs: {args.runs}   load average: {os.getloadavg()}")
        print(f"target: < {TARGET} s per lookup (judged on CPU seconds)")
        measure("python -c pass", [sys.executable, "-c", "pass"], args.runs, None)
        measure("kb --help", [*kb, "--help"], args.runs, None)
        for label, command in LOOKUPS:
            measure(label, [*kb, "--home", str(home), *command], args.runs, TARGET)
        print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

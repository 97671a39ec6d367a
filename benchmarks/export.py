"""Export speed on the real corpus: a 20-rule, 3-language PDF sheet and the whole-corpus JSON dump.

Usage: python benchmarks/export.py [--corpus ../shared/corpus] [--runs 3]

A fresh data folder gets the seeds and the real corpus (ingest, then links, as `kb build` would);
then each export runs as the `kb` command in a new process, so the figures include Python's
start-up and WeasyPrint's import, as a user waits for them. Targets: sheet < 5 s, JSON < 10 s.
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
# Twenty rules (each with all its subrules): keyword actions 701.2-701.21.
SHEET_RULES = ["701.2-701.21"]


def kb(home: Path, *args: str) -> tuple[float, float]:
    """Run one kb command; return its wall time and its CPU time (user + system) in seconds.

    The CPU time is what the command costs on an idle machine; the wall time also counts the
    waits for the other processes that share the machine's two cores.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kb", "--home", str(home), *args],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def prepare(home: Path, corpus: Path) -> None:
    """Ingest the seeds and the real corpus and build the links."""
    from kb.config import Settings
    from kb.links import build_links
    from kb.pipeline import ingest, open_db

    settings = Settings(home=home)
    report = ingest(settings, [ROOT / "corpus", corpus])
    if report.failed:
        raise SystemExit(f"ingest failed: {report.failed}")
    db = open_db(settings)
    try:
        with db.session() as session:
            build_links(session)
            session.commit()
    finally:
        db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "kb"
        prepare(home, args.corpus)
        out = Path(tmp) / "out"
        figures: dict[str, list[tuple[float, float]]] = {
            "sheet": [],
            "json": [],
            "csv": [],
            "po": [],
        }
        for _ in range(args.runs):
            figures["sheet"].append(
                kb(home, "export", "sheet", *SHEET_RULES, "--lang", "en,fr,es",
                   "--format", "pdf", "--out", str(out / "sheet.pdf"))
            )  # fmt: skip
            figures["json"].append(kb(home, "export", "json", "--out", str(out / "kb.json")))
            figures["csv"].append(kb(home, "export", "csv", "--out", str(out / "csv")))
            figures["po"].append(
                kb(home, "export", "po", "--lang", "fr", "--out", str(out / "fr.po"))
            )
        from pypdf import PdfReader

        pages = len(PdfReader(out / "sheet.pdf").pages)
        size = (out / "kb.json").stat().st_size / 1e6
        po_size = (out / "fr.po").stat().st_size / 1e6

        def median(name: str) -> tuple[float, float]:
            return (
                statistics.median(w for w, _ in figures[name]),
                statistics.median(c for _, c in figures[name]),
            )

        def verdict(value: float, target: float) -> str:
            return f"target < {target:g} s: {'ok' if value < target else 'MISSED'}"

        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
              f"medians of {args.runs} runs, each a fresh `kb` process")  # fmt: skip
        wall, cpu = median("sheet")
        print(f"kb export sheet {' '.join(SHEET_RULES)} --lang en,fr,es --format pdf "
              f"({pages} pages): {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"[{verdict(cpu, 5)} CPU, {verdict(wall, 5)} wall]")  # fmt: skip
        wall, cpu = median("json")
        print(f"kb export json, whole corpus ({size:.1f} MB): {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"[{verdict(wall, 10)} wall]")  # fmt: skip
        wall, cpu = median("csv")
        print(f"kb export csv, all tables: {wall:.2f} s wall, {cpu:.2f} s CPU")
        wall, cpu = median("po")
        print(f"kb export po --lang fr, every rule ({po_size:.1f} MB): {wall:.2f} s wall, "
              f"{cpu:.2f} s CPU")  # fmt: skip


if __name__ == "__main__":
    main()

"""The scale figures of the whole history: every edition, every card, as whole `kb` processes.

Usage: python benchmarks/full_scale.py [--full ../shared/corpus-full] [--corpus ../shared/corpus]
           [--editions N] [--small-only] [--database URL] [--keep DIR]

Each step runs `python -m kb ...` in a fresh process (through a small wrapper that reports the
child's peak RSS and CPU time from getrusage, and the peak of its processes' RSS together,
sampled: a full link run has a helper process), so the figures are what a user waits for; on a
shared, busy machine the CPU seconds compare better than the wall-clock ones. Steps, for the full
history (corpus/ seeds + ../shared/corpus + every corpus-full edition and AllPrintings) and then
for the small shared corpus alone:

- cold ingest (links included) of everything but one edition, then ``kb index`` (the index);
- add the held-out edition (links and index kept in step by the ingest);
- no-op re-ingest of everything;
- re-ingest one changed set file (a copy of KHM.json in a temporary folder, one card text edited);
- ``kb link`` from scratch;
- database and index size on disk;
- cold ``kb search "ring tempts you"``.

Editions that fail to parse are reported, not hidden: the figures say how many loaded.
``--editions N`` takes only the newest N corpus-full editions (a quicker partial history).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from fresh_process import run_python  # benchmarks/fresh_process.py

ROOT = Path(__file__).resolve().parent.parent
QUERY = "ring tempts you"
TARGETS = {
    "cold ingest + index": "< 300 s, peak RSS < 1.5 GB",
    "add one edition": "< 30 s",
    "no-op re-ingest": "< 2 s",
    "re-ingest one set": "< 30 s",
    "kb link": "< 60 s",
    "cold search": "< 0.5 s",
}

WRAPPER = """
import json, os, resource, subprocess, sys, threading, time

def tree_rss_kb(root):
    # The resident memory of a process and its descendants (a full link run has a helper).
    children, rss = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/status") as f:
                line = next((l for l in f if l.startswith("VmRSS:")), "VmRSS: 0 kB")
        except (OSError, StopIteration, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(pid))
        rss[int(pid)] = int(line.split()[1])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, ()))
    return total

start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
peak = [0]
def sample():
    while child.poll() is None:
        peak[0] = max(peak[0], tree_rss_kb(child.pid))
        time.sleep(0.2)
sampler = threading.Thread(target=sample, daemon=True)
sampler.start()
stdout, stderr = child.communicate()
seconds = time.perf_counter() - start
sampler.join()
print(json.dumps({
    "seconds": seconds,
    "rc": child.returncode,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    "peak_tree_mb": peak[0] / 1024,  # sampled every 0.2 s: all of the command's processes
    "cpu": resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    + resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime,
    "stdout": stdout,  # whole: the cold ingest's --json summary is parsed
    "stderr": stderr[-4000:],
}))
"""


def kb(home: Path, database: str | None, *args: str) -> dict:
    """Run one kb command as a whole process; return seconds, peak RSS and its output."""
    command = [sys.executable, "-m", "kb", "--home", str(home)]
    if database:
        command += ["--database", database]
    command += list(args)
    result = run_python(WRAPPER, *command)
    result["command"] = " ".join(["kb", *args])
    if result["rc"] not in (0, 1):
        print(result["stderr"], file=sys.stderr)
        raise SystemExit(f"`{result['command']}` failed with exit {result['rc']}")
    return result


def show(label: str, result: dict) -> None:
    """Print one figure with its command and its target."""
    target = TARGETS.get(label, "")
    print(
        f"  {label:<22} {result['seconds']:8.2f} s  cpu {result['cpu']:7.2f} s"
        f"  peak {result['peak_rss_mb']:6.0f} MB (all processes {result['peak_tree_mb']:5.0f})"
        f"  {('target ' + target) if target else '':<34} $ {result['command']}"
    )


def size_mb(path: Path) -> float:
    """Megabytes of a file or a folder's files."""
    if path.is_file():
        return path.stat().st_size / 2**20
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def database_mb(home: Path, database: str | None) -> float:
    """Size of the database on disk (SQLite file and WAL, or pg_database_size)."""
    if not database:
        return sum(size_mb(p) for p in home.glob("kb.sqlite*"))
    from sqlalchemy import create_engine, text

    engine = create_engine(database)
    with engine.connect() as conn:
        size = conn.scalar(text("SELECT pg_database_size(current_database())"))
    engine.dispose()
    return float(size or 0) / 2**20


def loaded_editions(home: Path, database: str | None) -> tuple[int, int, int]:
    """English editions loaded, rule rows, and link rows in the knowledge base."""
    from sqlalchemy import func, select

    from kb.db import open_database
    from kb.models import Edition, Link, Rule

    url = database or f"sqlite:///{(home / 'kb.sqlite').resolve().as_posix()}"
    db = open_database(url, create=False)
    with db.session() as session:
        editions = session.scalar(
            select(func.count(Edition.id)).where(
                Edition.kind == "comprules", Edition.language == "en"
            )
        )
        rules = session.scalar(select(func.count(Rule.id)))
        links = session.scalar(select(func.count(Link.id)))
    db.dispose()
    return int(editions or 0), int(rules or 0), int(links or 0)


def edit_set(path: Path) -> None:
    """Change one card's text in a set file (so the re-ingest has real work: texts and links)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for card in data["data"]["cards"]:
        if card.get("text"):
            card["text"] += "\nThe Ring tempts you."
            break
    path.write_text(json.dumps(data), encoding="utf-8")


def reset_database(database: str | None) -> None:
    """Empty a PostgreSQL database given with --database (SQLite starts in a new folder)."""
    if not database:
        return
    from sqlalchemy import create_engine, text

    engine = create_engine(database)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def scenario(name: str, work: Path, editions: list[Path], others: list[Path], args) -> None:
    """Run every step on one corpus and print its figures."""
    home = work / name
    sets = work / f"{name}-sets"
    sets.mkdir(parents=True)
    shutil.copy(args.corpus / "mtgjson" / "KHM.json", sets / "KHM.json")
    held_out, kept = editions[-1], editions[:-1]
    everything = [*map(str, others), *map(str, kept), str(held_out), str(sets)]
    reset_database(args.database)
    print(f"\n{name}: {len(editions)} edition files offered, others: {', '.join(map(str, others))}")
    print(f"  held-out edition: {held_out.name}; changed set: {sets / 'KHM.json'} (a copy)")
    first = [*map(str, others), *map(str, kept), str(sets)]
    cold = kb(home, args.database, "ingest", "--json", *first)
    show("cold ingest", cold)
    build = kb(home, args.database, "index")
    show("kb index (first)", build)
    total = {
        "seconds": cold["seconds"] + build["seconds"],
        "peak_rss_mb": max(cold["peak_rss_mb"], build["peak_rss_mb"]),
        "peak_tree_mb": max(cold["peak_tree_mb"], build["peak_tree_mb"]),
        "cpu": cold["cpu"] + build["cpu"],
        "command": "(the two above)",
    }
    show("cold ingest + index", total)
    show("add one edition", kb(home, args.database, "ingest", str(held_out)))
    noop = kb(home, args.database, "ingest", *everything)
    show("no-op re-ingest", noop)
    edit_set(sets / "KHM.json")
    show("re-ingest one set", kb(home, args.database, "ingest", str(sets)))
    show("kb link", kb(home, args.database, "link"))
    show("cold search", kb(home, args.database, "search", QUERY))
    loaded, rules, links = loaded_editions(home, args.database)
    print(f"  editions loaded        {loaded} of {len(editions)} offered (+ translations)")
    print(f"  rule rows / link rows  {rules} / {links}")
    failed = json.loads(cold["stdout"] or "{}").get("run", {}).get("failures", [])
    print(f"  failed in cold ingest  {len(failed)} documents")
    for failure in failed[:5]:
        print(f"    {failure}"[:160])
    print(
        f"  on disk                database {database_mb(home, args.database):.0f} MB"
        f" (target < 300), index {size_mb(home / 'index'):.0f} MB (target < 150)"
    )


def other_sets(corpus: Path) -> list[Path]:
    """The small corpus's set files but KHM.json (loaded from its editable copy)."""
    return [p for p in sorted((corpus / "mtgjson").glob("*.json")) if p.name != "KHM.json"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", type=Path, default=ROOT.parent / "shared" / "corpus-full")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--editions", type=int, help="only the newest N corpus-full editions")
    parser.add_argument("--small-only", action="store_true", help="only the small shared corpus")
    parser.add_argument("--database", help="a PostgreSQL URL (emptied!) instead of SQLite")
    parser.add_argument("--keep", type=Path, help="keep the data folders in this folder")
    args = parser.parse_args()
    for folder in (args.corpus, *(() if args.small_only else (args.full,))):
        if not folder.is_dir():
            sys.exit(f"no corpus at {folder}")
    print(f"$ {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"(load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())})")
    began = time.perf_counter()
    small_editions = sorted((args.corpus / "cr" / "en").glob("*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        if not args.small_only:
            names = {p.name for p in small_editions}
            offered = sorted((args.full / "cr" / "en").glob("*.txt"))
            full = [p for p in offered if p.name not in names]
            full = full[-args.editions :] if args.editions else full
            others = [ROOT / "corpus", *other_sets(args.corpus), args.full / "mtgjson"]
            # The small corpus's editions come last: the held-out one is the newest.
            scenario("full", work, [*full, *small_editions], others, args)
        scenario("small", work, small_editions, [ROOT / "corpus", *other_sets(args.corpus)], args)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\n(whole benchmark: {time.perf_counter() - began:.0f} s; load average now: {load})")


if __name__ == "__main__":
    main()

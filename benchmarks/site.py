"""Site build at scale: `kb build` from scratch, with no change, and with one changed set.

Usage: python benchmarks/site.py [--small ../shared/corpus] [--skip-small] [--keep DIR]
       [--home DIR | --from-kb DIR] [--also DIR]

Two scales. The small one: the shared corpus (3 editions, two sets) ingested from scratch by the
first `kb build`. The full one (whole history, all cards), only with a prebuilt full-corpus
knowledge base: ``--home`` uses that kb home in place (pass a copy: it is written to),
``--from-kb`` copies it in first. Its first build ingests only the changed set file and renders
the whole site from scratch (the 10-20 minutes of ingesting AllPrintings are left out; say so
when quoting the figure).

Each `kb build` runs as the user runs it (``python -m kb build`` in a subprocess, its own data
folder); the peak memory is the sum of the resident sizes of the whole process tree (kb and
Pagefind), sampled every 0.1 s from /proc. Printed figures:

1. `kb build` from scratch (ingest, links, search index, every page of the three languages,
   Pagefind): seconds, peak MB, pages, bytes, the largest HTML page besides the one-page rules.
2. `kb build` again with nothing changed.
3. `kb build` after one MTGJSON set file changed (a ruling added to one card).
4. A crawl of the built site (file by file, not all in memory): broken internal links.
Targets (issue 13): from scratch < 180 s and < 1.5 GB peak on the full corpus; no change < 5 s;
one changed set < 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONE_PAGE = "rules/all.html"  # the one page allowed over 1 MB


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ppid, pages = int(fields[1]), int(fields[21])
        children.setdefault(ppid, []).append(int(entry))
        rss[int(entry)] = pages * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        total += rss.get(current, 0)
        todo.extend(children.get(current, []))
    return total


def run_build(work: Path, out: Path) -> dict[str, float]:
    """One `kb build` in a subprocess (settings from work/kb.toml): seconds and peak MB."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "kb", "build", "--out", str(out)]
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = process.communicate()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    if process.returncode != 0:
        sys.exit(f"kb build failed ({process.returncode}):\n{output[-3000:]}")
    site = next((line for line in output.splitlines() if line.startswith("site:")), "")
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)  # kb and the Pagefind it waited for
    cpu_seconds = (cpu.ru_utime - cpu_before.ru_utime) + (cpu.ru_stime - cpu_before.ru_stime)
    return {
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu_seconds, 1),
        "peak_mb": round(peak / 1e6),
        "load_average": round(os.getloadavg()[0], 1),
        "kb_says": site,
    }


def crawl(out: Path) -> dict[str, object]:
    """Every internal link of the built site checked, reading one file at a time."""
    from kb.site.stream import LinkCollector

    links = LinkCollector()
    for path in sorted(out.rglob("*")):
        if path.is_file() and path.suffix in (".html", ".js", ".css", ".json", ".xml"):
            links.add(path.relative_to(out).as_posix(), path.read_bytes())
        elif path.is_file():
            links.paths.add(path.relative_to(out).as_posix())
    broken = links.broken()
    return {"links_checked": len(links.targets), "broken": len(broken), "first": broken[:5]}


def site_figures(out: Path) -> dict[str, object]:
    """Pages, bytes and the largest HTML pages of a built site."""
    sizes = {
        p.relative_to(out).as_posix(): p.stat().st_size for p in out.rglob("*.html") if p.is_file()
    }
    others = {p: s for p, s in sizes.items() if not p.endswith(ONE_PAGE)}
    largest = max(others.items(), key=lambda kv: kv[1]) if others else ("", 0)
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    scripts = {
        p.relative_to(out).as_posix(): p.stat().st_size
        for p in (out / "assets").glob("search-*.js")
        if p.is_file()
    }
    top = sorted(others.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    script = max(scripts.items(), key=lambda kv: kv[1]) if scripts else ("", 0)
    return {
        "html_pages": len(sizes),
        "megabytes": round(total / 1e6, 1),
        "largest_page": largest[0],
        "largest_page_kb": round(largest[1] / 1e3),
        "largest_pages_kb": {p: round(s / 1e3) for p, s in top},
        "one_page_rules_kb": {p: round(s / 1e3) for p, s in sizes.items() if p.endswith(ONE_PAGE)},
        "pages_over_1_mb": sorted(p for p, s in others.items() if s > 1_000_000),
        "offline_search_scripts": len(scripts),
        "largest_search_script": script[0],
        "largest_search_script_kb": round(script[1] / 1e3),
    }


def change_one_set(path: Path) -> None:
    """Add a ruling to the first card that has rulings (a real change the site must show)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    for card in document["data"]["cards"]:
        if card.get("rulings"):
            card["rulings"].append({"date": "2026-01-20", "text": "A benchmark ruling."})
            break
    path.write_text(json.dumps(document), encoding="utf-8")


def _progress(step: str, figures: dict[str, object]) -> None:
    """Each run's figures as soon as they are known (a long run can be read while it goes on)."""
    print(f"{step}: {json.dumps(figures)}", file=sys.stderr, flush=True)


def scenario(work: Path, corpus: list[Path], set_file: Path, home: Path) -> dict[str, object]:
    """From scratch, no change, one changed set: the three `kb build` runs in one folder."""
    work.mkdir(parents=True, exist_ok=True)
    extra = work / "extra"
    extra.mkdir(exist_ok=True)
    changed = extra / set_file.name
    shutil.copyfile(set_file, changed)
    (work / "kb.toml").write_text(
        f'home = "{home}"\ncorpus = {json.dumps([str(c) for c in [*corpus, extra]])}\n',
        encoding="utf-8",
    )
    out = work / "site"
    scratch = run_build(work, out)
    scratch.update(site_figures(out))
    _progress("from scratch", scratch)
    links = crawl(out)
    _progress("link crawl", links)
    noop = run_build(work, out)
    _progress("no change", noop)
    change_one_set(changed)
    one_set = run_build(work, out)
    _progress("one changed set", one_set)
    return {
        "corpus": [str(c) for c in corpus],
        "kb_build_from_scratch": scratch,
        "kb_build_no_change": noop,
        "kb_build_one_changed_set": one_set,
        "link_crawl": {**links, "first": [str(b) for b in links["first"]]},
    }


def summary(name: str, figures: dict[str, object]) -> str:
    """One line of figures against the targets."""
    scratch = figures["kb_build_from_scratch"]
    noop = figures["kb_build_no_change"]
    one_set = figures["kb_build_one_changed_set"]
    links = figures["link_crawl"]
    lines = [
        f"from scratch {scratch['seconds']} s, {scratch['cpu_seconds']} s of CPU (target < 180 s)",
        f"peak {scratch['peak_mb']} MB (target < 1500 MB)",
        f"no change {noop['seconds']} s, {noop['cpu_seconds']} s of CPU (target < 5 s)",
        f"one changed set {one_set['seconds']} s, {one_set['cpu_seconds']} s of CPU (< 60 s)",
        f"{scratch['html_pages']} HTML pages, {scratch['megabytes']} MB",
        f"largest page besides the one-page rules {scratch['largest_page_kb']} kB "
        f"({scratch['largest_page']}), {len(scratch['pages_over_1_mb'])} over 1 MB",
        f"largest offline search script {scratch['largest_search_script_kb']} kB "
        f"({scratch['largest_search_script']}, {scratch['offline_search_scripts']} scripts)",
        f"{links['broken']} broken of {links['links_checked']} internal links",
    ]
    return f"{name}: " + "; ".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--skip-small", action="store_true", help="Only the full scale.")
    parser.add_argument(
        "--home",
        type=Path,
        help="A prebuilt full-corpus kb home, used IN PLACE (pass a copy): the full scale.",
    )
    parser.add_argument("--from-kb", type=Path, help="Copy this prebuilt kb home in first.")
    parser.add_argument(
        "--set-file",
        type=Path,
        default=ROOT.parent / "shared" / "corpus" / "mtgjson" / "KHM.json",
        help="An MTGJSON set file copied in and changed for the one-changed-set rebuild.",
    )
    parser.add_argument("--keep", type=Path, help="Work in this folder and keep it.")
    parser.add_argument("--seeds", type=Path, default=ROOT / "corpus")
    parser.add_argument("--also", type=Path, action="append", default=[])
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="kb-site-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    figures: dict[str, object] = {}
    try:
        if not args.skip_small:
            if not args.small.is_dir():
                sys.exit(f"the corpus is missing at {args.small}")
            corpus = [args.seeds.resolve(), args.small.resolve()]
            small = work / "small"
            figures["small"] = scenario(small, corpus, args.set_file, small / "_kb")
        full_home = args.home
        if args.from_kb:
            full_home = work / "full" / "_kb"
            shutil.copytree(args.from_kb, full_home, ignore=shutil.ignore_patterns("writer.lock"))
        if full_home is not None:
            # The prebuilt knowledge base holds the corpus already: only the changed set (and
            # --also folders it was built from) are configured, so nothing else is reloaded.
            corpus = [a.resolve() for a in args.also]
            figures["full"] = scenario(work / "full", corpus, args.set_file, full_home.resolve())
            figures["full"]["prebuilt_kb"] = str(args.from_kb or args.home)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    figures["load_average"] = round(os.getloadavg()[0], 1)
    figures["cores"] = os.cpu_count()
    print(json.dumps(figures, indent=2))
    print()
    for name in ("small", "full"):
        if name in figures:
            print(summary(name, figures[name]))  # type: ignore[arg-type]
    print(f"load average {figures['load_average']} on {figures['cores']} cores")


if __name__ == "__main__":
    main()

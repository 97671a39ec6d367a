"""`kb update` on real files served locally: cold update, no-op update, one new edition.

Usage: python benchmarks/update.py [--corpus-full ../shared/corpus-full] [--editions 2]
                                   [--no-cards]

A local http.server (127.0.0.1, ephemeral port) plays Wizards' rules page and MTGJSON: it serves
the two newest CR editions of corpus-full under their official names and its
AllPrintings.json.xz with a .sha256. Each `kb update` runs in a fresh process (peak memory is
its own, from getrusage) into a new SQLite database; the figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import json, resource, sys
from kb.cli import main
try:
    main(sys.argv[1:], standalone_mode=True)
except SystemExit as exit:
    code = exit.code
else:
    code = 0
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"peak_rss_mb": usage.ru_maxrss / 1024, "exit": code}), file=sys.stderr)
"""


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *_args: object) -> None:
        pass


def page(names: list[str]) -> str:
    links = "".join(f'<a href="/downloads/{n.replace(" ", "%20")}">{n}</a>\n' for n in names)
    return f"<!DOCTYPE html><html><body>{links}</body></html>"


def run_update(project: Path, env: dict[str, str], *args: str) -> dict:
    """One `kb update` in a new process: wall time, peak RSS, exit status, its report."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, "update", "--json", *args],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
    )
    seconds = time.perf_counter() - start
    figures = json.loads(out.stderr.strip().splitlines()[-1])
    error = [line for line in out.stderr.splitlines() if line.startswith("kb: error:")]
    report = json.loads(out.stdout) if out.stdout.strip() else None
    return {"seconds": round(seconds, 2), **figures, "error": error, "report": report}


def describe(name: str, result: dict) -> None:
    report = result["report"] or {}
    fetched = [Path(i["path"]).name for i in report.get("installed", [])]
    current = [c["name"] for c in report.get("checked", []) if c["status"] == "current"]
    line = (
        f"{name}: {result['seconds']} s wall, peak RSS {result['peak_rss_mb']:.0f} MB, "
        f"exit {result['exit']}; fetched {fetched or 'nothing'}; up to date {current or '-'}"
    )
    print(line)
    if report.get("rules") and report["rules"].get("diff"):
        s = report["rules"]["diff"]["summary"]
        print(f"  diff: {json.dumps(s)}")
    if report.get("cards"):
        print(f"  cards: {json.dumps(report['cards']['summary'])}")
    for error in result["error"]:
        print(f"  {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus-full", type=Path, default=ROOT.parent / "shared" / "corpus-full")
    parser.add_argument("--no-cards", action="store_true", help="Serve and fetch the rules only.")
    args = parser.parse_args()
    editions = sorted((args.corpus_full / "cr" / "en").glob("MagicCompRules*.txt"))[-2:]
    all_printings = args.corpus_full / "mtgjson" / "AllPrintings.json.xz"
    with tempfile.TemporaryDirectory() as tmp:
        www, project = Path(tmp) / "www", Path(tmp) / "project"
        (www / "en" / "rules").mkdir(parents=True)
        (www / "downloads").mkdir()
        (www / "api").mkdir()
        names = [p.name.replace("_", " ") for p in editions]
        for source, name in zip(editions, names, strict=True):
            os.symlink(source, www / "downloads" / name)
        if not args.no_cards:
            os.symlink(all_printings, www / "api" / all_printings.name)
            digest = hashlib.sha256(all_printings.read_bytes()).hexdigest()
            (www / "api" / (all_printings.name + ".sha256")).write_text(digest + "\n")
        (www / "en" / "rules" / "index.html").write_text(page(names[:1]))
        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(www)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        project.mkdir()
        (project / "corpus").mkdir()
        (project / "kb.toml").write_text('home = "_kb"\ncorpus = ["corpus"]\n')
        env = {
            **os.environ,
            "KB_RULES_PAGE_URL": f"{base}/en/rules/",
            "KB_MTGJSON_URL": f"{base}/api/{all_printings.name}",
        }
        env.pop("KB_DATABASE_URL", None)
        only = ["--only", "rules"] if args.no_cards else []
        print(f"serving {', '.join(names)}" + ("" if args.no_cards else " and AllPrintings"))
        describe("cold update", run_update(project, env, *only))
        describe("no-op update", run_update(project, env, *only))
        (www / "en" / "rules" / "index.html").write_text(page(names))
        describe("one new edition", run_update(project, env, "--only", "rules"))
        server.shutdown()
    print(f"command: python benchmarks/update.py --corpus-full {args.corpus_full}")


if __name__ == "__main__":
    main()

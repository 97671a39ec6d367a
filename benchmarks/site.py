"""Site build speed on the real corpus: `kb build` from scratch, rendering, Pagefind, no-op rebuild.

Usage: python benchmarks/site.py [--corpus ../shared/corpus] [--keep DIR]

1. `kb build` from scratch (the job the CLI runs): ingest the seeds and the real corpus into a new
   database, build the links and the search index, render every page of the three languages,
   run Pagefind, write the site.
2. A full site build from that loaded database (every page rendered and written afresh into a new
   folder): pages, bytes, seconds, pages per second of rendering, and Pagefind's share.
3. `kb build` again with nothing changed.
Targets (issue 5): >= 500 pages/s of rendering, `kb build` from scratch < 90 s, no-op < 3 s.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.config import Settings  # noqa: E402
from kb.pipeline import build, open_db  # noqa: E402
from kb.site import build_site  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--keep", type=Path, help="Work in this folder and keep it.")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"the real corpus is missing at {args.corpus}")
    work = args.keep or Path(tempfile.mkdtemp(prefix="kb-site-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    settings = Settings(home=work / "_kb", corpus=(ROOT / "corpus", args.corpus), base_dir=ROOT)
    try:
        start = time.perf_counter()
        scratch = build(settings, work / "site")
        scratch_seconds = time.perf_counter() - start

        db = open_db(settings, create=False)
        try:
            full = build_site(db, work / "site-again", search=True)
        finally:
            db.dispose()

        start = time.perf_counter()
        noop = build(settings, work / "site")
        noop_seconds = time.perf_counter() - start
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    figures = {
        "kb_build_from_scratch": {
            "seconds": round(scratch_seconds, 2),
            "refreshed": scratch.stages,
            "pages": scratch.site.pages,
            "pagefind_seconds": round(scratch.site.seconds_pagefind, 2),
        },
        "site_build_from_loaded_db": {
            "pages": full.pages,
            "files": full.files,
            "bytes": full.bytes,
            "seconds_total": round(full.seconds_total, 2),
            "seconds_read_db_and_stages": round(full.seconds_load, 2),
            "seconds_render": round(full.seconds_render, 2),
            "pages_per_second_render": round(full.pages / full.seconds_render),
            "cpu_seconds_render": round(full.cpu_seconds_render, 2),
            "pages_per_cpu_second_render": round(full.pages / full.cpu_seconds_render),
            "seconds_pagefind": round(full.seconds_pagefind, 2),
            "pagefind_share": round(full.seconds_pagefind / full.seconds_total, 3),
        },
        "kb_build_no_change": {
            "seconds": round(noop_seconds, 2),
            "up_to_date": noop.site.up_to_date,
            "files_written": noop.site.written,
        },
    }
    print(json.dumps(figures, indent=2))
    print(
        f"\n{full.pages} pages, {full.bytes / 1e6:.1f} MB: rendered at "
        f"{full.pages / full.seconds_render:.0f} pages/s of wall time, "
        f"{full.pages / full.cpu_seconds_render:.0f} pages per CPU second (target >= 500; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); site build "
        f"{full.seconds_total:.1f} s of which Pagefind {full.seconds_pagefind:.1f} s "
        f"({100 * full.seconds_pagefind / full.seconds_total:.0f}%); "
        f"`kb build` from scratch {scratch_seconds:.1f} s (target < 90 s); "
        f"no-change rebuild {noop_seconds:.2f} s (target < 3 s)"
    )


if __name__ == "__main__":
    main()

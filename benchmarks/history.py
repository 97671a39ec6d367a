"""The whole real history: every CR edition of corpus-full and AllPrintings, parsed and loaded.

Usage: nice python benchmarks/history.py [--corpus-full ../shared/corpus-full] [--keep DIR]
       [--links] [--no-cards]

Prints, for the 104 editions of ``cr/en`` and ``mtgjson/AllPrintings.json.xz``:

1. the parsers alone over every CR file (decode + parse, no database): time, editions parsed or
   refused with the reason, warnings by kind;
2. ``ingest_paths`` of everything into a new SQLite database, in a fresh process so its peak
   memory is its own: time, peak RSS, documents loaded/failed, warnings by kind, editions,
   cards, printings, rulings. Links (``--links``) are left out by default: their cost over 104
   editions belongs to the links benchmark (benchmarks/links.py).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

from fresh_process import run_python  # benchmarks/fresh_process.py

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
from collections import Counter
from pathlib import Path
from sqlalchemy import func, select
from kb.config import Settings
from kb.models import Card, Clarification, Edition, Printing
from kb.pipeline import open_db, rebuild_links
from kb.ingest import ingest_paths
home, links, *paths = sys.argv[1:]
db = open_db(Settings(home=Path(home)))
start = time.perf_counter()
report = ingest_paths(db, [Path(p) for p in paths])
seconds = time.perf_counter() - start
link_seconds = None
if links == "1":
    start = time.perf_counter()
    rebuild_links(db)
    link_seconds = time.perf_counter() - start
with db.session() as s:
    count = lambda model: s.scalar(select(func.count()).select_from(model))
    comprules = select(func.count()).select_from(Edition).where(Edition.kind == "comprules")
    editions = s.scalar(comprules)
    figures = {"editions": editions, "cards": count(Card), "printings": count(Printing),
               "rulings": count(Clarification)}
print(json.dumps({
    "seconds": seconds,
    "link_seconds": link_seconds,
    "loaded": len(report.loaded),
    "failed": [str(f) for f in report.failed],
    "warnings": dict(Counter(w.kind for w in report.warnings)),
    "warning_lines": [str(w) for w in report.warnings],
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    **figures,
}))
"""


def parse_all(cr_dir: Path) -> dict:
    """Decode and parse every CR file in this process; no database."""
    from kb.corpus import decode_file, parse_text
    from kb.errors import ParseError

    parsed, refused, warnings = 0, [], Counter()
    encodings: Counter[str] = Counter()
    start = time.perf_counter()
    for path in sorted(cr_dir.iterdir()):
        try:
            text, encoding = decode_file(path)
            document = parse_text(text, str(path))
        except ParseError as error:
            refused.append(f"{path.name}:{error.line}: {error.reason}")
            continue
        parsed += 1
        encodings[encoding] += 1
        warnings.update(w.kind for w in getattr(document, "warnings", []))
    return {
        "seconds": time.perf_counter() - start,
        "parsed": parsed,
        "refused": refused,
        "encodings": dict(sorted(encodings.items())),
        "warnings": dict(sorted(warnings.items())),
    }


def ingest_all(home: Path, paths: list[Path], links: bool) -> dict:
    """Run ingest_paths in a new Python process and return its measurements."""
    return run_python(CHILD, str(home), "1" if links else "0", *map(str, paths))


def main() -> None:
    """Parse, then ingest, the whole history and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus-full", type=Path, default=ROOT.parent / "shared" / "corpus-full")
    parser.add_argument("--keep", type=Path, help="build the database in DIR and keep it")
    parser.add_argument("--links", action="store_true", help="also rebuild the links")
    parser.add_argument("--no-cards", action="store_true", help="leave AllPrintings out")
    parser.add_argument(
        "--cards-only", action="store_true", help="ingest AllPrintings alone (its own peak RSS)"
    )
    args = parser.parse_args()
    cr_dir = args.corpus_full / "cr" / "en"
    allprintings = args.corpus_full / "mtgjson" / "AllPrintings.json.xz"
    files = len(list(cr_dir.iterdir()))

    if not args.cards_only:
        parse = parse_all(cr_dir)
        print(f"parsers over {files} CR files: {parse['seconds']:.1f} s")
        print(f"  parsed {parse['parsed']}, refused {len(parse['refused'])}")
        for line in parse["refused"]:
            print(f"    refused {line}")
        print(f"  encodings: {parse['encodings']}")
        print(f"  warnings by kind: {parse['warnings']}")

    paths = [cr_dir] if args.no_cards else [cr_dir, allprintings]
    if args.cards_only:
        paths = [allprintings]
    with tempfile.TemporaryDirectory() as tmp:
        home = args.keep or Path(tmp)
        result = ingest_all(home, paths, args.links)
    print(f"ingest of {', '.join(p.name for p in paths)}: {result['seconds']:.1f} s")
    if result["link_seconds"] is not None:
        print(f"  links: {result['link_seconds']:.1f} s")
    print(f"  peak RSS: {result['peak_rss_mb']:.0f} MB")
    print(f"  documents loaded {result['loaded']}, failed {len(result['failed'])}")
    for line in result["failed"]:
        print(f"    failed {line}")
    print(f"  warnings by kind: {dict(sorted(result['warnings'].items()))}")
    for line in result["warning_lines"]:
        print(f"    {line}")
    print(
        f"  editions {result['editions']}, cards {result['cards']}, "
        f"printings {result['printings']}, rulings {result['rulings']}"
    )


if __name__ == "__main__":
    main()

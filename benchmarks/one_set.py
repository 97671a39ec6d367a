"""Re-ingest one changed set file into a prebuilt knowledge base, as whole `kb` processes.

Usage: python benchmarks/one_set.py --from-kb DIR [--set ../shared/corpus/mtgjson/KHM.json]
           [--runs N] [--keep DIR]

The full-history figure of benchmarks/full_scale.py ("re-ingest one set") without rebuilding the
history first: the knowledge base in ``--from-kb`` (never written) is copied, a copy of the set
file is ingested into it from a folder of its own (the preparation, printed too), one card's text
is edited as full_scale.py does, and the folder is ingested again: that is the figure. With
``--runs N`` the edited ingest is repeated on fresh copies of the prepared knowledge base. Each
step is a fresh process; CPU seconds (user + system) and peak RSS are the child's own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from full_scale import edit_set, kb, show  # benchmarks/full_scale.py

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from-kb", type=Path, required=True, help="a prebuilt kb home")
    parser.add_argument(
        "--set", type=Path, default=ROOT.parent / "shared" / "corpus" / "mtgjson" / "KHM.json"
    )
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    args = parser.parse_args()
    if not (args.from_kb / "kb.sqlite").is_file():
        sys.exit(f"no SQLite knowledge base in {args.from_kb}")
    print(f"$ {' '.join([Path(sys.executable).name, *sys.argv])}")
    with tempfile.TemporaryDirectory(prefix="kb-one-set-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        prepared, sets = work / "prepared", work / "sets"
        shutil.rmtree(prepared, ignore_errors=True)
        shutil.rmtree(sets, ignore_errors=True)
        shutil.copytree(args.from_kb, prepared, symlinks=True)
        sets.mkdir()
        shutil.copy(args.set, sets / args.set.name)
        print(f"(load average {load()})")
        show("prepare: ingest copy", kb(prepared, None, "ingest", str(sets)))
        original = (sets / args.set.name).read_bytes()
        edit_set(sets / args.set.name)
        edited = (sets / args.set.name).read_bytes()
        for run in range(args.runs):
            home = work / f"run{run}"
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(prepared, home, symlinks=True)
            # The same edited bytes, written anew: the stat differs, the ingest reads the file.
            (sets / args.set.name).write_bytes(original)
            (sets / args.set.name).write_bytes(edited)
            print(f"(load average {load()})")
            show("re-ingest one set", kb(home, None, "ingest", str(sets)))
        print(f"(load average {load()})")


if __name__ == "__main__":
    main()

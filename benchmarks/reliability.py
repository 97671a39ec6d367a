"""Reliability figures: inputs fuzzed, faults injected, attacks tried, requests served, errors.

Usage: python benchmarks/reliability.py [--corpus ../shared/corpus] [--kills 8] [--examples 300]
                                       [--seed N] [--skip-load] [--only fuzz,faults,attacks,load]
                                       [--heavy 10] [--think 1.0] [--without-ingests]

Runs outside pytest with the test suite's own machinery (tests/test_fuzz.py, test_faults.py,
test_faults_load.py): every parser on Hypothesis-generated and huge hostile inputs; ``kb ingest``
SIGKILLed at random SQL statements and moments, then rerun, plus a full disk, a read-only data
folder and two concurrent writers, each compared row for row with a clean ingest; ``kb serve``
under 50 clients (10 of them sending the heaviest queries allowed, back to back; the others users
with a think time, see tests/test_faults_load.py) while two ingests rewrite the data (or, with
``--without-ingests``, serving only: the latency target's own setting). With
KB_DATABASE_URL pointing at PostgreSQL the faults run there (in schemas it creates and drops).
Exits 1 unless errors and rows lost are 0 and the simple queries' p99 is under 200 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
P99_TARGET_MS = 200.0
# Hypothesis examples per property, read when tests/test_fuzz.py is imported just below.
if "--examples" in sys.argv[:-1]:
    os.environ["KB_FUZZ_EXAMPLES"] = sys.argv[sys.argv.index("--examples") + 1]
os.environ.setdefault("KB_FUZZ_EXAMPLES", "300")

import attacks as hostile  # noqa: E402  (benchmarks/attacks.py)
import test_faults as faults  # noqa: E402
import test_faults_load as load  # noqa: E402
import test_fuzz as fuzz  # noqa: E402

from kb.config import Settings  # noqa: E402
from kb.corpus import FORMATS  # noqa: E402
from kb.pipeline import ingest  # noqa: E402


class Tally:
    """The figures the report prints."""

    def __init__(self) -> None:
        self.fuzzed = 0
        self.faults = Counter[str]()
        self.served = 0
        self.errors: list[str] = []
        self.rows_lost = 0
        self.rows_extra = 0
        self.rows_duplicated = 0

    def rows(self, outcome: dict[str, int], what: str) -> None:
        self.rows_lost += outcome["lost"]
        self.rows_extra += outcome["extra"]
        self.rows_duplicated += outcome["duplicated"]
        if any(outcome.values()):
            self.errors.append(f"{what}: {outcome}")


@contextmanager
def databases() -> Iterator[Callable[[Path, str], str]]:
    """Make empty databases: SQLite files, or schemas on KB_DATABASE_URL's PostgreSQL server."""
    url = os.environ.get("KB_DATABASE_URL", "")
    if not url.startswith("postgresql"):
        yield lambda folder, name: f"sqlite:///{(folder / f'{name}.sqlite').as_posix()}"
        return
    from conftest import _pg_drop_schema, _pg_schema_url
    from sqlalchemy import create_engine, pool

    admin = create_engine(url, poolclass=pool.NullPool, isolation_level="AUTOCOMMIT")
    made: list[str] = []

    def make(_folder: Path, _name: str) -> str:
        made.append(_pg_schema_url(admin, "kbbench"))
        return made[-1]

    try:
        yield make
    finally:
        for schema_url in made:
            _pg_drop_schema(admin, schema_url)
        admin.dispose()


# --- fuzzing ---------------------------------------------------------------------------------


def run_fuzz(tally: Tally, work: Path) -> None:
    """Every Hypothesis property of tests/test_fuzz.py, then the huge inputs in child processes."""
    real_check = fuzz.check_parse

    def counting(parse: Any, text: str) -> None:
        tally.fuzzed += 1
        real_check(parse, text)

    fuzz.check_parse = counting
    properties = [
        fuzz.test_random_unicode,
        fuzz.test_shuffled_real_lines,
        fuzz.test_truncated_real_files,
        fuzz.test_truncated_real_bytes_mid_character,
        fuzz.test_mixed_line_endings,
        fuzz.test_real_files_with_hostile_characters,
        fuzz.test_random_bytes_through_read_and_detect,
    ]
    try:
        for prop in properties:
            try:
                prop()
            except Exception as exc:  # a property that fails is an error of the report
                tally.errors.append(f"fuzz {prop.__name__}: {exc!r}"[:500])
    finally:
        fuzz.check_parse = real_check
    for name, text in sorted(fuzz.huge_inputs().items()):
        folder = work / f"huge-{name}"
        folder.mkdir()
        try:
            outcomes = fuzz.parse_in_child(folder, text, "detect", *FORMATS)
        except BaseException as exc:  # pytest.fail raises an Exception subclass of BaseException
            tally.errors.append(f"huge input {name}: {exc}"[:500])
            continue
        tally.fuzzed += len(outcomes)


# --- faults ----------------------------------------------------------------------------------


def run_faults(tally: Tally, work: Path, corpus: Path, kills: int, seed: int) -> None:
    """Kill, fill the disk, lock the folder, race two writers; compare with a clean ingest."""
    rng = random.Random(seed)
    files = [str(faults.SEEDS), str(corpus)]
    with databases() as fresh:
        clean = fresh(work, "reference")
        report = ingest(
            Settings(home=work / "reference", database_url=clean), [Path(f) for f in files]
        )
        if report.failed:
            tally.errors.append(f"the clean ingest failed: {report.failed[:3]}")
        reference = faults.fingerprint(clean)
        statements = faults.statement_milestones(work / "count", fresh(work, "count"), files)[
            "collect_garbage"
        ]

        # SIGKILL at a random statement or moment of a fresh ingest, a check, a rerun, a compare.
        for number in range(kills):
            url = fresh(work, f"killed{number}")
            home = work / f"killed{number}"
            try:
                injected = faults.kill_and_rerun(
                    home, url, files, rng, 1, statements, first=number % 2
                )
            except AssertionError as exc:
                tally.errors.append(f"kill {number}: {exc}"[:500])
                continue
            tally.faults["SIGKILL at a statement"] += injected["statement"]
            tally.faults["SIGKILL at a moment"] += injected["moment"]
            tally.rows(faults.compare(reference, faults.fingerprint(url)), f"after kill {number}")

        # A full disk in the data folder (SQLite: every file write past a size fails).
        home = work / "full"
        url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
        faults.run_kb(*faults.kb_args(home, url, "ingest", str(faults.SEEDS)))
        size = (home / "kb.sqlite").stat().st_size
        full = faults.run_kb(
            *faults.kb_args(home, url, "ingest", str(corpus)), fault={"fsize": size + 65536}
        )
        tally.faults["full disk"] += 1
        if full.returncode != 1 or "Traceback" in full.stderr:
            tally.errors.append(f"full disk: exit {full.returncode}: {full.stderr[-300:]}")
        rerun = faults.run_kb(*faults.kb_args(home, url, "ingest", "--strict", *files))
        if rerun.returncode != 0:
            tally.errors.append(f"rerun after the full disk failed: {rerun.stderr[-300:]}")
        tally.rows(faults.compare(reference, faults.fingerprint(url)), "after a full disk")

        # A read-only data folder: refused, nothing changed.
        before = faults.fingerprint(url)
        refused = faults.run_kb(
            *faults.kb_args(home, url, "ingest", *files), fault={"readonly": str(home)}
        )
        tally.faults["read-only folder"] += 1
        if refused.returncode != 1 or "Traceback" in refused.stderr:
            tally.errors.append(f"read-only: exit {refused.returncode}: {refused.stderr[-300:]}")
        tally.rows(faults.compare(before, faults.fingerprint(url)), "after a read-only folder")

        # Two writers at once: the second waits.
        url = fresh(work, "two")
        home = work / "two"
        first = faults._paused_writer(home, url, files, work / "paused")
        second = faults.run_kb(*faults.kb_args(home, url, "ingest", *files), wait=False)
        first.communicate(timeout=300)
        _, err = second.communicate(timeout=300)
        tally.faults["concurrent writer"] += 1
        if first.returncode != 0 or second.returncode != 0 or "waiting" not in err:
            tally.errors.append(f"two writers: exits {first.returncode}, {second.returncode}")
        tally.rows(faults.compare(reference, faults.fingerprint(url)), "after two writers")


# --- load ------------------------------------------------------------------------------------


def run_load(
    tally: Tally,
    work: Path,
    corpus: Path,
    seed: int,
    heavy: int,
    think: float,
    ingests: bool = True,
) -> dict[str, Any]:
    """kb serve under load (while two ingests run, unless not ``ingests``), on its own database."""
    saved = os.environ.get("KB_DATABASE_URL")
    with databases() as fresh:
        url = fresh(work, "load")
        if url.startswith("postgresql"):  # the ingests' child processes read it
            os.environ["KB_DATABASE_URL"] = url
        try:
            outcome = load.serve_under_load(
                work,
                corpus,
                seed,
                clients=load.CLIENTS,
                seconds=load.SECONDS,
                heavy=heavy,
                think=think,
                ingests=ingests,
            )
        except (Exception, AssertionError) as exc:  # e.g. an at-rest answer that timed out
            tally.errors.append(f"load: {exc!r}"[:500])
            return {}
        finally:
            if saved is not None:
                os.environ["KB_DATABASE_URL"] = saved
    tally.served += outcome["served"]
    tally.errors += [f"request: {e}" for e in outcome["errors"]]
    tally.errors += [f"wrong answer: {w}" for w in outcome["wrong"]]
    if "Traceback" in outcome["server_log"]:
        tally.errors.append("the server logged a traceback")
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--kills", type=int, default=8, help="ingests to kill (default 8)")
    parser.add_argument(
        "--examples", type=int, default=300, help="Hypothesis examples per property (300)"
    )
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--skip-load", action="store_true", help="skip the 30 s serve load test")
    parser.add_argument(
        "--only", default="fuzz,faults,attacks,load", help="stages to run (comma-separated)"
    )
    parser.add_argument(
        "--heavy",
        type=int,
        default=load.HEAVY_CLIENTS,
        help=f"load clients sending the heaviest queries (default {load.HEAVY_CLIENTS})",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=load.THINK,
        help=f"simple clients' mean think time in seconds (default {load.THINK:g}; 0: none)",
    )
    parser.add_argument(
        "--without-ingests",
        action="store_true",
        help="serve only: no ingest rewrites the data under the load",
    )
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    stages = set(args.only.split(",")) - ({"load"} if args.skip_load else set())
    tally = Tally()
    timings: dict[str, float] = {}
    served_detail: dict[str, Any] = {}
    figures: dict[str, float] = {}
    attacks: hostile.Attacks | None = None

    def run_attacks() -> None:
        nonlocal attacks
        attacks = hostile.run_attacks(work / "attacks", figures)
        tally.errors += [f"attack {failure}" for failure in attacks.failures]

    with tempfile.TemporaryDirectory(prefix="kb-reliability-") as tmp:
        work = Path(tmp)
        for stage, run in (
            ("fuzz", lambda: run_fuzz(tally, work / "fuzz")),
            ("faults", lambda: run_faults(tally, work / "faults", args.corpus, args.kills, seed)),
            ("attacks", run_attacks),
            (
                "load",
                lambda: served_detail.update(
                    run_load(
                        tally,
                        work / "load",
                        args.corpus,
                        seed,
                        args.heavy,
                        args.think,
                        ingests=not args.without_ingests,
                    )
                ),
            ),
        ):
            if stage not in stages:
                continue
            (work / stage).mkdir()
            started = time.perf_counter()
            run()
            timings[stage] = time.perf_counter() - started
    database = (
        "PostgreSQL" if os.environ.get("KB_DATABASE_URL", "").startswith("postgresql") else "SQLite"
    )
    print(f"kb reliability report (seed {seed}, {database}, corpus {args.corpus})")
    print(
        f"  inputs fuzzed     {tally.fuzzed:>8,}   ({timings.get('fuzz', 0):.0f} s, every parser)"
    )
    injected = sum(tally.faults.values())
    detail = ", ".join(f"{n} {what}" for what, n in sorted(tally.faults.items()))
    print(f"  faults injected   {injected:>8,}   ({detail}; {timings.get('faults', 0):.0f} s)")
    if attacks is not None:
        per_area = ", ".join(f"{area} {n}" for area, n in sorted(attacks.tried.items()))
        print(
            f"  attacks tried     {sum(attacks.tried.values()):>8,}   ({per_area}; "
            f"{timings.get('attacks', 0):.0f} s), failures {len(attacks.failures)}"
        )
        if "po_memory_mb" in figures:
            print(
                f"                               a {figures['po_file_mb']:.0f} MB msgid line read "
                f"in {figures['po_memory_mb']:.0f} MB more memory"
            )
    else:
        print("  attacks tried          -   (skipped)")
    p99_missed = False
    if served_detail:
        latency = served_detail["latency"]
        simple = [1000 * t for t in latency["simple"]]
        heavy = [1000 * t for t in latency["heavy"]]
        p99 = load.percentile(simple, 0.99)
        p99_missed = p99 >= P99_TARGET_MS
        answers = ", ".join(
            f"{status} ×{n}" for status, n in sorted(served_detail["heavy_statuses"].items())
        )
        print(
            f"  requests served   {tally.served:>8,}   ({served_detail['clients']} clients, "
            f"{served_detail['heavy']} of them heavy, {served_detail['seconds']:.0f} s, "
            + ("no ingest" if args.without_ingests else "two ingests underneath")
            + ")"
        )
        think = served_detail["think"]
        print(
            "                               closed loop: "
            f"{served_detail['clients'] - served_detail['heavy']} simple clients "
            + (f"think {think:g} s on average (exponential)" if think else "with no think time")
            + f" between answers, {served_detail['heavy']} heavy ones back to back"
        )
        start_load, end_load = served_detail["load_average"]
        print(
            f"                               load average {start_load:.1f} at the start, "
            f"{end_load:.1f} at the end, on {os.cpu_count()} cores"
        )
        cpu = served_detail["cpu"]
        if cpu:
            print(
                f"                               CPU: server {cpu['server']:.1f} s, its broad "
                f"worker {cpu['children']:.1f} s, the clients (another process) "
                f"{cpu['clients']:.1f} s, over {served_detail['seconds']:.0f} s"
            )
        print(
            f"  simple queries    p50 {load.percentile(simple, 0.5):.0f} ms, p99 {p99:.0f} ms "
            f"({len(simple):,} answers; target p99 < {P99_TARGET_MS:.0f} ms: "
            f"{'MISSED' if p99_missed else 'met'})"
        )
        print(
            f"  heavy queries     p50 {load.percentile(heavy, 0.5):.0f} ms, "
            f"p99 {load.percentile(heavy, 0.99):.0f} ms ({len(heavy):,} answers: {answers or '-'})"
        )
    else:
        print("  requests served        -   (load test skipped)")
    print(f"  errors            {len(tally.errors):>8,}")
    print(
        f"  rows lost         {tally.rows_lost:>8,}   "
        f"(extra {tally.rows_extra}, duplicated {tally.rows_duplicated})"
    )
    for error in tally.errors[:20]:
        print(f"    {error}")
    return 0 if not tally.errors and not tally.rows_lost and not p99_missed else 1


if __name__ == "__main__":
    sys.exit(main())

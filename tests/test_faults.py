"""Faults: ingest SIGKILLed at random points, a full disk, a read-only data folder, two writers.

Each fault is injected into a real ``kb`` process (a child interpreter running the CLI through
FAULT_RUNNER below): a SQLAlchemy hook kills it at its N-th SQL statement, RLIMIT_FSIZE makes
every file write past a size fail as on a full disk, or the OS calls are patched so that the data
folder is read-only. Afterwards the database must be consistent (every document marked loaded
holds its rows, no duplicates) and a plain rerun must give exactly the knowledge base a clean
ingest gives, row for row.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Integer, text
from sqlalchemy.engine import make_url

from kb.db import make_engine
from kb.models import Base

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus"
# The kills' seed: fixed, so that a failure replays with the same statement kills and the same
# delays (the delays' kills still land where the clock puts them); KB_FAULT_SEED picks another.
SEED = int(os.environ.get("KB_FAULT_SEED") or 20260116)

FAULT_RUNNER = r"""
import json, os, signal, sys, time

spec = json.loads(sys.argv[1])
if spec.get("kill_at") or spec.get("pause_at"):
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    executed = [0]

    @event.listens_for(Engine, "after_cursor_execute")
    def _fault(*_args):
        executed[0] += 1
        if executed[0] == spec.get("kill_at"):
            os.kill(os.getpid(), signal.SIGKILL)
        if executed[0] == spec.get("pause_at"):
            open(spec["pause_flag"], "w").close()
            time.sleep(spec["pause_seconds"])

if spec.get("fsize") is not None:  # a full disk: every file write past this size fails
    import resource
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (spec["fsize"], spec["fsize"]))

if spec.get("readonly") or spec.get("nospace"):
    # A read-only folder (whoever runs the test: root ignores chmod), or a full one.
    import builtins, errno, io, sqlite3, urllib.parse

    root = os.path.realpath(spec.get("readonly") or spec["nospace"])
    code = errno.EROFS if spec.get("readonly") else errno.ENOSPC

    def inside(path):
        if isinstance(path, int):
            return False
        real = os.path.realpath(os.fsdecode(path))
        return real == root or real.startswith(root + os.sep)

    def deny(path):
        raise OSError(code, os.strerror(code), os.fsdecode(path))

    real_io_open = io.open

    def guarded_open(file, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+") and inside(file):
            deny(file)
        return real_io_open(file, mode, *args, **kwargs)

    builtins.open = io.open = guarded_open
    real_os_open = os.open
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def guarded_os_open(path, flags, mode=0o777, *, dir_fd=None):
        if flags & writing and inside(path):
            deny(path)
        return real_os_open(path, flags, mode, dir_fd=dir_fd)

    os.open = guarded_os_open

    def guard(function, arity):
        def guarded(*args, **kwargs):
            for path in args[:arity]:
                if inside(path):
                    deny(path)
            return function(*args, **kwargs)
        return guarded

    if code == errno.ENOSPC:  # a full disk still deletes and renames
        os.mkdir = guard(os.mkdir, 1)
    else:
        for name in ("mkdir", "rmdir", "remove", "unlink", "chmod", "utime", "truncate"):
            setattr(os, name, guard(getattr(os, name), 1))
        for name in ("rename", "replace", "symlink", "link"):
            setattr(os, name, guard(getattr(os, name), 2))
    real_connect = sqlite3.connect

    def read_only_connect(database, *args, **kwargs):
        if isinstance(database, str) and not database.startswith("file:") and inside(database):
            database = "file:" + urllib.parse.quote(database) + "?mode=ro"
            kwargs["uri"] = True
        return real_connect(database, *args, **kwargs)

    sqlite3.connect = sqlite3.dbapi2.connect = read_only_connect

from kb.cli import main

main(sys.argv[2:], prog_name="kb")
"""


def run_kb(
    *args: str,
    fault: dict[str, Any] | None = None,
    wait: bool = True,
    timeout: float = 120,
    cwd: Path = ROOT,
) -> subprocess.CompletedProcess[str] | subprocess.Popen[str]:
    """Run ``kb ARGS`` in a child interpreter with a fault injected; wait for it unless told."""
    command = [sys.executable, "-c", FAULT_RUNNER, json.dumps(fault or {}), *args]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("KB_DATABASE_URL", None)  # every call names its database with --database
    if not wait:
        return subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=env
        )
    return subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env
    )


def kb_args(home: Path, url: str, *args: str) -> list[str]:
    return ["--home", str(home), "--database", url, *args]


# --- what a consistent, complete knowledge base is ------------------------------------------


def _value(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True)
    if isinstance(value, float):
        return round(value, 6)
    return value


# Columns that describe the files read, not the knowledge: the stat a file had when it was hashed
# (kb.ingest.file_stat) differs between two runs over the same bytes, and is None within seconds
# of a file's last change.
NOT_CONTENT = {("documents", "file_stat")}
# A cache of the link walk (kb.links.walk_state): which run left one depends on the path taken.
NOT_CONTENT_TABLES = {"link_walk_state"}


def fingerprint(url: str) -> Counter[tuple[Any, ...]]:
    """Every row of every kb table, ids replaced by the fingerprint of the row they point to.

    Two knowledge bases with the same content give the same multiset whatever order their rows
    were inserted in (or how many aborted runs came before); generic over kb/models.py so that
    tables added later are covered too.
    """
    engine = make_engine(url)
    rows: Counter[tuple[Any, ...]] = Counter()
    by_id: dict[str, dict[Any, tuple[Any, ...]]] = {}
    try:
        with engine.connect() as conn:
            for table in Base.metadata.sorted_tables:
                if table.name in NOT_CONTENT_TABLES:
                    continue
                pk = list(table.primary_key.columns)
                own_id = pk[0].name if len(pk) == 1 and isinstance(pk[0].type, Integer) else None
                by_id[table.name] = {}
                for row in conn.execute(table.select()).mappings():
                    parts: list[Any] = [table.name]
                    for column in sorted(table.columns, key=lambda c: c.name):
                        value = row[column.name]
                        if column.name == own_id or (table.name, column.name) in NOT_CONTENT:
                            continue
                        if column.foreign_keys:
                            target = next(iter(column.foreign_keys)).column.table.name
                            value = None if value is None else by_id[target].get(value, "dangling")
                        elif column.name.endswith("_id") and isinstance(column.type, Integer):
                            continue  # an id without a foreign key (links.source_id): not content
                        parts.append((column.name, _value(value)))
                    key = tuple(parts)
                    if own_id is not None:
                        by_id[table.name][row[own_id]] = key
                    rows[key] += 1
    finally:
        engine.dispose()
    return rows


# The table whose rows prove that a document of each format really loaded.
OWNED = {
    "comprules": "editions",
    "rule_page": "rules",
    "mtgjson": "printings",
    "rulings_page": "rulings_pages",
}


def problems(url: str) -> list[str]:
    """What is inconsistent in a database: integrity, documents marked loaded without rows."""
    found: list[str] = []
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                check = conn.exec_driver_sql("PRAGMA integrity_check").scalar()
                if check != "ok":
                    found.append(f"integrity_check: {check}")
                dangling = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
                if dangling:
                    found.append(f"foreign keys broken: {dangling[:5]}")
            if not engine.dialect.has_table(conn, "documents"):
                return found
            documents = conn.execute(text("SELECT id, path, format, status FROM documents")).all()
            for doc_id, path, fmt, status in documents:
                if status != "loaded":
                    continue
                table = OWNED.get(fmt or "")
                owned = conn.execute(
                    text(f"SELECT count(*) FROM {table} WHERE document_id = :id"), {"id": doc_id}
                ).scalar()
                if not owned:
                    found.append(f"{path} is marked loaded but owns no {table}")
    finally:
        engine.dispose()
    return found


def compare(expected: Counter[tuple[Any, ...]], actual: Counter[tuple[Any, ...]]) -> dict[str, int]:
    """Rows lost, rows extra and rows duplicated of ``actual`` against ``expected``."""
    lost = expected - actual
    extra = actual - expected
    duplicated = sum(count - expected.get(key, 0) for key, count in actual.items() if count > 1)
    return {
        "lost": sum(lost.values()),
        "extra": sum(extra.values()),
        "duplicated": max(duplicated, 0),
    }


# The faults' corpus: two consecutive editions (aligned, diffed, lineages) and a part of Kaldheim
# that holds the seed 003's card (a rulings page recognised) and modal double-faced cards. Each
# test ingests it several times, fault after fault: the whole shared corpus took twice as long.
FAULT_EDITIONS = ("MagicCompRules_20251114.txt", "MagicCompRules_20260116.txt")


@pytest.fixture(scope="module")
def fault_corpus(
    tmp_path_factory: pytest.TempPathFactory, shared_corpus: Path, khm_part: Path
) -> Path:
    """A folder with two CR editions of the shared corpus and a part of its KHM.json."""
    folder = tmp_path_factory.mktemp("fault-corpus")
    for name in FAULT_EDITIONS:
        (folder / name).write_bytes((shared_corpus / "cr" / "en" / name).read_bytes())
    (folder / "KHM.json").write_bytes(khm_part.read_bytes())
    return folder


@pytest.fixture(scope="module")
def reference(
    tmp_path_factory: pytest.TempPathFactory, fault_corpus: Path, _pg_admin
) -> Counter[tuple[Any, ...]]:
    """The seeds and the faults' corpus ingested cleanly, as a fingerprint."""
    from conftest import _pg_schema_url

    from kb.config import Settings
    from kb.pipeline import ingest

    home = tmp_path_factory.mktemp("reference") / "_kb"
    url = _pg_schema_url(_pg_admin, "kbref") if _pg_admin else f"sqlite:///{home}/kb.sqlite"
    settings = Settings(home=home, database_url=url, corpus=(SEEDS, fault_corpus), base_dir=ROOT)
    report = ingest(settings)
    assert not report.failed, report.failed
    rows = fingerprint(url)
    recognised = [r for r in rows if r[0] == "rulings_pages" and dict(r[1:])["card_id"]]
    assert recognised, "the seed's rulings page should be recognised as the KHM card"
    return rows


def _describe(result: subprocess.CompletedProcess[str]) -> str:
    out, err = result.stdout[-1500:], result.stderr[-3000:]
    return f"exit {result.returncode}\nstdout: {out}\nstderr: {err}"


# --- SIGKILL ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def milestones(
    tmp_path_factory: pytest.TempPathFactory, fault_corpus: Path, _pg_admin
) -> dict[str, int]:
    """Statements a fresh full ingest has run at its upkeep and at its relink (this backend)."""
    from conftest import _pg_schema_url

    folder = tmp_path_factory.mktemp("count")
    url = _pg_schema_url(_pg_admin, "kbcount") if _pg_admin else f"sqlite:///{folder}/c.sqlite"
    return statement_milestones(folder / "_kb", url, [str(SEEDS), str(fault_corpus)])


def kill_and_rerun(
    home: Path,
    url: str,
    corpus: list[str],
    rng: random.Random,
    kills: int,
    statements: int,
    first: int = 0,
) -> dict[str, Any]:
    """Kill ``kb ingest`` ``kills`` times, checking after each, then rerun it to the end.

    Kills alternate between a random SQL statement (inside a document's transaction, in the
    upkeep, in the relink) and a random moment by the clock (parsing, between statements, in a
    commit); ``first=1`` starts with the clock.
    """
    injected: dict[str, Any] = {"statement": 0, "moment": 0}
    kills_made: list[str] = []  # where each kill was aimed, for the failure messages
    budget = statements  # about what is left to do: a rerun skips the documents committed
    for number in range(first, first + kills):
        if number % 2 == 0:
            point = rng.randint(1, budget)
            result = run_kb(*kb_args(home, url, "ingest", *corpus), fault={"kill_at": point})
            assert isinstance(result, subprocess.CompletedProcess)
            assert result.returncode in (0, -9), _describe(result)
            injected["statement"] += result.returncode == -9
            budget = max(budget - point, 20) if result.returncode == -9 else budget
            where = f"statement {point}"
        else:
            child = run_kb(*kb_args(home, url, "ingest", *corpus), wait=False)
            assert isinstance(child, subprocess.Popen)
            delay = rng.uniform(0.3, 2.5)
            time.sleep(delay)
            child.kill()
            child.communicate()
            injected["moment"] += child.returncode == -9
            where = f"{delay:.2f} s"
        kills_made.append(where)
        assert problems(url) == [], f"after a kill at {where} (seed {SEED}, kills {kills_made})"
    final = run_kb(*kb_args(home, url, "ingest", "--strict", *corpus))
    assert final.returncode == 0, _describe(final)
    assert problems(url) == []
    injected["kills"] = kills_made
    return injected


def test_ingest_killed_at_random_points_then_rerun(
    tmp_path: Path, fault_corpus: Path, reference, fresh_database_url, milestones
) -> None:
    rng = random.Random(SEED)
    url = fresh_database_url("killed")
    corpus = [str(SEEDS), str(fault_corpus)]
    injected = kill_and_rerun(tmp_path / "_kb", url, corpus, rng, 6, milestones["collect_garbage"])
    assert injected["statement"] >= 1, f"no kill landed (seed {SEED})"
    assert compare(reference, fingerprint(url)) == {"lost": 0, "extra": 0, "duplicated": 0}, (
        f"seed {SEED}, kills at {injected['kills']}: set KB_FAULT_SEED={SEED} to replay"
    )


@pytest.mark.parametrize(
    "milestone", ["collect_garbage", "rebuild_links"], ids=["in-the-upkeep", "in-the-relink"]
)
def test_killed_after_the_documents_committed(
    tmp_path: Path, fault_corpus: Path, reference, fresh_database_url, milestones, milestone
) -> None:
    """Every document committed, the upkeep (recognition, clean-up) or the links not: a rerun
    that finds every file unchanged must still finish them."""
    corpus = [str(SEEDS), str(fault_corpus)]
    upkeep = milestones[milestone]
    url = fresh_database_url("upkeep")
    home = tmp_path / "_kb"
    killed = run_kb(*kb_args(home, url, "ingest", *corpus), fault={"kill_at": upkeep + 1})
    assert killed.returncode == -9, _describe(killed)
    assert problems(url) == []
    rerun = run_kb(*kb_args(home, url, "ingest", "--strict", *corpus))
    assert rerun.returncode == 0, _describe(rerun)
    assert compare(reference, fingerprint(url)) == {"lost": 0, "extra": 0, "duplicated": 0}


MILESTONES = (("kb.ingest", "collect_garbage"), ("kb.pipeline", "rebuild_links"))


def statement_milestones(home: Path, url: str, corpus: list[str]) -> dict[str, int]:
    """How many SQL statements a fresh ingest has run when it calls each MILESTONES function."""
    probe = (
        "import importlib, sys\n"
        "from sqlalchemy import event\nfrom sqlalchemy.engine import Engine\n"
        "n = [0]\n"
        "event.listen(Engine, 'after_cursor_execute', lambda *a: n.__setitem__(0, n[0] + 1))\n"
        "def spy(module, name):\n"
        "    target = importlib.import_module(module)\n"
        "    real = getattr(target, name)\n"
        "    def spied(*args, **kwargs):\n"
        "        print('MILESTONE', name, n[0], file=sys.stderr)\n"
        "        return real(*args, **kwargs)\n"
        "    setattr(target, name, spied)\n"
        f"for module, name in {MILESTONES!r}:\n"
        "    spy(module, name)\n"
        "from kb.cli import main\n"
        "main(sys.argv[1:], prog_name='kb')\n"
    )
    env = {**os.environ}
    env.pop("KB_DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", probe, *kb_args(home, url, "ingest", *corpus)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    found = {}
    for line in done.stderr.splitlines():
        if line.startswith("MILESTONE "):
            _, name, count = line.split()
            found.setdefault(name, int(count))
    assert set(found) == {name for _, name in MILESTONES}, done.stderr[-2000:]
    return found


# --- a full disk, a read-only folder -------------------------------------------------------


def _sqlite_file(url: str) -> Path | None:
    parsed = make_url(url)
    return Path(parsed.database) if parsed.get_backend_name() == "sqlite" else None


def test_full_disk_gives_a_clear_error_and_keeps_what_was_loaded(
    tmp_path: Path, fault_corpus: Path, reference
) -> None:
    """SQLite in the data folder; every file write past 64 KB more than the database fails."""
    home = tmp_path / "_kb"
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    first = run_kb(*kb_args(home, url, "ingest", str(SEEDS)))
    assert first.returncode == 0, _describe(first)
    before = fingerprint(url)
    size = (home / "kb.sqlite").stat().st_size
    full = run_kb(
        *kb_args(home, url, "ingest", str(fault_corpus)), fault={"fsize": size + 64 * 1024}
    )
    assert full.returncode == 1, _describe(full)
    assert "kb: error: the database refused a write" in full.stderr
    assert "free disk space" in full.stderr and "Traceback" not in full.stderr
    assert problems(url) == []
    after = fingerprint(url)
    assert compare(before, after)["lost"] == 0  # nothing that was there went missing
    # Documents the full disk stopped are not marked failed: a rerun with space loads them.
    rerun = run_kb(*kb_args(home, url, "ingest", "--strict", str(SEEDS), str(fault_corpus)))
    assert rerun.returncode == 0, _describe(rerun)
    assert compare(reference, fingerprint(url)) == {"lost": 0, "extra": 0, "duplicated": 0}


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_read_only_data_folder_gives_a_clear_error_and_changes_nothing(
    tmp_path: Path, shared_corpus: Path
) -> None:
    home = tmp_path / "_kb"
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    assert run_kb(*kb_args(home, url, "ingest", str(SEEDS))).returncode == 0
    files = _snapshot(home)
    before = fingerprint(url)
    refused = run_kb(
        *kb_args(home, url, "ingest", str(shared_corpus)), fault={"readonly": str(home)}
    )
    assert refused.returncode == 1, _describe(refused)
    assert "kb: error: cannot write to the data folder" in refused.stderr
    assert "Read-only file system" in refused.stderr and "Traceback" not in refused.stderr
    assert _snapshot(home) == files
    assert fingerprint(url) == before


def test_read_only_database_file_elsewhere_gives_a_clear_error(tmp_path: Path) -> None:
    """The data folder is writable but the SQLite database lives in a read-only one."""
    home, store = tmp_path / "_kb", tmp_path / "store"
    url = f"sqlite:///{(store / 'kb.sqlite').as_posix()}"
    assert run_kb(*kb_args(home, url, "ingest", str(SEEDS))).returncode == 0
    files = _snapshot(store)
    before = fingerprint(url)
    changed = tmp_path / "more" / "999_00000000000000ff.txt"  # a new rulings page
    changed.parent.mkdir()
    changed.write_text((SEEDS / "000_c70b93c6d7c03b3c.txt").read_text(encoding="utf-8"))
    refused = run_kb(*kb_args(home, url, "ingest", str(changed)), fault={"readonly": str(store)})
    assert refused.returncode == 1, _describe(refused)
    assert refused.stderr.startswith("kb: error:") and "Traceback" not in refused.stderr
    assert "readonly database" in refused.stderr
    # SQLite itself may open its -shm index beside the file (below the Python calls patched
    # here); the database file is what must not change.
    assert _snapshot(store)["kb.sqlite"] == files["kb.sqlite"]
    assert fingerprint(url) == before


@pytest.fixture
def built_site(tmp_path: Path, fresh_database_url) -> dict[str, Any]:
    """A project folder whose site was built from the seeds, then a new page was ingested."""
    project = tmp_path / "project"
    (project / "corpus").mkdir(parents=True)
    for page in SEEDS.glob("*.txt"):
        (project / "corpus" / page.name).write_bytes(page.read_bytes())
    (project / "kb.toml").write_text('home = "_kb"\ncorpus = ["corpus"]\n', encoding="utf-8")
    url = fresh_database_url("site")
    out = project / "www" / "site"
    first = run_kb("--database", url, "build", "--no-search", "--out", str(out), cwd=project)
    assert first.returncode == 0, _describe(first)
    extra = project / "corpus" / "005_00000000000000bb.txt"
    extra.write_text((SEEDS / "003_c5873bb13b9e08b7.txt").read_text(encoding="utf-8"))
    assert run_kb("--database", url, "ingest", cwd=project).returncode == 0
    return {"project": project, "url": url, "out": out, "site": _snapshot(out)}


def _build_with(built: dict[str, Any], fault: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    result = run_kb(
        "--database", built["url"], "build", "--no-search", "--out", str(built["out"]),
        fault=fault, cwd=built["project"],
    )  # fmt: skip
    assert isinstance(result, subprocess.CompletedProcess)
    return result


def _site_intact(built: dict[str, Any]) -> None:
    assert _snapshot(built["out"]) == built["site"]
    leftovers = sorted(p.name for p in built["out"].parent.iterdir() if p != built["out"])
    assert leftovers == [], leftovers
    assert problems(built["url"]) == []


@pytest.mark.parametrize(
    "fault",
    [{"fsize": 2048}, {"nospace": "www"}],
    ids=["every-file-capped", "output-disk-full"],
)
def test_full_disk_while_building_the_site_keeps_the_previous_site(built_site, fault) -> None:
    """Every file write past 2 KB fails (the database first), or the output's disk is full."""
    if "nospace" in fault:
        fault = {"nospace": str(built_site["out"].parent)}
    result = _build_with(built_site, fault)
    assert result.returncode == 1, _describe(result)
    assert result.stderr.startswith("kb: error:") and "Traceback" not in result.stderr
    assert any(
        words in result.stderr
        for words in ("disk space", "No space left on device", "File too large")
    ), result.stderr
    _site_intact(built_site)
    again = _build_with(built_site, {})
    assert again.returncode == 0, _describe(again)
    assert _snapshot(built_site["out"]) != built_site["site"]  # the new page is there now


def test_read_only_output_folder_keeps_the_previous_site(built_site) -> None:
    result = _build_with(built_site, {"readonly": str(built_site["out"].parent)})
    assert result.returncode == 1, _describe(result)
    assert result.stderr.startswith("kb: error:") and "Traceback" not in result.stderr
    assert "Read-only file system" in result.stderr
    _site_intact(built_site)


# --- two writers at once -------------------------------------------------------------------


def _paused_writer(home: Path, url: str, corpus: list[str], flag: Path) -> subprocess.Popen[str]:
    """Start an ingest that pauses 4 s holding the writer lock; return once it is paused."""
    child = run_kb(
        *kb_args(home, url, "ingest", *corpus),
        fault={"pause_at": 50, "pause_flag": str(flag), "pause_seconds": 4},
        wait=False,
    )
    assert isinstance(child, subprocess.Popen)
    deadline = time.monotonic() + 60
    while not flag.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the first writer never got going"
        time.sleep(0.05)
    return child


def test_second_ingest_waits_or_refuses_clearly(
    tmp_path: Path, fault_corpus: Path, reference, fresh_database_url
) -> None:
    home = tmp_path / "_kb"
    url = fresh_database_url("two")
    corpus = [str(SEEDS), str(fault_corpus)]
    first = _paused_writer(home, url, corpus, tmp_path / "paused")
    refused = run_kb(*kb_args(home, url, "ingest", "--no-wait", *corpus))
    waiting = run_kb(*kb_args(home, url, "ingest", *corpus), wait=False)
    assert isinstance(waiting, subprocess.Popen)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert refused.returncode == 1, _describe(refused)
    assert "kb: error: another kb process (pid" in refused.stderr
    assert "try again later" in refused.stderr
    _, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert "waiting for another kb process" in err
    assert problems(url) == []
    assert compare(reference, fingerprint(url)) == {"lost": 0, "extra": 0, "duplicated": 0}


@pytest.mark.skipif(
    not (os.environ.get("KB_DATABASE_URL") or "").startswith("postgresql"),
    reason="writers with separate data folders share one database only on a server",
)
def test_two_data_folders_on_one_postgres_database_take_turns(
    tmp_path: Path, fault_corpus: Path, reference, fresh_database_url
) -> None:
    """The folders' file locks differ: PostgreSQL's advisory lock keeps the writers apart."""
    url = fresh_database_url("shared")
    corpus = [str(SEEDS), str(fault_corpus)]
    first = _paused_writer(tmp_path / "a", url, corpus, tmp_path / "paused")
    refused = run_kb(*kb_args(tmp_path / "b", url, "ingest", "--no-wait", *corpus))
    waiting = run_kb(*kb_args(tmp_path / "c", url, "ingest", *corpus), wait=False)
    assert isinstance(waiting, subprocess.Popen)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert refused.returncode == 1, _describe(refused)
    assert "another kb process is writing to this database" in refused.stderr
    _, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert problems(url) == []
    assert compare(reference, fingerprint(url)) == {"lost": 0, "extra": 0, "duplicated": 0}


# --- leftovers of a killed kb build --------------------------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_killed_builds_temporary_folders_are_removed_by_the_next_build(tmp_path: Path) -> None:
    from kb.site.stream import StreamWriter
    from kb.site.writer import MARKER

    out = tmp_path / "site"
    dead, alive = _dead_pid(), os.getppid()  # our parent (pytest's launcher) outlives the test
    for name in (f".site.tmp-{dead}", f".site.old-{dead}", f".site.tmp-{alive}"):
        (tmp_path / name / "en").mkdir(parents=True)
        (tmp_path / name / "en" / "page.html").write_bytes(b"x" * 1000)
    elsewhere = tmp_path / "keep"
    elsewhere.mkdir()
    (elsewhere / "data").write_text("mine")
    (tmp_path / f".site.tmp-{dead + 1}").symlink_to(elsewhere)  # a link is never followed
    (tmp_path / f".other.tmp-{dead}").mkdir()  # another output's: not ours to judge
    writer = StreamWriter(out)
    writer.add("index.html", b"home")
    assert writer.commit({"build": 1}).swapped
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(
        ["keep", "site", f".site.tmp-{alive}", f".site.tmp-{dead + 1}", f".other.tmp-{dead}"]
    )
    assert (elsewhere / "data").read_text() == "mine"
    # a build with nothing to write still cleans up
    (tmp_path / f".site.tmp-{dead}").mkdir()
    writer = StreamWriter(out)
    writer.add("index.html", b"home")
    assert not writer.commit({"build": 1}).swapped
    assert not (tmp_path / f".site.tmp-{dead}").exists()
    assert (out / MARKER).is_file()


def test_a_site_moved_aside_by_a_killed_build_is_put_back(tmp_path: Path) -> None:
    """Killed between its two renames: the output is gone, the previous site is .site.old-PID."""
    from kb.site.stream import StreamWriter
    from kb.site.writer import MARKER

    out = tmp_path / "site"
    writer = StreamWriter(out)
    writer.add("index.html", b"home")
    writer.add("old.html", b"kept")
    writer.commit({"build": 1})
    aside = tmp_path / f".site.old-{_dead_pid()}"
    os.rename(out, aside)
    writer = StreamWriter(out)
    writer.add("index.html", b"home")
    writer.add("old.html", b"kept")
    report = writer.commit({"build": 1})
    assert not report.swapped and report.unchanged == ["index.html", "old.html"]
    assert (out / MARKER).is_file() and not aside.exists()

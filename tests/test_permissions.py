"""Real file permissions: read-only folders and files, as an unprivileged user meets them.

Root ignores permissions, so these run only as another user: ``.ci/run`` (as root in CI) creates
the user ``kbtest`` and runs ``pytest -m unprivileged`` as that user; run as root they are skipped.
(tests/test_faults.py simulates read-only folders by patching the OS calls, whoever runs it.)
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus"
CR = ROOT / "tests" / "data" / "search" / "cr_2024.txt"

pytestmark = pytest.mark.unprivileged


def kb(home: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("KB_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "kb", "--home", str(home), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def read_only() -> Iterator:
    """Make folders and files read-only for the test; give the write bits back afterwards."""
    changed: list[tuple[Path, int]] = []

    def lock(*paths: Path) -> None:
        for path in paths:
            for item in [path, *(path.rglob("*") if path.is_dir() else [])]:
                mode = item.stat().st_mode
                changed.append((item, mode))
                item.chmod(stat.S_IMODE(mode) & ~0o222)

    yield lock
    for path, mode in reversed(changed):
        path.chmod(stat.S_IMODE(mode))


@pytest.fixture
def loaded(tmp_path: Path) -> Path:
    home = tmp_path / "_kb"
    done = kb(home, "ingest", str(SEEDS), str(CR))
    assert done.returncode == 0, done.stderr
    return home


def test_the_permissions_are_real() -> None:
    """If this fails, the other tests here prove nothing: run them as a user other than root."""
    assert os.geteuid() != 0


def test_ingest_into_a_read_only_data_folder_is_one_line_and_changes_nothing(
    loaded: Path, read_only, tmp_path: Path
) -> None:
    page = tmp_path / "005_00000000000000cc.txt"
    page.write_text((SEEDS / "003_c5873bb13b9e08b7.txt").read_text(encoding="utf-8"))
    before = _snapshot(loaded)
    read_only(loaded)
    done = kb(loaded, "ingest", str(page))
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("kb: error:") and "Traceback" not in done.stderr
    assert _snapshot(loaded) == before


def test_readers_work_on_a_read_only_knowledge_base(loaded: Path, read_only) -> None:
    """A replica serving a knowledge base it may not write: stats, rule, export still answer."""
    read_only(loaded)
    for args in (["stats"], ["rule", "100.1"], ["export", "json"]):
        done = kb(loaded, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_export_into_a_read_only_folder_is_one_line(loaded: Path, read_only, tmp_path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "kb.json").write_text("old")
    read_only(out)
    done = kb(loaded, "export", "json", "--out", str(out / "kb.json"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "--out: cannot write" in done.stderr and "Permission denied" in done.stderr
    assert (out / "kb.json").read_text() == "old"
    assert sorted(p.name for p in out.iterdir()) == ["kb.json"]


def test_build_into_a_read_only_folder_keeps_the_previous_site(read_only, tmp_path: Path) -> None:
    loaded = tmp_path / "_kb"
    project = tmp_path / "project"
    project.mkdir()
    (project / "kb.toml").write_text(f'corpus = ["{SEEDS}"]\n', encoding="utf-8")
    www = tmp_path / "www"
    site = www / "site"
    first = kb(loaded, "build", "--no-search", "--out", str(site), cwd=project)
    assert first.returncode == 0, first.stderr
    before = _snapshot(site)
    (project / "kb.toml").write_text(f'corpus = ["{SEEDS}", "{CR}"]\n', encoding="utf-8")
    read_only(www)
    again = kb(loaded, "build", "--no-search", "--out", str(site), "--force", cwd=project)
    assert again.returncode == 1, again.stderr
    assert again.stderr.startswith("kb: error:") and "Traceback" not in again.stderr
    assert _snapshot(site) == before
    assert sorted(p.name for p in www.iterdir()) == ["site"]

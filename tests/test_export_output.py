"""Where an export goes: only regular files are replaced, links are followed, umask honoured."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from kb.errors import KbError
from kb.export.output import write_file

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_new_file_gets_the_umask_permissions(tmp_path: Path, umask_022) -> None:
    write_file(tmp_path / "a.json", b"{}")
    assert stat.S_IMODE((tmp_path / "a.json").stat().st_mode) == 0o644
    os.umask(0o077)
    write_file(tmp_path / "b.json", b"{}")
    assert stat.S_IMODE((tmp_path / "b.json").stat().st_mode) == 0o600


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path, umask_022) -> None:
    path = tmp_path / "sheet.html"
    path.write_bytes(b"old")
    path.chmod(0o640)
    write_file(path, b"new")
    assert path.read_bytes() == b"new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.html"]  # no temporary left


def test_a_symlink_is_written_through(tmp_path: Path, umask_022) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "kb.json"
    target.write_bytes(b"old")
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    assert write_file(link, b"new") == target
    assert link.is_symlink() and target.read_bytes() == b"new"
    dangling = tmp_path / "next.json"
    dangling.symlink_to(tmp_path / "real" / "next.json")
    write_file(dangling, b"made")
    assert dangling.is_symlink() and (tmp_path / "real" / "next.json").read_bytes() == b"made"


def test_a_fifo_a_socket_a_folder_and_a_device_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(KbError, match=r"--out: .*pipe is a FIFO \(named pipe\); kb replaces only"):
        write_file(fifo, b"x")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    try:
        with pytest.raises(KbError, match="is a socket"):
            write_file(tmp_path / "sock", b"x")
    finally:
        sock.close()
    with pytest.raises(KbError, match="is a folder; give a file name"):
        write_file(tmp_path, b"x")
    link = tmp_path / "null"
    link.symlink_to(os.devnull)  # never the device itself: without the check it would be replaced
    with pytest.raises(KbError, match=r"null \(a link to /dev/null\) is a character device"):
        write_file(link, b"x")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null", "pipe", "sock"]


def test_an_unwritable_target_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(KbError, match=r"--out: cannot use .*file/out\.json: Not a directory"):
        write_file(blocker / "out.json", b"{}")


# --- through the CLI -----------------------------------------------------------------------------


@pytest.fixture
def seeded(settings):
    from kb import pipeline

    report = pipeline.ingest(settings, [settings.corpus[0], ROOT / "tests/data/search/cr_2024.txt"])
    assert not report.failed
    return settings


def _kb(settings, *args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "kb", "--home", str(settings.home), *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    "args", [["export", "json"], ["export", "csv", "--table", "rules"]], ids=["json", "csv"]
)
def test_a_full_disk_on_standard_output_is_one_line(seeded, args) -> None:
    with open("/dev/full", "wb") as full:
        done = _kb(seeded, *args, stdout=full)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err == "kb: error: cannot write to standard output: No space left on device\n"


def test_cli_refuses_a_fifo_and_honours_the_umask(seeded, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    done = _kb(seeded, "export", "json", "--out", str(tmp_path / "fifo"))
    assert done.returncode == 1 and b"is a FIFO" in done.stderr and b"Traceback" not in done.stderr
    old = os.umask(0o022)
    try:
        assert _kb(seeded, "export", "json", "--out", str(tmp_path / "kb.json")).returncode == 0
        assert _kb(seeded, "export", "csv", "--out", str(tmp_path / "csv")).returncode == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "kb.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "csv" / "rules.csv").stat().st_mode) == 0o644


@pytest.mark.parametrize("args", [["--help"], ["db", "current"]], ids=["help", "db-current"])
def test_any_command_on_a_full_standard_output_is_one_line(tmp_path: Path, args) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "kb", "--home", str(tmp_path / "_kb"), *args],
            stdout=full,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr == b"kb: error: cannot write to standard output: No space left on device\n"

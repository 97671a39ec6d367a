"""The hostile requests and inputs of issue 15, replayed through the test suite's own checks.

Each attack is one call of a test (or one of its parameters): path traversal, bad API
parameters, huge paths, a smuggled request, slowloris and idle connections against ``kb serve``;
hostile PO headers and a 50 MB ``msgid`` line; export outputs that are devices, FIFOs, sockets,
folders or symlinks, and a full standard output; badly typed settings and readers that must not
create a database; the leftovers of a killed ``kb build``. Imported by benchmarks/reliability.py.
"""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

# tests/ is on sys.path (benchmarks/reliability.py puts it there)
import test_config
import test_export_output
import test_faults
import test_po
import test_serve


class Attacks:
    """Attacks tried per area, and the ones that got through."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.tried = Counter[str]()
        self.failures: list[str] = []
        self._folders = itertools.count()

    def folder(self) -> Path:
        """A fresh empty folder for one attack."""
        path = self.work / f"a{next(self._folders)}"
        path.mkdir(parents=True)
        return path

    def run(self, area: str, name: str, check: Callable[[], object]) -> None:
        self.tried[area] += 1
        try:
            check()
        except (Exception, pytest.fail.Exception) as exc:
            self.failures.append(f"{area}: {name[:80]}: {exc!r}"[:400])


def slowloris(server: object, connections: int) -> None:
    """Open many connections that never finish their headers: no thread each, service goes on."""
    host, port = server.server_address  # type: ignore[attr-defined]
    threads = threading.active_count()
    slow = []
    try:
        for _ in range(connections):
            sock = socket.create_connection((host, port), timeout=10)
            sock.sendall(b"GET /api/search?q=vote HTTP/1.1\r\nHost: x\r\n")
            slow.append(sock)
        assert threading.active_count() <= threads + 1, threading.active_count()
        started = time.monotonic()
        status, _, _ = test_serve.request(server, "/")  # once the idle ones were closed
        assert status == 200 and time.monotonic() - started < 30
    finally:
        for sock in slow:
            sock.close()


PO_CHILD = r"""
import resource, sys
from pathlib import Path
from kb.export.po_import import _read

before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
messages, lang, _ = _read(Path(sys.argv[1]), None)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


def huge_msgid(folder: Path, size: int, figures: dict[str, float]) -> None:
    """One ``size``-byte msgid line read as ``kb import po`` does: memory a few times the file."""
    path = folder / "huge.po"
    header = test_po.HEADER.format("Language: fr", "Content-Type: text/plain; charset=UTF-8")
    with path.open("w", encoding="utf-8") as out:
        out.write(header + 'msgctxt "100.1"\nmsgid "' + "These rules apply " * (size // 18))
        out.write('"\nmsgstr "Ces règles"\n')
    done = subprocess.run(
        [sys.executable, "-c", PO_CHILD, str(path)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-1000:]
    grown = int(done.stdout)
    figures["po_file_mb"] = path.stat().st_size / 1e6
    figures["po_memory_mb"] = grown / 1e6
    assert grown < 30 * path.stat().st_size, f"{grown:,} bytes for a {size:,}-byte line"


def run_attacks(work: Path, figures: dict[str, float]) -> Attacks:
    """Every attack; ``figures`` gets the measured memory of the huge PO line."""
    attacks = Attacks(work)
    saved = os.environ.pop("KB_DATABASE_URL", None)  # the attacks use SQLite in their folders
    old_umask = os.umask(0o022)
    try:
        _serve(attacks)
        _config(attacks)
        _po(attacks, figures)
        _exports(attacks)
        for check in (
            test_faults.test_a_killed_builds_temporary_folders_are_removed_by_the_next_build,
            test_faults.test_a_site_moved_aside_by_a_killed_build_is_put_back,
        ):
            attacks.run("build", check.__name__, lambda c=check: c(attacks.folder()))
    finally:
        os.umask(old_umask)
        if saved is not None:
            os.environ["KB_DATABASE_URL"] = saved
    return attacks


def _serve(attacks: Attacks) -> None:
    settings = test_serve.make_kb_settings(attacks.folder())
    running = test_serve._running(settings, settings.site_dir, idle_timeout=1)
    srv = next(running)
    try:
        for path in test_serve.TRAVERSALS:
            attacks.run(
                "serve",
                path,
                lambda p=path: test_serve.test_nothing_outside_the_site_is_served(srv, p),
            )
        for query, message in test_serve.BAD_PARAMETERS:
            attacks.run(
                "serve",
                query,
                lambda q=query, m=message: (
                    test_serve.test_api_bad_parameters_get_400_with_a_message(srv, q, m)
                ),
            )
        attacks.run(
            "serve", "huge paths", lambda: test_serve.test_a_huge_path_is_404_or_414_never_500(srv)
        )
        attacks.run(
            "serve",
            "smuggled request",
            lambda: test_serve.test_a_request_body_is_never_taken_for_a_second_request(srv),
        )
        attacks.run("serve", "300 slowloris connections", lambda: slowloris(srv, 300))
    finally:
        running.close()  # the generator's finally stops the server
    attacks.run(
        "serve", "idle connection", lambda: test_serve.test_an_idle_connection_is_closed(settings)
    )
    attacks.run(
        "serve",
        "connection limit",
        lambda: test_serve.test_slow_clients_cost_no_thread_and_the_limit_holds(settings),
    )


def _config(attacks: Attacks) -> None:
    for line, words in test_config.BAD_VALUES:
        attacks.run(
            "config",
            line,
            lambda li=line, w=words: test_config.test_a_bad_value_names_the_file_and_the_key(
                attacks.folder(), li, w
            ),
        )
    attacks.run(
        "config",
        "environment",
        lambda: test_config.test_pyproject_table_and_environment_are_checked_too(attacks.folder()),
    )
    for args in (["stats"], ["rule", "100.1"], ["export", "json"], ["db", "current"]):

        def reader(a: list[str] = args) -> None:
            cwd = Path.cwd()
            try:
                with pytest.MonkeyPatch.context() as patch:
                    test_config.test_a_reader_never_creates_the_database(attacks.folder(), patch, a)
            finally:
                os.chdir(cwd)

        attacks.run("config", f"reader {' '.join(args)}", reader)


def _po(attacks: Attacks, figures: dict[str, float]) -> None:
    for language, content_type, problem in test_po.HOSTILE_HEADERS:
        attacks.run(
            "po",
            f"{language} / {content_type}",
            lambda la=language, ct=content_type, pr=problem: (
                test_po.test_a_hostile_header_is_one_line_with_file_line_and_value(
                    attacks.folder(), la, ct, pr
                )
            ),
        )
    attacks.run("po", "50 MB msgid line", lambda: huge_msgid(attacks.folder(), 50_000_000, figures))


def _exports(attacks: Attacks) -> None:
    out = test_export_output
    for check in (
        out.test_a_new_file_gets_the_umask_permissions,
        out.test_a_replaced_file_keeps_its_permissions,
        out.test_a_symlink_is_written_through,
    ):
        attacks.run("exports", check.__name__, lambda c=check: c(attacks.folder(), None))
    for check in (
        out.test_a_fifo_a_socket_a_folder_and_a_device_are_refused,
        out.test_an_unwritable_target_is_one_line,
    ):
        attacks.run("exports", check.__name__, lambda c=check: c(attacks.folder()))
    from kb import pipeline
    from kb.config import Settings

    settings = Settings(home=attacks.folder() / "_kb", corpus=(test_faults.SEEDS,))
    pipeline.ingest(settings, [test_faults.SEEDS, out.ROOT / "tests/data/search/cr_2024.txt"])
    for args in (["export", "json"], ["export", "csv", "--table", "rules"]):
        attacks.run(
            "exports",
            f"{' '.join(args)} > /dev/full",
            lambda a=args: out.test_a_full_disk_on_standard_output_is_one_line(settings, a),
        )
    attacks.run(
        "exports",
        "--out FIFO, umask",
        lambda: out.test_cli_refuses_a_fifo_and_honours_the_umask(settings, attacks.folder()),
    )

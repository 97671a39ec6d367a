"""Run Pagefind over the built folder: one search index per page language (``<html lang>``)."""

from __future__ import annotations

import json
import logging
import subprocess
import time
from pathlib import Path

from kb.errors import KbError

log = logging.getLogger(__name__)

OUTPUT_SUBDIR = "pagefind"


def executable() -> Path:
    """The Pagefind binary shipped by the ``pagefind[bin]`` package."""
    try:
        from pagefind_bin import get_executable
    except ImportError:
        raise KbError(
            "Pagefind is not installed: `pip install 'pagefind[bin]'` (or build with --no-search)"
        ) from None
    try:
        return Path(get_executable())
    except FileNotFoundError as exc:
        raise KbError(f"the Pagefind binary is missing: {exc}") from None


def run_pagefind(site: Path) -> float:
    """Index every page marked ``data-pagefind-body`` under ``site``; return the seconds spent."""
    start = time.perf_counter()
    command = [
        str(executable()),
        "--site",
        str(site),
        "--output-subdir",
        OUTPUT_SUBDIR,
        "--silent",
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise KbError(f"Pagefind could not run: {exc}") from None
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise KbError("Pagefind failed: " + " | ".join(detail))
    if not (site / OUTPUT_SUBDIR / "pagefind.js").is_file():
        raise KbError(f"Pagefind wrote no index into {site / OUTPUT_SUBDIR}")
    _sort_entry(site / OUTPUT_SUBDIR / "pagefind-entry.json")
    seconds = time.perf_counter() - start
    log.info("Pagefind indexed %s in %.2f s", site, seconds)
    return seconds


def _sort_entry(path: Path) -> None:
    """Pagefind writes its languages in hash-map order: sort them so builds are byte-identical."""
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(
        json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")),
        encoding="utf-8",
    )

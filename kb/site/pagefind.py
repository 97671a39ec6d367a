"""Run Pagefind over the built folder: one search index per page language (``<html lang>``)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import time
from pathlib import Path

from kb.errors import KbError
from kb.langs import LANGS

log = logging.getLogger(__name__)

OUTPUT_SUBDIR = "pagefind"
# Only the pages Pagefind indexes (rules and glossary, marked ``data-pagefind-body``) are read:
# the tens of thousands of card pages are searched through their own titles file.
GLOB = "{" + ",".join(LANGS) + "}/{rules/*.html,glossary.html}"


def indexed_path(path: str) -> bool:
    """Whether Pagefind reads this page of the site (the shape of :data:`GLOB`)."""
    parts = path.split("/")
    if parts[0] not in LANGS:
        return False
    if len(parts) == 2:
        return parts[1] == "glossary.html"
    return len(parts) == 3 and parts[1] == "rules" and parts[2].endswith(".html")


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
        "--glob",
        GLOB,
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


def reuse_index(old: Path, new: Path) -> bool:
    """Hard-link the previous build's index into the new site (its indexed pages are the same)."""
    source = old / OUTPUT_SUBDIR
    if not (source / "pagefind.js").is_file():
        return False

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(source, new / OUTPUT_SUBDIR, copy_function=link, dirs_exist_ok=True)
    log.info("Pagefind index kept: no indexed page changed")
    return True


def _sort_entry(path: Path) -> None:
    """Pagefind writes its languages in hash-map order: sort them so builds are byte-identical."""
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(
        json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")),
        encoding="utf-8",
    )

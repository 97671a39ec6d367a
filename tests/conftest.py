"""Shared fixtures: the real corpus beside the checkout, the seed pages, a fresh database."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus"
DATA = Path(__file__).resolve().parent / "data"
SHARED_CORPUS = Path(os.environ.get("KB_SHARED_CORPUS", ROOT.parent / "shared" / "corpus"))


def _require_shared() -> Path:
    if not SHARED_CORPUS.is_dir():
        message = f"the real corpus is missing at {SHARED_CORPUS}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: real-data tests must run)")
        pytest.skip(message)
    return SHARED_CORPUS


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    """The real data folder ../shared/corpus (fails under CI when missing, else skips)."""
    return _require_shared()


@pytest.fixture(scope="session")
def cr_path(shared_corpus: Path):
    """Return the path of a real Comprehensive Rules edition by its effective date (ISO)."""
    files = {
        "2021-02-05": "MagicCompRules_20210202.txt",
        "2025-11-14": "MagicCompRules_20251114.txt",
        "2026-01-16": "MagicCompRules_20260116.txt",
    }

    def path(effective: str) -> Path:
        return shared_corpus / "cr" / "en" / files[effective]

    return path


@pytest.fixture(scope="session")
def seeds() -> Path:
    """The seed pages shipped in the repository's corpus/ folder."""
    return SEEDS


@pytest.fixture
def seed(seeds: Path):
    """Return the path of a seed page by its number prefix (``"000"``, ``"003"``, ``"004"``)."""

    def path(prefix: str) -> Path:
        (match,) = sorted(seeds.glob(f"{prefix}_*.txt"))
        return match

    return path

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


@pytest.fixture
def settings(tmp_path: Path):
    """Settings with a fresh data folder (and SQLite database) under tmp_path."""
    from kb.config import Settings

    return Settings(home=tmp_path / "_kb", corpus=(SEEDS,), base_dir=ROOT)


@pytest.fixture(scope="session")
def full_settings(tmp_path_factory: pytest.TempPathFactory, shared_corpus: Path):
    """Settings of a knowledge base holding the seeds and the whole real corpus (built once)."""
    from kb.config import Settings
    from kb.pipeline import ingest

    home = tmp_path_factory.mktemp("full") / "_kb"
    settings = Settings(home=home, corpus=(SEEDS, shared_corpus), base_dir=ROOT)
    report = ingest(settings)
    assert not report.failed, report.failed
    return settings


@pytest.fixture
def full_db(full_settings):
    """An open Database on the full knowledge base (read it, do not write to it)."""
    from kb.pipeline import open_db

    db = open_db(full_settings, create=False)
    yield db
    db.dispose()

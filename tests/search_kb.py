"""The small corpus the search test modules share, ingested through the CLI.

Each data folder gets its own SQLite database whatever ``$KB_DATABASE_URL`` says: these tests
are about the index, which is the same on either database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kb.cli import main

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CORPUS = [
    ROOT / "corpus",
    DATA / "search" / "cr_2024.txt",
    DATA / "search" / "cr_2025.txt",
    DATA / "mtgjson" / "mini.json",
]


def run(home: Path, *args: str) -> Any:
    """Run kb on a data folder, with its own SQLite database."""
    url = f"sqlite:///{(home / 'kb.sqlite').as_posix()}"
    return CliRunner().invoke(main, ["--home", str(home), "--database", url, *args])


def ingested(folder: Path, corpus: list[Path] = CORPUS) -> Path:
    """The folder with the corpus ingested (the ingest leaves a working index)."""
    result = run(folder, "ingest", *map(str, corpus))
    assert result.exit_code == 0, result.output
    return folder

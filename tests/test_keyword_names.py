"""The hand-written keyword names agree with the cards Wizards printed.

benchmarks/keyword_names.py does the check on all of AllPrintings; here it runs on the small
real corpus (KHM, CN2), and on a made-up set whose Spanish cards print a name the list does not
have, to show that it fails when a name is wrong.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "keyword_names.py"


def run(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, paths)], capture_output=True, text=True, timeout=120
    )


def test_the_names_agree_with_the_shared_corpus(shared_corpus: Path) -> None:
    result = run(shared_corpus / "mtgjson")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 names printed on no card" in result.stdout
    # The corpus's cards do check some names (not only "no printed text").
    assert any(line.endswith(" ok") and " 0 of" not in line for line in result.stdout.splitlines())


def test_a_name_no_card_prints_is_reported(tmp_path: Path) -> None:
    card = {
        "name": "Made-up Madness Card",
        "keywords": ["Madness"],
        "text": "Madness {1}{R}",
        "foreignData": [{"language": "Spanish", "text": "Locura {1}{R}. (Descártala.)"}],
    }
    path = tmp_path / "SET.json"
    path.write_text(json.dumps({"data": {"cards": [card] * 5}}), encoding="utf-8")
    result = run(path)
    assert result.returncode == 1
    line = next(line for line in result.stdout.splitlines() if "'demencia'" in line)
    assert "WRONG" in line and "'Locura'" in line

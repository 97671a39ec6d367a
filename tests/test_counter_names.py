"""The hand-written names of counters, tokens, dice and types agree with the cards Wizards printed.

benchmarks/counter_names.py does the check on all of AllPrintings; here it runs on the small
real corpus (KHM, CN2), and on a made-up set whose French cards print a counter's or a type's
name the list does not have, to show that it fails when a name is wrong.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "counter_names.py"


def run(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, paths)], capture_output=True, text=True, timeout=120
    )


def assert_reported_wrong(tmp_path: Path, card: dict[str, object], name: str) -> None:
    """A set of the one ``card`` fails the check, its line for ``name`` saying WRONG."""
    path = tmp_path / "SET.json"
    path.write_text(json.dumps({"data": {"cards": [card]}}), encoding="utf-8")
    result = run(path)
    assert result.returncode == 1
    line = next(line for line in result.stdout.splitlines() if f"'{name}'" in line)
    assert "WRONG" in line and "0 of     1" in line


def test_the_names_agree_with_the_shared_corpus(shared_corpus: Path) -> None:
    result = run(shared_corpus / "mtgjson")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 names printed on no card that names the thing" in result.stdout
    # The corpus's cards do check some names (Treasure, lore counters), not only none.
    assert "'trésor'" in result.stdout and "'sabiduría'" in result.stdout
    # and a type on the type lines: Kaldheim's Runes ("Enchantement : aura et rune")
    assert any("TYPES" in line and "'runa'" in line for line in result.stdout.splitlines())


def test_a_name_no_card_prints_is_reported(tmp_path: Path) -> None:
    card = {
        "name": "Made-up Shield Card",
        "text": "Put a shield counter on target creature.",
        "foreignData": [
            {"language": "French", "text": "Mettez un marqueur « protection » sur la créature."}
        ],
    }
    assert_reported_wrong(tmp_path, card, "bouclier")


def test_a_type_name_no_type_line_prints_is_reported(tmp_path: Path) -> None:
    card = {
        "name": "Made-up Adventure Card",
        "type": "Sorcery — Adventure",
        "text": "Draw a card.",
        "foreignData": [
            {"language": "Spanish", "type": "Conjuro — Aventurero", "text": "Roba una carta."}
        ],
    }
    assert_reported_wrong(tmp_path, card, "aventura")

"""Run a measurement in a new Python process: imports and caches count, as for a `kb` command.

The benchmarks that time a stage from inside (``ingest_paths`` with its own clock and peak RSS)
pass their code here; it prints one JSON line last, which is what comes back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, *args: str) -> Any:
    """Run ``python -c code args…`` in the project folder; return its last stdout line as JSON."""
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])

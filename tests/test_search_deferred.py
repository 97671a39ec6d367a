"""Whoosh is imported without the modules a search never calls, which still work when called."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(script: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=dict(os.environ),
    ).stdout


def test_searching_modules_leave_out_the_deferred_ones() -> None:
    out = _run("import sys\nimport kb.search.searcher\nprint(' '.join(sorted(sys.modules)))\n")
    loaded = set(out.split())
    assert "whoosh.query" in loaded
    left_out = {"asyncio", "urllib.request", "http.client", "ssl", "whoosh.lang.morph_en"}
    left_out |= {"tempfile", "shutil", "bz2", "lzma", "calendar"}
    assert loaded & left_out == set()


def test_the_stand_ins_reach_the_real_functions_and_later_imports_are_real() -> None:
    out = _run(
        "import kb.search\n"
        "import cached_property\n"
        "from whoosh.query.terms import variations\n"
        "print(cached_property.asyncio.iscoroutinefunction(lambda: 0))\n"
        "print(sorted(variations('tempts')))\n"
        "import whoosh.filedb.compound, whoosh.filedb.filestore, io\n"
        "target = io.BytesIO()\n"
        "whoosh.filedb.compound.copyfileobj(io.BytesIO(b'abc'), target)\n"
        "print(target.getvalue() == b'abc', bool(whoosh.filedb.filestore.tempfile.gettempdir()))\n"
        "print(whoosh.compat.htmlescape('<a & \"b\">'))\n"
        "import whoosh.util.times\n"
        "print(whoosh.util.times.calendar.monthrange(2024, 2)[1])\n"
        "import asyncio, urllib.request, whoosh.lang.morph_en, shutil, tempfile\n"
        "print(type(asyncio).__name__, callable(asyncio.run), callable(urllib.request.urlopen))\n"
        "print(type(shutil).__name__, type(tempfile).__name__, callable(shutil.rmtree))\n"
    )
    coroutine, forms, files, escaped, february, real, later = out.splitlines()
    assert coroutine == "False"
    assert "'tempt'" in forms
    assert files == "True True"
    assert escaped == "&lt;a &amp; &quot;b&quot;&gt;"
    assert february == "29"
    assert real == "module True True"
    assert later == "module module True"

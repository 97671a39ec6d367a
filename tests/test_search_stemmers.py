"""kb's three Snowball stemmers load without Whoosh's other languages, and stem as Whoosh's do;
the package becomes Whoosh's own when anything asks it for a name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = "creatures tempts blocking generously dying créatures bloquées criaturas jugadores"


def _run(script: str) -> list[str]:
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=dict(os.environ),
    ).stdout.splitlines()


def test_a_search_language_loads_only_its_own_stemmer() -> None:
    (loaded,) = _run(
        "import sys\n"
        "from kb.search.lang import search_language\n"
        "for code in ('en', 'fr', 'es'): search_language(code)\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('whoosh.lang.snowball.'))))\n"
    )
    assert set(loaded.split()) == {
        f"whoosh.lang.snowball.{name}" for name in ("bases", "english", "french", "spanish")
    }


def test_the_stemmers_are_whooshs_and_the_package_still_serves_every_language() -> None:
    out = _run(
        "from kb.search.lang import search_language\n"
        "mine = {code: search_language(code).stemmer for code in ('en', 'fr', 'es')}\n"
        "from whoosh.lang import stemmer_for_language\n"
        "from whoosh.lang.snowball import classes\n"
        "import whoosh.lang.snowball as package\n"
        f"words = {WORDS.split()!r}\n"
        "for code, stem in mine.items():\n"
        "    whoosh = stemmer_for_language(code)\n"
        "    print(code, all(stem(w) == whoosh(w) for w in words))\n"
        "print(classes is package.classes, package.french.FrenchStemmer is classes['fr'])\n"
        "print(stemmer_for_language('de')('häuser'))\n"
    )
    assert out == ["en True", "fr True", "es True", "True True", "haus"]

"""The Snowball stemmers of kb's languages, without importing Whoosh's other eleven.

``whoosh.lang.stemmer_for_language`` imports ``whoosh.lang.snowball``, whose ``__init__``
imports the stemmers of all its languages to fill its ``classes`` table: about a sixtieth of
the instructions of a cold ``kb search``, which stems English, French and Spanish only. Here
the package is imported without running its ``__init__`` (:class:`_Package`), and the three
languages' modules are imported beneath it as usual. The ``__init__`` runs, in the same module
object, when anything first asks the package for a name it has not got (``from
whoosh.lang.snowball import classes``, as ``stemmer_for_language`` does): the package is then
Whoosh's own, its language modules included.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Callable
from typing import Any

PACKAGE = "whoosh.lang.snowball"
# Each language's module and class in the package (its ``classes`` table, for these codes).
STEMMERS = {
    "en": ("english", "EnglishStemmer"),
    "fr": ("french", "FrenchStemmer"),
    "es": ("spanish", "SpanishStemmer"),
}


class _Package(types.ModuleType):
    """The Snowball package, its ``__init__`` run when a name it lacks is first asked for."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or self.__dict__.get("_kb_initialised"):
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        self.__dict__["_kb_initialised"] = True
        self.__spec__.loader.exec_module(self)  # type: ignore[union-attr]
        return getattr(self, name)


def snowball_stemmer(code: str) -> Callable[[str], str]:
    """``whoosh.lang.stemmer_for_language(code)``: the ``stem`` of a new stemmer of the language
    (English, French, Spanish without the other languages' modules; any other through Whoosh)."""
    found = STEMMERS.get(code)
    if found is None:
        from whoosh.lang import stemmer_for_language

        stemmer: Callable[[str], str] = stemmer_for_language(code)
        return stemmer
    module_name, class_name = found
    if PACKAGE not in sys.modules:
        _import_package()
    module = importlib.import_module(f"{PACKAGE}.{module_name}")
    stem: Callable[[str], str] = getattr(module, class_name)().stem
    return stem


def _import_package() -> None:
    """Place the package in ``sys.modules`` (and on ``whoosh.lang``) with its ``__init__`` not
    run yet; a package that cannot be found so is imported the usual way."""
    import whoosh.lang

    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        importlib.import_module(PACKAGE)
        return
    package = importlib.util.module_from_spec(spec)
    package.__class__ = _Package
    sys.modules[PACKAGE] = package
    whoosh.lang.snowball = package  # type: ignore[attr-defined]

"""Whoosh imported without the modules it names but a search never calls (a cold ``kb search``).

Whoosh-Reloaded's modules import, at their top, functions a search never runs: ``whoosh.compat``
takes ``urlretrieve`` from ``urllib.request`` (which loads http.client, email and ssl),
``whoosh.reading`` takes ``cached_property`` from the package of that name (which imports asyncio
for coroutine properties) and ``whoosh.query.terms`` takes English word variations from
``whoosh.lang.morph_en`` (hundreds of regular expressions compiled on import). Together they are
about a third of what importing Whoosh costs. ``whoosh.filedb.filestore`` imports ``tempfile``
for a temporary storage's folder and ``whoosh.filedb.compound`` takes ``copyfileobj`` from
``shutil`` to write a compound file (the two load bz2 and lzma besides): a search uses neither;
``whoosh.util.times`` imports ``calendar`` for the length of a month in a date range a query
names (``date:``, parsed by Whoosh on first use).
While Whoosh is imported, those modules are stand-ins whose attributes are functions importing
the real module when first called; the stand-ins are then removed, so any later import gets the
real modules, and Whoosh's own calls (should one ever be made) still reach the real functions.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# Modules whose attributes Whoosh only calls (never reads as values) on paths a search never takes.
DEFERRED = (
    "urllib.request",
    "asyncio",
    "whoosh.lang.morph_en",
    "tempfile",
    "shutil",
    "calendar",
)


def _forward(module: str, name: str) -> Callable[..., Any]:
    """A function calling ``module.name``, importing the real module on the first call."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


class _StandIn(types.ModuleType):
    """A module whose every attribute is a forwarding function (:func:`_forward`)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _forward(self.__name__, name)


@contextmanager
def deferred(names: tuple[str, ...] = DEFERRED) -> Iterator[None]:
    """Stand-ins for the modules not yet imported among ``names``, for the ``with`` block."""
    placed = {}
    for name in names:
        if name not in sys.modules:
            placed[name] = sys.modules[name] = _StandIn(name)
    try:
        yield
    finally:
        for name, module in placed.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]


def import_whoosh() -> None:
    """Import the Whoosh modules kb searches with, the deferred ones left out."""
    if "whoosh.query" in sys.modules:
        return
    with deferred():
        import whoosh.compat
        import whoosh.filedb.compound  # kb.search.storage patches its files
        import whoosh.query
        import whoosh.reading  # noqa: F401

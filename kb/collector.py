"""Python's cycle collector paused for a long build that holds millions of live objects.

The link walk (tens of millions of small tuples beside ~700 MB of live ones), the index build
(the items and the term pool) and the ingest of the whole history make next to no reference
cycles, yet each of the collector's full passes walks everything alive: at the whole history
those passes freed nothing and were ~30% of ``kb link``'s CPU (183 s with them, 128 s
without, at the same peak memory) and 11 of the index build's 96 s. Reference counting frees
the rest as before; collection resumes (if it was on) on the way out, also on failure, with
one full pass then for the few cycles made meanwhile (at the whole history the ingest leaves
~75 MB of them: one pass instead of dozens, and the next stage does not start with them).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycles_paused() -> Iterator[None]:
    """Hold the cycle collector for the ``with`` block (nested blocks leave it to the outer)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
            gc.collect()

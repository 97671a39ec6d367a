"""The cycle collector pause shared by the link run, the index build and the ingest."""

from __future__ import annotations

import pytest


def test_the_collector_is_held_and_given_back_as_it_was_found() -> None:
    import gc

    from kb.collector import cycles_paused

    assert gc.isenabled()
    with pytest.raises(RuntimeError), cycles_paused():
        assert not gc.isenabled()
        raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with cycles_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()

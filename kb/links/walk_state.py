"""The term-link walk's state kept between link runs: adding an edition matches only changes.

A link run that starts its walk cold matches every ruling and card text (tens of thousands) in the
first edition it reaches; stepping from one edition to the next then costs a few percent of that
(kb.links.walk). Adding an edition to a knowledge base only needs the texts' matches in *some*
vocabulary to step from: so a run that walked the newest English edition keeps its walk's state
here (table ``link_walk_state``), and the next run that links given editions takes it up instead
of matching every text again.

The state holds term spans: they depend on the texts (with the card names masked and the card
contexts) and on the matching code, not on the edition. Its digest covers both, the source of
:mod:`kb.links` included, so a changed text, a changed card or another kb version makes it unusable
(the run then matches every text, as without it). It is pickled as plain values only (tuples,
lists, dicts, sets, strings, numbers, bytes) and read back by an unpickler that refuses every
class: reading it runs no code. A full rebuild (``kb link``) never reads it, so that one always
matches from scratch.
"""

from __future__ import annotations

import hashlib
import io
import logging
import pickle
import time
import zlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from kb.code_digest import files_digest
from kb.models import LinkWalkState

from .walk import TermWalk

__all__ = ["code_digest", "forget_walk", "keep_walk", "plain_values", "take_up_walk"]

log = logging.getLogger(__name__)

NAME = "links"
FORMAT = 1  # of the pickled state; a change makes stored states unusable


class _PlainValues(pickle.Unpickler):
    """An unpickler for plain values: any class or function named in the data is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"the link walk's state names {module}.{name}")


def plain_values(data: bytes) -> Any:
    """Unpickle data made of plain values only (any class named in it is refused)."""
    return _PlainValues(io.BytesIO(data)).load()


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the link stage's source: spans found by other code are not reused."""
    return files_digest(sorted(Path(__file__).parent.glob("*.py")))


def inputs_digest(sources: Sequence[Any]) -> str:
    """What a walk's state depends on: its texts, in order, as matched, and the matching code."""
    digest = hashlib.sha256(f"{FORMAT}\0{code_digest()}\n".encode())
    for s in sources:
        digest.update(
            repr(
                (
                    s.source_type,
                    s.source_id,
                    s.owner,
                    s.language,
                    s.text,
                    s.mask,
                    s.context.texts,
                )
            ).encode()
        )
    return digest.hexdigest()


def keep_walk(session: Session, walk: TermWalk, edition_date: Any) -> None:
    """Store the state of a walk over every text that walked the newest English edition."""
    began = time.perf_counter()
    data = zlib.compress(pickle.dumps(walk.state(), protocol=5), 1)
    session.execute(delete(LinkWalkState).where(LinkWalkState.name == NAME))
    session.add(
        LinkWalkState(
            name=NAME, inputs=inputs_digest(walk.sources), edition_date=edition_date, data=data
        )
    )
    session.flush()
    log.info(
        "kept the link walk's state (%.1f MB) in %.2f s",
        len(data) / 2**20,
        time.perf_counter() - began,
    )


def take_up_walk(session: Session, walk: TermWalk) -> TermWalk:
    """The walk to start with: a fresh one (not stepped yet) with the stored state taken up,
    when that was made of the same texts by the same code; else the walk as it is."""
    began = time.perf_counter()
    row = session.execute(
        select(LinkWalkState.inputs, LinkWalkState.data).where(LinkWalkState.name == NAME)
    ).first()
    if row is None or row.inputs != inputs_digest(walk.sources):
        return walk
    try:
        state = plain_values(zlib.decompress(row.data))
        if len(state["outputs"]) != len(walk.sources):
            raise ValueError("another number of texts")
        walk.restore(state)
    except (pickle.UnpicklingError, zlib.error, KeyError, TypeError, ValueError) as exc:
        log.warning("the link walk's stored state is unusable (%s): matching every text", exc)
        return TermWalk(walk.sources, explicit=walk.explicit)
    log.info("took up the link walk's state in %.2f s", time.perf_counter() - began)
    return walk


def forget_walk(session: Session) -> None:
    """Drop the stored state (the texts it was made of are changing)."""
    session.execute(delete(LinkWalkState).where(LinkWalkState.name == NAME))

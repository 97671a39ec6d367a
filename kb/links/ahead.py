"""English vocabularies built ahead, in a second process, while a full link run walks the editions.

A full rebuild (``kb link``, or the link stage of a first ingest) builds every English edition's
vocabulary afresh (kb.links.vocabularies): ~0.15 s each, about a tenth of the run at the whole
history, and nothing in it depends on the walk. So that run starts one helper process (spawned,
not forked: the parent holds open connections) that reads each edition's rules and glossary
through its own database connection, builds the vocabulary exactly as
:func:`kb.links.vocabularies.edition_vocabulary` would, and sends the stored form back (the
digest it was built under and the compressed plain values, the very bytes kept in
``link_walk_state``), in the order the walk asks for them. The walk then only decodes it (~10 ms).

The helper only reads what the run never writes (rules and glossary, committed before a link run
starts). If it cannot start, fails or dies, the walk builds what it did not receive itself, with
a logged warning: the links are the same either way, only slower.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

# Fewer editions than this are built in the run itself: starting the helper (a new Python that
# imports the link stage) costs about as much as building three vocabularies.
MIN_EDITIONS = 8


class VocabulariesAhead:
    """The stored form of each listed edition's English vocabulary, built by a helper process.

    :meth:`take` gives ``(digest, data)`` for an edition, or None when it has to be built in the
    run (not listed, or the helper failed); :meth:`close` ends the helper.
    """

    def __init__(self, url: str, editions: Sequence[int]) -> None:
        self.editions = set(editions)
        self.ready: dict[int, tuple[str, bytes]] = {}
        self.failed = False
        context = multiprocessing.get_context("spawn")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_build_ahead, args=(url, list(editions), send), daemon=True
        )
        self._process.start()
        send.close()  # the helper holds the only sending end: its exit ends the pipe

    @classmethod
    def start(cls, session: Session, editions: Sequence[int]) -> VocabulariesAhead | None:
        """A helper for these editions (in walk order), or None where it is not worth it or the
        database cannot be opened a second time (an in-memory SQLite)."""
        if len(editions) < MIN_EDITIONS:
            return None
        url = session.get_bind().engine.url
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            return None
        try:
            return cls(url.render_as_string(hide_password=False), editions)
        except OSError as exc:
            log.warning("vocabularies are built in the run (no helper process: %s)", exc)
            return None

    def take(self, edition_id: int) -> tuple[str, bytes] | None:
        """The edition's (digest, stored data), waiting for the helper to send it."""
        if edition_id not in self.editions:
            return None
        while edition_id not in self.ready and not self.failed:
            try:
                message = self._receive.recv()
            except (EOFError, OSError):
                message = ("failed", "it ended before sending every vocabulary")
            if message[0] == "failed":
                log.warning("vocabularies are built in the run (the helper failed: %s)", message[1])
                self.failed = True
                break
            _, built, digest, data = message
            self.ready[built] = (digest, data)
        self.editions.discard(edition_id)
        return self.ready.pop(edition_id, None)

    def close(self) -> None:
        """End the helper (it may still be building vocabularies nobody will ask for)."""
        self._receive.close()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()


def _build_ahead(url: str, editions: list[int], send: Any) -> None:
    """In the helper: build and send each edition's vocabulary in turn (an error ends it)."""
    try:
        from kb.db import make_engine
        from kb.models import Edition

        from .vocabularies import stored_vocabulary

        engine = make_engine(url, create=False)
        try:
            with Session(engine) as session:
                for edition_id in editions:
                    edition = session.get(Edition, edition_id)
                    if edition is None:
                        raise LookupError(f"no edition {edition_id}")
                    digest, data = stored_vocabulary(session, edition)
                    send.send(("built", edition_id, digest, data))
        finally:
            engine.dispose()
    except BaseException as exc:  # reported to the run, which builds the rest instead
        with contextlib.suppress(OSError):
            send.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        send.close()

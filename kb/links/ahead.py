"""English vocabularies built ahead, in a second process, while a full link run walks the editions.

A full rebuild (``kb link``, or the link stage of a first ingest) builds every English edition's
vocabulary afresh (kb.links.vocabularies): ~0.15 s each, about a tenth of the run at the whole
history, and nothing in it depends on the walk. So that run starts one helper process (spawned,
not forked: the parent holds open connections) that reads each edition's rules and glossary
through its own database connection, builds the vocabulary exactly as
:func:`kb.links.vocabularies.edition_vocabulary` would, and sends the stored form back (the
digest it was built under and the compressed plain values, the very bytes kept in
``link_walk_state``), in the order the walk asks for them. The walk then only decodes it (~10 ms).

Given the walk's texts, the helper also walks them itself (:class:`kb.links.carry.CarriedMatches`,
the same texts in the same order through the same editions' vocabularies, French and Spanish
built as :func:`kb.links.vocabularies.with_translations` builds them) and sends with each
vocabulary the texts the change of vocabulary makes stale and the spans it matched for them:
matching was nearly half of a full run, and it now runs on the second core while the walk
resolves, places and stores the edition before. Matching reads only the text and the
vocabulary, so the spans are the ones the walk would find; at the end the helper sends its
word index too (what the walk keeps for the next new edition), since the walk matched nothing
itself.

The helper only reads what the run never writes (rules, glossary, rulings and cards, committed
before a link run starts). If it cannot start, fails or dies, the walk builds and matches what
it did not receive itself, with a logged warning: the links are the same either way, only
slower.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from .carry import Feed

log = logging.getLogger(__name__)

# Fewer editions than this are built in the run itself: starting the helper (a new Python that
# imports the link stage) costs about as much as building three vocabularies.
MIN_EDITIONS = 8

Text = tuple[str, str, tuple[str, ...]]  # a walk's text: language, text, the names masked
# What the helper matched in one edition: the spans of each text it matched.
Matched = dict[int, list[Any]]
# Of the texts to match in an edition (every one in the first), the walk matches this share
# (the first ones) itself while the helper matches the rest (and in the first edition notes the
# words of all): the walk has the rest of its work beside. At the whole history a full run
# took 53-60 s with 0.3, against 67 s when the walk matched every text itself (same hour).
WALK_SHARE = 0.3


class VocabulariesAhead:
    """The stored form of each listed edition's English vocabulary, built by a helper process,
    and what the walk's texts match in it when they are given.

    :meth:`take` gives ``(digest, data)`` for an edition, or None when it has to be built in the
    run (not listed, or the helper failed); :meth:`fed`, what it matches there;
    :meth:`close` ends the helper.
    """

    def __init__(
        self, url: str, editions: Sequence[int], texts: Sequence[Text] | None = None
    ) -> None:
        self.editions = set(editions)
        self.ready: dict[int, tuple[str, bytes]] = {}
        self.matched: dict[int, Matched] = {}
        self.stale: dict[int, list[int]] = {}
        self.words: dict[str, dict[str, bytes]] | None = None
        self.failed = False
        self.matching = texts is not None
        context = multiprocessing.get_context("spawn")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_build_ahead,
            args=(url, list(editions), list(texts) if texts else None, WALK_SHARE, send),
            daemon=True,
        )
        self._process.start()
        send.close()  # the helper holds the only sending end: its exit ends the pipe

    @classmethod
    def start(
        cls, session: Session, editions: Sequence[int], texts: Sequence[Text] | None = None
    ) -> VocabulariesAhead | None:
        """A helper for these editions (in walk order), or None where it is not worth it or the
        database cannot be opened a second time (an in-memory SQLite).

        ``texts``: the walk's texts, (language, text, mask) in its order: the helper matches
        them too (:meth:`fed`)."""
        if len(editions) < MIN_EDITIONS:
            return None
        url = session.get_bind().engine.url
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            return None
        try:
            return cls(url.render_as_string(hide_password=False), editions, texts)
        except OSError as exc:
            log.warning("vocabularies are built in the run (no helper process: %s)", exc)
            return None

    def take(self, edition_id: int) -> tuple[str, bytes] | None:
        """The edition's (digest, stored data), waiting for the helper to send it."""
        if edition_id not in self.editions:
            return None
        while edition_id not in self.ready and self._receive_one():
            pass
        self.editions.discard(edition_id)
        return self.ready.pop(edition_id, None)

    def fed(self, edition_id: int) -> Feed | None:
        """What the helper matches in an edition it sent the vocabulary of, waited for when
        taken (None: it matches nothing, the walk matches itself)."""
        if not self.matching or self.failed:
            return None

        def stale() -> list[int] | None:
            while edition_id not in self.stale and self._receive_one():
                pass
            return self.stale.pop(edition_id, None)

        def take() -> Matched | None:
            while edition_id not in self.matched and self._receive_one():
                pass
            return self.matched.pop(edition_id, None)

        return Feed(WALK_SHARE, stale, take)

    def word_index(self) -> dict[str, dict[str, bytes]] | None:
        """The helper's word index after its last edition (None when it failed before)."""
        while self.words is None and self._receive_one():
            pass
        return self.words

    def _receive_one(self) -> bool:
        """Take the helper's next message; False once it failed or sent everything."""
        if self.failed:
            return False
        try:
            message = self._receive.recv()
        except (EOFError, OSError):
            message = ("failed", "it ended before sending everything")
        kind = message[0]
        if kind == "failed":
            log.warning(
                "vocabularies are built and texts matched in the run (the helper failed: %s)",
                message[1],
            )
            self.failed = True
        elif kind == "words":
            self.words = message[1]
        elif kind == "matched":
            self.matched[message[1]] = message[2]
        elif kind == "stale":
            self.stale[message[1]] = message[2]
        else:
            _, built, digest, data = message
            self.ready[built] = (digest, data)
        return not self.failed

    def close(self) -> None:
        """End the helper (it may still be building vocabularies nobody will ask for)."""
        self._receive.close()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()


def _build_ahead(
    url: str, editions: list[int], texts: list[Text] | None, share: float, send: Any
) -> None:
    """In the helper: build and send each edition's vocabulary in turn, then what the walk's
    texts match in it when they are given (an error ends it).

    A thread sends: the walk takes an edition's message only when it reaches that edition, and
    editions take the two sides unequal times (a large change of vocabulary makes many texts
    stale here; a renumbering makes many rows there), so the helper goes on matching the
    next editions instead of waiting on the pipe.
    """
    outbox: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
    sender = threading.Thread(target=_send_all, args=(outbox, send), daemon=True)
    sender.start()
    try:
        from kb.collector import cycles_paused
        from kb.db import make_engine
        from kb.models import Edition

        from .carry import CarriedMatches
        from .vocabularies import decoded, stored_vocabulary, with_translations
        from .words import words_kept

        engine = make_engine(url, create=False)
        sources = [_Text(*text) for text in texts] if texts is not None else []
        carried = CarriedMatches(sources)
        languages = {s.language for s in sources}
        learned: dict[str, dict[str, str]] = {}
        titles: dict[str, dict[int, dict[str, str]]] = {}
        try:
            with Session(engine) as session, words_kept(), cycles_paused():
                for edition_id in editions:
                    edition = session.get(Edition, edition_id)
                    if edition is None:
                        raise LookupError(f"no edition {edition_id}")
                    digest, data = stored_vocabulary(session, edition)
                    outbox.put(("built", edition_id, digest, data))
                    if texts is not None:
                        english = decoded(data)  # what the walk decodes
                        vocabulary = with_translations(
                            session, edition, english, languages, learned, titles
                        )
                        spans = carried.feed(
                            vocabulary,
                            share,
                            lambda stale, at=edition_id: outbox.put(("stale", at, stale)),
                        )
                        outbox.put(("matched", edition_id, spans))
                if texts is not None:
                    outbox.put(("words", carried.word_index()))
        finally:
            engine.dispose()
    except BaseException as exc:  # reported to the run, which builds the rest instead
        outbox.put(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        outbox.put(None)
        sender.join()


def _send_all(outbox: queue.Queue[tuple[Any, ...] | None], send: Any) -> None:
    """The helper's sending thread: each message in turn, then the pipe closed."""
    try:
        while (message := outbox.get()) is not None:
            send.send(message)
    except OSError:  # the walk closed its end: nobody reads any more
        pass
    finally:
        send.close()


@dataclass(frozen=True)
class _Text:
    """A walk's text as matching reads it (kb.links.carry's source)."""

    language: str
    text: str
    mask: tuple[str, ...]

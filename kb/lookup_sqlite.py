"""`kb rule` and `kb card` on a SQLite knowledge base with the stdlib ``sqlite3``, no ORM.

A lookup should feel instant, and importing SQLAlchemy's ORM alone costs a lookup half a second.
These views give exactly what :func:`kb.lookup.rule_view` and :func:`kb.lookup.card_view` give
(tests compare the two on the same knowledge base); where they would need the version stage's
content alignment (a translation made for an older edition, ``--edition`` of an older edition)
they answer ``None`` and the caller takes the ORM path, which PostgreSQL always takes.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import quote

from kb.errors import KbUsageError, NotFoundError
from kb.langs import PROVENANCE_ORDER, language_name

JUDGED_KINDS = ("rule", "subrule")
# As kb.terminology.store: the languages with learned card terms, and the confidence shown.
TERM_LANGUAGES = ("fr", "es")
USABLE_CONFIDENCE = 0.5
CARD_TERM = {"provenance": "card-term", "note": "term from official card translations"}


class NeedsOrm(Exception):
    """This lookup needs what only the ORM path computes (an alignment of two editions)."""


def sqlite_path(url: str) -> Path | None:
    """The file of a plain ``sqlite:///path`` URL (kb's default), else None."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or "?" in url:
        return None
    database = url[len(prefix) :]
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def connect(url: str) -> sqlite3.Connection | None:
    """A read-only connection to a SQLite knowledge base at the newest schema, else None.

    None sends the caller to the ORM path, which explains a missing file or an old schema.
    """
    path = sqlite_path(url)
    if path is None or not path.is_file():
        return None
    writable = os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)
    flags = "mode=ro" if writable else "mode=ro&immutable=1"  # as kb.db._sqlite_reader
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?{flags}", uri=True)
    except sqlite3.Error:
        return None
    from kb.migrations import head_revision

    try:
        (current,) = conn.execute("SELECT version_num FROM alembic_version").fetchone() or (None,)
    except sqlite3.Error:
        current = None
    if current != head_revision():
        conn.close()
        return None
    return conn


def answer(url: str, view: str, *args: Any) -> dict[str, Any] | None:
    """The view (``rule`` or ``card``) computed with sqlite3, or None for the ORM path."""
    conn = connect(url)
    if conn is None:
        return None
    with closing(conn):
        if view == "card":
            from kb.lookup_sqlite_cards import card_view

            return card_view(conn, *args)
        try:
            return rule_view(conn, *args)
        except NeedsOrm:
            return None


# --- rules -------------------------------------------------------------------------------------


def _english_editions(conn: sqlite3.Connection) -> list[tuple[int, str | None]]:
    return conn.execute(
        "SELECT id, effective_date FROM editions WHERE kind = 'comprules' AND language = 'en' "
        "ORDER BY effective_date, id"
    ).fetchall()


def find_edition(conn: sqlite3.Connection, date: str | None) -> tuple[int, str | None]:
    """(id, effective date) of the edition asked for, or of the newest; as kb.lookup's."""
    import datetime as dt

    query = "SELECT id, effective_date FROM editions WHERE kind = 'comprules' AND language = 'en'"
    if date:
        try:
            effective = dt.date.fromisoformat(date)
        except ValueError:
            raise KbUsageError(f"{date!r} is not a date (expected YYYY-MM-DD)") from None
        row = conn.execute(query + " AND effective_date = ?", (effective.isoformat(),)).fetchone()
        if row is None:
            known = ", ".join(d for _, d in _english_editions(conn) if d) or "none"
            raise NotFoundError(f"no edition effective {date} is loaded (loaded: {known})")
        return row
    row = conn.execute(query + " ORDER BY effective_date DESC LIMIT 1").fetchone()
    if row is None:
        raise NotFoundError("no Comprehensive Rules edition is loaded: run `kb ingest` first")
    return row


_TEXTS = (
    "SELECT t.id, t.language, t.title, b.text, t.provenance, t.follows_edition_id, "
    "t.follows_assumed FROM rule_texts t LEFT JOIN rule_bodies b ON b.id = t.body_id "
)


def _examples(conn: sqlite3.Connection, text_ids: list[int]) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {i: [] for i in text_ids}
    for start in range(0, len(text_ids), 500):
        chunk = text_ids[start : start + 500]
        for text_id, text in conn.execute(
            "SELECT rule_text_id, text FROM examples WHERE rule_text_id IN "
            f"({','.join('?' * len(chunk))}) ORDER BY rule_text_id, position",
            chunk,
        ):
            found[text_id].append(text)
    return found


def _dates(conn: sqlite3.Connection) -> dict[int, tuple[str | None, str]]:
    return {i: (d, k) for i, d, k in conn.execute("SELECT id, effective_date, key FROM editions")}


def rule_view(
    conn: sqlite3.Connection, number: str, language: str = "en", edition: str | None = None
) -> dict[str, Any]:
    """As :func:`kb.lookup.rule_view`."""
    from kb.corpus.numbers import is_rule_number, sort_key  # the corpus package: not for cards

    number = number.strip().rstrip(".")
    if not is_rule_number(number):
        raise KbUsageError(f"{number!r} is not a rule number (e.g. 701.54, 701.54a, 701, 7)")
    ed_id, ed_date = find_edition(conn, edition)
    key = sort_key(number)
    rules = conn.execute(
        "SELECT id, number, kind FROM rules WHERE edition_id = ? AND (sort_key = ? OR "
        "substr(sort_key, 1, ?) = ?) ORDER BY sort_key",
        (ed_id, key, len(key) + 1, key + "."),
    ).fetchall()
    if not rules or rules[0][1] != number:
        raise NotFoundError(f"rule {number} is not in the {ed_date} edition")
    today = _today(conn, number, ed_id, ed_date) if edition else None
    ids = [r[0] for r in rules]
    english: dict[int, tuple[Any, ...]] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for row in conn.execute(
            _TEXTS.replace("t.id,", "t.rule_id, t.id,")
            + f"WHERE t.language = 'en' AND t.rule_id IN ({','.join('?' * len(chunk))}) "
            "ORDER BY t.id",
            chunk,
        ):
            english.setdefault(row[0], row[1:])
    examples = _examples(conn, [row[0] for row in english.values()])
    dates = _dates(conn)
    numbers = [r[1] for r in rules]
    translated = _translations(conn, numbers, language, ed_id) if language != "en" else {}
    untranslated = [n for n in numbers if n not in translated]
    terms = _card_terms(conn, untranslated, language)
    items = []
    for rule_id, rule_number, kind in rules:
        text = english.get(rule_id)
        items.append(
            {
                "number": rule_number,
                "kind": kind,
                "english": _text_dict(text, examples, dates) if text else None,
                "translation": translated.get(rule_number),
                "card_term": terms.get(rule_number),
            }
        )
    missing = sum(1 for i in items if i["translation"] is None)
    return {
        "number": number,
        "edition": ed_date,
        "language": language,
        "language_name": language_name(language, "en"),
        "rules": items,
        "translated": len(items) - missing if language != "en" else len(items),
        "missing": missing if language != "en" else 0,
        "today": today,
    }


def _text_dict(
    row: tuple[Any, ...], examples: dict[int, list[str]], dates: dict[int, tuple[str | None, str]]
) -> dict[str, Any]:
    text_id, language, title, body, provenance, follows_id, assumed = row
    follows = dates.get(follows_id) if follows_id is not None else None
    return {
        "language": language,
        "title": title,
        "text": body,
        "examples": examples.get(text_id, []),
        "provenance": provenance,
        "follows_edition": follows[0] if follows and follows[0] else None,
        "follows_assumed": bool(assumed),
    }


def _today(conn: sqlite3.Connection, number: str, ed_id: int, ed_date: str | None) -> Any:
    """Where the rule stands today, when that needs no alignment (the edition is the newest)."""
    newest = _english_editions(conn)[-1]
    if newest[0] != ed_id:
        raise NeedsOrm  # followed through the alignments of the editions since (kb.versions)
    label = ed_date or conn.execute("SELECT key FROM editions WHERE id = ?", (ed_id,)).fetchone()[0]
    return {
        "asked": number,
        "asked_edition": label,
        "last_seen": label,
        "number": number,
        "edition": label,
        "removed_in": None,
    }


def _translations(
    conn: sqlite3.Connection, numbers: list[str], language: str, ed_id: int
) -> dict[str, dict[str, Any]]:
    """As kb.lookup._translations: the version stage's choice for rules and subrules, the best
    text for parts and chapters. Only translations that follow this very edition (or a later one,
    which do not count for it) are judged here: one that follows an older edition needs the
    alignment of the two editions, which the ORM path computes."""
    english = {i: d for i, d in _english_editions(conn)}
    edition_key = (english[ed_id], ed_id)
    kinds = dict(conn.execute("SELECT number, kind FROM rules WHERE edition_id = ?", (ed_id,)))
    judged: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {}
    for tr_number, provenance, follows_id, assumed, text_id in conn.execute(
        "SELECT r.number, t.provenance, t.follows_edition_id, t.follows_assumed, t.id "
        f"{_FROM_TRANSLATIONS}"
        "WHERE e.kind = 'translations' AND t.language = ? ORDER BY r.sort_key, t.id",
        (language,),
    ):
        if follows_id is None or follows_id not in english:
            continue  # follows no loaded English edition: nothing to judge it against
        if follows_id != ed_id:
            if (english[follows_id], follows_id) < edition_key:
                raise NeedsOrm
            continue  # made for a later English text than this edition's
        if tr_number not in kinds:
            continue
        # Every candidate here is current and follows the same edition (preference_key).
        rank = (provenance == "machine", PROVENANCE_ORDER.get(provenance, 9))
        best = judged.get(tr_number)
        if best is None or rank < best[0]:
            judged[tr_number] = (rank, (text_id, provenance, follows_id, assumed))
    wanted = {n: kinds[n] for n in numbers}
    chosen = {n: judged[n][1] for n in numbers if wanted[n] in JUDGED_KINDS and n in judged}
    rows = {row[0]: row for row in _rows(conn, [c[0] for c in chosen.values()])}
    headings = [n for n in numbers if wanted[n] not in JUDGED_KINDS]
    heading_rows = _heading_rows(conn, headings, language)
    examples = _examples(conn, [*rows, *(row[1] for row in heading_rows)])
    dates = _dates(conn)
    shown: dict[str, dict[str, Any]] = {}
    for number, (text_id, provenance, follows_id, assumed) in chosen.items():
        _, _, title, body, _, _, _ = rows[text_id]
        follows = dates[follows_id]
        shown[number] = {
            "language": language,
            "title": title,
            "text": body,
            "examples": examples.get(text_id, []),
            "provenance": provenance,
            "follows_edition": follows[0] or follows[1],
            "follows_assumed": bool(assumed),
            "status": "current",
            "translated_number": number,
        }
    best: dict[str, tuple[Any, ...]] = {}
    for row in sorted(heading_rows, key=lambda r: PROVENANCE_ORDER.get(r[5], 9)):
        best.setdefault(row[0], row[1:])
    for number, row in best.items():
        shown[number] = _text_dict(row, examples, dates) | {
            "status": None,
            "translated_number": number,
        }
    return shown


# Translations are found from their few editions down (a CROSS JOIN fixes SQLite's join order):
# left to itself SQLite scanned every rule text of a full history first, a second per lookup.
_FROM_TRANSLATIONS = (
    "FROM editions e CROSS JOIN rules r ON r.edition_id = e.id "
    "CROSS JOIN rule_texts t ON t.rule_id = r.id "
)


def _heading_rows(
    conn: sqlite3.Connection, numbers: list[str], language: str
) -> list[tuple[Any, ...]]:
    """The translated texts of parts and chapters, each row led by its rule number."""
    found: list[tuple[Any, ...]] = []
    for start in range(0, len(numbers), 500):
        chunk = numbers[start : start + 500]
        found.extend(
            conn.execute(
                "SELECT r.number, t.id, t.language, t.title, b.text, t.provenance, "
                f"t.follows_edition_id, t.follows_assumed {_FROM_TRANSLATIONS}"
                "LEFT JOIN rule_bodies b ON b.id = t.body_id "
                f"WHERE e.kind = 'translations' AND t.language = ? "
                f"AND r.number IN ({','.join('?' * len(chunk))}) ORDER BY t.id",
                (language, *chunk),
            )
        )
    return found


def _rows(conn: sqlite3.Connection, ids: list[int]) -> list[tuple[Any, ...]]:
    """Rule texts by id."""
    found: list[tuple[Any, ...]] = []
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        found.extend(
            conn.execute(
                _TEXTS + f"WHERE t.id IN ({','.join('?' * len(chunk))}) ORDER BY t.id", chunk
            )
        )
    return found


def _card_terms(
    conn: sqlite3.Connection, numbers: list[str], language: str
) -> dict[str, dict[str, str]]:
    """As kb.lookup.card_term_titles (kb.terminology.rule_terms)."""
    if language == "en" or not numbers or language not in TERM_LANGUAGES:
        return {}
    chosen: dict[str, str] = {}
    for start in range(0, len(numbers), 500):
        chunk = numbers[start : start + 500]
        for rule, label in conn.execute(
            "SELECT rule, label FROM card_terms WHERE language = ? AND confidence >= ? AND "
            f"rule IN ({','.join('?' * len(chunk))}) ORDER BY rule, cards DESC, keyword",
            (language, USABLE_CONFIDENCE, *chunk),
        ):
            chosen.setdefault(rule, label[:1].upper() + label[1:])
    return {number: {"title": title, **CARD_TERM} for number, title in chosen.items()}

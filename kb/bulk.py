"""Bulk inserts that stay bulk on every backend: multi-row VALUES on PostgreSQL.

psycopg runs an ``executemany`` as one INSERT statement per row (350,000 statements for the links
of three editions); one ``INSERT ... VALUES (...), (...), ...`` per batch is a few hundred. SQLite's
``executemany`` reuses one prepared statement in C, which is faster than a long VALUES list there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

# PostgreSQL takes at most 65,535 parameters per statement; SQLite 32,766.
_MAX_PARAMETERS = 30_000


def chunks(values: Iterable[Any], size: int = 900) -> list[list[Any]]:
    """Values in their order, split into lists short enough for one ``IN (...)``."""
    items = list(values)
    return [items[i : i + size] for i in range(0, len(items), size)]


def insert_many(session: Session, model: Any, rows: Sequence[dict[str, Any]]) -> None:
    """Insert rows (dicts with the same keys) in as few statements as the backend does well."""
    if not rows:
        return
    table = model.__table__
    if session.get_bind().dialect.name != "postgresql":
        for start in range(0, len(rows), 5000):
            session.execute(insert(table), list(rows[start : start + 5000]))
        return
    batch = max(1, _MAX_PARAMETERS // max(1, len(rows[0])))
    for start in range(0, len(rows), batch):
        session.execute(insert(table).values(list(rows[start : start + batch])))

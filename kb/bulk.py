"""Bulk inserts that stay bulk on every backend: multi-row VALUES on PostgreSQL, C loops on SQLite.

psycopg alone runs an ``executemany`` as one INSERT statement per row (350,000 statements for the
links of three editions). SQLAlchemy's "insertmanyvalues" sends one compiled statement as
``INSERT ... VALUES (...), (...), ...`` pages of rows instead; building such a statement with
``insert().values([...])`` for each batch, as kb did, had SQLAlchemy compile every one afresh:
ten times slower (a whole-history ``kb link`` on PostgreSQL took 334 s, nearly all of it there).

SQLite's ``executemany`` reuses one prepared statement in C, which is faster than a long VALUES
list there; what costs on SQLite is SQLAlchemy's work per row around it (``construct_params``,
and for ``INSERT ... RETURNING`` its "insertmanyvalues" batches): ~20 µs a row against ~5 µs for
the insert itself, over the ~750,000 rows of a whole-history ingest. So on SQLite the rows go to
the driver's ``executemany`` as tuples, through the same bind processors SQLAlchemy would apply
(dates, JSON, booleans) and with the same Python-side defaults, and new ids are assigned here
rather than read back (see :func:`insert_returning_ids`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy import Date, Table, func, insert, select
from sqlalchemy.orm import Session

_RETURNING_BATCH = 2000
_SQLITE_BATCH = 5000
_PAGE = 10_000  # rows handed to SQLAlchemy at once on PostgreSQL (it sends them in pages)
_ARRAY_BATCH = 50_000  # rows updated by one statement on PostgreSQL (kb.bulk.update_many)


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
        _sqlite_insert(session, table, rows)
        return
    # SQLAlchemy's "insertmanyvalues": one compiled statement, sent as multi-row INSERTs of a
    # page of rows each. An ``insert().values([...])`` per batch instead was compiled afresh
    # every time: 34 s for 50,000 link rows where this takes 3 s.
    for start in range(0, len(rows), _PAGE):
        session.execute(insert(table), list(rows[start : start + _PAGE]))


def update_many(
    session: Session, model: Any, names: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> None:
    """Set the columns ``names`` of rows given by id: each row is ``(id, *values)``.

    On SQLite through the driver's ``executemany`` (SQLAlchemy's work per row cost four times
    the update), on PostgreSQL as ``UPDATE … FROM unnest(arrays)`` per batch (psycopg would run
    one statement per row: some 165,000 when an edition is added to the whole history).
    """
    if not rows:
        return
    table = model.__table__
    connection = session.connection()
    dialect = connection.dialect
    targets = [table.c[name] for name in names]
    processors = _bind_processors(targets, dialect)
    quote = dialect.identifier_preparer.quote
    name = dialect.identifier_preparer.format_table(table)
    if dialect.name == "postgresql":
        # One statement per batch whatever its size, compiled once: the values go as one array
        # per column, unnested into rows (a VALUES list compiled per batch took 12 s for
        # 50,000 rows).
        every = [table.c.id, *targets]
        arrays = ", ".join(
            f"%(v{i})s::{c.type.compile(dialect=dialect)}[]" for i, c in enumerate(every)
        )
        sets = ", ".join(f"{quote(c.name)} = given.v{i}" for i, c in enumerate(targets, 1))
        sql = (
            f"UPDATE {name} SET {sets} FROM unnest({arrays}) AS given"
            f"({', '.join(f'v{i}' for i in range(len(every)))})"
            f" WHERE {name}.{quote(table.c.id.name)} = given.v0"
        )
        for start in range(0, len(rows), _ARRAY_BATCH):
            batch = rows[start : start + _ARRAY_BATCH]
            columns = [list(values) for values in zip(*batch, strict=True)]
            for position, processor in processors:
                columns[position + 1] = [processor(v) for v in columns[position + 1]]
            connection.exec_driver_sql(sql, {f"v{i}": c for i, c in enumerate(columns)})
        return
    sql = (
        f"UPDATE {name} SET "
        f"{', '.join(f'{quote(c.name)} = ?' for c in targets)} WHERE {quote(table.c.id.name)} = ?"
    )
    for start in range(0, len(rows), _SQLITE_BATCH):
        tuples: list[Any] = []
        for row in rows[start : start + _SQLITE_BATCH]:
            listed = list(row[1:])
            for position, processor in processors:
                listed[position] = processor(listed[position])
            tuples.append((*listed, row[0]))
        connection.exec_driver_sql(sql, tuples)


def insert_returning_ids(session: Session, model: Any, rows: Sequence[dict[str, Any]]) -> list[int]:
    """Insert rows and return their new ids in the order given.

    PostgreSQL reads them back (``RETURNING``, which also moves the table's sequence on). SQLite
    gives a new row of a table without ``AUTOINCREMENT`` (no kb table has it) the largest id
    plus one, so the ids it would choose are known beforehand and set here: the same ids, with
    no rows coming back. Nobody else can insert in between: every load first deletes the
    document's old rows, which takes SQLite's write lock until the transaction ends (and a
    clash would fail on the primary key, never go unnoticed).
    """
    if not rows:
        return []
    table = model.__table__
    if session.get_bind().dialect.name == "postgresql":
        ids: list[int] = []
        statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        for start in range(0, len(rows), _RETURNING_BATCH):
            result = session.execute(statement, list(rows[start : start + _RETURNING_BATCH]))
            ids.extend(result.scalars())
        return ids
    session.flush()  # ORM objects of the table still pending would take ids of their own
    first = (session.scalar(select(func.max(table.c.id))) or 0) + 1
    ids = list(range(first, first + len(rows)))
    _sqlite_insert(session, table, rows, ids)
    return ids


def _sqlite_insert(
    session: Session,
    table: Table,
    rows: Sequence[dict[str, Any]],
    ids: Sequence[int] | None = None,
) -> None:
    """Rows (with the keys of the first) through the driver's ``executemany``, SQLAlchemy's way.

    A column the rows leave out gets its scalar Python default as SQLAlchemy would send it; one
    whose default is a function (it may read the row) sends the rows through SQLAlchemy instead.
    ``ids``, when given, are the rows' ids in their order (so the rows need not be copied).
    """
    keys = list(rows[0])
    missing = [c for c in table.columns if c.key not in rows[0] and c.default is not None]
    if any(not c.default.is_scalar for c in missing):  # type: ignore[union-attr]
        if ids is not None:
            rows = [{**row, "id": id_} for id_, row in zip(ids, rows, strict=True)]
        for start in range(0, len(rows), _SQLITE_BATCH):
            session.execute(insert(table), list(rows[start : start + _SQLITE_BATCH]))
        return
    connection = session.connection()
    dialect = connection.dialect
    columns = ([table.c.id] if ids is not None else []) + [table.c[k] for k in keys] + missing
    constants = tuple(c.default.arg for c in missing)  # type: ignore[union-attr]
    processors = _bind_processors(columns, dialect)
    quote = dialect.identifier_preparer.quote
    sql = (
        f"INSERT INTO {dialect.identifier_preparer.format_table(table)} "
        f"({', '.join(quote(c.name) for c in columns)}) VALUES ({', '.join('?' * len(columns))})"
    )
    getter = itemgetter(*keys)
    values: Callable[[dict[str, Any]], tuple[Any, ...]] = (
        (lambda row: (getter(row),)) if len(keys) == 1 else getter
    )
    for start in range(0, len(rows), _SQLITE_BATCH):
        batch = rows[start : start + _SQLITE_BATCH]
        if ids is None:
            tuples: list[Any] = [values(row) + constants for row in batch]
        else:
            own = ids[start : start + _SQLITE_BATCH]
            tuples = [(id_, *values(row), *constants) for id_, row in zip(own, batch, strict=True)]
        if processors:
            for index, row in enumerate(tuples):
                listed = list(row)
                for position, processor in processors:
                    listed[position] = processor(listed[position])
                tuples[index] = tuple(listed)
        connection.exec_driver_sql(sql, tuples)


def _bind_processors(
    columns: Sequence[Any], dialect: Any
) -> list[tuple[int, Callable[[Any], Any]]]:
    """(position, bind processor) of the columns that have one, as SQLAlchemy would apply them;
    a date column's runs once per distinct value (:func:`_once_per_value`)."""
    processors: list[tuple[int, Callable[[Any], Any]]] = []
    for position, column in enumerate(columns):
        processor = column.type.dialect_impl(dialect).bind_processor(dialect)
        if processor is not None:
            if isinstance(column.type, Date):
                processor = _once_per_value(processor)
            processors.append((position, processor))
    return processors


_UNSEEN = object()


def _once_per_value(processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A date column's bind processor, run once per distinct value: the link rows of a whole
    history (~280,000) name ~100 edition dates, and formatting each one was ~1% of ``kb link``.
    Dates are compared by value (a date never equals a datetime), so the result is the same."""
    done: dict[Any, Any] = {}

    def process(value: Any) -> Any:
        found = done.get(value, _UNSEEN)
        if found is _UNSEEN:
            found = done[value] = processor(value)
        return found

    return process

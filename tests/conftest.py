"""Shared fixtures: the real corpus beside the checkout, the seed pages, a fresh database."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pytest

# The suite runs twice at once on CI (SQLite and PostgreSQL) on a small machine: a property
# test's speed says nothing about the code, so no example deadline and no "generation is slow"
# health check (the other health checks stay). A test's own settings still override these.
hypothesis.settings.register_profile(
    "kb",
    deadline=None,
    suppress_health_check=[hypothesis.HealthCheck.too_slow],
)
hypothesis.settings.load_profile("kb")

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus"
DATA = Path(__file__).resolve().parent / "data"
SHARED_CORPUS = Path(os.environ.get("KB_SHARED_CORPUS", ROOT.parent / "shared" / "corpus"))
CORPUS_FULL = Path(os.environ.get("KB_CORPUS_FULL", ROOT.parent / "shared" / "corpus-full"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests of real permissions as root, which ignores them (.ci/run runs them)."""
    if os.geteuid() != 0:
        return
    skip = pytest.mark.skip(reason="root ignores file permissions: run as another user")
    for item in items:
        if "unprivileged" in item.keywords:
            item.add_marker(skip)


def _require_shared() -> Path:
    if not SHARED_CORPUS.is_dir():
        message = f"the real corpus is missing at {SHARED_CORPUS}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: real-data tests must run)")
        pytest.skip(message)
    return SHARED_CORPUS


@pytest.fixture(scope="session")
def corpus_full() -> Path:
    """The whole real history ../shared/corpus-full (fails under CI when missing, else skips)."""
    if not CORPUS_FULL.is_dir():
        message = f"the full real corpus is missing at {CORPUS_FULL}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: real-data tests must run)")
        pytest.skip(message)
    return CORPUS_FULL


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    """The real data folder ../shared/corpus (fails under CI when missing, else skips)."""
    return _require_shared()


@pytest.fixture(scope="session")
def cr_path(shared_corpus: Path):
    """Return the path of a real Comprehensive Rules edition by its effective date (ISO)."""
    files = {
        "2021-02-05": "MagicCompRules_20210202.txt",
        "2025-11-14": "MagicCompRules_20251114.txt",
        "2026-01-16": "MagicCompRules_20260116.txt",
    }

    def path(effective: str) -> Path:
        return shared_corpus / "cr" / "en" / files[effective]

    return path


# A part of the real KHM.json for tests that ingest a set file again and again: its first card
# identities (modal double-faced ones among them) and the seed 003's card, every printing of each.
KHM_PART_CARDS = 40
SEED_CARD = "The Trickster-God's Heist"


@pytest.fixture(scope="session")
def khm_part(shared_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """KHM.json cut to 40 card identities and the seed 003's card (a tenth of the ingest)."""
    import json

    document = json.loads((shared_corpus / "mtgjson" / "KHM.json").read_text(encoding="utf-8"))
    cards = document["data"]["cards"]
    oracle = [c.get("identifiers", {}).get("scryfallOracleId") for c in cards]
    kept = set(list(dict.fromkeys(oracle))[:KHM_PART_CARDS])
    kept |= {o for c, o in zip(cards, oracle, strict=True) if c["name"] == SEED_CARD}
    document["data"]["cards"] = [c for c, o in zip(cards, oracle, strict=True) if o in kept]
    assert any(c.get("side") for c in document["data"]["cards"])  # double-faced cards too
    path = tmp_path_factory.mktemp("khm-part") / "KHM.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def seeds() -> Path:
    """The seed pages shipped in the repository's corpus/ folder."""
    return SEEDS


@pytest.fixture
def seed(seeds: Path):
    """Return the path of a seed page by its number prefix (``"000"``, ``"003"``, ``"004"``)."""

    def path(prefix: str) -> Path:
        (match,) = sorted(seeds.glob(f"{prefix}_*.txt"))
        return match

    return path


# --- PostgreSQL: with KB_DATABASE_URL set, every test gets a schema of its own on that server ---

PG_URL = os.environ.get("KB_DATABASE_URL") or None
_PG_SCHEMAS: set[str] = set()
_PG_HOMES: dict[str, str] = {}  # data folder -> its schema's URL


@pytest.fixture(scope="session")
def _pg_admin() -> Iterator[Any]:
    """An autocommit engine on the KB_DATABASE_URL server (None when testing on SQLite)."""
    if not PG_URL:
        yield None
        return
    from sqlalchemy import create_engine, pool

    engine = create_engine(PG_URL, poolclass=pool.NullPool, isolation_level="AUTOCOMMIT")
    yield engine
    for schema in list(_PG_SCHEMAS):  # the full knowledge base's, and any a test left behind
        _pg_drop_schema(engine, schema)
    engine.dispose()


def _pg_schema_url(admin: Any, prefix: str) -> str:
    """Create an empty schema and return KB_DATABASE_URL with it first on the search_path."""
    from sqlalchemy.engine import make_url

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    _PG_SCHEMAS.add(schema)
    url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def _pg_drop_schema(admin: Any, url_or_schema: str) -> None:
    from sqlalchemy.engine import make_url

    schema = url_or_schema
    if "://" in url_or_schema:
        schema = str(make_url(url_or_schema).query["options"]).split("=", 1)[1]
    _PG_SCHEMAS.discard(schema)
    with admin.connect() as conn:
        conn.exec_driver_sql("SET lock_timeout = '10s'")
        conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def _dispose_engines_afterwards(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """Close the connections of every engine the test opened (psycopg warns on leaked ones)."""
    import kb.db

    engines: list[Any] = []
    real = kb.db.make_engine

    def recording(url: str, **options: Any) -> Any:
        engine = real(url, **options)
        engines.append(engine)
        return engine

    monkeypatch.setattr(kb.db, "make_engine", recording)
    monkeypatch.setattr("kb.pipeline.make_engine", recording, raising=False)
    request.addfinalizer(lambda: [engine.dispose() for engine in engines])


@pytest.fixture(autouse=True)
def database_url(
    request: pytest.FixtureRequest, _pg_admin: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str | None]:
    """None on SQLite; on PostgreSQL a fresh schema's URL, also set as $KB_DATABASE_URL.

    The CLI and subprocesses read the environment, so a test that runs ``kb --home …`` talks to
    its own schema; a test on the full knowledge base gets that session's schema instead.
    """
    if _pg_admin is None:
        yield None
        return
    _dispose_engines_afterwards(monkeypatch, request)
    if {"full_settings", "full_db"} & set(request.fixturenames):
        full = request.getfixturevalue("full_settings")
        monkeypatch.setenv("KB_DATABASE_URL", full.database_url)
        yield full.database_url
        return
    url = _pg_schema_url(_pg_admin, "kbtest")
    monkeypatch.setenv("KB_DATABASE_URL", url)
    yield url
    _pg_drop_schema(_pg_admin, url)


@pytest.fixture
def fresh_database_url(tmp_path: Path, _pg_admin: Any) -> Iterator[Any]:
    """Return a maker of further empty databases: SQLite files here, or PostgreSQL schemas."""
    made: list[str] = []

    def make(name: str) -> str:
        if _pg_admin is None:
            return f"sqlite:///{(tmp_path / f'{name}.sqlite').as_posix()}"
        made.append(_pg_schema_url(_pg_admin, "kbextra"))
        return made[-1]

    yield make
    for url in made:
        _pg_drop_schema(_pg_admin, url)


@pytest.fixture(scope="session", autouse=True)
def _pg_data_folders(_pg_admin: Any) -> Iterator[None]:
    """On PostgreSQL, give every data folder a schema of its own, as SQLite gives it a file.

    kb finds its SQLite database through ``--home``; here a data folder that names no database
    maps to its schema (made on first use), so ``kb --home X`` run in this process, even from a
    module-scoped fixture, reaches X's data. The session's KB_DATABASE_URL is withdrawn (it
    names the server, not a knowledge base); each test sets it again for the processes it
    starts (see ``database_url``).
    """
    if _pg_admin is None:
        yield
        return
    from kb.config import Settings

    original = Settings.database

    def database(self: Settings) -> str:
        if self.database_url:
            return self.database_url
        key = str(Path(self.home).resolve())
        if key not in _PG_HOMES:
            _PG_HOMES[key] = _pg_schema_url(_pg_admin, "kbhome")
        return _PG_HOMES[key]

    saved = os.environ.pop("KB_DATABASE_URL", None)
    Settings.database = property(database)  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Settings.database = original  # type: ignore[method-assign]
        if saved is not None:
            os.environ["KB_DATABASE_URL"] = saved


@pytest.fixture
def settings(tmp_path: Path, database_url: str | None):
    """Settings with a fresh data folder (and SQLite database, or PostgreSQL schema) per test."""
    from kb.config import Settings

    home = tmp_path / "_kb"
    if database_url:
        _PG_HOMES[str(home.resolve())] = database_url
    return Settings(home=home, database_url=database_url, corpus=(SEEDS,), base_dir=ROOT)


@pytest.fixture(scope="session")
def full_settings(tmp_path_factory: pytest.TempPathFactory, shared_corpus: Path, _pg_admin: Any):
    """Settings of a knowledge base holding the seeds and the whole real corpus (built once)."""
    from kb.config import Settings
    from kb.pipeline import ingest

    home = tmp_path_factory.mktemp("full") / "_kb"
    url = _pg_schema_url(_pg_admin, "kbfull") if _pg_admin else None
    if url:
        _PG_HOMES[str(home.resolve())] = url
    settings = Settings(home=home, database_url=url, corpus=(SEEDS, shared_corpus), base_dir=ROOT)
    report = ingest(settings)
    assert not report.failed, report.failed
    return settings


@pytest.fixture
def full_db(full_settings):
    """An open Database on the full knowledge base (read it, do not write to it)."""
    from kb.pipeline import open_db

    db = open_db(full_settings, create=False)
    yield db
    db.dispose()


@pytest.fixture(scope="session")
def full_site(full_settings, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static site of the full knowledge base, Pagefind included (built once, read-only)."""
    from kb.pipeline import open_db
    from kb.site import build_site

    out = tmp_path_factory.mktemp("site") / "site"
    db = open_db(full_settings, create=False)
    try:
        report = build_site(db, out, search=True)
    finally:
        db.dispose()
    assert report.pages > 0 and not report.broken, report.broken[:5]
    return out

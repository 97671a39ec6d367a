"""Settings: defaults < ``kb.toml`` or ``[tool.kb]`` in pyproject.toml < ``KB_*`` environment < CLI.

One frozen object is built at the start of a command and handed down, so that no stage reads the
environment on its own and tests can build a Settings pointing at ``tmp_path``. Every value is
checked where it is read (:data:`CHECKS`): a badly typed one is one error naming its key and where
it was set, never a traceback later. A new setting is a field of :class:`Settings`, a check in
:data:`CHECKS` and, if it has one, an environment variable in :data:`ENV_KEYS`.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from kb.errors import ConfigError, OptionError

ENV_PREFIX = "KB_"
# Where `kb update` looks for a new Comprehensive Rules edition and for MTGJSON's card data.
RULES_PAGE_URL = "https://magic.wizards.com/en/rules"
MTGJSON_URL = "https://mtgjson.com/api/v5/AllPrintings.json.xz"


@dataclass(frozen=True)
class Settings:
    """Where kb keeps its data and what it reads by default."""

    home: Path = Path("_kb")
    database_url: str | None = None
    corpus: tuple[Path, ...] = (Path("corpus"),)
    lang: str = "en"
    base_dir: Path = field(default_factory=Path.cwd)
    rules_page_url: str = RULES_PAGE_URL
    mtgjson_url: str = MTGJSON_URL

    @property
    def database(self) -> str:
        """The SQLAlchemy URL: the configured one, else SQLite in the data folder."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.home / 'kb.sqlite').resolve().as_posix()}"

    @property
    def index_dir(self) -> Path:
        """Folder of the Whoosh index."""
        return self.home / "index"

    @property
    def site_dir(self) -> Path:
        """Default output folder of ``kb build``."""
        return self.home / "site"

    def with_options(self, **options: Any) -> Settings:
        """Return a copy with the CLI options that were given (None means not given)."""
        given = {
            k: os.fspath(v) if isinstance(v, Path) else v
            for k, v in options.items()
            if v is not None
        }
        try:
            checked = {
                key: check_value(key, value, f"--{key.removesuffix('_url')}", self.base_dir)
                for key, value in given.items()
            }
        except ConfigError as exc:
            raise OptionError(str(exc)) from None
        return replace(self, **checked)


# --- checks: one per key, each returning the value in the type Settings holds ----------------


def _kind(value: Any) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", dict: "a table", list: "a list"}
    return names.get(type(value), type(value).__name__)


def _text(key: str, value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where}: {key} must be a string, not {_kind(value)} ({value!r})")
    if "\x00" in value:
        raise ConfigError(f"{where}: {key} holds a NUL character")
    return value


def _path(key: str, value: Any, where: str, base: Path) -> Path:
    text = _text(key, value, where)
    if not text.strip():
        raise ConfigError(f"{where}: {key} is empty (give a folder)")
    path = Path(text).expanduser()
    return path if path.is_absolute() else base / path


def _paths(key: str, value: Any, where: str, base: Path) -> tuple[Path, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise ConfigError(
            f"{where}: {key} must be a path or a non-empty list of paths, not {_kind(value)} "
            f"({value!r})"
        )
    return tuple(_path(f"{key}[{n}]", item, where, base) for n, item in enumerate(items))


# SQLAlchemy's URL syntax (sqlalchemy.engine.url._parse_url), and the dialects and drivers of
# SQLAlchemy 2 a URL is accepted with as it stands: checking those needs no SQLAlchemy (importing
# its engine and a dialect costs a cold `kb search` half a second). Any other URL is checked by
# SQLAlchemy itself. tests/test_config.py checks both against SQLAlchemy.
_URL = re.compile(
    r"""
    (?P<name>[\w\+]+)://
    (?:(?P<username>[^:/]*)(?::(?P<password>[^@]*))?@)?
    (?:(?:\[(?P<ipv6host>[^/\?]+)\]|(?P<ipv4host>[^/:\?]+))?(?::(?P<port>[^/\?]*))?)?
    (?:/(?P<database>[^\?]*))?
    (?:\?(?P<query>.*))?
    """,
    re.X,
)
KNOWN_DRIVERS = {
    "sqlite": ("", "pysqlite"),
    "postgresql": ("", "psycopg", "psycopg2", "pg8000", "asyncpg"),
    "mysql": ("", "pymysql", "mysqldb", "mysqlconnector"),
    "mariadb": ("", "pymysql", "mysqldb", "mysqlconnector"),
    "oracle": ("", "oracledb", "cx_oracle"),
    "mssql": ("", "pyodbc", "pymssql"),
}


def known_database_url(text: str) -> bool:
    """Whether SQLAlchemy takes a URL for certain: its syntax, a dialect and driver it ships."""
    match = _URL.fullmatch(text)
    if match is None or match.group("query") is not None:
        return False
    port = match.group("port")
    if port and not port.isdigit():
        return False
    dialect, _, driver = match.group("name").partition("+")
    return driver in KNOWN_DRIVERS.get(dialect, ()) and "+" not in driver


def _database_url(key: str, value: Any, where: str, _base: Path) -> str | None:
    text = _text(key, value, where).strip()
    if not text:
        return None
    if known_database_url(text):
        return text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        url = make_url(text)
        url.get_dialect()
    except NoSuchModuleError:  # an ArgumentError too: caught first
        raise ConfigError(
            f"{where}: {key} names an unknown database {text.split(':', 1)[0]!r} "
            "(expected sqlite:///… or postgresql+psycopg://…)"
        ) from None
    except ArgumentError:
        raise ConfigError(
            f"{where}: {key} is not a database URL: {text!r} "
            "(expected e.g. sqlite:////path/kb.sqlite or postgresql+psycopg://user@host/db)"
        ) from None
    return text


def _lang(key: str, value: Any, where: str, _base: Path) -> str:
    from kb.langs import check_lang

    try:
        return check_lang(_text(key, value, where))
    except ValueError as exc:
        raise ConfigError(f"{where}: {key}: {exc}") from None


def _http_url(key: str, value: Any, where: str, _base: Path) -> str:
    text = _text(key, value, where).strip()
    if not text.lower().startswith(("http://", "https://")) or len(text) < 10:
        raise ConfigError(f"{where}: {key} must be an http:// or https:// URL, not {text!r}")
    return text


CHECKS: dict[str, Callable[[str, Any, str, Path], Any]] = {
    "home": _path,
    "database_url": _database_url,
    "corpus": _paths,
    "lang": _lang,
    "rules_page_url": _http_url,
    "mtgjson_url": _http_url,
}
# Settings an environment variable can give (KB_<KEY>); KB_DATABASE is an older spelling.
ENV_KEYS: dict[str, str] = {
    "home": "KB_HOME",
    "database_url": "KB_DATABASE_URL",
    "lang": "KB_LANG",
    "rules_page_url": "KB_RULES_PAGE_URL",
    "mtgjson_url": "KB_MTGJSON_URL",
}
assert set(CHECKS) == {f.name for f in fields(Settings)} - {"base_dir"}


def check_value(key: str, value: Any, where: str, base: Path) -> Any:
    """Check one setting's value; ``where`` says where it was set (file, variable, option)."""
    return CHECKS[key](key, value, where, base)


def _file_settings(base: Path) -> tuple[dict[str, Any], str]:
    """Read ``kb.toml`` or the ``[tool.kb]`` table of ``pyproject.toml`` in ``base``."""
    for name, table in (("kb.toml", None), ("pyproject.toml", ("tool", "kb"))):
        path = base / name
        if not path.is_file():
            continue
        try:
            data: Any = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
        where = str(path)
        if table:
            for key in table:
                data = data.get(key, {}) if isinstance(data, dict) else {}
            where = f"{path} [{'.'.join(table)}]"
            if not isinstance(data, dict):
                raise ConfigError(f"{where}: must be a table of settings")
        if data:
            return dict(data), where
    return {}, ""


def load_settings(base_dir: Path | None = None, environ: dict[str, str] | None = None) -> Settings:
    """Build the settings from the project's files and the ``KB_*`` environment variables."""
    base = (base_dir or Path.cwd()).resolve()
    env = os.environ if environ is None else environ
    values, where = _file_settings(base)
    unknown = set(values) - set(CHECKS)
    if unknown:
        raise ConfigError(
            f"{where}: unknown setting(s) {', '.join(sorted(unknown))} (known: {', '.join(CHECKS)})"
        )
    checked = {key: check_value(key, value, where, base) for key, value in values.items()}
    for key, variable in ENV_KEYS.items():
        if env.get(variable):
            checked[key] = check_value(key, env[variable], variable, base)
    if env.get("KB_DATABASE"):
        checked["database_url"] = check_value(
            "database_url", env["KB_DATABASE"], "KB_DATABASE", base
        )
    return Settings(base_dir=base, **checked)

"""Settings: defaults < ``kb.toml`` or ``[tool.kb]`` in pyproject.toml < ``KB_*`` environment < CLI.

One frozen object is built at the start of a command and handed down, so that no stage reads the
environment on its own and tests can build a Settings pointing at ``tmp_path``.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kb.errors import ConfigError

ENV_PREFIX = "KB_"
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
        given = {k: v for k, v in options.items() if v is not None}
        if "home" in given:
            given["home"] = Path(given["home"])
        return replace(self, **given)


def _file_settings(base: Path) -> dict[str, Any]:
    """Read ``kb.toml`` or the ``[tool.kb]`` table of ``pyproject.toml`` in ``base``."""
    for name, table in (("kb.toml", None), ("pyproject.toml", ("tool", "kb"))):
        path = base / name
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        if table:
            for key in table:
                data = data.get(key, {})
        if data:
            return dict(data)
    return {}


def load_settings(base_dir: Path | None = None, environ: dict[str, str] | None = None) -> Settings:
    """Build the settings from the project's files and the ``KB_*`` environment variables."""
    base = (base_dir or Path.cwd()).resolve()
    env = os.environ if environ is None else environ
    values: dict[str, Any] = _file_settings(base)
    unknown = set(values) - {
        "home",
        "database_url",
        "corpus",
        "lang",
        "rules_page_url",
        "mtgjson_url",
    }
    if unknown:
        raise ConfigError(f"unknown setting(s) in kb configuration: {', '.join(sorted(unknown))}")
    for key in ("home", "database_url", "lang", "rules_page_url", "mtgjson_url"):
        env_value = env.get(ENV_PREFIX + key.upper())
        if env_value:
            values[key] = env_value
    if env.get("KB_DATABASE"):
        values["database_url"] = env["KB_DATABASE"]
    home = Path(values.get("home", "_kb"))
    corpus = values.get("corpus", ["corpus"])
    if isinstance(corpus, str):
        corpus = [corpus]
    lang = str(values.get("lang", "en"))
    from kb.langs import check_lang

    try:
        lang = check_lang(lang)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return Settings(
        home=home if home.is_absolute() else base / home,
        database_url=values.get("database_url") or None,
        corpus=tuple(Path(c) if Path(c).is_absolute() else base / c for c in corpus),
        lang=lang,
        base_dir=base,
        rules_page_url=str(values.get("rules_page_url") or RULES_PAGE_URL),
        mtgjson_url=str(values.get("mtgjson_url") or MTGJSON_URL),
    )

"""Settings: a badly typed value is one error naming its key; readers never create a database."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.config import load_settings
from kb.errors import ConfigError

# (a line of kb.toml, words of the error): badly typed or nonsense settings
BAD_VALUES = [
    ("home = 123", "home must be a string, not a number (123)"),
    ("home = {a=1}", "home must be a string, not a table"),
    ('home = ""', "home is empty"),
    ("corpus = 5", "corpus must be a path or a non-empty list of paths, not a number"),
    ("corpus = [1, 2]", "corpus[0] must be a string, not a number (1)"),
    ("corpus = []", "corpus must be a path or a non-empty list of paths"),
    ('database_url = "nonsense://"', "database_url names an unknown database 'nonsense'"),
    ('database_url = "::"', "database_url is not a database URL: '::'"),
    ('database_url = "nonsense://x/y"', "database_url names an unknown database 'nonsense'"),
    ("database_url = 5", "database_url must be a string, not a number"),
    ('lang = "de"', "lang: unsupported language 'de'"),
    ("lang = [1]", "lang must be a string, not a list"),
    ('colour = "red"', "unknown setting(s) colour"),
]


@pytest.mark.parametrize(("line", "words"), BAD_VALUES)
def test_a_bad_value_names_the_file_and_the_key(tmp_path: Path, line: str, words: str) -> None:
    (tmp_path / "kb.toml").write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(tmp_path, environ={})
    assert str(caught.value).startswith(f"{tmp_path / 'kb.toml'}: ")
    assert words in str(caught.value)


def test_pyproject_table_and_environment_are_checked_too(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.kb]\ncorpus = 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"pyproject.toml \[tool.kb\]: corpus must be"):
        load_settings(tmp_path, environ={})
    (tmp_path / "pyproject.toml").write_text("[tool.kb]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="KB_DATABASE_URL: database_url is not a database URL"):
        load_settings(tmp_path, environ={"KB_DATABASE_URL": "::"})
    with pytest.raises(ConfigError, match="KB_LANG: lang: unsupported language 'xx'"):
        load_settings(tmp_path, environ={"KB_LANG": "xx"})


def test_good_values_are_read(tmp_path: Path) -> None:
    (tmp_path / "kb.toml").write_text(
        'home = "data"\ncorpus = "pages"\nlang = "FR"\ndatabase_url = "sqlite:///x.sqlite"\n',
        encoding="utf-8",
    )
    settings = load_settings(tmp_path, environ={"KB_HOME": "/srv/kb"})
    assert settings.home == Path("/srv/kb")
    assert settings.corpus == (tmp_path.resolve() / "pages",)
    assert settings.lang == "fr" and settings.database_url == "sqlite:///x.sqlite"


def test_cli_gives_one_line_for_a_bad_config(tmp_path: Path, monkeypatch) -> None:
    from kb.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "kb.toml").write_text("home = {a=1}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["stats"])
    assert result.exit_code == 1
    assert result.output.startswith("kb: error: ") and result.output.count("\n") == 1
    assert "home must be a string" in result.output
    (tmp_path / "kb.toml").unlink()
    result = CliRunner().invoke(main, ["--database", "nonsense://x/y", "stats"])
    assert result.exit_code == 2 and "--database: database_url names an unknown" in result.output


@pytest.mark.parametrize(
    "args", [["stats"], ["rule", "100.1"], ["export", "json"], ["db", "current"]]
)
def test_a_reader_never_creates_the_database(tmp_path: Path, monkeypatch, args) -> None:
    from kb.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KB_DATABASE_URL", raising=False)
    target = tmp_path / "elsewhere" / "x.sqlite"
    (tmp_path / "kb.toml").write_text(f'database_url = "sqlite:///{target}"\n', encoding="utf-8")
    result = CliRunner().invoke(main, args)
    assert "Traceback" not in result.output
    if args != ["db", "current"]:
        assert result.exit_code == 1 and "the knowledge base is empty" in result.output
    assert not target.exists() and not target.parent.exists()


def test_urls_taken_without_sqlalchemy_are_ones_sqlalchemy_takes() -> None:
    from sqlalchemy.engine import make_url

    from kb.config import KNOWN_DRIVERS, known_database_url

    for dialect, drivers in KNOWN_DRIVERS.items():
        for driver in drivers:
            name = f"{dialect}+{driver}" if driver else dialect
            for url in (f"{name}://kb:pw@127.0.0.1:5432/kb", f"{name}:///x.sqlite", f"{name}://"):
                assert known_database_url(url), url
                make_url(url).get_dialect()  # raises if SQLAlchemy does not take it
    for url in ("nonsense://x", "postgresql+nodriver://h/db", "postgresql://h:port/db", "::"):
        assert not known_database_url(url)  # left to SQLAlchemy's own check


def test_a_database_url_is_checked_without_importing_sqlalchemy(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from pathlib import Path\nfrom kb.config import load_settings\n"
        f"s = load_settings(Path({str(tmp_path)!r}), environ={{'KB_DATABASE_URL':"
        " 'postgresql+psycopg://kb:kb@127.0.0.1:5432/kb'})\n"
        "print(s.database_url, 'sqlalchemy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=os.environ
    ).stdout
    assert out.split() == ["postgresql+psycopg://kb:kb@127.0.0.1:5432/kb", "False"]

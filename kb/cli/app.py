"""The ``kb`` click group, its global options and the helpers every command module shares."""

from __future__ import annotations

import errno
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kb.config import Settings, load_settings
from kb.errors import KbError, KbUsageError

F = TypeVar("F", bound=Callable[..., Any])


def settings_of(ctx: click.Context) -> Settings:
    settings = ctx.obj
    assert isinstance(settings, Settings)
    return settings


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def lang_option(default: str | None = None) -> Callable[[F], F]:
    def callback(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
        if value is None:
            return None
        from kb.langs import check_lang

        try:
            return check_lang(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None

    return click.option(
        "--lang",
        default=default,
        callback=callback,
        help="Language: en, fr or es.",
    )


# What a write to a full or closed standard output fails with.
_OUTPUT_ERRORS = (errno.ENOSPC, errno.EPIPE, errno.EFBIG, errno.EIO, errno.EDQUOT)


# Each command's module, imported when the command runs (or help lists it): a `kb search` loads
# the search commands only, not the ingest, export, site and update stages' modules.
COMMAND_MODULES = {
    "backlinks": "links",
    "build": "site",
    "card": "corpus",
    "changes": "update",
    "check": "links",
    "db": "corpus",
    "diff": "links",
    "export": "export",
    "i18n": "site",
    "import": "export",
    "index": "search",
    "ingest": "corpus",
    "link": "links",
    "rule": "corpus",
    "search": "search",
    "serve": "search",
    "stale": "links",
    "stats": "corpus",
    "terms": "terms",
    "trace": "links",
    "update": "update",
}


class KbGroup(click.Group):
    """The kb group: commands imported on first use; every expected failure, and a failed write
    to standard output (any command, --help), is one line.

    Exit codes: 0 success, 1 an error (``KbError``: a missing database, an unreadable file, a
    failed ingest, a check that found problems), 2 a usage error only (click's own, or a
    ``KbUsageError``: a malformed query, a bad date value).
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KbError as exc:
            click.echo(f"kb: error: {exc}", err=True)
            ctx.exit(2 if isinstance(exc, KbUsageError) else 1)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is not None and cmd_name not in self.commands:
            import importlib

            importlib.import_module(f"kb.cli.{module}")
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(COMMAND_MODULES))

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:
            if exc.errno not in _OUTPUT_ERRORS or exc.filename is not None:
                raise
            from kb.export import silence_stdout

            silence_stdout()
            click.echo(f"kb: error: cannot write to standard output: {exc.strerror}", err=True)
            sys.exit(1)


@click.group(cls=KbGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=Path),
    help="Data folder (database, index, site). Default: $KB_HOME or ./_kb.",
)
@click.option(
    "--database",
    "database_url",
    help="SQLAlchemy URL. Default: $KB_DATABASE_URL or SQLite in the data folder.",
)
@click.option("-v", "--verbose", count=True, help="Say more (repeat for debug output).")
@click.version_option(package_name="kb")
@click.pass_context
def main(ctx: click.Context, home: Path | None, database_url: str | None, verbose: int) -> None:
    """A multilingual knowledge base of the Magic: The Gathering rules and rulings.

    \b
    Example:
        kb ingest corpus/ ../shared/corpus
        kb rule 701.54 --lang es
    """
    logging.basicConfig(
        level=logging.WARNING - 10 * min(verbose, 2),
        format="kb: %(levelname)s: %(message)s",
    )
    ctx.obj = load_settings().with_options(home=home, database_url=database_url)


def open_existing(settings: Settings) -> Any:
    """Open the database to read it (never created or migrated; no ingest stage imported)."""
    from kb.db import open_database

    db = open_database(settings.database, create=False)
    click.get_current_context().call_on_close(db.dispose)
    return db


def shorten(path: str) -> str:
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


EDITION_HELP = "Effective date of the edition (YYYY-MM-DD). Default: the newest."


def json_option(help: str = "Print as JSON.") -> Callable[[F], F]:
    """``--json``: every command that prints can print JSON instead (one flag, one spelling)."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def edition_option(help: str = EDITION_HELP) -> Callable[[F], F]:
    """``--edition YYYY-MM-DD``: which English edition a command reads (the newest by default)."""
    return click.option("--edition", help=help)


def out_option(help: str, *, folder: bool = False) -> Callable[[F], F]:
    """``--out PATH``: the file (with ``folder``, the folder) to write instead of stdout."""
    kind = click.Path(file_okay=not folder, dir_okay=folder, path_type=Path)
    return click.option("--out", type=kind, help=help)


def read_view(ctx: click.Context, query: Callable[[Any], Any]) -> Any:
    """Run a read-only view on the knowledge base (never creating it) in one session."""
    db = open_existing(settings_of(ctx))
    with db.session() as session:
        return query(session)


def show(
    ctx: click.Context,
    query: Callable[[Any], Any],
    printer: Callable[[Any, Any], None],
    as_json: bool,
) -> Any:
    """Run a read-only view on the knowledge base and print it as JSON or for a terminal."""
    view = read_view(ctx, query)
    if as_json:
        print_json(view)
    else:
        printer(console(), view)
    return view

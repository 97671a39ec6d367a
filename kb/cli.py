"""The ``kb`` command: one click group; each command parses options and calls one library function.

Stages are imported inside the commands so that ``kb --help`` stays fast. Expected failures
(``KbError``) become a one-line message and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from kb.config import Settings, load_settings
from kb.errors import KbError

F = TypeVar("F", bound=Callable[..., Any])


def _handle_errors(func: F) -> F:
    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KbError as exc:
            click.echo(f"kb: error: {exc}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def _settings(ctx: click.Context) -> Settings:
    settings = ctx.obj
    assert isinstance(settings, Settings)
    return settings


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def _lang_option(default: str | None = None) -> Callable[[F], F]:
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
@_handle_errors
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


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--strict", is_flag=True, help="Exit non-zero if any document fails to load.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--no-wait", is_flag=True, help="Refuse, instead of waiting, if another ingest is running."
)
@click.pass_context
@_handle_errors
def ingest(
    ctx: click.Context, paths: tuple[Path, ...], strict: bool, as_json: bool, no_wait: bool
) -> None:
    """Load corpus files or folders into the knowledge base (default: the bundled corpus/).

    Unchanged files are skipped (by sha256); each document loads in its own transaction, and
    one that fails is reported as path:line: reason while the others still load.

    \b
    Example:
        kb ingest corpus/ ../shared/corpus
        kb ingest --strict ../shared/corpus/cr/en/MagicCompRules_20260116.txt
    """
    from kb import pipeline
    from kb.reports import ingest_summary, progress_bar

    settings = _settings(ctx)
    with progress_bar(enabled=not as_json) as progress:
        report = pipeline.ingest(settings, list(paths) or None, progress=progress, wait=not no_wait)
    summary = ingest_summary(settings, report)
    for failure in report.failed:
        click.echo(f"{_shorten(failure.path)}:{failure.line}: {failure.reason}", err=True)
    if as_json:
        _print_json(summary)
    else:
        from kb.reports import print_ingest_summary

        print_ingest_summary(_console(), summary)
    if strict and report.failed:
        sys.exit(1)


def _shorten(path: str) -> str:
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


@main.command()
@click.argument("number")
@_lang_option()
@click.option("--edition", help="Effective date of the edition (YYYY-MM-DD). Default: the newest.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
@_handle_errors
def rule(
    ctx: click.Context, number: str, lang: str | None, edition: str | None, as_json: bool
) -> None:
    """Print a rule with its subrules and examples, its translation beside the English.

    \b
    Example:
        kb rule 701.54 --lang es
        kb rule 704.5k --edition 2025-11-14 --json
    """
    from kb.lookup import rule_view
    from kb.reports import print_rule

    settings = _settings(ctx)
    db = _open_existing(settings)
    with db.session() as session:
        view = rule_view(session, number, lang or settings.lang, edition)
    if as_json:
        _print_json(view)
    else:
        print_rule(_console(), view)


@main.command()
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
@_handle_errors
def card(ctx: click.Context, query: str, as_json: bool) -> None:
    """Print a card's names, attributes and rulings (by name in any language, oracle id or page id).

    \b
    Example:
        kb card "The Trickster-God's Heist"
        kb card "Le vol du dieu-décepteur" --json
        kb card 003_c5873bb13b9e08b7
    """
    from kb.lookup import card_view
    from kb.reports import print_card

    db = _open_existing(_settings(ctx))
    with db.session() as session:
        view = card_view(session, query)
    if as_json:
        _print_json(view)
    else:
        print_card(_console(), view)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
@_handle_errors
def stats(ctx: click.Context, as_json: bool) -> None:
    """Print counts per edition and language, and translation coverage.

    \b
    Example:
        kb stats
        kb stats --json
    """
    from kb.lookup import stats_view
    from kb.reports import print_stats

    db = _open_existing(_settings(ctx))
    with db.session() as session:
        view = stats_view(session)
    if as_json:
        _print_json(view)
    else:
        print_stats(_console(), view)


@main.group()
def db() -> None:
    """Create, upgrade and inspect the database schema (Alembic migrations shipped with kb).

    \b
    Example:
        kb db upgrade
        kb --database postgresql+psycopg://kb@localhost/kb db current
    """


@db.command("upgrade")
@click.option("--sql", is_flag=True, help="Print the SQL instead of running it (for a DBA).")
@click.pass_context
@_handle_errors
def db_upgrade(ctx: click.Context, sql: bool) -> None:
    """Create the schema, or upgrade an existing database in place; nothing is ever dropped.

    Writing commands (kb ingest, kb build) upgrade on their own; run this to upgrade ahead of
    time, or with --sql to review the statements first.

    \b
    Example:
        kb db upgrade
        kb db upgrade --sql > upgrade.sql
    """
    from kb import pipeline

    settings = _settings(ctx)
    if sql:
        from kb.db import upgrade_sql

        state = pipeline.database_state(settings)
        since = None if state.status in ("empty", "legacy") else state.current
        click.echo(upgrade_sql(settings.database, since), nl=False)
        return
    before, after = pipeline.upgrade_database(settings)
    if before == after:
        click.echo(f"the database is up to date (schema revision {after})")
    else:
        click.echo(f"upgraded the database schema from {before or 'nothing'} to {after}")


@db.command("current")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
@_handle_errors
def db_current(ctx: click.Context, as_json: bool) -> None:
    """Print the database's schema revision and whether it needs `kb db upgrade`.

    \b
    Example:
        kb db current
        kb db current --json
    """
    from kb import pipeline

    state = pipeline.database_state(_settings(ctx))
    view = {"current": state.current, "head": state.head, "status": state.status}
    if as_json:
        _print_json(view)
        return
    advice = {
        "empty": "no schema yet: `kb db upgrade` or `kb ingest` creates it",
        "legacy": "made before kb had migrations: `kb db upgrade` adopts it",
        "behind": "`kb db upgrade` brings it forward",
        "current": "up to date",
        "ahead": "made by a newer kb: upgrade kb",
    }[state.status]
    click.echo(f"schema revision {state.current or 'none'} (newest {state.head}): {advice}")


@main.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder. Default: the data folder's site/ (./_kb/site).",
)
@click.option("--strict", is_flag=True, help="Fail (and keep the previous site) on a broken link.")
@click.option("--no-search", is_flag=True, help="Skip the Pagefind full-text index.")
@click.option(
    "--force", is_flag=True, help="Render every page even if no input changed (still writes "
    "only the pages whose bytes differ)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
@_handle_errors
def build(
    ctx: click.Context,
    out: Path | None,
    strict: bool,
    no_search: bool,
    force: bool,
    as_json: bool,
) -> None:
    """Build the static website: ingest the corpus if it changed, link, index, render.

    The site (English, French, Spanish) works from the folder itself, with no server; serve it
    over HTTP (python3 -m http.server -d _kb/site) for Pagefind's full-text search. A re-run with
    nothing changed rewrites nothing; a failed build leaves the previous site untouched.

    \b
    Example:
        kb build
        kb --home /tmp/kb build --out /tmp/site --strict
    """
    from kb import pipeline
    from kb.reports import progress_bar

    settings = _settings(ctx)
    with progress_bar(enabled=not as_json) as progress:
        outcome = pipeline.build(
            settings, out, strict=strict, search=not no_search, force=force, progress=progress
        )
    for failure in outcome.ingest.failed:
        click.echo(f"{_shorten(failure.path)}:{failure.line}: {failure.reason}", err=True)
    site = outcome.site
    if as_json:
        _print_json({"ingest": {"loaded": len(outcome.ingest.loaded),
                                "unchanged": len(outcome.ingest.unchanged),
                                "failed": len(outcome.ingest.failed)},
                     "refreshed": outcome.stages, "site": site.as_dict()})
        return
    click.echo(
        f"ingest: {len(outcome.ingest.loaded)} loaded, {len(outcome.ingest.unchanged)} unchanged,"
        f" {len(outcome.ingest.failed)} failed"
        + (f"; refreshed {', '.join(outcome.stages)}" if outcome.stages else "")
    )
    if site.up_to_date:
        click.echo(f"site: up to date in {_shorten(str(site.out))} ({site.pages} pages)")
    else:
        click.echo(
            f"site: {site.pages} pages in {_shorten(str(site.out))}: {site.written} files written,"
            f" {site.unchanged} unchanged, {site.removed} removed"
            f" ({site.seconds_total:.1f} s, Pagefind {site.seconds_pagefind:.1f} s)"
        )
    if not site.edition:
        click.echo("note: no English Comprehensive Rules edition is loaded; "
                   "only translated rules and card rulings are in the site")
    if site.unresolved_references:
        click.echo(
            f"note: {site.unresolved_references} rule reference(s) name no rule of the edition "
            "and are shown as text (`kb check` lists them)"
        )
    if site.broken:
        click.echo(f"warning: {len(site.broken)} broken link(s), e.g. {site.broken[0]}", err=True)
    click.echo(f"open {_shorten(str(site.out / 'index.html'))}")


@main.group()
def i18n() -> None:
    """Maintain the site's interface translations (Babel catalogs in kb/locales).

    \b
    Example:
        kb i18n extract && kb i18n update
        kb i18n compile
    """


@i18n.command("extract")
@_handle_errors
def i18n_extract() -> None:
    """Collect the marked UI strings of the templates and site code into messages.pot.

    \b
    Example:
        kb i18n extract
    """
    from kb.site import i18n as catalogs

    click.echo(f"wrote {_shorten(str(catalogs.extract()))}")


@i18n.command("update")
@_handle_errors
def i18n_update() -> None:
    """Merge messages.pot into each language's .po file (new strings come in untranslated).

    \b
    Example:
        kb i18n update
    """
    from kb.site import i18n as catalogs

    for path in catalogs.update():
        status = catalogs.status(path.parent.parent.name)
        click.echo(f"{_shorten(str(path))}: {len(status.untranslated)} untranslated")


@i18n.command("compile")
@_handle_errors
def i18n_compile() -> None:
    """Compile each .po file into the .mo file the site loads (kb build also compiles in memory).

    \b
    Example:
        kb i18n compile
    """
    from kb.site import i18n as catalogs

    for path in catalogs.compile_catalogs():
        click.echo(f"wrote {_shorten(str(path))}")


@i18n.command("check")
@_handle_errors
def i18n_check() -> None:
    """Fail if any UI string is untranslated or fuzzy in any language.

    \b
    Example:
        kb i18n check
    """
    from kb.langs import LANGS
    from kb.site import i18n as catalogs

    bad = False
    for lang in LANGS:
        status = catalogs.status(lang)
        for label in status.untranslated:
            click.echo(f"{_shorten(str(status.path))}: untranslated: {label!r}", err=True)
        for label in status.fuzzy:
            click.echo(f"{_shorten(str(status.path))}: fuzzy: {label!r}", err=True)
        bad = bad or bool(status.untranslated or status.fuzzy)
        click.echo(f"{lang}: {status.total - len(status.untranslated)}/{status.total} translated")
    if bad:
        sys.exit(1)


@main.group("export")
def export_group() -> None:
    """Export rule sheets (HTML, PDF, Markdown), translator catalogs (PO) and data dumps.

    \b
    Example:
        kb export sheet 701.54 702.2 714 --lang fr,en,es --format pdf --out ring.pdf
        kb export po --lang fr --only missing --out fr-missing.po
        kb export json --out kb.json
    """


def _langs_option(default: str | None = None) -> Callable[[F], F]:
    return click.option(
        "--lang",
        "langs",
        default=default,
        help="Languages side by side, comma-separated; the first one also gives the sheet's "
        "labels. Default: the configured language, then English.",
    )


def _write_stdout(data: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _emit(data: bytes, out: Path | None, what: str) -> None:
    """Write an export to --out (atomically) or to standard output."""
    from kb.export.commands import write_file

    if out is None:
        _write_stdout(data)
        return
    write_file(out, data)
    click.echo(f"wrote {what} to {_shorten(str(out))}", err=True)


@export_group.command("sheet")
@click.argument("items", nargs=-1, required=True)
@_langs_option()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "pdf", "md"]),
    help="Output format. Default: from the --out suffix, else html.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Output file. Default: standard output.",
)
@click.option(
    "--cards",
    multiple=True,
    help="Add these cards' rulings (repeat the option, or separate names with ';').",
)
@click.option("--edition", help="Effective date of the English edition. Default: the newest.")
@click.option(
    "--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
    help="PDF paper size.",
)
@click.option("--landscape", is_flag=True, help="PDF in landscape (roomier for 3+ languages).")
@click.pass_context
@_handle_errors
def export_sheet(
    ctx: click.Context,
    items: tuple[str, ...],
    langs: str | None,
    fmt: str | None,
    out: Path | None,
    cards: tuple[str, ...],
    edition: str | None,
    paper: str,
    landscape: bool,
) -> None:
    """Print-ready sheet of rules in several languages side by side, with their clarifications.

    ITEMS are rule numbers (701.54: the rule and all its subrules; 704.5k: one subrule),
    chapters (714), parts (7) and ranges (701.38-701.40, 701.38-40, 601.2f-h). Each translated
    text is badged official, machine, community or stale; a missing translation shows the
    English, badged missing. The sheet ends with the clarifications linked to those rules and
    a footer naming the edition, its effective date and source.

    \b
    Example:
        kb export sheet 701.54 702.2 714 --lang fr,en,es --format pdf --out ring.pdf
        kb export sheet 701.38-701.40 --lang es,en --cards "Galadriel, Elven-Queen" --out vote.html
        kb export sheet 702.2 --lang en,fr --format md > deathtouch.md
    """
    from kb.export.commands import export_sheet as build
    from kb.export.commands import sheet_format

    settings = _settings(ctx)
    fmt = sheet_format(fmt, out)
    if fmt == "pdf" and out is None and sys.stdout.isatty():
        raise click.UsageError("a PDF needs --out FILE (or redirect standard output)")
    result = build(
        settings,
        items,
        langs or settings.lang,
        fmt=fmt,
        cards=cards,
        edition=edition,
        paper=paper,
        landscape=landscape,
    )
    _emit(
        result.data,
        out,
        f"{result.rules} rules and {result.clarifications} rulings in "
        f"{', '.join(result.languages)} ({result.format})",
    )


@export_group.command("po")
@click.argument("items", nargs=-1)
@_lang_option()
@click.option(
    "--only",
    type=click.Choice(["missing", "stale", "current", "all"]),
    multiple=True,
    help="Which rules to include (repeatable). Default: all.",
)
@click.option("--edition", help="Effective date of the English edition. Default: the newest.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Output .po file. Default: standard output.",
)
@click.pass_context
@_handle_errors
def export_po(
    ctx: click.Context,
    items: tuple[str, ...],
    lang: str | None,
    only: tuple[str, ...],
    edition: str | None,
    out: Path | None,
) -> None:
    """Gettext catalog (PO) of the rules for translators, stale ones fuzzy with the change.

    msgctxt is the rule number, msgid the English, msgstr today's translation. Optional ITEMS
    restrict it to rules, chapters or ranges (as for `kb export sheet`). Open the file in
    Poedit, Lokalize, Weblate…, then bring it back with `kb import po`.

    \b
    Example:
        kb export po --lang fr --only missing --only stale --out fr.po
        kb export po 701.54 702 --lang es --out es-keywords.po
    """
    from kb.export.commands import export_po as build

    settings = _settings(ctx)
    language = lang or settings.lang
    if language == "en":
        raise click.UsageError("--lang: choose the language to translate into (fr or es)")
    result = build(settings, language, only=only, items=items, edition=edition)
    counts = result.counts
    _emit(
        result.data,
        out,
        f"{counts['messages']} messages ({counts['missing']} missing, {counts['stale']} stale, "
        f"{counts['current']} current rules) in {result.language}, English of {result.edition}",
    )


@export_group.command("json")
@click.option("--edition", help="Only this English edition (YYYY-MM-DD) and the translations.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Output file. Default: standard output.",
)
@click.pass_context
@_handle_errors
def export_json(ctx: click.Context, edition: str | None, out: Path | None) -> None:
    """The whole knowledge base as one JSON document (shape: README, kb/schemas/).

    \b
    Example:
        kb export json --out kb.json
        kb export json --edition 2026-01-16 | jq '.editions[0].rules | length'
    """
    from kb.export.commands import export_json as build

    _emit(build(_settings(ctx), edition), out, "the JSON dump")


@export_group.command("csv")
@click.option(
    "--table",
    "tables",
    multiple=True,
    help="Only this table (repeatable): editions, rules, examples, glossary, cards, card_names, "
    "printings, clarifications, card_clarifications, links.",
)
@click.option("--edition", help="Only this English edition (YYYY-MM-DD) and the translations.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder (one <table>.csv each). Without it, one --table goes to standard output.",
)
@click.pass_context
@_handle_errors
def export_csv(
    ctx: click.Context, tables: tuple[str, ...], edition: str | None, out: Path | None
) -> None:
    """The knowledge base as CSV tables (UTF-8, header line; shapes in the README).

    \b
    Example:
        kb export csv --out dump/
        kb export csv --table rules --edition 2026-01-16 > rules.csv
    """
    from kb.export.commands import export_csv as build

    counts, data = build(_settings(ctx), out, tables, edition)
    if data is not None:
        _write_stdout(data)
        return
    assert out is not None
    listed = ", ".join(f"{name} {count}" for name, count in counts.items())
    click.echo(f"wrote {len(counts)} tables to {_shorten(str(out))}: {listed}", err=True)


@main.group("import")
def import_group() -> None:
    """Bring work back into the knowledge base (translators' PO catalogs).

    \b
    Example:
        kb import po fr.po
    """


@import_group.command("po")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@_lang_option()
@click.option(
    "--skip-untranslated",
    is_flag=True,
    help="Leave out rules with an empty or fuzzy entry instead of refusing the catalog.",
)
@click.option("--dry-run", is_flag=True, help="Check the catalog and report; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
@_handle_errors
def import_po(
    ctx: click.Context,
    path: Path,
    lang: str | None,
    skip_untranslated: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Import a translated PO catalog as community translations, all or nothing.

    Each translation is tied to the English edition whose text its msgid is, so it shows as
    stale once the English changes. Problems (syntax, unknown rule numbers, a msgid that is not
    the English of its rule, empty or fuzzy msgstr) are listed as FILE:LINE: reason and nothing
    is imported. The language comes from the catalog's Language header (or --lang).

    \b
    Example:
        kb import po fr.po
        kb import po es-keywords.po --dry-run
        kb import po fr.po --skip-untranslated
    """
    from kb import pipeline

    report = pipeline.import_translations(
        _settings(ctx), path, language=lang, skip_untranslated=skip_untranslated, dry_run=dry_run
    )
    if as_json:
        _print_json(report.as_dict())
        return
    for problem in report.skipped:
        click.echo(f"{_shorten(report.path)}:{problem.line}: skipped: {problem.reason}", err=True)
    verb = "would import" if dry_run else "imported"
    follows = ", ".join(f"{n} following the English of {d}" for d, n in report.follows.items())
    click.echo(
        f"{verb} {len(report.imported)} new and {len(report.updated)} updated {report.language} "
        f"community translations ({len(report.unchanged)} unchanged, {len(report.skipped)} "
        f"skipped)" + (f": {follows}" if follows else "")
    )


@main.command("index")
@click.option("--rebuild", is_flag=True, help="Build the whole index afresh.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--no-wait", is_flag=True, help="Refuse, instead of waiting, if another kb process writes."
)
@click.pass_context
@_handle_errors
def index_command(ctx: click.Context, rebuild: bool, as_json: bool, no_wait: bool) -> None:
    """Build the full-text search index, or rewrite only what changed in the database.

    `kb ingest` and `kb import po` keep an existing index in step by themselves: run this once
    to create it (an index made by another version of kb is rebuilt); --rebuild starts afresh.

    \b
    Example:
        kb index
        kb index --rebuild --json
    """
    from kb import pipeline

    settings = _settings(ctx)
    report = pipeline.index(settings, rebuild=rebuild, wait=not no_wait)
    if as_json:
        _print_json(report.as_dict())
    elif report.full:
        click.echo(
            f"indexed {report.items} items in {report.seconds:.1f} s "
            f"({_shorten(str(settings.index_dir))})"
        )
    elif report.written or report.removed:
        click.echo(
            f"index updated: {report.written} items rewritten, {report.removed} removed "
            f"({report.items} items, {report.seconds:.1f} s)"
        )
    else:
        click.echo(f"index up to date ({report.items} items)")


@main.command()
@click.argument("query", nargs=-1, required=True)
@_lang_option()
@click.option(
    "--type",
    "types",
    help="Only these kinds of results, comma-separated: rule, example, glossary, ruling, card.",
)
@click.option(
    "--limit", default=10, show_default=True, type=click.IntRange(1, 100), help="Results shown."
)
@click.option("--fuzzy", is_flag=True, help="Also match words one typo away.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.pass_context
@_handle_errors
def search(
    ctx: click.Context,
    query: tuple[str, ...],
    lang: str | None,
    types: str | None,
    limit: int,
    fuzzy: bool,
    as_json: bool,
) -> None:
    """Search rules, examples, glossary, rulings and cards; exit 1 when nothing is found.

    Words are searched in --lang (default: the configured language) and, for French and
    Spanish, in the English originals too. A rule number (701.54, 701.54a-c) jumps to the rule.
    Syntax: "exact phrase", AND, OR, NOT, -word, and filters type:ruling lang:fr set:KHM
    card:"Name" date:2023 source:wotc edition:2025-11-14 (edition:all for every edition).

    \b
    Example:
        kb search ring tempts you
        kb search "voto empate" --lang es
        kb search type:ruling set:KHM date:2021 saga --json
        kb search 701.54a-c
    """
    from kb.search import search as run_search

    settings = _settings(ctx)
    response = run_search(
        settings.index_dir,
        " ".join(query),
        lang=lang,
        types=types,
        limit=limit,
        fuzzy=fuzzy,
        default_lang=settings.lang,
    )
    if as_json:
        _print_json(response)
    else:
        from kb.search.terminal import renderables

        console = _console()
        for renderable in renderables(response):
            console.print(renderable)
    if not response["results"]:
        sys.exit(1)


@main.command()
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0: any free port).",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--site",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of the built site. Default: the data folder's site/ (what `kb build` writes).",
)
@click.pass_context
@_handle_errors
def serve(ctx: click.Context, port: int, host: str, site: Path | None) -> None:
    """Serve the built site and the search API (GET /api/search?q=&lang=&type=&limit=).

    The API answers JSON from the Whoosh index; a bad parameter gets a 400 with a message.
    Until `kb build` has written the site, / says so and the API still answers.

    \b
    Example:
        kb serve
        kb serve --port 8080 --host 0.0.0.0
        curl 'http://127.0.0.1:8000/api/search?q=voto+empate&lang=es'
    """
    from kb.serve import serve as run_server

    settings = _settings(ctx)

    def ready(url: str) -> None:
        click.echo(f"serving {url} (site: {_shorten(str(site or settings.site_dir))}, "
                   f"API: {url}api/search?q=…) — Ctrl-C to stop")

    run_server(settings, host=host, port=port, site_dir=site, on_ready=ready)


# --- links, editions, history, translation drift ---------------------------------------------

_EDITION_HELP = "Effective date of the edition (YYYY-MM-DD). Default: the newest."


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.option(
    "--no-wait", is_flag=True, help="Refuse, instead of waiting, if another writer is running."
)
@click.pass_context
@_handle_errors
def link(ctx: click.Context, as_json: bool, no_wait: bool) -> None:
    """Rebuild the links: rule references, rulings tied to rules by term, rule-page siblings.

    `kb ingest` relinks on its own whenever the corpus changed; run this after changing
    kb's code or to see the counts.

    \b
    Example:
        kb link
        kb link --json
    """
    from kb import pipeline
    from kb.link_reports import print_link_counts

    counts = pipeline.link(_settings(ctx), wait=not no_wait)
    if as_json:
        _print_json(counts)
    else:
        print_link_counts(_console(), counts)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.pass_context
@_handle_errors
def check(ctx: click.Context, as_json: bool) -> None:
    """List references to rules that do not exist (where each occurs) and misfit translations.

    Exits with status 1 when it finds anything, so it can gate a script or CI job.

    \b
    Example:
        kb check
        kb check --json
    """
    from kb.link_reports import print_check
    from kb.links import check as run_check

    db = _open_existing(_settings(ctx))
    with db.session() as session:
        report = run_check(session)
    if as_json:
        _print_json(report)
    else:
        print_check(_console(), report)
    if not report["ok"]:
        sys.exit(1)


@main.command()
@click.argument("number")
@click.option("--edition", help=_EDITION_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
@_handle_errors
def backlinks(ctx: click.Context, number: str, edition: str | None, as_json: bool) -> None:
    """List what cites a rule or its subrules: rules, examples, glossary terms and rulings.

    \b
    Example:
        kb backlinks 701.54
        kb backlinks 701.32 --edition 2021-02-05 --json
    """
    from kb.link_reports import print_backlinks
    from kb.links import backlinks as find_backlinks

    db = _open_existing(_settings(ctx))
    with db.session() as session:
        items = find_backlinks(session, number, edition)
    if as_json:
        _print_json(items)
    else:
        print_backlinks(_console(), number, items)


@main.command()
@click.argument("old")
@click.argument("new")
@click.option("--all", "show_all", is_flag=True, help="List every item, not the first 40 of each.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON (word diffs as op lists).")
@click.pass_context
@_handle_errors
def diff(ctx: click.Context, old: str, new: str, show_all: bool, as_json: bool) -> None:
    """Compare two editions: added, removed, changed and renumbered rules, glossary terms.

    Rules are matched by content, not only by number (numbers are reused), and changed text is
    shown word by word; a change that only follows a renumbered reference is marked as such.

    \b
    Example:
        kb diff 2025-11-14 2026-01-16
        kb diff 2021-02-05 2026-01-16 --json > changes.json
    """
    from kb.link_reports import print_diff
    from kb.versions import diff_editions

    db = _open_existing(_settings(ctx))
    with db.session() as session:
        result = diff_editions(session, old, new)
    if as_json:
        _print_json(result)
    else:
        print_diff(_console(), result, limit=None if show_all else 40)


@main.command()
@click.argument("number")
@click.option(
    "--edition", help="The edition NUMBER is read in (YYYY-MM-DD). Default: the newest."
)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
@_handle_errors
def trace(ctx: click.Context, number: str, edition: str | None, as_json: bool) -> None:
    """Show a rule's text in every loaded edition, following it across renumbering.

    With --edition, NUMBER is read in that edition and resolved to today's number.

    \b
    Example:
        kb trace 701.54
        kb trace 701.32 --edition 2021-02-05
    """
    from kb.link_reports import print_trace
    from kb.versions import trace as trace_rule

    db = _open_existing(_settings(ctx))
    with db.session() as session:
        view = trace_rule(session, number, edition)
    if as_json:
        _print_json(view)
    else:
        print_trace(_console(), view)


@main.command()
@_lang_option()
@click.option("--edition", help=_EDITION_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
@_handle_errors
def stale(ctx: click.Context, lang: str | None, edition: str | None, as_json: bool) -> None:
    """List the stale translations of a language, with the English change that made each stale.

    \b
    Example:
        kb stale --lang es
        kb stale --lang fr --json
    """
    from kb.link_reports import print_stale
    from kb.versions import stale_translations

    if lang is None or lang == "en":
        raise click.BadParameter("give a translated language: --lang fr or --lang es")
    db = _open_existing(_settings(ctx))
    with db.session() as session:
        items = stale_translations(session, lang, edition)
    if as_json:
        _print_json(items)
    else:
        print_stale(_console(), lang, items)


def _open_existing(settings: Settings) -> Any:
    from kb.pipeline import open_db

    db = open_db(settings, create=False)
    click.get_current_context().call_on_close(db.dispose)
    return db

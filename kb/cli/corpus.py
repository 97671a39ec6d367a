"""Commands over the corpus and the database: ingest, rule, card, stats, db."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from kb.cli.app import (
    console,
    edition_option,
    json_option,
    lang_option,
    main,
    print_json,
    read_view,
    settings_of,
    shorten,
    show,
)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--strict", is_flag=True, help="Exit non-zero if any document fails to load.")
@json_option("Print the report as JSON.")
@click.option(
    "--no-wait", is_flag=True, help="Refuse, instead of waiting, if another ingest is running."
)
@click.pass_context
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
    from kb.cli.reports import ingest_summary, progress_bar

    settings = settings_of(ctx)
    with progress_bar(enabled=not as_json) as progress:
        report = pipeline.ingest(settings, list(paths) or None, progress=progress, wait=not no_wait)
    summary = ingest_summary(settings, report)
    for failure in report.failed:
        click.echo(f"{shorten(failure.path)}:{failure.line}: {failure.reason}", err=True)
    if as_json:
        print_json(summary)
    else:
        from kb.cli.reports import print_ingest_summary

        print_ingest_summary(console(), summary)
    if strict and report.failed:
        sys.exit(1)


def quick(ctx: click.Context, printer: Any, as_json: bool, view: str, *args: Any) -> bool:
    """Answer a lookup on a SQLite knowledge base without the ORM (kb.lookup_sqlite): whether
    it did. Half a second of a lookup is importing SQLAlchemy's ORM; PostgreSQL takes kb.lookup."""
    from kb.lookup_sqlite import answer

    found = answer(settings_of(ctx).database, view, *args)
    if found is None:
        return False
    if as_json:
        print_json(found)
    else:
        printer(found)
    return True


def lookup(ctx: click.Context, query: Any, printer: Any, as_json: bool) -> None:
    """Run a lookup's view through the ORM (PostgreSQL, or what needs an alignment) and print it."""
    view = read_view(ctx, query)
    if as_json:
        print_json(view)
    else:
        printer(view)


@main.command()
@click.argument("number")
@lang_option()
@edition_option()
@json_option()
@click.pass_context
def rule(
    ctx: click.Context, number: str, lang: str | None, edition: str | None, as_json: bool
) -> None:
    """Print a rule with its subrules and examples, its translation beside the English.

    \b
    Example:
        kb rule 701.54 --lang es
        kb rule 704.5k --edition 2025-11-14 --json
    """
    from kb.cli.lookup_layout import print_rule_view

    language = lang or settings_of(ctx).lang
    if quick(ctx, print_rule_view, as_json, "rule", number, language, edition):
        return
    from kb.lookup import rule_view

    lookup(
        ctx, lambda session: rule_view(session, number, language, edition), print_rule_view, as_json
    )


@main.command()
@click.argument("query")
@json_option()
@click.pass_context
def card(ctx: click.Context, query: str, as_json: bool) -> None:
    """Print a card's names, attributes and rulings (by name in any language, oracle id or page id).

    \b
    Example:
        kb card "The Trickster-God's Heist"
        kb card "Le vol du dieu-décepteur" --json
        kb card 003_c5873bb13b9e08b7
    """
    from kb.cli.lookup_layout import print_card_view

    if quick(ctx, print_card_view, as_json, "card", query):
        return
    from kb.lookup import card_view

    lookup(ctx, lambda session: card_view(session, query), print_card_view, as_json)


@main.command()
@json_option()
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """Print counts per edition and language, and translation coverage.

    \b
    Example:
        kb stats
        kb stats --json
    """
    from kb.cli.reports import print_stats
    from kb.stats import stats_view

    show(ctx, stats_view, print_stats, as_json)


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

    settings = settings_of(ctx)
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
@json_option()
@click.pass_context
def db_current(ctx: click.Context, as_json: bool) -> None:
    """Print the database's schema revision and whether it needs `kb db upgrade`.

    \b
    Example:
        kb db current
        kb db current --json
    """
    from kb import pipeline

    state = pipeline.database_state(settings_of(ctx))
    view = {"current": state.current, "head": state.head, "status": state.status}
    if as_json:
        print_json(view)
        return
    advice = {
        "empty": "no schema yet: `kb db upgrade` or `kb ingest` creates it",
        "legacy": "made before kb had migrations: `kb db upgrade` adopts it",
        "behind": "`kb db upgrade` brings it forward",
        "current": "up to date",
        "ahead": "made by a newer kb: upgrade kb",
    }[state.status]
    click.echo(f"schema revision {state.current or 'none'} (newest {state.head}): {advice}")

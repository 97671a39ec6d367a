"""Commands of the update stage: update (fetch new rules or card data), changes (since a date)."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.markup import escape

from kb.cli.app import console, json_option, main, print_json, settings_of

SHOWN = 40


def _date(_ctx: click.Context, _param: click.Parameter, value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date: give YYYY-MM-DD") from None


@contextmanager
def _progress_bars(enabled: bool) -> Iterator[tuple[Any, Any]]:
    """Rich progress bars on a terminal (stderr) for the downloads and the ingest; none if piped."""
    if not enabled or not sys.stderr.isatty():
        yield None, None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TransferSpeedColumn,
    )

    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        tasks: dict[str, Any] = {}

        def download(name: str, done: int, total: int | None) -> None:
            if name not in tasks:
                tasks[name] = progress.add_task(name, total=total)
            progress.update(tasks[name], completed=done, total=total)

        def ingest(path: str, done: int, total: int) -> None:
            if "ingest" not in tasks:
                for task in tasks.values():
                    progress.remove_task(task)
                tasks["ingest"] = progress.add_task("ingest", total=total)
                progress.columns = (
                    TextColumn("[bold]ingest"),
                    BarColumn(),
                    TextColumn("{task.description}"),
                )
            progress.update(
                tasks["ingest"], completed=done, total=total, description=path.rsplit("/", 1)[-1]
            )

        yield download, ingest


@main.command()
@click.option("--dry-run", is_flag=True, help="Say what would be fetched; download nothing.")
@click.option(
    "--only",
    type=click.Choice(["rules", "cards"]),
    help="Check one source: rules (Wizards' rules page) or cards (MTGJSON).",
)
@click.option(
    "--since",
    callback=_date,
    help="Then list every loaded edition effective after DATE (YYYY-MM-DD) with its changes.",
)
@click.option("--all", "show_all", is_flag=True, help="List every item, not the first 40.")
@json_option("Print the report as JSON.")
@click.pass_context
def update(
    ctx: click.Context,
    dry_run: bool,
    only: str | None,
    since: dt.date | None,
    show_all: bool,
    as_json: bool,
) -> None:
    """Fetch a new Comprehensive Rules edition or MTGJSON card data, ingest it, say what changed.

    The newest rules text is found on the page at rules_page_url, the card data at mtgjson_url
    (verified by the .sha256 MTGJSON publishes beside it). Only what is new is downloaded, into
    the first corpus folder under its official name; a source that fails changes nothing.

    \b
    Example:
        kb update --dry-run
        kb update
        kb update --only rules --since 2025-09-01
    """
    from kb.update import SOURCES
    from kb.update import update as run_update

    settings = settings_of(ctx)
    with _progress_bars(enabled=not as_json) as (download_progress, ingest_progress):
        report = run_update(
            settings,
            only=(only,) if only else SOURCES,
            dry_run=dry_run,
            since=since,
            progress=download_progress,
            ingest_progress=ingest_progress,
        )
    if as_json:
        print_json(report.as_dict())
        return
    out = console()
    limit = None if show_all else SHOWN
    _print_checked(out, report.checked, dry_run)
    if report.rules is not None:
        _print_rules(out, report.rules, limit)
    if report.cards is not None:
        _print_cards(out, report.cards, limit)
    if report.since is not None:
        _print_since(out, report.since, since, limit)


@main.command()
@click.option(
    "--since",
    callback=_date,
    required=True,
    help="List the editions effective after this date (YYYY-MM-DD).",
)
@click.option("--all", "show_all", is_flag=True, help="List every rule number, not the first 40.")
@json_option()
@click.pass_context
def changes(ctx: click.Context, since: dt.date, show_all: bool, as_json: bool) -> None:
    """List every loaded edition since a date with its added, removed, renumbered, changed rules.

    For those who check once a season; reads the knowledge base only (no network).

    \b
    Example:
        kb changes --since 2025-09-01
        kb changes --since 2024-01-01 --json
    """
    from kb.update import changes_since

    found = changes_since(settings_of(ctx), since)
    if as_json:
        print_json(found)
        return
    _print_since(console(), found, since, None if show_all else SHOWN)


def _print_checked(out: Any, checked: list[dict[str, Any]], dry_run: bool) -> None:
    for item in checked:
        label = "rules" if item["source"] == "rules" else "cards"
        if item["status"] == "current":
            out.print(
                f"{label}: {escape(item['name'])} is up to date ({escape(item['path'])})",
                soft_wrap=True,
            )
        elif dry_run:
            out.print(
                f"{label}: would fetch {escape(item['url'])} into {escape(item['path'])} "
                f"({escape(item['reason'])})",
                soft_wrap=True,
            )
        else:
            out.print(
                f"{label}: fetched {escape(item['url'])} into {escape(item['path'])}",
                soft_wrap=True,
            )


def _listed(items: list[str], limit: int | None) -> str:
    shown = items if limit is None else items[:limit]
    more = f", … and {len(items) - len(shown)} more" if len(shown) < len(items) else ""
    return ", ".join(shown) + more


def _print_rules(out: Any, rules: dict[str, Any], limit: int | None) -> None:
    from kb.cli.link_reports import print_diff
    from kb.langs import language_name

    if rules["diff"] is None:
        out.print(f"edition {rules['edition']} loaded: no earlier edition to compare it with")
    else:
        print_diff(out, rules["diff"], limit=limit)
    for lang, stale in sorted(rules["stale"].items()):
        name = language_name(lang, "en")
        fresh = stale["newly_stale"]
        numbers = [
            item["number"]
            if item["translated_number"] == item["number"]
            else f"{item['translated_number']} (now {item['number']})"
            for item in fresh
        ]
        noun = "translation" if len(fresh) == 1 else "translations"
        line = f"{name}: {len(fresh)} {noun} made stale by {rules['edition']}"
        line += f" ({stale['stale']} stale in all; `kb stale --lang {lang}` shows the diffs)"
        out.print(
            line + (f": {escape(_listed(numbers, limit))}" if numbers else ""), soft_wrap=True
        )


def _print_cards(out: Any, cards: dict[str, Any], limit: int | None) -> None:
    s = cards["summary"]
    sets = f" ({escape(_listed(cards['new_sets'], limit))})" if cards["new_sets"] else ""
    out.print(
        f"[bold]card data[/bold]: {s['new_sets']} new sets{sets}, {s['new_rulings']} new "
        f"rulings, {s['changed_rulings']} changed rulings"
    )
    for key, title in (("new_rulings", "New rulings"), ("changed_rulings", "Changed rulings")):
        items = cards[key]
        if not items:
            continue
        out.print(f"[bold]{title}[/bold]")
        for item in items if limit is None else items[:limit]:
            text = item["text"] if len(item["text"]) <= 110 else item["text"][:109] + "…"
            out.print(f"  {escape(item['card'])} ({item['date']}): {escape(text)}")
        if limit is not None and len(items) > limit:
            out.print(f"  [dim]… and {len(items) - limit} more (--all or --json)[/dim]")


def _print_since(
    out: Any, found: list[dict[str, Any]], since: dt.date | None, limit: int | None
) -> None:
    if not found:
        out.print(f"no edition loaded is effective after {since}")
        return
    for entry in found:
        if entry["previous"] is None:
            out.print(f"[bold]{entry['edition']}[/bold]: the first edition loaded")
            continue
        s = entry["summary"]
        out.print(
            f"[bold]{entry['edition']}[/bold] (against {entry['previous']}): {s['added']} added, "
            f"{s['removed']} removed, {s['renumbered']} renumbered, {s['changed']} changed"
        )
        renumbered = [f"{old} → {new}" for old, new in entry["renumbered"]]
        for key, items in (
            ("added", entry["added"]),
            ("removed", entry["removed"]),
            ("renumbered", renumbered),
            ("changed", entry["changed"]),
        ):
            if items:
                out.print(f"  {key}: {escape(_listed(items, limit))}")

"""Commands of the link and version stages: link, check, backlinks, diff, trace, stale."""

from __future__ import annotations

import sys

import click

from kb.cli.app import (
    console,
    edition_option,
    json_option,
    lang_option,
    main,
    print_json,
    settings_of,
    show,
)


@main.command()
@json_option("Print the counts as JSON.")
@click.option(
    "--no-wait", is_flag=True, help="Refuse, instead of waiting, if another writer is running."
)
@click.pass_context
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
    from kb.cli.link_reports import print_link_counts

    counts = pipeline.link(settings_of(ctx), wait=not no_wait)
    if as_json:
        print_json(counts)
    else:
        print_link_counts(console(), counts)


@main.command()
@json_option("Print the findings as JSON.")
@click.pass_context
def check(ctx: click.Context, as_json: bool) -> None:
    """List references to rules that do not exist (where each occurs) and misfit translations.

    Exits with status 1 when it finds anything, so it can gate a script or CI job.

    \b
    Example:
        kb check
        kb check --json
    """
    from kb.cli.link_reports import print_check
    from kb.links import check as run_check

    report = show(ctx, run_check, print_check, as_json)
    if not report["ok"]:
        sys.exit(1)


@main.command()
@click.argument("number")
@edition_option()
@json_option()
@click.pass_context
def backlinks(ctx: click.Context, number: str, edition: str | None, as_json: bool) -> None:
    """List what cites a rule or its subrules: rules, examples, glossary terms and rulings.

    \b
    Example:
        kb backlinks 701.54
        kb backlinks 701.32 --edition 2021-02-05 --json
    """
    from kb.cli.link_reports import print_backlinks
    from kb.links import backlinks as find_backlinks

    show(
        ctx,
        lambda session: find_backlinks(session, number, edition),
        lambda out, items: print_backlinks(out, number, items),
        as_json,
    )


@main.command()
@click.argument("old")
@click.argument("new")
@click.option("--all", "show_all", is_flag=True, help="List every item, not the first 40 of each.")
@json_option("Print as JSON (word diffs as op lists).")
@click.pass_context
def diff(ctx: click.Context, old: str, new: str, show_all: bool, as_json: bool) -> None:
    """Compare two editions: added, removed, changed and renumbered rules, glossary terms.

    Rules are matched by content, not only by number (numbers are reused), and changed text is
    shown word by word; a change that only follows a renumbered reference is marked as such.

    \b
    Example:
        kb diff 2025-11-14 2026-01-16
        kb diff 2021-02-05 2026-01-16 --json > changes.json
    """
    from kb.cli.link_reports import print_diff
    from kb.versions import diff_editions

    show(
        ctx,
        lambda session: diff_editions(session, old, new),
        lambda out, result: print_diff(out, result, limit=None if show_all else 40),
        as_json,
    )


@main.command()
@click.argument("number")
@edition_option("The edition NUMBER is read in (YYYY-MM-DD). Default: the newest.")
@json_option()
@click.pass_context
def trace(ctx: click.Context, number: str, edition: str | None, as_json: bool) -> None:
    """Show a rule's text in every loaded edition, following it across renumbering.

    With --edition, NUMBER is read in that edition and resolved to today's number.

    \b
    Example:
        kb trace 701.54
        kb trace 701.32 --edition 2021-02-05
    """
    from kb.cli.link_reports import print_trace
    from kb.versions import trace as trace_rule

    show(ctx, lambda session: trace_rule(session, number, edition), print_trace, as_json)


@main.command()
@lang_option()
@edition_option()
@json_option()
@click.pass_context
def stale(ctx: click.Context, lang: str | None, edition: str | None, as_json: bool) -> None:
    """List the stale translations of a language, with the English change that made each stale.

    \b
    Example:
        kb stale --lang es
        kb stale --lang fr --json
    """
    from kb.cli.link_reports import print_stale
    from kb.versions import stale_translations

    if lang is None or lang == "en":
        raise click.BadParameter("give a translated language: --lang fr or --lang es")
    show(
        ctx,
        lambda session: stale_translations(session, lang, edition),
        lambda out, items: print_stale(out, lang, items),
        as_json,
    )

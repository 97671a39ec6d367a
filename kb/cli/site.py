"""Commands of the static site: build, i18n."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kb.cli.app import (
    json_option,
    main,
    out_option,
    print_json,
    settings_of,
    shorten,
)


@main.command()
@out_option("Output folder. Default: the data folder's site/ (./_kb/site).", folder=True)
@click.option("--strict", is_flag=True, help="Fail (and keep the previous site) on a broken link.")
@click.option("--no-search", is_flag=True, help="Skip the Pagefind full-text index.")
@click.option(
    "--force",
    is_flag=True,
    help="Render every page even if no input changed (still writes "
    "only the pages whose bytes differ).",
)
@json_option("Print the report as JSON.")
@click.pass_context
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
    from kb.cli.reports import progress_bar

    settings = settings_of(ctx)
    with progress_bar(enabled=not as_json) as progress:
        outcome = pipeline.build(
            settings, out, strict=strict, search=not no_search, force=force, progress=progress
        )
    for failure in outcome.ingest.failed:
        click.echo(f"{shorten(failure.path)}:{failure.line}: {failure.reason}", err=True)
    site = outcome.site
    if as_json:
        print_json(
            {
                "ingest": {
                    "loaded": len(outcome.ingest.loaded),
                    "unchanged": len(outcome.ingest.unchanged),
                    "failed": len(outcome.ingest.failed),
                },
                "refreshed": outcome.stages,
                "site": site.as_dict(),
            }
        )
        return
    click.echo(
        f"ingest: {len(outcome.ingest.loaded)} loaded, {len(outcome.ingest.unchanged)} unchanged,"
        f" {len(outcome.ingest.failed)} failed"
        + (f"; refreshed {', '.join(outcome.stages)}" if outcome.stages else "")
    )
    if site.up_to_date:
        click.echo(f"site: up to date in {shorten(str(site.out))} ({site.pages} pages)")
    else:
        click.echo(
            f"site: {site.pages} pages in {shorten(str(site.out))}: {site.written} files written,"
            f" {site.unchanged} unchanged, {site.removed} removed"
            f" ({site.seconds_total:.1f} s, Pagefind {site.seconds_pagefind:.1f} s)"
        )
    if not site.edition:
        click.echo(
            "note: no English Comprehensive Rules edition is loaded; "
            "only translated rules and card rulings are in the site"
        )
    if site.unresolved_references:
        click.echo(
            f"note: {site.unresolved_references} rule reference(s) name no rule of the edition "
            "and are shown as text (`kb check` lists them)"
        )
    if site.broken:
        click.echo(f"warning: {len(site.broken)} broken link(s), e.g. {site.broken[0]}", err=True)
    click.echo(f"open {shorten(str(site.out / 'index.html'))}")


@main.group()
def i18n() -> None:
    """Maintain the site's interface translations (Babel catalogs in kb/locales).

    \b
    Example:
        kb i18n extract && kb i18n update
        kb i18n compile
    """


@i18n.command("extract")
def i18n_extract() -> None:
    """Collect the marked UI strings of the templates and site code into messages.pot.

    \b
    Example:
        kb i18n extract
    """
    from kb import i18n as catalogs

    click.echo(f"wrote {shorten(str(catalogs.extract()))}")


@i18n.command("update")
def i18n_update() -> None:
    """Merge messages.pot into each language's .po file (new strings come in untranslated).

    \b
    Example:
        kb i18n update
    """
    from kb import i18n as catalogs

    for path in catalogs.update():
        status = catalogs.status(path.parent.parent.name)
        click.echo(f"{shorten(str(path))}: {len(status.untranslated)} untranslated")


@i18n.command("compile")
def i18n_compile() -> None:
    """Compile each .po file into the .mo file the site loads (kb build also compiles in memory).

    \b
    Example:
        kb i18n compile
    """
    from kb import i18n as catalogs

    for path in catalogs.compile_catalogs():
        click.echo(f"wrote {shorten(str(path))}")


@i18n.command("check")
def i18n_check() -> None:
    """Fail if any UI string is untranslated or fuzzy in any language.

    \b
    Example:
        kb i18n check
    """
    from kb import i18n as catalogs
    from kb.langs import LANGS

    bad = False
    for lang in LANGS:
        status = catalogs.status(lang)
        for label in status.untranslated:
            click.echo(f"{shorten(str(status.path))}: untranslated: {label!r}", err=True)
        for label in status.fuzzy:
            click.echo(f"{shorten(str(status.path))}: fuzzy: {label!r}", err=True)
        bad = bad or bool(status.untranslated or status.fuzzy)
        click.echo(f"{lang}: {status.total - len(status.untranslated)}/{status.total} translated")
    if bad:
        sys.exit(1)

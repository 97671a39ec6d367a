"""Commands of the search stage: index, search, serve."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kb.cli.app import (
    console,
    json_option,
    lang_option,
    main,
    print_json,
    settings_of,
    shorten,
)


@main.command("index")
@click.option("--rebuild", is_flag=True, help="Build the whole index afresh.")
@json_option("Print the report as JSON.")
@click.option(
    "--no-wait", is_flag=True, help="Refuse, instead of waiting, if another kb process writes."
)
@click.pass_context
def index_command(ctx: click.Context, rebuild: bool, as_json: bool, no_wait: bool) -> None:
    """Build the full-text search index, or rewrite only what changed in the database.

    `kb ingest` and `kb import po` keep an existing index in step by themselves: run this once
    to create it (an index made by another version of kb is rebuilt). An index recorded as in
    step with the loaded documents is trusted and nothing is built; --rebuild starts afresh,
    the full check.

    \b
    Example:
        kb index
        kb index --rebuild --json
    """
    from kb import pipeline

    settings = settings_of(ctx)
    report = pipeline.index(settings, rebuild=rebuild, wait=not no_wait)
    if as_json:
        print_json(report.as_dict())
    elif report.full:
        click.echo(
            f"indexed {report.items} items in {report.seconds:.1f} s "
            f"({shorten(str(settings.index_dir))})"
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
@lang_option()
@click.option(
    "--type",
    "types",
    help="Only these kinds of results, comma-separated: rule, example, glossary, ruling, card.",
)
@click.option(
    "--limit", default=10, show_default=True, type=click.IntRange(1, 100), help="Results shown."
)
@click.option("--fuzzy", is_flag=True, help="Also match words one typo away.")
@json_option("Print the results as JSON.")
@click.pass_context
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

    Words are searched in every language (the query's language, detected, ranks first), or
    in --lang only and, for French and Spanish, the English originals. A rule number (701.54,
    701.54a-c) jumps to the rule; a query too broad (a*, [a TO z]) is refused (exit 2).
    Syntax: "exact phrase", AND, OR, NOT, -word, and filters type:ruling lang:fr set:KHM
    card:"Name" date:2023 source:wotc edition:2025-11-14 (edition:all for every edition).

    \b
    Example:
        kb search ring tempts you
        kb search portador del anillo
        kb search "voto empate" --lang es
        kb search type:ruling set:KHM date:2021 saga --json
        kb search 701.54a-c
    """
    from kb.search import search as run_search

    settings = settings_of(ctx)
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
        print_json(response)
    else:
        from kb.cli.plain_output import console_width, plain_lines, plain_wanted

        # Piped: the lines rich would print, without importing it (a fifth of a cold search).
        lines = plain_lines(response, console_width()) if plain_wanted() else None
        if lines is not None:
            click.echo("\n".join(lines))
        else:
            from kb.cli.search_output import renderables

            out = console()
            for renderable in renderables(response):
                out.print(renderable)
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
    "--threads",
    default=32,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Requests answered at once (more clients wait their turn, idle ones cost no thread;"
    " broad searches run one at a time whatever the number).",
)
@click.option(
    "--site",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of the built site. Default: the data folder's site/ (what `kb build` writes).",
)
@click.pass_context
def serve(ctx: click.Context, port: int, host: str, threads: int, site: Path | None) -> None:
    """Serve the built site and the search API (GET /api/search?q=&lang=&type=&limit=).

    The API answers JSON from the Whoosh index; a bad parameter gets a 400 with a message.
    Until `kb build` has written the site, / says so and the API still answers. The server is
    waitress (idle connections closed after 30 s, at most 200 open); for several workers or
    machines run the WSGI app kb.serve:create_app() in gunicorn (see the README).

    \b
    Example:
        kb serve
        kb serve --port 8080 --host 0.0.0.0
        curl 'http://127.0.0.1:8000/api/search?q=voto+empate&lang=es'
    """
    from kb.server import serve as run_server

    settings = settings_of(ctx)

    def ready(url: str) -> None:
        click.echo(
            f"serving {url} (site: {shorten(str(site or settings.site_dir))}, "
            f"API: {url}api/search?q=…) — Ctrl-C to stop"
        )

    run_server(settings, host=host, port=port, site_dir=site, threads=threads, on_ready=ready)


# --- links, editions, history, translation drift ---------------------------------------------

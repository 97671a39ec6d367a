"""Commands that export and import: export sheet|po|json|csv, import po."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from kb.cli.app import (
    F,
    edition_option,
    json_option,
    lang_option,
    main,
    out_option,
    print_json,
    settings_of,
    shorten,
)


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
    from kb.export import write_stdout

    write_stdout(data)


def _emit(data: bytes, out: Path | None, what: str) -> None:
    """Write an export to --out (atomically) or to standard output."""
    from kb.export import write_file

    if out is None:
        _write_stdout(data)
        return
    written = write_file(out, data)
    shown = shorten(str(out)) + (f" (→ {written})" if out.is_symlink() else "")
    click.echo(f"wrote {what} to {shown}", err=True)


@export_group.command("sheet")
@click.argument("items", nargs=-1, required=True)
@_langs_option()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "pdf", "md"]),
    help="Output format. Default: from the --out suffix, else html.",
)
@out_option("Output file. Default: standard output.")
@click.option(
    "--cards",
    multiple=True,
    help="Add these cards' rulings (repeat the option, or separate names with ';').",
)
@edition_option("Effective date of the English edition. Default: the newest.")
@click.option(
    "--paper",
    type=click.Choice(["a4", "letter"]),
    default="a4",
    show_default=True,
    help="PDF paper size.",
)
@click.option("--landscape", is_flag=True, help="PDF in landscape (roomier for 3+ languages).")
@click.pass_context
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
    from kb.export import export_sheet as build
    from kb.export import sheet_format

    settings = settings_of(ctx)
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
@lang_option()
@click.option(
    "--only",
    type=click.Choice(["missing", "stale", "current", "all"]),
    multiple=True,
    help="Which rules to include (repeatable). Default: all.",
)
@edition_option("Effective date of the English edition. Default: the newest.")
@out_option("Output .po file. Default: standard output.")
@click.pass_context
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
    from kb.export import export_po as build

    settings = settings_of(ctx)
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
@edition_option("Only this English edition (YYYY-MM-DD) and the translations.")
@out_option("Output file. Default: standard output.")
@click.pass_context
def export_json(ctx: click.Context, edition: str | None, out: Path | None) -> None:
    """The whole knowledge base as one JSON document (shape: README, kb/schemas/).

    \b
    Example:
        kb export json --out kb.json
        kb export json --edition 2026-01-16 | jq '.editions[0].rules | length'
    """
    from kb.export import export_json as build

    _emit(build(settings_of(ctx), edition), out, "the JSON dump")


@export_group.command("csv")
@click.option(
    "--table",
    "tables",
    multiple=True,
    help="Only this table (repeatable): editions, rules, examples, glossary, cards, card_names, "
    "printings, clarifications, card_clarifications, links.",
)
@edition_option("Only this English edition (YYYY-MM-DD) and the translations.")
@out_option(
    "Output folder (one <table>.csv each). Without it, one --table goes to standard output.",
    folder=True,
)
@click.pass_context
def export_csv(
    ctx: click.Context, tables: tuple[str, ...], edition: str | None, out: Path | None
) -> None:
    """The knowledge base as CSV tables (UTF-8, header line; shapes in the README).

    \b
    Example:
        kb export csv --out dump/
        kb export csv --table rules --edition 2026-01-16 > rules.csv
    """
    from kb.export import export_csv as build

    counts, data = build(settings_of(ctx), out, tables, edition)
    if data is not None:
        _write_stdout(data)
        return
    assert out is not None
    listed = ", ".join(f"{name} {count}" for name, count in counts.items())
    click.echo(f"wrote {len(counts)} tables to {shorten(str(out))}: {listed}", err=True)


@main.group("import")
def import_group() -> None:
    """Bring work back into the knowledge base (translators' PO catalogs).

    \b
    Example:
        kb import po fr.po
    """


@import_group.command("po")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@lang_option()
@click.option(
    "--skip-untranslated",
    is_flag=True,
    help="Leave out rules with an empty or fuzzy entry instead of refusing the catalog.",
)
@click.option("--dry-run", is_flag=True, help="Check the catalog and report; write nothing.")
@json_option("Print the report as JSON.")
@click.pass_context
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
        settings_of(ctx), path, language=lang, skip_untranslated=skip_untranslated, dry_run=dry_run
    )
    if as_json:
        print_json(report.as_dict())
        return
    for problem in report.skipped:
        click.echo(f"{shorten(report.path)}:{problem.line}: skipped: {problem.reason}", err=True)
    verb = "would import" if dry_run else "imported"
    follows = ", ".join(f"{n} following the English of {d}" for d, n in report.follows.items())
    click.echo(
        f"{verb} {len(report.imported)} new and {len(report.updated)} updated {report.language} "
        f"community translations ({len(report.unchanged)} unchanged, {len(report.skipped)} "
        f"skipped)" + (f": {follows}" if follows else "")
    )

"""The terminology command: French and Spanish keyword terms learned from card translations."""

from __future__ import annotations

import sys
from typing import Any

import click

from kb.cli.app import console, json_option, main, open_existing, print_json, settings_of


def _lang(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip().lower()
    if value not in ("fr", "es"):
        raise click.BadParameter(f"{value!r}: terms are learned for fr and es only")
    return value


@main.command()
@click.option("--lang", callback=_lang, help="Only this language: fr or es.")
@click.option("--check", is_flag=True, help="List conflicts to review instead (exit 1 if any).")
@click.option("--rebuild", is_flag=True, help="Relearn the terms from the stored cards first.")
@json_option()
@click.pass_context
def terms(ctx: click.Context, lang: str | None, check: bool, rebuild: bool, as_json: bool) -> None:
    """List the keyword terms learned from Wizards' card translations, with their evidence.

    For each keyword ability and action (the MTGJSON keywords of the cards, the titles of rules
    701.x and 702.x), the French and Spanish term Wizards prints, the number of cards that show
    it, two example cards and a confidence. `kb ingest` relearns them when card data changes.
    `--check` lists what a person should review: competing translations with similar support
    (often an old and a new name of one keyword) and weak associations.

    \b
    Example:
        kb terms --lang fr
        kb terms --check --json
    """
    from kb import pipeline
    from kb.terminology import conflicts, list_terms, terms_current

    settings = settings_of(ctx)
    if rebuild:
        pipeline.relearn_terms(settings)
    db = open_existing(settings)
    with db.session() as session:
        rows = conflicts(session, lang) if check else list_terms(session, lang)
        current = terms_current(session)
    if not current:
        click.echo(
            "kb: warning: the terms were learned from other card data than is loaded now; "
            "run `kb terms --rebuild`",
            err=True,
        )
    if as_json:
        print_json(rows)
    elif check:
        _print_conflicts(rows)
    else:
        _print_terms(rows)
    if check and rows:
        sys.exit(1)


def _print_terms(rows: list[dict[str, Any]]) -> None:
    from rich.table import Table

    out = console()
    if not rows:
        out.print("No terms learned: ingest MTGJSON card files with French or Spanish texts.")
        return
    table = Table("keyword", "rule", "lang", "term", "cards", "conf.", "example", box=None)
    for row in rows:
        examples = "; ".join(f"{e['en']} = {e['translated']}" for e in row["examples"][:1])
        table.add_row(
            row["keyword"],
            row["rule"] or "",
            row["language"],
            row["term"],
            f"{row['cards']}/{row['keyword_cards']}",
            f"{row['confidence']:.2f}",
            examples,
        )
    out.print(table)
    out.print(f"{len(rows)} terms, from official card translations (not rules translations)")


def _print_conflicts(rows: list[dict[str, Any]]) -> None:
    out = console()
    if not rows:
        out.print("No conflicts.")
        return
    for row in rows:
        out.print(
            f"{row['keyword']} ({row['language']}): {row['term']!r} on {row['cards']} of "
            f"{row['keyword_cards']} cards, confidence {row['confidence']:.2f}"
        )
        for reason in row["reasons"]:
            out.print(f"  - {reason}")
    out.print(f"{len(rows)} to review")

"""Terminal output of the inspect commands and the ingest summary (rich tables and panels).

Kept apart from ``kb.cli`` so the command modules stay a thin layer of options, and from the
views in ``lookup.py`` so those stay plain data for ``--json``, the site and the exports.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from kb.cli.lookup_output import card_lines, number_width, rule_headers, rule_heading, rule_rows
from kb.langs import language_name

if TYPE_CHECKING:  # the ingest stage is heavy to import: a lookup (kb rule, kb card) needs none
    from kb.config import Settings
    from kb.ingest import IngestReport, ProgressHook


def counts_table(title: str) -> Table:
    """A table of counts that fits 80 columns: a rule under the header, no vertical borders
    (eight columns of boxed cells cut their headers to ``chapte…`` at that width)."""
    return Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        show_edge=False,
        collapse_padding=True,
    )


@contextmanager
def progress_bar(enabled: bool = True) -> Iterator[ProgressHook | None]:
    """A rich progress bar on a terminal (stderr), nothing when output is piped."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn("[bold]ingest"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        task = progress.add_task("", total=None)

        def hook(path: str, done: int, total: int) -> None:
            progress.update(task, completed=done, total=total, description=path.rsplit("/", 1)[-1])

        yield hook


def ingest_summary(settings: Settings, report: IngestReport) -> dict[str, Any]:
    """The run's outcome and the knowledge base's counts after it."""
    from kb.pipeline import open_db
    from kb.stats import summary_counts

    db = open_db(settings)
    try:
        with db.session() as session:
            stats = summary_counts(session)
    finally:
        db.dispose()
    return {
        "run": {
            "files": report.files,
            "loaded": len(report.loaded),
            "unchanged": len(report.unchanged),
            "reparsed": len(report.reparsed),
            "failed": len(report.failed),
            "failures": [
                {"path": f.path, "line": f.line, "reason": f.reason} for f in report.failed
            ],
            "warnings": [
                {"path": w.path, "line": w.line, "kind": w.kind, "message": w.message}
                for w in report.warnings
            ],
        },
        "knowledge_base": stats,
    }


def print_ingest_summary(console: Console, summary: dict[str, Any]) -> None:
    """Print the run line and the counts table."""
    run = summary["run"]
    console.print(
        f"{run['files']} documents read: {run['loaded']} loaded, {run['unchanged']} unchanged, "
        f"{run['failed']} failed"
        + (f", {len(run['warnings'])} warnings" if run.get("warnings") else "")
    )
    if run.get("reparsed"):
        console.print(
            f"  {run['reparsed']} unchanged documents parsed again: a newer parser reads "
            "their format"
        )
    for item in run.get("warnings", []):
        where = item["path"].rsplit("/", 1)[-1] + (f":{item['line']}" if item["line"] else "")
        console.print(f"  [yellow]warning[/yellow] {escape(where)}: {escape(item['message'])}")
    print_stats(console, summary["knowledge_base"])


def print_stats(console: Console, stats: dict[str, Any]) -> None:
    """Print documents, editions and per-language coverage as tables."""
    docs = counts_table("Documents")
    docs.add_column("format")
    docs.add_column("stored", justify="right")
    docs.add_column("failed", justify="right")
    for fmt, counts in sorted(stats["documents"].items()):
        docs.add_row(fmt, str(counts.get("loaded", 0)), str(counts.get("failed", 0)))
    console.print(docs)
    eds = counts_table("Editions")
    eds.add_column("edition", no_wrap=True, min_width=12)
    eds.add_column("lang", no_wrap=True)
    for column in ("parts", "chapters", "rules", "subrules", "examples", "glossary"):
        eds.add_column(column, justify="right")
    for ed in stats["editions"]:
        r = ed["rules"]
        eds.add_row(
            ed["effective_date"] or ed["kind"],
            ed["language"],
            *(
                str(v)
                for v in (
                    r["part"],
                    r["chapter"],
                    r["rule"],
                    r["subrule"],
                    ed["examples"],
                    ed["glossary"],
                )
            ),
        )
    console.print(eds)
    console.print(
        f"cards: {stats['cards']}  printings: {stats['printings']}  "
        f"clarifications: {stats['clarifications']}  "
        f"rulings pages recognised: {stats['cards_recognised_pages']}"
    )
    langs = counts_table("Per language")
    for column in ("language", "rule texts", "coverage", "clarification texts", "card names"):
        langs.add_column(column, justify="left" if column == "language" else "right")
    for lang, data in stats["languages"].items():
        rules = data.get("rule_texts")
        coverage = f"{rules['coverage']:.1%}" if rules else "-"
        texts = ", ".join(f"{n} {p}" for p, n in data["clarification_texts"].items()) or "0"
        langs.add_row(
            language_name(lang, "en"),
            f"{rules['translated']}/{rules['total']}" if rules else "-",
            coverage,
            texts,
            str(data["card_names"]),
        )
    console.print(langs)
    languages = stats["languages"].items()
    drift = {lang: d["translations"] for lang, d in languages if "translations" in d}
    if drift:
        from kb.cli.link_reports import print_drift

        print_drift(console, drift)


def _style(name: str, markup: str) -> str:
    """The ``style`` of kb.cli.lookup_output's builders for rich: console markup."""
    return f"[{name}]{markup}[/{name}]"


def print_rule(console: Console, view: dict[str, Any]) -> None:
    """Print a rule, English and (when asked) the translation side by side."""
    for markup in rule_heading(view, _style, escape):
        console.print(markup)
    # Every width given: rich then measures no cell (a chapter's 750 rows took a second).
    table = Table(show_lines=True, expand=True)
    number, *texts = rule_headers(view)
    table.add_column(number, no_wrap=True, width=number_width(view))
    for header in texts:
        table.add_column(header, ratio=1, width=1)
    for row in rule_rows(view, _style, escape):
        table.add_row(*row)
    console.print(table)


def indented(console: Console, markup: str, indent: int = 2) -> None:
    """Print a paragraph whose wrapped lines keep the indent (a hanging indent, not column 0)."""
    console.print(Padding(markup, (0, 0, 0, indent), expand=False))


def labelled(console: Console, label: str, markup: str, indent: int = 2) -> None:
    """Print ``label  text`` with the text's wrapped lines aligned under its first word."""
    head = Text.from_markup(" " * indent + label + "  ")
    width = max(console.width - head.cell_len, 20)
    for index, line in enumerate(Text.from_markup(markup).wrap(console, width)):
        line.rstrip()
        prefix = head if index == 0 else Text(" " * head.cell_len)
        console.print(Text.assemble(prefix, line), soft_wrap=True)


def print_card(console: Console, view: dict[str, Any]) -> None:
    """Print a card's names, type lines and texts (Oracle first), attributes, printings and
    rulings, each ruling text with its language and provenance."""
    for indent, markup in card_lines(view, _style, escape):
        if indent:
            indented(console, markup, indent)
        else:
            console.print(markup)

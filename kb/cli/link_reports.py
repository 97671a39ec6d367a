"""Terminal output of the link and versions commands: check, backlinks, diff, trace, stale, link.

Plain data comes from :mod:`kb.links` and :mod:`kb.versions`; this module only prints it with
rich, escaping every text that comes from the corpus.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape

from kb.cli.reports import counts_table, indented, labelled
from kb.langs import language_name
from kb.versions import word_ops

SOURCE_LABELS = {
    "rule_text": "rule",
    "example": "example",
    "glossary": "glossary",
    "clarification_text": "ruling",
    "card_text": "card",
}


def ops_markup(ops: list[list[str]], context: int | None = 80, *, plain: bool = False) -> str:
    """A word-level diff as rich markup: deletions struck in red, insertions green.

    Unchanged stretches longer than twice ``context`` characters are cut to their ends. With
    ``plain`` (no colours: piped output), changes read ``[-old-]{+new+}`` as in ``git diff``.
    """
    parts = []
    for index, (op, text) in enumerate(ops):
        if op == "equal":
            if context is not None and len(text) > 2 * context + 10:
                head = _head(text, context) if index > 0 else ""
                tail = _tail(text, context) if index < len(ops) - 1 else ""
                text = f"{head}…{tail}" if head or tail else text
            parts.append(escape(text))
        elif plain:
            marks = ("[-", "-]") if op == "delete" else ("{+", "+}")
            parts.append(escape(f"{marks[0]}{text}{marks[1]}"))
        elif op == "delete":
            parts.append(f"[red strike]{escape(text)}[/red strike]")
        else:
            parts.append(f"[green]{escape(text)}[/green]")
    return "".join(parts)


def _head(text: str, width: int) -> str:
    """The first ``width`` characters of an unchanged stretch, ending at a word boundary."""
    cut = text[:width]
    return cut if text[width : width + 1].isspace() else cut[: cut.rfind(" ") + 1] or cut


def _tail(text: str, width: int) -> str:
    """The last ``width`` characters of an unchanged stretch, starting at a word boundary."""
    cut = text[-width:]
    if text[-width - 1 : -width].isspace():
        return cut
    space = cut.find(" ")
    return cut[space:] if space >= 0 else cut


def _plain(console: Console) -> bool:
    return console.color_system is None


def _short(text: str, width: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def print_link_counts(console: Console, counts: dict[str, Any]) -> None:
    """Print what ``kb link`` built."""
    console.print(
        f"linked {', '.join(counts['editions']) or 'no edition'}: {counts['links']} links "
        f"({counts['explicit']} explicit, {counts['term']} term, {counts['sibling']} sibling), "
        f"{counts['unresolved']} unresolved; {counts['clarifications_linked']} of "
        f"{counts['clarifications']} rulings and {counts['cards_linked']} of {counts['cards']} "
        "cards tied to rules by their words"
    )


def print_check(console: Console, report: dict[str, Any]) -> None:
    """Print unresolved references and translation misfits, or that all is well."""
    missing = report["unresolved"]
    if missing:
        table = counts_table(f"{len(missing)} unresolved references")
        for column in ("edition", "reference", "kind", "in", "language", "as written"):
            table.add_column(column)
        for item in missing:
            where = SOURCE_LABELS[item["source_type"]]
            label = item["label"] or "?"
            if item["source_edition"] and ":translations" in item["source_edition"]:
                where += " (translation)"
            table.add_row(
                item["edition"] or "-",
                escape(item["target"]),
                item["kind"],
                escape(f"{where} {label}"),
                item["language"],
                escape(item["matched"]),
            )
        console.print(table)
    for item in report["translations"]:
        console.print(
            f"[yellow]{language_name(item['language'], 'en')} rule {escape(item['number'])}"
            f"[/yellow] (follows {item['follows'] or 'nothing'}): {escape(item['problem'])}"
        )
    for item in report.get("unchecked", []):
        console.print(
            f"{language_name(item['language'], 'en')} rule {escape(item['number'])}: follows no "
            "loaded English edition, so its references cannot be checked (load the "
            "Comprehensive Rules: kb ingest ../shared/corpus)"
        )
    for item in report.get("newer", []):
        console.print(
            f"{language_name(item['language'], 'en')} rule {escape(item['number'])}: "
            f"{escape(item['problem'])} (not counted as unresolved)"
        )
    warnings = report.get("warnings", [])
    if warnings:
        table = counts_table(f"{len(warnings)} defects repaired or skipped while ingesting")
        for column in ("document", "line", "what kb did"):
            table.add_column(column)
        for item in warnings:
            table.add_row(
                escape(item["path"].rsplit("/", 1)[-1]),
                str(item["line"] or "-"),
                escape(item["message"]),
            )
        console.print(table)
    if report["ok"] and report.get("unchecked"):
        console.print("every reference that can be checked resolves")
    elif report["ok"]:
        console.print("every reference resolves and every translation fits its English rule")


def print_backlinks(console: Console, number: str, items: list[dict[str, Any]]) -> None:
    """Print what cites a rule, grouped by kind of source."""
    if not items:
        console.print(f"nothing cites rule {escape(number)}")
        return
    console.print(f"[bold]{len(items)} texts cite rule {escape(number)}[/bold]")
    for item in items:
        where = SOURCE_LABELS[item["source_type"]]
        lang = "" if item["language"] == "en" else f" [{item['language']}]"
        if item["source_type"] == "clarification_text":
            who = f"{item['date']} {', '.join(item['cards']) or item['label']}"
        else:
            who = item["label"]
        cites = ", ".join(item["targets"])
        words = "; ".join(item["matched"])
        console.print(
            f"  {where:8} {escape(who)}{lang} -> {escape(cites)} "
            f"[dim]({item['kind']}: {escape(_short(words, 60))})[/dim]"
        )


def print_diff(console: Console, diff: dict[str, Any], *, limit: int | None = None) -> None:
    """Print an editions diff: summary, renumbered, added, removed, changed with word diffs."""
    s = diff["summary"]
    console.print(
        f"[bold]{diff['old']} → {diff['new']}[/bold]: {s['added']} added, {s['removed']} removed, "
        f"{s['changed']} changed ({s['reference_only']} only in references), "
        f"{s['renumbered']} renumbered; glossary {s['glossary_added']} added, "
        f"{s['glossary_removed']} removed, {s['glossary_changed']} changed"
    )

    def shown(items: list[Any]) -> list[Any]:
        return items if limit is None else items[:limit]

    def more(items: list[Any]) -> None:
        if limit is not None and len(items) > limit:
            console.print(f"  [dim]… and {len(items) - limit} more (--all or --json)[/dim]")

    if diff["renumbered"]:
        console.print("[bold]Renumbered[/bold]")
        for r in shown(diff["renumbered"]):
            edited = " [dim](text changed too)[/dim]" if r["changed"] else ""
            labelled(
                console,
                f"{r['old_number']} → {r['new_number']}",
                f"{escape(_short(r['title'], 80))}{edited}",
            )
        more(diff["renumbered"])
    for key, title in (("added", "Added"), ("removed", "Removed")):
        if diff[key]:
            console.print(f"[bold]{title}[/bold]")
            for r in shown(diff[key]):
                labelled(console, r["number"], escape(_short(r["text"])))
            more(diff[key])
    if diff["changed"]:
        console.print("[bold]Changed[/bold]")
        for c in shown(diff["changed"]):
            number = (
                c["new_number"]
                if c["old_number"] == c["new_number"]
                else f"{c['old_number']} → {c['new_number']}"
            )
            note = (
                " [dim](only a reference to a renumbered rule)[/dim]" if c["reference_only"] else ""
            )
            console.print(f"  [bold]{number}[/bold]{note}")
            indented(console, ops_markup(c["ops"], plain=_plain(console)), 4)
        more(diff["changed"])
    glossary = diff["glossary"]
    if glossary["added"] or glossary["removed"] or glossary["changed"]:
        console.print("[bold]Glossary[/bold]")
        for term in glossary["added"]:
            console.print(f"  [green]+ {escape(term)}[/green]")
        for term in glossary["removed"]:
            console.print(f"  [red]- {escape(term)}[/red]")
        for g in shown(glossary["changed"]):
            indented(
                console, f"~ {escape(g['term'])}: {ops_markup(g['ops'], plain=_plain(console))}"
            )
        more(glossary["changed"])


def print_trace(console: Console, view: dict[str, Any]) -> None:
    """Print a rule's text in every loaded edition, oldest first."""
    asked = f"{view['asked']} ({view['asked_edition']})"
    if view["number"] is None:
        console.print(
            f"[bold]Rule {escape(asked)}[/bold] is gone from the {view['edition']} edition "
            f"(last seen in {view.get('last_seen')}, absent from {view['removed_in']})"
        )
    elif view["number"] != view["asked"]:
        console.print(
            f"[bold]Rule {escape(asked)}[/bold] is rule [bold]{escape(view['number'])}[/bold] "
            f"in the {view['edition']} edition"
        )
    else:
        console.print(f"[bold]Rule {escape(view['number'])}[/bold] — edition {view['edition']}")
    previous = None
    for entry in view["history"]:
        status = entry.get("note") or entry["status"]
        if entry.get("subrules_changed") and status == "same":
            status = "same rule, subrules changed"
        console.print(
            f"[cyan]{entry['edition']}[/cyan]  [bold]{escape(entry['number'])}[/bold]  "
            f"[dim]{escape(status)}[/dim]"
        )
        unchanged = previous is not None and not entry["changed"]
        if unchanged and not entry.get("subrules_changed"):
            console.print(f"  [dim](same text as in {previous['edition']})[/dim]")
            previous = entry
            continue
        if previous is not None and entry["changed"]:
            ops = word_ops(previous["text"], entry["text"])
            indented(console, ops_markup(ops, context=None, plain=_plain(console)))
        else:
            indented(console, escape(entry["text"]))
        previous = entry
        for sub in entry["subrules"]:
            labelled(console, f"[dim]{escape(sub['number'])}[/dim]", escape(sub["text"]), 4)


def print_stale(console: Console, language: str, items: list[dict[str, Any]]) -> None:
    """Print the stale translations of a language with the English diff behind each."""
    name = language_name(language, "en")
    if not items:
        console.print(f"no stale {name} translation")
        return
    console.print(f"[bold]{len(items)} stale {name} translations[/bold]")
    for item in items:
        numbered = (
            item["number"]
            if item["translated_number"] == item["number"]
            else f"{item['translated_number']} (now {item['number']})"
        )
        assumed = ", assumed" if item["assumed"] else ""
        console.print(
            f"[bold]{escape(numbered)}[/bold] [dim]{item['provenance']}; follows "
            f"{item['follows']}{assumed}; English changed by {item['edition']}:[/dim]"
        )
        indented(console, ops_markup(item["ops"], plain=_plain(console)))


_DRIFT_COLUMNS = ("translated", "current", "stale", "missing", "official", "community", "machine")


def print_drift(console: Console, summary: dict[str, dict[str, int]]) -> None:
    """Print the per-language translation drift table."""
    table = counts_table("Translations")
    table.add_column("language")
    for column in _DRIFT_COLUMNS:
        table.add_column(column, justify="right")
    for lang, counts in summary.items():
        table.add_row(language_name(lang, "en"), *(str(counts[k]) for k in _DRIFT_COLUMNS))
    console.print(table)

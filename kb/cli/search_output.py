"""Search results as rich console markup (the CLI prints it; colour only on a terminal).

Everything from the corpus is escaped before it becomes markup: a rule text holding ``[b]``
must print as written, not turn bold. Piped, the same lines are written as plain text, wrapped
as rich wraps them (:mod:`kb.cli.plain_output`), without importing rich.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kb.langs import language_name
from kb.search import highlight

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.text import Text


def escape(text: str) -> str:
    """Rich's markup escape (a corpus text's ``[b]`` printed as written)."""
    return highlight.markup_escape(text)


def _snippet(segments: list[list[Any]]) -> str:
    return highlight.as_markup([(str(text), bool(hit)) for text, hit in segments])


def _facts(result: dict[str, Any], lang: str) -> str:
    facts = [result["type"]]
    if result.get("edition") and result["type"] in ("rule", "example", "glossary"):
        facts.append(f"edition {result['edition']}")
    elif result.get("date"):
        facts.append(result["date"])
    if result.get("source"):
        facts.append(f"source {result['source']}")
    if result.get("sets"):
        facts.append(", ".join(result["sets"]))
    if result.get("badge"):
        facts.append(result["badge"])
    langs = result.get("matched_languages", [])
    if langs and (langs != [lang] or result["language"] != lang):
        facts.append("matched in " + ", ".join(language_name(c, "en") for c in langs))
    if result.get("partial"):
        facts.append("some words only")
    return " · ".join(escape(str(f)) for f in facts)


def rank_prefix(result: dict[str, Any]) -> str:
    """The ``1. `` before a result's title; its width is the indent of everything below it."""
    return f"{result['rank']}. "


def result_lines(result: dict[str, Any], lang: str = "en") -> list[str]:
    """The markup lines of one result: title and facts, snippet, English original, link.

    The first line follows :func:`rank_prefix`; the others are meant to be printed indented by
    its width (see :func:`renderables`).
    """
    lines = [f"[bold]{escape(result['title'])}[/bold]  [dim]{_facts(result, lang)}[/dim]"]
    plain = result.get("snippet", "").strip()
    if plain and not result["title"].endswith(plain):
        lines.append(_snippet(result.get("highlights", [])))
    original = result.get("original")
    if original and original.get("snippet"):
        lines.append(f"[dim]English: {escape(original['snippet'])}[/dim]")
    if result["type"] == "ruling" and result.get("cards"):
        names = ", ".join(c["name"] for c in result["cards"][:5])
        more = len(result["cards"]) - 5
        lines.append(f"[dim]cards: {escape(names)}{f' (+{more})' if more > 0 else ''}[/dim]")
    if result.get("url"):
        lines.append(f"[cyan]{escape(result['url'])}[/cyan]")
    elif result["type"] in ("rule", "example", "glossary"):
        lines.append("[dim](an older edition: not on the site)[/dim]")
    return lines


def response_lines(response: dict[str, Any]) -> list[str]:
    """The markup lines of a response's header: count or jump, relaxed note, did-you-mean."""
    lines: list[str] = []
    results = response["results"]
    if response.get("jump"):
        numbers = response["jump"]["numbers"]
        shown = numbers[0] if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"
        edition = response["edition"]
        lines.append(f"[bold]Rule {escape(shown)}[/bold] [dim](edition {edition})[/dim]")
    elif results:
        count = response["total"]
        plural = "s" if count != 1 else ""
        query = escape(response["query"])
        if response.get("showing"):
            header = (
                f"No results for [bold]{query}[/bold]; {count} result{plural} for "
                f"[bold]{escape(response['showing'])}[/bold]"
            )
        else:
            header = f"{count} result{plural} for [bold]{query}[/bold]"
        partial = sum(1 for r in results if r.get("partial"))
        if len(results) - partial < count:
            header += f" [dim](showing {len(results) - partial})[/dim]"
        lines.append(header)
        if partial:
            lines.append(f"[dim]…and {partial} holding only some of the words.[/dim]")
    else:
        lines.append(f"No results for [bold]{escape(response['query'])}[/bold].")
    if response.get("did_you_mean") and not response.get("showing"):
        lines.append(f"Did you mean: [bold]{escape(response['did_you_mean'])}[/bold]?")
    return lines


class Hanging:
    """A prefix, then text whose wrapped lines line up under the text's first word (rich)."""

    def __init__(self, prefix: Text, body: Text, indent: int = 0) -> None:
        self.prefix = prefix
        self.body = body
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        margin = self.indent + self.prefix.cell_len
        width = max(options.max_width - margin, 20)
        from rich.text import Text

        for index, line in enumerate(self.body.wrap(console, width)):
            line.rstrip()
            head = Text(" " * self.indent) + self.prefix if index == 0 else Text(" " * margin)
            yield head + line


def renderables(response: dict[str, Any]) -> list[Any]:
    """The response as rich renderables: a header, then each result with its details indented.

    A result's title line wraps under the title, not back to column 0, and its details are
    indented as far as the title, at any terminal width and piped (80 columns).
    """
    from rich.text import Text

    out: list[Any] = [Text.from_markup(line) for line in response_lines(response)]
    for result in response["results"]:
        first, *rest = result_lines(result, response["lang"])
        prefix = Text(rank_prefix(result), style="bold")
        out.append(Text(""))
        out.append(Hanging(prefix, Text.from_markup(first)))
        out.extend(Hanging(Text(""), Text.from_markup(line), prefix.cell_len) for line in rest)
    return out

"""The rulings and cards of a rule too many to show on its page, on pages of their own.

With every card of MTGJSON loaded, a rule such as 608.2 has thousands of rulings and a keyword
thousands of cards using it: listed whole, the rule page would weigh megabytes (and Pagefind,
which reads the rule pages, would index them all). The rule page shows the first ones and links
to the whole list, paginated under ``<lang>/rules/<number>/`` (which Pagefind does not read).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from kb.site.data import Node
from kb.site.env import page_root, pager
from kb.site.rules import Page

RULINGS_SHOWN = 50  # on the rule page
RULINGS_PER_PAGE = 200  # on each page of the whole list
CARDS_SHOWN = 300
CARDS_PER_PAGE = 3000
KINDS = ("rulings", "cards")


def _limits(kind: str) -> tuple[str, int, int]:
    """The rule view's key of a list, how many its page shows, how many per list page."""
    if kind == "rulings":
        return "clarifications", RULINGS_SHOWN, RULINGS_PER_PAGE
    return "cards", CARDS_SHOWN, CARDS_PER_PAGE


class RuleSite(Protocol):
    """What the lists need of the language's site (:class:`kb.site.rules.RulePages`)."""

    lang: str
    extras: Any

    def _clarifications(self, node: Node, root: str) -> list[dict[str, Any]]: ...

    def _cited_by(
        self, node: Node, root: str
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]: ...


def list_url(lang: str, number: str, kind: str, page: int = 1) -> str:
    """The site-absolute URL of one page of a rule's whole list of rulings or cards."""
    suffix = "" if page == 1 else f"-{page}"
    return f"/{lang}/rules/{number}/{kind}{suffix}.html"


def _overflows(site: RuleSite, node: Node, kind: str) -> bool:
    """Whether the rule's list is too long for its page (the same answer in every language)."""
    if kind == "rulings":
        return len(site.extras.clarifications.get(node.number, [])) > _limits(kind)[1]
    cards = [c for c in site.extras.cited_by.get(node.number, []) if c["card"]]
    return len(cards) > _limits(kind)[1]


def trim(site: RuleSite, node: Node, item: dict[str, Any]) -> None:
    """Cut the rule view's long lists to what its page shows, with the link to the rest."""
    for kind in KINDS:
        key, shown, _per_page = _limits(kind)
        item[f"{key}_total"] = len(item[key])
        item[f"{key}_more"] = None
        if _overflows(site, node, kind):
            item[key] = item[key][:shown]
            item[f"{key}_more"] = list_url(site.lang, node.number, kind)


def list_pages(
    site: RuleSite, node: Node, heading: dict[str, Any], chapter: dict[str, Any]
) -> Iterator[Page]:
    """The pages of the whole lists the rule page links to (none for most rules)."""
    for kind in KINDS:
        if not _overflows(site, node, kind):
            continue
        per_page = _limits(kind)[2]
        first = list_url(site.lang, node.number, kind).lstrip("/")
        root = page_root(first)  # every page of the list is in the same folder
        if kind == "rulings":
            items = site._clarifications(node, root)
        else:
            items = site._cited_by(node, root)[1]
        chunks = [items[i : i + per_page] for i in range(0, len(items), per_page)] or [[]]
        for number, chunk in enumerate(chunks, 1):
            path = list_url(site.lang, node.number, kind, number).lstrip("/")
            yield Page(
                path,
                "rule_list.html",
                {
                    "rule": heading,
                    "chapter": chapter,
                    "kind": kind,
                    "items": chunk,
                    "total": len(items),
                    # a later page's language switch leads to the other language's first page
                    "alt_subpath": first.split("/", 1)[1],
                    "pager": _pager(site.lang, node.number, kind, number, len(chunks)),
                    "page_kind": "rule",
                },
                site.lang,
            )


def _pager(lang: str, rule: str, kind: str, number: int, total: int) -> dict[str, Any]:
    return pager(number, total, lambda page: list_url(lang, rule, kind, page))

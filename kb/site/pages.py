"""Page builders: from the site data to (path, template, context) for every page of a language.

The views are computed here in Python (texts linked, badges chosen, fallbacks decided) so the
templates only lay them out. Every path is relative to the site root, in the shapes of
:mod:`kb.urls`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from markupsafe import escape

from kb.langs import fold
from kb.site.cards import CardPages
from kb.site.data import Node, SiteData, Text
from kb.site.env import page_root
from kb.site.rules import NUMBERED, LazyPage, Page
from kb.urls import glossary_slug, site_url

__all__ = ["LanguageSite", "Page", "english_texts"]


def _letter(text: str) -> str:
    first = fold(text)[:1].upper()
    return first if first.isalpha() and first.isascii() else "#"


def _letters(items: list[Any], label: Callable[[Any], str], key: str) -> list[dict[str, Any]]:
    groups: dict[str, list[Any]] = {}
    for item in items:
        groups.setdefault(_letter(label(item)), []).append(item)
    return [
        {"id": "other" if letter == "#" else letter.lower(), "label": letter, key: groups[letter]}
        for letter in sorted(groups, key=lambda x: (x == "#", x))
    ]


class LanguageSite(CardPages):
    """Builds every page of one language from the shared site data and extras."""

    def coverage(self) -> dict[str, Any]:
        """Counts for the home page: rules translated, by provenance, stale, missing."""
        numbered = [n for n in self.data.nodes.values() if n.kind in NUMBERED]
        states = [self._status(n) for n in numbered]
        provenance: dict[str, int] = {}
        for node in numbered:
            text = node.translations.get(self.lang)
            if text is not None:
                provenance[text.provenance] = provenance.get(text.provenance, 0) + 1
        translated = sum(s != "missing" for s in states)
        cards = self.data.cards
        return {
            "total": len(numbered),
            "translated": translated if self.lang != "en" else len(numbered),
            "ratio": translated / len(numbered) if numbered else 0.0,
            "by_provenance": sorted(provenance.items()),
            "stale": states.count("stale"),
            "missing": states.count("missing"),
            "current": states.count("current"),
            "glossary": len(self.data.glossary),
            "cards": len(cards),
            "card_names": sum(1 for c in cards if self.lang in c["names"]),
            "rulings": self.data.ruling_count,
            "ruling_texts": self.data.ruling_texts.get(self.lang, 0),
        }

    def home_page(self) -> Page:
        """The language's home: edition, coverage, where to start."""
        _ = self._
        labels = {
            "official": _("official"),
            "machine": _("machine translation"),
            "community": _("community translation"),
        }
        return Page(
            f"{self.lang}/index.html",
            "home.html",
            {"coverage": self.coverage(), "kind_labels": labels, "page_kind": "home"},
            self.lang,
        )

    def contents_page(self) -> Page:
        """Parts and chapters."""
        parts = [
            {
                **self._heading(part),
                "chapters": [
                    {
                        **self._heading(chapter),
                        "translated": sum(
                            1
                            for r in chapter.children
                            for n in (r, *r.children)
                            if self.lang in n.translations
                        ),
                    }
                    for chapter in part.children
                ],
            }
            for part in self.data.parts
        ]
        return Page(
            f"{self.lang}/contents.html",
            "contents.html",
            {"parts": parts, "page_kind": "contents"},
            self.lang,
        )

    def glossary_page(self) -> Page:
        """Every glossary entry with its anchor, references and redirects linked."""
        root = page_root(f"{self.lang}/glossary.html")
        entries = []
        for entry in self.data.glossary:
            senses = entry["senses"] or [entry["definition"]]
            entries.append(
                {
                    "term": entry["term"],
                    "slug": glossary_slug(entry["term"]),
                    "language": entry["language"],
                    "obsolete": entry["obsolete"],
                    "senses": [
                        [self.linker.glossary(line, root) for line in s.splitlines() if line]
                        for s in senses
                    ],
                }
            )
        return Page(
            f"{self.lang}/glossary.html",
            "glossary.html",
            {
                "letters": _letters(entries, lambda e: e["term"], "entries"),
                "indexed": True,
                "page_kind": "glossary",
            },
            self.lang,
        )

    def change_pages(self) -> Iterator[Page]:
        """The list of edition diffs and one page per pair of consecutive editions."""
        diffs = []
        for diff in self.extras.diffs:
            diffs.append(diff)
            yield Page(
                f"{self.lang}/changes/{diff['slug']}.html",
                "diff.html",
                {"diff": diff, "page_kind": "changes"},
                self.lang,
            )
        yield Page(
            f"{self.lang}/changes/index.html",
            "changes.html",
            {"diffs": diffs, "page_kind": "changes"},
            self.lang,
        )

    def feed(self) -> Page | None:
        """An Atom feed of the rule changes: one entry per edition, with its diff summary."""
        if not self.extras.diffs:
            return None
        entries = []
        for diff in reversed(self.extras.diffs):
            entries.append({**diff, "html": _diff_html(diff, self._)})
        return Page(
            f"{self.lang}/changes/feed.xml",
            "feed.xml",
            {"entries": entries, "updated": self.extras.diffs[-1]["new"], "page_kind": "feed"},
            self.lang,
        )

    def whole_rules_page(self) -> Page | None:
        """Every rule and subrule on one page (an anchor each): what judges search with Ctrl-F."""
        if not self.data.parts:
            return None
        items = []
        for part in self.data.parts:
            for node in _walk(part):
                text = node.translations.get(self.lang) if self.lang != "en" else None
                text = text or node.english or next(iter(node.translations.values()), None)
                if text is None:
                    items.append(
                        {
                            "number": node.number,
                            "kind": node.kind,
                            "lang": self.lang,
                            "title": "",
                            "body": [],
                            "examples": [],
                        }
                    )
                    continue
                items.append(
                    {
                        "number": node.number,
                        "kind": node.kind,
                        "lang": text.language,
                        "title": text.title,
                        "body": [line for line in text.body.splitlines() if line.strip()],
                        "examples": text.examples,
                    }
                )
        return Page(
            f"{self.lang}/rules/all.html",
            "all_rules.html",
            {"items": items, "page_kind": "all-rules"},
            self.lang,
        )

    def translations_page(self, summaries: dict[str, dict[str, Any]]) -> Page:
        """Stale translations with what changed in English, and missing ones by chapter."""
        missing = []
        if self.lang != "en":
            for chapter in self.data.chapters():
                numbers = [
                    n.number
                    for r in chapter.children
                    for n in (r, *r.children)
                    if n.kind in NUMBERED and self._status(n) == "missing"
                ]
                if numbers:
                    missing.append({**self._heading(chapter), "numbers": numbers})
        stale = [s for s in self.extras.stale.get(self.lang, []) if s["number"] in self.data.nodes]
        return Page(
            f"{self.lang}/translations.html",
            "translations.html",
            {"summary": summaries, "stale": stale, "missing": missing, "page_kind": "translations"},
            self.lang,
        )

    def cite_page(self, path: str | None = None) -> Page:
        """The page that follows an old citation (``#2021-02-05/701.32``) to today's rule."""
        return Page(
            path or f"{self.lang}/cite.html",
            "cite.html",
            {"page_kind": "cite", "alt_subpath": "cite.html"},
            self.lang,
        )

    def search_page(self) -> Page:
        """The search page (Pagefind when served, titles and numbers from a file)."""
        return Page(f"{self.lang}/search.html", "search.html", {"page_kind": "search"}, self.lang)

    def search_data(self, card_shards: int = 0) -> dict[str, Any]:
        """What the search page needs without a server: rule numbers, titles, translated texts.

        Each entry is ``[label, url, key]``; ``key`` names the entry's text in the shared
        English texts (:func:`english_texts`) and in this language's ``texts``. ``cards``: how
        many shards of :meth:`card_search_data` a search loads.
        """
        rules = {}
        titles = []
        texts = {}
        for node in sorted(self.data.nodes.values(), key=lambda n: n.key):
            url = site_url("rule", self.lang, number=node.number).lstrip("/")
            rules[node.number] = url
            title = node.title_in(self.lang)
            titles.append([f"{node.number}. {title}" if title else node.number, url, node.number])
            translation = node.translations.get(self.lang)
            if translation is not None:
                texts[node.number] = _plain(translation)
        for entry in self.data.glossary:
            url = site_url("glossary", self.lang, term=entry["term"]).lstrip("/")
            titles.append([entry["term"], url, "g:" + entry["term"]])
        return {
            "lang": self.lang,
            "rules": rules,
            "titles": titles,
            "texts": texts,
            "cards": card_shards,
        }

    def card_search_data(self, batch: list[dict[str, Any]]) -> dict[str, Any]:
        """One shard of the cards' part of the file-based search (the cards of one batch).

        The shards are files of their own, loaded only on a search. Each entry is
        ``[label, url, key]``; ``texts`` holds the card's text in this language and in English
        under the same key.
        """
        titles = []
        texts = {}
        for card in batch:
            url = site_url("card", self.lang, key=card["key"]).lstrip("/")
            names = sorted({self._card_title(card), *card["names"].values()})
            key = "c:" + card["key"]
            titles.append([" / ".join(names), url, key])
            own = card["texts"].get(self.lang) if self.lang != "en" else None
            text = " ".join(t for t in (own, card["texts"].get("en")) if t)
            if text:
                texts[key] = text
        return {"titles": titles, "texts": texts}

    def pages(self, summaries: dict[str, dict[str, Any]]) -> Iterator[Page | LazyPage]:
        """Every page of this language."""
        yield self.home_page()
        yield self.contents_page()
        yield from self.part_pages()
        yield from self.chapter_pages()
        yield from self.rule_pages()
        yield self.glossary_page()
        yield from self.card_list_pages()  # the card pages themselves: card_pages(batch)
        yield from self.change_pages()
        for extra in (self.feed(), self.whole_rules_page()):
            if extra is not None:
                yield extra
        yield self.translations_page(summaries)
        yield self.search_page()
        if len(self.data.editions) > 1:
            yield self.cite_page()


def _walk(node: Node) -> Iterator[Node]:
    """A node then its descendants, in document order."""
    yield node
    for child in node.children:
        yield from _walk(child)


def _diff_html(diff: dict[str, Any], gettext: Callable[[str], str]) -> str:
    """The feed entry's HTML: which rules were added, changed, renumbered and removed."""
    parts = []
    for key, label in (
        ("added", gettext("added")),
        ("changed", gettext("changed")),
        ("renumbered", gettext("renumbered")),
        ("removed", gettext("removed")),
    ):
        items = diff[key]
        if not items:
            continue
        numbers = [
            str(i.get("new_number") or i.get("number"))
            + (f" ← {i['old_number']}" if key == "renumbered" else "")
            for i in items
        ]
        shown = ", ".join(numbers[:60]) + (" …" if len(numbers) > 60 else "")
        parts.append(f"<p><b>{escape(label)}</b> ({len(items)}): {escape(shown)}</p>")
    return "".join(parts)


def _plain(text: Text) -> str:
    return " ".join([text.title, text.body, *text.examples]).strip()


def english_texts(data: SiteData) -> dict[str, str]:
    """The English rule and glossary texts of the file-based search (shared by the languages)."""
    texts = {}
    for node in sorted(data.nodes.values(), key=lambda n: n.key):
        if node.english is not None:
            texts[node.number] = _plain(node.english)
    for entry in data.glossary:
        texts["g:" + entry["term"]] = entry["definition"]
    return texts

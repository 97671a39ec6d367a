"""Page builders: from the site data to (path, template, context) for every page of a language.

The views are computed here in Python (texts linked, badges chosen, fallbacks decided) so the
templates only lay them out. Every path is relative to the site root, in the shapes of
:mod:`kb.urls`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from kb.langs import fold
from kb.site.data import Node, SiteData, Text
from kb.site.env import page_root
from kb.site.extras import Extras
from kb.site.text import Linker
from kb.urls import glossary_slug, site_url

NUMBERED = ("rule", "subrule")


@dataclass(frozen=True)
class Page:
    """One page to render: where it goes, with which template and what it shows."""

    path: str
    template: str
    context: dict[str, Any]
    lang: str | None


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


class LanguageSite:
    """Builds every page of one language from the shared site data and extras."""

    def __init__(
        self,
        data: SiteData,
        extras: Extras,
        lang: str,
        gettext: Callable[[str], str],
    ) -> None:
        self.data = data
        self.extras = extras
        self.lang = lang
        self._ = gettext
        terms = [g["term"] for g in data.glossary]
        self.linker = Linker(data.nodes, lang, terms)
        self.glossary_terms = {fold(t): t for t in terms}
        self.status = extras.status.get(lang, {})
        self.card_titles = {card["key"]: self._card_title(card) for card in data.cards}

    # --- rules ---------------------------------------------------------------------------------

    def _status(self, node: Node) -> str:
        """current | stale | missing: the state of this node's translation in the language."""
        info = self.status.get(node.number)
        if info is not None:
            return str(info["status"])
        return "current" if self.lang in node.translations else "missing"

    def _column(self, text: Text, role: str, root: str, badges: list[str]) -> dict[str, Any]:
        return {
            "lang": text.language,
            "role": role,
            "paras": self.linker.paragraphs(text.body, text.language, root),
            "examples": [self.linker(e, text.language, root) for e in text.examples],
            "badges": badges,
            "follows": text.follows if role == "translation" else None,
            "assumed": text.assumed,
            "show_label": True,
        }

    def _item(self, node: Node, root: str, quiet_missing: bool) -> dict[str, Any]:
        lang = self.lang
        columns: list[dict[str, Any]] = []
        note = None
        english = node.english
        translation = node.translations.get(lang) if lang != "en" else None
        if lang == "en":
            if english is not None:
                column = self._column(english, "english", root, [])
                column["show_label"] = False
                columns.append(column)
            else:
                for _code, text in sorted(node.translations.items()):
                    columns.append(self._column(text, "translation", root, [text.provenance]))
                note = "no-english" if node.translations else None
        else:
            if translation is not None:
                badges = [translation.provenance]
                if self._status(node) == "stale":
                    badges.append("stale")
                columns.append(self._column(translation, "translation", root, badges))
            if english is not None:
                columns.append(self._column(english, "english", root, ["official"]))
                if translation is None and not quiet_missing and node.kind in NUMBERED:
                    note = "missing"
            elif translation is not None:
                note = "no-english"
        if not any(c["paras"] or c["examples"] for c in columns):
            columns = []
            note = note if note == "no-english" else None
        return {"number": node.number, "kind": node.kind, "columns": columns, "note": note}

    def _rule(self, node: Node, root: str) -> dict[str, Any]:
        family = [node, *node.children]
        translated = [n for n in family if self.lang in n.translations]
        quiet = self.lang != "en" and not translated
        item = self._item(node, root, quiet)
        if quiet and node.english is not None:
            item["note"] = "missing"
            if not item["columns"]:
                item["columns"] = [self._column(node.english, "english", root, ["official"])]
                item["columns"][0]["show_label"] = False
        item["title"] = node.title_in(self.lang)
        item["title_en"] = node.english.title if node.english else ""
        badges: list[str] = []
        if self.lang != "en" and translated:
            stale = any(self._status(n) == "stale" for n in translated)
            if stale:
                badges.append("stale")
        item["badges"] = badges
        item["subrules"] = [self._item(child, root, quiet) for child in node.children]
        _label_changes_only([item, *item["subrules"]])
        item["glossary"] = self.glossary_terms.get(fold(node.title)) if node.title else None
        item["history"] = [
            {**event, "url": root + event["url"].format(lang=self.lang).lstrip("/")}
            for event in self.extras.history.get(node.number, [])
        ]
        item["clarifications"] = self._clarifications(node, root)
        item["cited_by"], item["cards"] = self._cited_by(node, root)
        return item

    def _clarifications(self, node: Node, root: str) -> list[dict[str, Any]]:
        result = []
        for clar in self.extras.clarifications.get(node.number, []):
            texts = clar["texts"]
            code = self.lang if self.lang in texts else ("en" if "en" in texts else None)
            if code is None:
                continue
            result.append(
                {
                    "date": clar["date"],
                    "cards": [
                        {"key": c["key"], "name": self.card_titles.get(c["key"], c["name"])}
                        for c in clar["cards"]
                        if c["key"] in self.card_titles
                    ],
                    "rules": clar["rules"],
                    "lang": code,
                    "text": self.linker(texts[code]["text"], code, root),
                }
            )
        return result

    def _cited_by(self, node: Node, root: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The rules and glossary entries citing the rule, and the cards whose text uses it."""
        texts, cards = [], []
        for cite in self.extras.cited_by.get(node.number, []):
            if cite["card"]:
                if cite["card"] in self.card_titles:
                    url = site_url("card", self.lang, key=cite["card"])
                    label = self.card_titles[cite["card"]]
                    cards.append({"label": label, "url": root + url.lstrip("/")})
                continue
            if cite["number"] and cite["number"] in self.data.nodes:
                url = site_url("rule", self.lang, number=cite["number"])
            elif cite["term"]:
                url = site_url("glossary", self.lang, term=cite["term"])
            else:
                continue
            texts.append({"label": cite["label"], "url": root + url.lstrip("/")})
        cards.sort(key=lambda c: (fold(c["label"]), c["url"]))
        return texts, cards

    def chapter_pages(self) -> Iterator[Page]:
        """One page per chapter with its rules and subrules, and one per part."""
        parts = self.data.parts
        chapters = self.data.chapters()
        for index, chapter in enumerate(chapters):
            path = f"{self.lang}/rules/{chapter.number}.html"
            root = page_root(path)
            family = [n for r in chapter.children for n in (r, *r.children)]
            numbered = [n for n in family if n.kind in NUMBERED]
            yield Page(
                path,
                "chapter.html",
                {
                    "chapter": self._heading(chapter),
                    "part": self._heading(self.data.nodes[chapter.parent or chapter.number[0]]),
                    "rules": [self._rule(r, root) for r in chapter.children],
                    "coverage": {
                        "translated": sum(self._status(n) != "missing" for n in numbered),
                        "total": len(numbered),
                    },
                    "previous": self._heading(chapters[index - 1]) if index else None,
                    "next": self._heading(chapters[index + 1])
                    if index + 1 < len(chapters)
                    else None,
                    "indexed": True,
                    "page_kind": "rules",
                },
                self.lang,
            )
        for index, part in enumerate(parts):
            path = f"{self.lang}/rules/{part.number}.html"
            yield Page(
                path,
                "part.html",
                {
                    "part": self._heading(part),
                    "chapters": [
                        {
                            **self._heading(chapter),
                            "rules": [
                                {
                                    **self._heading(rule),
                                    "badge": self._status(rule) if self.lang != "en" else None,
                                    "badge_label": self._status(rule),
                                }
                                for rule in chapter.children
                            ],
                        }
                        for chapter in part.children
                    ],
                    "previous": self._heading(parts[index - 1]) if index else None,
                    "next": self._heading(parts[index + 1]) if index + 1 < len(parts) else None,
                    "page_kind": "rules",
                },
                self.lang,
            )

    def _heading(self, node: Node) -> dict[str, str]:
        return {
            "number": node.number,
            "title": node.title_in(self.lang),
            "title_en": node.english.title if node.english else "",
        }

    # --- site pages ----------------------------------------------------------------------------

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
        rulings = {r["id"]: r for c in cards for r in c["rulings"]}
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
            "rulings": len(rulings),
            "ruling_texts": sum(1 for r in rulings.values() if self.lang in r["texts"]),
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

    def _card_title(self, card: dict[str, Any]) -> str:
        if card["is_page"] and card["name"] == card["key"]:
            return self._("Rulings page %(id)s") % {"id": card["key"]}
        return str(card["names"].get(self.lang) or card["name"])

    def card_pages(self) -> Iterator[Page]:
        """One page per card, then the list of cards."""
        shared: dict[int, int] = {}
        for card in self.data.cards:
            for ruling in card["rulings"]:
                shared[ruling["id"]] = shared.get(ruling["id"], 0) + 1
        listing = []
        for card in self.data.cards:
            path = f"{self.lang}/cards/{quote(card['key'], safe='')}.html"
            root = page_root(path)
            title = self._card_title(card)
            text_lang = self.lang if card["texts"].get(self.lang) else "en"
            type_lang = self.lang if card["type_lines"].get(self.lang) else "en"
            rulings = []
            for ruling in card["rulings"]:
                codes = [c for c in dict.fromkeys([self.lang, "en"]) if c in ruling["texts"]]
                codes = codes or sorted(ruling["texts"])
                rulings.append(
                    {
                        "id": ruling["id"],
                        "date": ruling["date"],
                        "source": ruling["source"],
                        "shared": shared[ruling["id"]],
                        "rules": self.extras.rules_of_clarification.get(ruling["id"], []),
                        "columns": [
                            {
                                "lang": code,
                                "provenance": ruling["texts"][code]["provenance"],
                                "html": self.linker(ruling["texts"][code]["text"], code, root),
                            }
                            for code in codes
                        ],
                    }
                )
            view = {
                "key": card["key"],
                "title": title,
                "is_page": card["is_page"],
                "names": {code: card["names"].get(code) for code in ("en", "fr", "es")},
                "mana_value": card["mana_value"],
                "type_line": card["type_lines"].get(type_lang, ""),
                "type_lang": type_lang,
                "text": [
                    self.linker(line, text_lang, root)
                    for line in (card["texts"].get(text_lang) or "").splitlines()
                    if line.strip()
                ],
                "text_lang": text_lang,
                "attributes": sorted(card["attributes"].items()),
                "pages": card["pages"],
                "rulings": rulings,
            }
            if view["names"]["en"] is None and not card["is_page"]:
                view["names"]["en"] = card["name"]
            listing.append(
                {"key": card["key"], "title": title, "name": card["name"], "rulings": len(rulings)}
            )
            yield Page(
                path, "card.html", {"card": view, "indexed": True, "page_kind": "cards"}, self.lang
            )
        listing.sort(key=lambda c: (fold(c["title"]), c["key"]))
        yield Page(
            f"{self.lang}/cards/index.html",
            "cards.html",
            {
                "cards": listing,
                "letters": _letters(listing, lambda c: c["title"], "cards"),
                "page_kind": "cards",
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

    def search_page(self) -> Page:
        """The search page (Pagefind when served, titles and numbers from a file)."""
        return Page(f"{self.lang}/search.html", "search.html", {"page_kind": "search"}, self.lang)

    def search_data(self) -> dict[str, Any]:
        """What the search page needs without a server: rule numbers, titles, translated texts.

        Each entry is ``[label, url, key]``; ``key`` names the entry's text in the shared
        English texts (:func:`english_texts`) and in this language's ``texts``.
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
        for card in self.data.cards:
            url = site_url("card", self.lang, key=card["key"]).lstrip("/")
            names = sorted({self._card_title(card), *card["names"].values()})
            titles.append([" / ".join(names), url, "c:" + card["key"]])
            if self.lang != "en" and card["texts"].get(self.lang):
                texts["c:" + card["key"]] = card["texts"][self.lang]
        return {"lang": self.lang, "rules": rules, "titles": titles, "texts": texts}

    def pages(self, summaries: dict[str, dict[str, Any]]) -> Iterator[Page]:
        """Every page of this language."""
        yield self.home_page()
        yield self.contents_page()
        yield from self.chapter_pages()
        yield self.glossary_page()
        yield from self.card_pages()
        yield from self.change_pages()
        yield self.translations_page(summaries)
        yield self.search_page()


def _label_changes_only(items: list[dict[str, Any]]) -> None:
    """Show language labels and notes only where they change from the item above (less noise)."""
    previous_signature: tuple[Any, ...] | None = None
    previous_note = None
    for item in items:
        if not item["columns"]:
            continue
        signature = tuple((c["lang"], tuple(c["badges"]), c["follows"]) for c in item["columns"])
        if signature == previous_signature:
            for column in item["columns"]:
                column["show_label"] = False
        else:
            previous_signature = signature
        if item["note"] is not None and item["note"] == previous_note:
            item["note"] = None
        else:
            previous_note = item["note"] or previous_note


def _plain(text: Text) -> str:
    return " ".join([text.title, text.body, *text.examples]).strip()


def english_texts(data: SiteData) -> dict[str, str]:
    """The English texts the file-based search looks into (shared by the three languages)."""
    texts = {}
    for node in sorted(data.nodes.values(), key=lambda n: n.key):
        if node.english is not None:
            texts[node.number] = _plain(node.english)
    for entry in data.glossary:
        texts["g:" + entry["term"]] = entry["definition"]
    for card in data.cards:
        if card["texts"].get("en"):
            texts["c:" + card["key"]] = card["texts"]["en"]
    return texts

"""The rule pages: one page per rule, a table of rules per chapter, a page per part.

A rule's page holds its text, every subrule (anchor ``#701.54a``) and example, the translation
beside the English with its badges, its history, the rulings linked to it and what cites it;
the chapter page is the table of its rules and keeps an ``id`` per rule so that the chapter
anchors of earlier links (``701.html#701.54``) still lead to the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from kb.langs import LANGS, fold
from kb.lookup import PROVENANCE_ORDER
from kb.site.data import Node, SiteData, Text
from kb.site.env import page_root
from kb.site.extras import Extras
from kb.site.text import Linker
from kb.urls import site_url

NUMBERED = ("rule", "subrule")


def N_(message: str) -> str:
    """Mark a string for extraction (translated when a page is built)."""
    return message


# The tooltip of the translation state dot on the part pages.
STATUS_LABELS = {
    "current": N_("translation up to date"),
    "stale": N_("translation stale: the English has changed since"),
    "missing": N_("not translated"),
}
FIRST_WORDS = 72  # characters of an untitled rule's text that stand for its title


@dataclass(frozen=True)
class Page:
    """One page to render: where it goes, with which template and what it shows."""

    path: str
    template: str
    context: dict[str, Any]
    lang: str | None


class LazyPage:
    """A page whose context is computed only when it is rendered: ``inputs`` digests its inputs.

    A build that finds the page's input digest unchanged keeps the page as written before
    without computing its context (a card page's linked texts cost more than its digest).
    """

    def __init__(
        self,
        path: str,
        template: str,
        lang: str | None,
        inputs: str,
        make: Callable[[], dict[str, Any]],
    ) -> None:
        self.path = path
        self.template = template
        self.lang = lang
        self.inputs = inputs
        self._make = make

    @cached_property
    def context(self) -> dict[str, Any]:
        """The page's context, computed once."""
        return self._make()


def first_words(text: str, limit: int = FIRST_WORDS) -> str:
    """The start of a text, cut at a word boundary with an ellipsis when it is longer."""
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    if len(line) <= limit:
        return line
    cut = line[: limit + 1].rsplit(" ", 1)[0].rstrip(" ,;:.–—")
    return cut + "…"


class RulePages:
    """The rule, chapter and part pages of one language (and what the other pages share)."""

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

    def _card_title(self, card: dict[str, Any]) -> str:
        """The card's name in the language (the card pages give unnamed rulings pages a title)."""
        return str(card["names"].get(self.lang) or card["name"])

    # --- one rule ------------------------------------------------------------------------------

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
            elif node.translations:  # neither English nor this language: what there is
                for _code, text in sorted(node.translations.items()):
                    columns.append(self._column(text, "translation", root, [text.provenance]))
                note = "no-english"
        if not any(c["paras"] or c["examples"] for c in columns):
            columns = []
            note = note if note == "no-english" else None
        return {
            "number": node.number,
            "kind": node.kind,
            "columns": columns,
            "note": note,
            "history": self._history(node, root),
        }

    def _history(self, node: Node, root: str) -> list[dict[str, Any]]:
        return [
            {**event, "url": root + event["url"].format(lang=self.lang).lstrip("/")}
            for event in self.extras.history.get(node.number, [])
        ]

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
        item.update(self._heading(node))
        badges: list[str] = []
        if self.lang != "en" and translated:
            stale = any(self._status(n) == "stale" for n in translated)
            if stale:
                badges.append("stale")
        item["badges"] = badges
        item["subrules"] = [self._item(child, root, quiet) for child in node.children]
        # A subrule added or renumbered with its rule says nothing the rule's history does not.
        implied = {(e["status"], e["edition"]) for e in item["history"] if e["status"] != "changed"}
        for sub in item["subrules"]:
            sub["history"] = [
                e for e in sub["history"] if (e["status"], e["edition"]) not in implied
            ]
        _label_changes_only([item, *item["subrules"]])
        item["versions"] = self.extras.versions.get(node.number, [])
        item["loaded_editions"] = len(self.data.editions)
        item["glossary"] = self.glossary_terms.get(fold(node.title)) if node.title else None
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

    def _texts(self, node: Node) -> list[Text]:
        """The node's texts in the order a title is looked for: this language, English, others."""
        others = [node.translations[code] for code in sorted(node.translations)]
        return [t for t in (node.translations.get(self.lang), node.english, *others) if t]

    def _heading(self, node: Node) -> dict[str, Any]:
        """Number, title (translated if it can be), and the label standing for it, its language.

        An untitled rule (``100.1``) is labelled by the first words of its text; ``full`` is what
        names the node in breadcrumbs and pagers (``701.54. The Ring Tempts You``).
        """
        texts = self._texts(node)
        titled = next((t for t in texts if t.title), None)
        if titled is not None:
            title, label, label_lang = titled.title, titled.title, titled.language
        else:
            title, label, label_lang = "", "", self.lang
            if texts:
                label, label_lang = first_words(texts[0].body), texts[0].language
        return {
            "number": node.number,
            "title": title,
            "title_en": node.english.title if node.english else "",
            "label": label,
            "label_lang": label_lang,
            "full": f"{node.number}. {label}" if label else node.number,
        }

    # --- pages ---------------------------------------------------------------------------------

    def _part_of(self, chapter: Node) -> Node:
        return self.data.nodes[chapter.parent or chapter.number[0]]

    def rule_pages(self) -> Iterator[Page]:
        """One page per rule with its subrules and examples, previous and next in its chapter;
        a rule with more rulings or cards than its page shows has their whole lists besides."""
        from kb.site import rule_lists  # it builds on this module

        for chapter in self.data.chapters():
            part = self._heading(self._part_of(chapter))
            heading = self._heading(chapter)
            rules = chapter.children
            for index, node in enumerate(rules):
                path = f"{self.lang}/rules/{node.number}.html"
                item = self._rule(node, page_root(path))
                rule_lists.trim(self, node, item)
                yield from rule_lists.list_pages(self, node, self._heading(node), heading)
                yield Page(
                    path,
                    "rule.html",
                    {
                        "rule": item,
                        "chapter": heading,
                        "part": part,
                        "previous": self._heading(rules[index - 1]) if index else None,
                        "next": self._heading(rules[index + 1]) if index + 1 < len(rules) else None,
                        "indexed": True,
                        "page_kind": "rule",
                    },
                    self.lang,
                )

    def _row(self, rule: Node) -> dict[str, Any]:
        """A rule in its chapter's table: label, how much of it is translated, and how."""
        family = [n for n in (rule, *rule.children) if n.kind in NUMBERED]
        translated = [n for n in family if self.lang in n.translations]
        badges: list[str] = []
        if self.lang != "en":
            kinds = {n.translations[self.lang].provenance for n in translated}
            badges = sorted(kinds, key=lambda k: (PROVENANCE_ORDER.get(k, 9), k)) or ["missing"]
            if any(self._status(n) == "stale" for n in translated):
                badges.append("stale")
        # On the English table: the languages the rule is translated into, to go and read.
        languages = [
            code
            for code in LANGS
            if self.lang == "en" != code and any(code in n.translations for n in family)
        ]
        return {
            **self._heading(rule),
            "subrules": len(rule.children),
            "badges": badges,
            "translated": len(translated),
            "total": len(family),
            "languages": languages,
        }

    def chapter_pages(self) -> Iterator[Page]:
        """One page per chapter: the table of its rules, each linking to the rule's page."""
        chapters = self.data.chapters()
        for index, chapter in enumerate(chapters):
            family = [n for r in chapter.children for n in (r, *r.children)]
            numbered = [n for n in family if n.kind in NUMBERED]
            yield Page(
                f"{self.lang}/rules/{chapter.number}.html",
                "chapter.html",
                {
                    "chapter": self._heading(chapter),
                    "part": self._heading(self._part_of(chapter)),
                    "rules": [self._row(r) for r in chapter.children],
                    "coverage": {
                        "translated": sum(self._status(n) != "missing" for n in numbered),
                        "total": len(numbered),
                    },
                    "previous": self._heading(chapters[index - 1]) if index else None,
                    "next": self._heading(chapters[index + 1])
                    if index + 1 < len(chapters)
                    else None,
                    "page_kind": "chapter",
                },
                self.lang,
            )

    def part_pages(self) -> Iterator[Page]:
        """One page per part: its chapters and their rules."""
        parts = self.data.parts
        for index, part in enumerate(parts):
            yield Page(
                f"{self.lang}/rules/{part.number}.html",
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
                                    "badge_label": self._(STATUS_LABELS[self._status(rule)]),
                                }
                                for rule in chapter.children
                            ],
                        }
                        for chapter in part.children
                    ],
                    "previous": self._heading(parts[index - 1]) if index else None,
                    "next": self._heading(parts[index + 1]) if index + 1 < len(parts) else None,
                    "page_kind": "part",
                },
                self.lang,
            )


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

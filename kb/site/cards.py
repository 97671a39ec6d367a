"""The card pages: one page per card, lists by initial and by set (paginated), one page per set.

A card page shows what a judge looks for: the mana cost as labelled symbols, each face's type
line, English Oracle text, power/toughness, loyalty and defense, the printed text in the page's
language beside the Oracle text with where it comes from, the printings linking to their sets,
the legalities, and the rulings with the other cards sharing each one named and linked. A rulings
page no card data names yet gets a readable title from what it holds; its page id is kept for
the curious in a collapsed details line only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

from babel.dates import format_date

from kb.langs import fold, locale
from kb.site.env import page_root, pager
from kb.site.mana import symbols
from kb.site.rules import LazyPage, Page, RulePages
from kb.urls import card_file, site_url

PER_PAGE = 400  # entries per page of a card list: keeps every list page far under 1 MB
SHARED_NAMED = 60  # cards named for a shared ruling before "and N more"
SHARED_SORTED = 8  # a ruling carried by more cards has its sorted carriers remembered
LEGALITY_ORDER = ("Legal", "Restricted", "Banned", "Not Legal")
_WORD_EDGE = re.compile(r"\w")


def _letter_id(title: str) -> str:
    first = fold(title)[:1].lower()
    return first if first.isascii() and first.isalpha() else "other"


def _chunks(items: list[Any], size: int = PER_PAGE) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


class CardPages(RulePages):
    """Card, card list and set pages of one language (mixed into the language's site)."""

    def _init_cards(self) -> None:
        """What every card page shares: who carries each ruling, the names rulings can mention."""
        if hasattr(self, "_holders"):
            return
        self._holders: dict[int, list[str]] = {}
        self._sorted_holders: dict[int, list[tuple[str, str]]] = {}
        for card in self.data.cards:
            for ruling_id in card["ruling_ids"]:
                self._holders.setdefault(ruling_id, []).append(card["key"])

    # --- titles ----------------------------------------------------------------------------------

    def _card_title(self, card: dict[str, Any]) -> str:
        if card["is_page"] and card["name"] == card["key"]:
            return self._page_title(card)
        return str(card["names"].get(self.lang) or card["name"])

    def _page_title(self, card: dict[str, Any]) -> str:
        """A readable title for a rulings page no card names: its date, rulings, names it cites."""
        _ = self._
        dates = card.get("ruling_dates") or []
        count = len(dates)
        when = (
            format_date(dt.date.fromisoformat(dates[-1]), "long", locale=locale(self.lang))
            if dates
            else _("no date")
        )
        title = _("Unidentified card: %(count)s rulings of %(date)s") % {
            "count": count,
            "date": when,
        }
        names = card.get("mentions") or []
        if names:
            title += " — " + _("names %(names)s") % {"names": ", ".join(names)}
        return title

    # --- one card --------------------------------------------------------------------------------

    def _faces(self, card: dict[str, Any], root: str) -> list[dict[str, Any]]:
        faces = []
        for detail in card["face_details"]:
            text = detail.get("text", "")
            faces.append(
                {
                    "name": detail.get("name", ""),
                    "mana_cost": symbols(detail.get("mana_cost", ""), self._),
                    "type_line": detail.get("type_line", ""),
                    "text": [
                        symbols(self.linker(line, "en", root), self._)
                        for line in text.splitlines()
                        if line.strip()
                    ],
                    "power": detail.get("power"),
                    "toughness": detail.get("toughness"),
                    "loyalty": detail.get("loyalty"),
                    "defense": detail.get("defense"),
                }
            )
        return faces

    def _rarity(self, rarity: str) -> str:
        rarities = {
            "common": self._("common"),
            "uncommon": self._("uncommon"),
            "rare": self._("rare"),
            "mythic": self._("mythic rare"),
            "special": self._("special"),
            "bonus": self._("bonus"),
        }
        return rarities.get(rarity, rarity)

    def _printings(self, card: dict[str, Any]) -> list[dict[str, Any]]:
        result = []
        for printing in card["printings"]:
            found = self.data.sets.get(printing["set"])
            result.append(
                {
                    "set": printing["set"],
                    "set_name": found["name"] if found else "",
                    "url": site_url("set", self.lang, code=printing["set"]) if found else None,
                    "number": printing["number"],
                    "rarity": self._rarity(printing["rarity"]),
                }
            )
        return result

    def _legalities(self, card: dict[str, Any]) -> list[dict[str, str]]:
        labels = {
            "Legal": self._("legal"),
            "Restricted": self._("restricted"),
            "Banned": self._("banned"),
            "Not Legal": self._("not legal"),
        }
        rows = [
            {
                "format": fmt.capitalize(),
                "status": status.lower().replace(" ", "-"),
                "label": labels.get(status, status),
            }
            for fmt, status in card["legalities"].items()
        ]
        order = {s.lower().replace(" ", "-"): i for i, s in enumerate(LEGALITY_ORDER)}
        rows.sort(key=lambda r: (order.get(r["status"], 9), r["format"]))
        return rows

    def _sharers(self, ruling_id: int) -> list[tuple[str, str]]:
        """The titled cards carrying a ruling, ``(key, title)`` in name order.

        Sorted once per widely shared ruling, not once per card page carrying it (a ruling
        shared by hundreds of cards cost each of their pages a fold of every name).
        """
        found = self._sorted_holders.get(ruling_id)
        if found is None:
            holders = [
                (k, self.card_titles[k])
                for k in self._holders.get(ruling_id, [])
                if k in self.card_titles
            ]
            found = sorted(holders, key=lambda c: (fold(c[1]), c[0]))
            if len(found) > SHARED_SORTED:
                self._sorted_holders[ruling_id] = found
        return found

    def _ruling(self, ruling: dict[str, Any], card: dict[str, Any], root: str) -> dict[str, Any]:
        codes = [c for c in dict.fromkeys([self.lang, "en"]) if c in ruling["texts"]]
        codes = codes or sorted(ruling["texts"])
        others = [k for k in self._holders.get(ruling["id"], []) if k != card["key"]]
        named = [c for c in self._sharers(ruling["id"]) if c[0] != card["key"]]
        return {
            "id": ruling["id"],
            "date": ruling["date"],
            "source": ruling["source"],
            "shared": len(others) + 1,
            "others": [{"key": k, "title": title} for k, title in named[:SHARED_NAMED]],
            "more": max(0, len(named) - SHARED_NAMED),
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

    def card_view(self, card: dict[str, Any], root: str) -> dict[str, Any]:
        """Everything one card page shows, texts linked and symbols labelled."""
        self._init_cards()
        lang = self.lang
        printed = card["texts"].get(lang) if lang != "en" else None
        oracle = card["texts"].get("en") or ""
        view = {
            "key": card["key"],
            "title": self._card_title(card),
            "is_page": card["is_page"],
            "names": {code: card["names"].get(code) for code in ("en", "fr", "es")},
            "mana_value": card["mana_value"],
            "mana_cost": symbols(card["mana_cost"], self._),
            "faces": self._faces(card, root),
            "type_line": card["type_lines"].get("en", ""),
            "printed_type_line": card["type_lines"].get(lang) if lang != "en" else None,
            "oracle": [
                symbols(self.linker(line, "en", root), self._)
                for line in oracle.splitlines()
                if line.strip()
            ],
            "printed": [
                symbols(self.linker(line, lang, root), self._)
                for line in (printed or "").splitlines()
                if line.strip()
            ],
            "printed_provenance": card.get("text_provenance", {}).get(lang, "official"),
            "attributes": sorted(card["attributes"].items()),
            "pages": card["pages"],
            "printings": self._printings(card),
            "legalities": self._legalities(card),
            "mentions": card.get("mentions") or [],
            "rulings": [self._ruling(r, card, root) for r in card["rulings"]],
        }
        if view["names"]["en"] is None and not card["is_page"]:
            view["names"]["en"] = card["name"]
        return view

    # --- pages -----------------------------------------------------------------------------------

    def shared_card_inputs(self, batch: list[dict[str, Any]]) -> dict[str, str]:
        """Per card of a batch: a digest of what its page is made of in every language.

        The card's data, the rules its rulings link to, its sets and the rules references can
        link to are the same in each language: digested once per card, not once per page (the
        card's data is most of what a page's digest reads).
        """
        if not hasattr(self, "_known_digest"):
            known = "\n".join(sorted(self.linker.known))  # the rules references can link to
            self._known_digest = hashlib.sha256(known.encode()).hexdigest()
        result = {}
        for card in batch:
            ids = [ruling["id"] for ruling in card["rulings"]]
            payload = [
                self._known_digest,
                {k: v for k, v in card.items() if k != "id"},  # a database id is no page input
                [self.extras.rules_of_clarification.get(i, []) for i in ids],
                [self.data.sets.get(p["set"]) for p in card["printings"]],
            ]
            text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            result[card["key"]] = hashlib.sha256(text.encode()).hexdigest()
        return result

    def _card_inputs(self, card: dict[str, Any], shared: str) -> str:
        """A digest of everything a card page's context is computed from (cheaper than it):
        ``shared`` (:meth:`shared_card_inputs`) and the titles, in this language, of the cards
        sharing its rulings."""
        holders = [
            [(k, self.card_titles.get(k)) for k in self._holders.get(ruling["id"], [])]
            for ruling in card["rulings"]
        ]
        text = json.dumps([shared, holders], ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def card_pages(
        self, batch: list[dict[str, Any]], shared: dict[str, str] | None = None
    ) -> Iterator[LazyPage]:
        """One page per card of a batch of full cards (:meth:`SiteData.card_batches`).

        A card page's context is computed only if the page is rendered (see :class:`LazyPage`).
        ``shared``: the batch's :meth:`shared_card_inputs` (computed here if not given).
        """
        self._init_cards()
        shared = shared if shared is not None else self.shared_card_inputs(batch)
        for card in batch:
            path = f"{self.lang}/cards/{card_file(card['key'])}.html"

            def make(card: dict[str, Any] = card, path: str = path) -> dict[str, Any]:
                return {"card": self.card_view(card, page_root(path)), "page_kind": "cards"}

            inputs = self._card_inputs(card, shared[card["key"]])
            yield LazyPage(path, "card.html", self.lang, inputs, make)

    def card_list_pages(self) -> Iterator[Page]:
        """The lists by initial and by set (paginated), and one page per set, from the index."""
        self._init_cards()
        listing = [
            {
                "key": card["key"],
                "title": self.card_titles[card["key"]],
                "name": card["name"],
                "rulings": len(card["ruling_ids"]),
                "letter": "other" if card["is_page"] else _letter_id(self.card_titles[card["key"]]),
            }
            for card in self.data.cards
        ]
        listing.sort(key=lambda c: (fold(c["title"]), c["key"]))
        yield from self._letter_pages(listing)
        yield from self._set_pages()

    def _letter_pages(self, listing: list[dict[str, Any]]) -> Iterator[Page]:
        """The cards by initial; every language has the same letter pages (the language switch
        of one leads to the other's), a letter no name in this language starts with says so."""
        groups: dict[str, list[dict[str, Any]]] = {}
        for entry in listing:
            groups.setdefault(entry["letter"], []).append(entry)
        every = {"other"} if any(c["is_page"] for c in self.data.cards) else set()
        for card in self.data.cards:
            if not card["is_page"]:
                every.update(_letter_id(n) for n in (card["name"], *card["names"].values()))
        for letter in every:
            groups.setdefault(letter, [])
        letters = sorted(groups, key=lambda x: (x == "other", x))
        summary = [
            {
                "id": letter,
                "label": "#" if letter == "other" else letter.upper(),
                "count": len(groups[letter]),
                "url": site_url("letter", self.lang, letter=letter),
            }
            for letter in letters
        ]
        sets = sorted(self.data.sets.values(), key=lambda s: (s["released"] or "", s["code"]))
        yield Page(
            f"{self.lang}/cards/index.html",
            "cards.html",
            {
                "total": len(listing),
                "letters": summary,
                "sets": [
                    {**s, "url": site_url("set", self.lang, code=s["code"])} for s in reversed(sets)
                ],
                "page_kind": "cards",
            },
            self.lang,
        )
        for item in summary:
            chunks = _chunks(groups[item["id"]])
            for number, chunk in enumerate(chunks, 1):
                url = site_url("letter", self.lang, letter=item["id"], page=str(number))
                yield Page(
                    url.lstrip("/"),
                    "card_list.html",
                    {
                        "heading": item["label"],
                        "cards": chunk,
                        "letters": summary,
                        "current": item["id"],
                        "alt_subpath": site_url("letter", self.lang, letter=item["id"]).split(
                            "/", 2
                        )[2],
                        "pager": _pager(
                            number, len(chunks), "letter", self.lang, {"letter": item["id"]}
                        ),
                        "page_kind": "cards",
                    },
                    self.lang,
                )

    def _set_pages(self) -> Iterator[Page]:
        members: dict[str, list[dict[str, Any]]] = {code: [] for code in self.data.sets}
        for card in self.data.cards:
            for printing in card["printings"]:
                if printing["set"] in members:
                    members[printing["set"]].append(
                        {
                            "key": card["key"],
                            "title": self.card_titles[card["key"]],
                            "name": card["name"],
                            "number": printing["number"],
                            "rarity": self._rarity(printing["rarity"]),
                        }
                    )
        for code, found in sorted(self.data.sets.items()):
            rows = sorted(members[code], key=lambda r: (_natural(r["number"]), r["key"]))
            chunks = _chunks(rows)
            for number, chunk in enumerate(chunks, 1):
                url = site_url("set", self.lang, code=code, page=str(number))
                yield Page(
                    url.lstrip("/"),
                    "set.html",
                    {
                        "set": found,
                        "printings": chunk,
                        "total": len(rows),
                        "pager": _pager(number, len(chunks), "set", self.lang, {"code": code}),
                        "page_kind": "cards",
                    },
                    self.lang,
                )


def _natural(number: str) -> tuple[int, str]:
    digits = "".join(c for c in number if c.isdigit())
    return (int(digits) if digits else 0, number)


def _pager(number: int, total: int, kind: str, lang: str, keys: dict[str, str]) -> dict[str, Any]:
    """A card list's pager (site-absolute URLs)."""
    return pager(number, total, lambda page: site_url(kind, lang, **keys, page=str(page)))

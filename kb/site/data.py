"""What the site shows, read from the database in a few bulk queries (no query per page).

Everything here is plain data (dicts, lists, tuples) in a deterministic order, so rendering is a
pure function of it and two builds of the same knowledge base are byte-identical.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.corpus.numbers import kind_of, parent_of, sort_key
from kb.errors import NotFoundError
from kb.langs import LANGS
from kb.lookup import find_edition, translations_for
from kb.models import (
    CardSet,
    Edition,
    GlossaryEntry,
    Rule,
    RuleText,
)
from kb.readmodel import examples_by_text, rule_text_rows
from kb.site import card_data, stages


@dataclass
class Text:
    """A rule's title, body and examples in one language, and where the text comes from."""

    language: str
    title: str
    body: str
    examples: list[str]
    provenance: str
    follows: str | None = None
    assumed: bool = False


@dataclass
class Node:
    """A part, chapter, rule or subrule of the edition shown, with its texts per language."""

    number: str
    kind: str
    parent: str | None
    key: str
    english: Text | None = None
    translations: dict[str, Text] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)

    @property
    def title(self) -> str:
        """The English title, else any translated one."""
        if self.english and self.english.title:
            return self.english.title
        for lang in sorted(self.translations):
            if self.translations[lang].title:
                return self.translations[lang].title
        return ""

    def title_in(self, lang: str) -> str:
        """The title in a language, falling back to English."""
        text = self.translations.get(lang)
        if text and text.title:
            return text.title
        return self.title


@dataclass
class SiteData:
    """Everything the page builders need."""

    edition: str | None
    edition_id: int | None
    editions: list[str]
    nodes: dict[str, Node]
    parts: list[Node]
    glossary: list[dict[str, Any]]
    cards: list[dict[str, Any]]  # the card index (kb.site.card_data): not the card pages' data
    translated_numbers: dict[str, set[str]]
    sets: dict[str, dict[str, Any]] = field(default_factory=dict)
    card_reader: Callable[[Sequence[dict[str, Any]]], list[dict[str, Any]]] | None = None
    ruling_count: int = 0  # rulings the cards carry
    ruling_texts: dict[str, int] = field(default_factory=dict)  # of those, with a text per language

    def node(self, number: str) -> Node | None:
        """The node of a rule number, if the site shows it."""
        return self.nodes.get(number)

    def card_batches(self, size: int | None = None) -> Iterator[list[dict[str, Any]]]:
        """The full cards (index entry and page data), a batch at a time, in index order."""
        size = size or card_data.BATCH
        for start in range(0, len(self.cards), size):
            batch = self.cards[start : start + size]
            yield self.card_reader(batch) if self.card_reader else batch

    def chapters(self) -> list[Node]:
        """Every chapter in document order."""
        return [c for p in self.parts for c in p.children]


def _date(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


def _edition(session: Session) -> Edition | None:
    try:
        return find_edition(session)
    except NotFoundError:
        return None


def _english_nodes(session: Session, edition: Edition) -> dict[str, Node]:
    nodes: dict[str, Node] = {}
    by_id: dict[int, Node] = {}
    for rule_id, number, kind, parent, key in session.execute(
        select(Rule.id, Rule.number, Rule.kind, Rule.parent_number, Rule.sort_key).where(
            Rule.edition_id == edition.id
        )
    ).all():
        node = Node(number, kind, parent, key)
        nodes[number] = node
        by_id[rule_id] = node
    examples = examples_by_text(session, edition_ids=[edition.id])
    for row in rule_text_rows(session, edition_ids=[edition.id]):
        node = by_id[row.rule_id]
        text = Text(
            row.language, row.title, row.body, examples.get(row.text_id, []), row.provenance
        )
        if row.language == "en":
            node.english = text
        else:
            node.translations.setdefault(row.language, text)
    return nodes


def _add_translations(
    session: Session, nodes: dict[str, Node], edition: Edition | None
) -> dict[str, set[str]]:
    """Attach each language's translation to its node, as every consumer shows it.

    Rules and subrules of the edition get the version stage's choice (human before machine,
    current before stale, followed across renumbering: a text made for 701.32 of 2021 shows under
    701.38); parts, chapters and numbers the edition lacks (or every number, when no English
    edition is loaded) get the best text of that number.
    """
    translated: dict[str, set[str]] = {}
    for lang in LANGS:
        if lang == "en":
            continue
        judged = stages.preferred_translations(session, lang, edition.id) if edition else {}
        for number, item in judged.items():
            if item["status"] != "missing" and number in nodes:
                nodes[number].translations[lang] = Text(
                    lang,
                    item["title"] or "",
                    item["body"] or "",
                    list(item["examples"]),
                    item["provenance"],
                    item["follows"],
                    item["assumed"],
                )
        numbers = sorted(
            set(
                session.scalars(
                    select(Rule.number)
                    .join(Edition, Edition.id == Rule.edition_id)
                    .join(RuleText, RuleText.rule_id == Rule.id)
                    .where(Edition.kind == "translations", RuleText.language == lang)
                ).all()
            )
            - set(judged)
        )
        chosen = translations_for(session, numbers, lang) if numbers else {}
        for number, text in sorted(chosen.items()):
            node = nodes.get(number)
            if node is None:  # a translated rule no loaded English edition has
                node = Node(number, text.rule.kind, text.rule.parent_number, sort_key(number))
                nodes[number] = node
            follows = text.follows_edition
            node.translations[lang] = Text(
                lang,
                text.title or "",
                text.body or "",
                [e.text for e in text.examples],
                text.provenance,
                _date(follows.effective_date) if follows else None,
                text.follows_assumed,
            )
        translated[lang] = {n for n, node in nodes.items() if lang in node.translations}
    return translated


def _tree(nodes: dict[str, Node]) -> list[Node]:
    """Link every node to its parent (inventing missing ancestors) and return the parts."""
    for number in list(nodes):
        parent = parent_of(number)
        while parent is not None and parent not in nodes:
            nodes[parent] = Node(parent, kind_of(parent), parent_of(parent), sort_key(parent))
            parent = parent_of(parent)
    for node in nodes.values():
        node.parent = parent_of(node.number)
    for node in sorted(nodes.values(), key=lambda n: n.key):
        if node.parent is not None:
            nodes[node.parent].children.append(node)
    return sorted((n for n in nodes.values() if n.kind == "part"), key=lambda n: n.key)


def _glossary(session: Session, edition: Edition | None) -> list[dict[str, Any]]:
    if edition is None:
        return []
    rows = session.scalars(
        select(GlossaryEntry)
        .where(GlossaryEntry.edition_id == edition.id)
        .order_by(GlossaryEntry.position, GlossaryEntry.term)
    ).all()
    return [
        {
            "term": g.term,
            "language": g.language,
            "definition": g.definition,
            "senses": list(g.senses or []),
            "redirect": g.redirect,
            "obsolete": g.obsolete,
            "provenance": g.provenance,
        }
        for g in rows
    ]


def _sets(session: Session) -> dict[str, dict[str, Any]]:
    """Set code -> name and release date (the first file naming a code wins, by code order)."""
    sets: dict[str, dict[str, Any]] = {}
    for code, name, released in session.execute(
        select(CardSet.code, CardSet.name, CardSet.release_date).order_by(
            CardSet.code, CardSet.document_id
        )
    ).all():
        sets.setdefault(code, {"code": code, "name": name, "released": _date(released)})
    return sets


def _reader(session: Session) -> Callable[[Sequence[dict[str, Any]]], list[dict[str, Any]]]:
    """Read a batch of full cards through the session; one used after its ``with`` ended is
    closed again after each batch (no connection is left checked out)."""

    def read(batch: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        active = session.in_transaction()
        try:
            return card_data.card_details(session, batch)
        finally:
            if not active:
                session.close()

    return read


def load(session: Session) -> SiteData:
    """Read everything the site shows from the newest English edition, translations and cards.

    The cards' own page data is read later, a batch at a time, through ``session``
    (:meth:`SiteData.card_batches`): keep the session open while the pages are rendered.
    """
    edition = _edition(session)
    nodes = _english_nodes(session, edition) if edition is not None else {}
    translated = _add_translations(session, nodes, edition)
    parts = _tree(nodes)
    count, texts = card_data.ruling_counts(session)
    return SiteData(
        edition=_date(edition.effective_date) if edition else None,
        edition_id=edition.id if edition else None,
        editions=[
            d.isoformat()
            for d in session.scalars(
                select(Edition.effective_date)
                .where(Edition.kind == "comprules", Edition.language == "en")
                .order_by(Edition.effective_date)
            )
            if d is not None
        ],
        nodes=nodes,
        parts=parts,
        glossary=_glossary(session, edition),
        cards=card_data.card_index(session),
        translated_numbers=translated,
        sets=_sets(session),
        card_reader=_reader(session),
        ruling_count=count,
        ruling_texts=texts,
    )

"""Database -> index documents: rules, examples, glossary entries, rulings and cards.

Every item carries its key (``rule:2026-01-16:701.54a``), its filter fields, its texts per
language for the analyzers, the hashes of the corpus documents it was built from (so an ingest
reindexes only what changed) and a ``data`` dict that results are displayed from.
A :class:`Scope` names a subset of items; ``None`` everywhere means all of them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.langs import LANGS
from kb.models import (
    Document,
    Edition,
    Example,
    GlossaryEntry,
    Rule,
    RuleText,
)
from kb.search.schema import body_field, title_field
from kb.urls import glossary_slug

NO_EDITION = "-"
PROVENANCE_ORDER = {"official": 0, "community": 1, "machine": 2}


def doc_hash(path: str) -> str:
    """A short, token-safe name for a corpus document path (paths may hold spaces)."""
    return hashlib.sha1(path.encode("utf-8")).hexdigest()[:16]


@dataclass
class Scope:
    """Which items to (re)build: whole editions, some rule numbers, some cards and rulings."""

    editions: set[str] = field(default_factory=set)
    rules: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    glossary: set[str] = field(default_factory=set)
    cards: set[str] = field(default_factory=set)
    rulings: set[str] = field(default_factory=set)

    def add_key(self, key: str) -> None:
        """Put the item a key names into the scope."""
        kind, _, rest = key.partition(":")
        if kind in ("rule", "example"):
            edition, _, tail = rest.partition(":")
            self.rules[edition].add(tail.split(":")[0])
        elif kind == "glossary":
            self.glossary.add(key)
        elif kind == "card":
            self.cards.add(rest)
        elif kind == "ruling":
            self.rulings.add(rest)

    def __bool__(self) -> bool:
        return bool(self.editions or any(self.rules.values()) or self.glossary) or bool(
            self.cards or self.rulings
        )


def _editions(session: Session) -> tuple[dict[int, str], str | None]:
    """Official edition ids -> ISO date, and the newest date."""
    dates = {
        ed_id: date.isoformat()
        for ed_id, date in session.execute(
            select(Edition.id, Edition.effective_date).where(
                Edition.kind == "comprules", Edition.language == "en"
            )
        ).all()
        if date is not None
    }
    return dates, max(dates.values(), default=None)


def doc_paths(session: Session) -> dict[int, str]:
    return dict(session.execute(select(Document.id, Document.path)).all())


def fill_text_fields(item: dict[str, Any], texts: dict[str, dict[str, Any]], context: str) -> None:
    """Fill the per-language title/body fields from an item's display texts."""
    for lang, text in texts.items():
        if text.get("title"):
            item[title_field(lang)] = text["title"]
        body = " ".join(p for p in (text.get("text", ""), *text.get("extra", ())) if p)
        if context and lang == "en":
            body = f"{body}\n{context}" if body else context
        if body:
            item[body_field(lang)] = body


def finish_item(
    item: dict[str, Any], texts: dict[str, dict[str, Any]], docs: Iterable[str]
) -> None:
    item["langs"] = " ".join(lang for lang in LANGS if lang in texts)
    item["provenance"] = " ".join(sorted({t["provenance"] for t in texts.values()}))
    item["docs"] = " ".join(sorted({doc_hash(p) for p in docs}))
    for text in texts.values():
        text.pop("extra", None)


# --- rules and examples ------------------------------------------------------------------------


def rule_items(session: Session, scope: Scope | None = None) -> Iterator[dict[str, Any]]:
    """Rule and example items of the official editions, translations merged into them."""
    dates, newest = _editions(session)
    paths = doc_paths(session)
    wanted_eds = None if scope is None else scope.editions | set(scope.rules)
    rows = session.execute(
        select(
            Rule.edition_id,
            Rule.number,
            Rule.kind,
            Rule.parent_number,
            Rule.sort_key,
            Rule.document_id,
            RuleText.id,
            RuleText.title,
            RuleText.body,
            RuleText.provenance,
        )
        .join(RuleText, RuleText.rule_id == Rule.id)
        .where(Rule.edition_id.in_(list(dates)), RuleText.language == "en")
    ).all()
    translated = session.execute(
        select(
            Rule.number,
            Rule.kind,
            Rule.sort_key,
            RuleText.follows_edition_id,
            RuleText.id,
            RuleText.language,
            RuleText.title,
            RuleText.body,
            RuleText.provenance,
            RuleText.follows_assumed,
            RuleText.document_id,
        )
        .join(RuleText, RuleText.rule_id == Rule.id)
        .join(Edition, Edition.id == Rule.edition_id)
        .where(Edition.kind == "translations")
    ).all()
    examples: dict[int, list[str]] = defaultdict(list)
    for text_id, text in session.execute(
        select(Example.rule_text_id, Example.text).order_by(Example.rule_text_id, Example.position)
    ).all():
        examples[text_id].append(text)

    nodes: dict[tuple[str, str], dict[str, Any]] = {}
    for ed_id, number, kind, parent, sort, doc_id, text_id, title, body, prov in rows:
        edition = dates[ed_id]
        if wanted_eds is not None and edition not in wanted_eds:
            continue
        nodes[(edition, number)] = {
            "number": number,
            "kind": kind,
            "parent": parent,
            "sort": sort,
            "edition": edition,
            "docs": {paths.get(doc_id, "")},
            "texts": {"en": {"title": title, "text": body, "provenance": prov}},
            "examples": {"en": (examples.get(text_id, []), prov)},
        }
    for number, kind, sort, follows, text_id, lang, title, body, prov, assumed, doc_id in sorted(
        translated, key=lambda r: (PROVENANCE_ORDER.get(r[8], 9), r[4])
    ):
        edition = dates.get(follows) if follows else newest
        edition = edition or NO_EDITION
        if wanted_eds is not None and edition not in wanted_eds:
            continue
        node = nodes.setdefault(
            (edition, number),
            {
                "number": number,
                "kind": kind,
                "parent": None,
                "sort": sort,
                "edition": edition,
                "docs": set(),
                "texts": {},
                "examples": {},
            },
        )
        node["docs"].add(paths.get(doc_id, ""))
        if lang not in node["texts"]:
            node["texts"][lang] = {
                "title": title,
                "text": body,
                "provenance": prov,
                "follows": edition if edition != NO_EDITION else None,
                "follows_assumed": bool(assumed),
            }
            node["examples"][lang] = (examples.get(text_id, []), prov)

    children: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for (edition, _), node in nodes.items():
        if node["parent"]:
            children[(edition, node["parent"])].append(node)
    for (edition, number), node in sorted(nodes.items(), key=lambda kv: (kv[0][0], kv[1]["sort"])):
        if scope is not None and not (
            edition in scope.editions or number in scope.rules.get(edition, ())
        ):
            continue
        yield from _rule_and_examples(node, nodes, children.get((edition, number), []))


def _context(node: dict[str, Any], nodes: dict[tuple[str, str], dict[str, Any]]) -> str:
    """The title of the nearest ancestor that has one (a subrule's rule, a rule's chapter)."""
    parent = node["parent"]
    while parent:
        above = nodes.get((node["edition"], parent))
        if above is None:
            return ""
        title = above["texts"].get("en", {}).get("title", "")
        if title:
            return str(title)
        parent = above["parent"]
    return ""


def _rule_and_examples(
    node: dict[str, Any],
    nodes: dict[tuple[str, str], dict[str, Any]],
    children: list[dict[str, Any]],
) -> Iterator[dict[str, Any]]:
    edition, number = node["edition"], node["number"]
    context = _context(node, nodes)
    common = {
        "number": number,
        "edition": edition,
        "bound": "edition" if edition != NO_EDITION else "none",
        "date": dt.datetime.fromisoformat(edition) if edition != NO_EDITION else None,
    }
    texts = {lang: dict(t) for lang, t in node["texts"].items()}
    if node["kind"] == "rule":
        # A title-only rule ("701.54. The Ring Tempts You") is searched with its subrules' text:
        # it is the section a question about the mechanic should land on.
        for lang, text in texts.items():
            if not text.get("text"):
                text["extra"] = [
                    c["texts"][lang]["text"]
                    for c in sorted(children, key=lambda c: c["sort"])
                    if lang in c["texts"]
                ]
    item = {"key": f"rule:{edition}:{number}", "type": "rule", "kind": node["kind"], **common}
    fill_text_fields(item, texts, context)
    finish_item(item, texts, node["docs"])
    item["data"] = {
        "number": number,
        "kind": node["kind"],
        "edition": edition,
        "texts": texts,
        "context": context,
    }
    yield clean_item(item)
    count = max((len(e[0]) for e in node["examples"].values()), default=0)
    for position in range(count):
        ex_texts = {
            lang: {"text": ex[position], "provenance": prov}
            for lang, (ex, prov) in node["examples"].items()
            if position < len(ex)
        }
        title = texts.get("en", {}).get("title") or context
        ex_item = {
            "key": f"example:{edition}:{number}:{position}",
            "type": "example",
            "kind": node["kind"],
            **common,
        }
        fill_text_fields(ex_item, ex_texts, title)
        finish_item(ex_item, ex_texts, node["docs"])
        ex_item["data"] = {
            "number": number,
            "edition": edition,
            "position": position,
            "texts": ex_texts,
            "context": title,
        }
        yield clean_item(ex_item)


def clean_item(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if v is not None and v != ""}


# --- glossary ----------------------------------------------------------------------------------


def glossary_items(session: Session, scope: Scope | None = None) -> Iterator[dict[str, Any]]:
    """Glossary entries: one item per term, edition and language."""
    dates, _ = _editions(session)
    paths = doc_paths(session)
    rows = session.execute(
        select(
            GlossaryEntry.edition_id,
            GlossaryEntry.language,
            GlossaryEntry.term,
            GlossaryEntry.definition,
            GlossaryEntry.redirect,
            GlossaryEntry.obsolete,
            GlossaryEntry.provenance,
            GlossaryEntry.document_id,
        ).order_by(GlossaryEntry.edition_id, GlossaryEntry.position)
    ).all()
    for ed_id, lang, term, definition, redirect, obsolete, prov, doc_id in rows:
        edition = dates.get(ed_id)
        if edition is None:
            continue
        key = f"glossary:{edition}:{lang}:{glossary_slug(term)}"
        if scope is not None and edition not in scope.editions and key not in scope.glossary:
            continue
        texts = {lang: {"title": term, "text": definition, "provenance": prov}}
        item: dict[str, Any] = {
            "key": key,
            "type": "glossary",
            "edition": edition,
            "bound": "edition",
            "date": dt.datetime.fromisoformat(edition),
        }
        fill_text_fields(item, texts, "")
        finish_item(item, texts, [paths.get(doc_id, "")])
        item["data"] = {
            "term": term,
            "edition": edition,
            "language": lang,
            "texts": texts,
            "redirect": redirect,
            "obsolete": obsolete,
        }
        yield clean_item(item)

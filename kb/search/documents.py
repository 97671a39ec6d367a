"""Database -> index documents: rules, examples, glossary entries, rulings and cards.

Every item carries its key (``rule:2026-01-16:701.54a``), its filter fields, its texts per
language for the analyzers and a ``data`` dict that results are displayed from. Items are built
in a deterministic order and form, so that a hash of an item tells whether it changed.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Collection, Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.langs import LANGS, PROVENANCE_ORDER
from kb.models import Edition, GlossaryEntry
from kb.readmodel import examples_by_text, rule_text_rows
from kb.search.analysis import sentence_masks, text_analyzer
from kb.search.editions import EditionGroups
from kb.search.schema import NO_EDITION, text_field
from kb.urls import glossary_slug

_SEE_RULE = re.compile(r"\b(\d{3}(?:\.\d{1,3}[a-z]?)?)\b")


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


def fill_text_fields(
    item: dict[str, Any],
    texts: dict[str, dict[str, Any]],
    context: dict[str, str],
    names: list[str] = (),  # type: ignore[assignment]
) -> None:
    """Fill the text field of each language: title twice, text, context title, card names."""
    for lang, text in texts.items():
        title = text.get("title", "")
        parts = [title, title, text.get("text", ""), *text.get("extra", ()), context.get(lang, "")]
        parts.extend(n for n in names if n != title)
        value = "\n".join(p for p in parts if p)
        if value:
            item[text_field(lang)] = value


def finish_item(item: dict[str, Any], texts: dict[str, dict[str, Any]]) -> None:
    """Set the language and provenance filter fields; drop the index-only text."""
    item["langs"] = " ".join(lang for lang in LANGS if lang in texts)
    item["provenance"] = " ".join(sorted({t["provenance"] for t in texts.values()}))
    for text in texts.values():
        text.pop("extra", None)


# --- rules and examples ------------------------------------------------------------------------


def edition_dates(session: Session) -> tuple[dict[int, str], str | None]:
    """Official edition ids -> ISO date, and the newest date (what the items are stamped with)."""
    return _editions(session)


def rule_items(
    session: Session, edition_ids: Collection[int] | None = None, newest: str | None = None
) -> Iterator[dict[str, Any]]:
    """Rule and example items of the official editions, translations merged into them.

    ``edition_ids``: of these editions only (their items are those a build of every edition
    makes of them, before they are merged with other editions' items). ``newest``: the edition
    the translations that follow the newest edition, or none, are shown with instead: what
    they followed before the newest was added (kb.loaders.place_assumed_translations moves an
    assumed translation from the edition before to the new one, never further back).
    """
    dates, newest_date = _editions(session)
    newest = newest or newest_date
    wanted = None if edition_ids is None else {dates[i] for i in edition_ids}
    rows = rule_text_rows(
        session, edition_ids=list(dates if edition_ids is None else edition_ids), language="en"
    )
    translated = list(rule_text_rows(session, edition_kind="translations"))
    if edition_ids is None:
        examples = examples_by_text(session)
    else:
        examples = examples_by_text(
            session, edition_ids={*edition_ids, *(row.edition_id for row in translated)}
        )

    nodes: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        edition = dates[row.edition_id]
        nodes[(edition, row.number)] = {
            "number": row.number,
            "kind": row.kind,
            "parent": row.parent_number,
            "sort": row.sort_key,
            "edition": edition,
            "texts": {"en": {"title": row.title, "text": row.body, "provenance": row.provenance}},
            "examples": {"en": (examples.get(row.text_id, []), row.provenance)},
        }
    for row in sorted(translated, key=lambda r: (PROVENANCE_ORDER.get(r.provenance, 9), r.text_id)):
        number, kind, sort, follows = row.number, row.kind, row.sort_key, row.follows_edition_id
        text_id, lang, title, body = row.text_id, row.language, row.title, row.body
        prov, assumed = row.provenance, row.follows_assumed
        edition = (dates.get(follows) if follows else newest_date) or NO_EDITION
        if edition == newest_date:
            edition = newest or NO_EDITION
        if wanted is not None and edition not in wanted:
            continue
        node = nodes.setdefault(
            (edition, number),
            {
                "number": number,
                "kind": kind,
                "parent": None,
                "sort": sort,
                "edition": edition,
                "texts": {},
                "examples": {},
            },
        )
        if lang not in node["texts"]:
            node["texts"][lang] = {
                "title": title,
                "text": body,
                "provenance": prov,
                "follows": edition if edition != NO_EDITION else None,
                "follows_assumed": bool(assumed),
            }
            node["examples"][lang] = (examples.get(text_id, []), prov)

    _add_card_terms(session, nodes)
    children: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for (edition, _), node in nodes.items():
        if node["parent"]:
            children[(edition, node["parent"])].append(node)
    groups = EditionGroups()
    english = text_analyzer("en")
    for (edition, number), node in sorted(nodes.items(), key=lambda kv: (kv[0][0], kv[1]["sort"])):
        kids = children.get((edition, number), [])
        if edition == NO_EDITION:
            yield from _rule_and_examples(node, nodes, kids, english)
            continue
        yield from groups.add(
            _inputs(node, nodes, kids),
            edition,
            lambda node=node, kids=kids: list(_rule_and_examples(node, nodes, kids, english)),
        )
    groups.finish()


def _inputs(
    node: dict[str, Any],
    nodes: dict[tuple[str, str], dict[str, Any]],
    children: list[dict[str, Any]],
) -> tuple[Any, ...]:
    """Everything a node's items are made of but its edition (see :func:`_rule_and_examples`):
    two editions' nodes with the same inputs make the same items."""
    texts = node["texts"]
    extra: tuple[Any, ...] = ()
    if node["kind"] == "rule" and any(not text.get("text") for text in texts.values()):
        ordered = sorted(children, key=lambda c: c["sort"])
        extra = tuple(
            (lang, tuple(c["texts"][lang]["text"] for c in ordered if lang in c["texts"]))
            for lang, text in texts.items()
            if not text.get("text")
        )
    return (
        node["number"],
        node["kind"],
        tuple((lang, tuple(text.items())) for lang, text in texts.items()),
        tuple((lang, tuple(found), prov) for lang, (found, prov) in node["examples"].items()),
        tuple(_context(node, nodes).items()),
        extra,
    )


def _add_card_terms(session: Session, nodes: dict[tuple[str, str], dict[str, Any]]) -> None:
    """Keyword rules without a translation get the term learned from card translations as title.

    Its provenance is ``card-term``: a term Wizards prints on cards, not a rules translation.
    """
    from kb.terminology import LANGUAGES, rule_terms

    numbers = sorted({n["number"] for n in nodes.values() if n["kind"] == "rule"})
    for lang in LANGUAGES:
        titles = rule_terms(session, numbers, lang)
        for node in nodes.values():
            title = titles.get(node["number"])
            if title and lang not in node["texts"]:
                node["texts"][lang] = {"title": title, "text": "", "provenance": "card-term"}


def _context(node: dict[str, Any], nodes: dict[tuple[str, str], dict[str, Any]]) -> dict[str, str]:
    """Per language, the title of the nearest ancestor that has one (a subrule's rule title)."""
    found: dict[str, str] = {}
    parent = node["parent"]
    while parent:
        above = nodes.get((node["edition"], parent))
        if above is None:
            break
        for lang, text in above["texts"].items():
            if text.get("title") and lang not in found:
                found[lang] = str(text["title"])
        parent = above["parent"]
    return found


def _rule_and_examples(
    node: dict[str, Any],
    nodes: dict[tuple[str, str], dict[str, Any]],
    children: list[dict[str, Any]],
    english: Any,
) -> Iterator[dict[str, Any]]:
    """A rule's item and its examples' (``english``: the English text analyzer, which gives
    the rule's ``sentences``: each English term -> the sentences holding it, a bit mask)."""
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
    finish_item(item, texts)
    item["data"] = {
        "number": number,
        "kind": node["kind"],
        "edition": edition,
        "texts": texts,
        "context": context,
    }
    body = (texts.get("en") or {}).get("text")
    if body:
        item["data"]["sentences"] = sentence_masks(english, body)
    yield clean_item(item)
    count = max((len(e[0]) for e in node["examples"].values()), default=0)
    for position in range(count):
        ex_texts = {
            lang: {"text": ex[position], "provenance": prov}
            for lang, (ex, prov) in node["examples"].items()
            if position < len(ex)
        }
        title = {**context, **{lang: t["title"] for lang, t in texts.items() if t.get("title")}}
        ex_item = {
            "key": f"example:{edition}:{number}:{position}",
            "type": "example",
            "kind": node["kind"],
            **common,
        }
        fill_text_fields(ex_item, ex_texts, title)
        finish_item(ex_item, ex_texts)
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


def glossary_items(
    session: Session, edition_ids: Collection[int] | None = None
) -> Iterator[dict[str, Any]]:
    """Glossary entries: one item per term, edition and language (of these editions only)."""
    dates, _ = _editions(session)
    query = select(
        GlossaryEntry.edition_id,
        GlossaryEntry.language,
        GlossaryEntry.term,
        GlossaryEntry.definition,
        GlossaryEntry.redirect,
        GlossaryEntry.obsolete,
        GlossaryEntry.provenance,
    ).order_by(GlossaryEntry.edition_id, GlossaryEntry.position)
    if edition_ids is not None:
        query = query.where(GlossaryEntry.edition_id.in_(sorted(edition_ids)))
    rows = session.execute(query).all()
    # An entry that only sends to another ("APNAP Order: See Active Player, Nonactive Player
    # Order.") sends to the rules that one cites (101.4), so that its name finds them too.
    cited = {
        (ed_id, lang, term.casefold()): _see_rules(definition)
        for ed_id, lang, term, definition, *_ in rows
    }
    groups = EditionGroups()
    for ed_id, lang, term, definition, redirect, obsolete, prov in rows:
        edition = dates.get(ed_id)
        if edition is None:
            continue
        see = cited[(ed_id, lang, term.casefold())]
        if not see and redirect:
            see = cited.get((ed_id, lang, redirect.casefold()), [])
        yield from groups.add(
            (lang, term, definition, redirect, obsolete, prov, tuple(see)),
            edition,
            lambda row=(edition, lang, term, definition, redirect, obsolete, prov, see): [
                _glossary_item(*row)
            ],
        )
    groups.finish()


def _see_rules(definition: str) -> list[str]:
    """The rule numbers a definition cites, in order, once each."""
    return list(dict.fromkeys(_SEE_RULE.findall(definition)))


def _glossary_item(
    edition: str,
    lang: str,
    term: str,
    definition: str,
    redirect: str | None,
    obsolete: bool,
    prov: str,
    see: list[str],
) -> dict[str, Any]:
    key = f"glossary:{edition}:{lang}:{glossary_slug(term)}"
    texts = {lang: {"title": term, "text": definition, "provenance": prov}}
    item: dict[str, Any] = {
        "key": key,
        "type": "glossary",
        "edition": edition,
        "bound": "edition",
        "date": dt.datetime.fromisoformat(edition),
    }
    fill_text_fields(item, texts, {})
    finish_item(item, texts)
    item["data"] = {
        "term": term,
        "edition": edition,
        "language": lang,
        "texts": texts,
        "redirect": redirect,
        "obsolete": obsolete,
        "see": see,
    }
    return clean_item(item)

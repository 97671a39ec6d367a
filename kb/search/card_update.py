"""Bring the index in step after an ingest that changed card data only (one set file).

A set file holds cards and rulings; the rule, example and glossary items do not read them (but
for the learned keyword terms, which the caller checks are unchanged). So instead of building
every item of the database and hashing it (most of an update's time at full scale), this builds
the items of the cards and clarifications the ingest touched, compares their hashes with the
indexed ones, and deletes the card and ruling items whose card or clarification is gone.

The word list beside the index (did-you-mean) is adjusted rather than recounted: the words of
an item leaving the index are read back from its stored display data (a card's names and texts;
a ruling's texts and its cards' names), which holds exactly what its text fields were made of.
The result is what a full update would write, item for item and count for count.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import exists, select

from kb.langs import LANGS
from kb.models import Card, Clarification, ClarificationText
from kb.search.card_docs import CardScope, card_items
from kb.search.schema import text_field
from kb.search.spelling import WORDS_FILE, adjust_vocabulary, text_words, write_vocabulary

if TYPE_CHECKING:
    from kb.db import Database

_PREFIXES = ("card:", "ruling:")


def item_words(item: dict[str, Any]) -> dict[str, set[str]]:
    """An item's words per language, as :func:`kb.search.spelling.vocabulary` counts them."""
    return {lang: text_words(item.get(text_field(lang))) for lang in LANGS}


def stored_words(
    fields: dict[str, Any], card_names: dict[str, list[str]]
) -> dict[str, set[str]] | None:
    """The words per language an indexed card or ruling item counted for, from its stored data.

    A card's text fields are its texts' titles and texts and its names in every language; a
    ruling's are its texts and the names of its cards (``card_names``: card key -> names, read
    from the cards' own indexed items). None when a card is missing from ``card_names``.
    """
    data = fields.get("data") or {}
    found: dict[str, set[str]] = {}
    if fields.get("type") == "card":
        names = [str(n) for n in (data.get("names") or {}).values()]
    else:
        names = []
        for card in data.get("cards") or ():
            known = card_names.get(str(card.get("key")))
            if known is None:
                return None
            names.extend(known)
    name_words = set().union(*(text_words(n) for n in names)) if names else set()
    for lang, text in (data.get("texts") or {}).items():
        found[lang] = text_words(text.get("title")) | text_words(text.get("text")) | name_words
    return found


def _alive(db: Database) -> set[str]:
    """The keys of every card and ruling item the database makes now (a full build's)."""
    with db.session() as session:
        cards = {f"card:{key}" for key in session.scalars(select(Card.key))}
        rulings = {
            f"ruling:{key}"
            for key in session.scalars(
                select(Clarification.key).where(
                    exists().where(ClarificationText.clarification_id == Clarification.id)
                )
            )
        }
    return cards | rulings


def apply_card_scope(
    db: Database, ix: Any, index_dir: Path, scope: CardScope
) -> tuple[int, int, int, bool] | None:
    """Rewrite the scope's changed items and delete the gone ones; (written, removed, total,
    rebuild) as :func:`kb.search.indexer._apply`, or None when the index cannot be adjusted
    this way (no word list, or an item whose words cannot be read back): then do a full update.
    """
    from kb.search.indexer import compare, item_hash, write_changes

    try:
        words = json.loads((Path(index_dir) / WORDS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    with db.session() as session:
        expected = {}
        for item in card_items(session, scope):
            item["hash"] = item_hash(item)
            expected[item["key"]] = item
    alive = _alive(db)
    with ix.searcher() as searcher:
        reader = searcher.reader()
        keys, hashes = reader.column_reader("key"), reader.column_reader("hash")
        docnums: dict[str, int] = {}
        current: dict[str, str] = {}
        for docnum in reader.all_doc_ids():
            docnums[keys[docnum]] = docnum
            current[keys[docnum]] = hashes[docnum]
        stale = sorted(k for k in current if k.startswith(_PREFIXES) and k not in alive)
        changed, total, rebuild = compare(current, expected, stale)
        if not stale and not changed:
            return 0, 0, len(current), False
        if rebuild:
            return len(changed), len(stale), total, True
        leaving = [reader.stored_fields(docnums[k]) for k in [*stale, *changed] if k in docnums]
        card_names: dict[str, list[str]] = {}
        for fields in leaving:
            for card in (fields.get("data") or {}).get("cards") or ():
                key = str(card.get("key"))
                docnum = docnums.get(f"card:{key}")
                if key not in card_names and docnum is not None:
                    data = reader.stored_fields(docnum).get("data") or {}
                    card_names[key] = [str(n) for n in (data.get("names") or {}).values()]
        removed = [stored_words(fields, card_names) for fields in leaving]
    if any(found is None for found in removed):
        return None
    write_changes(ix, stale, [expected[key] for key in changed])
    added = [item_words(expected[key]) for key in changed]
    write_vocabulary(index_dir, adjust_vocabulary(words, removed, added))  # type: ignore[arg-type]
    return len(changed), len(stale), total, False

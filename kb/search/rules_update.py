"""Bring the index in step after an ingest that changed Comprehensive Rules documents only.

A new edition (or a translation of the rules) changes rule, example and glossary items; the card
and ruling items do not read the rules (:mod:`kb.search.card_docs`), so when the index was in
step before, they are what the index holds already. Building the card items again and hashing
them, then recounting the did-you-mean words of every item, was about half of adding one
edition at the whole history; this builds the rules' items only and compares them.

The word list beside the index (``kb-words.json``) counts, per word, the items holding it: a sum
over items, so it is the rules' items' part plus the cards' part. The rules' part is kept beside
it (``kb-words-rules.json``) with a digest of the rules' items it counts (their keys and hashes
in the index); this replaces the old part by the new one, and the sum is what a full count
would give (after a new edition, by the words of the texts it adds and of those no item holds
any more: :mod:`kb.search.new_edition`). When that file is missing or its digest does not match
the index (an index made by an older kb, or left by an interrupted write), the caller does a
full update, which writes it.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.langs import LANGS
from kb.search.schema import text_field
from kb.search.spelling import (
    WORDS_FILE,
    adjust_vocabulary,
    text_words,
    vocabulary,
    write_vocabulary,
)

if TYPE_CHECKING:
    from kb.db import Database

RULES_WORDS_FILE = "kb-words-rules.json"
# The keys of the items made from the rules (rule_items, glossary_items); cards and rulings
# are ``card:`` and ``ruling:``.
RULE_PREFIXES = ("rule:", "example:", "glossary:")

Words = dict[str, dict[str, int]]


def is_rule_key(key: str) -> bool:
    """Whether an item key names an item made from the rules (not from card data)."""
    return key.startswith(RULE_PREFIXES)


def hashes_digest(hashes: Iterable[tuple[str, str]]) -> str:
    """A digest of the rules' items an index holds: their (key, hash) pairs, in key order."""
    digest = hashlib.sha256()
    for key, value in sorted(hashes):
        digest.update(f"{key}\0{value}\n".encode())
    return digest.hexdigest()


def add_words(*parts: Mapping[str, Mapping[str, int]]) -> Words:
    """The word counts of several sets of items together (each a :func:`vocabulary`)."""
    counts = {lang: Counter[str]() for lang in LANGS}
    for part in parts:
        for lang in LANGS:
            counts[lang].update(part.get(lang, {}))
    return {lang: dict(sorted(counts[lang].items())) for lang in LANGS}


def _less(total: Mapping[str, Mapping[str, int]], part: Mapping[str, Mapping[str, int]]) -> Words:
    counts = {lang: Counter(total.get(lang, {})) for lang in LANGS}
    for lang in LANGS:
        counts[lang].subtract(part.get(lang, {}))
    return {lang: {w: n for w, n in sorted(counts[lang].items()) if n > 0} for lang in LANGS}


def split_vocabulary(items: Iterable[dict[str, Any]]) -> tuple[Words, Words]:
    """(every item's words, the rules' items' words): what a full count writes."""
    rules: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for item in items:
        (rules if is_rule_key(item["key"]) else others).append(item)
    part = vocabulary(rules)
    return add_words(part, vocabulary(others)), part


def write_words(index_dir: Path, items: Iterable[dict[str, Any]]) -> None:
    """Count the words of all the items the index now holds and write both word files."""
    listed = list(items)
    total, part = split_vocabulary(listed)
    digest = hashes_digest((i["key"], i["hash"]) for i in listed if is_rule_key(i["key"]))
    write_vocabulary(index_dir, total)  # first: a part left behind no longer matches the index
    _write_rules_words(index_dir, part, digest)


def _write_rules_words(index_dir: Path, part: Words, digest: str) -> None:
    tmp = Path(index_dir) / (RULES_WORDS_FILE + ".tmp")
    payload = {"items": digest, "words": part}
    tmp.write_text(json.dumps(payload, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    tmp.replace(Path(index_dir) / RULES_WORDS_FILE)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def apply_rules_scope(
    db: Database, ix: Any, index_dir: Path, new_edition: int | None = None
) -> tuple[int, int, int, bool] | None:
    """Rewrite the rules' changed items and delete their gone ones; (written, removed, total,
    rebuild) as :func:`kb.search.indexer._apply`, or None when the word lists cannot be
    adjusted this way (then do a full update).

    ``new_edition``: the run only added this English edition, newer than the others, and the
    learned rule titles did not change; then only its items and the previous edition's are
    built (:mod:`kb.search.new_edition`), when the index allows.
    """
    from kb.search.indexer import compare, indexed_hashes, write_changes

    words = _read_json(Path(index_dir) / WORDS_FILE)
    kept = _read_json(Path(index_dir) / RULES_WORDS_FILE)
    if not isinstance(words, dict) or not isinstance(kept, dict):
        return None
    with ix.searcher() as searcher:
        current = indexed_hashes(searcher.reader())
        indexed_rules = {k: h for k, h in current.items() if is_rule_key(k)}
        if kept.get("items") != hashes_digest(indexed_rules.items()):
            return None  # the kept part does not count what the index holds
        planned = None
        if new_edition is not None:
            from kb.search.new_edition import new_edition_changes

            planned = new_edition_changes(db, searcher.reader(), current, new_edition)
    if planned is not None:
        expected, stale = planned.expected, planned.stale
    else:
        expected = _rules_items(db)
        stale = sorted(set(indexed_rules) - set(expected))
    changed, total, rebuild = compare(current, expected, stale)
    if not stale and not changed:
        return 0, 0, len(current), False
    if rebuild:
        return len(changed), len(stale), total, True
    write_changes(ix, stale, [expected[key] for key in changed])
    old_part = kept.get("words") or {}
    if planned is not None:
        removed, added = _item_words(planned.removed), _item_words(planned.added)
        part = adjust_vocabulary(old_part, removed, added)
        gone = set(stale)
        hashes = {k: h for k, h in indexed_rules.items() if k not in gone}
        hashes.update((key, item["hash"]) for key, item in expected.items())
    else:
        part = vocabulary(expected.values())
        hashes = {key: item["hash"] for key, item in expected.items()}
    write_vocabulary(index_dir, add_words(_less(words, old_part), part))
    _write_rules_words(index_dir, part, hashes_digest(hashes.items()))
    return len(changed), len(stale), total, False


def _rules_items(db: Database) -> dict[str, dict[str, Any]]:
    """Every rules' item, by key, with its hash: what a full build indexes of the rules."""
    from kb.search.documents import glossary_items, rule_items
    from kb.search.editions import merge_editions
    from kb.search.indexer import item_hash

    expected: dict[str, dict[str, Any]] = {}
    with db.session() as session:
        for item in merge_editions([*rule_items(session), *glossary_items(session)]):
            if item["key"] in expected:  # as all_items: the first of a key is indexed
                continue
            item["hash"] = item_hash(item)
            expected[item["key"]] = item
    return expected


def _item_words(items: Iterable[dict[str, Any]]) -> list[dict[str, set[str]]]:
    """Each item's words per language, as :func:`vocabulary` counts them."""
    folded: dict[str, str] = {}
    return [
        {lang: text_words(item.get(text_field(lang)), folded) for lang in LANGS} for item in items
    ]

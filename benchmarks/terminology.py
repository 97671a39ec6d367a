"""Keyword terms learned from card translations, on all of AllPrintings: coverage, precision, time.

Usage: python benchmarks/terminology.py [--allprintings PATH] [--cr PATH] [--keep DIR]
       python benchmarks/terminology.py --home DIR   (reuse a data folder built by --keep;
       after `kb --home DIR index` it also scores tests/data/search_eval_terms.tsv)

Builds a SQLite knowledge base holding the newest Comprehensive Rules (through `kb ingest`) and
every card of AllPrintings (parsed by kb.corpus.mtgjson set by set, newest set last, a card
keeping a language a newer set lacks, as the loader leaves them; then inserted in bulk: a full
ingest takes minutes and is measured by benchmarks/ingest.py). Then it times `rebuild_terms`
(what `kb ingest` runs when card data changed) and prints:

- coverage: the share of keywords on at least 3 translated cards that got a term (target 90 %);
- precision on the hand-checked sample tests/data/terminology/hand_sample.tsv (target 0.95);
- the seconds to learn every term of both languages from the database (target < 60 s).
"""

from __future__ import annotations

import argparse
import csv
import json
import lzma
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
FULL = ROOT.parent / "shared" / "corpus-full"
SAMPLE = ROOT / "tests" / "data" / "terminology" / "hand_sample.tsv"


def build(home: Path, allprintings: Path, cr: Path) -> None:
    """A data folder with one CR edition (ingested) and every card (bulk-inserted)."""
    from kb.config import Settings
    from kb.corpus import mtgjson
    from kb.errors import ParseError
    from kb.models import Card, CardLocalization, CardSet, Document, Printing
    from kb.pipeline import ingest, open_db

    settings = Settings(home=home)
    ingest(settings, [cr])
    started = time.perf_counter()
    with lzma.open(allprintings, "rt", encoding="utf-8") as handle:
        sets = json.load(handle)["data"]
    records = {}
    releases: dict[str, tuple[str, object]] = {}  # set code -> (name, release date)
    printings: dict[str, list] = {}  # oracle id -> its printings, every set
    order = sorted(sets, key=lambda c: (sets[c].get("releaseDate") or "", c))
    for code in order:
        try:
            document = mtgjson.parse(json.dumps({"data": sets.pop(code)}), f"AllPrintings:{code}")
        except ParseError as exc:  # as `kb ingest` would: the set fails whole, the others load
            print(f"skipped {exc}", flush=True)
            continue
        releases[document.code] = (document.name, document.release_date)
        for record in document.cards:
            printings.setdefault(record.oracle_id, []).extend(record.printings)
            older = records.get(record.oracle_id)
            if older is not None:  # as the loader does: a language the newer set lacks stays
                for lang in older.names.keys() - record.names.keys():
                    record.names[lang] = older.names[lang]
                    for field in (record.texts, record.type_lines):
                        value = (older.texts if field is record.texts else older.type_lines).get(
                            lang
                        )
                        if value:
                            field[lang] = value
            records[record.oracle_id] = record
    print(f"parsed {len(records)} cards in {time.perf_counter() - started:.0f} s", flush=True)
    db = open_db(settings)
    try:
        with db.session() as session, session.begin():
            cards = [
                Card(
                    key=r.oracle_id,
                    oracle_id=r.oracle_id,
                    name=r.name[:256],
                    mana_value=r.mana_value,
                    layout=r.layout,
                    faces=list(r.faces),
                    keywords=list(r.keywords),
                )
                for r in records.values()
            ]
            session.add_all(cards)
            session.flush()
            session.add_all(
                CardLocalization(
                    card_id=card.id,
                    language=lang,
                    name=name[:256],
                    type_line=record.type_lines.get(lang, ""),
                    text=record.texts.get(lang, ""),
                )
                for card, record in zip(cards, records.values(), strict=True)
                for lang, name in record.names.items()
            )
            # Sets and printings: the terminology stage dates a card by its first printing.
            document = Document(
                path=str(allprintings), sha256="", format="mtgjson", status="loaded"
            )
            session.add(document)
            session.flush()
            session.add_all(
                CardSet(code=code, name=name[:256], release_date=date, document_id=document.id)
                for code, (name, date) in releases.items()
            )
            session.add_all(
                Printing(
                    card_id=card.id,
                    set_code=p.set_code,
                    number=p.number,
                    uuid=p.uuid,
                    rarity=p.rarity,
                    document_id=document.id,
                )
                for card in cards
                for p in printings.get(card.key, ())
            )
    finally:
        db.dispose()


def measure(home: Path) -> dict:
    """Relearn the terms (timed), then score them against the hand sample and the cards."""
    from kb.config import Settings
    from kb.pipeline import open_db
    from kb.terminology import conflicts, list_terms, rebuild_terms
    from kb.terminology.store import card_texts

    db = open_db(Settings(home=home), create=False)
    try:
        with db.session() as session, session.begin():
            started, cpu = time.perf_counter(), time.process_time()
            counts = rebuild_terms(session)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        with db.session() as session:
            rows = list_terms(session)
            review = conflicts(session)
            translated = {lang: card_texts(session, lang) for lang in ("fr", "es")}
    finally:
        db.dispose()
    learned = {(r["language"], r["keyword"]): r for r in rows}
    figures: dict = {
        "seconds_to_learn": round(seconds, 1),
        "cpu_seconds_to_learn": round(cpu, 1),  # wall time also counts other processes' load
        "terms": counts,
        "to_review": len(review),
    }
    with SAMPLE.open(encoding="utf-8") as handle:
        sample = list(csv.DictReader(handle, delimiter="\t"))
    for lang in ("fr", "es"):
        keyword_cards = Counter(k for card in translated[lang] for k in card.keywords)
        frequent = sorted(k for k, n in keyword_cards.items() if n >= 3)
        missing = [k for k in frequent if (lang, k) not in learned]
        judged = wrong = 0
        errors = []
        for row in sample:
            if row["language"] != lang:
                continue
            got = learned.get((lang, row["keyword"]))
            if got is None:
                errors.append(f"{row['keyword']}: none (expected {row['term']})")
                continue
            judged += 1
            if got["term"].casefold() not in [f.casefold() for f in row["term"].split(";")]:
                wrong += 1
                errors.append(f"{row['keyword']}: {got['term']!r} (expected {row['term']})")
        figures[lang] = {
            "coverage": round((len(frequent) - len(missing)) / max(len(frequent), 1), 3),
            "keywords_on_3_cards": len(frequent),
            "without_term": missing,
            "precision": round((judged - wrong) / max(judged, 1), 3),
            "sample_answered": f"{judged}/{sum(1 for r in sample if r['language'] == lang)}",
            "sample_errors": errors,
        }
    figures["search"] = search_figures(home)
    return figures


def search_figures(home: Path) -> dict | None:
    """hit@1 of tests/data/search_eval_terms.tsv on the data folder's index (if it has one)."""
    from kb.search import index_ready, open_index
    from kb.search.evaluation import evaluate, load_queries

    index_dir = home / "index"
    if not index_ready(index_dir):
        return None
    queries = load_queries(ROOT / "tests" / "data" / "search_eval_terms.tsv")
    with open_index(index_dir) as index:
        report = evaluate(index, queries)
    misses = [
        f"{q['lang']} {q['query']!r}: {q['top']}" for q in report["queries"] if q["rank"] != 1
    ]
    return {"languages": report["languages"], "not_first": misses}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--allprintings", type=Path, default=FULL / "mtgjson" / "AllPrintings.json.xz"
    )
    parser.add_argument("--cr", type=Path, help="CR edition (default: the newest of corpus-full)")
    parser.add_argument("--keep", type=Path, help="Build the data folder here and keep it.")
    parser.add_argument("--home", type=Path, help="Reuse a data folder built with --keep.")
    args = parser.parse_args()
    if args.home:
        print(json.dumps(measure(args.home), ensure_ascii=False, indent=2))
        return
    cr = args.cr or sorted((FULL / "cr" / "en").glob("MagicCompRules_*.txt"))[-1]
    with tempfile.TemporaryDirectory() as tmp:
        home = args.keep or Path(tmp) / "_kb"
        build(home, args.allprintings, cr)
        print(json.dumps(measure(home), ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()

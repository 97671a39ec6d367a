"""Check the French and Spanish names of counters, tokens, dice and types against the cards.

Usage: python benchmarks/counter_names.py [MTGJSON file or folder ...]
       (default: ../shared/corpus-full/mtgjson/AllPrintings.json.xz)

``COUNTERS``, ``TOKENS``, ``DICE_AND_PLANES`` and ``TYPES`` of ``kb.search.lang.fr`` and ``…es``
name each kind of counter (122), predefined token (111.10), die or Planechase word and card type,
supertype or subtype (205) as the cards of the language print it, with its English word
("bouclier": shield, "comida": Food, "aventure": Adventure); the bridge takes each to its
English. A wrong name there is silent: the query just finds nothing. As
benchmarks/keyword_names.py does for keywords, this script reads every card whose English text
names the thing ("a shield counter", "a Food token", "roll the planar die", the card's own name
taken out of it first) and that has a printed text in the language (``foreignData``), analyses
that text with the search's own analyzer (fold, stop words, stems), and counts the texts holding
the name's terms; a type's name is read the same way on the type lines ("Sorcery — Adventure"
and the printing's "Rituel : aventure"). A name found on none of at least ``--min-cards`` such
cards is reported as wrong, and the exit status is 1; the names no card prints in the language
(the sets after 2021 have no French or Spanish texts in MTGJSON) are listed apart, as official
names taken on trust.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from keyword_names import LANGUAGES, contains, mtgjson_cards  # noqa: E402

from kb.search.analysis import analyze, text_analyzer  # noqa: E402

TABLES = ("COUNTERS", "TOKENS", "DICE_AND_PLANES", "TYPES")
# The field of a card and of its printing that names a table's thing (the default: "text").
FIELDS = {"TYPES": "type"}

# How an English card text names a die or Planechase word (the default: the word itself).
ENGLISH_WORDS = {
    "die": r"\b(?:a|the|planar|\w+-sided) die\b",
    "dice": r"\bdice\b",
    "roll": r"\broll(?:s|ed)? (?:a|the|two|three|one or more|\w+-sided) (?:die|dice|d\d+)\b",
    "planeswalk": r"\bplaneswalk(?:s|ed|ing)?\b",
    "plane": r"\bplanes?\b(?! *walk)",
    "planar": r"\bplanar\b",
    "chaos": r"\{CHAOS\}",
}


def english_pattern(table: str, english: str) -> re.Pattern[str]:
    """The wording of an English card text that names a table's thing."""
    if table == "COUNTERS":
        return re.compile(rf"\b{re.escape(english)} counters?\b", re.IGNORECASE)
    if table == "TOKENS":  # "create a Food token", "Treasure tokens", "a Clue artifact token"
        return re.compile(rf"\b{re.escape(english)}s?\b[^.]*?\btokens?\b")
    if table == "TYPES":  # a word of the type line: "Sorcery — Adventure", not "Urza's Saga"'s
        return re.compile(rf"(?<![\w'’-]){re.escape(english)}(?![\w'’-])")
    return re.compile(ENGLISH_WORDS.get(english, rf"\b{re.escape(english)}\b"), re.IGNORECASE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = ROOT.parent / "shared" / "corpus-full" / "mtgjson" / "AllPrintings.json.xz"
    parser.add_argument("paths", nargs="*", type=Path, default=[default])
    parser.add_argument("--min-cards", type=int, default=1)
    args = parser.parse_args()

    # (code, table, name, English word) of every name, and each name's analysed terms
    modules = {code: importlib.import_module(f"kb.search.lang.{code}") for code in LANGUAGES}
    names = [
        (code, table, name, english)
        for code, module in modules.items()
        for table in TABLES
        for name, english in getattr(module, table, {}).items()
    ]
    analyzers = {code: text_analyzer(code) for code in LANGUAGES}
    terms = {(code, name): analyze(analyzers[code], name) for code, _t, name, _e in names}
    patterns = {
        (table, english): english_pattern(table, english) for _c, table, _n, english in names
    }
    by_language = {language: code for code, language in LANGUAGES.items()}
    texts: collections.Counter = collections.Counter()  # (code, table, English) -> texts seen
    found: collections.Counter = collections.Counter()  # (code, name) -> texts holding it
    seen_texts: set[tuple[str, str, str]] = set()  # a reprint's identical texts count once
    for card in mtgjson_cards(args.paths):
        for field in sorted(set(FIELDS.values()) | {"text"}):
            english_text = card.get(field) or ""
            if not english_text:
                continue
            own = card.get("name") or ""
            english_text = english_text.replace(own, "CARDNAME") if own else english_text
            named = {
                (table, english)
                for (table, english), pattern in patterns.items()
                if FIELDS.get(table, "text") == field and pattern.search(english_text)
            }
            if not named:
                continue
            for face in card.get("foreignData") or ():
                code = by_language.get(face.get("language"))
                text = face.get(field)
                if code is None or not text or (code, english_text, text) in seen_texts:
                    continue
                seen_texts.add((code, english_text, text))
                words = analyze(analyzers[code], text)
                for table, english in named:
                    texts[(code, table, english)] += 1
                for name_code, table, name, english in names:
                    if name_code == code and (table, english) in named:
                        found[(code, name)] += contains(words, terms[(code, name)])

    wrong, unprinted = 0, []
    for code, table, name, english in names:
        seen, hits = texts[(code, table, english)], found[(code, name)]
        if seen == 0:
            unprinted.append(f"{code} {name} ({english})")
            continue
        verdict = "ok"
        if hits == 0 and seen >= args.min_cards:
            verdict = "WRONG: printed on no card that names it"
            wrong += 1
        print(f"{code}  {table:15} {english:12} {name!r:18} {hits:5} of {seen:5} texts  {verdict}")
    printed = len(names) - len(unprinted)
    print(f"\n{printed - wrong} of {printed} names found on the cards that name the thing")
    print(f"{len(unprinted)} names on no card with a text in the language: {', '.join(unprinted)}")
    print(f"{wrong} names printed on no card that names the thing")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())

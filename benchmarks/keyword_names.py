"""Check the hand-written French and Spanish keyword names against the cards Wizards printed.

Usage: python benchmarks/keyword_names.py [MTGJSON file or folder ...]
       (default: ../shared/corpus-full/mtgjson/AllPrintings.json.xz)

``kb.search.lang.fr.KEYWORDS`` and ``kb.search.lang.es.KEYWORDS`` name each keyword as a French
or Spanish query would, for the keywords the loaded sets do not teach. A wrong name there is
silent: the query just finds nothing. This script reads every card that has the keyword
(MTGJSON ``keywords``) and a printed text in the language (``foreignData``), analyses both with
the search's own analyzer (fold, stop words, stems), and counts the texts in which the name's
terms occur in a row. A name found on none of at least ``--min-cards`` such cards is reported
as wrong, with the names those cards print most often, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import collections
import json
import lzma
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.search.analysis import analyze, text_analyzer  # noqa: E402
from kb.search.lang import search_language  # noqa: E402

LANGUAGES = {"fr": "French", "es": "Spanish"}


def mtgjson_cards(paths: list[Path]) -> Iterator[dict]:
    """Every card of the given MTGJSON set files, AllPrintings files or folders of them."""
    for path in paths:
        if path.is_dir():
            yield from mtgjson_cards(sorted(path.glob("*.json")) + sorted(path.glob("*.json.xz")))
            continue
        opener = lzma.open if path.suffix == ".xz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            data = json.load(handle)["data"]
        sets = data.values() if "cards" not in data else [data]
        for card_set in sets:
            yield from card_set.get("cards", [])


def contains(words: list[str], terms: list[str]) -> bool:
    """Whether ``terms`` occur in a row in ``words``."""
    n = len(terms)
    return n > 0 and any(words[i : i + n] == terms for i in range(len(words) - n + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = ROOT.parent / "shared" / "corpus-full" / "mtgjson" / "AllPrintings.json.xz"
    parser.add_argument("paths", nargs="*", type=Path, default=[default])
    parser.add_argument("--min-cards", type=int, default=5)
    args = parser.parse_args()

    names = {code: search_language(code).keywords for code in LANGUAGES}
    analyzers = {code: text_analyzer(code) for code in LANGUAGES}
    wanted = {
        code: {keyword.casefold() for keyword in keywords.values()}
        for code, keywords in names.items()
    }
    by_language = {name: code for code, name in LANGUAGES.items()}
    # (code, keyword) -> texts seen; (code, term) -> texts holding it; (code, keyword) -> lines
    texts: collections.Counter = collections.Counter()
    found: collections.Counter = collections.Counter()
    printed: dict[tuple[str, str], collections.Counter] = collections.defaultdict(
        collections.Counter
    )
    terms = {
        code: {term: analyze(analyzers[code], term) for term in keywords}
        for code, keywords in names.items()
    }
    for card in mtgjson_cards(args.paths):
        keywords = {k.casefold() for k in card.get("keywords") or ()}
        for face in card.get("foreignData") or ():
            code = by_language.get(face.get("language"))
            text = face.get("text")
            if code is None or not text or not keywords & wanted[code]:
                continue
            words = analyze(analyzers[code], text)
            for term, keyword in names[code].items():
                key = (code, keyword.casefold())
                if key[1] not in keywords:
                    continue
                texts[key] += 1
                if contains(words, terms[code][term]):
                    found[(code, term)] += 1
                else:
                    for line in text.splitlines():
                        printed[key][line.split("(")[0].split("{")[0].strip(" .—-")[:30]] += 1

    wrong = 0
    for code, keywords in names.items():
        for term, keyword in sorted(keywords.items(), key=lambda item: item[1]):
            seen, hits = texts[(code, keyword.casefold())], found[(code, term)]
            verdict = "ok"
            if seen == 0:
                verdict = "no printed text"
            elif hits == 0 and seen >= args.min_cards:
                verdict = "WRONG: printed " + ", ".join(
                    repr(line) for line, _ in printed[(code, keyword.casefold())].most_common(3)
                )
                wrong += 1
            print(f"{code}  {keyword:22} {term!r:28} {hits:5} of {seen:5} texts  {verdict}")
    print(f"\n{wrong} names printed on no card that has the keyword")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())

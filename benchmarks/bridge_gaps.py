"""List the words of the cards' French and Spanish texts that the search's dictionary leaves
without English.

Usage: python benchmarks/bridge_gaps.py [MTGJSON file or folder ...] [--top N]
       (default: the MTGJSON set files of ../shared/corpus)
       python benchmarks/bridge_gaps.py --rules [COMPREHENSIVE RULES FILE] [--top N]
       (default: the newest edition of ../shared/corpus/cr/en)

Rules exist in English only, so a French or Spanish query reaches them through the term bridge
(``kb.search.lang.fr.TO_ENGLISH``, ``…es.TO_ENGLISH``, cognates, the irregular forms). A word
the bridge lacks is silent: the query just finds no rule. This script reads every printed text
of the cards (MTGJSON ``foreignData``), analyses it with the search's own analyzer (fold, stop
words, stems, the irregular and generated verb forms), and counts the stems for which neither
the bridge, a cognate ending nor an official keyword name gives an English term, most frequent
first, each with the forms the cards print most (mana symbols' letters and chapter numerals
left out). Names of creature types come out too: the list is for a person to read, not a
test. The French and Spanish words the dictionary took on 2026-12-07 (``arrive``, ``crée``,
``entra``, ``obtiene``…; the verb forms ``sacrifica``, ``bloquent``…) were read off this list.

``--rules`` lists the other side: the English words of the rules (stop words and words of two
letters left out, stems counted, most frequent first) that no French or Spanish word leads to
(no dictionary entry, official keyword name or hand-written phrase gives them; words a cognate
ending reaches, "option" from "opción", are listed too). A judge asking
in French or Spanish says "appliquer", "aplicar" where the rules say "apply"; the words the
dictionary took for the rules' vocabulary on 2026-12-07 were read off this list.
"""

from __future__ import annotations

import argparse
import collections
import json
import lzma
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from keyword_names import LANGUAGES, mtgjson_cards  # noqa: E402

from kb.search.analysis import analyze, text_analyzer  # noqa: E402
from kb.search.lang import register_learned_terms, search_language  # noqa: E402

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_NUMERAL = re.compile(r"[ivx]+")  # a Saga's chapters, "I", "II", "III"


def gaps(paths: list[Path], lang: str) -> tuple[collections.Counter[str], dict]:
    """The stems of the language's card texts with no English, counted; their forms, counted."""
    language = search_language(lang)
    # The official keyword names reach their keyword as learned terms do when an index is built.
    register_learned_terms(lang, [(term, keyword) for term, keyword in language.keywords.items()])
    analyzer = text_analyzer(lang)
    name = LANGUAGES[lang]
    words: collections.Counter[str] = collections.Counter()
    for path in paths:
        try:
            for card in mtgjson_cards([path]):
                for foreign in card.get("foreignData") or []:
                    if foreign.get("language") == name and foreign.get("text"):
                        words.update(w.lower() for w in _WORD.findall(foreign["text"]))
        except json.JSONDecodeError as exc:  # a truncated or damaged file: nothing is guessed
            raise SystemExit(
                f"bridge_gaps: {path}: line {exc.lineno}: not MTGJSON: {exc.msg}"
            ) from None
        except (OSError, EOFError, lzma.LZMAError) as exc:
            raise SystemExit(f"bridge_gaps: {path}: unreadable: {exc}") from None
    stems: collections.Counter[str] = collections.Counter()
    forms: dict[str, collections.Counter[str]] = {}
    for word, count in words.items():
        if len(word) < 2 or _NUMERAL.fullmatch(word):
            continue
        terms = analyze(analyzer, word)
        if len(terms) != 1 or language.english_for(terms[0]) or language.cognate(word):
            continue
        stems[terms[0]] += count
        forms.setdefault(terms[0], collections.Counter())[word] += count
    return stems, forms


def rules_gaps(path: Path, lang: str) -> tuple[collections.Counter[str], dict]:
    """The stems of the English rules no word of the language leads to, counted; their forms."""
    from kb.corpus.encoding import decode
    from kb.errors import KbError

    language = search_language(lang)
    english = text_analyzer("en")
    reached: set[str] = set()
    for targets in (
        *language.to_english.values(),
        *((keyword,) for keyword in language.keywords.values()),
        *language.phrases.values(),
    ):
        for target in targets:
            reached.update(analyze(english, target))
    try:
        text, _encoding = decode(path.read_bytes(), str(path))
    except (OSError, KbError) as exc:
        raise SystemExit(f"bridge_gaps: {path}: unreadable: {exc}") from None
    words = collections.Counter(w.lower() for w in _WORD.findall(text))
    stems: collections.Counter[str] = collections.Counter()
    forms: dict[str, collections.Counter[str]] = {}
    for word, count in words.items():  # each distinct word analysed once
        if len(word) < 3:
            continue
        terms = analyze(english, word)
        if len(terms) != 1 or terms[0] in reached:
            continue
        stems[terms[0]] += count
        forms.setdefault(terms[0], collections.Counter())[word] += count
    return stems, forms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--top", type=int, default=60, help="stems listed per language")
    parser.add_argument(
        "--rules", action="store_true", help="the rules' English words no word leads to"
    )
    args = parser.parse_args()
    shared = ROOT.parent / "shared" / "corpus"
    if args.rules:
        # the default: the newest edition of the rules
        paths = args.paths or sorted((shared / "cr" / "en").glob("*.txt"))[-1:]
        if len(paths) != 1 or not paths[0].is_file():
            print("bridge_gaps: --rules reads one Comprehensive Rules text file", file=sys.stderr)
            return 2
        for lang, name in LANGUAGES.items():
            stems, forms = rules_gaps(paths[0], lang)
            _print(
                f"{name}: {len(stems)} stems of the rules that no {name} word leads to:",
                stems,
                forms,
                args.top,
            )
        return 0
    paths = args.paths or [shared / "mtgjson"]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        print(f"bridge_gaps: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    files = [
        f
        for p in paths
        for f in (sorted(p.glob("*.json")) + sorted(p.glob("*.json.xz")) if p.is_dir() else [p])
    ]
    for lang, name in LANGUAGES.items():
        stems, forms = gaps(files, lang)
        _print(
            f"{name}: {len(stems)} stems of the card texts without English; the most frequent:",
            stems,
            forms,
            args.top,
        )
    return 0


def _print(heading: str, stems: collections.Counter[str], forms: dict, top: int) -> None:
    """A language's list: the heading, then each stem's count and its most frequent forms."""
    print(heading)
    for stem, count in stems.most_common(top):
        printed = ", ".join(word for word, _ in forms[stem].most_common(4))
        print(f"  {count:>7}  {stem:<16} {printed}")


if __name__ == "__main__":
    sys.exit(main())

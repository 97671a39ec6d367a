"""Draw the unseen labelled set of rulings: random sets of AllPrintings, random rulings, one split.

Usage: python benchmarks/draw_rulings.py [--allprintings FILE] --out FILE
       python benchmarks/draw_rulings.py --second-dev --out FILE   (the dev2 draw)
       python benchmarks/draw_rulings.py --third-dev --out FILE    (the dev3 draw)
       python benchmarks/draw_rulings.py --fourth-dev --out FILE   (the dev4 draw)
       python benchmarks/draw_rulings.py --fifth-dev --out FILE    (the dev5 draw)
       python benchmarks/draw_rulings.py --sixth-dev --out FILE    (the dev6 draw)
       python benchmarks/draw_rulings.py --seventh-dev --out FILE  (the dev7 draw)
       python benchmarks/draw_rulings.py --eighth-dev --out FILE   (the dev8 draw)
       python benchmarks/draw_rulings.py --ninth-dev --out FILE    (the dev9 draw)
       python benchmarks/draw_rulings.py --tenth-dev --out FILE    (the dev10 draw, after dev9's)
       python benchmarks/draw_rulings.py --eleventh-dev --out FILE (the dev11 draw)
       python benchmarks/draw_rulings.py --twelfth-dev --out FILE  (the dev12 draw, after dev11's)
       python benchmarks/draw_rulings.py --thirteenth-dev --out FILE  (the dev13 draw)
       python benchmarks/draw_rulings.py --fourteenth-dev --out FILE  (dev14, after dev13's)
       python benchmarks/draw_rulings.py --fifteenth-dev --out FILE   (the dev15 draw)
       python benchmarks/draw_rulings.py --sixteenth-dev --out FILE   (dev16, after dev15's)
       python benchmarks/draw_rulings.py --seventeenth-dev --out FILE (the dev17 draw)
       python benchmarks/draw_rulings.py --eighteenth-dev --out FILE  (dev18, after dev17's)
       python benchmarks/draw_rulings.py --nineteenth-dev --out FILE  (the dev19 draw)
       python benchmarks/draw_rulings.py --twentieth-dev --out FILE   (dev20, after dev19's)
       python benchmarks/draw_rulings.py --twenty-first-dev --out FILE  (the dev21 draw)
       python benchmarks/draw_rulings.py --twenty-second-dev --out FILE (dev22, after dev21's)
       python benchmarks/draw_rulings.py --twenty-third-dev --out FILE  (the dev23 draw)
       python benchmarks/draw_rulings.py --twenty-fourth-dev --out FILE (dev24, after dev23's)
       python benchmarks/draw_rulings.py --twenty-fifth-dev --out FILE  (dev25, after dev24's)
       python benchmarks/draw_rulings.py --twenty-sixth-dev --out FILE  (dev26, after dev25's)
       python benchmarks/draw_rulings.py --twenty-seventh-dev --out FILE (the dev27 draw)
       python benchmarks/draw_rulings.py --twenty-eighth-dev --out FILE (dev28, after dev27's)
       python benchmarks/draw_rulings.py --twenty-ninth-dev --out FILE  (dev29, after dev28's)
       python benchmarks/draw_rulings.py --thirtieth-dev --out FILE     (dev30, after dev29's)
       python benchmarks/draw_rulings.py --thirty-first-dev --out FILE  (dev31, after dev30's)
       python benchmarks/draw_rulings.py --thirty-second-dev --out FILE (dev32, after dev31's)
       python benchmarks/draw_rulings.py --thirty-third-dev --out FILE  (dev33, after dev32's)
       python benchmarks/draw_rulings.py --thirty-fourth-dev --out FILE (dev34, after dev33's)
       python benchmarks/draw_rulings.py --thirty-fifth-dev --out FILE  (dev35, after dev34's)

The term matcher was tuned on the 105 rulings of labelled_clarifications.json (seeds 000 and 003,
KHM, CN2) and on LTR's Ring; those sets are excluded. From the other sets of the kinds a player
meets (expansion, core, draft innovation, commander) with at least 60 distinct rulings, SETS sets
are drawn with random.Random(SEED), then PER_SET distinct rulings of each (texts already in the
old labels are left out), then each set's rulings are split once: the first DEV_PER_SET drawn go
to ``dev`` (tuning), the rest to ``test`` (reporting only). The file written has empty labels;
they were filled in by hand before the matcher was run on these rulings.

``--second-dev`` draws a second tuning set once dev had too few mistakes left to tune on:
random.Random(its seed) draws its number of sets among the same kinds, excluding also every set
a labels file of tests/data/links names (the unseen rulings' and the card texts' sets), then its
number of rulings of each, all of them ``dev`` (tuning only; its mistakes are printed).
``--third-dev`` to ``--thirty-fifth-dev`` draw the same way, each avoiding the sets of every
labels file present when it is drawn (dev4 avoids dev2's and dev3's sets, dev5 dev4's too ...
dev35 dev34's too), once the tuning sets before them were overfit (dev recall well above the test
split's). Each further draw's seed and sizes are in FURTHER_DEVS.
"""

from __future__ import annotations

import argparse
import json
import lzma
import random
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ALLPRINTINGS = ROOT.parent / "shared" / "corpus-full" / "mtgjson" / "AllPrintings.json.xz"
OLD_LABELS = ROOT / "tests" / "data" / "links" / "labelled_clarifications.json"
SEED = 20261201
SETS = 8
PER_SET = 25
DEV_PER_SET = 12
EXCLUDED = frozenset({"KHM", "CN2", "LTR"})
KINDS = frozenset({"expansion", "core", "draft_innovation", "commander"})
MIN_RULINGS = 60
LABELS = ROOT / "tests" / "data" / "links"


@dataclass(frozen=True)
class FurtherDev:
    """A further tuning draw: its name, command-line flag, seed, sizes and why it was drawn."""

    name: str
    flag: str
    ordinal: str
    seed: int
    sets: int
    per_set: int
    about: str
    kinds: frozenset[str] = KINDS


FURTHER_DEVS = (
    FurtherDev(
        "dev2",
        "--second-dev",
        "second",
        20261210,
        4,
        22,
        "A second tuning set of rulings (dev2), drawn once dev had 12 mistakes left.",
    ),
    FurtherDev(
        "dev3",
        "--third-dev",
        "third",
        20261202,
        4,
        22,
        "A third tuning set of rulings (dev3), drawn once dev2's mistakes were single cases.",
    ),
    FurtherDev(
        "dev4",
        "--fourth-dev",
        "fourth",
        20261207,
        4,
        22,
        "A fourth tuning set of rulings (dev4), drawn once the dev splits were overfit "
        "(dev recall 0.975 against the test split's 0.800).",
    ),
    FurtherDev(
        "dev5",
        "--fifth-dev",
        "fifth",
        20261212,
        4,
        22,
        "A fifth tuning set of rulings (dev5), drawn once dev, dev2, dev3 and dev4 were "
        "all tuned to their ceiling (0.90-0.97) and no longer predicted the test split.",
    ),
    FurtherDev(
        "dev6",
        "--sixth-dev",
        "sixth",
        20261214,
        4,
        22,
        "A sixth tuning set of rulings (dev6), drawn once dev to dev5 were all tuned to "
        "their ceiling and each fresh set's first score, not its tuned one, was near the test "
        "split's.",
    ),
    FurtherDev(
        "dev7",
        "--seventh-dev",
        "seventh",
        20261221,
        4,
        22,
        "A seventh tuning set of rulings (dev7), drawn once dev to dev6 were tuned to their "
        "ceiling and each fresh set's first score, not its tuned one, was near the test split's.",
    ),
    FurtherDev(
        "dev8",
        "--eighth-dev",
        "eighth",
        20261228,
        4,
        22,
        "An eighth tuning set of rulings (dev8), drawn once dev to dev7 were tuned to their "
        "ceiling, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev9",
        "--ninth-dev",
        "ninth",
        20270104,
        4,
        22,
        "A ninth tuning set of rulings (dev9), drawn with dev10 once dev to dev8 were tuned to "
        "their ceiling, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev10",
        "--tenth-dev",
        "tenth",
        20270111,
        4,
        22,
        "A tenth tuning set of rulings (dev10), drawn after dev9 (its sets excluded) so that a "
        "round is tuned on twice as many unseen rulings.",
    ),
    FurtherDev(
        "dev11",
        "--eleventh-dev",
        "eleventh",
        20270118,
        4,
        22,
        "An eleventh tuning set of rulings (dev11), drawn with dev12 once dev9 and dev10 were "
        "tuned on, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev12",
        "--twelfth-dev",
        "twelfth",
        20270125,
        4,
        22,
        "A twelfth tuning set of rulings (dev12), drawn after dev11 (its sets excluded).",
    ),
    FurtherDev(
        "dev13",
        "--thirteenth-dev",
        "thirteenth",
        20270201,
        4,
        22,
        "A thirteenth tuning set of rulings (dev13), drawn with dev14 once dev11 and dev12 were "
        "tuned on, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev14",
        "--fourteenth-dev",
        "fourteenth",
        20270208,
        4,
        22,
        "A fourteenth tuning set of rulings (dev14), drawn after dev13 (its sets excluded).",
    ),
    FurtherDev(
        "dev15",
        "--fifteenth-dev",
        "fifteenth",
        20270215,
        4,
        22,
        "A fifteenth tuning set of rulings (dev15), drawn with dev16 once dev13 and dev14 were "
        "tuned on, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev16",
        "--sixteenth-dev",
        "sixteenth",
        20270222,
        4,
        22,
        "A sixteenth tuning set of rulings (dev16), drawn after dev15 (its sets excluded).",
    ),
    FurtherDev(
        "dev17",
        "--seventeenth-dev",
        "seventeenth",
        20270301,
        4,
        22,
        "A seventeenth tuning set of rulings (dev17), drawn with dev18 once dev15 and dev16 were "
        "tuned on, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev18",
        "--eighteenth-dev",
        "eighteenth",
        20270308,
        4,
        22,
        "An eighteenth tuning set of rulings (dev18), drawn after dev17 (its sets excluded).",
    ),
    FurtherDev(
        "dev19",
        "--nineteenth-dev",
        "nineteenth",
        20270315,
        4,
        22,
        "A nineteenth tuning set of rulings (dev19), drawn with dev20 once dev17 and dev18 were "
        "tuned on, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev20",
        "--twentieth-dev",
        "twentieth",
        20270322,
        4,
        22,
        "A twentieth tuning set of rulings (dev20), drawn after dev19 (its sets excluded).",
    ),
    FurtherDev(
        "dev21",
        "--twenty-first-dev",
        "twenty-first",
        20270329,
        4,
        22,
        "A twenty-first tuning set of rulings (dev21), drawn with dev22 once dev19 and dev20 were "
        "tuned on, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev22",
        "--twenty-second-dev",
        "twenty-second",
        20270405,
        4,
        22,
        "A twenty-second tuning set of rulings (dev22), drawn after dev21 (its sets excluded).",
    ),
    FurtherDev(
        "dev23",
        "--twenty-third-dev",
        "twenty-third",
        20270412,
        4,
        22,
        "A twenty-third tuning set of rulings (dev23), drawn with dev24 to dev26 once dev21 and "
        "dev22 were tuned on, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev24",
        "--twenty-fourth-dev",
        "twenty-fourth",
        20270419,
        4,
        22,
        "A twenty-fourth tuning set of rulings (dev24), drawn after dev23 (its sets excluded).",
    ),
    FurtherDev(
        "dev25",
        "--twenty-fifth-dev",
        "twenty-fifth",
        20270426,
        4,
        22,
        "A twenty-fifth tuning set of rulings (dev25), drawn after dev24 (its sets excluded).",
    ),
    FurtherDev(
        "dev26",
        "--twenty-sixth-dev",
        "twenty-sixth",
        20270503,
        4,
        22,
        "A twenty-sixth tuning set of rulings (dev26), drawn after dev25 (its sets excluded).",
    ),
    FurtherDev(
        "dev27",
        "--twenty-seventh-dev",
        "twenty-seventh",
        20270510,
        4,
        22,
        "A twenty-seventh tuning set of rulings (dev27), drawn with dev28 to dev30 once dev23 to "
        "dev26 were tuned on, to measure the matcher of the round before on rulings it never saw.",
    ),
    FurtherDev(
        "dev28",
        "--twenty-eighth-dev",
        "twenty-eighth",
        20270517,
        4,
        22,
        "A twenty-eighth tuning set of rulings (dev28), drawn after dev27 (its sets excluded).",
    ),
    FurtherDev(
        "dev29",
        "--twenty-ninth-dev",
        "twenty-ninth",
        20270524,
        4,
        22,
        "A twenty-ninth tuning set of rulings (dev29), drawn after dev28 (its sets excluded).",
    ),
    FurtherDev(
        "dev30",
        "--thirtieth-dev",
        "thirtieth",
        20270531,
        4,
        22,
        "A thirtieth tuning set of rulings (dev30), drawn after dev29 (its sets excluded).",
    ),
    FurtherDev(
        "dev31",
        "--thirty-first-dev",
        "thirty-first",
        20270607,
        4,
        22,
        "A thirty-first tuning set of rulings (dev31), drawn after dev30 (its sets excluded).",
    ),
    FurtherDev(
        "dev32",
        "--thirty-second-dev",
        "thirty-second",
        20270614,
        4,
        22,
        "A thirty-second tuning set of rulings (dev32), drawn after dev31 (its sets excluded), "
        "among masters sets too: "
        "every expansion, core, draft innovation and commander set with enough rulings was drawn.",
        KINDS | {"masters"},
    ),
    FurtherDev(
        "dev33",
        "--thirty-third-dev",
        "thirty-third",
        20270621,
        4,
        22,
        "A thirty-third tuning set of rulings (dev33), drawn after dev32 (its sets excluded), "
        "among masters sets too: "
        "every expansion, core, draft innovation and commander set with enough rulings was drawn.",
        KINDS | {"masters"},
    ),
    FurtherDev(
        "dev34",
        "--thirty-fourth-dev",
        "thirty-fourth",
        20270628,
        4,
        22,
        "A thirty-fourth tuning set of rulings (dev34), drawn after dev33 (its sets excluded), "
        "among masters sets too: "
        "every expansion, core, draft innovation and commander set with enough rulings was drawn.",
        KINDS | {"masters"},
    ),
    FurtherDev(
        "dev35",
        "--thirty-fifth-dev",
        "thirty-fifth",
        20270705,
        4,
        22,
        "A thirty-fifth tuning set of rulings (dev35), drawn after dev34 (its sets excluded), "
        "among masters and duel deck sets too: fewer than four masters sets with enough "
        "rulings were left (after it, fewer than four sets of any of these kinds).",
        KINDS | {"masters", "duel_deck"},
    ),
)


def load_allprintings(path: Path) -> dict[str, Any]:
    """AllPrintings (``.json`` or ``.json.xz``) as a dict."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        return json.load(handle)


def set_rulings(cards: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Each distinct ruling text of a set and the names of the cards that carry it, in order."""
    carriers: dict[str, list[str]] = defaultdict(list)
    for card in cards:
        for ruling in card.get("rulings") or ():
            text = " ".join(str(ruling.get("text", "")).split())
            if text and card["name"] not in carriers[text]:
                carriers[text].append(card["name"])
    return dict(carriers)


def labelled_sets() -> frozenset[str]:
    """Every set a labels file of tests/data/links names: its rulings or card texts were seen."""
    codes: set[str] = set()
    for path in sorted(LABELS.glob("labelled_*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        codes.update(data.get("sets") or ())
        codes.update(str(i.get("source", "")) for i in data.get("items", ()) if i.get("source"))
    return frozenset(codes)


def draw(
    data: dict[str, Any],
    old_texts: set[str],
    *,
    seed: int = SEED,
    sets: int = SETS,
    per_set: int = PER_SET,
    dev_per_set: int = DEV_PER_SET,
    excluded: frozenset[str] = EXCLUDED,
    kinds: frozenset[str] = KINDS,
) -> list[dict[str, Any]]:
    """The drawn items, with their split, in drawing order."""
    rng = random.Random(seed)
    eligible = []
    by_set: dict[str, dict[str, list[str]]] = {}
    for code in sorted(data):
        info = data[code]
        if code in excluded or info.get("type") not in kinds:
            continue
        rulings = set_rulings(info.get("cards") or [])
        rulings = {t: c for t, c in rulings.items() if t.casefold() not in old_texts}
        if len(rulings) >= MIN_RULINGS:
            eligible.append(code)
            by_set[code] = rulings
    if len(eligible) < sets:
        sys.exit(
            f"only {len(eligible)} sets of types {sorted(kinds)} with >= {MIN_RULINGS} rulings "
            f"no labels file holds are left ({', '.join(eligible) or 'none'}); {sets} wanted"
        )
    chosen = rng.sample(eligible, sets)
    items: list[dict[str, Any]] = []
    for code in chosen:
        texts = sorted(by_set[code])
        for k, text in enumerate(rng.sample(texts, per_set)):
            items.append(
                {
                    "id": f"{code}-{k + 1}",
                    "source": code,
                    "split": "dev" if k < dev_per_set else "test",
                    "cards": by_set[code][text],
                    "text": text,
                    "rules": [],
                    "related": [],
                    "implied": [],
                }
            )
    return items


CARD_TEXTS_PER_LANGUAGE = 15
FOREIGN = {"French": "fr", "Spanish": "es"}


def draw_card_texts(
    data: dict[str, Any], codes: list[str], seed: int = SEED + 1
) -> list[dict[str, Any]]:
    """French and Spanish card rules texts of the given sets, CARD_TEXTS_PER_LANGUAGE of each."""
    rng = random.Random(seed)
    items: list[dict[str, Any]] = []
    for language, code in FOREIGN.items():
        pool: dict[str, dict[str, Any]] = {}
        for set_code in codes:
            for card in data[set_code].get("cards") or ():
                for entry in card.get("foreignData") or ():
                    if entry.get("language") == language and entry.get("text"):
                        pool.setdefault(entry["text"], {"card": card, "set": set_code})
        for k, text in enumerate(rng.sample(sorted(pool), CARD_TEXTS_PER_LANGUAGE)):
            card = pool[text]["card"]
            items.append(
                {
                    "id": f"{code}-{k + 1}",
                    "source": pool[text]["set"],
                    "language": code,
                    "cards": [card["name"]],
                    "english": card.get("text", ""),
                    "text": text,
                    "rules": [],
                    "related": [],
                    "implied": [],
                }
            )
    return items


def draw_further_dev(document: dict[str, Any], out_path: Path, dev: FurtherDev) -> None:
    """Write a further tuning draw (dev2, dev3): sets and texts of no labels file, every item dev.

    The labels files present when it is drawn decide what is excluded, so each further draw
    avoids every set and ruling seen before it (dev3 avoids dev2's sets).
    """
    seen_texts = {
        " ".join(item["text"].split()).casefold()
        for path in sorted(LABELS.glob("labelled_*.json"))
        for item in json.loads(path.read_text(encoding="utf-8")).get("items", ())
    }
    excluded = EXCLUDED | labelled_sets()
    items = draw(
        document["data"],
        seen_texts,
        seed=dev.seed,
        sets=dev.sets,
        per_set=dev.per_set,
        dev_per_set=dev.per_set,
        excluded=excluded,
        kinds=dev.kinds,
    )
    out = {
        "about": dev.about,
        "edition": "2026-01-16",
        "language": "en",
        "allprintings": document.get("meta", {}),
        "sample": (
            f"benchmarks/draw_rulings.py {dev.flag}: random.Random({dev.seed}) draws "
            f"{dev.sets} sets among those of types {sorted(dev.kinds)} with >= {MIN_RULINGS} "
            f"distinct rulings, except {sorted(EXCLUDED)} and every set a labels file names "
            f"({sorted(c for c in excluded - EXCLUDED if not c.startswith('seed'))}); then "
            f"{dev.per_set} distinct rulings per set not in any labels file; all are dev"
        ),
        "sets": sorted({i["source"] for i in items}),
        "policy": "labelling_policy.md",
        "items": items,
    }
    out_path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(items)} rulings from {out['sets']} -> {out_path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--allprintings", type=Path, default=DEFAULT_ALLPRINTINGS)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--card-texts", type=Path, help="also draw French and Spanish card texts")
    parser.add_argument(
        "--held-out-card-texts",
        type=Path,
        help="also draw French and Spanish card texts of 4 other sets (drawn after the vocabulary)",
    )
    for dev in FURTHER_DEVS:
        parser.add_argument(
            dev.flag,
            action="store_true",
            help=f"draw the {dev.ordinal} tuning set ({dev.name}) from sets no labels file names",
        )
    args = parser.parse_args()
    if not args.allprintings.is_file():
        sys.exit(f"no AllPrintings at {args.allprintings}")
    old = json.loads(OLD_LABELS.read_text(encoding="utf-8"))
    old_texts = {" ".join(i["text"].split()).casefold() for i in old["items"]}
    document = load_allprintings(args.allprintings)
    for dev in FURTHER_DEVS:
        if getattr(args, dev.flag.removeprefix("--").replace("-", "_")):
            draw_further_dev(document, args.out, dev)
            return
    items = draw(document["data"], old_texts)
    out = {
        "about": "Rulings the term matcher was never tuned on, for measuring term links.",
        "edition": "2026-01-16",
        "language": "en",
        "allprintings": document.get("meta", {}),
        "sample": (
            f"benchmarks/draw_rulings.py: random.Random({SEED}) draws {SETS} sets among those of "
            f"types {sorted(KINDS)} with >= {MIN_RULINGS} distinct rulings, except "
            f"{sorted(EXCLUDED)}; then {PER_SET} distinct rulings per set; the first "
            f"{DEV_PER_SET} drawn of each set are dev, the rest test"
        ),
        "sets": sorted({i["source"] for i in items}),
        "policy": "as in labelled_clarifications.json, with the additions in labelling_policy.md",
        "items": items,
    }
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(items)} rulings from {out['sets']} -> {args.out}")
    if args.card_texts:
        texts = draw_card_texts(document["data"], out["sets"])
        sample = {
            "about": "French and Spanish card rules texts (MTGJSON foreignData) for term links.",
            "edition": "2026-01-16",
            "sample": (
                f"benchmarks/draw_rulings.py --card-texts: random.Random({SEED + 1}) draws "
                f"{CARD_TEXTS_PER_LANGUAGE} distinct texts per language among the cards of "
                f"{out['sets']}"
            ),
            "policy": "labelling_policy.md",
            "items": texts,
        }
        args.card_texts.write_text(
            json.dumps(sample, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        print(f"{len(texts)} card texts -> {args.card_texts}")
    if args.held_out_card_texts:
        rng = random.Random(SEED + 2)
        others = [
            code
            for code in sorted(document["data"])
            if code not in EXCLUDED
            and code not in out["sets"]
            and document["data"][code].get("type") in KINDS
            and any(
                entry.get("language") == "French" and entry.get("text")
                for card in document["data"][code].get("cards") or ()
                for entry in card.get("foreignData") or ()
            )
        ]
        codes = sorted(rng.sample(others, 4))
        texts = draw_card_texts(document["data"], codes, SEED + 3)
        for item in texts:
            item["id"] = "held-out-" + item["id"]
        sample = {
            "about": (
                "French and Spanish card rules texts (MTGJSON foreignData) of sets not used "
                "before, drawn and labelled after the French and Spanish keyword names were "
                "added to the thesaurus: a held-out measure of them."
            ),
            "edition": "2026-01-16",
            "sample": (
                f"benchmarks/draw_rulings.py --held-out-card-texts: random.Random({SEED + 2}) "
                f"draws 4 sets with French texts among the eligible ones not drawn for rulings, "
                f"then random.Random({SEED + 3}) {CARD_TEXTS_PER_LANGUAGE} texts per language"
            ),
            "sets": codes,
            "policy": "labelling_policy.md",
            "items": texts,
        }
        args.held_out_card_texts.write_text(
            json.dumps(sample, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        print(f"{len(texts)} held-out card texts from {codes} -> {args.held_out_card_texts}")


if __name__ == "__main__":
    main()

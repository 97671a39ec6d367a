"""Precision and recall of term links from rulings and card texts to rules, against hand labels.

Usage: python benchmarks/term_links.py [--labels FILE ...] [--corpus DIR ...]
       [--allprintings FILE] [--home DIR] [--errors]

Without ``--labels`` it scores the project's sets: the 105 rulings the matcher was tuned on
(labelled_clarifications.json, a regression set), the 200 unseen rulings of labelled_unseen.json
(``dev``: tune on it, its mistakes are listed; ``test``: report only, its mistakes are never
printed), the 88 rulings each of labelled_dev2.json to labelled_dev35.json (further tuning sets,
all ``dev``: their mistakes are listed too), the French and Spanish card texts of
labelled_card_texts.json (seen while writing the French and Spanish keyword names) and
labelled_card_texts_held_out.json (drawn after), and the translated rulings of
labelled_translations.json. Each file gets a line ``all    precision P (…)  recall R (…)``,
then one per split, source set and language.

The knowledge base is built fresh from the seeds, the shared corpus and, for the labels files
that name their ``sets``, those sets extracted from AllPrintings into MTGJSON set files in a
temporary folder; ``--corpus DIR`` (repeatable) builds it from the given folders instead (add
``--allprintings`` to extract the named sets too). ``--home DIR`` keeps the knowledge base there
(or reads the one already there; ``--relink`` rebuilds its links first, to score a matcher
change). A labelled text is found in the knowledge base by its words (an English ruling, a card
text in its language); a text that is in none (the translated rulings) is matched with the
vocabulary the link builder uses. Targets, on the unseen test split: precision >= 0.93,
recall >= 0.85.
"""

from __future__ import annotations

import argparse
import json
import lzma
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "links"
# The further tuning sets, labelled_dev2.json on, in their order (each drawn by draw_rulings.py).
FURTHER_LABELS = sorted(
    DATA.glob("labelled_dev*.json"), key=lambda path: int(path.stem.removeprefix("labelled_dev"))
)
DEFAULT_LABELS = [
    DATA / "labelled_clarifications.json",
    DATA / "labelled_unseen.json",
    *FURTHER_LABELS,
    DATA / "labelled_card_texts.json",
    DATA / "labelled_card_texts_held_out.json",
    DATA / "labelled_translations.json",
]
SHARED = ROOT.parent / "shared"
ALLPRINTINGS = SHARED / "corpus-full" / "mtgjson" / "AllPrintings.json.xz"
TARGET_PRECISION, TARGET_RECALL = 0.93, 0.85


def _key(text: str) -> str:
    from kb.langs import normalize_typography

    return " ".join(normalize_typography(text).split()).casefold()


def extract_sets(allprintings: Path, codes: set[str], folder: Path) -> list[str]:
    """Write each named set of AllPrintings as an MTGJSON set file; return the codes written."""
    opener = lzma.open if allprintings.suffix == ".xz" else open
    with opener(allprintings, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        document = json.load(handle)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for code in sorted(codes):
        data = document["data"].get(code)
        if data is None:
            sys.exit(f"{allprintings} has no set {code}")
        path = folder / f"{code}.json"
        path.write_text(json.dumps({"meta": document.get("meta", {}), "data": data}), "utf-8")
        written.append(code)
    return written


class Predictor:
    """The rules the knowledge base links a labelled text to, whatever kind of text it is."""

    def __init__(self, session: Any, edition: str) -> None:
        from sqlalchemy import select

        from kb.models import CardLocalization, ClarificationText
        from kb.versions import resolve_edition

        self.session = session
        self.edition = resolve_edition(session, edition)
        self.rulings: dict[tuple[str, str], int] = {}
        for clar_id, language, text in session.execute(
            select(
                ClarificationText.clarification_id,
                ClarificationText.language,
                ClarificationText.text,
            )
        ).all():
            self.rulings.setdefault((language, _key(text)), clar_id)
        self.cards: dict[tuple[str, str], int] = {}
        for loc_id, language, text in session.execute(
            select(CardLocalization.id, CardLocalization.language, CardLocalization.text)
        ).all():
            if text:
                self.cards.setdefault((language, _key(text)), loc_id)
        self._vocab: dict[str, Any] | None = None

    def predict(self, item: dict[str, Any], language: str) -> tuple[str, list[str]] | None:
        """(how the text was found, the rule numbers linked), or None if it is nowhere."""
        from kb.links import rules_for_clarification

        key = (language, _key(item["text"]))
        if key in self.rulings:
            linked = rules_for_clarification(self.session, self.rulings[key], self.edition.key)
            return "ruling", [r["number"] for r in linked]
        if key in self.cards:
            return "card text", self._card_links(self.cards[key])
        if language == "en":
            return None
        return "vocabulary", self._vocabulary_match(item, language)

    def _card_links(self, loc_id: int) -> list[str]:
        from kb.links import edition_links

        found = edition_links(
            self.session, self.edition, source_types=["card_text"], source_ids=[loc_id]
        )
        return [link.target for link in found if link.resolved]

    def _vocabulary_match(self, item: dict[str, Any], language: str) -> list[str]:
        from kb.links import vocabularies
        from kb.links.build import name_forms

        if self._vocab is None:
            self._vocab = vocabularies(self.session, self.edition, {"fr", "es"})
        names = [form for card in item.get("cards", ()) for form in name_forms(card)]
        found = self._vocab[language].match(item["text"], mask=names)
        return [n for match in found for n in match.term.targets]


def score_file(predictor: Predictor, labels: dict[str, Any], path: Path) -> dict[str, Any]:
    """Scores of one labels file: overall, per split, per source set, per language."""
    from kb.links.evaluate import Score

    groups: dict[str, Score] = defaultdict(Score)
    dev = Score()
    for item in labels["items"]:
        language = item.get("language") or labels.get("language", "en")
        found = predictor.predict(item, language)
        if found is None:
            sys.exit(f"{path.name}: item {item['id']} is not in the knowledge base: {item['text']}")
        predicted = found[1]
        source = "seeds" if str(item.get("source", "")).startswith("seed") else item.get("source")
        keys = ["all", f"split {item['split']}" if "split" in item else None]
        keys += [f"set {source}" if source else None, f"lang {language}", f"via {found[0]}"]
        for key in filter(None, keys):
            groups[key].add(item, predicted)
        if item.get("split") == "dev":
            dev.add(item, predicted)
    return {"groups": dict(groups), "dev": dev}


def _line(name: str, score: Any) -> str:
    predicted = score.true_positives + score.false_positives
    return (
        f"{name:6} precision {score.precision:.3f} ({score.true_positives}/{predicted})  "
        f"recall {score.recall:.3f} ({score.found}/{score.expected})  "
        f"recall incl. unnamed rules {score.recall_with_implied:.3f} "
        f"({score.found_with_implied}/{score.expected_with_implied})"
    )


def report(path: Path, labels: dict[str, Any], result: dict[str, Any], errors: bool) -> None:
    """Print a file's scores; mistakes of its dev split (all of them with --errors and no split)."""
    groups = result["groups"]
    print(f"{path.name}: {len(labels['items'])} labelled texts (edition {labels['edition']})")
    print(_line("all", groups["all"]))
    for name in sorted(k for k in groups if k != "all"):
        print("  " + _line(name, groups[name]))
    has_split = any("split" in item for item in labels["items"])
    mistakes = result["dev"].mistakes if has_split else groups["all"].mistakes if errors else []
    if mistakes:
        print(f"  mistakes ({'dev split only' if has_split else 'all'}):")
    for mistake in mistakes:
        print(
            f"    [{mistake['id']}] wrong {mistake['wrong']} missed {mistake['missed']}: "
            f"{mistake['text'][:110]}"
        )
    test = groups.get("split test")
    if test is not None:
        ok = test.precision >= TARGET_PRECISION and test.recall >= TARGET_RECALL
        print(
            f"  target on test: precision >= {TARGET_PRECISION} and recall >= {TARGET_RECALL}: "
            f"{'met' if ok else 'NOT met'}"
        )
    print()


def _named_sets(labels: list[dict[str, Any]]) -> set[str]:
    return {code for data in labels for code in data.get("sets", ())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, action="append", help="a labels file (repeatable)")
    parser.add_argument("--corpus", type=Path, action="append", help="a corpus folder (repeatable)")
    parser.add_argument("--allprintings", type=Path, help="extract the labels' sets from this file")
    parser.add_argument(
        "--home", type=Path, help="use this knowledge base (built there first if it has none)"
    )
    parser.add_argument(
        "--relink",
        action="store_true",
        help="with --home: rebuild its links first",
    )
    parser.add_argument(
        "--errors", action="store_true", help="list the mistakes of files without split"
    )
    args = parser.parse_args()

    from kb.config import Settings
    from kb.links.evaluate import load_labels
    from kb.pipeline import ingest, open_db

    paths = args.labels or DEFAULT_LABELS
    labels = [load_labels(p) for p in paths]
    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or Path(tmp) / "_kb"
        if args.home is None or not (home / "kb.sqlite").exists():
            folders = args.corpus or [ROOT / "corpus", SHARED / "corpus"]
            allprintings = args.allprintings or (None if args.corpus else ALLPRINTINGS)
            codes = _named_sets(labels)
            if allprintings and codes:
                if not allprintings.is_file():
                    sys.exit(f"no AllPrintings at {allprintings} (needed for sets {sorted(codes)})")
                extract_sets(allprintings, codes, Path(tmp) / "sets")
                folders = [*folders, Path(tmp) / "sets"]
            for folder in folders:
                if not folder.is_dir():
                    sys.exit(f"no corpus folder at {folder}")
            result = ingest(Settings(home=home), folders)
            if result.failed:
                sys.exit(f"ingest failed: {result.failed}")
        db = open_db(Settings(home=home), create=False)
        if args.home is not None and args.relink:
            from kb.links import build_links

            with db.session() as session:
                build_links(session, sorted({data["edition"] for data in labels}))
                session.commit()
        with db.session() as session:
            predictors: dict[str, Predictor] = {}
            for path, data in zip(paths, labels, strict=True):
                edition = data["edition"]
                if edition not in predictors:
                    predictors[edition] = Predictor(session, edition)
                report(path, data, score_file(predictors[edition], data, path), args.errors)
        db.dispose()


if __name__ == "__main__":
    main()

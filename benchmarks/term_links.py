"""Precision and recall of the term links from rulings to rules, against hand labels.

Usage: python benchmarks/term_links.py [--corpus ../shared/corpus] [--home DIR] [--errors]

Builds a fresh knowledge base from the seeds and the real corpus (or reads --home), then scores
the rules each labelled ruling is linked to in the 2026-01-16 edition (the links ``kb ingest``
built) against tests/data/links/labelled_clarifications.json, and the French and Spanish
vocabularies against labelled_translations.json (no French or Spanish ruling is in the corpus:
those texts are matched with the same vocabularies the link builder uses). The labelling policy
is in the labels file; targets: precision >= 0.9, recall >= 0.8.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "data" / "links" / "labelled_clarifications.json"
TRANSLATIONS = ROOT / "tests" / "data" / "links" / "labelled_translations.json"


def english_scores(session: Any, labels: dict[str, Any]) -> dict[str, Any]:
    """Score the stored links of each labelled ruling; per source and overall."""
    from sqlalchemy import select

    from kb.langs import normalize_typography
    from kb.links import rules_for_clarification
    from kb.links.evaluate import Score
    from kb.models import ClarificationText

    by_text = {
        normalize_typography(text).casefold(): clar_id
        for clar_id, text in session.execute(
            select(ClarificationText.clarification_id, ClarificationText.text).where(
                ClarificationText.language == "en"
            )
        ).all()
    }
    scores: dict[str, Score] = defaultdict(Score)
    for item in labels["items"]:
        clar_id = by_text.get(normalize_typography(item["text"]).casefold())
        if clar_id is None:
            sys.exit(f"labelled ruling {item['id']} is not in the knowledge base: {item['text']}")
        linked = rules_for_clarification(session, clar_id, labels["edition"])
        predicted = [r["number"] for r in linked]
        group = "seeds" if item["source"].startswith("seed") else item["source"]
        scores["all"].add(item, predicted)
        scores[group].add(item, predicted)
    return scores


def translation_scores(session: Any, labels: dict[str, Any]) -> dict[str, Any]:
    """Score the French and Spanish vocabularies on the translated labelled rulings."""
    from kb.links import vocabularies
    from kb.links.build import name_forms
    from kb.links.evaluate import Score
    from kb.versions import resolve_edition

    edition = resolve_edition(session, labels["edition"])
    vocab = vocabularies(session, edition, {"fr", "es"})
    scores: dict[str, Score] = defaultdict(Score)
    for item in labels["items"]:
        names = [form for card in item["cards"] for form in name_forms(card)]
        found = vocab[item["language"]].match(item["text"], mask=names)
        predicted = [n for match in found for n in match.term.targets]
        scores[item["language"]].add(item, predicted)
    return scores


def report(title: str, scores: dict[str, Any], errors: bool) -> None:
    """Print precision and recall per group, and the mistakes if asked."""
    print(title)
    for group, score in scores.items():
        print(
            f"  {group:5}  precision {score.precision:.3f} ({score.true_positives}/"
            f"{score.true_positives + score.false_positives})  recall {score.recall:.3f} "
            f"({score.found}/{score.expected})  recall incl. unnamed rules "
            f"{score.recall_with_implied:.3f}"
        )
    if errors:
        for group, score in scores.items():
            if group == "all":
                continue
            for mistake in score.mistakes:
                print(
                    f"    [{group} {mistake['id']}] wrong {mistake['wrong']} missed "
                    f"{mistake['missed']}: {mistake['text'][:100]}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--home", type=Path, help="use this knowledge base instead of a fresh one")
    parser.add_argument("--errors", action="store_true", help="list every mistake")
    args = parser.parse_args()

    from kb.config import Settings
    from kb.links.evaluate import load_labels
    from kb.pipeline import ingest, open_db

    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or Path(tmp) / "_kb"
        if args.home is None:
            if not args.corpus.is_dir():
                sys.exit(f"no corpus at {args.corpus}")
            result = ingest(Settings(home=home), [ROOT / "corpus", args.corpus])
            if result.failed:
                sys.exit(f"ingest failed: {result.failed}")
        db = open_db(Settings(home=home), create=False)
        with db.session() as session:
            labels = load_labels(LABELS)
            english = english_scores(session, labels)
            translated = translation_scores(session, load_labels(TRANSLATIONS))
        db.dispose()
    count = len(labels["items"])
    report(
        f"term links, {count} hand-labelled rulings (edition {labels['edition']}):",
        english,
        args.errors,
    )
    report("French and Spanish vocabularies, translated labelled rulings:", translated, args.errors)
    overall = english["all"]
    ok = overall.precision >= 0.9 and overall.recall >= 0.8
    print(f"target precision >= 0.9 and recall >= 0.8: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()

"""Score term links against hand labels: precision and recall, as the labels file defines them.

A labels file (``tests/data/links/labelled_clarifications.json``) lists rulings with ``rules``
(governing rules the text names: expected), ``related`` (named, acceptable, not expected) and
``implied`` (governing but unnamed: acceptable, and a second recall figure). Numbers compare at
rule level, and a chapter matches the rules inside it (see the file's ``policy``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_SUBRULE = re.compile(r"^(\d{3}\.\d+)[a-z]$")


def rule_level(number: str) -> str:
    """701.54a -> 701.54; rules, chapters and parts unchanged."""
    match = _SUBRULE.match(number)
    return match.group(1) if match else number


def same_rule(predicted: str, label: str) -> bool:
    """Equal at rule level, or one is the chapter holding the other."""
    a, b = rule_level(predicted), rule_level(label)
    if a == b:
        return True
    return (len(a) == 3 and b.startswith(a + ".")) or (len(b) == 3 and a.startswith(b + "."))


@dataclass
class Score:
    """Counts behind precision and recall, and the mistakes for a report."""

    true_positives: int = 0
    false_positives: int = 0
    found: int = 0
    expected: int = 0
    found_with_implied: int = 0
    expected_with_implied: int = 0
    mistakes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        """Share of predicted rules that the labels accept (1.0 when nothing is predicted)."""
        total = self.true_positives + self.false_positives
        return self.true_positives / total if total else 1.0

    @property
    def recall(self) -> float:
        """Share of expected rules that were predicted."""
        return self.found / self.expected if self.expected else 1.0

    @property
    def recall_with_implied(self) -> float:
        """Recall counting the governing rules the texts do not name, too."""
        total = self.expected_with_implied
        return self.found_with_implied / total if total else 1.0

    def add(self, item: Mapping[str, Any], predicted: Iterable[str]) -> None:
        """Score one labelled item against the rule numbers predicted for it."""
        predicted = sorted({rule_level(p) for p in predicted})
        accepted = [*item["rules"], *item["related"], *item["implied"]]
        wrong = [p for p in predicted if not any(same_rule(p, label) for label in accepted)]
        self.false_positives += len(wrong)
        self.true_positives += len(predicted) - len(wrong)
        missed = [r for r in item["rules"] if not any(same_rule(p, r) for p in predicted)]
        self.expected += len(item["rules"])
        self.found += len(item["rules"]) - len(missed)
        governing = [*item["rules"], *item["implied"]]
        unfound = [r for r in governing if not any(same_rule(p, r) for p in predicted)]
        self.expected_with_implied += len(governing)
        self.found_with_implied += len(governing) - len(unfound)
        if wrong or missed:
            self.mistakes.append(
                {"id": item["id"], "text": item["text"], "wrong": wrong, "missed": missed}
            )


def load_labels(path: Path) -> dict[str, Any]:
    """Read a labels file and check that every item has the fields the scoring needs."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for item in data["items"]:
        for key in ("id", "text", "rules", "related", "implied"):
            if key not in item:
                raise ValueError(f"{path}: item {item.get('id')} has no {key!r}")
    return data

"""The evidence measure of benchmarks/link_evidence.py: what it adds and how it scores it.

A kind of evidence is judged by the rules it would add to a ruling's links; these tests pin the
verdicts and the two kinds a matcher rule would build on (the card's own text, the card's other
rulings), with a concept that must be added and near misses that must not.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "link_evidence.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("link_evidence", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["link_evidence"] = module
    spec.loader.exec_module(module)
    return module


ev = _module()

TEXT = "You choose which player the token is attacking. The attacking token has vigilance."


def _item(rules: list[str], related: list[str] = ()) -> dict[str, object]:  # type: ignore[assignment]
    return {"id": "x", "text": TEXT, "rules": rules, "related": list(related), "implied": []}


def _facts(item: dict[str, object], **kw: object) -> object:
    start = TEXT.index("attacking")
    later = TEXT.index("attacking", start + 1)
    passed = [
        ev.PassedOver(start, start + 9, "attacking", ("508",), "attack"),
        ev.PassedOver(later, later + 9, "attacking", ("508",), "attack"),
    ]
    return ev.Facts(item, ["111"], passed, **kw)


def test_a_concept_the_card_links_and_a_sibling_ruling_links_is_added() -> None:
    facts = _facts(_item(["508.4"]), card_concepts={"attack"}, sibling_rules={"508"})
    assert ev.card_and_sibling(facts) == {"508"}
    before, after, verdicts, _ = ev.effect([facts], ev.card_and_sibling)
    assert (before.recall, after.recall) == (0.0, 1.0)
    assert verdicts == {"expected": 1}


def test_without_either_piece_of_evidence_nothing_is_added() -> None:
    assert ev.card_and_sibling(_facts(_item(["508"]), card_concepts={"attack"})) == set()
    assert ev.card_and_sibling(_facts(_item(["508"]), sibling_rules={"508"})) == set()


def test_a_participle_picking_out_an_object_is_never_added() -> None:
    item = _item([])
    later = TEXT.index("attacking", TEXT.index("attacking") + 1)
    only_attributive = ev.Facts(
        item,
        [],
        [ev.PassedOver(later, later + 9, "attacking", ("508",), "attack")],
        card_concepts={"attack"},
        sibling_rules={"508"},
    )
    assert ev.card_text(only_attributive) == set()


def test_a_rule_already_linked_at_rule_level_is_not_added_again() -> None:
    facts = _facts(_item(["508"]), card_concepts={"attack"}, sibling_rules={"508"})
    facts.linked = ["508.1a"]
    assert ev.card_and_sibling(facts) == set()


def test_verdicts_follow_the_labels_at_rule_level() -> None:
    item = _item(["508.4"], related=["111"])
    assert ev.verdict(item, "508") == "expected"
    assert ev.verdict(item, "111.1") == "acceptable"
    assert ev.verdict(item, "603") == "wrong"

"""Measure a kind of evidence for a ruling's rules on the tuning sets before writing it as a rule.

Usage: python benchmarks/link_evidence.py --home DIR [--labels FILE ...] [--list]

A ruling often applies a rule its words name only on the way (*the token is attacking*) or not
at all (*You exile the cards face-up* on a card with cascade). Evidence outside the ruling's own
wording could show which: its cards' rules texts and keywords, its card's other rulings, the
rules the linked rules cite. Each kind is measured here the same way, on the tuning items only
(the ``dev`` split of labelled_unseen.json, labelled_dev2.json, labelled_dev3.json and the 105
rulings of labelled_clarifications.json; an item of the ``test`` split is never read): the rules
it would add to what the knowledge base links now, counted as expected (the label's ``rules``),
acceptable (``related``, ``implied``) or wrong, and the precision and recall each file would
have with them. A kind is worth a matcher rule only if it raises recall without lowering
precision on every file.

The kinds (each only adds a rule the ruling does not link yet):

- ``card-text``: a general concept the ruling names where the about test passes over it
  (kb.links.about), when its card's own rules text, reminder text left out, links the same
  concept; not a participle picking out an object (*the exiled card*) or a future passive;
- ``sibling``: such a concept, when another ruling of one of its cards links its rule;
- ``card-and-sibling``: both;
- ``keyword``: a keyword of its card whose rule the ruling does not link, when the keyword's
  reminder text on the card holds a general concept the ruling names;
- ``cited``: a rule that a rule the ruling links cites (explicit references of the edition);
- ``quoted``: a general concept passed over inside a quotation of its card's own text.

``DIR`` is a knowledge base ``benchmarks/term_links.py --home DIR`` built (or relinked).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.links.evaluate import Score, rule_level, same_rule  # noqa: E402

DATA = ROOT / "tests" / "data" / "links"
TUNING = [
    DATA / "labelled_unseen.json",
    DATA / "labelled_dev2.json",
    DATA / "labelled_dev3.json",
    DATA / "labelled_clarifications.json",
]
_REMINDER = re.compile(r"\([^()]*\)")
_QUOTE = re.compile(r"[“\"]([^”\"]{8,})[”\"]")
_DETERMINER = re.compile(
    r"\b(?:the|a|an|that|this|each|any|those|these|its|their|your|another|other)\s*$", re.I
)
_FUTURE_PASSIVE = re.compile(r"\b(?:will|won['’]t)\s+(?:not\s+)?be\s*$", re.I)


@dataclass
class PassedOver:
    """A general concept a ruling names where the about test says it is only mentioned."""

    start: int
    end: int
    matched: str
    targets: tuple[str, ...]
    concept: str


@dataclass
class Facts:
    """What the evidence kinds read of one labelled ruling and its cards."""

    item: Mapping[str, Any]
    linked: list[str]
    passed_over: list[PassedOver] = field(default_factory=list)
    card_concepts: set[str] = field(default_factory=set)  # general concepts its cards link
    card_texts: list[str] = field(default_factory=list)
    keywords: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # name, rules
    sibling_rules: set[str] = field(default_factory=set)
    cited: set[str] = field(default_factory=set)


def verdict(item: Mapping[str, Any], rule: str) -> str:
    """``expected``, ``acceptable`` or ``wrong``: what the labels make of a rule added."""
    if any(same_rule(rule, label) for label in item["rules"]):
        return "expected"
    if any(same_rule(rule, label) for label in [*item["related"], *item["implied"]]):
        return "acceptable"
    return "wrong"


def new_rules(facts: Facts, rules: Iterable[str]) -> set[str]:
    """The rules (at rule level) that the ruling does not link yet."""
    return {rule_level(r) for r in rules if not any(same_rule(p, r) for p in facts.linked)}


def _object_or_story(facts: Facts, found: PassedOver) -> bool:
    """A participle picking out an object (*the exiled card*) or a future passive (*will be
    sacrificed*): the about test's reasons that no outside evidence should overrule."""
    before = facts.item["text"][: found.start]
    participle = found.matched.casefold().endswith(("ed", "ing"))
    return bool(participle and _DETERMINER.search(before)) or bool(_FUTURE_PASSIVE.search(before))


def card_text(facts: Facts) -> set[str]:
    """Concepts passed over that the card's own text (reminder text aside) links."""
    return new_rules(
        facts,
        (
            r
            for found in facts.passed_over
            if found.concept in facts.card_concepts and not _object_or_story(facts, found)
            for r in found.targets
        ),
    )


def sibling(facts: Facts) -> set[str]:
    """Concepts passed over whose rule another ruling of the card links."""
    rules = (
        r
        for found in facts.passed_over
        if not _object_or_story(facts, found)
        for r in found.targets
        if any(same_rule(r, s) for s in facts.sibling_rules)
    )
    return new_rules(facts, rules)


def card_and_sibling(facts: Facts) -> set[str]:
    """Both :func:`card_text` and :func:`sibling`."""
    return card_text(facts) & sibling(facts)


def keyword(facts: Facts, words: Callable[[str], set[str]]) -> set[str]:
    """A keyword of the card whose reminder text holds a concept the ruling names."""
    found: list[str] = []
    for name, rules in facts.keywords:
        reminders = [
            m.group(1)
            for text in facts.card_texts
            for m in re.finditer(re.escape(name) + r"[^\n(]*\(([^()]*)\)", text, re.I)
        ]
        held = set().union(*(words(r) for r in reminders)) if reminders else set()
        if any(words(p.matched) and words(p.matched) <= held for p in facts.passed_over):
            found.extend(rules[:1])
    return new_rules(facts, found)


def cited(facts: Facts) -> set[str]:
    """Rules cited by the rules the ruling links."""
    return new_rules(facts, facts.cited)


def _fold(text: str) -> str:
    """A text as quotations compare with it: case folded, punctuation but symbols dropped."""
    return " ".join(re.sub(r"[^\w{}/+-]+", " ", text.casefold()).split())


def quoted(facts: Facts) -> set[str]:
    """Concepts passed over inside a quotation of the card's own text."""
    cards = " | ".join(_fold(t) for t in facts.card_texts)
    quotes = [
        m.span(1)
        for m in _QUOTE.finditer(facts.item["text"])
        if _fold(m.group(1)).rstrip(".") and _fold(m.group(1)).rstrip(".") in cards
    ]
    rules = (
        r
        for p in facts.passed_over
        if any(a <= p.start and p.end <= b for a, b in quotes)
        for r in p.targets
    )
    return new_rules(facts, rules)


def effect(
    facts: Iterable[Facts], evidence: Callable[[Facts], set[str]]
) -> tuple[Score, Score, Counter[str], list[tuple[Any, str, str]]]:
    """Scores without and with the evidence's rules, the verdicts of those rules, and each
    added rule as (item id, rule, verdict)."""
    before, after, verdicts, added = Score(), Score(), Counter[str](), []
    for fact in facts:
        before.add(fact.item, fact.linked)
        extra = sorted(evidence(fact))
        after.add(fact.item, [*fact.linked, *extra])
        for rule in extra:
            v = verdict(fact.item, rule)
            verdicts[v] += 1
            added.append((fact.item["id"], rule, v))
    return before, after, verdicts, added


class _Everywhere(dict):  # type: ignore[type-arg]
    """Answers "about" at every place: with it, Vocabulary.spans returns every general concept
    a text names, the ones the about test passes over included."""

    def get(self, key: Any, default: Any = None) -> bool:
        return True


def gather(home: Path, paths: list[Path]) -> dict[str, list[Facts]]:
    """Per labels file, the facts of its tuning items (never its ``test`` split)."""
    from sqlalchemy import select

    from kb.config import Settings
    from kb.links import rules_for_clarification, vocabularies
    from kb.links.text_sources import _card_contexts, card_names
    from kb.models import Card, CardClarification, ClarificationText, Link, Rule, RuleText
    from kb.pipeline import open_db
    from kb.versions import resolve_edition

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from term_links import _key

    db = open_db(Settings(home=home), create=False)
    result: dict[str, list[Facts]] = {}
    with db.session() as session:
        labels = [json.loads(p.read_text("utf-8")) for p in paths]
        edition = resolve_edition(session, labels[0]["edition"])
        vocab = vocabularies(session, edition, {"en"})["en"]
        rulings = {}
        for clar_id, language, text in session.execute(
            select(
                ClarificationText.clarification_id,
                ClarificationText.language,
                ClarificationText.text,
            )
        ):
            rulings.setdefault((language, _key(text)), clar_id)
        names, contexts = card_names(session), _card_contexts(session)
        cites: dict[str, set[str]] = defaultdict(set)
        query = (
            select(Rule.number, Link.target)
            .join(RuleText, RuleText.id == Link.source_id)
            .join(Rule, Rule.id == RuleText.rule_id)
            .where(Link.source_type == "rule_text", Link.kind == "explicit")
            .where(Rule.edition_id == edition.id)
        )
        for number, target in session.execute(query):
            cites[rule_level(number)].add(rule_level(target))
        linked_of: dict[int, list[str]] = {}

        def linked(clar_id: int) -> list[str]:
            if clar_id not in linked_of:
                found = rules_for_clarification(session, clar_id, edition.key)
                linked_of[clar_id] = [r["number"] for r in found]
            return linked_of[clar_id]

        for path, data in zip(paths, labels, strict=True):
            facts = result[path.name] = []
            for item in data["items"]:
                if item.get("split") == "test":
                    continue
                clar_id = rulings[("en", _key(item["text"]))]
                fact = Facts(item, linked(clar_id))
                facts.append(fact)
                mask = names.get(clar_id, ())
                told = {(m.start, m.end) for m in vocab.match(item["text"], mask)}
                for span in vocab.spans(item["text"], mask, _Everywhere()):
                    match = vocab.resolve(span)
                    if (match.start, match.end) not in told:
                        term = match.term
                        fact.passed_over.append(
                            PassedOver(
                                match.start, match.end, match.matched, term.targets, term.concept
                            )
                        )
                context = contexts.get(clar_id)
                fact.card_texts = list(context.texts) if context else []
                for text in fact.card_texts:
                    for match in vocab.match(_REMINDER.sub(" ", text)):
                        if match.term.general or match.term.verbal:
                            fact.card_concepts.add(match.term.concept)
                cards = select(CardClarification.card_id).where(
                    CardClarification.clarification_id == clar_id
                )
                card_ids = [c for (c,) in session.execute(cards)]
                for (keywords,) in session.execute(
                    select(Card.keywords).where(Card.id.in_(card_ids))
                ):
                    for name in keywords or ():
                        matches = vocab.match(name)
                        if matches and (name, matches[0].term.targets) not in fact.keywords:
                            fact.keywords.append((name, matches[0].term.targets))
                others = select(CardClarification.clarification_id).where(
                    CardClarification.card_id.in_(card_ids),
                    CardClarification.clarification_id != clar_id,
                )
                for (other,) in set(session.execute(others)):
                    fact.sibling_rules.update(rule_level(n) for n in linked(other))
                for number in {rule_level(n) for n in fact.linked}:
                    fact.cited |= cites.get(number, set())
    db.dispose()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--home", type=Path, required=True, help="a knowledge base term_links.py built"
    )
    parser.add_argument("--labels", type=Path, action="append", help="a labels file (repeatable)")
    parser.add_argument("--list", action="store_true", help="list each rule added")
    args = parser.parse_args()

    from kb.links.words import tokenize

    def words(text: str) -> set[str]:
        return {t.norm for t in tokenize(text, "en") if not t.stop and not t.brk}

    kinds: dict[str, Callable[[Facts], set[str]]] = {
        "card-text": card_text,
        "sibling": sibling,
        "card-and-sibling": card_and_sibling,
        "keyword": lambda facts: keyword(facts, words),
        "cited": cited,
        "quoted": quoted,
    }
    gathered = gather(args.home, args.labels or TUNING)
    for kind, evidence in kinds.items():
        print(kind)
        for name, facts in gathered.items():
            before, after, verdicts, added = effect(facts, evidence)
            print(
                f"  {name:32} precision {before.precision:.3f} -> {after.precision:.3f}  "
                f"recall {before.recall:.3f} -> {after.recall:.3f}  "
                f"added: {verdicts['expected']} expected, {verdicts['acceptable']} acceptable, "
                f"{verdicts['wrong']} wrong"
            )
            if args.list:
                for item_id, rule, v in added:
                    print(f"    [{item_id}] {rule} {v}")


if __name__ == "__main__":
    main()

"""Measure a kind of evidence for a ruling's rules on the tuning sets before writing it as a rule.

Usage: python benchmarks/link_evidence.py --home DIR [--labels FILE ...] [--list]
       python benchmarks/link_evidence.py --home DIR --whole [--sample N]

A ruling often applies a rule its words name only on the way (*the token is attacking*) or not
at all (*You exile the cards face-up* on a card with cascade). Evidence outside the ruling's own
wording could show which: its cards' rules texts and keywords, its card's other rulings, the
rules the linked rules cite. Each kind is measured here the same way, on the tuning items only
(the ``dev`` split of labelled_unseen.json, labelled_dev2.json to labelled_dev35.json and the 105
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

``--whole`` counts instead what each kind would add to every English ruling of the knowledge
base (labelled or not) and shows a sample: the effect a rule would have beyond the labels.
``DIR`` is a knowledge base ``benchmarks/term_links.py --home DIR`` built (or relinked).
"""

from __future__ import annotations

import argparse
import json
import random
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
# The further tuning sets, labelled_dev2.json on, in their order (each drawn by draw_rulings.py).
FURTHER_LABELS = sorted(
    DATA.glob("labelled_dev*.json"), key=lambda path: int(path.stem.removeprefix("labelled_dev"))
)
TUNING = [
    DATA / "labelled_unseen.json",
    *FURTHER_LABELS,
    DATA / "labelled_clarifications.json",
]
EDITION = "2026-01-16"  # the labels' edition
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


class Reader:
    """The facts of rulings of one knowledge base and edition, read once and kept per card."""

    def __init__(self, session: Any, edition: str) -> None:
        from sqlalchemy import select

        from kb.links import vocabularies
        from kb.links.text_sources import _card_contexts, card_names
        from kb.models import Card, CardClarification, Link, Rule, RuleText
        from kb.versions import resolve_edition

        self.session = session
        self.edition = resolve_edition(session, edition)
        self.vocab = vocabularies(session, self.edition, {"en"})["en"]
        self.names, self.contexts = card_names(session), _card_contexts(session)
        self.cards: dict[int, set[int]] = defaultdict(set)
        self.rulings: dict[int, set[int]] = defaultdict(set)
        pairs = select(CardClarification.clarification_id, CardClarification.card_id)
        for clar_id, card_id in session.execute(pairs):
            self.cards[clar_id].add(card_id)
            self.rulings[card_id].add(clar_id)
        self.keywords: dict[int, list[str]] = {
            card_id: list(keywords or ())
            for card_id, keywords in session.execute(select(Card.id, Card.keywords))
        }
        self.cites: dict[str, set[str]] = defaultdict(set)
        query = (
            select(Rule.number, Link.target)
            .join(RuleText, RuleText.id == Link.source_id)
            .join(Rule, Rule.id == RuleText.rule_id)
            .where(Link.source_type == "rule_text", Link.kind == "explicit")
            .where(Rule.edition_id == self.edition.id)
        )
        for number, target in session.execute(query):
            self.cites[rule_level(number)].add(rule_level(target))
        self._linked: dict[int, list[str]] = {}
        self._concepts: dict[str, set[str]] = {}

    def linked(self, clar_id: int) -> list[str]:
        """The rule numbers the knowledge base links the ruling to."""
        from kb.links import rules_for_clarification

        if clar_id not in self._linked:
            found = rules_for_clarification(self.session, clar_id, self.edition.key)
            self._linked[clar_id] = [r["number"] for r in found]
        return self._linked[clar_id]

    def _card_concepts(self, text: str) -> set[str]:
        found = self._concepts.get(text)
        if found is None:
            found = self._concepts[text] = {
                m.term.concept
                for m in self.vocab.match(_REMINDER.sub(" ", text))
                if m.term.general or m.term.verbal
            }
        return found

    def facts(self, clar_id: int, item: Mapping[str, Any]) -> Facts:
        """What the evidence kinds read of one ruling (``item``: its labels and text)."""
        vocab, text = self.vocab, item["text"]
        fact = Facts(item, self.linked(clar_id))
        mask = self.names.get(clar_id, ())
        told = {(m.start, m.end) for m in vocab.match(text, mask)}
        for span in vocab.spans(text, mask, _Everywhere()):
            match = vocab.resolve(span)
            if (match.start, match.end) not in told:
                term = match.term
                fact.passed_over.append(
                    PassedOver(match.start, match.end, match.matched, term.targets, term.concept)
                )
        context = self.contexts.get(clar_id)
        fact.card_texts = list(context.texts) if context else []
        for card_text_ in fact.card_texts:
            fact.card_concepts |= self._card_concepts(card_text_)
        for card_id in sorted(self.cards[clar_id]):
            for name in self.keywords.get(card_id, ()):
                matches = vocab.match(name)
                if matches and (name, matches[0].term.targets) not in fact.keywords:
                    fact.keywords.append((name, matches[0].term.targets))
            for other in self.rulings[card_id] - {clar_id}:
                fact.sibling_rules.update(rule_level(n) for n in self.linked(other))
        for number in {rule_level(n) for n in fact.linked}:
            fact.cited |= self.cites.get(number, set())
        return fact


def _ruling_ids(session: Any) -> dict[tuple[str, str], int]:
    """Each ruling's id by its language and its words (as benchmarks/term_links.py finds it)."""
    from sqlalchemy import select

    from kb.models import ClarificationText

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from term_links import _key

    found: dict[tuple[str, str], int] = {}
    columns = (
        ClarificationText.clarification_id,
        ClarificationText.language,
        ClarificationText.text,
    )
    for clar_id, language, text in session.execute(select(*columns)):
        found.setdefault((language, _key(text)), clar_id)
    return found


def gather(reader: Reader, paths: list[Path]) -> dict[str, list[Facts]]:
    """Per labels file, the facts of its tuning items (never its ``test`` split)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from term_links import _key

    ids = _ruling_ids(reader.session)
    result: dict[str, list[Facts]] = {}
    for path in paths:
        data = json.loads(path.read_text("utf-8"))
        result[path.name] = [
            reader.facts(ids[("en", _key(item["text"]))], item)
            for item in data["items"]
            if item.get("split") != "test"
        ]
    return result


def whole(reader: Reader, kinds: Mapping[str, Callable[[Facts], set[str]]], sample: int) -> None:
    """Per kind, the links it would add to every English ruling, their rules and a sample."""
    from sqlalchemy import select

    from kb.models import ClarificationText

    query = select(ClarificationText.clarification_id, ClarificationText.text).where(
        ClarificationText.language == "en"
    )
    rulings = sorted(reader.session.execute(query).all())
    facts = [
        reader.facts(
            clar_id, {"id": clar_id, "text": text, "rules": [], "related": [], "implied": []}
        )
        for clar_id, text in rulings
    ]
    for kind, evidence in kinds.items():
        added = [(fact, rule) for fact in facts for rule in sorted(evidence(fact))]
        touched = len({id(fact) for fact, _ in added})
        common = Counter(rule for _, rule in added).most_common(8)
        print(f"{kind}: {len(added)} links added to {touched} of {len(facts)} rulings; {common}")
        for fact, rule in random.Random(20261202).sample(added, min(sample, len(added))):
            print(f"    {rule:8} {fact.item['text'][:120]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--home", type=Path, required=True, help="a knowledge base term_links.py built"
    )
    parser.add_argument("--labels", type=Path, action="append", help="a labels file (repeatable)")
    parser.add_argument("--list", action="store_true", help="list each rule added")
    parser.add_argument(
        "--whole", action="store_true", help="count what each kind adds to every English ruling"
    )
    parser.add_argument("--sample", type=int, default=10, help="with --whole: rulings shown")
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
    from kb.config import Settings
    from kb.pipeline import open_db

    db = open_db(Settings(home=args.home), create=False)
    with db.session() as session:
        reader = Reader(session, EDITION)
        if args.whole:
            whole(reader, kinds, args.sample)
            return
        gathered = gather(reader, args.labels or TUNING)
    db.dispose()
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

"""Match the rules of two editions by content, since numbers are reused and shift.

In 2021 rule 701.32 is "Vote" and 701.38 "Goad"; from 2025 on 701.38 is "Vote". Matching by
number alone would call Vote a rewrite of Goad. The alignment pairs rules in four passes, each
only among what is still unpaired:

1. identical content (title, text and examples, with the rule numbers *inside* the text blanked,
   so a rule whose only change is a reference to a renumbered rule still pairs), when that
   content is unique on both sides;
2. renamed headings by their contents: a title-only rule or chapter whose subrules mostly
   paired with the subrules of one other (``Totem Armor`` became ``Umbra Armor``);
3. children of paired parents, most similar first (701.32a–d follow 701.32 to 701.38a–d even
   when a sentence of theirs changed);
4. the same number with similar content (a rule edited in place);
5. similar content in the same chapter (a rule edited *and* moved).

"Similar" is a word-level similarity ratio of at least 0.5 (0.6 in the last pass); headings
(title-only rules, chapters, parts) are similar only when their titles are equal.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

from sqlalchemy import select
from sqlalchemy.orm import Session

from kb.corpus.numbers import parent_of
from kb.models import Document, Edition, Example, Rule, RuleText

_NUMBER = re.compile(r"(?<![\w.])\d{3}\.\d{1,3}[a-z]?(?![\w])|(?<=rule )\d{3}(?!\d)")
_WORD = re.compile(r"\w+|[^\w\s]")
SIMILAR = 0.5
MOVED = 0.6


@lru_cache(maxsize=1 << 16)
def blank_numbers(text: str) -> str:
    """``text`` with the rule numbers it cites replaced by ``#`` (memoised: the same texts come
    back in every edition, 17 times over in the whole history, and this regex is most of the
    cost of aligning two editions)."""
    return _NUMBER.sub("#", text)


@dataclass(frozen=True)
class RuleContent:
    """One rule of an edition as compared: number, kind, title, text and examples."""

    number: str
    kind: str
    title: str
    body: str
    examples: tuple[str, ...]
    sort_key: str

    @cached_property
    def full(self) -> str:
        """Title, text and examples as one text (what a reader compares)."""
        parts = [self.title, self.body, *(f"Example: {e}" for e in self.examples)]
        return "\n".join(p for p in parts if p)

    @cached_property
    def blanked(self) -> str:
        """The full text with the rule numbers it cites replaced by ``#``."""
        return blank_numbers(self.full)

    @cached_property
    def words(self) -> list[str]:
        """The blanked text's words, for similarity."""
        return _WORD.findall(self.blanked.casefold())

    @cached_property
    def counts(self) -> Counter[str]:
        """How often each word occurs: the multiset bound of :func:`similarity`."""
        return Counter(self.words)

    @property
    def heading(self) -> bool:
        """A title and nothing else: a part, a chapter, or a title-only rule (701.54)."""
        return bool(self.title) and not self.body and not self.examples

    @property
    def label(self) -> str:
        """The title, or the start of the text: how a rule is named in a list."""
        text = self.title or self.body
        return text if len(text) <= 100 else text[:99].rstrip() + "…"


def load_contents(session: Session, edition: Edition) -> dict[str, RuleContent]:
    """Every rule of an edition with its English (or only) text, by number."""
    examples: dict[int, list[str]] = defaultdict(list)
    for text_id, example in session.execute(
        select(Example.rule_text_id, Example.text)
        .join(RuleText, RuleText.id == Example.rule_text_id)
        .join(Rule, Rule.id == RuleText.rule_id)
        .where(Rule.edition_id == edition.id)
        .order_by(Example.rule_text_id, Example.position)
    ):
        examples[text_id].append(example)
    contents: dict[str, RuleContent] = {}
    for number, kind, key, text_id, language, title, body in session.execute(
        select(
            Rule.number,
            Rule.kind,
            Rule.sort_key,
            RuleText.id,
            RuleText.language,
            RuleText.title,
            RuleText.body,
        )
        .join(RuleText, RuleText.rule_id == Rule.id)
        .where(Rule.edition_id == edition.id)
        .order_by(Rule.sort_key, RuleText.language != edition.language, RuleText.id)
    ):
        if number not in contents or language == edition.language:
            contents.setdefault(
                number,
                RuleContent(number, kind, title or "", body or "", tuple(examples[text_id]), key),
            )
    return contents


def similarity(a: RuleContent, b: RuleContent, floor: float = SIMILAR) -> float:
    """Word-level similarity of two rules' texts, 0 to 1 (headings: 1 if same title, else 0);
    0 when it is below ``floor``.

    The ratio is difflib's; its two upper bounds (the lengths, then the words in common as
    multisets) are taken first from each rule's own word counts, so that the matcher, whose
    set-up indexes every word of one side, is only built for the pairs that may reach
    ``floor``. Aligning the whole history compares ~44,000 pairs and ratios about 14,000.
    """
    if a.heading or b.heading:
        return 1.0 if a.heading and b.heading and a.title == b.title else 0.0
    length = len(a.words) + len(b.words)
    if length:
        if 2.0 * min(len(a.words), len(b.words)) / length < floor:
            return 0.0
        small, large = (
            (a.counts, b.counts) if len(a.counts) <= len(b.counts) else (b.counts, a.counts)
        )
        common = sum(min(n, large[w]) for w, n in small.items() if w in large)
        if 2.0 * common / length < floor:
            return 0.0
    return SequenceMatcher(None, a.words, b.words, autojunk=False).ratio()


@dataclass
class Alignment:
    """Old number -> new number for every rule present in both editions."""

    old: dict[str, RuleContent]
    new: dict[str, RuleContent]
    pairs: dict[str, str]

    @cached_property
    def reverse(self) -> dict[str, str]:
        """New number -> old number."""
        return {new: old for old, new in self.pairs.items()}

    @property
    def removed(self) -> list[str]:
        """Old numbers with no counterpart, in document order."""
        return sorted(set(self.old) - set(self.pairs), key=lambda n: self.old[n].sort_key)

    @property
    def added(self) -> list[str]:
        """New numbers with no counterpart, in document order."""
        new = set(self.new) - set(self.reverse)
        return sorted(new, key=lambda n: self.new[n].sort_key)


def align(old: dict[str, RuleContent], new: dict[str, RuleContent]) -> Alignment:
    """Pair the rules of two editions (see the module docstring for the passes)."""
    pairs: dict[str, str] = {}
    taken: set[str] = set()

    def pair(a: str, b: str) -> None:
        pairs[a] = b
        taken.add(b)

    # 1. identical content, unique on both sides
    def signatures(rules: dict[str, RuleContent]) -> dict[tuple[str, str], list[str]]:
        found: dict[tuple[str, str], list[str]] = defaultdict(list)
        for number, rule in rules.items():
            found[(rule.kind, rule.blanked)].append(number)
        return found

    old_sigs, new_sigs = signatures(old), signatures(new)
    for sig, olds in old_sigs.items():
        news = new_sigs.get(sig, [])
        if len(olds) == 1 and len(news) == 1:
            pair(olds[0], news[0])
        elif olds and news:  # duplicates: keep those whose number did not change
            for number in olds:
                if number in news:
                    pair(number, number)

    old_children: dict[str, list[str]] = defaultdict(list)
    for number in old:
        parent = parent_of(number)
        if parent is not None:
            old_children[parent].append(number)
    new_children: dict[str, list[str]] = defaultdict(list)
    for number in new:
        parent = parent_of(number)
        if parent is not None:
            new_children[parent].append(number)

    # 2. renamed headings, bottom up (subrules pair their rule, rules their chapter)
    def headings() -> None:
        for number in sorted(old, key=lambda n: (-len(old[n].sort_key), old[n].sort_key)):
            kids = old_children.get(number, [])
            if number in pairs or not kids or not old[number].heading:
                continue
            votes: dict[str, int] = defaultdict(int)
            for kid in kids:
                if kid in pairs and parent_of(pairs[kid]) is not None:
                    votes[parent_of(pairs[kid]) or ""] += 1
            if votes:
                best = max(sorted(votes), key=lambda p: votes[p])
                fits = best in new and best not in taken and new[best].kind == old[number].kind
                if fits and votes[best] * 2 >= len(kids):
                    pair(number, best)

    headings()

    # 3. children of paired parents, top down
    for parent in sorted(old, key=lambda n: old[n].sort_key):
        if parent not in pairs:
            continue
        free_old = [c for c in old_children[parent] if c not in pairs]
        free_new = [c for c in new_children[pairs[parent]] if c not in taken]
        _greedy(old, new, free_old, free_new, SIMILAR, pair)

    # 4. same number, similar content
    for number in sorted(old, key=lambda n: old[n].sort_key):
        if number not in pairs and number in new and number not in taken:
            a, b = old[number], new[number]
            if a.kind == b.kind and similarity(a, b, SIMILAR) >= SIMILAR:
                pair(number, number)

    # 5. similar content in the same chapter
    by_chapter_old: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_chapter_new: dict[tuple[str, str], list[str]] = defaultdict(list)
    for number, rule in old.items():
        if number not in pairs:
            by_chapter_old[(number[:3], rule.kind)].append(number)
    for number, rule in new.items():
        if number not in taken:
            by_chapter_new[(number[:3], rule.kind)].append(number)
    for key, olds in sorted(by_chapter_old.items()):
        _greedy(old, new, olds, by_chapter_new.get(key, []), MOVED, pair)
    headings()  # headings renamed along with their rules' words (Tribals -> Kindreds)
    return Alignment(old, new, pairs)


def _greedy(
    old: dict[str, RuleContent],
    new: dict[str, RuleContent],
    olds: list[str],
    news: list[str],
    threshold: float,
    pair: Callable[[str, str], None],
) -> None:
    """Pair the most similar (old, new) first, each at most once, above a threshold."""
    if not olds or not news:
        return
    scored = []
    for a in olds:
        for b in news:
            if old[a].kind != new[b].kind:
                continue
            score = similarity(old[a], new[b], threshold)
            if score >= threshold:
                scored.append((-score, old[a].sort_key, new[b].sort_key, a, b))
    used_old: set[str] = set()
    used_new: set[str] = set()
    for _, _, _, a, b in sorted(scored):
        if a not in used_old and b not in used_new:
            used_old.add(a)
            used_new.add(b)
            pair(a, b)


_CONTENTS: dict[tuple[object, ...], dict[str, RuleContent]] = {}
_ALIGNMENTS: dict[tuple[object, ...], Alignment] = {}


def _fingerprint(session: Session, edition: Edition) -> tuple[object, ...]:
    """What an edition's rules were loaded from: same fingerprint, same rules."""
    sha = session.scalar(select(Document.sha256).where(Document.id == edition.document_id))
    return (str(session.get_bind().engine.url), edition.id, edition.key, sha)


def edition_contents(session: Session, edition: Edition) -> dict[str, RuleContent]:
    """Every rule of an edition by number (cached while its document stays the same)."""
    key = _fingerprint(session, edition)
    if key not in _CONTENTS:
        if len(_CONTENTS) > 8:
            _CONTENTS.clear()
        _CONTENTS[key] = load_contents(session, edition)
    return _CONTENTS[key]


def align_editions(session: Session, old: Edition, new: Edition) -> Alignment:
    """The alignment of two loaded editions (cached while their documents stay the same)."""
    key = (*_fingerprint(session, old), *_fingerprint(session, new))
    if key not in _ALIGNMENTS:
        if len(_ALIGNMENTS) > 16:
            _ALIGNMENTS.clear()
        _ALIGNMENTS[key] = align(edition_contents(session, old), edition_contents(session, new))
    return _ALIGNMENTS[key]

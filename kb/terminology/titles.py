"""A new edition's keyword rule titles that no card names leave the learned terms as they were.

The terms are learned from the cards and from the newest edition's keyword rule titles (the
names the matcher looks for in the English card texts). A new edition mostly keeps those titles
and renumbers some; when it adds titles that no card carries as a keyword and that no English
card text could name, learning again gives the same terms, only their rule numbers may move:

- the matcher finds a name by its first word, so a name (or an inflected action) whose first
  word occurs in no English card text changes no text's mentions;
- such a name is then mentioned by no line, so :func:`kb.terminology.align.learn` finds no
  candidate for it, chooses no term for it, and the competitive linking between the other
  keywords is what it was.

Relearning takes ~11 s CPU on all of AllPrintings; this check reads the cards once more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .align import CardText, KeywordMatcher, normal_name


def inventory_of(rules: Mapping[str, tuple[str, str]], carried: Iterable[str]) -> dict[str, bool]:
    """The names the terms are learned for: every keyword a card carries (True), then every
    keyword rule title no card carries (False), in that order."""
    names = sorted(set(carried))
    inventory = {name: True for name in names}
    by_fold = {name.casefold() for name in names}
    for folded, (_, title) in rules.items():
        if folded not in by_fold:
            inventory[title] = False
    return inventory


def only_unmentioned_additions(
    before: tuple[Mapping[str, bool], set[str]],
    now: tuple[Mapping[str, bool], set[str]],
    texts: Mapping[str, Sequence[CardText]],
) -> bool:
    """Whether learning from ``now`` (inventory, actions) gives the terms learned from
    ``before``: ``now`` only adds uncarried names whose words no English card text holds."""
    old, old_actions = before
    new, actions = now
    if any(new.get(name) != flag for name, flag in old.items()):
        return False  # a name left, or a card now carries it (or no longer does)
    added = [name for name in new if name not in old]
    if any(new[name] for name in added) or not old_actions <= actions:
        return False
    if not actions - old_actions <= {name.casefold() for name in added}:
        return False
    known = {normal_name(name) for name in old}
    if any(normal_name(name) in known for name in added):
        return False  # the same words as a name learned already
    first_words = set(KeywordMatcher(added, actions).lengths)
    if not first_words:
        return True
    for cards in texts.values():
        english = "\n".join(card.english.casefold() for card in cards)
        if any(word in english for word in first_words):
            return False
    return True

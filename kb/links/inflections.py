"""Which participles and gerunds of a keyword ability's name name the keyword.

A keyword ability named by a verb is something a player does to a card or with it, and rulings
say so in the verb's participle: a creature *evoked* (702.74), a card *foretold* (702.143), a
card *cycled* (702.29), a permanent *exploited*, *dashed*, *blitzed*. Other participles of a
keyword's name mean something else, which the rules say elsewhere: *enchanted* and *equipped*
name what an Aura or an Equipment is attached to (303.4, 301.5), *fortified* a land (301.6),
*reached* is no Reach. So a participle or gerund (or an irregular past form) of a one-word
keyword names it where the keyword's own rules (its rule and subrules) use one (702.47c "the
spliced cards"), or where no rule uses one at all; not where only other rules do. A keyword
whose name is itself a gerund (Offering, Training, Fading) has a verb that may mean something
else (*offered*, *trained*): its participles name it only where its own rules use them (702.29
Cycling: "cycled").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from .thesaurus import IRREGULAR
from .words import normalise

_WORD = re.compile(r"[^\W\d_]+")
_SUBRULE = "abcdefghijklmnopqrstuvwxyz"
_ENDINGS = ("ed", "ing")


def inflected(word: str) -> bool:
    """Whether a (case-folded) English word is a participle, a gerund or an irregular form."""
    return word.endswith(_ENDINGS) or word in IRREGULAR["en"]


def participle_uses(bodies: Iterable[tuple[str, str]]) -> dict[str, dict[str, set[str]]]:
    """Per normalised word, its inflected forms in the rules' bodies (number, body) and the
    rules (at rule level: 702.29d is 702.29) that use each."""
    uses: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for number, body in bodies:
        rule = number.rstrip(_SUBRULE)
        for raw in _WORD.findall(body):
            word = raw.casefold()
            if len(word) > 4 and inflected(word):
                uses[normalise(word, "en")][word].add(rule)
    return uses


def names_keyword(
    name: str, norm: str, targets: Iterable[str], uses: Mapping[str, Mapping[str, set[str]]]
) -> bool:
    """Whether the inflected forms of a one-word keyword ``name`` (normalised ``norm``, with
    rules ``targets``) name it: its own rules use one, or (unless the name is a gerund) none
    of the rules does."""
    word = name.casefold()
    forms = {form: rules for form, rules in uses.get(norm, {}).items() if form != word}
    own = set(targets)
    if any(rules & own for rules in forms.values()):
        return True
    return not forms and not word.endswith("ing")

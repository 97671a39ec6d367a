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
Cycling: "cycled"). The word a gerund keyword is made from names it in the uses its own rules
make of it (702.29c "When you cycle this card": the verb; 702.22c "all in a band": the noun).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from .thesaurus import IRREGULAR
from .words import normalise

if TYPE_CHECKING:  # terms imports this module
    from .terms import Term

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


# Before a noun: the rules' *a band* is the noun, *you cycle* the verb (kb.links.terms reads the
# word before a ruling's *cycle*, *band* the same way).
DETERMINERS = frozenset("a an the this that these those each every any its their your same".split())


def verb_uses(
    bodies: Iterable[tuple[str, str]], norms: Collection[str]
) -> dict[str, dict[str, set[str]]]:
    """Per normalised word of ``norms``, per use (``noun`` after a determiner, else ``verb``),
    the rules (at rule level) whose bodies use it in a form neither inflected nor the gerund:
    *cycle*, *cycles* for Cycling (702.29c "When you cycle this card"), *band* for Banding
    (702.22c "all in a band"), *trains* for Training."""
    uses: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    if not norms:
        return uses
    for number, body in bodies:
        rule = number.rstrip(_SUBRULE)
        before = ""
        for raw in _WORD.findall(body):
            word = raw.casefold()
            if not inflected(word) and normalise(word, "en") in norms:
                use = "noun" if before in DETERMINERS else "verb"
                uses[normalise(word, "en")][use].add(rule)
            before = word
    return uses


def gerund_uses(
    norm: str, targets: Iterable[str], uses: Mapping[str, Mapping[str, set[str]]]
) -> tuple[str, ...]:
    """The uses (``noun``, ``verb``) in which the word a gerund keyword is made from names it:
    those its own rules make of it, so a ruling's *you cycle it*, *the same band* says the
    keyword as the rules do, and *this cycle* (of cards) does not. None where only other rules
    use the word (*Offering*: *offer*; *Flanking*, *Vanishing* none)."""
    own = set(targets)
    return tuple(sorted(use for use, rules in uses.get(norm, {}).items() if rules & own))


def own_participle(
    term: Term,
    uses: Mapping[str, Mapping[str, set[str]]],
    verbs: Mapping[str, Mapping[str, set[str]]],
) -> Term:
    """The term, marked if it is a one-word keyword whose participles name it
    (:func:`names_keyword`): a ruling's *spliced spell* names Splice
    (702.47c says "the spliced cards"), an *evoked creature* Evoke; *enchanted* and *equipped*,
    which only the rules of Auras and Equipment say (303.4, 301.5), are left to them. A gerund
    keyword is marked with the uses in which the word it is made from names it
    (:func:`gerund_uses`: the verb *cycle*, the noun *band*)."""
    if not term.bare or len(term.words) != 1 or term.source == "alias":
        return term
    if not term.phrase.isalpha():
        return term
    if gerund_keyword(term):
        term = replace(term, own_verb=gerund_uses(term.words[0], term.targets, verbs))
    if names_keyword(term.phrase, term.words[0], term.targets, uses):
        return replace(term, own_participle=True)
    return term


def gerund_keyword(term: Term) -> bool:
    """A one-word keyword named by a gerund (Cycling, Banding, Training)."""
    return term.bare and len(term.words) == 1 and term.phrase.casefold().endswith("ing")

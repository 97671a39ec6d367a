"""Rules a ruling applies without naming them, recognised by wording the rules themselves define.

A term matcher finds the rules a ruling names; some rulings apply a rule by describing what it
governs instead ("the creature will be exiled if it would die" is a replacement effect). Each
pattern here is one statement of the Comprehensive Rules or its glossary turned into wording to
look for, and names its rule by concept (glossary term or title), so that it follows renumbering:

- **replacement effects** (614): the glossary defines one as an effect that "watches for a
  particular event that would happen and ... replaces that event": a ruling saying what happens
  *if* something *would* happen, that something *replaces the draw* (an event), or that a
  permanent *enters the battlefield with* counters (614.1c's wording), applies 614.
  614.1a-e list the card wordings that make replacement effects ("instead", "skip", "enters
  with", "As [this] enters"): a ruling on a card worded so, that speaks of its effect applying,
  replacing or happening instead, is about that replacement effect;
- **state-based actions** (704): the conditions 704.5a, f, i and v check, in their own words
  ("0 or less life", "0 toughness", "loyalty 0"), and what 704.5m and n do to attachments
  ("that Aura is put into its owner's graveyard", an Equipment "becomes unattached ... It
  remains on the battlefield");
- **layers** (613): 613.1 gives each kind of characteristic its own layer, so a sentence where
  an effect changes kinds of two layers (power and toughness, types, colors, abilities) is
  about how continuous effects interact;
- **interaction titles** (616 "Interaction of Replacement and/or Prevention Effects"): a sentence
  that names every concept of such a title is about how they interact;
- the rules :mod:`kb.links.described` recognises by one of their own statements.

Measured on the dev split of ``tests/data/links/labelled_unseen.json``, the 88 rulings of
``labelled_dev2.json`` and the 105 rulings of ``labelled_clarifications.json``
(``benchmarks/term_links.py``); the card's own keywords were
measured too and left out: of 131 pairs of a ruling and a keyword of its card that the ruling
does not name, one was labelled as the ruling's rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from .described import Shown, described_inputs, described_matches
from .terms import Term, TermMatch, Vocabulary
from .words import phrase_words, tokenize

REPLACEMENT = "replacement effect"

# 614.1a-e: the wordings that make an effect a replacement effect.
_REPLACEMENT_WORDING = re.compile(
    r"\binstead\b|\bskips?\b|\benters(?: the battlefield)? with\b|\bAs [^.]{1,60}? enters\b"
)
# "if it would die", "If a source would deal damage": the event a replacement effect watches for.
# Not a relative clause ("if you cast a spell that would target it"), nor a prevention effect
# (615.1a: effects that use the word "prevent").
# A reduced relative clause ("If the creature this Aura would enchant is an illegal target") is
# followed by the main clause's own verb: its "would" is not the condition's.
# Nor events said to happen at once where nothing happens instead ("If Aegis Angel and the
# permanent would be destroyed simultaneously, only Aegis Angel will be destroyed": what the
# indestructibility it grants does, 614.1's "instead" nowhere in the sentence).
# Nor a counterfactual: what "would be legal", "would be enough", "would have morph", "would
# have been dealt" is a state or a past that did not happen, not an event to replace; nor what
# a thing "would just be" or "would end up with" (an outcome told, no event watched for).
_COUNTERFACTUAL = (
    r"(?!\s+be\s+(?:legal|illegal|enough|able|possible|true|false|the same)\b)(?!\s+have\b)"
    r"(?!\s+(?:just|end up)\b)"
)
_IF_WOULD = re.compile(
    r"\bif\b(?:(?!\bprevent)[^.,;:]){1,60}?(?<!\bthat )(?<!\bwhich )(?<!\bwho )\bwould\b"
    + _COUNTERFACTUAL
    + r"(?!\s+[\w’']+\s+(?:is|are|was|were|has|have)\b)(?![^.]*\bprevent)"
    r"(?!(?=[^.,;]*\b(?:simultaneously|at the same time)\b)(?![^.]*\binstead\b))",
    re.IGNORECASE,
)
# "replaces the draw", "can't replace this event": the object replaced is an event.
_REPLACES_EVENT = re.compile(
    r"\breplac(?:e|es|ed|ing)\s+(?:the|this|that|a|an)\s+(?:event|draw|damage|destruction)\b",
    re.IGNORECASE,
)
# 614.1c in the ruling's own words: "enters the battlefield with an additional +1/+1 counter".
# What enters "with" a characteristic, a face or an ability ("with toughness 0 or less", "with
# its back face up", "with haste") is said to be in that state: no event is replaced.
_ENTERS_WITH = re.compile(
    r"\benter(?:s|ed|ing)?(?: the battlefield)? with\b"
    r"(?!\s+(?:toughness|power|its (?:front|back)|haste|trample|flying)\b)",
    re.IGNORECASE,
)
STATE_BASED = "state-based actions"
# The conditions state-based actions check (704.5a life, 704.5f toughness, 704.5i loyalty,
# 704.5v defense): "0 or less life", "a creature with 0 toughness".
_STATE_CONDITION = re.compile(
    r"\b0 or less\b|\b(?:toughness|loyalty|defense) (?:of )?0\b"
    r"|\b0[- ](?:toughness|loyalty|defense)\b"
    # and the outcomes 704.5m and 704.5n give attachments, in their words: "that Aura is put
    # into its owner's graveyard"; an Equipment "becomes unattached ... It remains on the
    # battlefield" (*Auras attached to the exiled permanent will be put into their owners'
    # graveyards. Any Equipment will become unattached and remain on the battlefield.*)
    r"|\bAuras?\b[^.]{0,80}?\b(?:is|are|will be|isn[’']t|aren[’']t|won[’']t be) put into "
    r"(?:its|their) owners?[’'] graveyards?\b"
    r"|\b(?:becomes?|become) unattached\b[^.]{0,40}?\b(?:remains?|stays?) on the battlefield\b",
    re.IGNORECASE,
)
LAYERS = "interaction of continuous effects"
# 613.1: each kind of characteristic an effect changes has its own layer; an effect changing
# kinds of two layers ("changes only the power, toughness, and creature type") is about layers.
_LAYER_KINDS = (
    re.compile(r"\b(?:power|toughness)\b", re.IGNORECASE),
    re.compile(r"\btypes?\b", re.IGNORECASE),
    re.compile(r"\bcolou?rs?\b", re.IGNORECASE),
    re.compile(r"\babilit(?:y|ies)\b", re.IGNORECASE),
)
_CHANGES = re.compile(
    r"\beffects?\b[^.]*\b(?:chang|los|lose|gain|set)\w*\b|\b(?:chang|los|gain|set)\w*\b[^.]*"
    r"\beffects?\b",
    re.IGNORECASE,
)
# What a ruling says of a card's replacement effect (see _applies); not a cost paid "instead"
# (*You just pay the madness cost instead*: an alternative cost, 118.9, replaces no event).
_APPLIES = re.compile(
    r"\beffects?\b[^.]{0,20}?\bappl(?:y|ies|ied)\b|\breplac\w*|(?<!cost )\binstead\b|\bwould\b"
    + _COUNTERFACTUAL,
    re.IGNORECASE,
)
_PREVENT = re.compile(r"\bprevent", re.IGNORECASE)
# 616.1: the affected player chooses the order in which replacement effects apply.
_ORDER = re.compile(r"\border\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?]+[.!?]?")
_INTERACTION = "Interaction of "
_TITLE_FILLERS = frozenset({"interaction"})


@dataclass(frozen=True)
class CardContext:
    """What the cards carrying a ruling say: their English rules texts."""

    texts: tuple[str, ...] = ()


class TextEvidence:
    """What the patterns find in one ruling and its cards, whatever the vocabulary: where each
    shows (or that it does not), found when first asked.

    Only the rules the patterns name come from a vocabulary; the regular expressions read the
    ruling and its cards alone. The link walk resolves a ruling's implied rules again in many
    editions (~81k times for ~24k rulings at the whole history), so it keeps one per ruling for
    the run (kb.links.walk) and each edition only checks which rules are linked already.
    """

    def __init__(self, text: str, context: CardContext | None = None) -> None:
        self.text = text
        self.context = context or CardContext()
        self.described = Shown(text, self.context.texts)

    @cached_property
    def replacement(self) -> tuple[int, int] | None:
        """Where a replacement effect shows (614): an "if … would", a replaced event, "enters
        with", or on a card worded as one, the ruling speaking of its effect."""
        text = self.text
        shown = _IF_WOULD.search(text) or _REPLACES_EVENT.search(text) or _ENTERS_WITH.search(text)
        if shown is None and any(_REPLACEMENT_WORDING.search(t) for t in self.context.texts):
            shown = _applies(text)
        return shown.span() if shown is not None else None

    @cached_property
    def condition(self) -> tuple[int, int] | None:
        """Where a condition state-based actions check shows (704.5)."""
        found = _STATE_CONDITION.search(self.text)
        return found.span() if found is not None else None

    @cached_property
    def layers(self) -> tuple[int, int] | None:
        """Where the first sentence changing kinds of two layers says so (613.1)."""
        for sentence in _SENTENCE.finditer(self.text):
            kinds = sum(bool(k.search(sentence.group())) for k in _LAYER_KINDS)
            changes = _CHANGES.search(sentence.group())
            if kinds >= 2 and changes:
                return sentence.start() + changes.start(), sentence.start() + changes.end()
        return None

    @cached_property
    def sentences(self) -> tuple[_Sentence, ...]:
        """Each sentence's span, content words (each once: a tuple is a fifth of a set's size,
        and is only searched for a title's few words) and where it first says "order" (616.1)."""
        found = []
        for sentence in _SENTENCE.finditer(self.text):
            words = tuple(
                dict.fromkeys(
                    t.norm for t in tokenize(sentence.group(), "en") if not t.stop and not t.brk
                )
            )
            order = _ORDER.search(sentence.group())
            found.append((*sentence.span(), words, order.span() if order is not None else None))
        return tuple(found)


_Sentence = tuple[int, int, tuple[str, ...], "tuple[int, int] | None"]


def implied_matches(
    vocab: Vocabulary,
    text: str,
    found: Sequence[TermMatch],
    context: CardContext | None = None,
    evidence: TextEvidence | None = None,
) -> list[TermMatch]:
    """The rules an English ruling applies without naming them, as matches of the phrase that
    shows it (rules the ruling's own terms already link are left out).

    ``evidence``: the ruling's :class:`TextEvidence` (with this context), when kept; the
    matches are the same without it.
    """
    if vocab.language != "en":
        return []
    if evidence is None:
        evidence = TextEvidence(text, context)
    linked = {n for match in found for n in match.term.targets}
    result: list[TermMatch] = []
    replacement = vocab.concepts.get(REPLACEMENT, ())
    if replacement and not set(replacement) <= linked:
        shown = evidence.replacement
        if shown is not None:
            result.append(_match(text, *shown, replacement, REPLACEMENT))
            linked |= set(replacement)
    state = vocab.concepts.get(STATE_BASED, ())
    condition = evidence.condition
    if state and condition and not any(n.startswith(state) for n in linked):
        result.append(_match(text, *condition, state, STATE_BASED))
        linked |= set(state)
    layers = vocab.concepts.get(LAYERS, ())
    if layers and not set(layers) <= linked:
        changes = evidence.layers
        if changes is not None:
            result.append(_match(text, *changes, layers, LAYERS))
            linked |= set(layers)
    for match in _interactions(vocab, text, [*found, *result], evidence):
        if not set(match.term.targets) <= linked:
            result.append(match)
            linked |= set(match.term.targets)
    result += described_matches(
        vocab, text, set(linked), evidence.context.texts, evidence.described
    )
    return result


def _applies(text: str) -> re.Match[str] | None:
    """Where a ruling on a card worded as a replacement effect speaks of that effect: not a
    bare "would" in a sentence about preventing damage (615.1a: prevention effects use the word
    "prevent"; "the next 1 damage that would be dealt" is one), as for the "if … would" test."""
    for sentence in _SENTENCE.finditer(text):
        prevention = bool(_PREVENT.search(sentence.group()))
        for found in _APPLIES.finditer(text, sentence.start(), sentence.end()):
            if not (prevention and found.group().casefold() == "would"):
                return found
    return None


def implied_inputs(vocab: Vocabulary) -> tuple[Any, ...]:
    """Everything :func:`implied_matches` reads of a vocabulary: two vocabularies with the same
    inputs find the same implied rules in a text whose own term matches are the same
    (kb.links.walk carries them from one edition to the next)."""
    if vocab.language != "en":
        return ()
    titles = tuple((t.words, t.targets, t.concept) for t in _interaction_titles(vocab))
    concepts = tuple(vocab.concepts.get(c, ()) for c in (REPLACEMENT, STATE_BASED, LAYERS))
    return (concepts, titles, described_inputs(vocab))


def implied_change(before: tuple[Any, ...] | None, after: tuple[Any, ...]) -> Any:
    """Which rulings a change of :func:`implied_inputs` (``before`` to ``after``) concerns, as a
    test of a ruling's :class:`TextEvidence`: every one, unless only some descriptions' rules
    changed (a rule of kb.links.described renumbered): then those where one of them shows."""
    if before == after:
        return lambda evidence: False
    if not before or not after or before[:2] != after[:2]:
        return lambda evidence: True
    which = [k for k, (a, b) in enumerate(zip(before[2], after[2], strict=True)) if a != b]
    return lambda evidence: any(evidence.described.at(k) is not None for k in which)


def _interaction_titles(vocab: Vocabulary) -> list[Term]:
    titles = vocab.memo.get("interactions")
    if titles is None:  # once per vocabulary, not once per ruling
        titles = vocab.memo["interactions"] = [
            t
            for t in vocab.terms
            if t.source == "title" and t.concept.startswith(_INTERACTION) and len(t.words) >= 4
        ]
    return titles


def _match(text: str, start: int, end: int, targets: Iterable[str], concept: str) -> TermMatch:
    phrase = text[start:end]
    term = Term(phrase_words(phrase, "en"), phrase, tuple(targets), "implied", concept)
    return TermMatch(start, end, phrase, term)


def _interactions(
    vocab: Vocabulary, text: str, found: Sequence[TermMatch], evidence: TextEvidence
) -> list[TermMatch]:
    """Sentences about an "Interaction of …" title of three or more concepts: naming them all,
    or, for replacement effects, the order in which they apply (616.1)."""
    titles = _interaction_titles(vocab)
    if not titles:
        return []
    replacement = set(vocab.concepts.get(REPLACEMENT, ()))
    fillers = _fillers()
    result = []
    for start, end, words, order in evidence.sentences:
        inside = [m for m in found if start <= m.start < end]
        ordered = order is not None and any(replacement & set(m.term.targets) for m in inside)
        for title in titles:
            named = all(w in words for w in title.words if w not in fillers)
            if named or (ordered and _replacement_word() in title.words):
                if named or order is None:
                    result.append(_match(text, start, end, title.targets, title.concept))
                else:  # "order" shows it
                    a, b = start + order[0], start + order[1]
                    result.append(_match(text, a, b, title.targets, title.concept))
    return result


@lru_cache(maxsize=1)
def _fillers() -> frozenset[str]:
    return frozenset(w for f in _TITLE_FILLERS for w in phrase_words(f, "en"))


@lru_cache(maxsize=1)
def _replacement_word() -> str:
    return phrase_words("replacement", "en")[0]

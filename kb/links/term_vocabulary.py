"""The term vocabularies of an edition: the phrases that name each rule, in each language.

An edition's English vocabulary is built from the edition itself:

- glossary terms, pointing at the rules their definition cites (``Vote`` -> 701.38); when a
  definition cites several rules, those whose quoted title shares a word with the term win
  (``Triggered Ability`` -> 603 "Handling Triggered Abilities", not 113 "Abilities"); a redirect
  (``Deal`` -> ``See Damage.``) or "An obsolete term for mana value" borrows its target's rules;
- rule and chapter titles (``The Ring Tempts You`` -> 701.54, ``Saga Cards`` -> 714, and the
  head ``Saga`` on its own when capitalised, since ``case`` and ``class`` are words too);
- terms the rules define in passing ("… referred to as a chapter ability" -> 714.2), or by a
  quoted definition ('To “tap [a permanent] for mana” is to …' -> 106.12);
- symbols the glossary explains (``{S}`` -> 107.4h);
- the aliases of :mod:`kb.links.thesaurus`, which name concepts, never numbers.

French and Spanish vocabularies are the thesaurus's names for those same concepts plus the titles
of translated rule pages (``El Anillo te tienta``) and the keyword terms learned from the cards.
:mod:`kb.links.terms` matches them in texts.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .inflections import gerund_keyword, own_participle, participle_uses, verb_uses
from .references import find_references
from .terms import Term, Vocabulary
from .thesaurus import (
    ALIASES,
    DEFINED_AT,
    GAME_NOUNS,
    GENERAL_CONCEPTS,
    KINDS_OF,
    RULE_STATEMENTS,
)
from .wording import (
    all_senses_rule,
    card_forms,
    distributed,
    function_words,
    permanent_forms,
    quoted_definition,
    symbol_mana,
)
from .words import phrase_gaps, phrase_words

_SYMBOL = re.compile(r"\{[A-Z0-9/]{1,6}\}")
_REPRESENTS_COUNTER = re.compile(r"\brepresents one (?P<kind>[a-z]+) counter\b")
_DEFINED = re.compile(
    r"(?:referred to as|(?:is|are) called|(?:is|are) known as)\s+(?:an?\s+|the\s+)?“?"
    r"(?P<term>[a-z][a-z\- ]{2,40}?)”?\s*[.,;)]"
)
# A basic land type's own entry ("Mountain: One of the five basic land types."): a subtype that
# names the lands having it; the type is linked through "basic land type" (305.6).
_LAND_TYPE = re.compile(r"^One of the five basic land types\b")
_OBSOLETE_FOR = re.compile(r"^An obsolete term for (?P<term>[\w\s-]+?)\.", re.IGNORECASE)
_RENAMED = re.compile(r"older name for|been renamed", re.IGNORECASE)
_SEE_TERM = re.compile(r"(?:^|[.”]\s)See (?P<term>(?!rules? )[A-Z][\w\s-]*?)\.\s*$")
_KIND_OF_DAMAGE = re.compile(r"^(?P<kind>(?!Combat\b)(?!Noncombat\b)\w+) Damage$")
_DECLARE = re.compile(r"^Declare (?P<who>\w+) Step$")
_TITLE_AFTER = re.compile(r"^,?\s*“(?P<title>[^”]+?)[.,]?”")

# When one phrase comes from several sources, the most authoritative one decides its rules: the
# glossary is the rules' own index of what a term means.
_RANK = {
    "glossary": 0,
    "symbol": 0,
    "alias": 1,
    "translation": 1,
    "title": 2,
    "learned": 2,
    "defined": 3,
}


@dataclass(frozen=True)
class RuleEntry:
    """What the vocabulary needs of a rule: number, kind, title and body."""

    number: str
    kind: str
    title: str
    body: str


@dataclass(frozen=True)
class GlossaryItem:
    """What the vocabulary needs of a glossary entry."""

    term: str
    definition: str
    redirect: str | None = None
    obsolete: bool = False


class _Builder:
    """Collects phrases -> rules, merging a phrase met in several sources."""

    def __init__(self, language: str, exists: set[str]) -> None:
        self.language = language
        self.exists = exists
        self.terms: dict[tuple[str, ...], Term] = {}
        self.objects = {phrase_words(c, "en") for c in GAME_NOUNS}
        self.general = {phrase_words(c, "en") for c in GENERAL_CONCEPTS}

    def add(
        self,
        phrase: str,
        targets: Iterable[str],
        source: str,
        concept: str,
        capital: bool = False,
        verb_targets: tuple[str, ...] = (),
        general: bool = False,
    ) -> None:
        words = phrase_words(phrase, self.language)
        kept = tuple(dict.fromkeys(t for t in targets if t in self.exists))
        if not words or not kept or (self.language == "en" and words in self.objects):
            return
        general = general or (
            self.language == "en" and (words in self.general or function_words(phrase))
        )
        verbal = (
            self.language == "en"
            and len(words) > 1
            and (words[0],) in self.general
            and all((w,) in self.objects for w in words[1:])
        )
        participle = source == "glossary" and len(words) == 1 and phrase.endswith("ed")
        bare = all(t.startswith("702.") for t in kept)
        old = self.terms.get(words)
        if old is not None:
            if _RANK[old.source] < _RANK[source]:
                return
            if _RANK[old.source] == _RANK[source]:
                kept = tuple(dict.fromkeys((*old.targets, *kept)))
                capital = capital and old.capital
                participle = participle and old.participle
        gaps = phrase_gaps(phrase, self.language)
        verbs = tuple(t for t in verb_targets if t in kept)
        if verbs == kept:
            verbs = ()
        term = Term(
            words,
            phrase.strip(),
            kept,
            source,
            concept,
            capital,
            participle,
            bare,
            gaps,
            general,
            verbs,
            verbal,
        )
        self.terms[words] = term


def _glossary_targets(
    item: GlossaryItem,
    titles: Mapping[str, str] | None = None,
    bodies: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """The rules a definition cites: those whose title shares a word with the term, else the first.

    ``Triggered Ability`` cites 113 "Abilities" and 603 "Handling Triggered Abilities": 603 wins.
    Where no title shares a word, the first cited rule, unless its text does not use the term and
    later ones do (``Copiable Values`` cites 613.2, about layer 1's sublayers, then 707.2 and
    707.3, which say what copiable values are).
    ``Aura`` cites 303 "Enchantments" and 702.5 "Enchant": the glossary names the main rule first.
    A citation without its title in quotes is compared with the cited rule's own title
    (``Shuffle`` cites "rule 103.3 and rule 701.24": 701.24 is "Shuffle"); a section is cited
    only when no rule is (``Card Type``: rule 205, not section 3). A game noun shared (player,
    card: :data:`GAME_NOUNS`) names no concept: ``Defending Player`` cites 506.2, then, for
    "certain multiplayer games", 802 "Attack Multiple Players Option", which is not its rule.
    """
    titles = titles or {}
    bodies = bodies or {}
    cited: list[tuple[tuple[str, ...], set[str]]] = []
    for ref in find_references(item.definition, "en"):
        after = _TITLE_AFTER.match(item.definition[ref.end :])
        if after:
            title_words = set(phrase_words(after["title"], "en"))
        else:
            title_words = {w for n in ref.numbers for w in phrase_words(titles.get(n, ""), "en")}
        cited.append((ref.numbers, title_words - GAME_NOUNS))
    if not cited:
        return ()
    if any(len(n) > 1 for nums, _ in cited for n in nums):  # a section is too broad a target
        cited = [(nums, title) for nums, title in cited if all(len(n) > 1 for n in nums)]
    term_words = set(phrase_words(item.term, "en"))
    scores = [len(term_words & title) for _, title in cited]
    best = max(scores)
    if best == 0:  # no title names it: the first rule, unless only later ones use the term
        first = cited[0][0]

        def uses(number: str) -> bool:
            return number not in bodies or term_words <= set(phrase_words(bodies[number], "en"))

        if len(cited) == 1 or any(uses(n) for n in first):
            return first
        using = [n for nums, _ in cited[1:] for n in nums if n in bodies and uses(n)]
        return tuple(dict.fromkeys(using)) or first
    chosen = [nums for (nums, _), s in zip(cited, scores, strict=True) if s == best]
    return tuple(dict.fromkeys(n for nums in chosen for n in nums))


def _symbol_rule(term: str, symbol: str, bodies: Mapping[str, str]) -> tuple[str, ...]:
    """The rule that says what a symbol is (107.14 "The energy symbol is {E}."), for a glossary
    entry that cites none."""
    statement = f"the {term.casefold()} is {symbol.casefold()}"
    return tuple(n for n, body in bodies.items() if body.casefold().startswith(statement))[:1]


_SENSE = re.compile(r"(?:^|\n)\s*\d\.\s+")


def _verb_sense_targets(item: GlossaryItem) -> tuple[str, ...]:
    """The rules cited by a definition's verb senses ("1. To cancel a spell…"), if it has others."""
    senses = [part for part in _SENSE.split(item.definition) if part.strip()]
    if len(senses) < 2:
        return ()
    verbs = [
        ref.numbers
        for part in senses
        if part.lstrip().startswith("To ")
        for ref in find_references(part, "en")
    ]
    return tuple(dict.fromkeys(n for numbers in verbs for n in numbers))


def _term_names(term: str) -> list[str]:
    """The phrases a glossary headword stands for (``Control, Controller`` is two)."""
    names = [term]
    if "," in term:
        names.extend(part.strip(' “”"') for part in term.split(","))
    return [n for n in names if n and "[" not in n]


def english_vocabulary(
    rules: Iterable[RuleEntry], glossary: Iterable[GlossaryItem], language: str = "en"
) -> Vocabulary:
    """The English vocabulary of one edition from its rules and glossary."""
    rules = list(rules)
    glossary = list(glossary)
    builder = _Builder(language, {r.number for r in rules})
    concepts: dict[str, tuple[str, ...]] = {}
    by_name = {g.term.casefold(): g for g in glossary}
    titles = {r.number: r.title for r in rules if r.title}
    bodies = {r.number: r.body for r in rules if r.body}
    own = {g.term.casefold(): _glossary_targets(g, titles, bodies) for g in glossary}
    first = _first_statements(rules)
    stated = {statement: rules[place].number for place, said in first.items() for statement in said}
    for term, statement in DEFINED_AT.items():
        if term.casefold() in own and statement in stated:
            own[term.casefold()] = (stated[statement],)
    keyword_rules = {
        t.casefold(): n for n, t in titles.items() if n.startswith(("701.", "702.")) and t
    }
    actions = {t for t, n in keyword_rules.items() if n.startswith("701.")}
    for item in glossary:
        if _LAND_TYPE.match(item.definition):  # "Swamp" names lands, as "Zombie" names creatures
            continue
        targets = own[item.term.casefold()]
        kind_of = KINDS_OF.get(item.term, "").casefold()
        if own.get(kind_of):  # a creature type is a subtype (205.3), not a creature (302)
            targets = own[kind_of]
        borrowed = item.redirect
        obsolete_for = _OBSOLETE_FOR.match(item.definition)
        see = _SEE_TERM.search(item.definition)
        if obsolete_for:
            borrowed = obsolete_for["term"]
        elif item.obsolete:
            # A renamed term still names its rule in old rulings and printings ("removed from
            # the game", "Totem Armor", "redirected"); other obsolete wordings ("At End of
            # Turn": the end step now, and "until end of turn" is everywhere) are not linked.
            if not see and not _RENAMED.search(item.definition):
                continue
            borrowed = see["term"] if see else None
        if not targets and borrowed and borrowed.casefold() in by_name:
            targets = own[borrowed.casefold()]
        targets = all_senses_rule(item.term, item.definition, keyword_rules) or targets
        targets = tuple(_section_general(n, builder.exists) for n in targets)
        targets += _state_checks(item, targets)
        concepts[item.term.casefold()] = targets
        verbs = _verb_sense_targets(item)
        names = _term_names(item.term)
        if len(names) > 1:  # "Active Player" has its own entry; the APNAP headword borrows not
            names = [n for n in names if n == item.term or n.casefold() not in by_name]
        if item.obsolete and len(names) > 1:  # "Removed" alone is also "removed from combat"
            names = [n for n in names if len(n.split()) > 1]
        for name in names:
            builder.add(name, targets, "glossary", item.term, verb_targets=verbs)
            for form in card_forms(name, actions):
                builder.add(form, targets, "defined", item.term)
            if name.endswith(" Rule"):  # "summoning sickness", as "X Variant" is "X"; not
                # "legend" or "world", basic nouns the builder refuses
                builder.add(name.removesuffix(" Rule"), targets, "glossary", item.term)
            kind = _KIND_OF_DAMAGE.match(name)
            if kind:  # combat damage is damage (510): "dealt lethal combat damage"
                builder.add(f"{kind['kind']} Combat Damage", targets, "glossary", item.term)
        symbol = _SYMBOL.search(item.definition) if item.term.endswith("Symbol") else None
        if symbol and not targets:  # "Energy Symbol" cites no rule: the one saying what it is
            targets = _symbol_rule(item.term, symbol.group(), bodies)
            concepts[item.term.casefold()] = targets
            builder.add(item.term, targets, "glossary", item.term)
        if symbol:
            builder.add(symbol.group(), targets, "symbol", item.term)
            counter = _REPRESENTS_COUNTER.search(item.definition)
            if counter and targets:  # {E} is one energy counter: the counter names it too
                builder.add(f"{counter['kind']} counter", targets, "defined", item.term)
        mana = symbol_mana(item.term)
        if mana and phrase_words(mana, language) not in builder.terms:
            builder.add(mana, targets, "glossary", item.term)
        if len(item.term) == 1 and item.term.isupper():  # the variable X is also the symbol {X}
            builder.add("{" + item.term + "}", targets, "symbol", item.term)
    for place, rule in enumerate(rules):
        if rule.title and rule.kind in ("chapter", "rule") and rule.title != "General":
            _add_title(builder, rule, concepts, actions)
        for statement in first.get(place, ()):
            concepts.setdefault(statement, (rule.number,))
        for found in _DEFINED.finditer(rule.body):
            term = found["term"].strip()
            if 2 <= len(term.split()) <= 3 and not set(term.split()) & {"that", "for", "in"}:
                builder.add(term, (rule.number,), "defined", term)
        quoted = quoted_definition(rule.body)
        if quoted and 2 <= len(quoted.split()) <= 3:
            builder.add(quoted, (rule.number,), "defined", quoted)
    for term in list(builder.terms.values()):
        for form in permanent_forms(term.phrase):
            if phrase_words(form, language) not in builder.terms:
                builder.add(form, term.targets, "defined", term.concept, capital=term.capital)
    for phrase, concept in ALIASES.get(language, {}).items():
        builder.add(phrase, concepts.get(concept.casefold(), ()), "alias", concept)
    uses = participle_uses((rule.number, rule.body) for rule in rules)
    gerunds = {t.words[0] for t in builder.terms.values() if gerund_keyword(t)}
    verbs = verb_uses(((rule.number, rule.body) for rule in rules), gerunds)
    terms = [own_participle(term, uses, verbs) for term in builder.terms.values()]
    return Vocabulary(language, terms, concepts, frozenset(builder.exists))


def _first_statements(rules: Sequence[RuleEntry]) -> dict[int, list[str]]:
    """Per place in ``rules``, the statements of :data:`RULE_STATEMENTS` (and of
    :data:`DEFINED_AT`) that the rule or subrule there is the first to make, in that order.

    Found in all the bodies joined (no statement holds a line break), not by a scan per rule
    and statement: that was ~2% of a link run at the whole history.
    """
    places: list[int] = []
    starts: list[int] = []
    parts: list[str] = []
    length = 0
    for place, rule in enumerate(rules):
        if rule.kind in ("rule", "subrule"):
            body = rule.body.replace("’", "'").casefold()
            places.append(place)
            starts.append(length)
            parts.append(body)
            length += len(body) + 1
    said = "\n".join(parts)
    first: dict[int, list[str]] = {}
    for statement in (*RULE_STATEMENTS, *DEFINED_AT.values()):
        at = said.find(statement)
        if at >= 0:
            first.setdefault(places[bisect_right(starts, at) - 1], []).append(statement)
    return first


def _state_checks(item: GlossaryItem, targets: tuple[str, ...]) -> tuple[str, ...]:
    """The state-based actions (704.5x) a definition cites besides its main rules: lethal damage
    (120.4a, and 704.5g destroys the creature) is what the state-based actions check, so a
    ruling about it applies them too."""
    cited = [n for ref in find_references(item.definition, "en") for n in ref.numbers]
    return tuple(n for n in dict.fromkeys(cited) if n.startswith("704.5") and n not in targets)


def _section_general(number: str, exists: set[str]) -> str:
    """A section (``8``, "Multiplayer Rules") stands for its general rule (800), which the
    policy labels: a section number is no rule a reader can follow."""
    general = f"{number}00"
    return general if number.isdigit() and len(number) == 1 and general in exists else number


def _add_title(
    builder: _Builder,
    rule: RuleEntry,
    concepts: dict[str, tuple[str, ...]],
    actions: Collection[str] = (),
) -> None:
    title = re.sub(r"\s*\([^)]*\)", "", rule.title).strip()
    concepts.setdefault(rule.title.casefold(), (rule.number,))
    builder.add(title, (rule.number,), "title", rule.title)
    if rule.number.startswith(("701.", "702.")) and " and " in title:
        for part in title.split(" and "):
            builder.add(part, (rule.number,), "title", rule.title)
    for phrase in distributed(title):
        if phrase_words(phrase, builder.language) not in builder.terms:
            builder.add(phrase, (rule.number,), "title", rule.title)
    declared = _DECLARE.match(title)
    if declared:  # "before blockers are chosen": the step's own noun, a general concept
        builder.add(declared["who"], (rule.number,), "title", rule.title, general=True)
    for suffix in (" Variant", " Option"):  # "in a Two-Headed Giant game"
        if title.endswith(suffix):
            head = title.removesuffix(suffix)
            # one word may be an ordinary one ("Emperor", "Archenemy" is not); a phrase of
            # several names the variant in lower case too ("you may attack multiple players")
            capital = len(head.split()) == 1
            builder.add(head, (rule.number,), "title", rule.title, capital=capital)
    if title.endswith(" Cards"):
        head = title.removesuffix(" Cards")
        concepts.setdefault(head.casefold(), (rule.number,))
        # "Saga", "Case", "Class" are words too, capitalised where they name the cards; a
        # hyphenated head is no other word ("a double-faced or melded permanent").
        capital = "-" not in head
        builder.add(head, (rule.number,), "title", rule.title, capital=capital)
    for form in card_forms(title, actions):  # a one-word head is a word too: "Case spell"
        head = form.split()[0]
        capital = "-" not in head and len(form.split()) == 2
        builder.add(form, (rule.number,), "defined", rule.title, capital=capital)


def translated_vocabulary(
    language: str,
    english: Vocabulary,
    titles: Mapping[str, str],
    learned: Mapping[str, str] | None = None,
) -> Vocabulary:
    """A language's vocabulary for an edition: thesaurus names and translated rule titles.

    ``english`` is the edition's English vocabulary (for the concepts' rules); ``titles`` maps a
    rule number of that edition to its translated title; ``learned`` maps a term learned from
    card translations to its English keyword (:mod:`kb.links.learned`).
    """
    builder = _Builder(language, set(english.numbers) | set(titles))
    for number, title in sorted(titles.items()):
        if title:
            builder.add(title, (number,), "translation", title)
    for phrase, concept in ALIASES.get(language, {}).items():
        builder.add(phrase, english.concepts.get(concept.casefold(), ()), "alias", concept)
    for phrase, concept in (learned or {}).items():
        builder.add(phrase, english.concepts.get(concept.casefold(), ()), "learned", concept)
    return Vocabulary(language, list(builder.terms.values()), english.concepts, english.numbers)

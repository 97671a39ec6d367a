"""Where a term's words, found in a text, name the term, and the names a heading stands for.

The term matcher (:mod:`kb.links.terms`) finds a term's words in a text; the wording around them
can show they are something else: two noun phrases that only sit side by side, an ordinary verb,
a symbol quoted as part of a card's ability. Headings and glossary entries also stand for names
a ruling writes differently (a title's coordinated nouns, a mana symbol's mana). Each rule here
is a fact of English or of how the Comprehensive Rules name things, not a list of examples.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from .references import find_references

# Words that open a noun phrase: one of them between two words starts a new phrase.
_DETERMINERS = frozenset("the a an this that these those".split())
# "Phyrexian Mana Symbol": the symbol of a kind of mana, which a ruling names by the mana itself
# ("Phyrexian mana is not a new color"), as "X Variant" is named "X".
_MANA_SYMBOL = re.compile(r"^(?P<mana>\w[\w ]* Mana) Symbols?$")
# "prevent it from being untapped": the ordinary verb of a restriction, not the prevention of
# damage (615) the glossary's Prevent means ("prevents it from dealing damage" is that).
_PREVENT_FROM = re.compile(
    r"^(?:\s+[\w’']+){1,4}?\s+from\s+(?!dealing\b|being dealt\b)[\w’']+ing\b"
)
# The glossary's Prevent is "what damage will not be dealt" (615): a text that speaks of no damage
# dealt uses the everyday verb (*the effect prevents spells from targeting it*, *Auras are not
# prevented*, *prevents the copies from being created*).
_DAMAGE = re.compile(r"\b(?:damage|dealt|deals?|dealing|prevention)\b", re.IGNORECASE)
# A quoted ability (“{T}: Add {R}.”): its cost's symbols are the card's wording, which the ruling
# quotes whole; the ruling is about the ability, not the symbol.
_QUOTED_ABILITY = re.compile(r"[“\"][^”\"]*:[^”\"]*[”\"]")
# 702.5a: the keyword is written "Enchant [object]", in its base form, its object a bare noun
# (*enchant creature*, *enchant opponent*); *enchants*, *enchanting* are the verb of 303.4 (what
# an Aura enchants is what it is attached to), which takes an article or a pronoun, or none at
# the end of a clause (*did not enchant a creature*, *the creature this Aura would enchant is*).
_KEYWORD_OBJECT = re.compile(
    r"\s+(?!(?:a|an|the|that|this|these|those|it|them|its|their|your|another|any|each|is|are|"
    r"was|were|and|or|but)\b)[^\W\d_]",
    re.IGNORECASE,
)
# 700.4's verb *dies* and the noun *die* (706, "Rolling a Die") share a word: after a
# determiner, a number or a size the word is the noun (*roll a die*, *using a die* to count
# energy, *a six-sided die*).
_DIE_NOUN = re.compile(
    r"\b(?:a|an|the|one|two|three|this|each|same|another|[\w-]+-sided|d\d+)\s+$",
    re.IGNORECASE,
)
# A type line's or a suspend cost's punctuation mark (*Creature types appear after the dash on
# the type line*, *the number before the dash*): "the dash" not followed by "cost" or "ability",
# which is Dash (702.109), the keyword a ruling names by its cost (*the dash cost*).
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_DASH_KEYWORD_AFTER = re.compile(r"\s+(?:costs?\b|abilit)", re.IGNORECASE)
# A symbol before "ability" or "abilities" (*its {T} abilities can be activated*) is a modifier
# that sorts abilities by their cost: the text is about those abilities, not the symbol.
_NAMES_ABILITIES = re.compile(r"\s+abilit(?:y|ies)\b", re.IGNORECASE)
# English conjunctions and prepositions of condition, comparison and time (closed classes).
_FUNCTION_WORDS = frozenset(
    "as though if unless instead when whenever while until before after than rather".split()
)
# 106.12 'To “tap [a permanent] for mana” is to …': a rule that defines a quoted phrase; its
# placeholders ([a permanent], N) are left out (a text says "tapped for mana").
_QUOTED_DEFINITION = re.compile(r"^To “(?P<term>[^”]{3,50})” (?:is|means) to\b")
_PLACEHOLDER = re.compile(r"\[[^\]]*\]|\b[NX]\b")
# A glossary definition's numbered senses ("1. To play a land … 2. To play a card …").
_SENSE = re.compile(r"(?:^|\n)\s*\d\.\s+")
_PLURAL_NOUNS = frozenset("spells abilities permanents turns phases steps cards".split())


def split_by_determiner(
    phrase: str,
    verbal: bool,
    gaps: Sequence[tuple[str, ...]],
    small: Sequence[tuple[str, ...]],
    first: str,
) -> bool:
    """A determiner between a noun compound's words opens a second noun phrase: *the spell the
    ability copies* is no Spell Ability, *split the cards* no Split Cards, *equipping a
    creature* no equipped creature. A verb and its object may have one (*cast a spell*,
    *activating the ability*, *declaring the attacker*): a ``verbal`` term, or a term that
    starts with a verb's base form the text writes as a gerund.

    ``gaps``: the small words the phrase has before each of its words; ``small``: those the text
    has; ``first``: the text's first word of the match.
    """
    if verbal:
        return False
    head = phrase.split()[0].casefold() if phrase.split() else ""
    if first.casefold().endswith("ing") and not head.endswith(("ed", "ing")):
        return False
    for k in range(1, len(small)):
        own = gaps[k] if k < len(gaps) else ()
        if (
            _DETERMINERS & set(small[k])
            and not _DETERMINERS & set(own)
            and not of_determiner(own, small[k])
        ):
            return True
    return False


def gap_written(own: tuple[str, ...], small: tuple[str, ...]) -> bool:
    """Whether the small words a text has before a phrase's word (``small``) end with those the
    phrase has there (``own``), or with its *of* and a determiner (:func:`of_determiner`)."""
    return small[-len(own) :] == own or of_determiner(own, small)


def of_determiner(own: tuple[str, ...], small: tuple[str, ...]) -> bool:
    """A phrase's *of* before a noun takes the noun's determiner in a text: *the declaration of
    the attacker* is the declaration of attackers, as *the end of the combat* is its end."""
    return (
        own[-1:] == ("of",)
        and len(small) > len(own)
        and small[-len(own) - 1 : -1] == own
        and small[-1] in _DETERMINERS
    )


# The rule a keyword's word names where ordinary_use finds it is the verb, not the keyword: an
# Aura "enchants" what it is attached to (303.4b), linked where the text is about it (*can only
# enchant a creature you control*, *must be legally able to enchant the player*).
VERB_SENSES: dict[tuple[str, ...], tuple[str, ...]] = {("enchant",): ("303.4",)}


def ordinary_use(
    words: tuple[str, ...], symbol: bool, text: str, start: int, end: int, language: str = "en"
) -> bool:
    """Where a term's words at ``text[start:end]`` mean something else than the rule: *prevent X
    from doing*, or *prevent* in a text that speaks of no damage (a restriction, not damage
    prevention), the verb *enchant a creature* (303.4, not the keyword Enchant [object],
    702.5a), the noun *a die* (706, not 700.4's *dies*), the punctuation mark *the dash* (not
    Dash, 702.109), a cost ``symbol`` inside a quoted ability or sorting abilities (*{T}
    abilities*)."""
    if words == ("prevent",) and (
        _PREVENT_FROM.match(text[end:]) or (language == "en" and not _DAMAGE.search(text))
    ):
        return True
    if (
        words == ("enchant",)
        and language == "en"
        and (text[start:end].casefold() != "enchant" or not _KEYWORD_OBJECT.match(text, end))
    ):
        return True  # the keyword is written in its base form (702.5a); "enchants" is the verb
    if (
        words == ("die",)
        and text[start:end].casefold() == "die"
        and _DIE_NOUN.search(text, 0, start)
    ):
        return True
    if (
        words == ("dash",)
        and text[start:end] == "dash"
        and _THE_BEFORE.search(text, 0, start)
        and not _DASH_KEYWORD_AFTER.match(text[end:])
    ):
        return True
    if symbol:
        if _NAMES_ABILITIES.match(text[end:]):
            return True
        return any(q.start() < start and end < q.end() for q in _QUOTED_ABILITY.finditer(text))
    return False


def distributed(title: str) -> list[str]:
    """The phrases a title with one modifier and two coordinated nouns stands for: *Face-Down
    Spells and Permanents* names face-down spells and face-down permanents, *Resolving Spells
    and Abilities* resolving spells and resolving abilities (the modifier distributes over the
    coordination, as in any English noun phrase)."""
    words = title.split()
    if len(words) != 4 or words[2] != "and":
        return []
    modifier, first, second = words[0], words[1], words[3]
    if first.casefold() not in _PLURAL_NOUNS or second.casefold() not in _PLURAL_NOUNS:
        return []
    return [f"{modifier} {first}", f"{modifier} {second}"]


def symbol_mana(term: str) -> str | None:
    """The mana a glossary's mana symbol entry names (``Phyrexian Mana Symbol`` -> Phyrexian
    Mana), which rulings write without the word symbol."""
    found = _MANA_SYMBOL.match(term)
    return found["mana"] if found else None


def function_words(phrase: str) -> bool:
    """A glossary term made only of function words (*As Though*) is everyday English that
    every ruling may use; like a general concept, it is linked only where the ruling is about
    it (quoted, defined), not wherever it occurs."""
    words = phrase.casefold().split()
    return bool(words) and all(w in _FUNCTION_WORDS for w in words)


def quoted_definition(body: str) -> str | None:
    """The phrase a rule defines in quotes (106.12 'To “tap [a permanent] for mana” is to …'
    defines *tap for mana*), without its placeholders."""
    found = _QUOTED_DEFINITION.match(body)
    return " ".join(_PLACEHOLDER.sub(" ", found["term"]).split()) if found else None


def all_senses_rule(
    term: str, definition: str, keyword_rules: Mapping[str, str]
) -> tuple[str, ...]:
    """The keyword rule titled by the headword, where the definition's senses cite different
    rules and none cites it: *Play* is a land's special action (116, 305) and a card's playing
    (601), and 701.18 "Play" holds both senses, so a text that plays a card names 701.18.

    ``keyword_rules``: the keyword actions' and abilities' numbers by casefolded title.
    """
    number = keyword_rules.get(term.casefold())
    senses = [part for part in _SENSE.split(definition) if part.strip()]
    if number is None or len(senses) < 2:
        return ()
    cited = {
        frozenset(n for ref in find_references(part, "en") for n in ref.numbers) for part in senses
    } - {frozenset()}
    if len(cited) < 2 or any(number in c for c in cited):
        return ()
    return (number,)


_CARD = re.compile(r"^(?P<kind>[A-Z][\w-]*(?: [A-Z][\w-]*){0,2}) Cards?$")
_NOT_KINDS = frozenset({"permanent", "substitute", "magic"})


def card_forms(name: str, actions: Collection[str] = ()) -> list[str]:
    """The names a kind of card has where it is no card: *Double-Faced Cards* on the stack is a
    double-faced spell, on the battlefield a double-faced permanent (108.1, 110.1, 112.1), and
    rulings say so (*hybrid spells and permanents*). Not where the kind is itself one of them
    (*Permanent Card*) or no game kind (*Substitute Card*, *Traditional Magic Card*), nor where
    the kind is a keyword action's name (``actions``, casefolded): a *melded permanent* is what
    the meld action (701.42) makes."""
    found = _CARD.match(name)
    if not found or found["kind"].split()[-1].casefold() in _NOT_KINDS:
        return []
    if found["kind"].split()[0].casefold() in actions:
        return []
    return [f"{found['kind']} spell", f"{found['kind']} permanent"]


# 110.4: the permanent types. A permanent of a kind that is a creature is a creature of that kind.
_PERMANENT_TYPES = ("artifact", "creature", "enchantment", "land", "planeswalker", "battle")
_OF_PERMANENTS = re.compile(r"^(?P<kind>[\w-]+(?: [\w-]+){0,2}) Permanents?$", re.IGNORECASE)


def permanent_forms(phrase: str) -> list[str]:
    """The names a kind of permanent has as each permanent type: a *face-down permanent* that
    is a creature is a *face-down creature*, a *double-faced permanent* a *double-faced
    creature* or *double-faced land* (110.4), and rulings name them so."""
    found = _OF_PERMANENTS.match(phrase)
    if not found or found["kind"].split()[-1].casefold() in ("and", "with", "or"):
        return []
    return [f"{found['kind']} {kind}" for kind in _PERMANENT_TYPES]

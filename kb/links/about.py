"""Whether a text is about a general concept where it names it, or only mentions it on the way.

"Split second doesn't stop triggered abilities" is about triggered abilities; "you may cast it"
only mentions casting. A general concept (:data:`kb.links.thesaurus.GENERAL_CONCEPTS`) is linked
where the text is about it, which its wording shows without a parse:

- it is quoted (“draw”, “attacks alone”): the text talks about the word itself;
- "for more information about …" names it;
- it opens its clause, after nothing but small words and names (*If a token is exiled*, *The
  Zombie tokens are…*, *Because targets are chosen…*): it is what the clause is about;
- it is the verb after a modal (*can target*, *must attack*, *may sacrifice*) or a participle after
  a form of *be*, a pronoun's clitic too (*can't be countered*, *would be destroyed*, *it's
  exiled*): the text says whether or how it happens, and so does a negation where an object's
  action does not happen (*the spell won't resolve*, *doesn't target*). A future alone (*will
  resolve*), or a player's action that a player won't take (*you won't draw*, *that player
  doesn't shuffle*), only tells the story of the card, and a progressive form is a state
  (*is attacking*), unless a player is doing it (*you're casting*, *you are casting*) or it says
  how a spell is cast (*cast Fling targeting a creature*);
- it is counted (*only one target*, *either target*, *zero targets*);
- a card the text is about is the subject (*Strionic Resonator targets a triggered ability*):
  the names of the ruling's cards are names at the start of a sentence too; and since only
  spells and abilities target (115.1), a card or a pronoun before *target* is one (*This
  doesn't target that opponent*, *Magmaquake doesn't target*);
- it is the event after *when* or *whenever* that follows a trigger, wherever it stands in the
  clause (*triggers whenever you sacrifice a permanent*), or what a player is *allowed to* do;
- it is what a player does in a time clause (*once you activate the ability*, *as you cast
  it*, *after you've activated*): the text says when something happens in that action;
- it is the subject of a passive verb wherever its clause stands (*before blockers are chosen*,
  *after blockers have been declared*), the procedure something is *part of* (*as part of
  casting a spell or activating an ability*), what a player is *let* do (*let you draw a card*),
  or an event verb made a noun (*replaces the draw*, *the additional draw*, *a draw effect*,
  but not *the game is a draw*).

- it is what something is or becomes (*if the enchanted creature is a token*, *can be chosen as
  the target*, *it becomes day*, *it's not a card drawn*), the object of a verb of change or
  choice (*removes the type*, *change the target*, *you choose the target*), the state a player
  chooses (*you choose which player the token is attacking*), or where something stands in the
  stack (*put on the stack on top of that spell*).

And where it is not: a participle between a determiner and a noun (*the targeted spell*, *the
exiled card*) or an *-ing* participle before a creature (*an attacking creature*) picks out an
object by its state; a future passive (*will be sacrificed*) tells the story of the card, like
*will resolve*; a pronoun right after a noun (*the creature it targets*) opens a relative clause
that says which creature; a later item of a list (*the same power, toughness, and abilities*)
plays the part of the list's first item, which the comma before it does not change; and a
capitalised word next to another capitalised word in mid-sentence (*an effect such as the one
Doubling Season creates*) is part of another card's name.

:func:`is_verb` tells a glossary headword's verb sense from its noun sense (*countered*, *would
counter* is 701.6; *+1/+1 counters* is 122).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .about_names import before_list, in_card_name, named_subject, without_names
from .about_words import (
    ACTORS,
    ADVERBS,
    AGENTS,
    ANY,
    ARTICLES,
    AS,
    BE,
    BE_CLITICS,
    CHANGE_VERBS,
    CONSTRAINTS,
    COUNTS,
    DETERMINERS,
    ENDS_OBJECT,
    EVENT_NOUNS,
    FUTURE,
    HAVE,
    IRREGULAR_PARTICIPLES,
    LEADERS,
    LETS,
    LINKING,
    MANNER_OF,
    MODALS,
    NOT_MANNER,
    NOT_NOUNS,
    OBJECTS,
    OBLIGED,
    PART_OF,
    PERSONS,
    PHASES,
    PLAYER_ACTIONS,
    PLAYER_SUBJECTS,
    PLAYER_WORDS,
    PLAYERS_DOING,
    POSSESSIVES,
    PRONOUNS,
    QUOTE_ENDS,
    RELATIVES,
    REQUIRES,
    STATES,
    STORY,
    TARGETED,
    TIME_OF,
    TRIGGER_EVENTS,
    VERB_BEFORE,
    WHEN,
)

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_CLAUSE = re.compile(r"[.;:!?,—()\[\]]")
_SENTENCE = re.compile(r"[.!?](?:\s|$)")
_OPEN_QUOTES = ("“", '"', "‘")
# "put on the stack on top of that spell", "goes on the stack above it": where it stands in the
# stack's order (405.2), which the text is about.
_POSITION = re.compile(r"\s+(?:on top of|above|below|beneath|under) (?:it|that|the|this)\b")
_INFORMATION = re.compile(r"\binformation (?:about|on)\b", re.IGNORECASE)
# "To play a card means …", "To reassemble a Contraption means …": an infinitive that opens a
# sentence whose verb is *means* is the action the sentence defines.
_MEANS = re.compile(r"[^.!?;:]*?\bmeans\b")


def is_about(text: str, start: int, end: int, names: Sequence[tuple[int, int]] = ()) -> bool:
    """Whether the text is about the concept it names at ``text[start:end]``.

    ``names``: where the names of the cards the text is about stand in it (``start, end``).
    """
    before = without_names(text[:start], names)
    if before.rstrip().endswith(_OPEN_QUOTES) and QUOTE_ENDS.match(text[end:]):
        return True
    sentence = _SENTENCE.split(before)[-1]
    if _INFORMATION.search(sentence):
        return True
    if _words(sentence) == ["to"] and _MEANS.match(text, end):
        return True  # "To play a card means to play a land or …": the sentence defines it
    if in_card_name(text, start, end):
        return False
    before = before_list(before, text[end:], len(_words(text[start:end])))
    clause = _CLAUSE.split(before)[-1]
    words = _words(clause)
    if _attributive(words, _words(text[start:end]), text[end:]):
        return False
    if (
        _predicate(words)
        or _changed(words)
        or _predicate_participle(words, _words(text[start:end]))
    ):
        return True
    if names_state(_words(text[start:end])):
        return False
    if _opens(clause) or PART_OF.search(clause):
        return True
    if _passive_subject(text[end:]) or _POSITION.match(text[end:]):
        return True
    matched = _words(text[start:end]) or [""]
    last = matched[-1:]  # the head of a noun phrase; a verb phrase starts with its verb
    before_verb = [w for w in words if w not in ADVERBS][-1:]
    if not before_verb:
        return False
    if before_verb[0] in COUNTS:  # "only one target", "either target": how many of it
        return True
    if REQUIRES & set(words[-2:]):  # "a spell that requires a target" (115.1, 601.2c)
        return True
    if _player_time(words):  # "once you activate the ability", "as you cast it"
        return True
    if last[0] in EVENT_NOUNS and _event_noun(words):  # "the draw", "any other draw"
        return True
    if len(words) >= 2 and words[-1] in PERSONS and LETS & set(words[-3:-1]):  # let you draw
        return True
    if words[-1:] == ["to"] and words[-2:-1] and words[-2] in PERSONS and LETS & set(words[-4:-2]):
        return True  # "allows you to sacrifice": what a player is allowed to do
    if any(w.endswith("ing") for w in matched):  # "is attacking" is a state; "you're casting"
        return (
            before_verb[0] in PLAYERS_DOING
            or _player_is(words)
            or _manner(words)
            or _chosen_state(words)
        )
    if before_verb[0] in MODALS or _obliged(words):
        return True
    if _negated(words) and not matched[0].startswith(PLAYER_ACTIONS):
        return True  # "the spell won't resolve", "it doesn't target"
    if _trigger_event(words) and matched[0].startswith(TRIGGER_EVENTS):
        return True  # "When the equipped creature attacks": the event a trigger watches for
    if last[0].startswith("target") and named_subject(text[:start], names):
        return True  # "Order of Succession doesn't target any players": the card's spell does
    if _object_does(words, last[0]) and not last[0].startswith(STORY):
        return True  # "the triggered ability targets a player", "abilities that target a spell"
    return _is_be(before_verb[0]) and _participle(last[0]) and not _future_passive(words)


def _future_passive(words: list[str]) -> bool:
    """*will be sacrificed*, *won't be exiled*: a future passive tells the story of the card, as
    *will resolve* does; *would be destroyed* and *can't be countered* say whether it happens."""
    kept = [w for w in words if w not in ADVERBS]
    return len(kept) >= 2 and kept[-1] == "be" and kept[-2] in FUTURE


def _attributive(before: list[str], matched: list[str], after: str) -> bool:
    """A participle between a determiner and a noun is an adjective that picks an object out by
    its state (*the targeted spell*, *an attacking creature*, *the exiled card*): the text is
    about that object, not about targeting, attacking or exiling; so is *target* before what a
    spell targets (*the target creature*: the targeted one), not where it is the noun (*the
    target changes*, *the target of the spell*)."""
    if len(matched) != 1 or not before or before[-1] not in DETERMINERS | ARTICLES | POSSESSIVES:
        return False
    word = matched[0]  # "-en" is no participle here: a token is a noun
    following = _words(_CLAUSE.split(after)[0])[:1]
    if word == "target":  # "the target creature" (the targeted one); not "the target changes"
        return bool(following) and following[0] in TARGETED
    if not (word.endswith(("ed", "ing")) or word in IRREGULAR_PARTICIPLES):
        return False
    return bool(following) and following[0] not in NOT_NOUNS


def names_state(matched: Sequence[str]) -> bool:
    """An *-ing* participle right before a noun that does the action (*an attacking creature*,
    *the blocking creatures*): the phrase names the object by its state, as *is attacking*
    does, not the action (a verb and its object, *casting a spell*, *casting spells*, is)."""
    return len(matched) >= 2 and matched[0].endswith("ing") and matched[1] in AGENTS


def _changed(words: list[str]) -> bool:
    """The concept is in the object of a verb of change or choice (*removes the type
    “artifact”*, *doesn't affect supertypes or other card types*, *chooses targets for it*): the
    sentence says what happens to it, or what is chosen. A preposition, *whether* or another
    verb between ends the object (*gain control of target creature*, *change the division of
    damage*, *choose whether its power changes*)."""
    for word in reversed([w for w in words if w not in ADVERBS]):
        if word in CHANGE_VERBS:
            return True
        if word in ENDS_OBJECT:
            return False
    return False


def _predicate(words: list[str]) -> bool:
    """The concept is what something is or becomes (*if the enchanted creature is a token*,
    *can be chosen as the target*, *becomes a copy*): the clause says whether it is one. Not
    *the game is a draw* (a tie, 104.4a)."""
    kept = [w for w in words if w not in ADVERBS]
    if kept[-3:-1] == ["no", "longer"]:  # "is no longer a creature type": what it stops being
        del kept[-3:-1]
    if not kept or "game" in kept:
        return False
    if kept[-1] in ("become", "becomes", "became"):  # "it becomes day"
        return True
    if len(kept) < 2 or kept[-1] not in ARTICLES | {"the"}:
        return False
    verb = kept[-2]
    if verb in LINKING or verb in BE_CLITICS:
        return True
    return verb == "as" and len(kept) >= 3 and kept[-3] in AS


def _predicate_participle(words: list[str], matched: list[str]) -> bool:
    """A participle after the predicate's noun (*it's not a card drawn*: a card that was drawn)
    says whether the thing is one that was drawn, cast, exiled."""
    kept = [w for w in words if w not in ADVERBS]
    if len(matched) != 1 or len(kept) < 3 or kept[-2] not in ARTICLES:
        return False
    word = matched[0]
    linking = kept[-3] in LINKING or kept[-3] in BE_CLITICS
    return linking and (word.endswith("ed") or word in IRREGULAR_PARTICIPLES)


def _manner(words: list[str]) -> bool:
    """An *-ing* form in the verb phrase of casting or activating says how it is done (*cast
    Fling targeting a creature*, *activate it without targeting*): 601.2's choices. Not after a
    conjunction, a time or *be* (*cast it while the ability is targeting it*)."""
    following = ""
    for word in reversed(words):
        if word in MANNER_OF and not (word.endswith("ed") and following.startswith("abilit")):
            return True  # "activated" is no verb where it names a kind of ability
        if word in BE or word in NOT_MANNER:
            return False
        following = word
    return False


_CHOICES = frozenset("choose chooses chose chosen choosing decide decides decided".split())
_TIMES = NOT_MANNER - {"and", "or"}  # a time or condition opens another clause


def _chosen_state(words: list[str]) -> bool:
    """*you choose which player the token is attacking*: a question after a verb of choice
    whose verb is the state; the player chooses what the state is (508.4: a creature put onto
    the battlefield attacking), which the text is about. Not across a time or a conjunction
    (*choose which cards to exile as the ability is resolving*)."""
    kept = [w for w in words if w not in ADVERBS]
    if len(kept) < 3 or kept[-1] not in ("is", "are"):
        return False
    for k in range(len(kept) - 3, -1, -1):
        if kept[k + 1] in _TIMES:  # "choose which cards to return while it is resolving"
            return False
        if kept[k] in _CHOICES and kept[k + 1] in ("which", "what", "whom"):
            return True
    return False


def _player_is(words: list[str]) -> bool:
    """*you are casting*, *the player is activating*: the uncontracted *you're casting*, a
    player doing it (a progressive after a player is the action, after an object a state)."""
    kept = [w for w in words if w not in ADVERBS]
    return len(kept) >= 2 and kept[-1] in ("is", "are") and kept[-2] in PLAYER_WORDS


_NEGATIONS = frozenset("won't doesn't don't didn't".split())


def _negated(words: list[str]) -> bool:
    """*the spell won't resolve*, *doesn't target*, *will not attack*: the text says that an
    object's action does not happen, as *can't* says that it can't. A player who won't act only
    tells the story (*you won't draw a card*, *that player doesn't shuffle*), and so does an
    action only players take (:data:`PLAYER_ACTIONS`, checked by the caller)."""
    kept = [w for w in words if w not in ADVERBS or w == "not"]
    if kept[-1:] and kept[-1] in _NEGATIONS:
        subject = kept[-2:-1]
    elif kept[-2:-1] in (["will"], ["does"], ["do"], ["did"]) and kept[-1:] == ["not"]:
        subject = kept[-3:-2]
    else:
        return False
    return not (subject and subject[0] in PLAYER_SUBJECTS | PLAYER_WORDS)


def _player_time(words: list[str]) -> bool:
    """A time clause whose subject is a player (*once you've legally activated*, *as you cast*,
    *after a player has cast*): the text says when something happens in that player's action;
    so does one where the player begins or ends it (*once you begin casting*, *until you're done
    casting*)."""
    kept = [w for w in words if w not in ADVERBS and not w.endswith("ly")]
    phase = bool(kept) and kept[-1] in PHASES
    if phase:
        kept.pop()
        if kept[-1:] and kept[-1] in BE:
            kept.pop()
    if kept[-1:] and kept[-1] in HAVE:
        kept.pop()
    if not kept or kept[-1] not in PLAYER_SUBJECTS | (PLAYERS_DOING if phase else frozenset()):
        return False
    kept.pop()
    if kept[-1:] and kept[-1] in ARTICLES | DETERMINERS | POSSESSIVES:
        kept.pop()
    return bool(kept) and (kept[-1] in TIME_OF or (phase and kept[-1] == "until"))


def _trigger_event(words: list[str]) -> bool:
    """The words after *when*/*whenever* are a trigger event's subject: the clause opens with
    it, or it follows *trigger(s)* later in the clause with at most a short subject before the
    verb (*triggers whenever you sacrifice*, *triggers when a player casts*). A *when* that
    follows no trigger is a time (*has 10 life when you cast it*)."""
    if words[:1] and words[0] in WHEN:
        return True
    at = [k for k, w in enumerate(words) if w in WHEN]
    if not at or len(words) - at[-1] - 1 > 3:
        return False
    return any(w.startswith("trigger") for w in words[: at[-1]])


def _event_noun(words: list[str]) -> bool:
    """An event verb made a noun: a determiner before it, or before one adjective (*the
    additional draw*, *any other draw*), unless the word between is who acts (*have that player
    draw*: a bare infinitive)."""
    if words[-1:] and words[-1] in DETERMINERS:
        return True
    if words[-1:] and words[-1] in ARTICLES:  # "a draw effect"; "the game is a draw" is a tie
        return "game" not in words and "game's" not in words  # (and "the game's a draw")
    if len(words) < 2 or words[-2] not in DETERMINERS | ANY | ARTICLES:
        return False
    between = words[-1]
    return between not in PERSONS | ACTORS | MODALS | BE and not between.endswith("s")


def _is_be(word: str) -> bool:
    return word in BE or word in BE_CLITICS


def _obliged(words: list[str]) -> bool:
    """*doesn't have to attack*, *will need to sacrifice*: to, after a word of obligation; or
    the action a requirement or restriction of its clause is for (*the requirement to block*):
    the rules of that action govern it."""
    kept = [w for w in words if w not in ADVERBS]
    if len(kept) < 2 or kept[-1] != "to":
        return False
    return kept[-2] in OBLIGED or bool(CONSTRAINTS & set(kept[:-1]))


def _object_does(words: list[str], verb: str) -> bool:
    """A spell or ability is the subject: *the ability targets*, *abilities that target*. Only
    spells and abilities target (115.1), so before *target* a pronoun stands for one too
    (*This doesn't target that opponent*, *it targets only a spell*), and so does *this card*
    (*This card targets the ability*)."""
    kept = [w for w in words if w not in ADVERBS]
    while kept and kept[-1] in RELATIVES:
        kept.pop()
    if verb.startswith("target") and not verb.endswith("ed") and kept[-1:] == ["card"]:
        # "This card targets the ability": a card that targets is its spell or ability (115.1)
        return kept[-2:-1] != [] and kept[-2] in DETERMINERS
    if kept and kept[-1] in PRONOUNS and verb.startswith("target"):
        # "the artifact creature it targets": a pronoun right after a noun opens a reduced
        # relative clause, which says which creature, not what the spell does
        return len(kept) < 2 or kept[-2] in LEADERS | VERB_BEFORE | RELATIVES
    return bool(kept) and kept[-1] in OBJECTS


def _passive_subject(after: str) -> bool:
    """The concept is the subject of a passive verb (*before blockers are chosen*, *after
    blockers have been declared*): the clause says how it happens, wherever the clause stands."""
    words = _words(_CLAUSE.split(after)[0])[:4]
    words = [w for w in words if w not in ADVERBS]
    if not words or words[0] not in BE | HAVE:
        return False
    rest = words[1:]
    if words[0] in HAVE:
        if rest[:1] != ["been"]:
            return False
        rest = rest[1:]
    return bool(rest) and _participle(rest[0]) and rest[0] not in STATES


def is_verb(text: str, start: int, end: int, names: Sequence[tuple[int, int]] = ()) -> bool:
    """Whether a word that is both a noun and a verb (counter) is the verb where it stands:
    after a card's name as the subject too (*Kadena's Silencer counters only abilities*), or
    before a spell or an ability, what the verb acts on (*a spell that counters spells*)."""
    last = _words(text[start:end])[-1:] or [""]
    if last[0].endswith("ed") or named_subject(text[:start], names):
        return True
    following = _words(_CLAUSE.split(text[end:])[0])[:2]
    if following[:1] and following[0] in ARTICLES | DETERMINERS | {"target"}:
        following = following[1:]
    if following[:1] and following[0] in OBJECTS:  # "counters spells": 701.6a's object
        return True
    before = [w for w in _words(_CLAUSE.split(text[:start])[-1]) if w not in ADVERBS][-1:]
    return bool(before) and before[0] in VERB_BEFORE


def _opens(clause: str) -> bool:
    """Only small words and names come before, in the clause (*the Zombie tokens*, *If Meglonoth
    somehow blocks*: a name is the subject, the concept its verb)."""
    raw = _WORD.findall(clause)
    return all(
        w.casefold().replace("’", "'") in LEADERS | ADVERBS or (k > 0 and w[:1].isupper())
        for k, w in enumerate(raw)
    )


def _words(text: str) -> list[str]:
    return [w.casefold().replace("’", "'") for w in _WORD.findall(text)]


def _participle(word: str) -> bool:
    return word.endswith(("ed", "en")) or word in IRREGULAR_PARTICIPLES

"""The word classes kb.links.about reads to tell what a clause is about (see its docstring).

Kept apart as data, as kb.links.thesaurus keeps the matcher's: small English words sorted by the
part they play before or after a concept (leaders of a clause, modals, forms of *be*, verbs of
change or choice, ...).
"""

from __future__ import annotations

import re

# Words that may come before a clause's subject.
LEADERS = frozenset(
    """
    if when whenever because although though once while since as unless even only so then also
    however but and or for the a an each any all every no this that these those its their your
    his her such other another multiple more both either neither same new original copied
    """.split()
)
MODALS = frozenset(
    "can cannot can't may must could couldn't should shouldn't might would wouldn't".split()
)
BE = frozenset("is are was were isn't aren't wasn't weren't be been being".split())
# A pronoun's clitic 's or 're is a form of *be* (*it's destroyed*, *they're exiled*), never a
# possessive: pronouns have possessives of their own (its, their).
BE_CLITICS = frozenset(
    "it's that's there's he's she's who's what's which's they're you're we're".split()
)
SUBJECTS_AND_TENSES = "to will won't do does did don't doesn't didn't you they player players"
VERB_BEFORE = MODALS | BE | frozenset(SUBJECTS_AND_TENSES.split())
IRREGULAR_PARTICIPLES = frozenset("dealt chosen drawn cast put shown".split())
ADVERBS = frozenset(
    "not only still also never always already even just simply normally then again somehow all "
    "both each now".split()
)
REQUIRES = frozenset("require requires required requiring".split())
COUNTS = frozenset(
    "zero one two three four five six seven either neither multiple more fewer many several".split()
)
# The quote holds the word alone (“draw,”, “attacks alone”): a quoted ability's first word
# (“Sacrifice an artifact: …”) is card text, not the concept talked about.
QUOTE_ENDS = re.compile(r"[\w’'-]*[.,;:!?]?\s*[”\"’]")
HAVE = frozenset("has have had".split())
STATES = frozenset("tapped untapped attached exiled".split())  # a state, not an action
# "as part of casting a spell": the text says what the procedure consists of.
PART_OF = re.compile(
    r"\bpart of(?:\s+[\w’']+){0,4}\s+(?:or|and)\s*$|\b(?:part|cost) of\s*$", re.IGNORECASE
)
# A verb that names an event, used as a noun: "replaces the draw" talks about the event itself.
EVENT_NOUNS = frozenset("draw discard sacrifice attack block".split())
DETERMINERS = frozenset("the that this each".split())
ANY = frozenset("any another every".split())
ARTICLES = frozenset({"a", "an"})
ACTORS = frozenset("player players opponent opponents controller owner".split())
LETS = frozenset("let lets letting allow allows".split())
PERSONS = frozenset("you them him her that player".split())
PLAYERS_DOING = frozenset("you're they're we're".split())
PLAYER_WORDS = frozenset("you they we player opponent".split())
# "doesn't have to attack", "will need to sacrifice": whether it must happen, as after a modal.
OBLIGED = frozenset("have has had need needs needed required able allowed forced".split())
# 508.1c-d, 509.1b-c: what the rules impose on an action, named as a noun (*the requirement to
# block*). Not a cost: *costs {1} less to cast*, *pay all costs to play it* are about the cost,
# and over AllPrintings's rulings "cost" made 601 of 232 of them.
CONSTRAINTS = frozenset("requirement requirements restriction restrictions".split())
# 603.2: a trigger event is worded "When/Whenever [event]"; 508.3a, 509.3, 601.2i and 121 word
# the events of attacking, blocking, casting and drawing so.
WHEN = frozenset({"when", "whenever"})
TRIGGER_EVENTS = ("attack", "block", "cast", "draw", "discard", "sacrific")
# 115.1: spells and abilities are what target (and counter, destroy, exile …): the verb after
# one says what the spell or ability does; that it resolves only tells the story.
OBJECTS = frozenset("spell spells ability abilities".split())
PRONOUNS = frozenset({"it", "this"})
RELATIVES = frozenset("that which can can't cannot doesn't don't won't will".split())
STORY = ("resolv", "cast", "activat")
# Words after a participle that show it is no adjective before a noun: a preposition, a
# conjunction, a determiner or pronoun starting the verb's object or complement.
NOT_NOUNS = frozenset(
    "by with from to of and or in on at into onto for as than this that these those it them him "
    "her you a an the its their your any each all another but nor if when while until unless so "
    "then way".split()
)
# What spells and abilities target (115.1): after "the target" it is the object targeted.
TARGETED = frozenset(
    """
    creature creatures player players permanent permanents spell spells card cards artifact
    artifacts enchantment enchantments land lands opponent opponents planeswalker planeswalkers
    battle battles
    """.split()
)
# Nouns that do the game's actions themselves: creatures attack and block.
AGENTS = frozenset("creature creatures permanent permanents player players planeswalker".split())
POSSESSIVES = frozenset("its their your his her my our".split())
LINKING = BE | frozenset("become becomes became becoming".split())
AS = frozenset("chosen considered treated counted".split())
# What ends a verb's object: a preposition, a conjunction of clauses, another verb or a pronoun
# (determiners, possessives and "and"/"or" stay inside it: *any other types or any subtypes*).
ENDS_OBJECT = (
    (NOT_NOUNS - DETERMINERS - ARTICLES - ANY - POSSESSIVES - {"all", "and", "or", "nor"})
    | MODALS
    | BE
    | HAVE
    | {"that", "which", "who", "whether", "how"}
)
# Verbs of change and of choice: their object is what the sentence says changes or is chosen
# (*removes the type*, *doesn't affect supertypes or other card types*, *replaces all creature
# types*, *overwrites its power and toughness*, *change the target*, *you choose the target when
# the ability triggers*, *may choose new targets*).
CHANGE_VERBS = frozenset(
    """
    remove removes removed removing lose loses lost losing gain gains gained gaining retain
    retains retained keep keeps kept affect affects affected change changes changed changing
    replace replaces replaced replacing overwrite overwrites overwrote overwritten overwriting
    choose chooses chose choosing
    """.split()
)
# A future passive (*will be sacrificed*) tells the story of the card.
FUTURE = frozenset("will won't".split())
# 601.2, 602.2: a time clause whose subject is a player (*once you activate the ability*, *as you
# cast it*, *after you've activated*) says when something happens in the player's action: the
# text is about that action. *When* is left out: after a trigger it is the trigger event, else
# a time that tells the story (*has 10 life when you cast it*); so is *until* (*reveal cards
# until you reveal a land* repeats an instruction). *They* may be objects (*as they resolve*).
TIME_OF = frozenset("once after before as while".split())
# 601.2, 602.2: where the player's action begins or ends (*once you begin casting a spell*,
# *until you're done casting it*, *as you finish activating*), the time clause is about that
# action too; *until* then says when its procedure ends, no repeated instruction.
PHASES = frozenset("begin begins began start starts started finish finishes finished done".split())
PLAYER_SUBJECTS = frozenset("you you've player players opponent opponents controller owner".split())
# What only a player does (121.1, 701.9a, 601.2, 602.2, 305.1, 701.23a, 701.24a, 701.21a), as
# stems: that a player doesn't do it tells the story (*you won't draw a card*, *it doesn't draw*);
# that an object's action doesn't happen is what the rules decide (*the spell won't resolve*).
PLAYER_ACTIONS = ("draw", "discard", "cast", "activat", "play", "search", "shuffl", "sacrific")
# Casting and activating as verbs (an -ing form in their verb phrase says how it is done).
MANNER_OF = frozenset("cast casts casting activate activates activated activating".split())
NOT_MANNER = frozenset(
    "and or while when whenever if as after before until unless because once".split()
)

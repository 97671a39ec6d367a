"""The rules a ruling describes in the Comprehensive Rules' own words: the table of descriptions.

Each entry is one statement of a rule turned into the wording a ruling uses when it applies that
rule, and names its rule by concept (a glossary term, a rule title, or a phrase of the rule's own
body, :data:`kb.links.thesaurus.RULE_STATEMENTS`), so that it follows renumbering:

- **illegal targets** (608.2b "it checks whether the targets are still legal"): *its targets are
  all illegal*, *is no longer a legal target*, and a *legal target* or a target that *is still
  legal* in a sentence that says the spell resolves (elsewhere it is one a player chooses, 115);
- **information an effect uses** (608.2h "the answer is determined only once", "last known
  information"): *the value of X is determined as the ability resolves*, *count the cards when
  it resolves*, *is counted during resolution*, *its last known existence on the
  battlefield*, *the last known tap or untap state*, *as it last existed*; not
  *checked as it triggers and again as it resolves*, which is the intervening "if" clause;
- **the intervening "if" clause** (603.4): a card worded "When/Whenever/At …, if …" whose ruling
  says the ability won't trigger, or that its condition is checked (again);
- **new objects** (400.7 "becomes a new object with no memory of … its previous existence"; its
  exceptions, an effect on a permanent spell that goes on to *the permanent that spell becomes*,
  on *a spell that becomes a permanent*);
- **a token ceasing to exist** (111.7 "a token that's in a zone other than the battlefield ceases
  to exist"): *cease to exist* in a sentence about a token;
- **the order of cards put in a library together** (401.4 "may arrange them in any order … doesn't
  reveal the order"): *you choose the order of the cards you put on top of your library*, *nor do
  you reveal their order on the bottom of the library*, the rule's own *may arrange them in any
  order*;
- **durations** (611.2a "if no duration is stated, it lasts until the end of the game"; 611.2c the
  set of objects affected is fixed as the effect begins): *has no duration*, *until the game
  ends*, *affects only creatures you control as it resolves*, *creatures that enter later in the
  turn won't get the bonus*;
- **static abilities** (611.3a "it applies at any given moment"): *apply only to creatures on
  the battlefield* (an ability that *applies only while it's on the battlefield* is 113.6's,
  where it works), an effect that *isn't locked in* (not a cost or a characteristic-defining
  ability said not to be: the labels say 608.2h or 604.3 there);
- **timing** (117; 307.1 and 602.5d, "Activate only as a sorcery"): *you must follow all
  applicable timing rules*, *any time you could cast an instant*, *only as a sorcery*;
- **choices made while casting or activating** (601.2b-d, 602.2b: modes, targets, division are
  announced as the spell is cast): *you divide the damage as you cast it*, *chosen on
  announcement*, *you choose the target as you activate the ability* (601.2c), and on a spell's
  card (its dividing line no activated or triggered ability) *you can't change the division of
  damage*; a spell cast only with its targets (601.2c: *you must be able to target a creature to
  cast it*, *you can't cast it unless you choose both*);
- **the order of effects a player chooses** (616.1): *chooses the order of those copy effects*;
- **APNAP order** (101.4: the active player chooses or acts, then each other player in turn
  order): *each other player chooses in turn order*, *then each other player in turn order does
  the same* (not *the next player in turn order*, who takes a turn or a designation);
- **exiled face up** (406.3 "exiled cards are, by default, kept face up"): *you exile the cards
  face up*;
- **casting during resolution** (608.2g "an effect specifically instructs or allows a player to
  cast a spell during resolution"): *you must cast it while Chaos Wand's ability is resolving*,
  *you play cards from the chosen pile as part of the resolution of Brilliant Ultimatum*;
- **a spell targeting itself** (115.5 "an illegal target for itself"): *target itself*;
- **costs** (118.7 cost reductions; paying a cost by an action): *costs {1} less to cast*,
  *costs less*, *you can activate the ability by sacrificing a permanent*; and cost reductions
  as the total cost is determined (601.2f: *the cost reduction can apply to alternative costs*,
  *can lower the cost to zero*), not where the ruling is about mana value;
- **who "you" is** (109.5), **each target of a division gets at least one** (601.2d), **mana
  restrictions** (106.6: *restrictions or riders a land puts on the mana*), **where an ability
  functions** (113.6: *functions only on the battlefield*), **colorless is not a color** (105),
  the untap and draw steps' turn-based actions (502.3: *untaps at the same time as the active
  player's permanents*; 504.1: *drawn your card for the turn*);
- **an ability independent of its source** (113.7a): *that ability resolves … even if Mage Slayer
  has left the battlefield*;
- **setting a land's type** (305.7 "sets a land's subtype to one or more of the basic land types
  … it loses … its old land types … it gains the new land types"): *replaces all of its land
  types with Swamp*, *will gain the land type Mountain*, *will remove the old land types*; not
  *search for a card with the land type Plains*;
- **the legend rule** (704.5j: *two legendary permanents*, *more than one legendary permanent*
  *with the same name*) and **+1/+1 and -1/-1 counters** (704.5q, and 122.3 which it
  restates) as the rules word them;
- **summoning sickness** (302.6 "under its controller's control continuously since their most
  recent turn began"), **card types** (205.2a: *the type creature*, *the type “artifact”*),
  **instructions in the order written** (608.2c: *you perform the actions in sequence*);
- **not finding a searched card** (701.23b "isn't required to find some or all of those cards"):
  *doesn't need to find a basic land card*;
- **an instant or sorcery put into the graveyard as it resolves** (608.2n "as the final part of
  an instant or sorcery spell's resolution, the spell is put into its owner's graveyard"):
  *it will be put into its owner's graveyard as it resolves*, *the last thing that happens to a
  resolving instant or sorcery spell is that it's put into its owner's graveyard*, *it will go
  to your graveyard after it resolves*;
- **switching power and toughness** (613.4d "effects that switch a creature's power and
  toughness"): *switching a creature's power and toughness twice*; the sublayers before it,
  setting (613.4b: *override any effects that set its power and/or toughness*) and modifying
  (613.4c: *effects that modify a creature's power and/or toughness ... will apply no matter when
  they started to take effect*);
- **a drawn game** (104.4a "the game is a draw"): *the game ends in a draw*, which the word
  *draw* alone does not link (a tie is no card drawn, 121);
- **putting a triggered ability on the stack** (603.3d "the remainder of the process for putting
  a triggered ability on the stack is identical to ... 601.2c-d"): *you divide the damage as you
  put the triggered ability on the stack*, *as you put the delayed triggered ability on the
  stack ..., you choose the target creature*, *you choose the target creature when the ability
  goes on the stack* (the rule's own "when the triggered ability goes on the stack");
- **a creature put onto the battlefield attacking** (508.4 "If a creature is put onto the
  battlefield attacking, its controller chooses ..."): *is put onto the battlefield attacking*,
  *the tokens enter the battlefield tapped and attacking*;
- **a blocked creature stays blocked** (509.1h "This remains unchanged until the creature is
  removed from combat"): *any attacking creature it was blocking remains blocked*;
- **drawing from an empty library** (121.4 "A player who attempts to draw a card from a library
  with no cards in it loses the game"): *draw more cards than are left in their library*, *draw
  a card from an empty library*;
- **the land play** (305.2 "A player can normally play one land during their turn"; 305.3 not
  on another player's turn): *only if you haven't played a land yet that turn*, *you can play it
  only if it's your turn*, *other effects that let you play additional lands*, where the sentence
  speaks of a land; and playing lands at all (305): *doesn't allow you to play lands*;
- **tapping a permanent for mana** (106.12, its quoted phrase with the permanent named in
  between): *can tap their lands for mana*;
- **naming a card** (201.4 "instructs a player to choose a card name"): *you can name any
  card*, *you can choose any card name*;
- **kicking a spell** (702.33: *without kicking it*, *you can't kick those spells*; lower case,
  "Swift Kick" being a card);
- **an Equipment becoming unattached** (704.5n), and a search that **finds fewer** (701.23b);
- **an attacking creature's defending player** (508.5: *the controller of the planeswalker is
  the defending player*, *the "defending player" of an attacking creature*);
- **the colors of mana** (106.1a: *the colors of mana are white, blue …*) and **what a land
  could produce** (106.7: *what colors of mana your opponents' lands could produce*);
- **a characteristic-defining ability** (604.3) as rulings describe it: *the ability that defines
  its power and toughness works in all zones*;
- **nothing between a resolving spell's steps** (608: *nothing can happen between the two*, *no
  player may take actions between the two steps*);
- **turning a permanent face up or face down** (708), the permanent named in between;
- **changing targets** (115.7 "allow a player to change the target(s) of a spell or ability"):
  *being changed to target this card*, *choose new targets*;
- **the end of casting a spell** (601.2i "then the spell becomes cast"): *once you've completed
  casting a spell*, *until after you're done casting them*;
- **a player leaving the game** (800.4a "owned by that player leave the game"): *if you leave
  the game while controlling permanents owned by other players*, *if the monarch leaves the game*;
- **a sorcery's timing** (307.1 "may cast a sorcery card from their hand during a main phase"):
  *only when you could normally cast a sorcery*;
- **the results of damage** (120.3 "Damage may have one or more of the following results"):
  *it changes the results of that damage*;
- **staying in combat** (506.4, a creature stays an attacking or blocking creature until removed
  from combat; 506.4c "It continues to be an attacking creature"): *it will continue to attack*;
- **controlling a player** (722.1 "allow a player to control another player"): *you could gain
  control of yourself*, *you only control the player*;
- **who activates an Aura's abilities** (303.4e "An Aura's controller is separate from the
  enchanted object's controller ... Only the Aura's controller can activate its abilities"):
  *activated by Firebreathing's controller, not the enchanted creature's controller*;
- **where an ability works** (113.6: *works only while it's on the battlefield*), **who "you"
  is** with the quote's comma inside (109.5: *affects “you,” it affects*), **out of combat**
  (506.4: *it won't be in combat*), **the source of an ability** (113.7: *the equipped creature
  is the source of the activated ability*), **an object with no color** (105.2c: *each land in
  this cycle is colorless*, *normally has no color*; not mana, nor a colorless spell picked out),
  **an effect constantly updated** (611.3a, a static ability's; 611.2c, a resolving spell's that
  changes no characteristics), **putting a land onto the battlefield** (305.4: *not the same
  as playing a land*), **the land types** (205.3i: *with the subtype Swamp*, *Gate is not a
  basic land type*; setting them stays 305.7's), **casting a spell at once** (608.2g: *lets
  you cast the spell immediately, ignoring timing restrictions*), **a coin flip** (705), **a
  card that stays revealed** (701.20a: *remains revealed until the ability leaves the stack*),
  and **marked damage** removed as the turn ends (514.2: *damage remains marked on a creature
  until it's removed as the turn ends*) or lethal once toughness falls (704.5g: *nonlethal damage
  dealt to it may become lethal*), **negative values** (107.1b: *if this creature's power is
  negative*, *a negative life total*), **a graveyard's order** (404.2: *may not rearrange the
  cards in their graveyards*) and **the permanent types** (110.4);
- **the land play** counted (305.2: *unless you have land plays available*, *only one land per
  turn*), **the types of mana** (106.1b), **this card not yet in the graveyard** as it resolves
  (608.2n: *won't be put into your graveyard until after it's finished resolving*, *on the stack
  and not in the graveyard*), **what does not remove a creature from combat**, the creature
  named in between (506.4b: *doesn't remove those creatures from combat*), **requirements**
  (508.1d, 509.1c: *attacks or blocks if able*), **cards put into a graveyard together** (404.3:
  *you decide the order they're put into your graveyard*), **a payment chosen on resolution**
  (118.12: *You choose whether to pay or not on resolution*), and a choice *decided* or a card
  *named* on resolution (608.2h), *whether to pay or not on resolution* being no "not on
  resolution"; **{X} off the stack** (202.3e: *X is considered to be 0*, with a mana cost),
  **mana spent as though it were another** (609.4b), **a control-change effect's duration**
  (611.2: *its control-change effect ends*) and **the categories of abilities** (113.3: *a
  triggered ability, not an activated ability*); *last existence* (608.2h); **phases added to
  a turn** (500.8: *an additional combat and main phase*) and **who chooses the blockers**
  (509.1a: *the defending player, not you, chooses which creature blocks*); **the top of the
  stack resolving first** (405.5: *resolves before the spell that caused it to trigger*),
  **targets before costs** (601.2c), **unpreventable damage** (615.12), **doubling a life total**
  (701.10d), **which player a creature attacks** (508.1b: *you still decide which player or
  planeswalker the equipped creature attacks*), **look-back triggers** (603.10a: *dies at the
  same time as*), **state-based actions before triggers** (704.3: *you lose the game before its
  ability goes on the stack*), **which of several prevention effects applies** (616.1), effects
  that set power and toughness however the creature is named (613.4b), and a *decision* or
  *choice* made on resolution (608.2h); **linked abilities** (607: *its first and third
  abilities are linked*), **an Aura put onto the battlefield** targeting nothing (303.4f),
  **text naming the object it's on** (201.5), **poisoned** (122.1f), a new object *with no
  connection to* the old (400.7), players acting in turn order *starting with the active
  player* (101.4), **a card name no text-changing effect changes** (612.2: *proper nouns*) and
  **effects on the game's rules** (613.11: *multiple effects modify your hand size*).

Measured on the dev split of ``tests/data/links/labelled_unseen.json``, the 88 rulings each of
``labelled_dev2.json`` to ``labelled_dev8.json`` and the 105 rulings of
``labelled_clarifications.json`` (``benchmarks/term_links.py``), and checked on what each adds to
every ruling of AllPrintings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_A = r"[’']"  # an apostrophe, typographic or not
_NOT = rf"(?:won{_A}t|doesn{_A}t|don{_A}t|didn{_A}t|isn{_A}t|aren{_A}t|will not|does not|do not)"


@dataclass(frozen=True)
class Description:
    """A rule's concept, the wording a sentence applying it shows, and what must come with it."""

    concept: str  # a key of Vocabulary.concepts (casefolded glossary term, title, statement)
    shown: re.Pattern[str]
    also: re.Pattern[str] | None = None  # the same sentence must show this too
    card: re.Pattern[str] | None = None  # a text of the ruling's cards must show this
    unless: re.Pattern[str] | None = None  # the sentence must not show this


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# An ability going on the stack, as rulings say it (603.3d "when the triggered ability goes on
# the stack"): *as the ability goes on the stack*, *when Ashling's ability is put on the stack*.
_GOES_ON = (
    r"\b(?:as|when|while) (?:the |that |this |its |each )?(?:[\w’']+ ){0,3}?"
    r"(?:abilit(?:y|ies)|it|they) (?:goes|go|is put|are put|is placed|are placed) on(?:to)? "
    r"the stack\b"
)

# The intervening "if" clause as cards word it (603.4): "When/Whenever/At [event], if [condition],".
_INTERVENING_IF = re.compile(r"\b(?:When|Whenever|At)\b[^.]*?,\s+if\b")

DESCRIPTIONS: tuple[Description, ...] = (
    Description(
        "illegal target",
        _re(r"\billegal\b|\bno longer (?:a )?legal\b"),
        also=_re(r"\btargets?\b"),
    ),
    # a legal target as the spell resolves: 608.2b's check (as it is chosen, 115), said of the
    # target too (*if at least one target is still legal*, *only targets that are still legal as
    # Fireball resolves*, "it checks whether the targets are still legal")
    Description(
        "illegal target",
        _re(
            r"\blegal targets?\b|\btargets?\b[^.]{0,50}?\b(?:still|remains?|are|is|isn[’']t"
            r"|aren[’']t|is not|are not) legal\b"
        ),
        also=_re(r"\bresolv|\bcountered\b"),
    ),
    Description(
        "an effect requires information from the game",
        _re(
            r"\blast known(?: (?:information|existence))?\b|\blast existence\b"
            r"|\bas it (?:last|most recently) existed\b"
        ),
    ),
    Description(
        "an effect requires information from the game",
        _re(
            r"\b(?:as|when|until|while|at the time)\s+[^.]{0,50}?\b(?:resolves|is resolving"
            r"|begins resolving"
            r"|resolve)\b|\b(?:during|on|upon) (?:the |its )?resolution\b"
        ),
        also=_re(
            r"\b(?:checks?|checked|counts?|counted|determines?|determined|choose|chooses|chose|"
            r"chosen|decides?|decided|decision|choice|names?|named|use|uses|the number of"
            r"|how many|locked in)\b"
        ),
        # checked as it triggers and again as it resolves: 603.4; chosen on announcement and
        # not on resolution: 601.2 (*whether to pay or not on resolution* is no such "not")
        unless=_re(r"\bagain\b|(?<!\bor )\bnot (?:during|on|upon) (?:the |its )?resolution\b"),
    ),
    Description(
        "intervening “if” clause",
        _re(rf"\b{_NOT}\s+(?:\w+\s+)?trigger\b|\bchecks?\b|\bchecked\b"),
        card=_INTERVENING_IF,
        # what state-based actions check is theirs (704.3), not the trigger's condition
        unless=_re(r"\bstate-based actions? (?:are|is) (?:next )?checked\b"),
    ),
    Description(
        "moves from one zone to another becomes a new object",
        _re(r"\ba new object\b|\bno memory of\b|\bwith no (?:connection|relation) to\b"),
    ),
    # 400.7a-c, the exceptions: an effect on a permanent spell goes on to the permanent it
    # becomes (*it will also affect the permanent that spell becomes*; not *the permanent it
    # becomes attached to*), said from the spell's side too (*targeting a spell that becomes a
    # permanent*, *the text of a spell which is to become a permanent*).
    Description(
        "moves from one zone to another becomes a new object",
        _re(
            r"\bpermanent (?:that spell|the spell|it) becomes\b(?!\s+(?:attached|tapped)\b)"
            r"|\bspells? (?:that|which) (?:becomes?|will become|is to become|are to become"
            r"|would become) (?:a )?permanents?\b"
        ),
    ),
    # 111.7: a token that leaves the battlefield ceases to exist (*the Elemental tokens will die
    # and subsequently cease to exist*; not *the delayed triggered ability will cease to exist*).
    Description(
        "in a zone other than the battlefield ceases to exist",
        _re(r"\bceas(?:e|es|ed|ing) to exist\b"),
        also=_re(r"\btokens?\b"),
    ),
    # 401.4: cards put on top or bottom of a library together are ordered by their owner, who
    # doesn't reveal that order (*you choose the order of the cards you put on top of your
    # library*, *nor do you reveal their order on the bottom of the library*; not *in any order*
    # alone, the card's own instruction).
    Description(
        "may arrange them in any order",
        _re(
            r"\b(?:the|their|relative|that|this) order\b"
            r"|\barrange\w* (?:them|those cards|the cards) in any order\b"
        ),
        also=_re(
            r"\b(?:top|bottom) of (?:their|your|its owner[’']s|that player[’']s|a|the) library\b"
        ),
    ),
    Description(
        "generated by the resolution of a spell or ability",
        _re(
            r"\bno duration\b|\buntil the game ends\b|\blasts? indefinitely\b"
            r"|\baffects? only\b[^.]*\b(?:as|when|at the time)\b[^.]*\bresolv"
            rf"|\blater\b[^.]*\b{_NOT}\s+(?:get|gain|lose|have|be affected)\b"
            # *Only creatures you control when Stir the Pride resolves will get the bonuses*
            r"|\bonly\b[^.]{0,80}?\b(?:as|when)\b[^.]{0,60}?\bresolves\b[^.]{0,30}?\bwill "
            r"(?:get|receive|gain|have|be affected)\b"
        ),
    ),
    Description(
        "may be generated by the static ability of an object",
        _re(
            r"\bappl(?:y|ies) only to\b[^.]{0,40}?\bon the battlefield\b|\bat any given moment\b"
            r"|\bappl(?:y|ies) at all times\b"
        ),
    ),
    # an effect that isn't locked in (*The effect isn't locked in; it applies to whatever
    # creatures you control*); not a cost or a characteristic-defining ability said not to be
    Description(
        "may be generated by the static ability of an object",
        _re(rf"\b(?:{_NOT}|not|never)\s+[“\"]?locked in\b"),
        also=_re(r"\beffects?\b"),
    ),
    # 202.3e: {X} in a mana cost is 0 off the stack (*If a card in a player's library has {X} in
    # its mana cost, X is considered to be 0*); not an X a resolving ability counts, nor one of a
    # spell cast without paying its mana cost.
    Description(
        "x is treated as 0 while the object is not on the stack",
        _re(r"\bX\b[^.]{0,20}?\b(?:is|are) (?:considered (?:to be )?|treated as )?0\b"),
        also=_re(
            r"\bX\}?\s+in (?:its|their|the|that card[’']s) mana costs?\b"
            r"|\bmana costs? (?:of [^.]{1,30}?)?(?:includes?|has|contains?) \{?X\b"
        ),
    ),
    # 609.4b: spending mana "as though it were mana of any color" changes no cost and no mana
    # spent (*If an effect allows you to spend mana “as though it were mana” of any color*).
    Description(
        "as though it were mana of any",
        _re(r"\bas though (?:it|they|the mana) (?:were|was) mana\b"),
    ),
    # 611.2: a control-change effect's duration (*its control-change effect ends*, *continues to
    # apply even if Captivating Glance leaves the battlefield*); not what a player leaving the
    # game ends (800.4a).
    Description(
        "generated by the resolution of a spell or ability",
        _re(
            r"\bcontrol-chang(?:e|ing) effects? (?:ends|will end|won[’']t end|doesn[’']t end"
            r"|continues to apply|lasts|will last)\b"
        ),
        unless=_re(r"\bleaves? the game\b"),
    ),
    # 113.3: the categories of abilities, one told from another (*This is a triggered ability,
    # not an activated ability*).
    Description(
        "there are four general categories of abilities",
        _re(
            r"\b(?:triggered|activated|static) abilit(?:y|ies),? (?:and )?not (?:a |an )?"
            r"(?:triggered|activated|static|mana) abilit"
        ),
    ),
    # 500.8: an effect adding phases to a turn (*It only creates an additional combat and main
    # phase if it resolves during a main phase*, *in any additional combat phases*).
    Description(
        "some effects can add phases to a turn",
        _re(
            r"\b(?:additional|extra) (?:combat|main|beginning|ending)(?: and (?:combat|main))? "
            r"phases?\b"
        ),
    ),
    # 509.1a: the defending player chooses the blockers (*The defending player, not you, chooses
    # which creature blocks Canopy Stalker*).
    Description(
        "the defending player chooses which creatures they control, if any, will block",
        _re(r"\bchooses? (?:which|what) creatures? (?:will )?blocks?\b"),
    ),
    # 405.5: the top of the stack resolves first (Wizards' *resolves before the spell that caused
    # it to trigger*, *will resolve before that spell or ability*); not which of two triggered
    # abilities resolves first.
    Description(
        "the top (last-added) spell or ability on the stack resolves",
        _re(
            r"\bresolves? before (?:the|that) (?:creature )?(?:spell|ability|abilities)\b"
            r"|\bresolves? before the spell (?:itself|does)\b"
        ),
    ),
    # 601.2c before 601.2h: targets are chosen before costs are paid (*Because targets are chosen
    # before costs are paid, you can activate its ability targeting itself*).
    Description(
        "announces their choice of an appropriate object or player for each target",
        _re(r"\btargets? (?:are|is) chosen before (?:any |the )?costs?\b"),
    ),
    # 615.12: unpreventable damage (*damage that can't be prevented*, *to be unpreventable*).
    Description(
        "some effects state that damage “can't be prevented.”",
        _re(r"\bunpreventable\b|\bcan[’']t be prevented\b|\bcannot be prevented\b"),
    ),
    # 701.10d: doubling a life total (*If you double a negative life total*).
    Description(
        "to double a player's life total",
        _re(
            r"\bdoubl\w* (?:a |their |your |that player[’']s |a player[’']s |the )?"
            r"(?:negative )?life total\b"
        ),
    ),
    # 508.1b: which player or planeswalker a creature attacks is chosen (*You still decide which
    # player or planeswalker the equipped creature attacks*; goad's *you choose which opponent
    # it attacks*).
    Description(
        "announces which player, planeswalker, or battle each of the chosen creatures is",
        _re(
            r"\b(?:decides?|chooses?|choose|decide) which (?:player|opponent)[^.]{0,40}?"
            r"\battacks\b"
        ),
    ),
    # 603.10a: a leaves-the-battlefield ability looks back (*If Omnath dies at the same time as
    # any other Elementals you control, Omnath's last ability will trigger for each*).
    Description(
        "some zone-change triggers look back in time",
        _re(r"\b(?:dies|die|leaves? the battlefield) at the same time as\b"),
    ),
    # 704.3: state-based actions are performed before triggered abilities go on the stack (*you
    # lose the game before Massacre Wurm's last ability goes on the stack*).
    Description(
        "the game checks for any of the listed conditions for state-based actions",
        _re(r"\blose the game before\b[^.]*\b(?:goes|go|is put|are put) on the stack\b"),
    ),
    # 607: abilities said to be linked (*Helvault's first and third abilities are linked*).
    Description("linked abilities", _re(r"\babilities are linked\b|\bability is linked\b")),
    # 303.4f: an Aura put onto the battlefield without being cast targets nothing (*An Aura put
    # onto the battlefield this way doesn't target anything*).
    Description(
        "by any means other than by resolving as an aura spell",
        _re(
            r"\bAuras?\b[^.]*\bput onto the battlefield\b[^.]*\b(?:doesn[’']t|does not|won[’']t"
            r"|isn[’']t) target"
        ),
    ),
    # 201.5: text naming the object it's on (*references the card it's printed on by name*).
    Description(
        "text that refers to the object it's on by name",
        _re(
            r"\b(?:refers?|references?|referring|referenced) (?:to )?(?:itself|the card it[’']s "
            r"printed on|the object it[’']s on|[\w’']+ [\w’']+ source) by name\b"
        ),
    ),
    # 122.1f: what "poisoned" means (*A player is poisoned if that player has one or more poison
    # counters*).
    Description("a player is “poisoned” if", _re(r"\bpoisoned\b")),
    # 612.2: a text-changing effect changes no card name (*You can't change proper nouns (i.e.
    # card names)*).
    Description(
        "a text-changing effect changes only those words that are used in the correct way",
        _re(r"\bproper nouns?\b"),
    ),
    # 613.11: effects on the game's rules, a maximum hand size among them (*If multiple effects
    # modify your hand size, apply them in timestamp order*).
    Description(
        "some continuous effects affect game rules rather than objects",
        _re(
            r"\bmodif(?:y|ies|ied) (?:your|a player[’']s|the|each player[’']s|their) "
            r"(?:maximum )?hand size\b"
        ),
    ),
    # 404.3: cards put into one graveyard at the same time are ordered by their owner (*you decide
    # the order they're put into your graveyard*, the rule's own *may arrange them in any
    # order*); not its rearranging, which 404.2 forbids.
    Description(
        "puts two or more cards into the same graveyard at the same time",
        _re(
            r"\b(?:decides?|chooses?|choose|picks?) the order (?:(?:they|those cards|the cards)"
            r"(?:[’']re| are| will be)? (?:put|placed) into"
            r"|(?:the|those|these) (?:\d+ |two |both )?cards (?:go|are put))\b"
            r"|\barrange\w* (?:them|those cards|the cards) in any order\b"
        ),
        also=_re(r"\bgraveyards?\b"),
    ),
    # 118.12: a payment a player may make as a spell or ability resolves, "If [that player]
    # does(n't) ...", is a cost paid then (*You choose whether to pay or not on resolution. If
    # not, then you sacrifice Child of Gaea*; *You decide whether to pay when the ability
    # resolves*); not what the player does not choose yet.
    Description(
        "is a cost, paid when the spell or ability resolves",
        _re(r"\b(?:choose|chooses|decide|decides) whether (?:or not )?to pay\b"),
        also=_re(r"\bresol(?:ve|ves|ving|ution)\b"),
        unless=_re(rf"\b{_NOT}\s+(?:choose|decide)\b"),
    ),
    # 303.4e: an Aura's controller, not the enchanted object's, activates its abilities (*can be
    # activated by Firebreathing's controller, not the enchanted creature's controller*, *Only
    # Crab Umbra's controller (who is not necessarily the enchanted creature's controller) can
    # activate*); the enchanted land's controller tapping it for mana is not that.
    Description(
        "an aura's controller is separate from the enchanted object's controller",
        _re(r"\bnot(?: necessarily)? the enchanted \w+[’']s controller\b"),
        also=_re(r"\bactivat"),
    ),
    # 508.4: a creature put onto the battlefield attacking, never declared as an attacker (*If a
    # creature is put onto the battlefield attacking*, *the tokens enter tapped and attacking*).
    Description(
        "its controller chooses which defending player",
        _re(
            r"\b(?:onto the battlefield|enters?(?: the battlefield)?|entered|entering) "
            r"(?:tapped and )?attacking\b"
        ),
    ),
    # 509.1h: a blocked creature stays blocked until it leaves combat, whatever happens to its
    # blockers ("This remains unchanged until the creature is removed from combat"): *any
    # attacking creature it was blocking remains blocked*, *it stays blocked*.
    Description(
        "becomes a blocked creature",
        _re(r"\b(?:remains?|remained|stays?|stayed|continues? to be|is still|are still) blocked\b"),
    ),
    # 121.4: a player who draws from a library with no cards in it loses the game (*draw more
    # cards than are left in their library*, *you attempt to draw a card from an empty library*).
    Description(
        "attempts to draw a card from a library with no cards in it",
        _re(
            r"\bdraw\w*\b[^.]{0,30}?\bmore cards than (?:are |there are )?(?:left )?in (?:their|"
            r"your|his or her|that player[’']s|the|its owner[’']s) library\b"
            r"|\b(?:draw|draws|drawing|drew|drawn)\b[^.]{0,25}?\bfrom (?:an|their|your) empty "
            r"library\b"
        ),
    ),
    # 305.2 and 305.3: a player plays one land during their turn, and none on another's, however
    # the land is played (*only if you haven't played a land yet that turn*, *unless an effect
    # allows you to play additional lands that turn*, *you can play it only if it's your turn*);
    # in the sentence that speaks of a land.
    Description(
        "can normally play one land during their turn",
        _re(
            r"\b(?:played|play|plays|playing) (?:a|one|an additional|additional|more|two|your) "
            r"lands? (?:this|that|each|per|in a|during (?:a|your|their|the|that|this)) turn\b"
            r"|\bland drops?\b|\b(?:haven[’']t|hasn[’']t|have not|has not|already) (?:yet )?"
            r"played a land\b|\bplay\w* (?:an )?additional lands?\b"
            # *unless you have land plays available*, *your one land you can normally play each
            # turn*, *only one land per turn*
            r"|\bland plays?\b|\bone land\b[^.]{0,30}?\b(?:per|each) turn\b|\bone per turn limit\b"
        ),
        also=_re(r"\blands?\b"),
    ),
    # 305.1: playing lands, which casting is not (*an effect that instructs you to "cast" a card
    # doesn't allow you to play lands*); "play a land" is the glossary's own (ALIASES).
    Description("lands", _re(r"\bplay\w* lands\b")),
    Description(
        "can't play a land, for any reason, if it isn't their turn",
        _re(
            r"\bplay\w*\b[^.]{0,40}?\bonly (?:if it[’']s|during|on) (?:your|their) (?:own )?turn\b"
        ),
        also=_re(r"\blands?\b"),
    ),
    # 120.3: the results of damage (life loss, marked damage, counters, lifelink's life), which an
    # effect may change without preventing the damage (*it changes the results of that damage*,
    # *deathtouch or lifelink may affect the results of the damage dealt*).
    Description(
        "damage may have one or more of the following results",
        _re(r"\bresults? of (?:the|that|this|its|such) damage\b"),
    ),
    # 506.4: a creature stays in combat until it is removed from it (506.4a, a declared attacker
    # or blocker is not removed by what would have kept it from attacking or blocking; 506.4c,
    # one attacking a planeswalker that left "continues to be an attacking creature"): *it
    # will continue to attack*, *Drakuseth continues to attack*, *it continues to block*.
    Description(
        "removed from combat",
        _re(
            r"\bcontinues? to (?:attack|block|be (?:an? )?(?:attacking|blocking)(?: creatures?)?)\b"
        ),
    ),
    # and one that returns is a new object out of it (*It won't be in combat or have any
    # additional abilities*, *it will no longer be in combat*).
    Description(
        "removed from combat",
        _re(r"\b(?:won[’']t|will not|no longer|wouldn[’']t) (?:be )?in combat\b"),
    ),
    # what does not remove a creature from combat, the creature named in between (506.4b:
    # *This doesn't remove those creatures from combat*, *won't remove the blocking creature from
    # combat*); the glossary's own words, without it, are matched as a term.
    Description(
        "removed from combat",
        _re(
            r"\bremov(?:e|es|ed|ing) (?:the |that |this |those |these )?(?:[\w’'-]+ ){1,2}"
            r"from combat\b"
        ),
    ),
    # 508.1d, 509.1c: a requirement, an effect that says a creature attacks or blocks if able
    # (*attacks or blocks if able*, *must be blocked if able*, *must attack the chosen player if
    # able*); not *you must sacrifice a creature if able*.
    Description(
        "effects that say a creature attacks if able",
        _re(r"\battack(?:s|ed)?\b[^.]{0,40}?\bif able\b"),
    ),
    Description(
        "effects that say a creature must block",
        _re(r"\bblock(?:s|ed)?\b[^.]{0,40}?\bif able\b"),
    ),
    # 722: controlling a player, as the glossary's Control Another Player and 722.1 ("allow a
    # player to control another player") say it of any player (*You could gain control of
    # yourself using Mindslaver*, *You only control the player*, *Controlling a player doesn't
    # allow you to look at that player's sideboard*); not the control of a player's object (*under
    # the control of another player*, *control of another player's creature*).
    Description(
        "control another player",
        _re(
            r"\b(?:gain|gains|gaining|gained|take|takes|taking|took) control of (?:yourself|"
            r"a player|that player|target player|another player|an opponent|each player)\b(?![’']s)"
            r"|\b(?:control|controls|controlling) (?:the|a|that|target|another) player\b"
            r"(?![’']s)(?! (?:who|that|whose))"
        ),
    ),
    # 109.5: who "you" is (*The “you” in that ability refers to its controller*).
    Description("on an object refer to the object's controller", _re(r"[“\"‘]you[,.]?[”\"’]")),
    # 601.2d: what a division among targets must give each (*Each target must be assigned at
    # least 1 damage*, *Each target creature must be assigned at least one counter*, *Each
    # target you choose must be assigned at least 1 damage*).
    Description(
        "each of these targets must receive at least one of whatever is being divided",
        _re(
            r"\b(?:each|every) target\b[^.]{0,30}?\bmust (?:be (?:dealt|assigned)|receive|get) "
            r"at least (?:1|one)\b"
        ),
    ),
    # 106.6: restrictions on how mana may be spent, which don't change its type (*doesn't care
    # about any restrictions or riders a land puts on the mana it produces*).
    Description(
        "abilities that produce mana restrict how that mana can be spent",
        _re(r"\brestrictions?\b[^.]{0,120}?\bon (?:the|that|this|its) mana\b"),
    ),
    # The turn-based actions of the untap and draw steps (502.3, 504.1), in the words rulings
    # use for them: *untaps at the same time as the active player's permanents*, *drawn your
    # card for the turn*.
    Description(
        "untap step",
        _re(r"\buntaps? (?:at the same time as|along with) the active player[’']s permanents\b"),
    ),
    Description(
        "draw step",
        _re(r"\b(?:draw|draws|drawn|drew)\b[^.]{0,20}?\bcards? for the turn\b"),
    ),
    # 105.2c, the glossary's Colorless: "Colorless is not a color."
    Description(
        "colors",
        _re(r"\bcolorless[”\"]? (?:is(?:n[’']t| not) a color|(?:aren[’']t|are not) colors)\b"),
    ),
    # 113.6: where an ability functions (*functions only on the battlefield*, *works only while
    # it's on the battlefield*, *Shroud only works while it is on the battlefield*). A
    # characteristic-defining ability that *works in all zones* is 604.3's (the labels say so
    # four times to one).
    Description(
        "usually function only while that object is on the battlefield",
        _re(
            r"\b(?:functions?|works?|appl(?:y|ies)) only (?:on|while|when|if|as long as)\b"
            r"[^.]{0,40}?\bbattlefield\b|\bonly (?:functions?|works?) (?:on|while|when|if)\b"
            r"[^.]{0,40}?\bbattlefield\b"
        ),
    ),
    # 106.12: tapping a permanent for mana, the permanent named between the verb and "for mana"
    # (*can tap their lands for mana in response*; the quoted phrase of the rule matches the
    # words with no noun between, *tapped for mana*, *tap it for mana*).
    Description(
        "is to activate a mana ability of that permanent",
        _re(r"\btap(?:s|ped|ping)? (?:[\w’'-]+ ){1,4}?for mana\b"),
    ),
    # 201.4: choosing a card name, which older cards and rulings call naming a card (*You can
    # name any card*, *you can choose any card name*, *each player names a card*).
    Description(
        "instructs a player to choose a card name",
        _re(
            r"\b(?:choos\w*|chose|name[sd]?|naming) (?:any|a|the|one|another) card name\b"
            r"|\bnam(?:e|es|ed|ing) (?:any|a|another) (?:\w+ )?card\b"
        ),
    ),
    # 702.33: kicking a spell, the verb rulings make of Kicker (*you can cast it without kicking
    # it*, *you can't kick those spells unless*), which the glossary names only as "Kicked";
    # in lower case only: "Swift Kick" is a card.
    Description("kicker", re.compile(r"\b(?:kick|kicks|kicking)\b")),
    # 508.5: which player an attacking creature's "defending player" is (*If a creature is
    # attacking a planeswalker, the controller of the planeswalker is the defending player*,
    # *the "defending player" of an attacking creature*); the words alone are 506.2's.
    Description(
        "the defending player it's referring to is the player that creature is attacking",
        _re(
            r"\bdefending player[”\"]? of (?:an|the|that|each) attack\w* creature\b"
            r"|\bcontroller of the planeswalker is the defending player\b"
        ),
    ),
    # 704.5n: an Equipment or Fortification attached illegally becomes unattached (*If an
    # Equipment attached to a creature becomes a creature, it becomes unattached*).
    Description(
        "it becomes unattached from that permanent or player",
        _re(r"\bbecomes? unattached\b"),
        also=_re(r"\b(?:Equipment|Fortification|Aura)s?\b"),
    ),
    # 106.1a, 106.7: the colors of mana, and what a permanent "could produce" (*The colors of
    # mana are white, blue, black, red, and green*, *what colors of mana your opponents' lands
    # could produce*).
    Description("there are five colors of mana", _re(r"\bcolors? of mana are\b")),
    # 106.1b: the types of mana, colorless one of them (*The types of mana are white, blue, black,
    # red, green, and colorless*, *The “type” of mana is its color, or lack thereof*).
    Description("there are six types of mana", _re(r"\btypes?[”\"]? of mana (?:are|is)\b")),
    Description("could produce at any time includes", _re(r"\bcould produce\b")),
    # 604.3: a characteristic-defining ability, as rulings describe it (*The ability that
    # defines Rubblehulk's power and toughness works in all zones*).
    Description(
        "characteristic-defining ability",
        _re(
            r"\babilit(?:y|ies) that defines?\b[^.]{0,40}?\b(?:power|toughness|colou?rs?)\b"
            r"|\b(?:works?|applies|functions?) in all zones\b"
        ),
    ),
    # 608.2: a resolving spell's or ability's steps, with nothing in between (*Nothing can happen
    # between the two*, *No player may take actions between the two steps*).
    Description(
        "resolving spells and abilities",
        _re(
            r"\bnothing can happen between\b|\bno (?:player|one) (?:may|can) take (?:any )?"
            r"actions? (?:in )?between\b|\bcan[’']t take (?:any )?actions? (?:in )?between\b"
        ),
    ),
    # 708: turning a permanent face up or face down, the permanent named in between (*Turning a
    # permanent face up or face down doesn't change whether that permanent is tapped*).
    Description(
        "face-down spells and permanents",
        _re(r"\bturn\w* (?:[\w’'-]+ ){1,3}?face[- ](?:up|down)\b"),
    ),
    # 115.7: changing the targets of a spell or ability, or choosing new ones (*triggers on a
    # spell or ability being changed to target this card*, *you may choose new targets for the
    # copy*), which "target" alone, a verb said on the way, does not link.
    Description(
        "allow a player to change the target(s) of a spell or ability",
        _re(r"\bchang\w*\b[^.]{0,30}?\btargets?\b|\bnew targets?\b"),
    ),
    # 601.2i: a spell becomes cast once the steps of casting it are completed (*triggers once
    # you've completed casting a spell*, *until after you're done casting them*).
    Description(
        "then the spell becomes cast",
        _re(r"\b(?:finish\w*|complet\w*|done) casting\b"),
    ),
    # 800.4a: a player leaving the game, which only a multiplayer game survives (*If you leave
    # the game while controlling permanents owned by other players, those permanents are
    # exiled*, *if the monarch leaves the game*); objects leaving the game with their owner are
    # what the rule does, not who leaves.
    Description(
        "owned by that player leave the game",
        _re(
            r"\b(?:you|a player|that player|the player|an opponent|the monarch|each player|"
            r"players|they) (?:leaves?|left|leaving|has left|have left) the game\b"
        ),
    ),
    # 307.1: a sorcery is cast in a main phase of its controller's turn, the stack empty (*you
    # can cast a sorcery using flashback only when you could normally cast a sorcery*).
    Description(
        "may cast a sorcery card from their hand during a main phase",
        _re(r"\b(?:only )?(?:when|whenever|any time) you could (?:normally )?cast a sorcery\b"),
    ),
    Description(
        "timing and priority",
        _re(
            r"\btiming (?:rules?|restrictions?|permissions?)\b|\bany time (?:you|they|a player) "
            r"could cast (?:an instant|a sorcery)\b|\bonly as an? (?:sorcery|instant)\b"
            r"|\b(?:sorcery|instant)[- ]speed\b"
        ),
    ),
    Description(
        "casting spells",
        _re(
            r"\b(?:divide|divided|distribute|distributed|announce|announced|choose|chosen|chose)\b"
            r"[^.]*\b(?:as|when) (?:you|they|its controller|that player|the player) casts?\b"
            r"|\bon announcement\b"
        ),
        also=_re(r"\bspells?\b|\bcast"),
    ),
    # 601.2d: a spell's division of damage or counters is announced as it is cast, and never
    # changes (*you can't change the division of damage*); on a spell's card, whose line that
    # divides is no activated ability (a colon) nor a triggered one (when, whenever, at).
    Description(
        "casting spells",
        _re(r"\bdivision of (?:the )?(?:damage|counters)\b"),
        card=re.compile(
            r"(?m)^(?![^\n]*:)(?!(?:When|Whenever|At)\b)[^\n]*\bdivided as you choose\b"
        ),
    ),
    # 601.2c (602.2b for an activated ability): targets are chosen as the spell is cast or the
    # ability activated (*you choose the targets of the first ability as you activate that
    # ability*, *you choose the target player as you cast Pact of the Serpent*); a triggered
    # ability's, as it goes on the stack, is 603.3d's.
    Description(
        "announces their choice of an appropriate object or player for each target",
        _re(
            r"\bchoos\w*\s+(?:the |its |their |a |any |new )?targets?\b[^.]{0,40}?"
            r"\b(?:as|when|while)\s+(?:you|they|its controller|that player|the player)\s+"
            r"(?:cast|activate)"
        ),
    ),
    # and a spell that can't be cast without its targets (*you must be able to target a creature
    # to cast Dramatic Rescue*, *you can't cast Hunt the Weak unless you choose both a creature
    # you control and one you don't*).
    Description(
        "announces their choice of an appropriate object or player for each target",
        _re(
            r"\b(?:must|need to|have to)(?: be able to)? (?:choose |select )?(?:\w+ ){0,3}?"
            r"(?:legal )?targets?\b[^.]{0,40}?\b(?:in order )?to (?:cast|activate)\b"
            r"|\bcan[’']t cast\b[^.]{0,60}?\bunless you (?:can )?(?:target|choose)\b"
        ),
    ),
    # 603.3d: a triggered ability's targets are chosen, and its effect divided, as it is put on
    # the stack (*As you put the delayed triggered ability on the stack ..., you choose the target
    # creature*, *You divide the damage as you put Inferno Titan's triggered ability on the
    # stack*), as 601.2c-d's are as a spell is cast.
    Description(
        "process for putting a triggered ability on the stack",
        _re(
            r"\b(?:choos|chose|divid|distribut|announc)\w*\b[^.]{0,60}?\bas (?:you|they|its "
            r"controller|that player|the player) puts? [^.]{0,50}?\babilit(?:y|ies) on(?:to)? "
            r"the stack\b"
            r"|\bas (?:you|they|its controller|that player|the player) puts? [^.]{0,50}?"
            r"\babilit(?:y|ies) on(?:to)? the stack\b[^.]{0,60}?\b(?:choos|chose|divid|"
            r"distribut|announc)\w*"
        ),
    ),
    # 603.3d in its own words, "when the triggered ability goes on the stack": a choice made as
    # the ability goes or is put on the stack (*You choose the target creature with flying when
    # the ability goes on the stack*, *The targets ... are chosen when the ability is put onto the
    # stack*), where the sentence speaks of an ability (a spell is cast: 601.2c).
    Description(
        "process for putting a triggered ability on the stack",
        _re(
            rf"\b(?:choos|chose|divid|distribut|announc)\w*\b[^.]{{0,60}}?{_GOES_ON}"
            rf"|{_GOES_ON}[^.]{{0,60}}?\b(?:choos|chose|divid|distribut|announc)\w*"
        ),
        also=_re(r"\babilit(?:y|ies)\b|\btrigger"),
    ),
    Description(
        "activating activated abilities",
        _re(
            r"\b(?:divide|divided|distribute|distributed|announce|announced|choose|chosen|chose)\b"
            r"[^.]*\b(?:as|when) (?:you|they|its controller|that player|the player) activates?\b"
            r"|\bon announcement\b"
        ),
        also=_re(r"\bactivat"),
    ),
    Description(
        "allows a player to cast a spell during resolution",
        _re(
            r"\b(?:cast|play)\b[^.]{0,40}?\bwhile\b[^.]{0,60}?\b(?:is|was) resolving\b"
            r"|\b(?:during|as part of) (?:the|its) resolution\b"
            r"|\bcast (?:a|the|that|this) (?:[\w-]+ )?spell immediately\b"
            r"|\bignoring (?:normal )?timing (?:restrictions|rules|permissions)\b"
        ),
        also=_re(r"\bcast|\bplay"),
    ),
    Description("is an illegal target for itself", _re(r"\btargets? (?:itself|themselves)\b")),
    Description(
        "interaction of replacement and/or prevention effects",
        _re(r"\bchoos\w* the order\b"),
        also=_re(r"\beffects?\b"),
    ),
    # and which of several applies (*If multiple damage prevention effects ... are attempting to
    # prevent damage ..., its controller chooses which to apply*)
    Description(
        "interaction of replacement and/or prevention effects",
        _re(r"\bmultiple [^.]{0,30}?(?:prevention|replacement) effects\b[^.]*\bchooses?\b"),
    ),
    Description(
        "active player, nonactive player order",
        _re(r"\bin turn order\b"),
        also=_re(r"\bchoos|\bchose\b|\bchoices?\b|\bdecid|\bdecisions?\b"),
    ),
    # players acting one after another (101.4 "choices and/or take actions"): *first the player
    # whose turn it is draws two cards, then each other player in turn order does so*
    Description(
        "active player, nonactive player order",
        _re(r"\bin turn order\b"),
        also=_re(r"\beach other player\b|\bstarting with the (?:active player|player whose turn)"),
    ),
    Description("exile", _re(r"\bexil\w*\b[^.]{0,30}?\bface[- ](?:up|down)\b")),
    Description(
        "follows its instructions in the order written",
        _re(r"\bin (?:sequence|order(?! to\b)|the order (?:written|listed|printed))\b"),
        also=_re(r"\b(?:do|does|perform|performs|follow|follows)\b"),
    ),
    Description(
        "summoning sickness rule",
        _re(
            r"\bsummoning sick|\bcontinuously since\b"
            r"|\bcontrol since (?:the (?:beginning|start) of )?"
            r"(?:your|their|its controller[’']s) most recent turn\b"
        ),
    ),
    Description(
        "cost",
        _re(
            r"\b(?:can|may|could|must)\s+(?:activate|cast|pay)\b[^.]{0,80}?\bby (?:paying|"
            r"sacrificing|tapping|untapping|discarding|exiling|removing|returning|putting)\b"
        ),
    ),
    Description(
        "cost",
        _re(
            r"\bcosts? (?:(?:up to )?(?:\{[^}]+\})+ )?(?:less|more)\b|\bcost reductions?\b"
            r"|\b(?:reduc|lower)\w* (?:the |its |that |their )?(?:total )?costs?\b"
        ),
    ),
    # 601.2f: cost reductions apply as the total cost is determined (*the cost reduction can
    # apply to alternative costs*, *can lower the cost to zero*); not where the ruling is about
    # mana value, which no reduction changes (202.3), nor where reductions are what does not
    # matter (*cost reductions won't change whether it triggers*).
    Description(
        "some effects may increase or reduce the cost to pay",
        _re(r"\bcost reduc\w*|\b(?:reduc|lower)\w* (?:the |its |that |their )?(?:total )?costs?\b"),
        unless=_re(rf"\bmana value\b|\bconverted mana cost\b|{_NOT} (?:change|affect|matter)\b"),
    ),
    Description(
        "exists on the stack independently of its source",
        _re(
            r"\bindependently of its source\b|\beven (?:if|though)\b[^.]{0,50}?\b(?:has left|"
            r"leaves|left|is no longer on|isn[’']t on) the battlefield\b"
            # *If Serrated Biskelion leaves the battlefield before its ability resolves, you'll
            # still put a -1/-1 counter on the targeted creature*
            r"|\bleaves the battlefield before (?:its|the|that|this) (?:[\w-]+ )?abilit(?:y|ies) "
            r"(?:resolves|has resolved)\b[^.]*(?:\bwill|[’']ll) still\b"
        ),
        also=_re(r"\babilit(?:y|ies)\b[^.]*\bresolv|\bresolv[^.]*\babilit(?:y|ies)\b"),
    ),
    Description(
        "sets a land's subtype to one or more of the basic land types",
        _re(
            r"\b(?:replaces?|replaced|loses?|lost|gains?|gained|sets?)\b[^.]{0,40}?\bland types?\b"
        ),
        also=_re(r"\b(?:Plains|Islands?|Swamps?|Mountains?|Forests?)\b"),
    ),
    Description(  # the rule's own words: the land "no longer has its old land type"
        "sets a land's subtype to one or more of the basic land types",
        _re(r"\b(?:remov|los|lost)\w*\b[^.]{0,20}?\bold land types?\b"),
    ),
    Description(
        "legend rule",
        _re(
            r"\b(?:legendary (?:permanents|creatures)"
            r"|more than one legendary (?:permanent|creature))\b[^.]*\bsame name\b"
        ),
    ),
    Description(
        "state-based actions",
        _re(
            r"\+1/\+1 counters?\b[^.]*[-−]1/[-−]1 counters?\b[^.]*\bremov"
            r"|[-−]1/[-−]1 counters?\b[^.]*\+1/\+1 counters?\b[^.]*\bremov"
        ),
    ),
    # the same rule in the counters' chapter, 122.3, which 704.5q restates as a state-based action
    Description(
        "has both a +1/+1 counter and a -1/-1 counter on it",
        _re(
            r"\+1/\+1 counters?\b[^.]*[-−]1/[-−]1 counters?\b[^.]*\bremov"
            r"|[-−]1/[-−]1 counters?\b[^.]*\+1/\+1 counters?\b[^.]*\bremov"
        ),
    ),
    Description(
        "card type",
        _re(
            r"\b(?:the|of|other|card)\s+types?\s+(?:such as\s+)?[“\"]?(?:artifact|battle|creature|"
            r"enchantment|instant|kindred|land|planeswalker|sorcery|tribal|summon)s?\b"
        ),
    ),
    Description(
        "final part of an instant or sorcery spell's resolution",
        _re(r"\b(?:instant|sorcery)\b[^.]*?\b(?:put|go|goes|placed)\b[^.]{0,30}?\bgraveyards?\b"),
        also=_re(r"\bresolv"),
    ),
    # and said of "this card" or "this spell" (*This card won't be put into your graveyard until
    # after it's finished resolving*, *At the time this spell is resolving, it is on the stack
    # and not in the graveyard*).
    Description(
        "final part of an instant or sorcery spell's resolution",
        _re(
            r"\bgraveyard until after it(?:[’']s| has| is) finished resolving\b"
            r"|\bon the stack and not in (?:the|your|its owner[’']s) graveyard\b"
        ),
    ),
    # 613.4b and 613.4c: the sublayers of power and toughness, as rulings name the effects
    # applied in them (*effects that modify a creature's power and/or toughness ... will apply
    # no matter when they started to take effect*; *override any effects that set its power
    # and/or toughness to another number*).
    Description(
        "effects that set power and/or toughness to a specific number or value are applied",
        _re(
            r"\b(?:effects?|ones?|abilit(?:y|ies)) (?:that|which) sets? (?:[\w’'-]+ ){0,3}?"
            r"(?:base )?power (?:and/or|and|or) toughness\b"
        ),
    ),
    Description(
        "effects and counters that modify power and/or toughness (but don't set",
        _re(
            r"\b(?:effects?|counters?|ones?) (?:that|which) (?:modif(?:y|ies|ied)|changes?)\b"
            r"[^.]{0,40}?\bpower and/or toughness\b"
        ),
    ),
    Description(
        "switch a creature's power and toughness",
        _re(
            r"\bswitch(?:es|ed|ing)?\b[^.]{0,40}?\bpower and toughness\b"
            r"|\bpower and toughness\b[^.]{0,20}?\bswitch"
        ),
    ),
    Description(
        "lose simultaneously, the game is a draw",
        _re(
            r"\bgame(?: is|[’']s| ends in| will be| would be| results in) a draw\b"
            r"|\bends in a draw\b"
        ),
    ),
    Description(
        "search",
        _re(
            rf"\b(?:{_NOT}|needn{_A}t|not)\s+(?:need to\s+|have to\s+|required to\s+)?find\b"
            r"|\b(?:choose not|fails?|failed) to find\b|\bfind (?:fewer|less)\b"
        ),
    ),
    # 113.7: the object that generated an ability is its source (*The equipped creature is the
    # source of the activated ability*, *the source of both the triggered ability and the
    # resultant damage*); the glossary's Source of an Ability, as rulings word it.
    Description(
        "source of an ability",
        _re(
            r"\bsources? of (?:the|that|this|its|both the|an?|each)\s+(?:[\w-]+\s+){0,2}?"
            r"abilit(?:y|ies)\b"
        ),
    ),
    # 105.2c "A colorless object has no color", said of an object (*Like most lands, each land in
    # this cycle is colorless*, *A land card that produces green mana, even a Forest, normally has
    # no color*); not of mana (*the mana can't be colorless*, 106), nor a colorless spell or source
    # picked out by its color.
    Description(
        "colors",
        _re(
            r"\b(?:is|are|be|becomes?|became|remains?|stays?)\s+colorless\b(?!\s+mana)"
            r"|\b(?:has|have)\s+no\s+colou?r\b"
        ),
        unless=_re(r"\bmana\b[^.,]{0,25}?\b(?:is|be|becomes?|become)\s+colorless\b"),
    ),
    # 611.3a and 611.2c: an effect whose set of objects or values is "constantly updated" (*The
    # bonus granted by Bearded Axe is constantly updated*), a static ability's; one of a
    # resolving spell that changes no characteristics modifies the rules (*Because the effect
    # doesn't change the characteristics of any permanents, the set of creatures affected is
    # constantly updated*).
    Description(
        "generated by the resolution of a spell or ability",
        _re(r"\b(?:constantly|continuously|continually) updated\b"),
        also=_re(r"\bcharacteristics\b"),
    ),
    Description(
        "may be generated by the static ability of an object",
        _re(r"\b(?:constantly|continuously|continually) updated\b"),
        unless=_re(r"\bcharacteristics\b"),
    ),
    # 305.4: putting a land onto the battlefield is not playing it (*Putting a land onto the
    # battlefield this way is not the same as playing a land*).
    Description(
        "this isn't the same as “playing a land”",
        _re(r"\b(?:isn[’']t|is not|not) the same as playing (?:a|the|that) land\b"),
    ),
    # 205.3i: lands have their own subtypes, the land types (*counts any land you control with the
    # subtype Swamp, not just ones named Swamp*, *Desert is a land subtype*, *Gate is not a basic
    # land type*, *lands with the land type Mountain*, *if they have the Plains land type*);
    # changing them is 305.7's (*it now has the land type Swamp*), the basic land types 305.6's.
    Description(
        "these subtypes are called land types",
        _re(
            r"\bland subtypes?\b|\bsubtypes? (?-i:(?:Plains|Island|Swamp|Mountain|Forest|Desert"
            r"|Gate|Cave|Lair|Locus|Mine|Sphere|Tower|Town)\b)"
            r"|\bwith (?:the )?land types? (?-i:[A-Z][\w’'-]+)"
            r"|\bis(?:n[’']t| not)? an? (?:basic )?land type\b"
            # *if they have the Plains land type*, *has the Urza's land type*
            r"|\b(?:has|have|had|with) the (?-i:[A-Z][\w’'-]+) land type\b"
        ),
    ),
    # 705: flipping a coin, as rulings name the flip (*The coin flip rules have changed*, *You
    # don't flip the coin until the ability resolves*).
    Description(
        "flipping a coin",
        _re(r"\bcoin flips?\b|\bflip(?:s|ped|ping)? (?:a|the|one|two|that|each) coins?\b"),
    ),
    # 701.20a: a card revealed for longer than a moment, which the effect says (*Each card that's
    # revealed to pay the cost remains revealed until the ability leaves the stack*).
    Description(
        "reveal",
        _re(r"\b(?:remains?|remained|stays?|stayed|must remain) revealed\b"),
    ),
    # 514.2: damage marked on permanents is removed in the cleanup step (*Because damage remains
    # marked on a creature until it's removed as the turn ends*, *until the cleanup step or an
    # effect removes that damage*), which 120.6's "remains until the cleanup step" leads to.
    Description(
        "all damage marked on permanents",
        _re(
            r"\bdamage (?:remains|stays) marked on (?:a|the|that|each|those|\w+) ?(?:creatures?|"
            r"permanents?)?\b[^.]{0,20}?\buntil\b"
        ),
    ),
    # 704.5g: a creature whose toughness falls to the damage marked on it is destroyed (*nonlethal
    # damage dealt to Court Cleric may become lethal*, *If this causes a creature's toughness to
    # become less than or equal to the amount of damage marked on it*, *If damage marked on that
    # creature is equal to or greater than its new toughness*).
    Description(
        "has toughness greater than 0, it has damage marked on it",
        _re(
            r"\bnonlethal damage\b[^.]{0,80}?\bbecome lethal\b"
            r"|\btoughness\b[^.]{0,50}?\b(?:less than or equal to|equal to or less than)\b"
            r"[^.]{0,40}?\bdamage\b"
            r"|\bdamage marked\b[^.]{0,50}?\b(?:greater than or equal to|equal to or greater than)"
            r"\b[^.]{0,30}?\btoughness\b"
        ),
    ),
    # 107.1b: a game value may be less than zero, and a calculation uses it so (*If this creature's
    # power is negative as its ability resolves, X is considered to be 0*, *you may have a
    # negative life total*).
    Description(
        "possible for a game value, such as a creature's power, to be less than zero",
        _re(
            r"\bnegative (?:numbers?|values?|life totals?|power|toughness)\b"
            r"|\b(?:is|are|be|becomes?|was|were) negative\b|\bless than zero\b"
        ),
    ),
    # 404.2: a graveyard's order, which a player normally can't change (*Players may not
    # rearrange the cards in their graveyards*); cards put there "in any order" are the effect's.
    Description(
        "normally can't change their order",
        _re(
            r"\b(?:rearrang|reorder)\w*\b[^.]{0,40}?\bgraveyards?\b"
            r"|\bchang\w* the order of\b[^.]{0,40}?\bgraveyards?\b"
        ),
    ),
    # 110.4: the permanent types (*The permanents have to share a permanent type*, *The permanent
    # types are artifact, creature, enchantment, land, and planeswalker*).
    Description("there are six permanent types", _re(r"\bpermanent types?\b")),
    # 614.10: skipping a step, phase or turn is a replacement effect (*If an effect causes the
    # enchanted player to skip their upkeep step*, *Once a combat phase starts, it can't be
    # skipped*); not the game going on to a later step (*skips straight to the cleanup step*,
    # 723.1) nor a blocker passed over in damage assignment.
    Description(
        "an effect that causes a player to skip an event, step, phase, or turn is a replacement"
        " effect",
        _re(
            r"\bskip(?:s|ped|ping)?\s+(?!straight\b|to\b)(?:[\w’'-]+\s+){0,3}?"
            r"(?:steps?|phases?|turns?)\b|\b(?:be|been|is|are) skipped\b"
        ),
    ),
    # 118.9c: an alternative cost leaves the mana cost as it is (*Casting a spell for its madness
    # cost doesn't change its mana cost*, *When you cast a spell by paying its evoke cost, its
    # mana cost doesn't change*).
    Description(
        "an alternative cost doesn't change a spell's mana cost",
        _re(
            rf"\bmana cost {_NOT} change\b|\b{_NOT} change (?:its|the|that spell[’']s|the "
            r"spell[’']s) mana cost\b"
        ),
        also=_re(r"\bcast(?:s|ing)?\b"),
        # a cost increased or reduced (601.2f) leaves the mana cost as it is too
        unless=_re(r"\btotal cost\b|\breduc\w*|\bincreas\w*|\bcosts? (?:less|more)\b"),
    ),
    # 726.1: a game restarted (Karn Liberated: *No actions taken in the game that was restarted
    # apply to the new game*).
    Description(
        "a game that is restarted immediately ends",
        _re(r"\brestart(?:s|ed|ing)? the game\b|\bgame (?:that was|is|was) restarted\b"),
    ),
    # 302.1: a creature spell's timing, which an effect letting it be cast leaves as it is
    # (*if it's a creature card, you can cast it only during your main phase while the stack is
    # empty*, *only at the normal time you could cast a creature spell*, *doesn't change when
    # you can cast creature spells*); not a creature cast *only when you could cast a sorcery*
    # (307.1's timing).
    Description(
        "may cast a creature card from their hand during a main phase",
        _re(
            r"\bcreature (?:card|spell)s?\b[^.]*\bonly (?:during your main phase|at the normal "
            r"time|when you (?:otherwise )?could cast)\b"
            r"|\bnormal time you could cast a creature spell\b"
            rf"|\b{_NOT} change when you (?:can|could) cast creature spells\b"
        ),
        unless=_re(r"\bsorcery\b"),
    ),
    # 608.2c: instructions followed in the order written (*Follow the instructions in the order
    # listed on the card*, *modes are performed in the order listed*).
    Description(
        "follows its instructions in the order written",
        _re(r"\bin the order (?:listed|written|printed|(?:they|they[’']re|they are) written)\b"),
    ),
    # 722.6: a controlled player still concedes at will (*You can't make the affected player
    # concede*).
    Description(
        "the controller of another player can't make that player concede",
        _re(
            r"\bmake (?:the |that |another |an )?(?:affected |other |controlled )?players? "
            r"concede\b"
        ),
    ),
    # 107.6: the untap symbol (*If the permanent is already untapped, you can't activate its {Q}
    # ability*).
    Description("the untap symbol is {q}", _re(r"\{Q\}")),
    # 704.5b: drawing from an empty library loses the game (*You won't lose the game until you
    # try to draw from the empty library*, *no player can lose the game due to being instructed
    # to draw a card with an empty library*).
    Description(
        "attempted to draw a card from a library with no cards in it",
        _re(
            r"\bdraw\w*\b[^.]*\b(?:empty library|library is empty)\b"
            r"|\b(?:empty library|library is empty)\b[^.]*\bdraw\w*"
        ),
        also=_re(r"\blos(?:e|es|ing|t) the game\b"),
    ),
    # 101.2: a spell that can't be countered may still be the target of a counterspell, which
    # does not counter it (*A spell that can't be countered is a legal target for Absorb. The
    # spell won't be countered when Absorb resolves*).
    Description(
        "another effect states that it can't happen, the “can't” effect takes precedence",
        _re(
            r"\bcan[’']t be countered\b[^.]{0,30}?\b(?:is|are) (?:still )?(?:a )?legal targets?\b"
            r"|\bcan[’']t be countered can still be (?:chosen as the )?targets?\b"
            r"|\bcan be targeted by spells (?:or abilities )?that try to counter\b"
        ),
    ),
)

"""Rules a ruling describes in the rules' own words (kb.links.described), on ruling-like sentences.

Each description has a sentence worded as Wizards' rulings word it that must link its rule, and
one that must not (a near miss). The vocabulary is built from rules and glossary entries written
like the real ones (2026-01-16 numbering).
"""

from __future__ import annotations

import re

import pytest

from kb.links.described import _SENTENCE, DESCRIPTIONS, Shown, _with
from kb.links.implied import CardContext, implied_matches
from kb.links.term_vocabulary import GlossaryItem, RuleEntry, english_vocabulary

RULES = [
    RuleEntry("101.4", "rule", "", "If multiple players would make choices …"),
    RuleEntry("104.1", "rule", "", "A game ends immediately when … the game is a draw, …"),
    RuleEntry(
        "104.4a",
        "subrule",
        "",
        "If all the players remaining in a game lose simultaneously, the game is a draw.",
    ),
    RuleEntry(
        "113.7a",
        "subrule",
        "",
        "Once activated or triggered, an ability exists on the stack independently of its source.",
    ),
    RuleEntry("105", "chapter", "Colors", ""),
    RuleEntry(
        "106.6",
        "rule",
        "",
        "Some spells or abilities that produce mana restrict how that mana can be spent, …",
    ),
    RuleEntry(
        "109.5",
        "rule",
        "",
        "The words “you” and “your” on an object refer to the object’s controller, …",
    ),
    RuleEntry(
        "113.6",
        "rule",
        "",
        "Abilities of an instant or sorcery spell usually function only while that object is on "
        "the stack. Abilities of all other objects usually function only while that object is on "
        "the battlefield.",
    ),
    RuleEntry("117", "chapter", "Timing and Priority", ""),
    RuleEntry("118", "chapter", "Costs", ""),
    RuleEntry("205", "chapter", "Type Line", ""),
    RuleEntry("205.1a", "subrule", "", "Some effects set an object's card type. …"),
    RuleEntry(
        "205.3i",
        "subrule",
        "",
        "Lands have their own unique set of subtypes; these subtypes are called land types (…)",
    ),
    RuleEntry("302.6", "rule", "", "A creature can’t attack unless …"),
    RuleEntry(
        "305.7",
        "rule",
        "",
        "If an effect sets a land’s subtype to one or more of the basic land types, …",
    ),
    RuleEntry(
        "400.7", "rule", "", "An object that moves from one zone to another becomes a new object"
    ),
    RuleEntry(
        "111.7",
        "rule",
        "",
        "A token that’s in a zone other than the battlefield ceases to exist.",
    ),
    RuleEntry("400.8", "rule", "", "… it becomes a new object …"),
    RuleEntry(
        "401.4",
        "rule",
        "",
        "If an effect puts two or more cards in a specific position in a library at the same "
        "time, the owner of those cards may arrange them in any order.",
    ),
    RuleEntry("406", "chapter", "Exile", ""),
    RuleEntry("502", "chapter", "Untap Step", ""),
    RuleEntry("504", "chapter", "Draw Step", ""),
    RuleEntry("601", "chapter", "Casting Spells", ""),
    RuleEntry(
        "601.2d",
        "subrule",
        "",
        "If the spell requires the player to divide … Each of these targets must receive at least "
        "one of whatever is being divided.",
    ),
    RuleEntry(
        "601.2f",
        "subrule",
        "",
        "The player determines the total cost of the spell. … Some effects may increase or "
        "reduce the cost to pay, …",
    ),
    RuleEntry("602", "chapter", "Activating Activated Abilities", ""),
    RuleEntry("603.4", "rule", "", "A triggered ability may read “When/Whenever/At …, if …”"),
    RuleEntry("608.2b", "subrule", "", "If the spell or ability specifies targets, …"),
    RuleEntry(
        "608.2c", "subrule", "", "The controller … follows its instructions in the order written."
    ),
    RuleEntry(
        "601.2c",
        "subrule",
        "",
        "The player announces their choice of an appropriate object or player for each target "
        "the spell requires.",
    ),
    RuleEntry(
        "508.4",
        "rule",
        "",
        "If a creature is put onto the battlefield attacking, its controller chooses which "
        "defending player, planeswalker a defending player controls, or battle a defending player "
        "protects it’s attacking as it enters the battlefield.",
    ),
    RuleEntry(
        "509.1h",
        "subrule",
        "",
        "An attacking creature with one or more creatures declared as blockers for it becomes a "
        "blocked creature; … This remains unchanged until the creature is removed from combat, …",
    ),
    RuleEntry(
        "121.4",
        "rule",
        "",
        "A player who attempts to draw a card from a library with no cards in it loses the game "
        "the next time a player would receive priority.",
    ),
    RuleEntry(
        "305.2",
        "rule",
        "",
        "A player can normally play one land during their turn; however, continuous effects may "
        "increase this number.",
    ),
    RuleEntry(
        "305.3",
        "rule",
        "",
        "A player can’t play a land, for any reason, if it isn’t their turn.",
    ),
    RuleEntry("305", "chapter", "Lands", ""),
    RuleEntry(
        "305.4",
        "rule",
        "",
        "Effects may also allow players to “put” lands onto the battlefield. This isn’t the same "
        "as “playing a land” and doesn’t count as a land played during the current turn.",
    ),
    RuleEntry("702.33", "rule", "Kicker", ""),
    RuleEntry("701.20", "rule", "Reveal", ""),
    RuleEntry("705", "chapter", "Flipping a Coin", ""),
    RuleEntry(
        "404.2",
        "rule",
        "",
        "Each graveyard is kept in a single face-up pile. A player can examine the cards in any "
        "graveyard at any time but normally can’t change their order. …",
    ),
    RuleEntry("110.4", "rule", "", "There are six permanent types: artifact, battle, creature, …"),
    RuleEntry("106.1b", "subrule", "", "There are six types of mana: white, blue, black, …"),
    RuleEntry("113.3", "rule", "", "There are four general categories of abilities:"),
    RuleEntry("500.8", "rule", "", "Some effects can add phases to a turn. …"),
    RuleEntry("607", "chapter", "Linked Abilities", ""),
    RuleEntry(
        "612.2",
        "rule",
        "",
        "A text-changing effect changes only those words that are used in the correct way …",
    ),
    RuleEntry(
        "613.11", "rule", "", "Some continuous effects affect game rules rather than objects."
    ),
    RuleEntry("303.4f", "subrule", "", "… by any means other than by resolving as an Aura spell"),
    RuleEntry(
        "614.10",
        "rule",
        "",
        "An effect that causes a player to skip an event, step, phase, or turn is a replacement "
        "effect. …",
    ),
    RuleEntry("118.9c", "subrule", "", "An alternative cost doesn’t change a spell’s mana cost, …"),
    RuleEntry(
        "302.1",
        "rule",
        "",
        "A player who has priority may cast a creature card from their hand during a main phase …",
    ),
    RuleEntry("608.2c", "subrule", "", "… follows its instructions in the order written. …"),
    RuleEntry("107.6", "rule", "", "The untap symbol is {Q}. …"),
    RuleEntry(
        "722.6", "rule", "", "The controller of another player can’t make that player concede. …"
    ),
    RuleEntry("726.1", "rule", "", "… A game that is restarted immediately ends. …"),
    RuleEntry(
        "101.2",
        "rule",
        "",
        "… and another effect states that it can’t happen, the “can’t” effect takes precedence.",
    ),
    RuleEntry(
        "704.5b",
        "subrule",
        "",
        "… attempted to draw a card from a library with no cards in it …",
    ),
    RuleEntry("201.5", "rule", "", "Text that refers to the object it’s on by name means just …"),
    RuleEntry("405.5", "rule", "", "… the top (last-added) spell or ability on the stack resolves"),
    RuleEntry("615.12", "rule", "", "Some effects state that damage “can’t be prevented.” …"),
    RuleEntry("701.10d", "subrule", "", "To double a player’s life total, the player gains or …"),
    RuleEntry(
        "508.1b",
        "subrule",
        "",
        "… announces which player, planeswalker, or battle each of the chosen creatures is …",
    ),
    RuleEntry("603.10a", "subrule", "", "Some zone-change triggers look back in time. …"),
    RuleEntry(
        "704.3",
        "rule",
        "",
        "… the game checks for any of the listed conditions for state-based actions, …",
    ),
    RuleEntry(
        "509.1a",
        "subrule",
        "",
        "The defending player chooses which creatures they control, if any, will block. …",
    ),
    RuleEntry(
        "202.3e",
        "subrule",
        "",
        "… with an {X} in its mana cost, X is treated as 0 while the object is not on the stack, …",
    ),
    RuleEntry(
        "609.4b",
        "subrule",
        "",
        "If an effect allows a player to spend mana “as though it were mana of any [type or …",
    ),
    RuleEntry(
        "118.12",
        "rule",
        "",
        "… The action [do something] is a cost, paid when the spell or ability resolves. …",
    ),
    RuleEntry(
        "404.3",
        "rule",
        "",
        "If an effect or rule puts two or more cards into the same graveyard at the same time, …",
    ),
    RuleEntry(
        "508.1d",
        "subrule",
        "",
        "… (effects that say a creature attacks if able, or that it attacks if …) …",
    ),
    RuleEntry(
        "509.1c",
        "subrule",
        "",
        "… (effects that say a creature must block, or that it must block if …) …",
    ),
    RuleEntry(
        "107.1b",
        "subrule",
        "",
        "… However, it’s possible for a game value, such as a creature’s power, to be less than "
        "zero. …",
    ),
    RuleEntry(
        "514.2",
        "rule",
        "",
        "Second, the following actions happen simultaneously: all damage marked on permanents "
        "(including phased-out permanents) is removed …",
    ),
    RuleEntry(
        "704.5g",
        "subrule",
        "",
        "If a creature has toughness greater than 0, it has damage marked on it, and the total "
        "damage marked on it is greater than or equal to its toughness, …",
    ),
    RuleEntry(
        "106.1a",
        "subrule",
        "",
        "There are five colors of mana: white, blue, black, red, and green.",
    ),
    RuleEntry(
        "106.7",
        "rule",
        "",
        "The type of mana a permanent could produce at any time includes any type of mana that an "
        "ability of that permanent can produce.",
    ),
    RuleEntry("604.3", "rule", "", "Some static abilities are characteristic-defining abilities."),
    RuleEntry(
        "704.5n",
        "subrule",
        "",
        "If an Equipment or Fortification is attached to an illegal permanent or to a player, it "
        "becomes unattached from that permanent or player.",
    ),
    RuleEntry(
        "508.5",
        "rule",
        "",
        "… the defending player it’s referring to is the player that creature is attacking, the "
        "controller of the planeswalker that creature is attacking, …",
    ),
    RuleEntry("608", "chapter", "Resolving Spells and Abilities", ""),
    RuleEntry(
        "115.7",
        "rule",
        "",
        "Some effects allow a player to change the target(s) of a spell or ability, and other "
        "effects allow a player to choose new targets for a spell or ability.",
    ),
    RuleEntry(
        "601.2i",
        "subrule",
        "",
        "Once the steps described in 601.2a–h are completed, effects that modify the "
        "characteristics of the spell as it’s cast are applied, then the spell becomes cast.",
    ),
    RuleEntry(
        "800.4a",
        "subrule",
        "",
        "When a player leaves the game, all objects (see rule 109) owned by that player leave the "
        "game and any effects which give that player control of any objects or players end.",
    ),
    RuleEntry(
        "201.4",
        "rule",
        "",
        "If an effect instructs a player to choose a card name, the player must choose the name "
        "of a card in the Oracle card reference.",
    ),
    RuleEntry(
        "106.12",
        "rule",
        "",
        "To “tap [a permanent] for mana” is to activate a mana ability of that permanent that "
        "includes the {T} symbol in its activation cost.",
    ),
    RuleEntry(
        "307.1",
        "rule",
        "",
        "A player who has priority may cast a sorcery card from their hand during a main phase of "
        "their turn when the stack is empty.",
    ),
    RuleEntry(
        "120.3",
        "rule",
        "",
        "Damage may have one or more of the following results, depending on whether the "
        "recipient of the damage is a player or permanent, …",
    ),
    RuleEntry(
        "122.3",
        "rule",
        "",
        "If a permanent has both a +1/+1 counter and a -1/-1 counter on it, N +1/+1 and N -1/-1 "
        "counters are removed from it as a state-based action, …",
    ),
    RuleEntry(
        "303.4e",
        "subrule",
        "",
        "An Aura’s controller is separate from the enchanted object’s controller or the enchanted "
        "player; the two need not be the same. Only the Aura’s controller can activate its "
        "abilities.",
    ),
    RuleEntry(
        "603.3d",
        "subrule",
        "",
        "The remainder of the process for putting a triggered ability on the stack is identical "
        "to the process for casting a spell listed in rules 601.2c–d.",
    ),
    RuleEntry(
        "608.2g",
        "subrule",
        "",
        "If an effect specifically instructs or allows a player to cast a spell during "
        "resolution, they do so …",
    ),
    RuleEntry("608.2h", "subrule", "", "If an effect requires information from the game …"),
    RuleEntry(
        "608.2n",
        "subrule",
        "",
        "As the final part of an instant or sorcery spell’s resolution, the spell is put into "
        "its owner’s graveyard.",
    ),
    RuleEntry(
        "611.2",
        "rule",
        "",
        "A continuous effect may be generated by the resolution of a spell or ability.",
    ),
    RuleEntry("611.2a", "subrule", "", "A continuous effect generated by the resolution of a …"),
    RuleEntry(
        "611.3",
        "rule",
        "",
        "A continuous effect may be generated by the static ability of an object.",
    ),
    RuleEntry("612", "chapter", "Text-Changing Effects", ""),
    RuleEntry(
        "613.4b",
        "subrule",
        "",
        "Layer 7b: Effects that set power and/or toughness to a specific number or value are "
        "applied.",
    ),
    RuleEntry(
        "613.4c",
        "subrule",
        "",
        "Layer 7c: Effects and counters that modify power and/or toughness (but don’t set power "
        "and/or toughness to a specific number or value) are applied.",
    ),
    RuleEntry(
        "613.4d",
        "subrule",
        "",
        "Layer 7d: Effects that switch a creature’s power and toughness are applied.",
    ),
    RuleEntry("616", "chapter", "Interaction of Replacement and/or Prevention Effects", ""),
    RuleEntry("701.23", "rule", "Search", ""),
    RuleEntry("704", "chapter", "State-Based Actions", ""),
    RuleEntry("704.5j", "subrule", "", "… This is called the “legend rule.”"),
    RuleEntry("708", "chapter", "Face-Down Spells and Permanents", ""),
    RuleEntry("712", "chapter", "Double-Faced Cards", ""),
    RuleEntry("722", "chapter", "Controlling Another Player", ""),
    RuleEntry("729", "chapter", "Merging with Permanents", ""),
]
GLOSSARY = [
    GlossaryItem("Characteristic-Defining Ability", "A kind of static ability. See rule 604.3."),
    GlossaryItem("Control Another Player", "To make all choices … See rule 722."),
    GlossaryItem("Removed from Combat", "Certain events can cause … See rule 506.4."),
    GlossaryItem("Source of an Ability", "The object that generated that ability. See rule 113.7."),
    GlossaryItem("Active Player, Nonactive Player Order", "A system. See rule 101.4."),
    GlossaryItem("Alternative Cost", "A cost … See rule 118, “Costs.”"),
    GlossaryItem("Card Type", "A characteristic. See rule 205, “Type Line.”"),
    GlossaryItem("Cost", "An action or payment. See rule 118, “Costs.”"),
    GlossaryItem("Double-Faced Cards", "A card with a face on each side. See rule 712."),
    GlossaryItem("Exile", "1. A zone. See rule 406, “Exile.”"),
    GlossaryItem("Illegal Target", "A target that no longer exists … See rule 608.2b."),
    GlossaryItem("Intervening “If” Clause", "A specially worded condition. See rule 603.4."),
    GlossaryItem("Merged Permanent", "A permanent of several objects. See rule 729."),
    GlossaryItem("Legend Rule", "A state-based action. See rule 704.5j."),
    GlossaryItem("State-Based Actions", "Game actions. See rule 704, “State-Based Actions.”"),
    GlossaryItem("Search", "To look at all cards … See rule 701.23, “Search.”"),
    GlossaryItem("Summoning Sickness Rule", "A term for … See rule 302.6."),
    GlossaryItem("Text-Changing Effect", "A continuous effect … See rule 612."),
    GlossaryItem("Type-Changing Effect", "An effect that changes a type. See rule 205.1a."),
]


@pytest.fixture(scope="module")
def vocab():
    return english_vocabulary(RULES, GLOSSARY)


def targets(vocab, text: str, card: str = "") -> list[str]:
    found = vocab.match(text)
    found += implied_matches(vocab, text, found, CardContext((card,) if card else ()))
    return sorted({n for m in found for n in m.term.targets})


def test_rule_statements_name_untitled_rules(vocab) -> None:
    """A phrase of a rule's own body names it: the first rule, in rule order, holding it."""
    assert vocab.concepts["moves from one zone to another becomes a new object"] == ("400.7",)
    assert vocab.concepts["generated by the resolution of a spell or ability"] == ("611.2",)
    assert vocab.concepts["an effect requires information from the game"] == ("608.2h",)
    # 104.1 says "the game is a draw" too; the statement is 104.4a's own
    assert vocab.concepts["lose simultaneously, the game is a draw"] == ("104.4a",)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 608.2b: targets checked as the spell resolves
        (
            "If all of the spell’s targets are illegal when it tries to resolve, it won’t resolve.",
            ["608.2b"],
        ),
        ("The same is true if each of the ability’s targets are all illegal by then.", ["608.2b"]),
        ("It’s illegal to reveal your hand this way.", []),
        # 608.2h: information an effect uses, and last known information
        ("The value of X is determined as the ability resolves.", ["608.2h"]),
        ("The number of cards is counted during resolution.", ["608.2h"]),
        ("You pick a card on resolution.", []),
        ("Use its last known existence on the battlefield to determine its power.", ["608.2h"]),
        ("Count the number of creature cards in your graveyard when it resolves.", ["608.2h"]),
        ("It is checked as the ability triggers and again as it resolves.", []),
        ("The ability resolves as normal.", []),
        # 400.7: an object that changes zones is a new object
        ("If it comes back under your control, it’s a new object.", ["400.7"]),
        ("The new Tibalt gives you an emblem.", []),
        # its exceptions: an effect on a permanent spell goes on to the permanent
        ("It will also affect the permanent that spell becomes when it resolves.", ["400.7"]),
        ("The permanent it becomes attached to need not be tapped.", []),
        ("If you change the color of a spell which is to become a permanent, it stays.", ["400.7"]),
        ("It also prevents damage from a spell that becomes a permanent.", ["400.7"]),
        ("The spell that becomes a copy of that permanent is red.", []),
        # 601.2c: targets are chosen as the spell is cast or the ability activated
        ("You choose the target player as you cast Pact of the Serpent.", ["601", "601.2c"]),
        # (a triggered ability's target, chosen as it goes on the stack, is 603.3d's, below)
        ("You choose the target of the triggered ability as it goes on the stack.", ["603.3d"]),
        # 603.3d: a triggered ability's, as it is put on the stack
        (
            "As you put the delayed triggered ability on the stack, you choose the target.",
            ["603.3d"],
        ),
        ("You divide the damage as you put Inferno Titan’s ability on the stack.", ["603.3d"]),
        ("You choose a card as you put the creature onto the battlefield.", []),
        # in the rule's own words, when the ability goes (or is put) on the stack
        ("You choose the target creature when the ability goes on the stack.", ["603.3d"]),
        ("The targets are chosen when Ashling’s ability is put on the stack.", ["603.3d"]),
        ("You choose a card when the spell is put on the stack.", []),
        # 303.4e: the Aura's controller, not the enchanted object's, activates its abilities
        (
            "This ability can be activated by Firebreathing’s controller, not the enchanted "
            "creature’s controller.",
            ["303.4e"],
        ),
        # (not 303.4e; tapping for mana, 106.12, is what it says the land's controller may do)
        (
            "The enchanted land’s controller may tap it for mana and activate an ability.",
            ["106.12"],
        ),
        # 608.2g: casting a spell while another resolves
        ("You must cast it while the triggered ability is resolving.", ["608.2g"]),
        ("You cast those cards as part of the resolution of the ability.", ["608.2g"]),
        (
            "It lets you cast the spell immediately, ignoring timing restrictions.",
            ["117", "601", "608.2g"],
        ),
        ("The spell resolves and you draw a card as part of its resolution.", []),
        # 111.7: a token that leaves the battlefield ceases to exist
        ("The Elemental tokens will die and subsequently cease to exist.", ["111.7"]),
        ("The delayed triggered ability will simply cease to exist.", []),
        # 401.4: cards put in a library together are ordered by their owner, unrevealed
        ("You choose the order of the cards you put on top of your library.", ["401.4"]),
        (
            "If an effect puts two or more cards on the top or bottom of a library at the same "
            "time, the owner of those cards may arrange them in any order.",
            ["401.4"],
        ),
        ("Put those triggered abilities on the stack in any order.", []),
        ("Put the rest on the bottom of your library in any order.", []),
        # 611.2: durations of effects from resolving spells
        ("The control-change effect has no duration.", ["611.2"]),
        ("Elves you begin to control later in the turn won’t get the bonus.", ["611.2"]),
        ("The ability affects only Elves you control as the ability resolves.", ["611.2"]),
        (
            "Only creatures you control when Stir the Pride resolves will get the bonuses.",
            ["611.2"],
        ),
        ("It gets +1/+1 until end of turn.", []),
        # 611.3: effects of static abilities apply at any given moment, to what is on the
        # battlefield; an ability applying only while its source is there is 113.6's (where it
        # works), and what a cost reduction applies to, or an effect not "locked in", neither
        ("Effects that affect power apply only to creatures on the battlefield.", ["611.3"]),
        ("Rielle’s first ability applies only while it’s on the battlefield.", ["113.6"]),
        ("The cost reduction applies only to generic mana in the cost.", ["118", "601.2f"]),
        ("Its echo cost constantly changes; it’s not locked in when it enters.", []),
        ("The first ability applies to the spell.", []),
        # 117: timing
        ("You must follow all applicable timing rules.", ["117"]),
        ("You may activate it any time you could cast an instant.", ["117"]),
        ("It’s an instant, so you may cast it in response.", []),
        # 601.2 / 602.2b: choices announced while casting or activating
        ("You divide the damage as you cast Ignite Disorder, not as it resolves.", ["601"]),
        ("The creature is chosen on announcement and not on resolution of the spell.", ["601"]),
        ("You choose the mode as you activate the ability.", ["602"]),
        ("You choose which creature to return as the spell resolves.", ["608.2h"]),
        ("You choose which creature to return.", []),
        # 616.1: the affected object's controller orders the effects
        ("Its controller chooses the order of those copy effects.", ["616"]),
        ("They put the abilities on the stack in any order.", []),
        # 101.4: APNAP order
        (
            "The current player chooses first, then each other player chooses in turn order.",
            ["101.4"],
        ),
        # and acting one after another (101.4: "choices and/or take actions")
        (
            "First the player whose turn it is draws two cards, then each other player in turn "
            "order does so.",
            ["101.4"],
        ),
        ("The next player in turn order becomes the monarch.", []),
        # 406.3: exiled cards are kept face up
        ("You exile the cards face up. All players will be able to see them.", ["406"]),
        ("Its controller turns it face up.", ["708"]),  # turning face up (708.8), not 406
        # 701.23b: a search need not find the cards
        ("The player doesn’t need to find a basic land card if they don’t want to.", ["701.23"]),
        ("Use it to determine what cards you can find.", []),
        # 608.2c: instructions followed in the order written
        ("You perform the actions stated on a card in sequence.", ["608.2c"]),
        ("You do what the spell says in order.", ["608.2c"]),
        ("The Ring gains its abilities in order from top to bottom.", []),
        ("It needn’t be the same opponent in order to return the card.", []),
        # 302.6: summoning sickness in the rule's own words
        (
            "If it hasn’t been under your control since the beginning of your most recent turn, "
            "it can’t attack.",
            ["302.6"],
        ),
        ("It has been on the battlefield since the game began.", []),
        # 118: paying a cost to activate or cast
        ("You can activate the ability by sacrificing any permanent you control.", ["118"]),
        ("Opponents can’t stop you from activating it by removing your snow lands.", []),
        # 118.7: cost reductions
        ("If an effect says such a spell costs {1} less to cast, it doesn’t apply.", ["118"]),
        ("Cost reductions won’t change whether or not it triggers.", ["118"]),
        ("It costs you nothing to keep it.", []),
        # 113.7a: an ability on the stack is independent of its source
        (
            "When that ability resolves, it deals damage even if Mage Slayer has left the "
            "battlefield.",
            ["113.7a"],
        ),
        ("The token stays exiled even if the card leaves the battlefield.", []),
        # 704.5j and 704.5q, in the state-based actions' own words
        (
            "If you control two legendary permanents with the same name, choose one.",
            ["704.5j"],
        ),
        (
            "If you control more than one legendary permanent with the same name, you'll choose "
            "one to remain on the battlefield.",
            ["704.5j"],
        ),
        ("Choose a legendary permanent with the same name as the exiled card.", []),
        # (and 122.3, the counters' rule it restates)
        ("It has a +1/+1 counter and a -1/-1 counter, so both are removed.", ["122.3", "704"]),
        ("Put a +1/+1 counter on it.", []),
        # 205.2: the card types
        ("It is any spell with the type creature, even if it has other types.", ["205"]),
        ("It removes the type “artifact” from the creature.", ["205"]),
        ("Elves are a creature type.", []),
        # 305.7: an effect sets a land's basic land type
        ("Nightcreep replaces all of its land types with Swamp.", ["305.7"]),
        ("They will gain the land type Mountain.", ["305.7"]),
        ("You may choose any card with the land type Plains.", ["205.3i"]),
        ("Effects that change a dual land's land type will remove the old land types.", ["305.7"]),
        ("It keeps its old name and its land types.", []),
        ("Land type changing effects apply in layer 4.", ["305.7"]),
        ("Type-changing effects apply in layer 4.", ["205.1a"]),
        # 613.4b and 613.4c: the sublayers of power and toughness
        (
            "Effects that modify a creature's power and/or toughness, such as the effect of "
            "Giant Growth, will apply to the creature no matter when they started to take effect.",
            ["613.4c"],
        ),
        (
            "It will override any effects that set its power and/or toughness to another number.",
            ["613.4b"],
        ),
        ("Its power and/or toughness can't be less than 0.", []),
        # 608.2n: an instant or sorcery goes to its owner's graveyard as it resolves
        (
            "If you gain control of an instant or sorcery spell, it will be put into its owner’s "
            "graveyard as it resolves.",
            ["608.2n"],
        ),
        (
            "The last thing that happens to a resolving instant or sorcery spell is that it’s "
            "put into its owner’s graveyard.",
            ["608.2n"],
        ),
        (
            "If you cast an instant card this way, it will go to your graveyard after it resolves.",
            ["608.2n"],
        ),
        ("If the instant is countered, it's put into its owner's graveyard.", []),
        # 104.4a: the game is a draw (a tie, not a card drawn)
        ("If each player has fewer than seven cards, the game ends in a draw.", ["104.4a"]),
        ("If both players run out of cards during this effect, the game is a draw.", ["104.4a"]),
        ("If each player has 0 life after that, the game’s a draw.", ["104.4a"]),
        ("You choose a card to draw.", []),
        # 613.4d: switching power and toughness, as the layer's own words say it
        ("Switching a creature’s power and toughness twice returns it to normal.", ["613.4d"]),
        ("Effects that switch power and toughness apply last.", ["613.4d"]),
        ("The effect sets its power and toughness to 0/1.", []),
        # 612: changing the text of a spell is a text-changing effect
        # (and changing targets, 115.7, named on the way)
        ("Changing the text of a spell won't change its targets.", ["115.7", "612"]),
        ("The permanent will retain the text change until the effect wears off.", ["612"]),
        ("The text of the ability changes nothing.", []),
        # 729: a merged permanent, as rulings on mutate call it
        ("The merged creature has all abilities of each card.", ["729"]),
        ("The creature merged into a single name.", []),
        # 712 and 118.9 by their names in rulings
        ("The two cards will both return with their front faces up.", ["712"]),
        # 708: a spell cast face down, a permanent turned face down; not cards exiled face down
        ("It applies to creatures cast face down with it.", ["708"]),
        ("If it's turned face down, it loses its abilities.", ["708"]),
        ("You exile the cards face down.", ["406"]),
        ("X is 0 when you cast it without paying its mana cost.", ["118"]),
        # 113.6: where an ability functions
        ("The type-changing ability functions only on the battlefield.", ["113.6"]),
        ("Its last ability functions only while it is on the battlefield.", ["113.6"]),
        ("The ability functions as long as you control a Forest.", []),
        # 608.2b where a legal target is checked as the spell resolves (as it is chosen: 115, which
        # this vocabulary lacks)
        ("If it isn't a legal target as the spell tries to resolve, it won't.", ["608.2b"]),
        # (not 608.2b; changing a target is 115.7's)
        ("If you change a target, you must choose a legal target.", ["115.7"]),
        ("The division involves only targets that are still legal as it resolves.", ["608.2b"]),
        ("The target is legal only if it's a creature.", []),
        # 502 and 504: the untap and draw steps' turn-based actions
        (  # the active player's own link is this vocabulary's 101.4
            "Those creatures untap at the same time as the active player’s permanents.",
            ["101.4", "502"],
        ),
        ("The ability triggers after you have already drawn your card for the turn.", ["504"]),
        ("You draw a card at the beginning of the turn.", []),
        # 105: colorless is no color (the glossary's own sentence)
        ("Colorless is not a color.", ["105"]),
        ("It's colorless.", []),
        ("“Gold,” “multicolor,” and “colorless” aren’t colors.", ["105"]),
        # 508.4: a creature put onto the battlefield attacking
        (
            "If a creature is put onto the battlefield attacking, you choose what it attacks.",
            ["508.4"],
        ),
        (
            "Although the tokens enter the battlefield tapped and attacking, nothing triggers.",
            ["508.4"],
        ),
        ("The creature attacking you enters the battlefield.", []),
        # 509.1h: a blocked creature stays blocked
        ("Any attacking creature it was blocking remains blocked.", ["509.1h"]),
        # (and turning face up, 708, named on the way: a related rule)
        ("If it's blocked and then turned face up, it stays blocked.", ["509.1h", "708"]),
        ("It can't be blocked by more than one creature.", []),
        # 121.4: drawing from an empty library
        ("If a player draws more cards than are left in their library, they lose.", ["121.4"]),
        ("You'll lose only if you attempt to draw a card from an empty library.", ["121.4"]),
        ("You draw cards from the top of your library.", []),
        # 305.2 and 305.3: the land play
        ("You can play that land only if you haven't played a land yet that turn.", ["305.2"]),
        ("If it's a land, you can play it only if it's your turn.", ["305.3"]),
        ("You can cast it only if it's your turn.", []),
        ("Each land you played this game counts.", []),
        ("It's cumulative with other effects that let you play additional lands.", ["305.2"]),
        ("Having more than one means you can play an additional land for each one.", ["305.2"]),
        # 305.1: playing lands, which casting is not
        ("An effect that instructs you to cast a card doesn't allow you to play lands.", ["305"]),
        ("Lands you control have hexproof.", []),
        # 702.33: kicking a spell; "Swift Kick" is a card
        ("You can cast Everflowing Chalice without kicking it at all.", ["702.33"]),
        ("You can't cast Swift Kick unless you target both creatures.", ["601.2c"]),
        # 704.5n: an Equipment attached illegally becomes unattached
        (
            "If an Equipment attached to a creature becomes a creature, it becomes unattached.",
            ["704.5n"],
        ),
        # 701.23b: a search may find fewer cards
        ("You can find fewer Plains cards than the difference.", ["701.23"]),
        # 508.5: which player an attacking creature's "defending player" is
        (
            "If a creature is attacking a planeswalker, the controller of the planeswalker is the "
            "defending player.",
            ["508.5"],
        ),
        # 608.2b: a target no longer legal as the spell or ability resolves
        (
            "If the target of Traveling Minister's activated ability isn't legal as it tries to "
            "resolve, you won't gain life.",
            ["608.2b"],
        ),
        # 106.1a and 106.7: the colors of mana, what a land could produce
        ("The colors of mana are white, blue, black, red, and green.", ["106.1a"]),
        ("Take into account what colors of mana your opponents' lands could produce.", ["106.7"]),
        ("It produces one mana of any color.", []),
        # 604.3: a characteristic-defining ability as rulings describe it
        (
            "The ability that defines Rubblehulk's power and toughness works in all zones.",
            ["604.3"],
        ),
        # 608.2: nothing happens between a resolving spell's steps
        ("Nothing can happen between the two, and no player may choose to act.", ["608"]),
        ("No player may take actions between the two steps of its ability.", ["608"]),
        # 708: turning a permanent face up or face down, the permanent named in between
        ("Turning a permanent face up or face down doesn't change whether it's tapped.", ["708"]),
        # 115.7: changing targets
        ("Triggers on a spell or ability being changed to target this card.", ["115.7"]),
        ("The copy targets the same creature.", []),
        # 601.2i: the end of casting a spell
        ("Its ability triggers once you've completed casting a spell.", ["601.2i"]),
        ("You complete the first chapter.", []),
        # 800.4a: a player leaving the game
        (
            "If you leave the game while controlling permanents owned by other players, those "
            "permanents are exiled.",
            ["406", "800.4a"],
        ),
        ("The card leaves the game with its owner.", []),
        # 201.4: choosing a card name, or naming a card
        ("You can name any card, even if that card doesn't normally have an ability.", ["201.4"]),
        ("You can choose any card name.", ["201.4"]),
        ("The card named Lightning Bolt is an instant.", []),
        # 601.2c: a spell that can't be cast without its targets
        ("You must be able to target a creature to cast Dramatic Rescue.", ["601.2c"]),
        (
            "You can't cast Hunt the Weak unless you choose both a creature you control and a "
            "creature you don't control.",
            ["601.2c"],
        ),
        ("You need to choose the name of a card anyone intends to cast.", []),
        # 106.12: tapping a permanent for mana, the permanent named in between
        ("The opponent can tap their lands for mana in response.", ["106.12"]),
        ("Tap an untapped creature you control: add one mana.", []),
        # 307.1: a sorcery's timing
        (
            "For instance, you can cast a sorcery using flashback only when you could normally "
            "cast a sorcery.",
            ["307.1"],
        ),
        ("You may cast a sorcery this way.", []),
        # 120.3: the results of damage
        (
            "Its ability doesn't prevent damage. Rather, it changes the results of that damage.",
            ["120.3"],
        ),
        ("As a result, the damage is dealt to you.", []),
        # 506.4: staying in combat until removed from it
        (
            "If that planeswalker leaves the battlefield, the creature continues to attack.",
            ["506.4"],
        ),
        ("It will continue to block.", ["506.4"]),
        ("The creature can't attack or block.", []),
        # and a creature that returns is out of combat
        ("It won’t be in combat or have any additional abilities.", ["506.4"]),
        ("It can regenerate even if it isn’t in combat.", []),
        # 722: controlling a player, said of any player
        ("You could gain control of yourself, but it doesn't do anything.", ["722"]),
        ("You only control the player, not that player's permanents.", ["722"]),
        ("If it's under the control of another player, it stays.", []),
        ("You gain control of another player's creature.", []),
        # 109.5: who "you" is
        ("The “you” in that ability refers to its controller.", ["109.5"]),
        (
            "If the copy says that it affects “you,” it affects the controller of the copy.",
            ["109.5"],
        ),
        ("You control the ability.", []),
        # 601.2d: each target of a division gets at least one
        ("Each target must be assigned at least 1 damage.", ["601.2d"]),
        ("Each target creature must be assigned at least one counter.", ["601.2d"]),
        ("Each target you choose must be assigned at least 1 damage.", ["601.2d"]),
        ("The target must be a creature.", []),
        ("Each target creature must be an artifact at least once.", []),
        # 106.6: restrictions on spending mana
        ("It doesn't care about any restrictions or riders a land puts on the mana.", ["106.6"]),
        ("There are no restrictions on which creatures can block.", []),
        # 601.2f: cost reductions apply to the total cost (118, Costs, by the word cost)
        ("The cost reduction can apply to alternative costs.", ["118", "601.2f"]),
        ("This can lower the cost to zero, but not below zero.", ["118", "601.2f"]),
        ("Cost reductions don't affect a spell's mana value.", ["118"]),
        ("Cost reductions won't change whether or not it triggers.", ["118"]),
        # 113.6: where an ability works
        ("Shroud only works while it is on the battlefield.", ["113.6"]),
        ("The last ability only works when Ground Seal is on the battlefield.", ["113.6"]),
        ("The Magus’s abilities work only while it’s on the battlefield.", ["113.6"]),
        ("Gaea’s Revenge’s first ability works only while it’s a spell on the stack.", []),
        # 113.7: the source of an ability
        ("The equipped creature is the source of the activated ability.", ["113.7"]),
        ("The creature is the source of the damage.", []),
        # 105.2c: an object with no color
        ("Like most lands, each land in this cycle is colorless.", ["105"]),
        ("A land card that produces green mana, even a Forest, normally has no color.", ["105"]),
        ("The mana can’t be colorless.", []),
        ("If you cast a colorless spell, it triggers.", []),
        ("Its commander has no colors in its color identity.", []),
        # 611.3a and 611.2c: an effect constantly updated
        ("The bonus granted by Bearded Axe is constantly updated.", ["611.3"]),
        (
            "Because the effect doesn’t change the characteristics of any permanents, the set of "
            "creatures affected is constantly updated.",
            ["611.2"],
        ),
        # 205.3i: the land types
        ("Corrupt counts any land you control with the subtype Swamp.", ["205.3i"]),
        ("Gate is not a basic land type.", ["205.3i"]),
        ("Desert is a land subtype with no special meaning.", ["205.3i"]),
        ("It checks for lands with the land type Mountain.", ["205.3i"]),
        ("It now has the land type Swamp.", []),
        ("Choose a subtype of creature.", []),
        # 705: a coin flip; 701.20a: a card that stays revealed
        ("This coin flip has no winner or loser.", ["705"]),
        ("You don’t flip the coin until the ability resolves.", ["705"]),
        ("The two revealed cards stay revealed until the ability resolves.", ["701.20"]),
        ("Reveal the top card of your library.", []),
        # 601.2c for an activated ability too
        ("You must be able to target a card in a graveyard to activate its ability.", ["601.2c"]),
        # 514.2, 704.5g: marked damage removed as the turn ends, lethal once toughness falls
        (
            "Because damage remains marked on a creature until it’s removed as the turn ends, "
            "nonlethal damage dealt to it may become lethal if Avacyn leaves the battlefield.",
            ["514.2", "704.5g"],
        ),
        (
            "If this causes a creature’s toughness to become less than or equal to the amount of "
            "damage marked on it, the creature will be destroyed.",
            ["704.5g"],
        ),
        ("The damage is marked on the creature.", []),
        # 404.2: a graveyard's order; 110.4: the permanent types
        ("Players may not rearrange the cards in their graveyards.", ["404.2"]),
        ("You may put the cards into your graveyard in any order.", []),
        ("The permanents have to share a permanent type.", ["110.4"]),
        # 604.3: a characteristic-defining ability, however the ruling says it works everywhere
        ("The ability that adds creature types to it applies in all zones.", ["604.3"]),
        # 113.7a: an ability resolves though its source has left the battlefield
        (
            "If it leaves the battlefield before its ability resolves, the ability will still "
            "resolve.",
            ["113.7a"],
        ),
        (
            "If it leaves the battlefield before its triggered ability resolves, the creature it "
            "enchanted will fight if it’s still on the battlefield.",
            [],
        ),
        # 107.1b: negative values
        ("If this creature’s power is negative as its ability resolves, X is 0.", ["107.1b"]),
        ("You can have a negative life total while Lich is on the battlefield.", ["107.1b"]),
        ("It won’t cost negative amounts of mana.", ["118"]),
        # 305.4: putting a land onto the battlefield
        (
            "Putting a land onto the battlefield this way is not the same as playing a land.",
            ["305.4"],
        ),
        # 305.2: the land play, as a noun or counted per turn
        ("If one is a land, you can’t play it unless you have land plays available.", ["305.2"]),
        ("You can still play only one land per turn.", ["305.2"]),
        ("You can play one of those lands.", []),
        # 106.1b: the types of mana
        ("The types of mana are white, blue, black, red, green, and colorless.", ["106.1b"]),
        ("Spend mana of any type.", []),
        # 608.2n: this card, not in the graveyard while it resolves
        (
            "This card won’t be put into your graveyard until after it’s finished resolving.",
            ["608.2n"],
        ),
        (
            "At the time this spell is resolving, it is on the stack and not in the graveyard.",
            ["608.2n"],
        ),
        # 506.4b: what does not remove a creature from combat, the creature named in between
        ("Tapping them doesn’t remove those creatures from combat.", ["506.4"]),
        # 508.1d, 509.1c: requirements
        ("It must attack the chosen player if able.", ["508.1d"]),
        ("All creatures able to block it must be blocked if able.", ["509.1c"]),
        ("As the ability resolves, you must sacrifice a creature if able.", []),
        # 404.3: cards put into one graveyard at the same time
        ("You decide the order they’re put into your graveyard.", ["404.3"]),
        # 118.12: a payment chosen as the ability resolves; 608.2h for the choice "on resolution"
        (
            "You choose whether to pay {2} or not on resolution.",
            ["118.12", "608.2h"],
        ),
        ("You don’t choose whether to pay until the ability resolves.", ["608.2h"]),
        ("You decide on resolution whether or not to tap the creature.", ["608.2h"]),
        ("Its last existence on the battlefield is checked to determine it.", ["608.2h"]),
        # 202.3e: {X} in a mana cost off the stack; not an X a resolving ability counts
        ("If a card in your hand has {X} in its mana cost, X is considered to be 0.", ["202.3e"]),
        ("If its power is negative as the ability resolves, X is considered to be 0.", ["107.1b"]),
        ("If the mana cost of a permanent includes {X}, that X is considered to be 0.", ["202.3e"]),
        # 609.4b: mana spent as though it were another
        ("You may spend mana “as though it were mana” of any color.", ["609.4b"]),
        # 611.2: a control-change effect's duration, not a player leaving the game
        ("If it leaves the battlefield, its control-change effect ends.", ["611.2"]),
        ("If you leave the game, those control-changing effects end.", ["800.4a"]),
        # 500.8: phases added to a turn; 509.1a: who chooses the blockers
        ("It creates an additional combat and main phase if it resolves then.", ["500.8"]),
        ("The defending player, not you, chooses which creature blocks it.", ["509.1a"]),
        ("You choose which creature it blocks.", []),
        # 405.5: the top of the stack resolves first; not which of two triggers resolves first
        ("Its ability resolves before the spell that caused it to trigger.", ["405.5"]),
        ("The nonactive player's ability will resolve first.", []),
        # 615.12, 701.10d, 508.1b, 603.10a, 704.3
        ("Its effect causes damage from all sources to be unpreventable.", ["615.12"]),
        ("To double a player’s life total, that player gains life.", ["701.10d"]),
        ("You still decide which player or planeswalker the creature attacks.", ["508.1b"]),
        ("If Omnath dies at the same time as other Elementals, it triggers.", ["603.10a"]),
        ("You lose the game before its last ability goes on the stack.", ["704.3"]),
        # 612.2: card names unchanged; 613.11: effects on the game's rules
        ("You can’t change proper nouns (i.e. card names).", ["612.2"]),
        ("If multiple effects modify your hand size, apply them in timestamp order.", ["613.11"]),
        # 607, 303.4f, 201.5
        ("Its first and third abilities are linked.", ["607"]),
        ("An Aura put onto the battlefield this way doesn’t target anything.", ["303.4f"]),
        ("If it references the card it’s printed on by name, treat it so.", ["201.5"]),
        # 113.3: the categories of abilities told apart
        ("This is a triggered ability, not an activated ability.", ["113.3"]),
    ],
)
def test_described_rules(vocab, text: str, expected: list[str]) -> None:
    assert targets(vocab, text) == expected


@pytest.mark.parametrize(
    ("text", "rule", "linked"),
    [
        # 614.10: skipping a step, phase or turn; not going on to a later step
        (
            "If an effect causes the enchanted player to skip their upkeep step, it won’t trigger.",
            "614.10",
            True,
        ),
        ("Once a combat phase starts, it can’t be skipped.", "614.10", True),
        ("The game skips straight to the cleanup step.", "614.10", False),
        ("You can’t assign some damage to one blocker then skip other blockers.", "614.10", False),
        # 118.9c: an alternative cost; not a cost increased or reduced (601.2f)
        ("Casting a spell for its madness cost doesn’t change its mana cost.", "118.9c", True),
        (
            "When you cast a spell by paying its evoke cost, its mana cost doesn’t change.",
            "118.9c",
            True,
        ),
        (
            "It increases the total cost to cast it but doesn’t change its mana cost.",
            "118.9c",
            False,
        ),
        # 726.1: a restarted game
        ("No actions taken in the game that was restarted apply to the new game.", "726.1", True),
        # 101.2: a spell that can't be countered targeted by a counterspell
        ("A spell that can’t be countered is a legal target for Absorb.", "101.2", True),
        ("This spell can’t be countered.", "101.2", False),
        # 302.1: a creature spell's timing; not a creature cast as a sorcery (307.1)
        (
            "If it’s a creature card, you can cast it only during your main phase.",
            "302.1",
            True,
        ),
        ("You can cast it only at the normal time you could cast a creature spell.", "302.1", True),
        (
            "If you could cast that creature spell only when you could cast a sorcery, so too.",
            "302.1",
            False,
        ),
        # 608.2c: instructions in the order written; 722.6: no concession forced
        ("Follow the instructions in the order listed on the card.", "608.2c", True),
        ("You can’t make the affected player concede.", "722.6", True),
        ("You can’t activate its {Q} ability if it’s untapped.", "107.6", True),
        # 205.3i: a land type had; gaining one is 305.7's
        ("You can find nonbasic lands if they have the Plains land type.", "205.3i", True),
        ("Urza’s Saga has the Urza’s land type.", "205.3i", True),
        ("The player may concede at any time.", "722.6", False),
        # 704.5b: drawing from an empty library loses the game
        ("You won’t lose the game until you try to draw from the empty library.", "704.5b", True),
        ("If your library is empty, you can’t draw a card.", "704.5b", False),
    ],
)
def test_described_rule_beside_others(vocab, text: str, rule: str, linked: bool) -> None:
    """A rule described among the links the other evidence gives (a verb, a cost)."""
    assert (rule in targets(vocab, text)) is linked


def test_intervening_if_needs_the_cards_wording(vocab) -> None:
    """603.4 where the card's trigger has an intervening "if" and the ruling says it won't
    trigger or checks the condition; not on a card without that wording."""
    ruling = "If you don’t control a black permanent then, its ability doesn’t trigger."
    strix = "When this creature enters, if you control a black permanent, target player loses 2."
    plain = "When this creature enters, target player loses 2 life."
    assert targets(vocab, ruling, strix) == ["603.4"]
    assert targets(vocab, ruling, plain) == []
    assert targets(vocab, "The player loses 2 life as it resolves.", strix) == []
    # what state-based actions check is theirs, not the trigger's condition
    sba = "The copy ceases to exist the next time state-based actions are checked."
    assert "603.4" not in targets(vocab, sba, strix)


def test_division_of_damage_on_a_spell(vocab) -> None:
    """601.2d: a spell's division of damage is announced as it is cast; on a card whose
    dividing line is an activated or triggered ability, 602.2b or 603.3d apply instead."""
    ruling = "You can’t change the division of damage."
    spell = "This spell deals 5 damage divided as you choose among one or two targets."
    ability = "{R}, {T}: This deals 2 damage divided as you choose among one or two targets."
    trigger = (
        "When this enters, it deals 4 damage divided as you choose among any number of targets."
    )
    assert targets(vocab, ruling, spell) == ["601"]
    assert targets(vocab, ruling, ability) == []
    assert targets(vocab, ruling, trigger) == []


def test_described_rules_are_english_only() -> None:
    from kb.links.term_vocabulary import translated_vocabulary

    english = english_vocabulary(RULES, GLOSSARY)
    french = translated_vocabulary("fr", english, {})
    assert implied_matches(french, "Cet effet n’a pas de durée, no duration.", []) == []


def _shown_by_sentence(k: int, text: str) -> tuple[int, int] | None:
    """Where description k first shows, looked for sentence by sentence only."""
    description = DESCRIPTIONS[k]
    for sentence in _SENTENCE.finditer(text):
        shown = description.shown.search(sentence.group())
        if shown and _with(description, sentence.group()):
            return sentence.start() + shown.start(), sentence.start() + shown.end()
    return None


def test_a_description_nowhere_in_a_text_is_in_none_of_its_sentences() -> None:
    """kb.links.described._shown looks in the whole text first: a pattern that matches in a
    sentence matches the whole text at the same place, as no pattern reads the start or end of
    its string (no anchor, no look-behind) and sentences end at their stop."""
    for description in DESCRIPTIONS:
        pattern = re.sub(r"\[\^", "[", description.shown.pattern)
        assert not any(x in pattern for x in ("^", "$", "(?<", "\\A", "\\Z")), pattern
        assert not description.shown.flags & (re.MULTILINE | re.DOTALL)
    texts = [
        "If an instant is put into its owner's graveyard as it resolves, it's gone. Costs less!",
        "Switch its power and toughness. Then it can't be regenerated? It costs {1} less",
        "The game is a draw.As Aura resolves, choose. in order to win",
        "Exile it face down! 1.5 in order",
    ]
    for text in texts:
        shown = Shown(text)
        for k in range(len(DESCRIPTIONS)):
            assert shown.at(k) == _shown_by_sentence(k, text), (k, text)

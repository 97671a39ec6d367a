"""Language data for term links: stopwords, inflection fixes, basic concepts and aliases.

Kept apart from the matcher so that a translator or a rules expert can review it as data. The
concepts named here are English glossary terms or rule titles: an alias never carries a rule
number, so it follows the rule through every edition's renumbering.
"""

from __future__ import annotations

# Words skipped when comparing phrases ("the Ring tempts you" ~ "the Ring can't tempt you").
STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        "a an the of to you your yours they them their it its this that these those is are be "
        "been was were will would can could may might must should do does did don doesn didn "
        "won isn aren wasn weren hasn haven hadn couldn wouldn shouldn t s ll re ve d m "
        "not no".split()
    ),
    "fr": frozenset(
        "le la les l un une des du de d au aux à a vous votre vos te ton ta tes se sa son ses "
        "leur leurs il elle ils elles qu que qui ce cet cette ces est sont être sera peut "
        "doit ne pas n y".split()
    ),
    "es": frozenset(
        "el la los las lo un una unos unas de del al a te tu tus su sus se le les que es son "
        "ser será puede debe no".split()
    ),
}

# Conjunctions end a phrase: "spell or ability" is not the glossary's "Spell Ability".
CONJUNCTIONS: dict[str, frozenset[str]] = {
    "en": frozenset({"and", "or", "nor"}),
    "fr": frozenset({"et", "ou", "ni"}),
    "es": frozenset({"y", "e", "o", "u", "ni"}),
}

# Irregular forms a stemmer cannot relate to their headword (after folding to lower case).
IRREGULAR: dict[str, dict[str, str]] = {
    "en": {
        "foretold": "foretell",
        "dealt": "deal",
        "chose": "choose",
        "chosen": "choose",
        "dies": "die",
        "died": "die",
        "dying": "die",
        "drawn": "draw",
        "drew": "draw",
        "fought": "fight",
        # "l" is not doubled in "called", "spelled"; it is in the keyword action 701.25 Surveil.
        "surveilled": "surveil",
        "surveilling": "surveil",
    },
    "fr": {},
    "es": {},
}

# Game objects and places: every ruling names them, and a ruling about "the creature" is about
# that card, not about rule 302, so their rules are never linked. (Specific phrases built on
# them, like "illegal target", "mana ability" or "delayed triggered ability", are still linked.)
# With them, verbs rulings use in their everyday sense (create, choose, move, pay, reveal,
# respond, attach, and the tapped/untapped status): on the dev split and the tuned-on rulings,
# none of them was ever what a ruling was about, and each was linked wrongly.
GAME_NOUNS: frozenset[str] = frozenset(
    """
    ability card player creature permanent spell object turn game battlefield graveyard library
    hand zone command mana color colorless land artifact enchantment instant sorcery
    planeswalker battle kindred owner control controller opponent team teammate effect
    name type if unless instead during becomes option status step phase speed
    level map door lock locked room visit case class match tournament plane legend world event
    restriction requirement move choose create tapped untapped respond attach reveal pay
    """.split()
) | {
    "text box",
    "counts as",
    "face up",
    "face down",
    "in response to",
    "enters the battlefield",
    "leaves the battlefield",
    "artifact land",
    "artifact creature",
}

# General actions and notions of the game: a ruling mentions them on the way all the time ("you
# may cast it", "the spell resolves"), so they are linked only where the ruling is about them
# (see kb.links.about: quoted, the subject of a clause, what a modal or passive verb says can or
# can't happen, or "for more information about"). Procedure verbs (cast, activate, attack,
# block) are here for the same reason, and the characteristics and the stack, which a ruling
# names on the way as often as it is about them (*removes supertypes*, *affect a creature's
# power*, *on the stack on top of that spell*), and the word characteristics itself (109.3),
# which rulings say on the way (*copies the original characteristics of that token*, *a card
# with certain characteristics*) far more often than they say what it is. Land types and
# creature types too (305.6, 305.7, 205.3: effects set and remove them; *loses its land types*,
# *doesn't affect its creature types*).
GENERAL_CONCEPTS: frozenset[str] = frozenset(
    """
    exile damage deal counter cost double triple draw discard destroy tap untap search
    shuffle play token target day night sacrifice resolve skip
    cast activate attack block subtype supertype power toughness stack characteristics
    """.split()
) | {"card type", "draw a card", "mana cost", "land type", "creature type", "permanent card"}

# Glossary terms for a kind of a broader term whose rules govern them, though the glossary cites
# others first: a creature type is a subtype (205.3; 205.3m lists them), which the glossary's
# "Creature Type" says before citing 302 "Creatures", whose 302.3 only names them and sends back
# to 205.3m; so do the rules of artifacts, enchantments, planeswalkers, instants and sorceries
# for their subtypes. Not land types: 305.6 and 305.7 govern them.
KINDS_OF: dict[str, str] = {
    "Creature Type": "Subtype",
    "Artifact Type": "Subtype",
    "Enchantment Type": "Subtype",
    "Planeswalker Type": "Subtype",
    "Spell Type": "Subtype",
}

# Glossary terms whose entry cites first a rule that only uses the term, then the rule that says
# what it is: that rule, named by its own words (a RULE_STATEMENTS phrase). "Lethal Damage"
# cites 120.4a (excess damage is the amount greater than lethal damage), then 120.6 (the total
# damage marked on a creature "greater than or equal to its toughness ... has been dealt lethal
# damage"); every labels file that labels the concept says 120.6. Its statements name rules as
# RULE_STATEMENTS' do.
DEFINED_AT: dict[str, str] = {
    "Lethal Damage": "that creature has been dealt lethal damage",
}

# Rules without a title or glossary term of their own, named by a phrase of their own body (the
# first rule, in rule order, whose body holds it), which follows them through renumbering; the
# phrase is the concept's name (kb.links.described matches the wording that applies them).
RULE_STATEMENTS: tuple[str, ...] = (
    "an effect requires information from the game",  # 608.2h, last known information
    "moves from one zone to another becomes a new object",  # 400.7
    "generated by the resolution of a spell or ability",  # 611.2, durations
    "may be generated by the static ability of an object",  # 611.3
    "follows its instructions in the order written",  # 608.2c
    "exists on the stack independently of its source",  # 113.7a
    "sets a land's subtype to one or more of the basic land types",  # 305.7
    "allows a player to cast a spell during resolution",  # 608.2g
    "is an illegal target for itself",  # 115.5
    "final part of an instant or sorcery spell's resolution",  # 608.2n
    "lose simultaneously, the game is a draw",  # 104.4a
    "switch a creature's power and toughness",  # 613.4d, layer 7d
    "effects that set power and/or toughness to a specific number or value are applied",  # 613.4b
    "effects and counters that modify power and/or toughness (but don't set",  # 613.4c, layer 7c
    "usually function only while that object is on the battlefield",  # 113.6
    "some effects may increase or reduce the cost to pay",  # 601.2f, the total cost
    "on an object refer to the object's controller",  # 109.5, who "you" is
    "each of these targets must receive at least one of whatever is being divided",  # 601.2d
    "abilities that produce mana restrict how that mana can be spent",  # 106.6
    "may arrange them in any order",  # 401.4, cards put on top or bottom of a library together
    "in a zone other than the battlefield ceases to exist",  # 111.7, a token that leaves it
    "announces their choice of an appropriate object or player for each target",  # 601.2c
    "process for putting a triggered ability on the stack",  # 603.3d, its targets and division
    "an aura's controller is separate from the enchanted object's controller",  # 303.4e
    "its controller chooses which defending player",  # 508.4, put onto the battlefield attacking
    "becomes a blocked creature",  # 509.1h, a blocked creature stays blocked
    "attempts to draw a card from a library with no cards in it",  # 121.4, an empty library
    "can normally play one land during their turn",  # 305.2, the land play
    "can't play a land, for any reason, if it isn't their turn",  # 305.3
    "damage may have one or more of the following results",  # 120.3, what damage does
    "has both a +1/+1 counter and a -1/-1 counter on it",  # 122.3 (704.5q, its state-based action)
    "may cast a sorcery card from their hand during a main phase",  # 307.1, sorcery timing
    "is to activate a mana ability of that permanent",  # 106.12, tapping a permanent for mana
    "instructs a player to choose a card name",  # 201.4, naming a card
    "owned by that player leave the game",  # 800.4a, a player leaving a multiplayer game
    "then the spell becomes cast",  # 601.2i, the end of casting a spell
    "allow a player to change the target(s) of a spell or ability",  # 115.7
    "there are five colors of mana",  # 106.1a
    "it becomes unattached from that permanent or player",  # 704.5n
    "the defending player it's referring to is the player that creature is attacking",  # 508.5
    "this isn't the same as “playing a land”",  # 305.4, putting a land onto the battlefield
    "these subtypes are called land types",  # 205.3i, the land types
    "all damage marked on permanents",  # 514.2, damage removed in the cleanup step
    "has toughness greater than 0, it has damage marked on it",  # 704.5g, lethal damage destroys
    "possible for a game value, such as a creature's power, to be less than zero",  # 107.1b
    "normally can't change their order",  # 404.2, a graveyard's order
    "there are six permanent types",  # 110.4
    "could produce at any time includes",  # 106.7, what a land "could produce"
    "there are six types of mana",  # 106.1b
    "puts two or more cards into the same graveyard at the same time",  # 404.3
    "effects that say a creature attacks if able",  # 508.1d, requirements on attacks
    "effects that say a creature must block",  # 509.1c, requirements on blocks
    "is a cost, paid when the spell or ability resolves",  # 118.12
    "x is treated as 0 while the object is not on the stack",  # 202.3e
    "as though it were mana of any",  # 609.4b
    "there are four general categories of abilities",  # 113.3
    "some effects can add phases to a turn",  # 500.8
    "the top (last-added) spell or ability on the stack resolves",  # 405.5
    "some effects state that damage “can't be prevented.”",  # 615.12
    "to double a player's life total",  # 701.10d
    "announces which player, planeswalker, or battle each of the chosen creatures is",  # 508.1b
    "some zone-change triggers look back in time",  # 603.10a
    "the game checks for any of the listed conditions for state-based actions",  # 704.3
    "by any means other than by resolving as an aura spell",  # 303.4f
    "text that refers to the object it's on by name",  # 201.5
    "a player is “poisoned” if",  # 122.1f
    "a text-changing effect changes only those words that are used in the correct way",  # 612.2
    "some continuous effects affect game rules rather than objects",  # 613.11
    "the defending player chooses which creatures they control, if any, will block",  # 509.1a
    "an effect that causes a player to skip an event, step, phase, or turn is a replacement"
    " effect",  # 614.10
    "an alternative cost doesn't change a spell's mana cost",  # 118.9c
    "a game that is restarted immediately ends",  # 726.1
    "attempted to draw a card from a library with no cards in it",  # 704.5b
    "may cast a creature card from their hand during a main phase",  # 302.1
    "the untap symbol is {q}",  # 107.6
    "the controller of another player can't make that player concede",  # 722.6
    "another effect states that it can't happen, the “can't” effect takes precedence",  # 101.2
)

# Extra names of a concept, per language: phrase -> English glossary term or rule title.
ALIASES: dict[str, dict[str, str]] = {
    "en": {
        # 714.3: Sagas count their chapters with lore counters.
        "lore counter": "Saga",
        # Triggered abilities (603.6a, 603.10a); the events alone are too common to link.
        "enters-the-battlefield ability": "Handling Triggered Abilities",
        "leaves-the-battlefield ability": "Leaves the Battlefield",
        # The glossary's own first sense of "Play" (116, 305).
        "play a land": "Lands",
        # Ability words of the voting cards (Conspiracy): no rules meaning of their own.
        "will of the council": "Vote",
        "council's dilemma": "Vote",
        # A legal target is what a player chooses (115); as a spell resolves, 608.2b checks that
        # its targets still are (kb.links.described, where the sentence says it resolves).
        "legal target": "Target",
        # Cards that care about drafting exist only for Conspiracy Draft (rule 905).
        "draft": "Conspiracy Draft",
        # 729: a merged permanent is a creature in every ruling on mutate.
        "merged creature": "Merged Permanent",
        # 712: the faces of a double-faced card ("return with their front faces up").
        "front face": "Double-Faced Cards",
        "back face": "Double-Faced Cards",
        # 612: "changing the text of a spell", "the text change": the glossary's Text-Changing
        # Effect in the words rulings of text-changing cards use (Magical Hack, Sleight of Mind).
        "change text": "Text-Changing Effect",
        "text change": "Text-Changing Effect",
        # 305.7: a type-changing effect (205.1) on a land's subtypes is the rule on setting them.
        "land type-changing effect": "sets a land's subtype to one or more of the basic land types",
        # 708: a spell cast face down, a permanent turned face down (morph, manifest, disguise),
        # which "face down" alone does not name: cards are exiled face down too (406.3).
        "cast face down": "Face-Down Spells and Permanents",
        "turn face down": "Face-Down Spells and Permanents",
        # and turned face up again (708.8, its copiable values revert): "face up" alone is how
        # cards are exiled or revealed
        "turn face up": "Face-Down Spells and Permanents",
        # 701.19c: what regenerating a permanent uses up, by the name the rule and rulings give it;
        # and the noun of the action (*Regeneration won't save it*), which the stemmer keeps apart.
        "regeneration shield": "Regenerate",
        "regeneration": "Regenerate",
        # 511.2: "at end of combat" is the end of combat step, whose glossary name has "step".
        "end of combat": "End of Combat Step",
        # 702.34: a card "flashed back" was cast with flashback; that verb is no Flash (702.8).
        "flash back": "Flashback",
        # 508.1, 509.1: the declaration of attackers (or of blockers) is declaring them, which
        # the glossary names as a verb and its object.
        "declaration of attackers": "Declare Attackers",
        "declaration of blockers": "Declare Blockers",
        # 715.2a, 715.3: the rules name an adventurer card's inset spell an Adventure (*cast as an
        # Adventure*, *has an Adventure*), which the glossary lists only as Adventurer Card.
        "Adventure": "Adventurer Card",
        # 118.7a: cost reductions affect "only the generic mana component" of a cost, which
        # rulings call its generic component or portion: generic mana (107.4b).
        "generic component": "Generic Mana",
        "generic portion": "Generic Mana",
        # 118.9: "You may cast [this object] without paying its mana cost" is an alternative cost.
        "without paying mana cost": "Alternative Cost",
    },
    # French and Spanish: only what the card translations cannot teach. Keyword abilities and
    # actions come from kb.links.learned (the terms kb.terminology learns from Wizards' card
    # translations); what is left here is, per entry:
    # - game concepts that are no keyword, so the aligner never learns them (it learns 701.x and
    #   702.x titles and MTGJSON keywords only): rule titles and glossary terms as the French and
    #   Spanish rulings and cards word them;
    # - other names or forms of a keyword than its learned term, said entry by entry.
    "fr": {
        # 701.38 Vote: the learned term is a conjugated form; rulings say the noun and the verb.
        "vote": "Vote",
        "voter": "Vote",
        # 701.54: the phrase is a sentence, longer than the aligner's n-grams of one line part.
        "l'Anneau vous tente": "The Ring Tempts You",
        # Glossary terms, no keywords: never learned.
        "porteur de l'Anneau": "Ring-bearer",
        "emblème": "Emblem",
        "saga": "Saga",
        "marqueur histoire": "Saga",
        "capacité de chapitre": "Saga",
        "action basée sur un état": "State-Based Actions",
        "monarque": "Monarch",
        "copie": "Copy",
        "cible illégale": "Illegal Target",
        "capacité déclenchée": "Triggered Ability",
        "capacité déclenchée retardée": "Delayed Triggered Ability",
        "capacité activée": "Activated Ability",
        "capacité de mana": "Mana Ability",
        "effet de remplacement": "Replacement Effect",
        "valeur de mana": "Mana Value",
        "priorité": "Priority",
        "conspiration": "Conspiracy",
        "partie multijoueur": "Multiplayer Game",
        # Removed as wrong: "présage" for Foretell and "rempart" for Ward (the cards print
        # "prédiction" and "parade", which kb learns from them).
        # 701.19: the infinitive rulings use; cards print the imperative, too short-lived a form
        # in the learned term's n-grams to match it.
        "régénérer": "Regenerate",
        # The obsolete name of mana value (before 2021): on no keyword line, so never learned.
        "coût converti de mana": "Mana Value",
    },
    "es": {
        # 701.38 Vote: the learned term is a conjugated form; rulings say the noun and the verb.
        "votar": "Vote",
        "voto": "Vote",
        "votación": "Vote",
        # 701.54: the phrase is a sentence, longer than the aligner's n-grams of one line part.
        "el Anillo te tienta": "The Ring Tempts You",
        # Glossary terms, no keywords: never learned.
        "portador del Anillo": "Ring-bearer",
        "emblema": "Emblem",
        "saga": "Saga",
        "contador de historia": "Saga",
        "habilidad de capítulo": "Saga",
        "acción basada en estado": "State-Based Actions",
        "monarca": "Monarch",
        "copia": "Copy",
        "objetivo ilegal": "Illegal Target",
        "habilidad disparada": "Triggered Ability",
        "habilidad disparada retrasada": "Delayed Triggered Ability",
        "habilidad activada": "Activated Ability",
        "habilidad de maná": "Mana Ability",
        "efecto de reemplazo": "Replacement Effect",
        "valor de maná": "Mana Value",
        "prioridad": "Priority",
        "conspiración": "Conspiracy",
        "partida multijugador": "Multiplayer Game",
        # The verb rulings use; the cards print another form (learned: "mutación" for Mutate).
        "regenerar": "Regenerate",
        "mutar": "Mutate",
        # Removed as wrong: "custodia" for Ward (the cards print "rebatir", which kb learns).
        # The obsolete name of mana value (before 2021): on no keyword line, so never learned.
        "coste de maná convertido": "Mana Value",
    },
}

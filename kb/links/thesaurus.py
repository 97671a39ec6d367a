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
    hand stack zone command mana color colorless land artifact enchantment instant sorcery
    planeswalker battle kindred owner control controller opponent team effect power toughness
    name type subtype supertype if unless instead during becomes option status step phase speed
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
    "creature type",
    "land type",
}

# General actions and notions of the game: a ruling mentions them on the way all the time ("you
# may cast it", "the spell resolves"), so they are linked only where the ruling is about them
# (see kb.links.about: quoted, the subject of a clause, what a modal or passive verb says can or
# can't happen, or "for more information about"). Procedure verbs (cast, activate, attack,
# block) are here for the same reason.
GENERAL_CONCEPTS: frozenset[str] = frozenset(
    """
    exile damage deal counter cost double triple draw discard destroy tap untap search
    shuffle play token target day night sacrifice resolve skip
    cast activate attack block
    """.split()
) | {"card type", "draw a card", "mana cost"}

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
        # 608.2b checks whether targets are still legal: the same rule as "illegal target".
        "legal target": "Illegal Target",
        # Cards that care about drafting exist only for Conspiracy Draft (rule 905).
        "draft": "Conspiracy Draft",
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
        # The verb rulings use; the cards print another form (learned: "mutación" for Mutate).
        "regenerar": "Regenerate",
        "mutar": "Mutate",
        # Removed as wrong: "custodia" for Ward (the cards print "rebatir", which kb learns).
        # The obsolete name of mana value (before 2021): on no keyword line, so never learned.
        "coste de maná convertido": "Mana Value",
    },
}

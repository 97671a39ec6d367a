"""French: Snowball stemmer and stop words, elided articles, and the French -> English term bridge.

The bridge holds the game vocabulary as printed on French cards (``marqueur`` is a counter,
``engager`` is tap, ``sapience`` the lore counter), so that a French query also reaches the
rules and rulings that exist only in English.
"""

from __future__ import annotations

from whoosh.lang import stemmer_for_language, stopwords_for_language

from kb.search.lang import SearchLanguage, add_printed_names, verb_forms

# Forms of "avoir" in Whoosh's stop list that are also a card type here ("Aura").
_KEEP = frozenset({"aura", "auras"})

# Whoosh's French list lacks these (it has "le" and "la" but not "les"): without them "les"
# would be stemmed to "le" and searched. "Tout", "toutes"…: the English list drops "all" and
# "every", so "toutes les cibles" searched "tout" beside "target" where "all the targets" did
# not.
_MORE = frozenset(
    "les leurs cette ils elles celle celles celui ceux ceci cela ça dont où quoi quel quelle"
    " quels quelles si tout toute tous toutes".split()
)
QUESTION_WORDS = frozenset(
    "que qu quoi comment combien quand pourquoi est-ce passe passe-t-il arrive arrive-t-il"
    " faut faut-il peut peut-il peut-elle peuvent devient devient-il fait t il elle je fonctionne"
    " fonctionnent puis puis-je peux dois dois-je doit doit-il doivent signifie signifient"
    " qui où quel quelle quels quelles".split()
)

ELISIONS = frozenset("c d j l m n s t qu jusqu lorsqu puisqu quoiqu presqu".split())

TO_ENGLISH: dict[str, tuple[str, ...]] = {
    # objects, cards and zones
    "carte": ("card",),
    "sort": ("spell",),
    "créature": ("creature",),
    "artefact": ("artifact",),
    "enchantement": ("enchantment",),
    "terrain": ("land",),
    "rituel": ("sorcery",),
    "éphémère": ("instant",),
    "bataille": ("battle",),
    "champ": ("battlefield",),
    "permanent": ("permanent",),
    "jeton": ("token",),
    "emblème": ("emblem",),
    "neigeux": ("snow",),
    "neige": ("snow",),
    "équipement": ("equipment",),
    "véhicule": ("vehicle",),
    "aura": ("aura",),
    "saga": ("saga",),
    "bibliothèque": ("library",),
    "cimetière": ("graveyard",),
    "main": ("hand",),
    "exil": ("exile",),
    "pile": ("stack",),
    "commandement": ("command",),
    "zone": ("zone",),
    "donjon": ("dungeon",),
    "type": ("type",),
    "couleur": ("color",),
    "incolore": ("colorless",),
    "blanc": ("white",),
    "bleu": ("blue",),
    "noir": ("black",),
    "rouge": ("red",),
    "vert": ("green",),
    "nom": ("name",),
    "texte": ("text",),
    "copie": ("copy",),
    "face": ("face",),
    "recto": ("double-faced",),
    "verso": ("double-faced",),
    # numbers on a card
    "force": ("power",),
    "endurance": ("toughness",),
    "loyauté": ("loyalty",),
    "défense": ("defense",),
    "mana": ("mana",),
    "valeur": ("value",),
    "coût": ("cost",),
    "vie": ("life",),
    "blessure": ("damage",),
    "dégât": ("damage",),
    "marqueur": ("counter",),
    "compteur": ("counter",),
    "sapience": ("lore",),
    "chapitre": ("chapter",),
    # players and turns
    "joueur": ("player",),
    "adversaire": ("opponent",),
    "contrôleur": ("controller",),
    "propriétaire": ("owner",),
    "équipe": ("team",),
    "multijoueur": ("multiplayer",),
    "tour": ("turn",),
    "phase": ("phase",),
    "étape": ("step",),
    "début": ("beginning", "start"),
    "commencer": ("begin", "start"),
    "scindé": ("split",),
    "fin": ("end",),
    "entretien": ("upkeep",),
    "pioche": ("draw",),
    "nettoyage": ("cleanup",),
    "principale": ("main",),
    "combat": ("combat",),
    "priorité": ("priority",),
    "partie": ("game",),
    "mulligan": ("mulligan",),
    "commandant": ("commander",),
    "monarque": ("monarch",),
    "initiative": ("initiative", "first strike"),
    # actions
    "lancer": ("cast",),
    "jouer": ("play",),
    "activer": ("activate",),
    "déclencher": ("trigger",),
    "résoudre": ("resolve",),
    "cibler": ("target",),
    "cible": ("target",),
    "ciblé": ("target",),
    "attaquer": ("attack",),
    "attaque": ("attack",),
    "attaquant": ("attacking",),
    "bloquer": ("block",),
    "bloqueur": ("blocker", "blocking"),
    "bloqueuse": ("blocker", "blocking"),
    "piocher": ("draw",),
    "défausser": ("discard",),
    "défausse": ("discard",),
    "exiler": ("exile",),
    "sacrifier": ("sacrifice",),
    "détruire": ("destroy",),
    "infliger": ("deal",),
    "prévenir": ("prevent",),
    "engager": ("tap",),
    "dégager": ("untap",),
    "meuler": ("mill",),
    "mélanger": ("shuffle",),
    "chercher": ("search",),
    "révéler": ("reveal",),
    "payer": ("pay",),
    "ajouter": ("add",),
    "contrôler": ("control",),
    "contrôle": ("control",),
    "contrecarrer": ("counter",),
    "gagner": ("gain", "win"),
    "perdre": ("lose",),
    "acquérir": ("gain",),
    "mettre": ("put",),
    "renvoyer": ("return",),
    "échanger": ("exchange",),
    "transformer": ("transform",),
    "choisir": ("choose",),
    "voter": ("vote",),
    "vote": ("vote",),
    "égalité": ("tie", "tied"),
    "anneau": ("ring",),
    "tenter": ("tempt",),
    "porteur": ("ring-bearer", "bearer"),
    "jour": ("day",),
    "nuit": ("night",),
    # abilities and keywords. Keyword names printed on cards (vol, contact mortel, parade...)
    # are learned from Wizards' card translations (kb.terminology, registered by the index);
    # what stays here is what no card prints as a keyword: rules words (capacité,
    # statique), infinitives of keyword actions (prédire, équiper) and keywords the shared test
    # sets (KHM, CN2) do not teach (portée, menace, talismanique, défenseur, prouesse...).
    # Removed as wrong: "garde" for ward (the cards print "parade").
    "capacité": ("ability",),
    "activée": ("activated",),
    "déclenchée": ("triggered",),
    "statique": ("static",),
    "effet": ("effect",),
    "remplacement": ("replacement",),
    "règle": ("rule",),
    "monde": ("world",),  # "règle du monde", the world rule (704.5k)
    "légende": ("legend",),
    "légendaire": ("legendary",),
    "état": ("state",),
    "action": ("action",),
    "basé": ("based",),
    "portée": ("reach",),
    "menace": ("menace",),
    "talismanique": ("hexproof",),
    "indestructible": ("indestructible",),
    "défenseur": ("defender",),
    "prouesse": ("prowess",),
    "prédire": ("foretell",),
    "cascade": ("cascade",),
    "équiper": ("equip",),
    # keyword actions whose printed form the stemmer keeps apart from the infinitive
    # ("proliférez" -> "prolif", "proliférer" -> "prolifer"): their forms are in _FORMS
    "proliférer": ("proliferate",),
    # words of judges' questions
    "vide": ("empty",),
    "entrer": ("enter", "enters"),
    "deux": ("two",),
    "fois": ("time",),
    "deuxième": ("second",),
    # everyday words that are also a word of a keyword's name (KEYWORDS): written here, they
    # keep their meaning ("la seconde fois", "niveau 2", "le montant") instead of the keyword's
    "second": ("second",),
    "niveau": ("level",),
    "quitter": ("leave", "leaves"),
    "retirer": ("remove", "removed"),
    "assigner": ("assign",),
    "poison": ("poison",),
    "perte": ("lose",),
    "tentation": ("tempt",),
    # the rules' common vocabulary (section titles and the words of their texts)
    "supplémentaire": ("additional", "extra"),
    "additionnel": ("additional",),
    "couche": ("layer",),
    "horodatage": ("timestamp",),
    "dépendance": ("dependency",),
    "géant": ("giant",),
    "tête": ("head",),
    "variante": ("variant",),
    "mourir": ("die", "dies"),
    "invocation": ("summoning",),
    "marqué": ("marked",),
    "enlever": ("remove",),
    "bloqué": ("blocked",),
    "déclarer": ("declare",),
    "premier": ("first",),
    "illégal": ("illegal",),
    "légal": ("legal",),
    "prévention": ("prevention", "prevent"),
    "continu": ("continuous",),
    "durée": ("duration",),
    "réduire": ("reduce",),
    "augmenter": ("increase",),
    "choix": ("choice", "choose"),
    "aléatoire": ("random",),
    "hasard": ("random",),
    "regarder": ("look", "examine"),
    "dessus": ("top",),
    "dessous": ("bottom",),
    "nombre": ("number",),
    "ordre": ("order",),
    "quantité": ("amount",),
    "montant": ("amount",),  # not Level Up, whose "montée" has the same stem
    "attacher": ("attach",),
    "enchanter": ("enchant",),
    "supertype": ("supertype",),
    "départ": ("opening", "starting"),
    "taxe": ("tax",),
    "coéquipier": ("teammate",),
    "nul": ("draw",),
    "caché": ("face down",),
    "réserve": ("pool",),
    "raccourci": ("shortcut",),  # 731, Taking Shortcuts
    "prendre": ("take",),  # prendre un raccourci, taking shortcuts (731); prendre un tour
    "fixer": ("set",),  # an effect that sets a life total, a power (119.5, 613.4b)
    # the parts of a card (200.1): "symbole d'extension" (206 Expansion Symbol), "numéro de
    # collection" (collector number, 213), "nom de l'illustrateur" (illustration credit)
    "extension": ("expansion",),
    "collection": ("collector",),
    "illustrateur": ("illustration",),
    "contre": ("vs",),  # "équipe contre équipe", the Team vs. Team variant (808)
    "source": ("source",),
    "objet": ("object",),
    "clé": ("keyword",),
    "copier": ("copy",),
    "régénérer": ("regenerate",),
    "régénération": ("regenerate",),
    "changer": ("change",),
    "revenir": ("return",),
    "dommage": ("damage",),
    "mort": ("dies", "die"),
    "célérité": ("haste",),
    "piétinement": ("trample",),
    "parade": ("ward",),
    "infection": ("infect",),
    "tempête": ("storm",),
    "convocation": ("convoke",),
    "triche": ("cheating",),
    "chaque": ("each",),
    "répondre": ("respond",),
    "réponse": ("response", "respond"),
    "utiliser": ("use",),
    "maximal": ("maximum",),
    "taille": ("size",),
    "limite": ("limit", "maximum"),
    "moment": ("time",),
    "mortel": ("lethal", "deathtouch"),
    "subir": ("dealt",),
    "dernier": ("last",),
    "suivant": ("next",),
    "avant": ("before",),
    "après": ("after",),
    "pendant": ("during",),
    "nouveau": ("new",),
    "autre": ("another", "other"),
    "seul": ("only", "alone"),
    # verbs and words of the cards' French texts that had no English (the most frequent such
    # words of the shared corpus's French card texts: "arrive sur le champ de bataille",
    # "créez un jeton", "devient", "trésor")
    "arriver": ("enter", "enters"),
    "créer": ("create",),
    "devenir": ("become",),
    "dépenser": ("spend",),
    "égal": ("equal",),
    "supérieur": ("top",),
    "prochain": ("next",),
    "trésor": ("treasure",),
    "excepté": ("except",),
    # the rules' most frequent words that no word above led to (benchmarks/bridge_gaps.py
    # --rules lists them, most frequent first): the words a French judge uses for them
    "appliquer": ("apply",),
    "caractéristique": ("characteristic",),
    "symbole": ("symbol",),
    "causer": ("cause",),
    "provoquer": ("cause",),
    "événement": ("event",),
    "modifier": ("modify",),
    "inclure": ("include",),
    "permettre": ("allow",),
    "résultat": ("result",),
    "affecter": ("affect",),
    "déterminer": ("determine",),
    "mot": ("word",),
    "rester": ("remain",),
    "alternatif": ("alternative",),
    "normalement": ("normally",),
    "recevoir": ("dealt",),
    "déplacer": ("move",),
    "exiger": ("require",),
    "nécessiter": ("require",),
    "dos": ("back",),
    "arrière": ("back",),
    "différent": ("different",),
    "spécial": ("special",),
    "actuel": ("current",),
    "contenir": ("contain",),
    "vérifier": ("check",),
    # "n'est pas obligé de trouver": 701.23b, a player searching isn't required to find
    "trouver": ("find",),
    "obliger": ("required",),
    "séparé": ("separate",),
    "exister": ("exist",),
    "effectuer": ("perform",),
    "lié": ("linked",),
    "liée": ("linked",),  # stemmed "lie", not "li" as "lié" and "liés" are ("capacités liées")
    "retardé": ("delayed",),
    "immédiatement": ("immediately",),
    "moitié": ("half",),
    "précédent": ("previous",),
    "ignorer": ("ignore",),
    "passer": ("skip", "pass"),
    "produire": ("produce",),
    "boucle": ("loop",),
    "excès": ("excess",),
    "partagé": ("shared",),
    "basique": ("basic",),
    "obtenir": ("get",),
    # numbers, which the rules write in words or digits
    "zéro": ("0",),
    "trois": ("three",),
    "quatre": ("four",),
    "cinq": ("five",),
    "sept": ("seven",),
    "dix": ("ten",),
    "vingt": ("twenty",),
}

# The kinds of counters the rules name (122, and 107.14 energy, 714 lore, 727 rad...), as French
# cards print them ("marqueur « bouclier »"), with the English kind: each word leads to it.
# benchmarks/counter_names.py checks each against the French texts of the cards whose English
# text names the counter (AllPrintings). Not found on a printing (their cards have no French
# text in MTGJSON, the sets after 2021), the official names: étourdissement (stun, whose card
# Stun is "Étourdissement"), finalité, huile, défense. Left out, their French name not known
# for sure: fade, rad, ticket. Written as in TO_ENGLISH, the words that have an entry there
# keep it (poison, loyauté, sapience, niveau, défense).
COUNTERS: dict[str, str] = {
    "bouclier": "shield",
    "étourdissement": "stun",
    "poison": "poison",
    "loyauté": "loyalty",
    "défense": "defense",
    "sapience": "lore",
    "temps": "time",  # and so the everyday "temps", which is time too
    "âge": "age",
    "niveau": "level",
    "charge": "charge",
    "huile": "oil",
    "finalité": "finality",
    "expérience": "experience",
    "énergie": "energy",
    "boue": "slime",  # Gutter Grime, the example of 122.7
}
# The predefined tokens (111.10) as French cards name them ("un jeton Nourriture"). Left out,
# no French printing in MTGJSON and the name not known for sure: Walker, Powerstone,
# Incubator, the Roles, Map, Junk, Lander.
TOKENS: dict[str, str] = {
    "trésor": "Treasure",
    "nourriture": "Food",
    "or": "Gold",  # not a stop word: the conjunction "or" is rare in a question
    "éclat": "Shard",
    "indice": "Clue",
    "sang": "Blood",  # "soif de sang" stays Bloodthirst, as a phrase
}
# Dice (706) and the casual variants' words (Planechase 901, Archenemy 904) as French cards
# print them: "lancez le dé planaire", "se transplane depuis un plan", "phénomène", "chaos".
# "dé" and "dés" are kept apart from the stop words "de" and "des" they fold to
# (accented_words); rolling is "lancer", which is cast: "lancer le dé" is a phrase (PHRASES).
# Archenemy's scheme has no French printing in MTGJSON: left out.
DICE_AND_PLANES: dict[str, str] = {
    "dé": "die",
    "dés": "dice",
    "planaire": "planar",
    "plan": "plane",  # and so the everyday "plan" (a plan), rare in a rules question
    "transplaner": "planeswalk",
    "phénomène": "phenomenon",
    "chaos": "chaos",
}
# Card types, supertypes and the subtypes the rules list (205.2a, 205.3g-205.3k, 205.4a) as
# French type lines print them ("Rituel : aventure", "Enchantement légendaire : reliquaire"),
# with the English type; creature and planar types are left out. Only those the bridge had no
# entry for, or a wrong one: créature, artefact, enchantement, éphémère, rituel, terrain,
# légendaire, neigeux, bataille, donjon, plan, phénomène, aura, saga, équipement, véhicule,
# indice, nourriture already lead to their type. benchmarks/counter_names.py checks each
# against the type lines of the French printings of the cards of that type (AllPrintings).
# Not printed on a card with a French text in MTGJSON (the sets after 2021), the official
# names: siège (Siege, the battles of March of the Machine), classe (Class). "Aventure" shares
# its stem with "s'aventurer" (venture into the dungeon): the noun is the Adventure, the verb
# a phrase with its dungeon (PHRASES). "Porte" (Gate) is also the verb "porter": the Gate is
# searched where an article says it is one (PHRASES), not for the word on its own; basic is
# "de base" after a land (PHRASES), "base" alone being an everyday word. Left out, their French
# name not known for sure or the word taken (see the README): Kindred, World, Conspiracy,
# Scheme, Vanguard, Ongoing, Attraction, Contraption, Background, Case, Role, Room, Omen, Cave,
# Sphere, Town, Lair, Planet, the artifact types of the sets after 2021, Locus ("site"), and
# Urza's Mine, Tower and Power-Plant ("tour" is a turn).
TYPES: dict[str, str] = {
    "tribal": "Tribal",  # the kindred of the rules, which 205.2a renamed
    "siège": "Siege",
    "fortification": "Fortification",
    "cartouche": "Cartouche",
    "malédiction": "Curse",
    "rune": "Rune",
    "reliquaire": "Shrine",
    "classe": "Class",
    "désert": "Desert",
    "porte": "Gate",
    "aventure": "Adventure",
    "arcane": "Arcane",
    "leçon": "Lesson",
    "piège": "Trap",
}
TO_ENGLISH["tribal"] = ("kindred", "tribal")
# "fortification" shares its stem with "fortifier", the keyword Fortify of Fortifications
TO_ENGLISH["fortification"] = ("fortification", "fortify")
# names bridged by PHRASES only (see es.py): "porte" is also "(il) porte", carries
PHRASED: frozenset[str] = frozenset({"porte"})
add_printed_names(TO_ENGLISH, (COUNTERS, TOKENS, DICE_AND_PLANES, TYPES), PHRASED)

# Verb forms the Snowball stemmer leaves apart from their infinitive ("perd" and "perdre").
_FORMS = {
    "acquérir": "acquiert acquièrent acquis acquise",
    "arriver": "arrivent",
    "battre": "bat battent battu battue battus battues",
    "contenir": "contient contiennent contenu contenue",
    "détruire": "détruit détruite détruits détruites détruisent détruisez",
    "devenir": "devient deviennent devenu devenue",
    "entrer": "entre entres entrez entré entrée entrés entrées",
    "gagner": "gagnent",
    "inclure": "inclut incluent inclus incluse",
    "mettre": "met mettent mettez mis mise mises",
    "modifier": "modifie modifient",
    "mourir": "meurt meurent",
    "payer": "paye payé payée payés payées paient payez",
    "perdre": "perd perdent perdez perdu perdue perdus perdues",
    "permettre": "permet permettent permis permise",
    "prédire": "prédit prédite prédisez",
    "prendre": "prend prennent pris prise prises",
    "produire": "produit produisent",
    "proliférer": "proliférez prolifère",
    "recevoir": "reçoit reçoivent reçu reçue reçus reçues",
    "réduire": "réduit réduite réduits réduites réduisent",
    "renvoyer": "renvoie renvoient renvoyé renvoyée renvoyés renvoyées",
    "répondre": "répond répondent répondu",
    "résoudre": "résout résolvent résolu résolue résolus résolues",
    "retirer": "retirez",
    "revenir": "revient reviennent",
    "sacrifier": "sacrifie sacrifies sacrifient sacrifiez sacrifié sacrifiée sacrifiés sacrifiées",
    "tenir": "tient tiennent",
    "venir": "vient viennent",
    "vérifier": "vérifie vérifient",
}
# The third person plural of the bridge's -er verbs, which the Snowball stemmer keeps whole
# ("attaquent", "bloquent", "ciblent", "piochent" beside "attaqu", "bloqu"...): reduced to the
# infinitive first too, so that "deux créatures bloquent" crosses the bridge.
IRREGULAR = verb_forms(TO_ENGLISH, "er", ("ent",), _FORMS)

# Keyword names as Wizards prints them on French cards, with the English keyword (the title of
# its rule): every keyword ability (702) and keyword action (701) that French cards print under
# a name of their own, in rule order; an action by its infinitive ("inciter" for "incitez"),
# since a single word is matched by its stem. Terms learned from the corpus's card translations
# come first; these fill in the keywords its sets do not print, so a French query of a
# keyword's name finds its rule. Keywords whose cards MTGJSON gives no French text (the sets
# after 2021) have none here. benchmarks/keyword_names.py checks each name against every card
# that has the keyword and a printed text in the language (AllPrintings): a name that no such
# card prints is reported.
# Every word of a name also leads to its keyword in the bridge, unless TO_ENGLISH has the word
# (hand-written words win): "menace" and "cascade" keep their entries, and the ordinary words
# a name would take over are noted beside it.
KEYWORDS: dict[str, str] = {
    # keyword abilities (702)
    "contact mortel": "Deathtouch",
    "défenseur": "Defender",
    "double initiative": "Double Strike",
    "enchanter": "Enchant",
    "équiper": "Equip",  # printed "Équipement {2}": the same stem as the card type
    "initiative": "First Strike",
    "flash": "Flash",
    "vol": "Flying",
    "célérité": "Haste",
    "défense talismanique": "Hexproof",
    "indestructible": "Indestructible",
    "intimidation": "Intimidate",
    "traversée": "Landwalk",  # "traversée des îles", "traversée des forêts"...
    "lien de vie": "Lifelink",
    "protection": "Protection",
    "portée": "Reach",
    "linceul": "Shroud",
    "piétinement": "Trample",
    "vigilance": "Vigilance",
    "parade": "Ward",
    "sauvagerie": "Rampage",
    "entretien cumulatif": "Cumulative Upkeep",
    "débordement": "Flanking",
    "phasage": "Phasing",
    "rappel": "Buyback",
    "distorsion": "Shadow",
    "recyclage": "Cycling",
    "écho": "Echo",
    "équitation": "Horsemanship",
    "kick": "Kicker",
    "flashback": "Flashback",
    "folie": "Madness",
    "peur": "Fear",
    "mue": "Morph",
    "amplification": "Amplify",
    "provocation": "Provoke",
    "déluge": "Storm",
    "affinité": "Affinity",
    # "union" is also an everyday word, but rare in a rules question; TO_ENGLISH lacks it
    "union": "Entwine",
    "modularité": "Modular",
    "solarisation": "Sunburst",
    "bushido": "Bushido",
    "transmigration": "Soulshift",
    "imprégnation": "Splice",  # "imprégnation d'arcane"
    "ninjutsu": "Ninjutsu",
    "épique": "Epic",
    "convocation": "Convoke",
    "dragage": "Dredge",
    "transmutation": "Transmute",
    "soif de sang": "Bloodthirst",
    "hantise": "Haunt",
    "duplication": "Replicate",
    "prévision": "Forecast",
    "greffe": "Graft",
    "recouvrement": "Recover",
    "remous": "Ripple",
    "fraction de seconde": "Split Second",  # "seconde" keeps its TO_ENGLISH "second"
    "suspension": "Suspend",
    "disparition": "Vanishing",
    "échange d'aura": "Aura Swap",  # "échange" keeps its TO_ENGLISH "exchange"
    "fouille": "Delve",  # and so "fouiller" (search) leads to Delve: cards print "cherchez"
    "fortification": "Fortify",
    "déluge de cimetière": "Gravestorm",
    "transfiguration": "Transfigure",
    "appui": "Champion",  # "appui de gobelin"
    "changelin": "Changeling",
    "évocation": "Evoke",
    "cachette": "Hideaway",
    "incursion": "Prowl",
    "renfort": "Reinforce",
    "conspiration": "Conspire",
    "persistance": "Persist",
    "flétrissure": "Wither",
    "pistage": "Retrace",
    "dévorement": "Devour",
    "exaltation": "Exalted",
    "exhumation": "Unearth",
    "cascade": "Cascade",
    "annihilateur": "Annihilator",
    "montée de niveau": "Level Up",  # "niveau" keeps its TO_ENGLISH "level"
    "rebond": "Rebound",
    "armure totémique": "Umbra Armor",  # the cards of Totem Armor, its former name
    "infection": "Infect",
    "cri de guerre": "Battle Cry",
    "arme vivante": "Living Weapon",
    "survivance": "Undying",
    "miracle": "Miracle",
    "association d'âmes": "Soulbond",
    # "récupération" (Scavenge) is left out: its stem is that of "récupérer", the everyday
    # verb of getting a card back, which it would send to Scavenge
    "surcharge": "Overload",
    "emportement": "Unleash",
    "cryptage": "Cipher",
    "évolution": "Evolve",
    "extorsion": "Extort",
    "fusion": "Fuse",
    # "grâce" is also "grâce à" (thanks to), which it sends to Bestow: the name a French
    # judge uses for the keyword all the same
    "grâce": "Bestow",
    "tribut": "Tribute",
    "détrônement": "Dethrone",
    "résilience": "Outlast",
    "prouesse": "Prowess",
    "précipitation": "Dash",
    "exploitation": "Exploit",
    "menace": "Menace",
    "réputation": "Renown",
    "éveil": "Awaken",
    "carence": "Devoid",
    "ingestion": "Ingest",
    "myriade": "Myriad",
    "déferlement": "Surge",
    "furtivité": "Skulk",
    "émergence": "Emerge",
    "intensification": "Escalate",
    "mêlée": "Melee",
    "pilotage": "Crew",
    "fabrication": "Fabricate",
    "partenariat": "Partner",
    "témérité": "Undaunted",
    "improvisation": "Improvise",
    "répercussion": "Aftermath",
    "embaumement": "Embalm",
    "éternalisation": "Eternalize",
    "affliction": "Afflict",
    "ascension": "Ascend",
    "relance": "Jump-Start",  # printed "Relancez"
    "mentor": "Mentor",
    "au-delà": "Afterlife",
    "émeute": "Riot",
    "spectacle": "Spectacle",
    "échappée": "Escape",
    "compagnon": "Companion",
    "mutation": "Mutate",
    "vantardise": "Boast",
    "prédiction": "Foretell",
    "démonstration": "Demonstrate",
    "tranchage": "Cleave",
    "entraînement": "Training",
    "reconfiguration": "Reconfigure",
    "toxique": "Toxic",
    # keyword actions (701)
    "se battre": "Fight",
    "inciter": "Goad",
    "enquêter": "Investigate",
    "meuler": "Mill",
    "regard": "Scry",  # "regard 2"; "regarder" keeps its TO_ENGLISH "look"
    "surveiller": "Surveil",
    "transformer": "Transform",
    "destin": "Fateseal",  # "appliquer destin 1"
    "confronter": "Clash",
    "proliférer": "Proliferate",
    "détenir": "Detain",
    "peupler": "Populate",
    "monstruosité": "Monstrosity",
    "renforcement": "Bolster",
    "manifester": "Manifest",
    "soutenir": "Support",
    "assimiler": "Meld",
    "surmener": "Exert",
    "explorer": "Explore",
    "assembler": "Assemble",
    "adapter": "Adapt",
    "amasser": "Amass",
    "apprendre": "Learn",
}

# Game terms of several words, searched as one term: the words of "champ de bataille" are not
# crossed one by one (a "bataille" on its own is a battle).
PHRASES: dict[str, tuple[str, ...]] = {
    "champ de bataille": ("battlefield",),
    # terms of the rules and their glossary whose words say something else one by one
    "mal d'invocation": ("summoning sickness",),
    "identité colorée": ("color identity",),
    "en même temps": ("simultaneously",),
    "face cachée": ("face down",),
    "face visible": ("face up",),
    "double face": ("double-faced",),  # "cartes à double face", 712
    "main de départ": ("opening hand",),
    "taille maximale de main": ("maximum hand size",),
    "non dépensé": ("unspent",),
    # "point" alone is no game term: "points de vie" is life, as the cards say it
    "points de vie": ("life",),
    "point de vie": ("life",),
    "chacun pour soi": ("free-for-all",),
    # rolling a die (706, 901.9): "lancer" alone is cast
    **{
        f"{verb} {article} {die}": ("roll", "die")
        for verb in ("lancer", "lancez", "lance", "lancent")
        for article, die in (("le", "dé"), ("un", "dé"), ("les", "dés"), ("des", "dés"))
    },
    "lancer du dé": ("roll", "die"),  # the noun, "le lancer du dé planaire"
    "lancer de dé": ("roll", "die"),
    # venturing into the dungeon (701.49), as the cards print it ("aventurez-vous dans le
    # donjon"): "aventure" alone is the Adventure (TYPES), which shares the verb's stem
    **{
        f"{pronoun}{verb} dans le donjon": ("venture into the dungeon",)
        for pronoun in ("", "s'", "m'", "t'")
        for verb in (
            "aventurer aventure aventures aventurez aventurons aventurent aventuré aventurée "
            "aventurés aventurant aventurera"
        ).split()
    },
    "aventurez-vous dans le donjon": ("venture into the dungeon",),
    # a Gate (the land type): "porte" alone may be the verb "porter"
    **{
        f"{article} {gate}": ("gate",)
        for article, gate in (
            *((a, "porte") for a in "la une cette chaque autre".split()),
            *((a, "portes") for a in "les des deux ces vos".split()),
        )
    },
    "terrain porte": ("gate",),
    "terrains portes": ("gate",),
    # a basic land (205.4c), "base" alone being an everyday word
    "terrain de base": ("basic land",),
    "terrains de base": ("basic land",),
    # the rules' terms of the multiplayer variants and of zones and objects, whose words one by
    # one say something else ("portée" is Reach, "caché" face down, "troll" nothing)
    "troll à deux têtes": ("two-headed giant",),
    "portée d'influence": ("range of influence",),
    "zone cachée": ("hidden zone",),
    "zones cachées": ("hidden zone",),
    "zone publique": ("public zone",),
    "zones publiques": ("public zone",),
    "indicateur de couleur": ("color indicator",),
    "capacité définissant une caractéristique": ("characteristic-defining ability",),
    "capacités définissant des caractéristiques": ("characteristic-defining ability",),
    "capacités définissant les caractéristiques": ("characteristic-defining ability",),
}

LANGUAGE = SearchLanguage(
    code="fr",
    name="Français",
    stopwords=(frozenset(stopwords_for_language("fr")) | _MORE) - _KEEP,
    stemmer=stemmer_for_language("fr"),
    elisions=ELISIONS,
    to_english=TO_ENGLISH,
    question_words=QUESTION_WORDS,
    irregular=IRREGULAR,
    keywords=KEYWORDS,
    phrases=PHRASES,
    accented_endings=(("ees", "ées"), ("ee", "ée")),
    accented_words=frozenset({"dé", "dés"}),
    one=frozenset({"un", "une"}),
    numerals=frozenset("deux trois quatre cinq six sept huit neuf dix".split()),
)

"""Spanish: Snowball stemmer and stop words, and the Spanish -> English term bridge.

The bridge holds the game vocabulary as printed on Spanish cards (``contador`` is a counter,
``girar`` is tap, ``sabiduría`` the lore counter), so that a Spanish query also reaches the
rules and rulings that exist only in English.
"""

from __future__ import annotations

from whoosh.lang import stemmer_for_language, stopwords_for_language

from kb.search.lang import SearchLanguage, add_printed_names, verb_forms

# Whoosh's Spanish stop list holds a few words that are game terms here ("acciones basadas en
# estado" are state-based actions; "sentido" as in a direction of play).
_KEEP = frozenset({"contra", "sentido", "sentidos", "estado", "estados"})

# Whoosh's Spanish list has "todo" and "todos" but not their feminine forms: "todas las
# criaturas" would search "toda" where "todos los objetivos" and "all the targets" search
# nothing for the word.
_MORE = frozenset({"toda", "todas"})

QUESTION_WORDS = frozenset(
    "qué que cuándo cuando cuánto cuánta cuántos cuántas cómo dónde por qué pasa ocurre sucede"
    " puede pueden puedo puedes podemos debo debes debe deben hace hacen si funciona"
    " funcionan significa significan quién quiénes cuál cuáles".split()
)

TO_ENGLISH: dict[str, tuple[str, ...]] = {
    # objects, cards and zones
    "carta": ("card",),
    "hechizo": ("spell",),
    "criatura": ("creature",),
    "artefacto": ("artifact",),
    "encantamiento": ("enchantment",),
    "tierra": ("land",),
    "conjuro": ("sorcery",),
    "instantáneo": ("instant",),
    "batalla": ("battle",),
    "campo": ("battlefield",),
    "permanente": ("permanent",),
    "ficha": ("token",),
    "emblema": ("emblem",),
    "legendario": ("legendary",),
    "nevado": ("snow",),
    "nieve": ("snow",),
    "equipo": ("equipment", "team"),  # both: the cards say "Equipo", the team variants "equipo"
    "vehículo": ("vehicle",),
    "aura": ("aura",),
    "saga": ("saga",),
    "biblioteca": ("library",),
    "cementerio": ("graveyard",),
    "mano": ("hand",),
    "exilio": ("exile",),
    "pila": ("stack",),
    "mando": ("command",),
    "zona": ("zone",),
    "mazmorra": ("dungeon",),
    "tipo": ("type",),
    "subtipo": ("subtype",),
    "color": ("color",),
    "incoloro": ("colorless",),
    "blanco": ("white",),
    "azul": ("blue",),
    "negro": ("black",),
    "rojo": ("red",),
    "verde": ("green",),
    "nombre": ("name",),
    "texto": ("text",),
    "copia": ("copy",),
    "cara": ("face",),
    # numbers on a card
    "fuerza": ("power",),
    "resistencia": ("toughness",),
    "lealtad": ("loyalty",),
    "defensa": ("defense",),
    "maná": ("mana",),
    # the kinds of mana symbol (107.4f, 107.4e): "maná pirexiano" as the cards print it (35
    # printings), "híbrido" a player's word (the cards print the symbols only)
    "pirexiano": ("phyrexian",),
    "híbrido": ("hybrid",),
    "valor": ("value",),
    "coste": ("cost",),
    "vida": ("life",),
    "daño": ("damage",),
    "contador": ("counter",),
    "sabiduría": ("lore",),
    "capítulo": ("chapter",),
    # players and turns
    "jugador": ("player",),
    "oponente": ("opponent",),
    "adversario": ("opponent",),
    "entrar": ("enter", "enters"),
    "controlador": ("controller",),
    "propietario": ("owner",),
    "multijugador": ("multiplayer",),
    "turno": ("turn",),
    "fase": ("phase",),
    "paso": ("step",),
    "comienzo": ("beginning", "start"),
    "empezar": ("begin", "start"),
    "dividida": ("split",),
    "final": ("end",),
    "mantenimiento": ("upkeep",),
    "limpieza": ("cleanup",),
    "principal": ("main",),
    "combate": ("combat",),
    "prioridad": ("priority",),
    "partida": ("game",),
    "comandante": ("commander",),
    "monarca": ("monarch",),
    "iniciativa": ("initiative",),
    # actions
    "lanzar": ("cast",),
    "jugar": ("play",),
    "activar": ("activate",),
    "disparar": ("trigger",),
    "resolver": ("resolve",),
    "objetivo": ("target",),
    "atacar": ("attack",),
    "ataque": ("attack",),
    "atacante": ("attacking",),
    "bloquear": ("block",),
    "bloqueadora": ("blocker", "blocking"),
    "robar": ("draw",),
    "roba": ("draw",),
    "descartar": ("discard",),
    "exiliar": ("exile",),
    "sacrificar": ("sacrifice",),
    "destruir": ("destroy",),
    "hacer": ("deal",),
    "prevenir": ("prevent",),
    "girar": ("tap",),
    "enderezar": ("untap",),
    "moler": ("mill",),
    "barajar": ("shuffle",),
    "buscar": ("search",),
    "mostrar": ("reveal",),
    "pagar": ("pay",),
    "agregar": ("add",),
    "controlar": ("control",),
    "control": ("control",),
    "contrarrestar": ("counter",),
    "ganar": ("gain", "win"),
    "perder": ("lose",),
    "poner": ("put",),
    "regresar": ("return",),
    "devolver": ("return",),  # the older cards' "devuelve a la mano"
    "intercambiar": ("exchange",),
    "transformar": ("transform",),
    "elegir": ("choose",),
    "votar": ("vote",),
    "voto": ("vote",),
    "empate": ("tie", "tied"),
    "empatar": ("tie", "tied"),
    "anillo": ("ring",),
    "tentar": ("tempt",),
    "tienta": ("tempt",),
    "tiente": ("tempt",),
    "portador": ("ring-bearer", "bearer"),
    "día": ("day",),
    "noche": ("night",),
    # abilities and keywords. Keyword names printed on cards (vuela, toque mortal, rebatir...)
    # are learned from Wizards' card translations (kb.terminology, registered by the index);
    # what stays here is what no card prints as a keyword: rules words (habilidad,
    # estática), infinitives (volar, arrollar) and keywords the shared test sets (KHM, CN2)
    # do not teach (alcance, amenaza, antimaleficio, defensor, destreza, cascada).
    # Removed as wrong: "custodia" for ward (the cards print "rebatir").
    "habilidad": ("ability",),
    "activada": ("activated",),
    "disparada": ("triggered",),
    "reflexiva": ("reflexive",),  # habilidad disparada reflexiva, 603.12
    "estática": ("static",),
    "efecto": ("effect",),
    "reemplazo": ("replacement",),
    "regla": ("rule",),
    "mundo": ("world",),  # "regla del mundo", the world rule (704.5k)
    "leyenda": ("legend",),
    "estado": ("state",),
    "acción": ("action",),
    "basado": ("based",),
    "volar": ("flying",),
    "arrollar": ("trample",),
    "alcance": ("reach",),
    "amenaza": ("menace",),
    "antimaleficio": ("hexproof",),
    "indestructible": ("indestructible",),
    "defensor": ("defender",),
    "destreza": ("prowess",),
    "cascada": ("cascade",),
    "tripular": ("crew",),
    "equipar": ("equip",),
    # keyword actions printed in a form the stemmer keeps apart from the infinitive
    # ("manifiesta", "repuebla"): their forms are in _FORMS
    "manifestar": ("manifest",),
    "repoblar": ("populate",),
    # words of judges' questions
    "votación": ("vote",),
    "vacío": ("empty",),
    "vacía": ("empty",),
    "dos": ("two",),
    "mismo": ("same",),
    "vez": ("time",),
    "veces": ("time", "times"),
    "segunda": ("second",),
    # an everyday word that is also a word of a keyword's name (KEYWORDS: "subir de nivel"):
    # written here, it keeps its meaning ("nivel 2" of a Class) instead of the keyword's
    "nivel": ("level",),
    "quitar": ("remove", "removed"),
    "salir": ("leave", "leaves"),
    "sale": ("leave", "leaves"),
    "asignar": ("assign",),
    "veneno": ("poison",),
    "marcado": ("marked",),
    # the rules' common vocabulary (section titles and the words of their texts); words ending
    # in -ción reach their English -tion through the cognates below
    "adicional": ("additional",),
    "capa": ("layer",),
    "dependencia": ("dependency",),
    "gigante": ("giant",),
    "cabeza": ("head",),
    "variante": ("variant",),
    "morir": ("die", "dies"),
    "mareo": ("sickness",),
    "retirar": ("remove",),
    # verbs and words of the cards' Spanish texts that had no English (the most frequent such
    # words of the shared corpus's Spanish card texts: "crea una ficha", "obtiene +1/+1",
    # "se convierte en", "tesoro")
    "crear": ("create",),
    "obtener": ("get", "gets"),
    "convertir": ("become",),
    "mayor": ("greatest", "greater"),
    "excepto": ("except",),
    "compartir": ("share",),
    "próximo": ("next",),
    "igual": ("equal",),
    "revelar": ("reveal",),
    "tesoro": ("treasure",),
    "resto": ("rest",),
    "superior": ("top",),
    "primera": ("first",),
    "remover": ("remove",),  # "Remueve X contadores": the Oracle texts' verb too
    "bloqueador": ("blocker", "blocking"),
    "bloqueado": ("blocked",),
    "declarar": ("declare",),
    "primer": ("first",),
    "doble": ("double",),
    "ilegal": ("illegal",),
    "legal": ("legal",),
    "continuo": ("continuous",),
    "costo": ("cost",),
    "reducir": ("reduce",),
    "aumentar": ("increase",),
    "elección": ("choice", "choose"),
    "aleatorio": ("random",),
    "azar": ("random",),
    "mirar": ("look", "examine"),
    "encima": ("top",),
    "fondo": ("bottom",),
    "número": ("number",),
    "cantidad": ("amount",),
    "anexar": ("attach",),
    "anexado": ("attached",),
    "encantar": ("enchant",),
    "supertipo": ("supertype",),
    "básico": ("basic",),
    "inicial": ("opening", "starting", "beginning"),  # "fase inicial", the beginning phase
    "impuesto": ("tax",),
    "compañero": ("teammate", "companion"),  # a teammate, and the keyword Companion (702.139)
    "reserva": ("pool",),
    "fuente": ("source",),
    "objeto": ("object",),
    "clave": ("keyword",),
    "copiar": ("copy",),
    "regenerar": ("regenerate",),
    "cambiar": ("change",),
    "dañar": ("damage", "deal"),
    "tiempo": ("time",),
    "orden": ("order",),
    "prisa": ("haste",),
    "vigilancia": ("vigilance",),
    "rebatir": ("ward",),
    "infectar": ("infect",),
    "tormenta": ("storm",),
    "convocar": ("convoke",),
    "cada": ("each",),
    "dejar": ("leave", "leaves"),
    "responder": ("respond",),
    "respuesta": ("response", "respond"),
    "usar": ("use",),
    "usa": ("use",),
    "utilizar": ("use",),
    "máximo": ("maximum",),
    "tamaño": ("size",),
    "límite": ("limit", "maximum"),
    "momento": ("time",),
    "cualquier": ("any",),
    "letal": ("lethal",),
    "mortal": ("lethal", "deathtouch"),
    "recibir": ("dealt",),
    "último": ("last",),
    "siguiente": ("next",),
    "después": ("after",),
    "nuevo": ("new",),
    "solo": ("only", "alone"),
    # the rules' most frequent words that no word above led to (benchmarks/bridge_gaps.py
    # --rules lists them, most frequent first): the words a Spanish judge uses for them
    "aplicar": ("apply",),
    "característica": ("characteristic",),
    "símbolo": ("symbol",),
    "múltiple": ("multiple",),
    "causar": ("cause",),
    "mazo": ("deck",),
    "evento": ("event",),
    "suceso": ("event",),
    "modificar": ("modify",),
    "incluir": ("include",),
    "permitir": ("allow",),
    "resultado": ("result",),
    "afectar": ("affect",),
    "determinar": ("determine",),
    "palabra": ("word",),
    "permanecer": ("remain",),
    "alternativo": ("alternative",),
    "normalmente": ("normally",),
    "mover": ("move",),
    "requerir": ("require",),
    "dorso": ("back",),
    "reverso": ("back",),
    "diferente": ("different",),
    "distinto": ("different",),
    "especial": ("special",),
    "actual": ("current",),
    "contener": ("contain",),
    "comprobar": ("check",),
    # "no está obligado a encontrar": 701.23b, a player searching isn't required to find
    "encontrar": ("find",),
    "obligar": ("required",),
    "separado": ("separate",),
    "existir": ("exist",),
    "realizar": ("perform",),
    "vinculado": ("linked",),
    "retrasado": ("delayed",),
    "modo": ("mode",),
    "voltear": ("flip",),
    "inmediatamente": ("immediately",),
    "mitad": ("half",),
    "anterior": ("previous",),
    "ignorar": ("ignore",),
    "omitir": ("skip",),
    "saltar": ("skip",),
    "producir": ("produce",),
    "bucle": ("loop",),
    "banquillo": ("sideboard",),
    # tournament words of the rules' last chapter (731 Taking Shortcuts, 713 Substitute Cards)
    "atajo": ("shortcut",),
    "tomar": ("take",),  # tomar atajos, taking shortcuts (731); tomar un turno
    "sustituta": ("substitute",),
    "sustituto": ("substitute",),
    # the parts of a card (200.1): "texto recordatorio" (reminder text, 207.2), "número de
    # coleccionista" (collector number, 213), "ilustrador" (illustration credit)
    "recordatorio": ("reminder",),
    "coleccionista": ("collector",),
    "ilustrador": ("illustration",),
    "radiación": ("rad",),  # "contadores de radiación", rad counters (727)
    "contra": ("vs",),  # "equipo contra equipo", the Team vs. Team variant (808)
    "exceso": ("excess",),
    "menor": ("less", "lower"),
    "único": ("single", "only"),
    "dueño": ("owner",),
    "terminar": ("end",),
    # numbers, which the rules write in words or digits
    "cero": ("0",),
    "tres": ("three",),
    "cuatro": ("four",),
    "cinco": ("five",),
    "siete": ("seven",),
    "diez": ("ten",),
    "veinte": ("twenty",),
}

# The kinds of counters the rules name (122, and 107.14 energy, 714 lore, 727 rad...), as Spanish
# cards print them ("contador de escudo"), with the English kind: each word leads to it.
# benchmarks/counter_names.py checks each against the Spanish texts of the cards whose English
# text names the counter (AllPrintings). Not found on a printing (their cards have no Spanish
# text in MTGJSON, the sets after 2021), the official names: aturdimiento (stun, whose card
# Stun is "Aturdir"), aceite, defensa; finality's "contador de finalidad" is a phrase
# (PHRASES), since "finalidad" stems as "final" (the end) does. Left out, their Spanish name
# not known for sure: fade, rad, ticket. Written as in TO_ENGLISH, the words that have an entry
# there keep it (veneno, lealtad, defensa, sabiduría, tiempo, nivel).
COUNTERS: dict[str, str] = {
    "escudo": "shield",
    "aturdimiento": "stun",
    "veneno": "poison",
    "lealtad": "loyalty",
    "defensa": "defense",
    "sabiduría": "lore",
    "tiempo": "time",
    "edad": "age",
    "nivel": "level",
    "carga": "charge",
    "aceite": "oil",
    "experiencia": "experience",
    "energía": "energy",
    "fango": "slime",  # Gutter Grime, the example of 122.7
}
# The predefined tokens (111.10) as Spanish cards name them ("una ficha de Comida"). Left out,
# no Spanish printing in MTGJSON and the name not known for sure: Walker, Powerstone,
# Incubator, the Roles, Map, Junk, Lander.
TOKENS: dict[str, str] = {
    "tesoro": "Treasure",
    "comida": "Food",
    "oro": "Gold",
    "fragmento": "Shard",
    "pista": "Clue",
    "sangre": "Blood",  # "sed de sangre" stays Bloodthirst, as a phrase
}
# Dice (706) and the casual variants' words (Planechase 901, Archenemy 904) as Spanish cards
# print them: "tira un dado", "tires uno o más dados", "el dado planar", "plano", "fenómeno",
# "caos". The Planechase cards' "lanza el dado" (lanzar is cast) is a phrase (PHRASES), as is
# "caminar por los planos" (planeswalk). Archenemy's scheme has no Spanish printing in
# MTGJSON: left out.
DICE_AND_PLANES: dict[str, str] = {
    "dado": "die",
    "dados": "dice",
    "tirar": "roll",  # and so the everyday "tirar" (throw), rare in a rules question
    "tirada": "roll",
    "planar": "planar",
    "plano": "plane",
    "fenómeno": "phenomenon",
    "caos": "chaos",
}
# "dado" is also the participle "given" ("dado que", given that; "un jugador dado"), which the
# die would take over, and "dados" shares its stem: the die is searched for where a word before
# says it is one ("el dado", "un dado", "dos dados": PHRASES), not for the word on its own.
PHRASED = frozenset({"dado", "dados"})
# Card types, supertypes and the subtypes the rules list (205.2a, 205.3g-205.3k, 205.4a) as
# Spanish type lines print them ("Conjuro — Aventura", "Encantamiento legendario — Altar"),
# with the English type; creature and planar types are left out. Only those the bridge had no
# entry for, or a wrong one: criatura, artefacto, encantamiento, instantáneo, conjuro, tierra,
# legendario, básica, nevada, batalla, mazmorra, plano, fenómeno, aura, saga, equipo,
# vehículo, pista, comida already lead to their type, and fortificación by its ending.
# benchmarks/counter_names.py checks each against the type lines of the Spanish printings of
# the cards of that type (AllPrintings). Not printed on a card with a Spanish text in MTGJSON
# (the sets after 2021), the official name: asedio (Siege, the battles of March of the
# Machine). "Aventura" is the Adventure; venturing into the dungeon is "adentrarse en la
# mazmorra" on the cards, a phrase (PHRASES), as is a reader's "aventurarse en la mazmorra".
# Left out, their Spanish name not known for sure or the word an everyday one a question
# would lose ("clase de", kind of; "sitio", place): Kindred, World, Conspiracy, Scheme,
# Vanguard, Ongoing, Attraction, Contraption, Background, Case, Class, Role, Room, Omen,
# Cave, Sphere, Town, Lair, Planet, the artifact types of the sets after 2021, Locus, and
# Urza's Mine, Tower and Power-Plant.
TYPES: dict[str, str] = {
    "tribal": "Tribal",  # the kindred of the rules, which 205.2a renamed
    "asedio": "Siege",
    "cartucho": "Cartouche",
    "maldición": "Curse",
    "runa": "Rune",
    "altar": "Shrine",
    "desierto": "Desert",
    "portal": "Gate",
    "aventura": "Adventure",
    "arcano": "Arcane",
    "lección": "Lesson",
    "trampa": "Trap",
}
TO_ENGLISH["tribal"] = ("kindred", "tribal")
add_printed_names(TO_ENGLISH, (COUNTERS, TOKENS, DICE_AND_PLANES, TYPES), PHRASED)

# Spanish -ción / -ciones is English -tion / -tions ("protección", "acción", "prevención"):
# folded endings, tried on a word the bridge has no entry for.
COGNATES = (("cciones", "ctions"), ("ccion", "ction"), ("ciones", "tions"), ("cion", "tion"))

# Stem-changing verbs (e -> ie, o -> ue, e -> i): the Snowball stemmer keeps "pierde" apart
# from "perder", so their forms are reduced to the infinitive first.
_FORMS = {
    "contener": "contiene contienen contenga",
    "convertir": "convierte convierten convierta",
    "costar": "cuesta cuestan cueste",
    "devolver": "devuelve devuelven devuelva devuelto devuelta",
    "elegir": "elige eligen elija elijan",
    "empezar": "empieza empiezan empiece",
    "entrar": "entra entran entren",
    "jugar": "juega juegan juegue",
    "lanzar": "lance lances lancen",
    "manifestar": "manifiesta manifiestan",
    "moler": "muele muelen",
    "morir": "muere mueren muera murió muerto muerta",
    "mostrar": "muestra muestran muestre",
    "obtener": "obtiene obtienen obtenga",
    "perder": "pierde pierden pierdes pierda",
    "poner": "puesto puesta",
    "remover": "remueve remueven remueva",
    "repoblar": "repuebla repueblan",
    "resolver": "resuelve resuelven resuelva resuelto resuelta",
    "seguir": "sigue siguen siga",
    "tener": "tiene tienen tenga",
    "volar": "vuela vuelan vuele",
    "volver": "vuelve vuelven vuelva",
}
# The present and preterite forms and participles of the bridge's regular -ar verbs, which the
# Snowball stemmer keeps apart from their infinitive ("sacrifica" stems to "sacrif" and
# "sacrificar" to "sacrific"; "bloquea", "declara", "dispara", "usa", "entras"): reduced to the
# infinitive first too, so that a question asking what a player "sacrifica" or a creature
# "bloquea" crosses the bridge.
_AR_ENDINGS = ("a", "as", "an", "e", "es", "en", "o", "ado", "ada", "ados", "adas")
IRREGULAR = verb_forms(TO_ENGLISH, "ar", _AR_ENDINGS, _FORMS)

# Keyword names as Wizards prints them on Spanish cards, with the English keyword (the title of
# its rule): every keyword ability (702) and keyword action (701) that Spanish cards print
# under a name of their own, in rule order; an action by its infinitive ("investigar" for
# "investiga"), since a single word is matched by its stem (the printed forms whose stem parts
# from the infinitive's, "repuebla", "manifiesta", are in _FORMS). Terms learned from
# the corpus's card translations come first; these fill in the keywords its sets do not print,
# so a Spanish query of a keyword's name finds its rule. Keywords whose cards MTGJSON gives no
# Spanish text (the sets after 2021) have none here. benchmarks/keyword_names.py checks each
# name against every card that has the keyword and a printed text in the language
# (AllPrintings): a name that no such card prints is reported.
# Every word of a name also leads to its keyword in the bridge, unless TO_ENGLISH has the word
# (hand-written words win): "vacío" stays "empty", "compañero" a teammate, "segundo" second;
# only the whole query "vacío" names Devoid. The other ordinary words a name would take over
# are noted beside it.
KEYWORDS: dict[str, str] = {
    # keyword abilities (702)
    "toque mortal": "Deathtouch",
    "defensor": "Defender",
    "dañar dos veces": "Double Strike",
    "encantar": "Enchant",
    "equipar": "Equip",
    "dañar primero": "First Strike",
    "destello": "Flash",
    "volar": "Flying",
    "prisa": "Haste",
    "antimaleficio": "Hexproof",
    "indestructible": "Indestructible",
    "intimidar": "Intimidate",
    "cruzar": "Landwalk",  # "cruza islas", "cruza bosques"...
    "vínculo vital": "Lifelink",
    "protección": "Protection",
    "alcance": "Reach",
    "velo": "Shroud",
    "arrollar": "Trample",
    "vigilancia": "Vigilance",
    "rebatir": "Ward",
    "ímpetu": "Rampage",
    "mantenimiento acumulativo": "Cumulative Upkeep",
    "flanquear": "Flanking",
    "cambio de fase": "Phasing",
    "recuperar": "Buyback",
    "se desvanece": "Shadow",
    "ciclo": "Cycling",
    "eco": "Echo",
    "caballería": "Horsemanship",
    "estímulo": "Kicker",
    "retrospectiva": "Flashback",
    "demencia": "Madness",
    "temor": "Fear",
    "metamorfosis": "Morph",
    "amplificar": "Amplify",
    "provocar": "Provoke",  # and so the everyday "provocar" (to cause)
    "tormenta": "Storm",
    "afinidad": "Affinity",
    "entrelazar": "Entwine",
    "modular": "Modular",
    "estallido solar": "Sunburst",
    "bushido": "Bushido",
    "migración de almas": "Soulshift",
    "empalmar": "Splice",  # "empalmar con lo arcano"
    "ninjutsu": "Ninjutsu",
    "épico": "Epic",
    "convocar": "Convoke",
    "dragar": "Dredge",
    "transmutar": "Transmute",
    "sed de sangre": "Bloodthirst",
    "acechar": "Haunt",
    "reproducir": "Replicate",
    "presagiar": "Forecast",
    "injertar": "Graft",
    "recobrar": "Recover",
    "ondear": "Ripple",
    "fracción de segundo": "Split Second",
    "suspender": "Suspend",
    "desmaterializarse": "Vanishing",
    "cambio de aura": "Aura Swap",
    "excavar": "Delve",
    "fortificar": "Fortify",
    "tormenta sepulcral": "Gravestorm",
    "transfigurar": "Transfigure",
    "amparar": "Champion",
    "cambiaformas": "Changeling",
    "evocar": "Evoke",
    "esconder": "Hideaway",
    "rondar": "Prowl",
    "reforzar": "Reinforce",
    "conspirar": "Conspire",
    "persistir": "Persist",
    "debilitar": "Wither",
    "desandar": "Retrace",
    "devorar": "Devour",
    "exaltado": "Exalted",
    "desenterrar": "Unearth",
    "cascada": "Cascade",
    "aniquilador": "Annihilator",
    "subir de nivel": "Level Up",
    "rebote": "Rebound",
    "armadura tótem": "Umbra Armor",  # the cards of Totem Armor, its former name
    "infectar": "Infect",
    "grito de batalla": "Battle Cry",
    "arma viviente": "Living Weapon",
    "resiliencia": "Undying",
    "milagro": "Miracle",
    "unir almas": "Soulbond",
    "sobrecarga": "Overload",
    "carroñar": "Scavenge",
    "desatar": "Unleash",
    "cifrar": "Cipher",
    "evolucionar": "Evolve",
    "extorsionar": "Extort",
    "fusionar": "Fuse",
    "concesión": "Bestow",
    "tributo": "Tribute",
    "destronar": "Dethrone",
    "supervivencia": "Outlast",
    "destreza": "Prowess",
    "rapidez": "Dash",
    "aprovechar": "Exploit",
    "amenaza": "Menace",
    "prestigio": "Renown",
    "despertar": "Awaken",
    "vacío": "Devoid",
    "ingerir": "Ingest",
    "miríada": "Myriad",
    "impulso": "Surge",  # and so the everyday "impulso", rare in a rules question
    "escurridizo": "Skulk",
    "emerger": "Emerge",
    "expandir": "Escalate",
    "reyerta": "Melee",
    "tripular": "Crew",
    "fabricar": "Fabricate",
    "camarada": "Partner",
    "audacia": "Undaunted",
    "improvisar": "Improvise",
    "secuela": "Aftermath",
    "embalsamar": "Embalm",
    "eternizar": "Eternalize",
    "afligir": "Afflict",
    "ascender": "Ascend",
    "recargar": "Jump-Start",
    "mentor": "Mentor",
    "ultratumba": "Afterlife",
    "insurgencia": "Riot",
    "espectáculo": "Spectacle",
    "escapar": "Escape",
    "escapatoria": "Escape",  # the keyword as Theros Beyond Death's cards print it
    "compañero": "Companion",
    "mutar": "Mutate",
    "alardear": "Boast",
    "profetizar": "Foretell",
    "demostrar": "Demonstrate",
    "recortar": "Cleave",
    "entrenamiento": "Training",
    "reconfigurar": "Reconfigure",
    "tóxico": "Toxic",
    # keyword actions (701); Meld is left out: its cards print "combínalas", whose stem is
    # not that of "combinar", and "combinar" on its own is an everyday verb
    "luchar": "Fight",
    "incitar": "Goad",
    "investigar": "Investigate",
    "moler": "Mill",
    "adivinar": "Scry",
    "escrutar": "Surveil",
    "transformar": "Transform",
    "predestinar": "Fateseal",
    "enfrentarse": "Clash",  # printed "enfréntate con un oponente"
    "proliferar": "Proliferate",
    # Detain by its printed form: its infinitive "detener" is the everyday verb "to stop" ("un
    # bucle que nadie puede detener"), which the name would send to Detain
    "detén": "Detain",
    "repoblar": "Populate",
    "monstruosidad": "Monstrosity",
    "fortalecer": "Bolster",
    "manifestar": "Manifest",
    "apoyar": "Support",
    "espolear": "Exert",
    "explorar": "Explore",
    "ensamblar": "Assemble",
    "adaptar": "Adapt",
    "enrolar": "Amass",
    "aprender": "Learn",
}

# Game terms of several words, searched as one term: the words of "campo de batalla" are not
# crossed one by one (a "batalla" on its own is a battle).
PHRASES: dict[str, tuple[str, ...]] = {
    "campo de batalla": ("battlefield",),
    # the Class enchantments (716), whose word alone is also "what kind of" ("qué clase de")
    "carta de clase": ("class",),
    "cartas de clase": ("class",),
    # terms of the rules and their glossary whose words say something else one by one
    "mareo de invocación": ("summoning sickness",),
    "marca de tiempo": ("timestamp",),  # 613.7; "tiempo" alone is time
    "marcas de tiempo": ("timestamp",),
    "identidad de color": ("color identity",),
    "al mismo tiempo": ("simultaneously",),
    "a la vez": ("simultaneously",),
    "boca abajo": ("face down",),
    "boca arriba": ("face up",),
    "mano inicial": ("opening hand",),
    "tamaño máximo de mano": ("maximum hand size",),
    "no gastado": ("unspent",),
    "todos contra todos": ("free-for-all",),
    # a die, dice ("dado" alone may be "given": PHRASED above)
    **{f"{word} dado": ("die",) for word in "el un del al cada ese este otro mi tu su".split()},
    "dado planar": ("planar die",),
    **{
        f"{word} dados": ("dice", "die")
        for word in "los unos dos tres cuatro seis más mis tus sus esos estos varios ambos".split()
    },
    # rolling the planar die as the Planechase cards print it: "lanzar" alone is cast
    **{
        f"{verb} {article} {die}": ("roll", "die")
        for verb in ("lanzar", "lanza", "lanzas", "lance", "lanzan")
        for article, die in (("el", "dado"), ("un", "dado"), ("los", "dados"))
    },
    # planeswalking (901.8), "camina por los planos"
    **{
        f"{verb} por los planos": ("planeswalk",)
        for verb in ("caminar", "camina", "caminas", "camine", "caminan", "caminen")
    },
    # venturing into the dungeon (701.49) as the cards print it ("adéntrate en la mazmorra"),
    # and as a reader may say it: "aventura" alone is the Adventure (TYPES)
    **{
        f"{verb} en la mazmorra": ("venture into the dungeon",)
        for verb in (
            "adentrarse adéntrate adentrarte adentrarme adentra adentras adentro adentran "
            "adentrándose adentrado aventurarse aventúrate aventurarte aventurarme aventura "
            "aventuras aventuro aventuran aventurándose aventurado"
        ).split()
    },
    # finality counters (122.1h): "finalidad" alone stems as "final" (the end) does
    "contador de finalidad": ("finality counter",),
    "contadores de finalidad": ("finality counter",),
    # the rules' terms of the multiplayer variants and of zones and objects, whose words one by
    # one say something else ("alcance" is Reach, "juego" a game, not what is outside it)
    "rango de influencia": ("range of influence",),
    "alcance de influencia": ("range of influence",),
    "zona oculta": ("hidden zone",),
    "zonas ocultas": ("hidden zone",),
    "zona pública": ("public zone",),
    "zonas públicas": ("public zone",),
    "indicador de color": ("color indicator",),
    "habilidad que define características": ("characteristic-defining ability",),
    "habilidades que definen características": ("characteristic-defining ability",),
    "fuera del juego": ("outside the game",),
    "fuera de la partida": ("outside the game",),
}

LANGUAGE = SearchLanguage(
    code="es",
    name="Español",
    stopwords=(frozenset(stopwords_for_language("es")) | _MORE) - _KEEP,
    stemmer=stemmer_for_language("es"),
    to_english=TO_ENGLISH,
    question_words=QUESTION_WORDS,
    irregular=IRREGULAR,
    keywords=KEYWORDS,
    phrases=PHRASES,
    cognates=COGNATES,
    one=frozenset({"un", "una", "uno"}),
    numerals=frozenset("dos tres cuatro cinco seis siete ocho nueve diez".split()),
)

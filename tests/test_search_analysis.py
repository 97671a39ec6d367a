"""Analyzers per language: folding, elision, stop words, stemming, the term bridge, fallback."""

from __future__ import annotations

import pickle

import pytest

from kb.search.analysis import analyze, name_analyzer, text_analyzer
from kb.search.lang import candidates, fold_word, search_language


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_accents_fold_before_stemming(lang: str) -> None:
    analyzer = text_analyzer(lang)
    assert analyze(analyzer, "regle") == analyze(analyzer, "règle") == analyze(analyzer, "RÈGLE")
    # Snowball stems these two differently unless the accent goes first.
    assert analyze(analyzer, "égalité") == analyze(analyzer, "egalite")
    assert analyze(analyzer, "sabiduría") == analyze(analyzer, "sabiduria")


def test_typographic_apostrophes_fold() -> None:
    analyzer = text_analyzer("en")
    assert analyze(analyzer, "doesn’t") == analyze(analyzer, "doesn't") == ["doesn't"]
    assert analyze(analyzer, "Trickster-God’s Heist") == ["trickster", "god", "heist"]


def test_english_stemming_and_stop_words() -> None:
    analyzer = text_analyzer("en")
    assert analyze(analyzer, "The Ring tempts you") == ["ring", "tempt"]
    assert analyze(analyzer, "tempted") == analyze(analyzer, "tempts")
    assert analyze(analyzer, "votes voting") == ["vote", "vote"]


def test_french_elision_stop_words_and_stems() -> None:
    analyzer = text_analyzer("fr")
    assert analyze(analyzer, "l'original d’un joueur") == ["original", "joueur"]
    assert analyze(analyzer, "qu'il") == []
    assert analyze(analyzer, "créatures") == analyze(analyzer, "créature") == ["creatur"]
    assert analyze(analyzer, "marqueurs") == analyze(analyzer, "marqueur")
    # "all", "every" are English stop words: "toutes les cibles" searches the targets only.
    assert analyze(analyzer, "toutes les cibles") == analyze(analyzer, "cibles")
    assert analyze(analyzer, "tout joueur, tous les sorts") == analyze(analyzer, "joueur sorts")


def test_an_accented_word_that_folds_to_a_stop_word_is_kept() -> None:
    """French "dé" and "dés" (the planar die, dice) fold to the stop words "de" and "des":
    tested folded, they were dropped, and "lancer le dé planaire" searched no die."""
    analyzer = text_analyzer("fr")
    language = search_language("fr")
    assert analyze(analyzer, "lancer le dé") == analyze(analyzer, "lancer dé")
    assert len(analyze(analyzer, "lancer le dé")) == 2
    assert analyze(analyzer, "Dés") == analyze(analyzer, "DÉ") == analyze(analyzer, "dé")
    assert "die" in language.english_for(analyze(analyzer, "dés")[0])
    # typed without the accent, they are the stop words; every stop word, typed with its
    # accents or without, is still dropped ("à", "où", "ça", "été", "même", "eût"...)
    assert analyze(analyzer, "de des DE Des") == []
    for word in language.stopwords:
        assert analyze(analyzer, word) == analyze(analyzer, fold_word(word)) == [], word


def test_spanish_stop_words_and_stems() -> None:
    analyzer = text_analyzer("es")
    assert analyze(analyzer, "el Anillo te tienta") == ["anill", "tient"]
    assert analyze(analyzer, "votos") == analyze(analyzer, "voto")
    assert analyze(analyzer, "todas las criaturas") == analyze(analyzer, "criaturas")
    assert analyze(analyzer, "toda criatura") == analyze(analyzer, "criatura")
    # Kept although Whoosh lists it: "acciones basadas en estado" are state-based actions.
    assert "estado" in analyze(name_analyzer(), "estado")
    assert analyze(analyzer, "estado") != []


def test_rule_numbers_are_single_tokens() -> None:
    assert analyze(text_analyzer("en"), "see rule 701.54a, then 601.2f–h.") == [
        "see",
        "rule",
        "701.54a",
        "601.2f",
        "h",
    ]


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_power_toughness_modifier_is_one_token(lang: str) -> None:
    """ "+1/+1" and "-1/-1" are different counters: as tokens of their own, "a +1/+1 counter and
    a -1/-1 counter" finds 704.5q (both on one permanent), not every text holding a 1."""
    analyzer = text_analyzer(lang)
    terms = analyze(analyzer, "put a +1/+1 counter; gets -1/-1, +2/+0, -X/-X; a 1/1 token")
    assert {"+1/+1", "-1/-1", "+2/+0", "-x/-x"} <= set(terms)
    assert terms.count("1") == 2  # an unsigned size is its numbers


def test_names_are_folded_not_stemmed() -> None:
    assert analyze(name_analyzer(), "Le vol du dieu-décepteur") == [
        "le",
        "vol",
        "du",
        "dieu",
        "decepteur",
    ]


def test_highlight_offsets_skip_elided_articles() -> None:
    tokens = list(text_analyzer("fr")("l'original", chars=True))
    assert [(t.text, t.startchar, t.endchar) for t in tokens] == [("original", 2, 10)]


def test_analyzers_survive_pickling() -> None:
    analyzer = text_analyzer("fr")
    restored = pickle.loads(pickle.dumps(analyzer))
    assert restored == analyzer
    assert analyze(restored, "règles") == analyze(analyzer, "règles")


def test_language_lookup_falls_back_to_english() -> None:
    assert candidates("pt_BR") == ["pt_br", "pt", "en"]
    assert search_language("es_ES").code == "es"
    assert search_language("fr-CA").code == "fr"
    assert search_language("pt_BR").code == "en"
    assert search_language("xx").code == "en"


@pytest.mark.parametrize(
    ("lang", "word", "english"),
    [
        ("fr", "égalité", "tie"),
        ("fr", "marqueurs", "counter"),
        ("fr", "sapience", "lore"),
        ("fr", "anneau", "ring"),
        ("es", "empate", "tie"),
        ("es", "votos", "vote"),
        ("es", "contadores", "counter"),
        ("es", "sabiduría", "lore"),
        ("es", "remueve", "remove"),  # "Remueve X contadores", an irregular form
        ("es", "removida", "remove"),
        # the most frequent words of the cards' texts that had no English
        ("fr", "arrive", "enter"),  # "arrive sur le champ de bataille"
        ("fr", "sacrifie", "sacrifice"),  # "sacrifier" stems apart from its forms
        ("fr", "sacrifiez", "sacrifice"),
        ("fr", "devient", "become"),
        ("fr", "crée", "create"),
        ("fr", "payé", "pay"),
        ("es", "entra", "enter"),  # "entra al campo de batalla"
        ("es", "crea", "create"),
        ("es", "obtiene", "get"),
        ("es", "lances", "cast"),
        # the regular forms the stemmer keeps apart, made from the bridge's verbs
        ("fr", "bloquent", "block"),
        ("fr", "entre", "enter"),  # "quand une créature entre sur le champ de bataille"
        ("es", "sacrifica", "sacrifice"),
        ("es", "bloquea", "block"),
        ("es", "dispara", "trigger"),
    ],
)
def test_bridge_finds_english_terms_by_stem(lang: str, word: str, english: str) -> None:
    language = search_language(lang)
    (stem,) = analyze(text_analyzer(lang), word)
    assert english in language.english_for(stem)


def test_every_bridge_key_stems_to_a_word_of_its_first_letter() -> None:
    """The bridge is read by the first letter of a stem (kb.search.lang._bridge): a key whose
    stem began with another letter would never be found."""
    from kb.langs import fold_word

    for lang in ("fr", "es"):
        language = search_language(lang)
        for word in language.to_english:
            folded = fold_word(word)
            assert language.stem(folded)[:1] == folded[:1], (lang, word)
        for form, verb in language.irregular.items():
            assert form[:1] == verb[:1], (lang, form, verb)


def test_bridge_keys_are_all_reachable() -> None:
    """Every key of a bridge stems to an entry (a typo in a key would silently never match)."""
    for lang in ("fr", "es"):
        language = search_language(lang)
        analyzer = text_analyzer(lang)
        for word, english in language.to_english.items():
            stems = analyze(analyzer, word)
            assert len(stems) == 1, (lang, word, stems)
            assert set(english) <= set(language.english_for(stems[0])), (lang, word)


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_counter_token_and_dice_names_lead_to_their_english(lang: str) -> None:
    """Each kind of counter, predefined token and die word as the cards print it ("marqueur «
    bouclier »", "contador de aturdimiento", "dado planar") leads to its English word, and
    rolling a die is no casting ("lancer le dé", "lanza el dado")."""
    import importlib

    from kb.search.lang import phrase_spans

    module = importlib.import_module(f"kb.search.lang.{lang}")
    language = search_language(lang)
    analyzer = text_analyzer(lang)
    for table in (module.COUNTERS, module.TOKENS, module.DICE_AND_PLANES):
        for word, english in table.items():
            (stem,) = analyze(analyzer, word)
            if word in module.PHRASED:  # after a word that says what it is: "el dado"
                assert english.casefold() not in language.english_for(stem), word
                [(_, _, terms)] = phrase_spans(lang, ["el" if word == "dado" else "los", word])
                assert english.casefold() in terms, (word, english)
            else:
                assert english.casefold() in language.english_for(stem), (word, english)
    rolled = "quand lancer le dé planaire" if lang == "fr" else "cuándo lanza el dado planar"
    [(start, size, terms)] = phrase_spans(lang, rolled.split())
    assert (start, size) == (1, 3) and "roll" in terms
    # Spanish "dado que" (given that) is no die
    assert phrase_spans(lang, "dado que el hechizo".split()) == []


@pytest.mark.parametrize(
    ("lang", "word", "english"),
    [("es", "pirexiano", "phyrexian"), ("es", "híbridos", "hybrid"), ("fr", "hybride", "hybrid")],
)
def test_kinds_of_mana_symbol_lead_to_their_english(lang: str, word: str, english: str) -> None:
    """ "maná pirexiano" (as Spanish cards print it), "maná híbrido": 107.4e and 107.4f. French
    "hybride" and "phyrexian" are the English stems already."""
    (stem,) = analyze(text_analyzer(lang), word)
    assert stem == english or english in search_language(lang).english_for(stem)


def test_spanish_companero_is_a_teammate_and_the_companion() -> None:
    """ "compañero de equipo" is a teammate (810); "poner mi compañero en la mano" the keyword
    Companion (702.139a): the word leads to both, the question's other words choose."""
    (stem,) = analyze(text_analyzer("es"), "compañero")
    assert {"teammate", "companion"} <= set(search_language("es").english_for(stem))


@pytest.mark.parametrize(
    ("lang", "word", "english"),
    [("fr", "trouvé", "find"), ("fr", "obligé", "required"), ("es", "encontré", "find")],
)
def test_a_search_not_required_to_find_is_said_in_any_language(
    lang: str, word: str, english: str
) -> None:
    """ "suis-je obligé de la trouver", "¿puedo decir que no la encontré?": 701.23b, a player
    searching "isn't required to find" the cards."""
    (stem,) = analyze(text_analyzer(lang), word)
    assert english in search_language(lang).english_for(stem)


def test_escape_is_named_as_spanish_cards_print_it() -> None:
    """Theros Beyond Death's Spanish cards print the keyword "Escapatoria" (not "escapar")."""
    assert search_language("es").keywords["escapatoria"] == "Escape"


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_type_names_lead_to_their_english(lang: str) -> None:
    """Each card type, supertype and subtype as the type lines print it ("Rituel : aventure",
    "Encantamiento — Altar") leads to its English word; the Adventure is no venture into the
    dungeon, which is the verb with its dungeon ("s'aventurer dans le donjon", "adéntrate en la
    mazmorra"), even where a learned keyword term gives the verb's stem to venture."""
    import importlib

    from kb.search import lang as languages
    from kb.search.lang import phrase_spans, register_learned_terms

    module = importlib.import_module(f"kb.search.lang.{lang}")
    language = search_language(lang)
    analyzer = text_analyzer(lang)
    for word, english in module.TYPES.items():
        (stem,) = analyze(analyzer, word)
        if word in module.PHRASED:  # "porte" is also "(il) porte": "la porte" is the Gate
            assert english.casefold() not in language.english_for(stem), word
            [(_, _, terms)] = phrase_spans(lang, ["la", word])
            assert english.casefold() in terms, (word, english)
        else:
            assert english.casefold() in language.english_for(stem), (word, english)
    assert language.english_for("tribal") == ("kindred", "tribal")

    venture = "Venture into the Dungeon"
    verb, noun = ("s'aventurer", "aventure") if lang == "fr" else ("adentrarse", "aventura")
    dungeon = "dans le donjon" if lang == "fr" else "en la mazmorra"
    before = [  # the terms an index opened earlier registered, put back after
        (term, keyword, languages._LEARNED_RULES.get(lang, {}).get(term, ""))
        for term, keyword in languages._LEARNED.get(lang, {}).items()
    ]
    try:  # as an index of the sets that print it registers the term
        register_learned_terms(lang, [(f"{verb} {dungeon}", venture, "701.49")])
        (stem,) = analyze(analyzer, noun)
        assert language.english_for(stem) == ("adventure",)
        other = "je m'aventure" if lang == "fr" else "aventúrate"  # a reader's Spanish
        for said in (f"{verb} {dungeon}", f"{other} {dungeon}"):
            [(_, _, terms)] = phrase_spans(lang, said.split())
            assert terms == ("venture into the dungeon",), said
        assert not phrase_spans(lang, f"une fois l'{noun} résolue".split())
    finally:
        register_learned_terms(lang, before)


def test_fold_word() -> None:
    assert fold_word("Règle") == "regle"
    assert fold_word("doesn’t") == "doesn't"
    assert fold_word("ÉGALITÉ") == "egalite"


def test_sentence_masks_say_which_sentences_hold_each_term() -> None:
    """A rule's sentences end at a full stop (or ? !) before a capital, a quotation mark or a
    parenthesis; each term is mapped to the sentences holding it, bit i the i-th."""
    from kb.search.analysis import sentence_masks

    english = text_analyzer("en")
    text = "Put a counter on it. Then copy it. (See rule 707.2.) A copy has no counters."
    masks = sentence_masks(english, text)
    assert masks["counter"] == 0b1001
    assert masks["copi"] == 0b1010
    assert masks["707.2"] == 0b0100
    assert "then" not in masks or masks["then"] == 0b0010
    assert sentence_masks(english, "") == {}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_fast_term_spans_match_the_analyzer(lang: str) -> None:
    from kb.search.analysis import term_set, term_spans

    analyzer = text_analyzer(lang)
    for text in [
        "La Règle 701.54a: l'original doesn’t vote; Trickster-God's Heist, qu'il égalité",
        "El Anillo te tienta. Portador del Anillo — sabiduría",
        "A library with no cards in it; No card. no no cards in, no cards could be drawn. no cards",
        "Lancez le dé planaire, puis des DÉS : de dés en dés",
        "",
    ]:
        expected = [
            (t.startchar, t.endchar, t.text)
            for t in analyzer(text, chars=True, mode="index", removestops=False)
            if not t.stopped
        ]
        assert term_spans(analyzer, text) == expected
        assert term_spans(analyzer, text) == expected  # and again, from the cache
        assert term_set(analyzer, text) == set(analyze(analyzer, text))


@pytest.mark.parametrize(
    ("lang", "one", "other"),
    [
        ("en", "left", "leaves"),
        ("en", "dealt", "deals"),
        ("en", "drawn", "draw"),
        ("fr", "bloquées", "bloquer"),
        ("fr", "marquée", "marqué"),
        ("fr", "perd", "perdre"),
        ("es", "pierde", "perder"),
        ("es", "vuela", "volar"),
    ],
)
def test_forms_a_suffix_stemmer_misses_share_their_verbs_term(
    lang: str, one: str, other: str
) -> None:
    analyzer = text_analyzer(lang)
    assert analyze(analyzer, one) == analyze(analyzer, other)


def test_french_nouns_in_ee_keep_their_own_term() -> None:
    analyzer = text_analyzer("fr")
    assert analyze(analyzer, "armée") == analyze(analyzer, "armee") == ["arme"]
    assert analyze(analyzer, "idée") != analyze(analyzer, "ider")


def test_a_stem_changing_spanish_verb_crosses_the_bridge() -> None:
    language = search_language("es")
    (stem,) = analyze(text_analyzer("es"), "pierde")
    assert "lose" in language.english_for(stem)


TEXTS = [
    "La Règle 701.54a: l'original doesn’t vote; Trickster-God's Heist, qu'il égalité",
    "The the THE of a vote vote — and the Ring tempts you. The Ring tempts you again.",
    "El Anillo te tienta. Portador del Anillo — sabiduría, de la de la",
    "Le Anneau vous tente\nl'Anneau, qu'il, jusqu'à 3 fois: 702.19b 702.19b",
    "",
    "    ",
    "'s l' qu' ’ 's's",
    "vote, " * 7 + "the Ring tempts you " * 4,  # positions lists longer than the cached ones
    # "no cards in" is also indexed as "empty" (a paraphrase); the others are not
    "A library with no cards in it; No card. no no cards in, no cards could be drawn. no cards",
    "Lancez le dé planaire, puis des DÉS : de dés en dés",  # "dé" is kept, "de" is not
]


@pytest.mark.parametrize("lang", ["en", "fr", "es", None])
def test_positional_text_indexes_as_whoosh_does(lang: str | None) -> None:
    """The index field's own path gives Whoosh's postings: terms, counts, weights, positions."""
    from whoosh.fields import TEXT

    from kb.search.analysis import PositionalText

    def make(cls):  # fresh analyzers: no cache filled by the other path
        return cls(analyzer=text_analyzer(lang) if lang else name_analyzer(), phrase=True)

    for text in TEXTS:
        ours, whooshs = make(PositionalText), make(TEXT)
        expected = sorted(whooshs.index(text))
        assert sorted(ours.index(text)) == expected
        assert sorted(ours.index(text)) == expected  # and again, from the cache
        assert sorted(make(PositionalText).index(text, mode="query")) == sorted(
            make(TEXT).index(text, mode="query")
        )


def test_positional_text_takes_whooshs_path_for_another_analyzer() -> None:
    from whoosh.analysis import StandardAnalyzer
    from whoosh.fields import TEXT

    from kb.search.analysis import PositionalText

    ours = PositionalText(analyzer=StandardAnalyzer(), phrase=True)
    theirs = TEXT(analyzer=StandardAnalyzer(), phrase=True)
    assert sorted(ours.index(TEXTS[1])) == sorted(theirs.index(TEXTS[1]))
    assert pickle.loads(pickle.dumps(ours)).analyzer == ours.analyzer

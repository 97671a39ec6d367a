"""Queries in any language, the rule a query names first, stop and question words (issue 12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from search_kb import ingested, run


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small corpus ingested through the CLI: the ingest alone leaves a working index."""
    folder = tmp_path_factory.mktemp("languages") / "_kb"
    ingested(folder)
    return folder


@pytest.fixture(scope="module")
def index(home: Path) -> Any:
    from kb.search import open_index

    with open_index(home / "index") as opened:
        yield opened


def test_a_fresh_ingest_leaves_a_working_index(home: Path) -> None:
    result = run(home, "search", "vote")
    assert result.exit_code == 0, result.output
    assert "no search index" not in result.output


def test_words_of_another_language_are_found_without_lang(index: Any) -> None:
    response = index.search("Portador del Anillo")
    assert response["lang"] == "es" and response["lang_detected"] is True
    top = response["results"][0]
    assert top["number"].startswith("701.54") and "es" in top["matched_languages"]


def test_lang_still_narrows_the_search(index: Any) -> None:
    response = index.search("Portador del Anillo", lang="en")
    assert response["lang_detected"] is False
    assert not any("es" in r["matched_languages"] for r in response["results"])


@pytest.mark.parametrize(("query", "number"), [("ring tempts you", "701.54"), ("vote", "701.38")])
@pytest.mark.parametrize("lang", [None, "en"])
def test_the_rule_a_query_names_comes_first_then_its_subrules(
    index: Any, query: str, number: str, lang: str | None
) -> None:
    results = index.search(query, lang=lang)["results"]
    numbers = [r["number"] for r in results]
    assert numbers[0] == number, numbers
    subrules = [i for i, r in enumerate(results) if (r["number"] or "")[:-1] == number]
    assert subrules and subrules == list(range(1, len(subrules) + 1)), numbers
    glossary = [i for i, r in enumerate(results) if r["type"] == "glossary"]
    assert all(i > subrules[-1] for i in glossary), numbers


def test_a_question_is_searched_by_its_words(index: Any) -> None:
    from kb.search.query import drop_question_words

    question = "¿qué pasa si el Anillo te tienta dos veces?"
    assert drop_question_words(question, ("es",)) == "el Anillo te tienta dos veces"
    assert drop_question_words("what happens", ("en",)) == "what happens"  # nothing else left
    assert drop_question_words("tempt?", ("en",)) == "tempt?"  # a wildcard, not a question
    results = index.search(question)["results"]
    assert results and results[0]["number"].startswith("701.54")


@pytest.mark.parametrize(
    ("lang", "word", "terms"),
    [("fr", "les", ()), ("fr", "leurs", ()), ("fr", "cartes", ("cart",)), ("es", "los", ())],
)
def test_french_and_spanish_stop_words(lang: str, word: str, terms: tuple[str, ...]) -> None:
    from kb.search.analysis import query_terms, text_analyzer

    assert query_terms(text_analyzer(lang), word) == terms


class _Hit(dict):
    """A stand-in for a search hit: its stored fields, read as the ranking reads them."""

    def fields(self) -> dict[str, Any]:
        return self


def _rule(number: str, titles: dict[str, str]) -> _Hit:
    texts = {lang: {"title": title, "text": ""} for lang, title in titles.items()}
    data = {"texts": texts or {"en": {"title": "", "text": "A rule's text."}}}
    return _Hit(type="rule", number=number, edition="2026-01-16", data=data)


def test_the_named_rule_is_the_one_whose_title_names_the_words_best() -> None:
    """ "double initiative" (French for double strike) holds "initiative", the French title of
    first strike: a title naming every word beats one naming them with a word to spare."""
    from kb.search.naming import promote_named
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    first_strike = _rule("702.7", {"en": "First Strike", "fr": "Initiative"})
    double_strike = _rule("702.4", {"en": "Double Strike"})
    subrule = _rule("702.4b", {})
    context = QueryContext(lang="fr", editions=["2026-01-16"])
    hits = [first_strike, subrule, double_strike]
    ranked = promote_named(build_schema(), hits, "double initiative", context)
    assert [h["number"] for h in ranked] == ["702.4", "702.4b", "702.7"]


def test_a_glossary_term_sent_to_a_broader_section_names_the_subrule_saying_what_it_is() -> None:
    """ "Additional Cost … See rule 118, "Costs."": the section's title holds one of the words,
    118.8 says what an additional cost is, 118.8d only opens with the words: 118.8 first, then
    118 and its other subrules, then the glossary entry."""
    from kb.search.naming import promote_named
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    def subrule(number: str, text: str) -> _Hit:
        data = {"texts": {"en": {"title": "", "text": text}}}
        return _Hit(type="rule", number=number, edition="2026-01-16", data=data)

    defined = "A cost a spell may have that its controller must pay in addition to its mana cost."
    texts = {"en": {"title": "Additional Cost", "text": f"{defined} See rule 118, “Costs.”"}}
    data = {"texts": texts, "see": ["118"], "term": "Additional Cost"}
    glossary = _Hit(type="glossary", edition="2026-01-16", data=data)
    hits = [
        subrule("118.6a", "If an additional cost is imposed, the cost is still unpayable."),
        subrule("118.8d", "Additional costs don't change a spell's mana cost."),
        subrule(
            "118.8",
            "Some spells have additional costs. An additional cost is a cost listed in a "
            "spell's rules text that its controller must pay with the spell's mana cost.",
        ),
        glossary,
        _rule("118", {"en": "Costs"}),
    ]
    context = QueryContext(lang="en", editions=["2026-01-16"])
    ranked = promote_named(build_schema(), hits, "additional costs", context)
    assert [h.get("number") for h in ranked] == ["118.8", "118", "118.6a", "118.8d", None]


def test_a_rule_says_what_a_term_is_not_what_happens_to_one() -> None:
    """ "An additional cost is a cost …" says what one is; "an additional cost is imposed" says
    what happens to one (118.6a), which made two subrules tie for "additional costs"."""
    from kb.search.naming import _says_what

    def subrule(text: str) -> _Hit:
        return _Hit(type="rule", data={"texts": {"en": {"title": "", "text": text}}})

    term = ("additional", "cost")
    assert _says_what(subrule("An additional cost is a cost listed in its text."), term)
    assert not _says_what(subrule("If an additional cost is imposed, it's unpayable."), term)


def test_a_glossary_term_sent_to_a_section_names_the_subrule_holding_it() -> None:
    """ "Poison Counter … See rule 122, "Counters"": no subrule opens with the term, says what it
    is or quotes it; 122.1f holds it and restates the definition best: it comes first."""
    from kb.search.naming import promote_named
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    def subrule(number: str, text: str) -> _Hit:
        data = {"texts": {"en": {"title": "", "text": text}}}
        return _Hit(type="rule", number=number, edition="2026-01-16", data=data)

    texts = {"en": {"title": "Poison Counter", "text": "A counter that may be given to a player."}}
    data = {"texts": texts, "see": ["122", "704.5c"], "term": "Poison Counter"}
    glossary = _Hit(type="glossary", edition="2026-01-16", data=data)
    hits = [
        _rule("122", {"en": "Counters"}),
        subrule("122.1", "A counter is a marker placed on an object or player."),
        subrule("122.1f", "If a player has ten or more poison counters, that player loses."),
        glossary,
    ]
    context = QueryContext(lang="en", editions=["2026-01-16"])
    ranked = promote_named(build_schema(), hits, "poison counters", context)
    assert [h.get("number") for h in ranked] == ["122.1f", "122", "122.1", None]


def test_a_glossary_term_sent_to_a_section_names_the_subrule_bringing_it_in_quoted() -> None:
    """ "Vehicle … See rule 301, "Artifacts," and rule 702.122": 301.7 brings the term in
    ("Some artifacts have the subtype “Vehicle.”") and restates the definition; it comes first."""
    from kb.search.naming import promote_named
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    def subrule(number: str, text: str) -> _Hit:
        data = {"texts": {"en": {"title": "", "text": text}}}
        return _Hit(type="rule", number=number, edition="2026-01-16", data=data)

    defined = "An artifact subtype. Vehicles can become artifact creatures."
    texts = {"en": {"title": "Vehicle", "text": f"{defined} See rule 301, “Artifacts.”"}}
    data = {"texts": texts, "see": ["301", "702.122"], "term": "Vehicle"}
    glossary = _Hit(type="glossary", edition="2026-01-16", data=data)
    hits = [
        _rule("301", {"en": "Artifacts"}),
        subrule(
            "301.7",
            "Some artifacts have the subtype “Vehicle.” Most Vehicles have a crew ability which "
            "allows them to become artifact creatures.",
        ),
        subrule("301.7a", "Each Vehicle has a printed power and toughness."),
        glossary,
    ]
    context = QueryContext(lang="en", editions=["2026-01-16"])
    ranked = promote_named(build_schema(), hits, "vehicles", context)
    assert [h.get("number") for h in ranked] == ["301.7", "301", "301.7a", None]


@pytest.mark.parametrize(("query", "lang"), [("contrarrestar", "es"), ("contrecarrer", "fr")])
def test_a_bridged_word_names_the_title_it_is_as_typed(query: str, lang: str) -> None:
    """ "counter" names 701.6 "Counter", not 122 "Counters", which stems alike: so does the
    Spanish or French verb the bridge writes "counter"."""
    from kb.search.naming import promote_named
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    hits = [_rule("122", {"en": "Counters"}), _rule("701.6", {"en": "Counter"})]
    context = QueryContext(lang=lang, editions=["2026-01-16"])
    ranked = promote_named(build_schema(), hits, query, context)
    assert [h["number"] for h in ranked][:1] == ["701.6"]


def test_a_glossary_term_sends_to_its_rule_before_the_glossary_entry() -> None:
    """ "timestamp order" is no rule's title but a glossary term whose entry says "See rule
    613.7": that rule comes first, its subrules next, then the glossary entry."""
    from kb.search.naming import promote_named
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    texts = {"en": {"title": "Timestamp Order", "text": "A system… See rule 613.7."}}
    glossary = _Hit(type="glossary", edition="2026-01-16", data={"texts": texts, "see": ["613.7"]})
    hits = [_rule("613.7m", {}), _rule("613.10", {}), glossary, _rule("613.7", {})]
    context = QueryContext(lang="en", editions=["2026-01-16"])
    ranked = promote_named(build_schema(), hits, "timestamp order", context)
    assert [h.get("number") for h in ranked] == ["613.7", "613.7m", None, "613.10"]


@pytest.mark.parametrize(("query", "lang"), [("modal spells", "en"), ("hechizos modales", "es")])
def test_a_glossary_entry_of_several_terms_names_each_of_them(query: str, lang: str) -> None:
    """ "Modal, Mode … See rule 700.2": the entry names "modal", and "modal spells" (the kind
    of object the term is said of left over) names it too; "spells" alone names nothing."""
    from kb.search.naming import promote_named
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    texts = {"en": {"title": "Modal, Mode", "text": "A spell is “modal” if … See rule 700.2."}}
    glossary = _Hit(type="glossary", edition="2026-01-16", data={"texts": texts, "see": ["700.2"]})
    hits = [_rule("115.8", {}), _rule("700.2f", {}), glossary, _rule("700.2", {})]
    context = QueryContext(lang=lang, editions=["2026-01-16"])
    ranked = promote_named(build_schema(), hits, query, context)
    assert [h.get("number") for h in ranked] == ["700.2", "700.2f", None, "115.8"]
    assert promote_named(build_schema(), hits, "spells", context) == hits


def test_spanish_cion_words_are_searched_as_their_english_tion() -> None:
    """No bridge entry is needed for each cognate: "protección" searches "protection"."""
    from kb.search.lang import search_language
    from kb.search.naming import word_terms
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    spanish = search_language("es")
    assert spanish.cognate("protección") == "protection"
    assert spanish.cognate("acciones") == "actions"
    assert spanish.cognate("criatura") is None
    context = QueryContext(lang="es", editions=[])
    (terms,) = word_terms(build_schema(), "protección", context)
    assert "protect" in terms["text_en"]


@pytest.mark.parametrize(
    ("lang", "word", "english"),
    [
        ("fr", "extension", "expans"),  # symbole d'extension, 206 Expansion Symbol
        ("fr", "collection", "collector"),  # numéro de collection, 213
        ("es", "recordatorio", "remind"),  # texto recordatorio, 207.2
        ("es", "radiación", "rad"),  # contadores de radiación, 727
        ("es", "contra", "vs"),  # equipo contra equipo, 808 Team vs. Team
        ("fr", "contre", "vs"),
    ],
)
def test_the_parts_of_a_card_are_searched_in_the_rules_words(
    lang: str, word: str, english: str
) -> None:
    """The French and Spanish names of a card's parts (200.1) lead to the rules' English."""
    from kb.search.naming import word_terms
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    (terms,) = word_terms(build_schema(), word, QueryContext(lang=lang, editions=[]))
    assert english in terms["text_en"]


@pytest.mark.parametrize("lang", ["es", None])
def test_a_question_of_two_words_once_its_stop_words_are_left_out_is_searched(
    index: Any, lang: str | None
) -> None:
    """ "se" and "un" are stop words, not question words: two words are left to search, which
    are ranked as a question's (this failed with an UnboundLocalError)."""
    response = index.search("¿cuándo se puede lanzar un conjuro?", lang=lang)
    assert response["query"] == "¿cuándo se puede lanzar un conjuro?"
    assert not any(r.get("partial") for r in response["results"][: response["total"]])


@pytest.mark.parametrize(
    ("question", "lang"),
    [("can I pay more life than I have", "en"), ("¿puedo pagar más vidas de las que tengo?", "es")],
)
def test_a_question_of_two_words_is_ranked_by_the_words_each_text_holds(
    index: Any, monkeypatch: pytest.MonkeyPatch, question: str, lang: str
) -> None:
    """ "pay life" ("more" and "than" are stop words) is a question still: ranked among the
    texts holding either word (QUESTION_WORDS), not only those holding both, where 119.4's
    subrules and 118.3b came before 119.4 ("…may do so only if their life total is greater
    than or equal to the amount of the payment")."""
    from kb.search import ranking

    asked: list[str] = []
    real = ranking.Ranker._question_hits

    def spy(self: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(text)
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(ranking.Ranker, "_question_hits", spy)
    index.search(question, lang=lang)
    assert len(asked) == 1 and len(asked[0].split()) >= 2
    asked.clear()
    index.search("pay life", lang="en")  # not asked: ranked as plain words
    assert asked == []


def test_official_keyword_names_fill_in_what_the_cards_did_not_teach() -> None:
    """A keyword name of the language's list joins the learned terms with its rule's number in
    the corpus (found by the rule's title); a learned term of the same words wins."""
    from kb.search.learned import with_keywords

    rules = {"double strike": ("702.4", "Double Strike"), "deathtouch": ("702.2", "Deathtouch")}
    learned = [("toque mortal", "Deathtouch", "702.2")]
    rows = with_keywords("es", learned, rules)
    assert ("dañar dos veces", "Double Strike", "702.4") in rows
    assert [r for r in rows if r[0] == "toque mortal"] == learned  # not added a second time
    assert not any(r[1] == "Flashback" for r in rows)  # no rule titled so in this corpus


@pytest.mark.parametrize(
    ("query", "lang"),
    [
        ("que signifie vote", "fr"),
        ("¿qué significa voto?", "es"),
    ],
)
def test_a_question_asking_what_a_keyword_means_names_its_rule(
    index: Any, query: str, lang: str
) -> None:
    """ "que signifie X", "¿qué significa X?": the verb frames the question as "comment
    fonctionne" and "¿cómo funciona?" do, and the word left names the rule (with it, 62 of the
    130 French and 64 of the 150 Spanish keyword terms asked so, with and without --lang, did
    not come first)."""
    from kb.search.questions import drop_question_words

    assert drop_question_words(query, (lang,)).rstrip("?") in ("vote", "voto")
    for searched in (lang, None):
        assert index.search(query, lang=searched)["results"][0]["number"] == "701.38", query


def test_a_word_of_its_language_that_is_a_stop_word_of_another_is_searched(index: Any) -> None:
    """ "ante" (the ante zone, rule 407) is a Spanish stop word: without --lang it is searched in
    its detected language alone, not refused as holding only common words."""
    from kb.search.query import QueryError
    from kb.search.ranking import only_stop_words_elsewhere

    assert only_stop_words_elsewhere("ante", "en")
    assert not only_stop_words_elsewhere("les", "fr")  # a stop word of its own language
    assert not only_stop_words_elsewhere("ring tempts you", "en")
    response = index.search("ante")
    assert response["lang"] == "en" and response["lang_detected"] is True
    with pytest.raises(QueryError, match="only common words"):
        index.search("les")


def test_question_words_joined_to_stop_words_frame_a_question() -> None:
    from kb.search.questions import drop_question_words

    assert drop_question_words("peut-on répondre à une capacité", ("fr",)) == (
        "répondre à une capacité"
    )
    assert drop_question_words("l'initiative", ("fr",)) == "l'initiative"  # no question word


def test_only_a_subject_pronoun_is_cut_from_a_hyphenated_word() -> None:
    """ "utilisent-elles", "assigne-t-il": a French question's inverted subject goes; "free-for-all"
    keeps its "for" and "all" (stop words, not pronouns), or the title "Free-for-All Variant"
    would be asked as the question "free variant"."""
    from kb.search.questions import asks, drop_question_words

    langs = ("en", "fr", "es")
    assert drop_question_words("free-for-all variant", langs) == "free-for-all variant"
    assert drop_question_words("comment les créatures utilisent-elles", ("fr",)) == (
        "les créatures utilisent"
    )
    assert drop_question_words("quand la créature assigne-t-elle ses blessures", ("fr",)) == (
        "la créature assigne ses blessures"
    )
    # A title's exclamation mark (702.179 "Start Your Engines!") does not make it a question.
    assert not asks("start your engines!", drop_question_words("start your engines!", langs))
    assert asks("¿qué es la prisa?", drop_question_words("¿qué es la prisa?", langs))


@pytest.mark.parametrize(
    ("query", "lang"),
    [
        ("paso de limpieza", "es"),  # "de" is French too: the game's words tell
        ("efectos de reemplazo", "es"),
        ("étape de nettoyage", "fr"),
        ("prisa", "es"),  # no function word at all
        ("la pila", "es"),  # "pila" is Spanish word for word, French only by its stem
        ("no maximum hand size", "en"),  # "no" is Spanish too, "hand" an English game word
        ("mana value", "en"),  # "mana" is the same word in the three languages
        ("Portador del Anillo", "es"),
    ],
)
def test_a_querys_language_is_told_by_its_game_words_too(query: str, lang: str) -> None:
    from kb.search.detection import detect_query_language

    assert detect_query_language(query) == lang


class _Scored(_Hit):
    """A stand-in hit with a score, as a question's answers have."""

    def __init__(
        self, score: float, docnum: int, held: tuple[str, ...] = (), **fields: Any
    ) -> None:
        super().__init__(**fields)
        self.score, self.docnum, self.held = score, docnum, held

    def matched_terms(self) -> list[tuple[str, bytes]]:
        """The English index terms it holds, as the engine's hits give them."""
        return [("text_en", term.encode("utf-8")) for term in self.held]


STARTING = "Each player draws a number of cards equal to their starting hand size."


def test_a_question_prefers_the_rule_that_holds_more_of_its_words() -> None:
    """ "how many cards does each player draw at the start of the game": 103.5, under "Starting
    the Game", holds all five of its words and comes before 402.1, a shorter line holding three
    of them that BM25 scored higher (COVERAGE); a rule's French terms do not count."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import COVERAGE, TRANSLATED_SHARE, question_order

    def rule(score: float, docnum: int, number: str, held: tuple[str, ...], text: str) -> Any:
        data = {"texts": {"en": {"title": "", "text": text}}, "context": {"en": section}}
        return _Scored(score, docnum, held, type="rule", number=number, data=data)

    terms = {"card", "draw", "game", "player", "start"}
    section = "Starting the Game"
    starting = rule(13.8, 1, "103.5", ("card", "draw", "game", "player", "start"), STARTING)
    section = "Hand"
    hand = rule(18.1, 0, "402.1", ("card", "draw", "player"), "A player draws cards to hand.")
    ranked = question_order([hand, starting], 2, terms, text_analyzer("en"))
    assert [h["number"] for h in ranked] == ["103.5", "402.1"]
    assert starting.score == 13.8 * (1 + COVERAGE)
    french = _Scored(10.0, 2, type="rule", number="402.2", data=hand["data"])
    french.matched_terms = lambda: [("text_fr", b"carte"), ("text_en", b"card")]  # type: ignore[method-assign]
    question_order([french], 1, terms, text_analyzer("en"))
    # (matched in its French text and its English original: TRANSLATED_SHARE of its score)
    assert french.score == pytest.approx(10.0 * TRANSLATED_SHARE * (1 + COVERAGE * (1 / 5) ** 2))


def test_a_question_prefers_the_rule_that_holds_its_words_in_one_sentence() -> None:
    """ "does a copy of a creature get the +1/+1 counters": 707.2 says it in one sentence of a
    long rule ("…status, counters, and stickers are not copied"); a rule holding the same words
    in sentences of their own counts less of its share (NEAR), and a rule of one sentence, or
    holding one of the words, counts its whole share (COVERAGE)."""
    from kb.search.analysis import analyze, text_analyzer
    from kb.search.questions import COVERAGE, NEAR, question_order

    english = text_analyzer("en")
    terms = set(analyze(english, "copy creature counters"))

    def rule(number: str, text: str, held: set[str]) -> Any:
        data = {"texts": {"en": {"title": "", "text": text}}, "context": {"en": ""}}
        return _Scored(10.0, int(number[-1]), tuple(held), type="rule", number=number, data=data)

    spread = rule("702.1", "Put a counter on it. Then copy it. That creature attacks.", terms)
    together = rule(
        "707.2", "A copy gets the values. Counters on the creature are not copied.", terms
    )
    single = rule("707.3", "A creature's copy gets no counters.", terms)
    ranked = question_order([spread, together, single], 3, terms, english)
    assert [h["number"] for h in ranked] == ["707.2", "707.3", "702.1"]
    assert together.score == pytest.approx(10.0 * (1 + COVERAGE))
    assert single.score == pytest.approx(10.0 * (1 + COVERAGE))
    share = (1 - NEAR) + NEAR / 3
    assert spread.score == pytest.approx(10.0 * (1 + COVERAGE * share**2))
    one = rule("702.3", "Put a counter on it. Then it attacks.", set(analyze(english, "counters")))
    question_order([one], 1, terms, english)
    assert one.score == pytest.approx(10.0 * (1 + COVERAGE * (1 / 3) ** 2))


def test_a_questions_glossary_entry_puts_the_rule_it_sends_to_first() -> None:
    """ "combien de cartes chaque joueur pioche-t-il au début de la partie": the glossary entry
    "Starting Hand Size" among the answers sends to 103.5, which then comes before 402.1, a
    line BM25 scored higher (GLOSSARY_SENDS); an entry sending to a whole section ("See rule
    606") does not count, nor does any without a glossary entry among the hits."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import GLOSSARY_SENDS, question_order

    def rule(score: float, docnum: int, number: str) -> Any:
        data = {"texts": {"en": {"title": "", "text": "…"}}, "context": {"en": ""}}
        return _Scored(score, docnum, type="rule", number=number, data=data)

    def entry(docnum: int, see: list[str]) -> Any:
        data = {"texts": {"en": {"title": "Starting Hand Size", "text": "…"}}, "see": see}
        return _Scored(1.0, docnum, type="glossary", data=data)

    english = text_analyzer("en")
    assert 10.0 * GLOSSARY_SENDS > 11.0
    ranked = question_order([rule(11.0, 0, "402.1"), rule(10.0, 1, "103.5")], 2, set(), english)
    assert [h["number"] for h in ranked] == ["402.1", "103.5"]
    for see, first in ((["103.5"], "103.5"), (["103"], "402.1")):
        hits = [rule(11.0, 0, "402.1"), rule(10.0, 1, "103.5"), entry(2, see)]
        ranked = question_order(hits, 3, set(), english)
        assert ranked[0]["number"] == first, see


def test_a_question_word_the_bridge_leads_to_two_terms_counts_once() -> None:
    """French "début" is searched as English "begin" and "start": a rule holding either holds
    the word, and coverage counts the question's words, not the terms they were searched as
    ("combien de cartes chaque joueur pioche-t-il au début de la partie": 103.5, "starting
    hand size", holds every word of it)."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import COVERAGE, question_order

    data = {
        "texts": {"en": {"title": "", "text": STARTING}},
        "context": {"en": "Starting the Game"},
    }
    words = [{"card"}, {"player"}, {"draw"}, {"begin", "start"}, {"game"}]
    terms = set().union(*words)
    starting = _Scored(
        10.0, 0, ("card", "draw", "game", "player", "start"), type="rule", number="103.5", data=data
    )
    ranked = question_order([starting], 1, terms, text_analyzer("en"), words=words)
    assert ranked == [starting] and starting.score == 10.0 * (1 + COVERAGE)
    alone = _Scored(
        10.0, 1, ("card", "draw", "game", "player", "start"), type="rule", number="103.5", data=data
    )
    question_order([alone], 1, terms, text_analyzer("en"))  # by terms: five of six
    assert alone.score == 10.0 * (1 + COVERAGE * (5 / 6) ** 2)


def test_a_question_puts_subrules_before_their_section_and_unnamed_variants_last() -> None:
    """A title-only section (indexed with its subrules' text) and a rule of a variant the
    question does not name (a Two-Headed Giant rule for a question on poison) count less."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import question_order

    def rule(score: float, docnum: int, number: str, title: str, text: str, section: str) -> Any:
        texts = {"en": {"title": title, "text": text}}
        data = {"texts": texts, "context": {"en": section}}
        return _Scored(score, docnum, type="rule", number=number, data=data)

    section = rule(10.0, 0, "702.11", "Hexproof", "", "Keyword Abilities")
    subrule = rule(8.0, 1, "702.11b", "", "Hexproof on a permanent…", "Hexproof")
    team = rule(9.0, 2, "810.10b", "", "Fifteen or more poison counters…", "Two-Headed Giant")
    solo = rule(6.0, 3, "704.5c", "", "Ten or more poison counters…", "State-Based Actions")
    english = text_analyzer("en")
    ranked = question_order([section, subrule, team, solo], 4, {"poison", "counter"}, english)
    assert [h["number"] for h in ranked] == ["702.11b", "704.5c", "702.11", "810.10b"]
    named = rule(9.0, 2, "810.10b", "", "Fifteen or more…", "Two-Headed Giant")
    assert question_order([named, solo], 2, {"giant", "poison"}, english)[0] is named


def test_a_question_that_names_a_variant_prefers_that_variants_own_rules() -> None:
    """ "commander damage" names the Commander variant: its rule 903.10a comes before 704.6c, a
    state-based action "in a Commander game" in the same words and a little shorter."""
    from kb.search.analysis import analyze, text_analyzer
    from kb.search.questions import question_order

    def rule(score: float, docnum: int, number: str, section: str) -> Any:
        data = {
            "texts": {"en": {"title": "", "text": "21 combat damage…"}},
            "context": {"en": section},
        }
        return _Scored(score, docnum, type="rule", number=number, data=data)

    elsewhere = rule(10.0, 0, "704.6c", "State-Based Actions")
    own = rule(9.8, 1, "903.10a", "Commander")
    english = text_analyzer("en")
    terms = set(analyze(english, "commander damage"))
    ranked = question_order([elsewhere, own], 2, terms, english)
    assert [h["number"] for h in ranked] == ["903.10a", "704.6c"]


def test_a_question_that_names_a_variant_prefers_rules_that_say_its_name() -> None:
    """ "each player's life when a Commander game begins": 103.4c ("In a Commander game...
    40") before 103.4 and 119.1 (the ordinary game's 20), which say nothing of the variant and
    score a little more; 103.4 does not come first as the rule stating its subrule's."""
    from kb.search.analysis import analyze, text_analyzer
    from kb.search.questions import question_order

    def rule(score: float, docnum: int, number: str, text: str, section: str) -> Any:
        data = {"texts": {"en": {"title": "", "text": text}}, "context": {"en": section}}
        return _Scored(score, docnum, type="rule", number=number, data=data)

    ordinary = "Each player begins the game with a starting life total of 20."
    commander = "In a Commander game, each player's starting life total is 40."
    hits = [
        rule(17.2, 0, "119.1", ordinary, "Life"),
        rule(17.1, 1, "103.4", ordinary, "Starting the Game"),
        rule(16.3, 2, "103.4c", commander, ""),
        rule(11.7, 3, "903.7", "Each player sets their life total to 40.", "Commander"),
    ]
    english = text_analyzer("en")
    terms = set(analyze(english, "life each player begin commander game"))
    ranked = question_order(hits, 4, terms, english)
    assert [h["number"] for h in ranked][:3] == ["103.4c", "119.1", "103.4"]
    # Without the variant's name, the ordinary game's rules keep their places.
    hits = [
        rule(17.2, 0, "119.1", ordinary, "Life"),
        rule(17.1, 1, "103.4", ordinary, "Starting the Game"),
        rule(16.3, 2, "103.4c", "In a two-player game...", ""),
    ]
    terms = set(analyze(english, "life each player begin game"))
    ranked = question_order(hits, 3, terms, english)
    assert [h["number"] for h in ranked] == ["119.1", "103.4", "103.4c"]


def test_a_questions_sibling_rules_about_as_good_as_the_best_go_in_the_rules_order() -> None:
    """BM25 prefers the shorter line: an exception ("Hexproof from [quality]", 702.11d) outranked
    the rule it qualifies (702.11b). Siblings (one parent) scoring at least SIBLING_SHARE of the
    best of them take the places they held in the rules' order (702.9 before 702.10); a sibling
    far below, another rule's subrule and a card keep their places."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import SIBLING_SHARE, question_order

    def hit(score: float, docnum: int, kind: str, number: str) -> Any:
        data = {"texts": {"en": {"title": "", "text": "Some text."}}, "context": {"en": "Rules"}}
        return _Scored(score, docnum, type=kind, number=number, data=data)

    hits = [
        hit(10.0, 0, "rule", "702.11d"),
        hit(9.9, 1, "card", None),
        hit(9.8, 2, "rule", "702.19d"),
        hit(9.5, 3, "rule", "702.11b"),
        hit(10.0 * SIBLING_SHARE - 0.1, 4, "rule", "702.11a"),  # too far below the best of them
        hit(8.0, 5, "rule", "702.10"),
        hit(7.9, 6, "rule", "702.9"),
    ]
    ranked = question_order(hits, 7, {"hexproof"}, text_analyzer("en"))
    shown = [h["number"] for h in ranked]
    assert shown == ["702.11b", None, "702.19d", "702.11d", "702.11a", "702.9", "702.10"], shown


def test_a_questions_cousin_subrules_about_as_good_as_the_best_go_in_the_rules_order() -> None:
    """605.3b (activated mana abilities) and 605.4a (triggered ones) say the same in the same
    words; BM25 preferred the later one, which holds "mana ability" twice. Subrules of one rule's
    rules scoring at least COUSIN_SHARE of the best of them go in the rules' order; not in the
    keyword chapters, where each rule is a keyword of its own (702.19d stays after 702.11d)."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import COUSIN_SHARE, question_order

    def hit(score: float, docnum: int, number: str) -> Any:
        data = {"texts": {"en": {"title": "", "text": "Some text."}}, "context": {"en": "Rules"}}
        return _Scored(score, docnum, type="rule", number=number, data=data)

    hits = [
        hit(10.0, 0, "605.4a"),
        hit(9.9, 1, "605.3b"),
        hit(9.8, 2, "702.19d"),
        hit(9.7, 3, "702.11d"),
        hit(10.0 * COUSIN_SHARE - 0.1, 4, "605.1a"),  # too far below the best of them
    ]
    ranked = question_order(hits, 5, {"mana"}, text_analyzer("en"))
    shown = [h["number"] for h in ranked]
    assert shown == ["605.3b", "605.4a", "702.19d", "702.11d", "605.1a"], shown


def test_the_words_of_a_learned_term_inside_a_query_are_its_keyword() -> None:
    from kb.search.lang import phrase_spans, register_learned_terms

    register_learned_terms("xx", [("dañar dos veces", "Double strike", "702.4")])
    words = "cuánto daño hace una criatura con dañar dos veces".split()
    assert phrase_spans("xx", words) == [(6, 3, ("double strike",))]
    assert phrase_spans("xx", ["dos", "veces"]) == []  # only the whole term


@pytest.mark.parametrize(
    ("lang", "question"),
    [
        ("fr", "que devient un jeton qui quitte le champ de bataille"),
        ("es", "qué pasa con una ficha que deja el campo de batalla"),
    ],
)
@pytest.mark.parametrize("any_language", [False, True])
def test_a_phrase_of_the_bridge_is_searched_as_one_term(
    lang: str, question: str, any_language: bool
) -> None:
    """ "champ de bataille" is the battlefield: searched as one word (the phrase in the texts of
    the query's languages, "battlefield" in English), not also as a battle, nor as two words
    that would count twice in a French text for once in an English one."""
    from kb.search.plain import plain_tree
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    schema = build_schema()
    context = QueryContext(lang=lang, editions=[], any_language=any_language)
    tree = plain_tree(schema, question, context)
    assert tree is not None

    def leaves(node: Any) -> list[Any]:
        if node[0] in ("and", "or"):
            return [leaf for child in node[1] for leaf in leaves(child)]
        return [node]

    english = {n[2] for n in leaves(tree) if n[0] == "term" and n[1] == "text_en"}
    assert "battlefield" in english and "battl" not in english, english
    phrases = [n[1] for n in leaves(tree) if n[0] == "query"]
    own = [q for q in phrases if q.fieldname == f"text_{lang}"]
    assert len(own) == 1 and len(own[0].words) == 2, phrases  # "de" is a stop word
    # One word of the query: the phrase, as typed.
    assert context.words[-1] == " ".join(question.split()[-3:]), context.words
    assert tree[0] == "and" and len(tree[1]) == len(context.words), tree


def test_a_french_question_drops_the_inverted_subject_of_its_verb() -> None:
    from kb.search.questions import drop_question_words

    question = "les blessures de combat utilisent-elles la pile"
    assert drop_question_words(question, ("fr",)) == "les blessures de combat utilisent la pile"
    assert drop_question_words("le piétinement assigne-t-il les blessures", ("fr",)) == (
        "le piétinement assigne les blessures"
    )
    assert drop_question_words("le Ring-bearer attaque", ("en", "fr", "es")) == (
        "le Ring-bearer attaque"
    )

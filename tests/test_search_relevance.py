"""Ranking fixes judged on the relevance set's dev splits (issue 12), each on a stand-in case."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from search_kb import ingested


class _Hit(dict):  # type: ignore[type-arg]
    """A stand-in search hit: stored fields by key, ``fields()`` the lot, a score, a docnum."""

    def __init__(self, score: float, docnum: int, **fields: Any) -> None:
        super().__init__(**fields)
        self.score, self.docnum = score, docnum

    def fields(self) -> dict[str, Any]:
        return dict(self)

    def matched_terms(self) -> list[tuple[str, bytes]]:
        """None of the question's terms: the scores given stay as they are (COVERAGE adds 0)."""
        return []


def _rule(
    score: float, docnum: int, number: str, section: str, title: str = "", text: str = "Some text."
) -> _Hit:
    data = {"texts": {"en": {"title": title, "text": text}}, "context": {"en": section}}
    return _Hit(score, docnum, type="rule", number=number, data=data)


@pytest.mark.parametrize(
    ("lang", "question", "words"),
    [
        ("fr", "combien de terrains puis-je jouer par tour", "de terrains jouer par tour"),
        ("fr", "combien de cartes dois-je défausser", "de cartes défausser"),
        ("es", "¿puedo lanzar un conjuro?", "lanzar un conjuro"),
        ("es", "¿cuántas cartas debo descartar?", "cartas descartar"),
    ],
)
def test_the_first_person_of_can_and_must_frames_a_question(
    lang: str, question: str, words: str
) -> None:
    """ "puis-je", "puedo", "dois-je", "debo" ask, as "peut-il" and "puede" do: searched, they
    made a French or Spanish card text holding "puis" or "puedo" an answer."""
    from kb.search.questions import drop_question_words

    assert drop_question_words(question, (lang,)) == words


def test_only_a_distinctive_word_of_a_variant_names_it() -> None:
    """ "attack" (in every chapter) does not name the Attack Multiple Players Option, nor "two"
    the Two-Headed Giant Variant: their rules count VARIANT_SHARE, as for a question that names
    no variant; "giant" still names the latter."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import VARIANT_SHARE, question_order

    english = text_analyzer("en")
    common = {"attack", "two", "player"}

    def distinctive(term: str) -> bool:
        return term not in common

    option = _rule(10.0, 0, "802.2a", "Attack Multiple Players Option")
    defender = _rule(9.0, 1, "702.3b", "Defender")
    ranked = question_order([option, defender], 2, {"defend", "attack"}, english, None, distinctive)
    assert [h["number"] for h in ranked] == ["702.3b", "802.2a"]
    assert option.score == pytest.approx(10.0 * VARIANT_SHARE)
    team = _rule(10.0, 0, "810.10b", "Two-Headed Giant Variant")
    draw = _rule(9.0, 1, "104.4a", "Ending the Game")
    ranked = question_order([team, draw], 2, {"two", "player", "lose"}, english, None, distinctive)
    assert [h["number"] for h in ranked] == ["104.4a", "810.10b"]
    team = _rule(10.0, 0, "810.10b", "Two-Headed Giant Variant")
    draw = _rule(9.0, 1, "104.4a", "Ending the Game")
    ranked = question_order([team, draw], 2, {"giant", "lose"}, english, None, distinctive)
    assert [h["number"] for h in ranked] == ["810.10b", "104.4a"]


def test_a_phrase_of_the_bridge_is_one_word_of_the_name_it_gives() -> None:
    """ "mal d'invocation" is summoning sickness, one word as it is searched, and the glossary
    term "Summoning Sickness Rule" names it with a word to spare (word by word, "mal" and
    "invocation" named nothing, and the cards "Invocateur…" came first)."""
    from kb.search.naming import naming_words, word_terms
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    schema = build_schema()
    for lang, phrase in (("fr", "mal d'invocation"), ("es", "mareo de invocación")):
        words = word_terms(schema, phrase, QueryContext(lang=lang, editions=[]))
        assert len(words) == 1, words
        assert {"summon", "sick"} <= words[0]["text_en"], words
        texts = {"en": {"title": "Summoning Sickness Rule", "text": "Informal term…"}}
        entry = _Hit(1.0, 0, type="glossary", data={"texts": texts, "see": ["302.6"]})
        assert naming_words(schema, entry, words, lang)[0] == 2


def test_of_two_titles_naming_the_words_alike_the_one_in_the_querys_language_is_meant() -> None:
    """Without --lang, "the initiative" (detected English) is searched in every language's
    texts: it names 725 "The Initiative" and, through its French title, 702.7 first strike
    ("Initiative") exactly and as typed; the English title is meant. With --lang fr, the
    French one."""
    from kb.search.naming import named_lead, naming_words, word_terms
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    schema = build_schema()
    first_strike = _Hit(
        9.0,
        0,
        type="rule",
        number="702.7",
        edition="e",
        data={"texts": {"en": {"title": "First Strike"}, "fr": {"title": "Initiative"}}},
    )
    initiative = _Hit(
        8.0,
        1,
        type="rule",
        number="725",
        edition="e",
        data={"texts": {"en": {"title": "The Initiative"}}},
    )
    detected = QueryContext(lang="en", editions=[], any_language=True)
    words = word_terms(schema, "the initiative", detected)
    assert naming_words(schema, initiative, words, "en") > naming_words(
        schema, first_strike, words, "en"
    )
    hits = [first_strike, initiative]
    assert named_lead(schema, hits, "the initiative", detected)[0] is initiative
    french = QueryContext(lang="fr", editions=[])
    assert named_lead(schema, hits, "initiative", french)[0] is first_strike


def test_of_two_titles_stemmed_alike_the_one_the_words_are_as_typed_is_meant() -> None:
    """ "enchantments" stems as "Enchant" (702.5) does, and names both titles exactly; the one
    typed, 303 "Enchantments", is meant, whichever comes first among the hits."""
    from kb.search.naming import named_lead
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    schema = build_schema()

    def rule(docnum: int, number: str, title: str) -> _Hit:
        data = {"texts": {"en": {"title": title}}}
        return _Hit(1.0, docnum, type="rule", number=number, edition="e", data=data)

    enchant, enchantments = rule(0, "702.5", "Enchant"), rule(1, "303", "Enchantments")
    context = QueryContext(lang="en", editions=[])
    for hits in ([enchant, enchantments], [enchantments, enchant]):
        assert named_lead(schema, hits, "enchantments", context)[0] is enchantments
        assert named_lead(schema, hits, "Enchant", context)[0] is enchant


def test_a_glossary_term_sending_to_several_rules_sends_to_the_one_its_words_name() -> None:
    """The glossary's "Triggered Ability" names "triggered abilities" exactly and sends to 113
    "Abilities" first, then to 603 "Handling Triggered Abilities": 603, whose title names the
    words too, is the rule meant (at the whole history "habilidades disparadas" gave 113)."""
    from kb.search.naming import named_lead
    from kb.search.query import QueryContext
    from kb.search.schema import build_schema

    schema = build_schema()

    def rule(docnum: int, number: str, title: str) -> _Hit:
        data = {"texts": {"en": {"title": title}}}
        return _Hit(1.0, docnum, type="rule", number=number, edition="e", data=data)

    abilities, handling = (
        rule(0, "113", "Abilities"),
        rule(1, "603", "Handling Triggered Abilities"),
    )
    entry = _Hit(
        1.0,
        2,
        type="glossary",
        edition="e",
        data={"texts": {"en": {"title": "Triggered Ability"}}, "see": ["113", "603"]},
    )
    spanish = QueryContext(lang="es", editions=[])
    for hits in ([abilities, handling, entry], [entry, handling, abilities]):
        assert named_lead(schema, hits, "habilidades disparadas", spanish)[0] is handling
        english = QueryContext(lang="en", editions=[])
        assert named_lead(schema, hits, "triggered abilities", english)[0] is handling
    # An entry sending to one rule only still sends to it.
    entry["data"] = {**entry["data"], "see": ["113"]}
    assert (
        named_lead(schema, [abilities, handling, entry], "triggered abilities", english)[0]
        is abilities
    )


def test_a_questions_subrule_takes_the_place_of_its_title_only_section() -> None:
    """ "702.3. Défenseur" (title-only, indexed with its subrules' text, its French title a word
    of the question) came first even counted down; its best subrule among the hits (702.3b, "A
    creature with defender can't attack") takes its place, the section right after it. A
    section with no subrule among the hits keeps its place."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import question_order

    def section(score: float, docnum: int, number: str) -> _Hit:
        data = {"texts": {"fr": {"title": "Défenseur", "text": ""}}, "context": {}}
        return _Hit(score, docnum, type="rule", number=number, data=data)

    hits = [
        section(20.0, 0, "702.3"),
        _Hit(11.0, 1, type="card", number=None, data={}),
        _rule(10.5, 2, "508.4", "Declare Attackers Step"),
        _rule(9.0, 3, "702.3b", "Defender"),
        section(18.0, 4, "702.9"),
        _rule(8.0, 5, "702.19b", "Trample"),
    ]
    ranked = question_order(hits, 6, {"defend", "attack"}, text_analyzer("en"))
    shown = [h["number"] for h in ranked]
    assert shown == ["702.3b", "702.3", None, "702.9", "508.4", "702.19b"], shown


def test_a_questions_state_based_actions_count_more() -> None:
    """ "what happens to a creature with 0 toughness": the state-based action 704.5f answers it,
    and BM25 put "To double a creature's power…" (701.10b, each word of the question twice or
    more) before it; 704.5 itself (the list's title) and other rules are left as they are."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import STATE_BASED, question_order

    double = _rule(11.6, 0, "701.10b", "Double")
    state = _rule(9.9, 1, "704.5f", "State-Based Actions")
    listing = _rule(9.8, 2, "704.5", "State-Based Actions", text="The actions are as follows:")
    ranked = question_order([double, state, listing], 3, {"toughness"}, text_analyzer("en"))
    assert [h["number"] for h in ranked] == ["704.5f", "701.10b", "704.5"]
    assert state.score == pytest.approx(9.9 * STATE_BASED)
    assert listing.score == pytest.approx(9.8)


def test_a_questions_rule_comes_before_its_subrules_that_score_about_as_well() -> None:
    """ "how many lands can I play each turn": 305.2 ("A player can normally play one land
    during their turn") answers it, and BM25 put its subrules' shorter lines (305.2a, 305.2b)
    first. A rule scoring PARENT_SHARE of the best of them or more takes the first one's place;
    one scoring less, or introducing a list of its subrules ("the following…"), keeps its own."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import PARENT_SHARE, question_order

    english = text_analyzer("en")
    lands = [
        _rule(13.4, 0, "305.2a", "Lands"),
        _rule(12.8, 1, "305.2b", "Lands"),
        _rule(12.0, 2, "701.18a", "Play"),
        _rule(13.4 * PARENT_SHARE, 3, "305.2", "Lands"),
    ]
    ranked = question_order(lands, 4, {"land", "play", "turn"}, english)
    assert [h["number"] for h in ranked] == ["305.2", "305.2a", "305.2b", "701.18a"]
    lands = [
        _rule(13.4, 0, "305.2a", "Lands"),
        _rule(13.4 * PARENT_SHARE - 0.1, 1, "305.2", "Lands"),
    ]
    ranked = question_order(lands, 2, {"land", "play", "turn"}, english)
    assert [h["number"] for h in ranked] == ["305.2a", "305.2"]
    listing = "Each Commander deck is subject to the following deck construction rules."
    deck = [
        _rule(12.4, 0, "903.5a", "Commander"),
        _rule(11.7, 1, "903.5", "Commander", text=listing),
    ]
    ranked = question_order(deck, 2, {"card", "deck", "command"}, english)
    assert [h["number"] for h in ranked] == ["903.5a", "903.5"]


def test_a_questions_named_keyword_counts_more() -> None:
    """ "can I sacrifice a creature my opponent controls": 701.21a ("To sacrifice a permanent…")
    answers it, and 508.7c ("an opponent of the attacking creature's controller", three times)
    scored a little more. A rule of a keyword section whose title is a distinctive word of the
    question counts NAMED_KEYWORD times its score; a common word ("play") names no keyword, and
    a rule outside the keyword sections is left as it is."""
    from kb.search.analysis import analyze, text_analyzer
    from kb.search.questions import NAMED_KEYWORD, question_order

    english = text_analyzer("en")
    terms = set(analyze(english, "sacrifice creature opponent controls"))
    sacrifice = _rule(10.0, 0, "701.21a", "Sacrifice")
    attackers = _rule(10.4, 1, "508.7c", "Declare Attackers Step")
    ranked = question_order([attackers, sacrifice], 2, terms, english)
    assert [h["number"] for h in ranked] == ["701.21a", "508.7c"]
    assert sacrifice.score == pytest.approx(10.0 * NAMED_KEYWORD)
    assert attackers.score == pytest.approx(10.4)
    terms = set(analyze(english, "lands play turn"))
    play = _rule(10.0, 0, "701.18a", "Play")
    lands = _rule(10.4, 1, "305.2", "Lands")
    common = set(analyze(english, "play"))
    ranked = question_order([lands, play], 2, terms, english, None, lambda t: t not in common)
    assert [h["number"] for h in ranked] == ["305.2", "701.18a"]
    assert play.score == pytest.approx(10.0)


@pytest.fixture(scope="module")
def small_index(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The small corpus the search tests share, ingested (the ingest leaves an index)."""
    from kb.search import open_index

    folder: Path = ingested(tmp_path_factory.mktemp("relevance") / "_kb")
    with open_index(folder / "index") as opened:
        yield opened


def test_a_card_named_by_words_of_a_question_comes_after_the_rules(small_index: Any) -> None:
    """ "can the front face vote": the card "Front Face // Back Face" holds two of its words in
    its name (counted twice, and in the name field), the vote rules one; a question asks how the
    rules work, and its cards count QUESTION_PRIOR["card"] (0.4 put this card first)."""
    results = small_index.search("can the front face vote", lang="en")["results"]
    shown = [r.get("number") or r["type"] for r in results]
    assert shown.index("701.38a") < shown.index("card"), shown


@pytest.mark.parametrize(
    "question",
    [
        "can I sacrifice a creature my opponent controls",
        "how many poison counters does a player need to lose the game",
        "¿cuántos contadores de veneno necesita un jugador para perder la partida?",
        "si l'une des deux créatures a disparu, l'échange de contrôle a-t-il quand même lieu",
    ],
)
def test_more_results_add_to_the_first_page_without_reordering_it(
    small_index: Any, question: str
) -> None:
    """A question's answers are weighed within a pool as deep as the limit: without PAGE,
    ``--limit 40`` reordered the first ten of 73 of the 372 dev queries."""
    first = [r["key"] for r in small_index.search(question, limit=10)["results"]]
    more = small_index.search(question, limit=40)["results"]
    assert [r["key"] for r in more[: len(first)]] == first
    assert [r["rank"] for r in more] == list(range(1, len(more) + 1))


def test_a_translated_rule_does_not_count_its_words_twice() -> None:
    """A Spanish question's words matched in a translated rule's Spanish text and again in its
    English original summed both fields' scores (701.54c, "El Anillo te tienta", first for
    "¿puedo sacrificar una criatura que controla mi oponente?" at the whole history): such a
    rule counts TRANSLATED_SHARE of its score, against a rule matched in English alone."""
    from kb.search.analysis import text_analyzer
    from kb.search.questions import TRANSLATED_SHARE, question_order

    class _Matched(_Hit):
        def __init__(self, score: float, docnum: int, fields: list[str], **stored: Any) -> None:
            super().__init__(score, docnum, **stored)
            self._fields = fields

        def matched_terms(self) -> list[tuple[str, bytes]]:
            return [(field, b"sacrific") for field in self._fields]

    data = {"texts": {"en": {"title": "", "text": "Some text."}}, "context": {"en": "Rules"}}
    translated = _Matched(10.0, 1, ["text_en", "text_es"], type="rule", number="701.54c", data=data)
    english = _Matched(8.0, 2, ["text_en"], type="rule", number="701.21a", data=data)
    ranked = question_order([translated, english], 10, set(), text_analyzer("en"))
    assert [h["number"] for h in ranked] == ["701.21a", "701.54c"]
    assert translated.score == pytest.approx(10.0 * TRANSLATED_SHARE)

"""Query parsing: filters and their values, stop words, languages, the bridge, jumps, fuzziness."""

from __future__ import annotations

import re
from typing import Any

import pytest
from whoosh import query as wq

from kb.search.plain import parse
from kb.search.query import QueryContext, QueryError, check_types, jump_numbers
from kb.search.schema import build_schema

EDITIONS = ["2024-01-05", "2025-02-07"]


@pytest.fixture(scope="module")
def schema() -> Any:
    return build_schema()


def _parse(schema: Any, text: str, lang: str = "en") -> tuple[Any, QueryContext]:
    context = QueryContext(lang=lang, editions=list(EDITIONS))
    return parse(schema, text, context), context


def _terms(q: Any) -> set[tuple[str, str]]:
    return {
        (field, text.decode() if isinstance(text, bytes) else text) for field, text in q.all_terms()
    }


def test_plain_english_words_are_all_required_plain_terms(schema: Any) -> None:
    q, context = _parse(schema, "ring tempts you")
    # "you" is an English stop word; each word is one term of the English text field.
    assert q == wq.And([wq.Term("text_en", "ring"), wq.Term("text_en", "tempt")])
    assert context.words == ["ring", "tempts"]


def test_french_words_also_search_english_as_typed_and_bridged(schema: Any) -> None:
    q, context = _parse(schema, "compteur de lore", lang="fr")
    assert context.words == ["compteur", "lore"]  # "de" is a French stop word
    terms = _terms(q)
    assert ("text_fr", "compteur") in terms
    assert ("text_en", "counter") in terms  # the bridge: compteur -> counter
    assert ("text_en", "lore") in terms  # as typed, in the English texts
    boosts = {(s.fieldname, s.text): s.boost for s in q.leaves()}
    assert boosts[("text_fr", "compteur")] > boosts[("text_en", "counter")]
    assert boosts[("text_en", "counter")] > boosts[("text_en", "lore")]
    # A word the bridge translates is searched in the English texts as its translation only.
    assert ("text_en", "compteur") not in terms


@pytest.mark.parametrize("any_language", [False, True])
def test_a_translated_word_is_not_searched_as_typed_in_english(
    schema: Any, any_language: bool
) -> None:
    """French "main" is the hand: in the English texts it would be the main phase."""
    context = QueryContext(lang="fr", editions=list(EDITIONS), any_language=any_language)
    terms = _terms(parse(schema, "cartes en main", context))
    assert ("text_en", "hand") in terms
    assert ("text_en", "main") not in terms
    assert ("text_fr", "main") in terms
    # English as typed still, for a word the bridge leads to itself or does not know.
    terms = _terms(parse(schema, "commander lore", context))
    assert {("text_en", "command"), ("text_en", "lore")} <= terms


def test_spanish_bridge(schema: Any) -> None:
    q, _ = _parse(schema, "voto empate", lang="es")
    terms = _terms(q)
    assert {("text_en", "vote"), ("text_en", "tie"), ("text_es", "vot"), ("text_es", "empat")} <= (
        terms
    )


def test_an_english_word_is_not_bridged_back_to_itself_without_lang(schema: Any) -> None:
    """Without --lang an English query's words also cross the French and Spanish bridges:
    "controls" (French "contrôle") came back as "control", counted a second time."""
    context = QueryContext(lang="en", editions=list(EDITIONS), any_language=True)
    q = parse(schema, "opponent controls", context)
    english = [s for s in q.leaves() if s.fieldname == "text_en"]
    texts = [s.text.decode() if isinstance(s.text, bytes) else s.text for s in english]
    assert texts.count("control") == 1
    assert {s.boost for s in english} == {1.0}


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("type:rulings", "type", "ruling"),
        ("TYPE:Card", "type", "card"),
        ("lang:FR", "langs", "fr"),
        ("langue:es", "langs", "es"),
        ("set:khm", "set", "khm"),
        ("source:WotC", "source", "wotc"),
        ("provenance:machine", "provenance", "machine"),
        ("edition:2024-01-05", "edition", "2024-01-05"),
        ("edition:latest", "edition", "2025-02-07"),
        ("rule:701.54a", "number", "701.54a"),
    ],
)
def test_filter_values_are_normalised(schema: Any, text: str, field: str, value: str) -> None:
    q, context = _parse(schema, text)
    assert (field, value) in _terms(q)
    assert context.filters[field] == [value]


def test_card_filter_takes_a_phrase(schema: Any) -> None:
    q, _ = _parse(schema, 'card:"Trickster-God’s Heist" chapter')
    phrases = [s for s in q.subqueries if isinstance(s, wq.Phrase)]
    assert phrases and phrases[0].fieldname == "card"
    assert phrases[0].words == ["trickster", "god's", "heist"]


def test_date_filter_is_a_range(schema: Any) -> None:
    q, _ = _parse(schema, "date:2023 vote")
    ranges = [s for s in q.subqueries if isinstance(s, wq.NumericRange)]
    assert ranges and ranges[0].fieldname == "date"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("type:spell", "unknown type"),
        ("lang:de", "unsupported language 'de'"),
        ("edition:2020-01-01", "no such edition in the index (indexed: 2024-01-05, 2025-02-07)"),
        ("provenance:ai", "unknown provenance"),
        ("date:June", "expected a year"),
    ],
)
def test_bad_filter_values_are_errors_that_name_them(schema: Any, text: str, message: str) -> None:
    with pytest.raises(QueryError, match=re.escape(message)):
        _parse(schema, text)


def test_boolean_operators_and_minus(schema: Any) -> None:
    q, _ = _parse(schema, "vote OR ballot")
    assert isinstance(q, wq.Or)
    q, _ = _parse(schema, "vote NOT tie")
    assert any(isinstance(s, wq.Not) for s in q.subqueries)
    q, _ = _parse(schema, "vote -tie")
    assert isinstance(q, wq.AndNot)
    # A dash inside a word is not an operator.
    q, _ = _parse(schema, "edition:2024-01-05 Ring-bearer")
    assert ("edition", "2024-01-05") in _terms(q)
    assert not isinstance(q, wq.AndNot)


def test_a_sign_before_a_number_is_no_operator(schema: Any) -> None:
    """ "a +1/+1 counter and a -1/-1 counter": the signs are the numbers', not a required and an
    excluded word (every text holding a 1 was excluded, and the question found nothing); a
    power/toughness modifier is one word, as the texts index it, another number unsigned."""
    q, context = _parse(schema, "creature +1/+1 counter -1/-1 counter")
    assert not any(isinstance(s, (wq.Not, wq.AndNot)) for s in [q, *q.children()])
    assert {("text_en", "+1/+1"), ("text_en", "-1/-1"), ("text_en", "counter")} <= _terms(q)
    assert context.words == ["creature", "+1/+1", "counter", "-1/-1", "counter"]
    q, _ = _parse(schema, "gets -X/-X until end of turn")
    assert ("text_en", "-x/-x") in _terms(q) and not isinstance(q, wq.AndNot)
    q, _ = _parse(schema, "loyalty -3 ability")
    assert ("text_en", "3") in _terms(q) and not isinstance(q, wq.AndNot)
    q, _ = _parse(schema, "vote -tie")  # a word's minus still excludes it
    assert isinstance(q, wq.AndNot)


def test_a_french_order_is_searched_as_order_in_english(schema: Any) -> None:
    """ "dans quel ordre…" reaches the English rules that say "order" (603.3b, the triggered
    abilities put on the stack in the order their controllers choose), as Spanish "orden" does."""
    for text, lang in (("ordre capacités", "fr"), ("orden habilidades", "es")):
        q, _ = _parse(schema, text, lang=lang)
        assert ("text_en", "order") in _terms(q)


@pytest.mark.parametrize(
    ("text", "lang", "counts"),
    [
        ("une créature bloquer deux créatures attaquantes", "fr", True),
        ("una criatura bloquear a dos criaturas atacantes", "es", True),
        ("un joueur pioche deux cartes", "fr", False),  # "un" before another noun: an article
        ("une créature bloque", "fr", False),
    ],
)
def test_an_article_that_counts_one_of_what_a_numeral_counts_is_the_numeral_one(
    schema: Any, text: str, lang: str, counts: bool
) -> None:
    """ "une créature … deux créatures": the stop word "une" counts creatures, and is searched as
    English "one" (509.1a, one creature for each blocker to block); elsewhere it is an article."""
    q, context = _parse(schema, text, lang=lang)
    assert (("text_en", "one") in _terms(q)) is counts
    assert (text.split()[0] in context.words) is counts


def test_phrases_keep_their_words_in_order(schema: Any) -> None:
    q, _ = _parse(schema, '"the ring tempts you"')
    assert isinstance(q, wq.Phrase)
    assert q.fieldname == "text_en" and q.words == ["ring", "tempt"]


def test_unknown_field_names_are_plain_words(schema: Any) -> None:
    q, context = _parse(schema, "colour:blue")
    assert context.words == ["colour:blue"]
    assert ("text_en", "blue") in _terms(q)


def test_only_stop_words_parse_to_nothing(schema: Any) -> None:
    q, context = _parse(schema, "the of and")
    assert isinstance(q, wq.qcore._NullQuery)
    assert context.words == []


def test_fuzzy_turns_words_into_fuzzy_terms(schema: Any) -> None:
    context = QueryContext(lang="en", editions=list(EDITIONS), fuzzy=True)
    q = parse(schema, "tempst", context)
    assert isinstance(q, wq.FuzzyTerm)
    assert q.fieldname == "text_en" and q.maxdist == 1 and q.prefixlength == 1


def test_edition_all_drops_the_default(schema: Any) -> None:
    q, context = _parse(schema, "edition:all vote")
    assert context.filters["edition"] == ["*"]
    assert all(field != "edition" for field, _ in _terms(q))


def test_a_number_among_words_also_searches_the_rule_number(schema: Any) -> None:
    q, _ = _parse(schema, "tempt 701.54a")
    assert ("number", "701.54a") in _terms(q) and ("text_en", "701.54a") in _terms(q)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("701.54", ["701.54"]),
        ("701.54a", ["701.54a"]),
        ("701.54.", ["701.54"]),
        ("rule 701.54a", ["701.54a"]),
        ("Règle 701.54", ["701.54"]),
        ("regla 701.54", ["701.54"]),
        ("701.54a–c", ["701.54a", "701.54b", "701.54c"]),
        ("701.54a-701.54c", ["701.54a", "701.54b", "701.54c"]),
        ("704.5k-m", ["704.5k", "704.5m"]),
        ("701", ["701"]),
        ("7", ["7"]),
        ("ring 701.54", None),
        ("2023", None),
    ],
)
def test_rule_number_jumps(text: str, numbers: list[str] | None) -> None:
    assert jump_numbers(text) == numbers


def test_backwards_range_is_an_error() -> None:
    with pytest.raises(QueryError, match="backwards"):
        jump_numbers("701.54c–a")


def test_type_parameter() -> None:
    assert check_types("rules, Card,rule") == ["rule", "card"]
    assert check_types(None) is None
    with pytest.raises(QueryError, match="unknown type 'spells'"):
        check_types("spells")


def _eval_queries() -> list[tuple[str, str]]:
    from pathlib import Path

    from kb.search.evaluation import load_queries

    path = Path(__file__).resolve().parent / "data" / "search_eval.tsv"
    return [(q.lang, q.query) for q in load_queries(path)] + [
        ("en", "701.54a ring"),
        ("fr", "l'anneau égalité"),
        ("es", "el de la"),
        ("en", "vote vote tied"),  # a word twice
        ("en", "doesn’t GOD'S Ring.bearer"),  # curly apostrophe, possessive, inner dot
        ("fr", "on the vote"),  # English stop words typed in French
        ("es", "portador anillo 701.54"),  # a bridge to a phrase, a number
        ("fr", "Élan Créature légendaire"),  # accents and capitals
        ("fr", "comment le piétinement assigne-t-il les blessures"),  # inner hyphens
        ("en", "Ring-bearer two-headed giant"),
        ("es", "Portador-del-Anillo 2026-01-16"),
        ("fr", "que se passe-t-il si"),
    ]


@pytest.mark.parametrize("relaxed", [False, True])
@pytest.mark.parametrize(("lang", "text"), _eval_queries())
def test_plain_words_skip_the_parser_to_the_same_query(
    schema: Any, lang: str, text: str, relaxed: bool
) -> None:
    from kb.search.plain import plain_query
    from kb.search.query import make_parser

    common = (lambda field, term: term in {"creatur", "target"}) if relaxed else None
    fast_context = QueryContext(lang=lang, editions=list(EDITIONS), too_common=common)
    fast = plain_query(schema, text, fast_context, relaxed=relaxed)
    slow_context = QueryContext(lang=lang, editions=list(EDITIONS), too_common=common)
    slow = make_parser(schema, slow_context, relaxed=relaxed).parse(text)
    if fast is None:  # a leading minus, dashes: left to the parser
        assert re.search(r"(?<!\w)-|–", text)
        return
    assert fast == slow
    assert fast_context.words == slow_context.words


def _shape(plan: Any) -> Any:
    if plan is None:
        return None
    groups = [
        [[(leaf.fieldname, leaf.text, leaf.boost) for leaf in clause.leaves] for clause in group]
        for group in plan.groups
    ]
    return groups, plan.scale


@pytest.mark.parametrize("relaxed", [False, True])
@pytest.mark.parametrize(("lang", "text"), _eval_queries())
def test_the_term_engine_plans_plain_words_as_their_whoosh_query(
    schema: Any, lang: str, text: str, relaxed: bool
) -> None:
    from kb.search.plain import plain_tree, to_query
    from kb.search.plan import plan_query, plan_tree

    common = (lambda field, term: term in {"creatur", "target"}) if relaxed else None
    context = QueryContext(lang=lang, editions=list(EDITIONS), too_common=common)
    tree = plain_tree(schema, text, context, relaxed=relaxed)
    if tree is None:
        # not plain words: query syntax, which the parser's query (planned by plan_query itself)
        # takes instead; a query of plain words must always get a tree
        assert re.search(r'[:"*?~()\[\]^+-]|\b(AND|OR|NOT|TO)\b|\d{3}\.\d', text), text
        return
    plan = plan_tree(tree)
    assert _shape(plan) == _shape(plan_query(to_query(tree)))
    # a plan for every query but those of stop words only and those the bridge makes phrases of
    assert plan is not None or tree[0] == "null" or "portador" in text.lower()


def test_a_tree_in_one_field_keeps_only_that_fields_searches(schema: Any) -> None:
    """``in_field``: a Spanish question's English searches (its bridged terms, a phrase of the
    bridge) and nothing of its Spanish ones; NULL for a tree that searches no English text."""
    from kb.search.plain import NULL, in_field, plain_tree, to_query
    from kb.search.query import RELAXED_SCALE

    context = QueryContext(lang="es", editions=list(EDITIONS))
    tree = plain_tree(schema, "roba cartas en el campo de batalla", context, relaxed=True)
    assert tree is not None
    english = in_field(tree, "text_en")
    terms = _terms(to_query(english))
    assert terms and all(field == "text_en" for field, _ in terms)
    assert ("text_en", "draw") in terms and ("text_en", "battlefield") in terms
    assert english[0] == "or" and english[2] == RELAXED_SCALE
    assert in_field(("term", "text_es", "robar", 1.0), "text_en") is NULL
    assert in_field(tree, "text_de") is NULL

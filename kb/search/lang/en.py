"""English: the language of the originals; Snowball stemmer and stop words, no bridge needed."""

from __future__ import annotations

from whoosh.lang import stemmer_for_language, stopwords_for_language

from kb.search.lang import SearchLanguage

# Irregular verb forms of the rules' vocabulary, which the Snowball stemmer leaves apart from
# their verb ("a token that has left the battlefield" must answer "a token that leaves it").
_FORMS = {
    "become": "became",
    "begin": "began begun",
    "bring": "brought",
    "choose": "chose chosen",
    "come": "came",
    "deal": "dealt",
    "draw": "drew drawn",
    "fight": "fought",
    "find": "found",
    "give": "gave given",
    "go": "went gone",
    "hold": "held",
    "keep": "kept",
    "leave": "left",
    "lose": "lost",
    "make": "made",
    "pay": "paid",
    "see": "seen",
    "seek": "sought",
    "show": "shown",
    "spend": "spent",
    "steal": "stole stolen",
    "strike": "struck stricken",
    "take": "took taken",
    "win": "won",
    "write": "wrote written",
}
IRREGULAR = {form: verb for verb, forms in _FORMS.items() for form in forms.split()}

LANGUAGE = SearchLanguage(
    code="en",
    name="English",
    stopwords=frozenset(stopwords_for_language("en")),
    stemmer=stemmer_for_language("en"),
    question_words=frozenset(
        "what happens happen happened how many much when can could does do is if which"
        " whether would should i my me who why where".split()
    ),
    irregular=IRREGULAR,
    # "a library with no cards in it", "no cards in a player's library": an empty one ("no
    # cards could be drawn" is not).
    paraphrases={"no cards in": "empty"},
    # What a judge says where the rules have a word of their own: "both players lose at the same
    # time" is 104.4a "If all the players remaining in a game lose simultaneously"; a player
    # "looks at" a graveyard where 404.2 says any player may "examine" the cards in it (the rules
    # keep "look at" for hidden cards: the phrase is searched as typed too).
    phrases={
        "at the same time": ("simultaneously",),
        "same time": ("simultaneously",),
        "look at": ("examine",),
    },
)

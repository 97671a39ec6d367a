"""English: the language of the originals; Snowball stemmer and stop words, no bridge needed."""

from __future__ import annotations

from whoosh.lang import stemmer_for_language, stopwords_for_language

from kb.search.lang import SearchLanguage

LANGUAGE = SearchLanguage(
    code="en",
    name="English",
    stopwords=frozenset(stopwords_for_language("en")),
    stemmer=stemmer_for_language("en"),
    question_words=frozenset(
        "what happens happen happened how many much when can could does do is if which"
        " whether would should i my me".split()
    ),
)

"""The Whoosh schema: one index document per rule, example, glossary entry, ruling or card.

A document gathers every language of its item in one text field per language (``text_fr``…),
so that a match in a translation returns the item itself, English original included, and says
which language matched. A text field holds the title twice (a title match counts more), the
text, the title of the rule above, and card names in every language; one field per language
keeps a query to one posting list per word, which is what makes Whoosh fast here. Display data
lives in the ``data`` stored field; the text fields are indexed, not stored.
"""

from __future__ import annotations

from typing import Any

from kb.langs import LANGS

# Bump when the schema or the analyzers change: an index of another version is rebuilt.
SCHEMA_VERSION = 9
INDEX_NAME = "kb"
NO_EDITION = "-"  # the edition of a translated rule no loaded English edition has

TYPES = ("rule", "example", "glossary", "ruling", "card")
TYPE_ALIASES = {
    "rules": "rule",
    "subrule": "rule",
    "subrules": "rule",
    "examples": "example",
    "glossaries": "glossary",
    "term": "glossary",
    "terms": "glossary",
    "rulings": "ruling",
    "clarification": "ruling",
    "clarifications": "ruling",
    "cards": "card",
}
PROVENANCES = ("official", "machine", "community")

# How much a match counts by type of item: a judge asking about a mechanic wants the rule first,
# then the glossary and the rulings that apply it; examples illustrate rather than define.
TYPE_PRIOR = {"rule": 1.0, "card": 1.0, "glossary": 0.6, "ruling": 0.75, "example": 0.6}
# A question ("what happens if…") asks how the rules work: rules before rulings, cards and the
# rest. Tuned on the evaluation set's dev split; cards 0.4 -> 0.3 on its dev2 split, where at the
# whole history a card named by a word of the question ("Toque de queda" for "se queda sin
# lealtad", "Sacrificar a los fuertes") still came before the rule (0.3 and 0.2 the same).
QUESTION_PRIOR = {"rule": 1.0, "card": 0.3, "glossary": 0.6, "ruling": 0.5, "example": 0.6}

# Fields a query may filter on, and the names a user may write for them.
FILTER_FIELDS = (
    "type",
    "langs",
    "card",
    "set",
    "date",
    "source",
    "edition",
    "provenance",
    "number",
)
FIELD_ALIASES = {
    "langs": ["lang", "language", "langue", "idioma"],
    "number": ["rule", "regle", "regla"],
    "set": ["sets"],
}


def text_field(lang: str) -> str:
    """The field of an item's title and text in a language."""
    return f"text_{lang}"


def field_language(fieldname: str) -> str | None:
    """The language of a text field (``text_fr`` -> ``fr``), None for other fields."""
    prefix, _, lang = fieldname.partition("_")
    return lang if prefix == "text" and lang in LANGS else None


def build_schema() -> Any:
    """Build the schema (Whoosh is imported here, not at module import)."""
    from whoosh.fields import DATETIME, STORED, Schema

    from kb.search.analysis import PositionalText, name_analyzer, text_analyzer

    # Whoosh's ID and KEYWORD fields, indexed without token objects (the same postings).
    from kb.search.writing import Ident, Keywords

    fields: dict[str, Any] = {
        "key": Ident(stored=True, unique=True, sortable=True),
        # A hash of the item as built from the database: an update rewrites what differs.
        "hash": Ident(sortable=True),
        "type": Ident(stored=True, sortable=True),
        "kind": Ident(stored=True),
        "number": Ident(stored=True),
        # Every edition that holds the item's text, newest first (one item per distinct text).
        "edition": Keywords(stored=True, scorable=False),
        # "edition" for items that belong to one CR edition, "none" for cards and rulings.
        "bound": Ident(),
        "langs": Keywords(stored=True, lowercase=True, scorable=False),
        "provenance": Keywords(stored=True, lowercase=True, scorable=False),
        "card": PositionalText(analyzer=name_analyzer(), phrase=True),
        "set": Keywords(stored=True, lowercase=True, scorable=False),
        "date": DATETIME(stored=True),
        "source": Keywords(stored=True, lowercase=True, scorable=False),
        "data": STORED(),
    }
    for lang in LANGS:
        fields[text_field(lang)] = PositionalText(analyzer=text_analyzer(lang), phrase=True)
    return Schema(**fields)

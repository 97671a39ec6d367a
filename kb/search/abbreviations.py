"""The abbreviations judges and players type, searched as the rules' words.

"ETB", "SBA", "CMC" are how a table talks about the rules, in every language (a French player
says "une créature ETB"), but no rule or glossary entry writes them: searched as typed they
found nothing ("No results for ETB; 4 results for etc"). A query's abbreviation is searched as
the words the rules use; the query shown stays as typed. Only words that are no word of
English, French or Spanish are listed, so that an abbreviation is never a word someone meant
("APNAP" is not here: the rules write it).
"""

from __future__ import annotations

import re

ABBREVIATIONS: dict[str, str] = {
    "etb": "enters the battlefield",
    "ltb": "leaves the battlefield",
    "sba": "state-based actions",
    "cmc": "mana value",  # converted mana cost, the old name (glossary: obsolete)
    "mv": "mana value",
    "lki": "last known information",
    "2hg": "two-headed giant",
    "ffa": "free-for-all",
    "cda": "characteristic-defining ability",
    "dfc": "double-faced card",
    "mdfc": "modal double-faced card",
    "tdfc": "transforming double-faced card",
    "eot": "end of turn",
}

# a whole word (a filter's "field:value" and a word of a longer one left alone), its plural too
_ABBREVIATION = re.compile(
    r"(?<![\w:'’-])(" + "|".join(sorted(ABBREVIATIONS, key=len, reverse=True)) + r")s?(?![\w:'’-])",
    re.IGNORECASE,
)


def expand_abbreviations(text: str) -> str:
    """The text with each abbreviation of :data:`ABBREVIATIONS` written out."""
    return _ABBREVIATION.sub(lambda m: ABBREVIATIONS[m.group(1).casefold()], text)

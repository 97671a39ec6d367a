"""The abbreviations judges and players type, searched as the rules' words.

"ETB", "SBA", "CMC" are how a table talks about the rules, in every language (a French player
says "une créature ETB"), but no rule or glossary entry writes them: searched as typed they
found nothing ("No results for ETB; 4 results for etc"). A query's abbreviation is searched as
the words the rules use; the query shown stays as typed. Only words that are no word of
English, French or Spanish are listed, so that an abbreviation is never a word someone meant
("APNAP" is not here: the rules write it).

The words a table says for what the rules word otherwise ("killed", "steal", "who decides",
"gets priority") are :data:`PLAYERS_WORDS`: an English question is searched with the rules'
words beside them.
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


def _whole_words(words: dict[str, str], plural: str = "") -> re.Pattern[str]:
    """Any of ``words`` as a whole word, longest first (a filter's "field:value" and a word of a
    longer one left alone), followed by ``plural`` (a pattern) if given."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w:'’-])({alternatives}){plural}(?![\w:'’-])", re.IGNORECASE)


_ABBREVIATION = _whole_words(ABBREVIATIONS, plural="s?")  # "SBAs" too


def expand_abbreviations(text: str) -> str:
    """The text with each abbreviation of :data:`ABBREVIATIONS` written out."""
    return _ABBREVIATION.sub(lambda m: ABBREVIATIONS[m.group(1).casefold()], text)


# The words a table uses for what the rules say otherwise: "if my creature gets killed", "I
# steal my opponent's creature", "who gets priority". No rule writes them, so a question asked
# in them found the rules by its other words only. A question (not a title: "Clone" and
# "Bounce" are cards) is searched with the rules' words beside the player's, which stay. English
# only: the French and Spanish dictionaries lead a table's words to the rules' already.
PLAYERS_WORDS: dict[str, str] = {
    "kill": "destroy dies",
    "kills": "destroy dies",
    "killed": "destroy dies",
    "killing": "destroy dies",
    "steal": "gain control",
    "steals": "gain control",
    "stole": "gain control",
    "stolen": "gain control",
    "stealing": "gain control",
    "clone": "copy",
    "clones": "copy",
    "cloned": "copy",
    "cloning": "copy",
    "bounce": "return hand",
    "bounces": "return hand",
    "bounced": "return hand",
    "bouncing": "return hand",
    "fizzle": "illegal resolve",
    "fizzles": "illegal resolve",
    "fizzled": "illegal resolve",
    "blink": "exile return battlefield",
    "blinks": "exile return battlefield",
    "blinked": "exile return battlefield",
    "flicker": "exile return battlefield",
    "flickered": "exile return battlefield",
    "tutor": "search library",
    "tutors": "search library",
    "tutored": "search library",
    "sac": "sacrifice",
    "sacs": "sacrifice",
    "sacced": "sacrifice",
    "saccing": "sacrifice",
    "swing": "attack",
    "swings": "attack",
    "swung": "attack",
    "yard": "graveyard",
    "gy": "graveyard",
    "topdeck": "top library",
    "lifegain": "gain life",
    "in play": "battlefield",
    "summoning sick": "summoning sickness",
    "trampler": "trample",
    "tramplers": "trample",
    "extra": "additional",
    "decide": "choose",
    "decides": "chooses",
    "decided": "chose",
    "deciding": "choosing",
    "pick": "choose",
    "picks": "chooses",
    "picked": "chose",
    "get priority": "receive priority",
    "gets priority": "receives priority",
    "got priority": "received priority",
}

_PLAYERS_WORD = _whole_words(PLAYERS_WORDS)


def with_rules_words(text: str) -> str:
    """A question with the rules' words after each player's word of :data:`PLAYERS_WORDS`."""
    return _PLAYERS_WORD.sub(lambda m: f"{m.group(1)} {PLAYERS_WORDS[m.group(1).casefold()]}", text)

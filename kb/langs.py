"""The supported languages: Babel locales, labels seen in the corpus, dates, detection, typography.

Everything language-specific that more than one stage needs lives here, so that adding a
language is a matter of extending the tables below (and the UI catalogs), not of hunting through
parsers and templates.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale

LANGS: tuple[str, ...] = ("en", "fr", "es")
DEFAULT_LANG = "en"
# Which of a text's translations in one language a reader is shown: a human one (official, then
# community) before a machine one. Every stage that picks one sorts by this.
PROVENANCE_ORDER: dict[str, int] = {"official": 0, "community": 1, "machine": 2}


@dataclass(frozen=True)
class LangInfo:
    """What kb knows of one language: its names, its corpus labels, its typical words."""

    code: str
    subrules_label: str
    siblings_label: str
    source_label: str
    rule_word: str
    rules_word: str
    # Words that mark a rulings-page header as being in this language.
    header_words: frozenset[str]
    # Very common short words, used to tell one language's paragraph from another's.
    function_words: frozenset[str]


_INFO: dict[str, LangInfo] = {
    "en": LangInfo(
        code="en",
        subrules_label="Subrules",
        siblings_label="Other rules in this section",
        source_label="source",
        rule_word="rule",
        rules_word="rules",
        header_words=frozenset(
            {"official", "rulings", "clarifications", "from", "the", "english", "below"}
        ),
        function_words=frozenset(
            [
                "the",
                "of",
                "and",
                "to",
                "a",
                "in",
                "is",
                "it",
                "that",
                "you",
                "if",
                "for",
                "as",
                "on",
                "with",
                "this",
                "its",
                "be",
                "are",
                "or",
                "can",
                "can't",
                "won't",
                "doesn't",
                "isn't",
                "an",
                "by",
                "your",
                "each",
                "player",
                "players",
                "any",
                "at",
                "from",
                "will",
                "would",
                "have",
                "has",
                "when",
                "who",
                "which",
                "was",
                "one",
                "all",
                "not",
                "only",
                "until",
                "they",
                "their",
            ]
        ),
    ),
    "fr": LangInfo(
        code="fr",
        subrules_label="Sous-règles",
        siblings_label="Autres règles de cette section",
        source_label="source",
        rule_word="règle",
        rules_word="règles",
        header_words=frozenset(
            {
                "clarifications",
                "officielles",
                "traduction",
                "ci-dessous",
                "générée",
                "automatiquement",
                "l'original",
                "anglais",
                "reste",
                "vérité",
                "la",
                "de",
            }
        ),
        function_words=frozenset(
            [
                "le",
                "la",
                "les",
                "de",
                "des",
                "du",
                "un",
                "une",
                "et",
                "est",
                "il",
                "elle",
                "vous",
                "votre",
                "vos",
                "que",
                "qui",
                "ne",
                "pas",
                "en",
                "au",
                "aux",
                "pour",
                "sur",
                "par",
                "ce",
                "cette",
                "ces",
                "se",
                "sa",
                "son",
                "ses",
                "si",
                "dans",
                "avec",
                "être",
                "peut",
                "joueur",
                "joueurs",
                "chaque",
                "ou",
                "lorsque",
                "quand",
                "n'est",
                "d'un",
                "d'une",
                "l'un",
                "qu'il",
            ]
        ),
    ),
    "es": LangInfo(
        code="es",
        subrules_label="Subreglas",
        siblings_label="Otras reglas de este apartado",
        source_label="fuente",
        rule_word="regla",
        rules_word="reglas",
        header_words=frozenset(
            {
                "aclaraciones",
                "oficiales",
                "traducción",
                "continuación",
                "generada",
                "automáticamente",
                "original",
                "inglés",
                "sigue",
                "siendo",
                "fuente",
                "verdad",
                "la",
                "de",
                "del",
            }
        ),
        function_words=frozenset(
            [
                "el",
                "la",
                "los",
                "las",
                "de",
                "del",
                "un",
                "una",
                "unos",
                "y",
                "es",
                "que",
                "en",
                "por",
                "para",
                "con",
                "su",
                "sus",
                "se",
                "si",
                "no",
                "lo",
                "al",
                "como",
                "cada",
                "jugador",
                "jugadores",
                "puede",
                "esa",
                "ese",
                "esta",
                "este",
                "cuando",
                "o",
                "ni",
                "tu",
                "tus",
                "hasta",
                "sea",
                "otro",
                "otra",
            ]
        ),
    ),
}


def info(lang: str) -> LangInfo:
    """Return the corpus facts of a supported language; raise ValueError for another."""
    try:
        return _INFO[lang]
    except KeyError:
        raise ValueError(
            f"unsupported language {lang!r} (expected one of {', '.join(LANGS)})"
        ) from None


@cache
def locale(lang: str) -> Locale:
    """Return the Babel locale of a supported language."""
    from babel import Locale  # imported on use: a search never needs it

    info(lang)
    return Locale.parse(lang)


def language_name(lang: str, in_lang: str | None = None) -> str:
    """Return the name of ``lang`` written in ``in_lang`` (default: in itself), capitalised."""
    name = locale(lang).get_display_name(locale(in_lang or lang)) or lang
    return name[:1].upper() + name[1:]


def check_lang(lang: str) -> str:
    """Normalise a user-given language code (``ES``, ``es_ES``) and check it is supported."""
    code = lang.strip().lower().replace("-", "_").split("_")[0]
    info(code)
    return code


# --- dates -------------------------------------------------------------------------------------


@cache
def _month_numbers(lang: str) -> dict[str, int]:
    from babel.dates import get_month_names

    months: dict[str, int] = {}
    for width in ("wide", "abbreviated"):
        for context in ("format", "stand-alone"):
            for number, name in get_month_names(width, context, locale(lang)).items():
                months[fold(name).rstrip(".")] = number
    return months


_DATE_PATTERNS = {
    # June 16, 2023
    "en": re.compile(
        r"^(?P<month>[^\W\d_]+)\.?\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<year>\d{4})$"
    ),
    # 16 juin 2023, 1er juin 2023
    "fr": re.compile(r"^(?P<day>\d{1,2})(?:er)?\s+(?P<month>[^\W\d_]+)\.?\s+(?P<year>\d{4})$"),
    # 16 de junio de 2023
    "es": re.compile(
        r"^(?P<day>\d{1,2})(?:º|°)?\s+(?:de\s+)?(?P<month>[^\W\d_]+)\.?\s+(?:de\s+|del\s+)?(?P<year>\d{4})$"
    ),
}


def parse_long_date(text: str, lang: str) -> dt.date:
    """Parse a long date in a language's usual form ("1er juin 2023"), months from Babel.

    Raises ValueError with a reason a user can read when the month is unknown or the date
    does not exist (``30 février 2021``).
    """
    cleaned = " ".join(text.replace("\u00a0", " ").split())
    match = _DATE_PATTERNS[info(lang).code].match(cleaned)
    if not match:
        raise ValueError(f"{text!r} is not a long date in {language_name(lang, 'en')}")
    month = _month_numbers(lang).get(fold(match["month"]).rstrip("."))
    if month is None:
        raise ValueError(f"unknown month {match['month']!r} in date {text!r}")
    try:
        return dt.date(int(match["year"]), month, int(match["day"]))
    except ValueError:
        raise ValueError(f"impossible date {text!r}") from None


def format_long_date(date: dt.date, lang: str) -> str:
    """Write a date the way the language writes it ("16 juin 2023", "16 de junio de 2023")."""
    from babel.dates import format_date

    return format_date(date, "long", locale=locale(lang))


# --- typography and folding --------------------------------------------------------------------

APOSTROPHES = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "`": "'",
    "\u00b4": "'",
}
"""Every apostrophe-like mark people type, to the one ASCII apostrophe (``l’ange`` = ``l'ange``)."""

_APOSTROPHES = str.maketrans(APOSTROPHES)
_TYPO = str.maketrans(
    {
        **APOSTROPHES,
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u2010": "-",
        "\u2011": "-",
        "\u00a0": " ",
        "\u202f": " ",
        "\u2009": " ",
        "\u2007": " ",
        "\u2026": "...",
    }
)
_SPACES = re.compile(r"\s+")


def normalize_typography(text: str) -> str:
    """Map curly quotes, guillemets, dashes and odd spaces to ASCII and collapse whitespace.

    Two texts that differ only in typography (the rulings page writes ``'``, MTGJSON ``’``)
    normalise to the same string; that is how shared clarifications are recognised.
    """
    text = unicodedata.normalize("NFC", text).translate(_TYPO)
    return _SPACES.sub(" ", text).strip()


def fold(text: str) -> str:
    """Lower-case, strip accents and normalise typography: ``Règle`` and ``regle`` fold alike."""
    if text.isascii():  # no accent, and of typography only the backtick: 100k names at ingest
        folded = " ".join(text.split()).lower()
        return folded.replace("`", "'") if "`" in folded else folded
    decomposed = unicodedata.normalize("NFKD", normalize_typography(text).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold_word(word: str) -> str:
    """Fold one word as the search analyzer does: lower-case, one apostrophe, no accents.

    Cheaper than :func:`fold` (a word has no spaces, quotes or dashes left to map); it runs on
    every token of every indexed text. Both share one table of apostrophes, so a name folded
    for ``kb card`` and a word folded for the index agree.
    """
    if word.isascii():
        return word.lower().replace("`", "'") if "`" in word else word.lower()
    folded = _FOLDED.get(word)
    if folded is None:
        decomposed = unicodedata.normalize("NFKD", word.translate(_APOSTROPHES).casefold())
        folded = "".join(c for c in decomposed if not unicodedata.combining(c))
        if len(_FOLDED) < FOLDED_KEPT:
            _FOLDED[word] = folded
    return folded


# Words with accents or curly apostrophes, folded (fold_word, a pure function of the word):
# unfolding them a character at a time cost microseconds for each, on every search and for
# every token of an index build; the words of the game's texts are a few tens of thousands.
FOLDED_KEPT = 100_000
_FOLDED: dict[str, str] = {}


# --- language detection ------------------------------------------------------------------------

_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_ACCENTS = {
    "fr": set("éèêàâçùûôîïëœ"),
    "es": set("ñáíóúü¿¡"),
}


def detect_language(text: str, candidates: tuple[str, ...] = LANGS) -> str:
    """Guess whether a paragraph is English, French or Spanish from its common words.

    Rulings are short and full of card names, so this scores function words (``the``/``le``/
    ``el``) and language-specific letters rather than relying on a statistical model; ties go to
    English, the language of the originals.
    """
    return best_language(language_scores(text, candidates))


def language_scores(text: str, candidates: tuple[str, ...] = LANGS) -> dict[str, float]:
    """The evidence :func:`detect_language` weighs, per candidate language: one per function
    word of the language, a half per letter only it uses (a search query adds its own)."""
    words = [w.lower().replace("’", "'") for w in _WORDS.findall(text)]
    scores = {lang: 0.0 for lang in candidates}
    for word in words:
        for lang in candidates:
            if word in _INFO[lang].function_words:
                scores[lang] += 1.0
    lowered = text.lower()
    for lang, letters in _ACCENTS.items():
        if lang in scores:
            scores[lang] += 0.5 * sum(lowered.count(c) for c in letters)
    return scores


def best_language(scores: dict[str, float]) -> str:
    """The language of the most evidence; English on a tie with it, or with no evidence."""
    candidates = tuple(scores)
    best = max(candidates, key=lambda lang: (scores[lang], lang == DEFAULT_LANG))
    return best if scores[best] > 0 else (DEFAULT_LANG if DEFAULT_LANG in candidates else best)

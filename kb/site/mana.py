"""Mana and card symbols (``{2}{U}{B}``, ``{T}``) as text a screen reader can say, no images.

Each symbol becomes a small styled box holding its letters, with the spoken name (in the page's
language) as ``aria-label`` and ``title``; an unknown symbol stays as the text it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markupsafe import Markup, escape

SYMBOL = re.compile(r"\{([A-Z0-9½∞/]{1,6})\}")

COLOURS = {
    "W": "white",
    "U": "blue",
    "B": "black",
    "R": "red",
    "G": "green",
    "C": "colorless",
}


def N_(message: str) -> str:
    """Mark a string for extraction (translated when a page is rendered)."""
    return message


NAMES = {
    "white": N_("white mana"),
    "blue": N_("blue mana"),
    "black": N_("black mana"),
    "red": N_("red mana"),
    "green": N_("green mana"),
    "colorless": N_("colorless mana"),
    "generic": N_("%(count)s generic mana"),
    "X": N_("X generic mana"),
    "T": N_("tap"),
    "Q": N_("untap"),
    "S": N_("snow mana"),
    "E": N_("energy"),
    "P": N_("Phyrexian"),
    "or": N_("%(first)s or %(second)s"),
}


def _spoken(part: str, gettext: Callable[[str], str]) -> str | None:
    if part.isdigit():
        return gettext(NAMES["generic"]) % {"count": part}
    if part in COLOURS:
        return gettext(NAMES[COLOURS[part]])
    if part in ("X", "Y", "Z"):
        return gettext(NAMES["X"]).replace("X", part)
    if part in ("T", "Q", "S", "E"):
        return gettext(NAMES[part])
    return None


def symbol_name(symbol: str, gettext: Callable[[str], str]) -> str | None:
    """The spoken name of one symbol's inside (``2``, ``U``, ``W/U``, ``G/P``), None if unknown."""
    parts = symbol.split("/")
    if len(parts) == 1:
        return _spoken(parts[0], gettext)
    if len(parts) == 2 and parts[1] == "P":
        colour = _spoken(parts[0], gettext)
        return f"{colour} ({gettext(NAMES['P'])})" if colour else None
    if len(parts) == 2:
        first, second = _spoken(parts[0], gettext), _spoken(parts[1], gettext)
        if first and second:
            return gettext(NAMES["or"]) % {"first": first, "second": second}
    return None


def _css(symbol: str) -> str:
    first = symbol.split("/")[0]
    if first in COLOURS:
        return COLOURS[first]
    return "generic" if first.isdigit() or first in ("X", "Y", "Z") else "other"


def symbols(text: str | Markup, gettext: Callable[[str], str]) -> Markup:
    """Escape ``text`` (unless it is already Markup) and turn its symbols into labelled boxes."""
    html = str(text if isinstance(text, Markup) else escape(text))

    def box(match: re.Match[str]) -> str:
        inner = match[1]
        name = symbol_name(inner, gettext)
        if name is None:
            return match[0]
        return str(
            Markup(
                '<span class="sym sym-{}" role="img" aria-label="{}" title="{}">{}</span>'
            ).format(_css(inner), name, name, inner)
        )

    return Markup(SYMBOL.sub(box, html))

"""Plain records every parser returns: the contract between parsing and the database.

Parsers fill these from files and nothing else; the ingest stage maps them onto the models. They
hold no database ids, so a parse can be compared field by field against a golden file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Lang = Literal["en", "fr", "es"]
Provenance = Literal["official", "machine", "community"]
RuleKind = Literal["part", "chapter", "rule", "subrule"]
Format = Literal["comprules", "rule_page", "rulings_page", "mtgjson"]


@dataclass
class Record:
    """Base class: records turn into plain JSON-able dicts for golden files and dumps."""

    def to_dict(self) -> dict[str, Any]:
        """Return the record as nested dicts and lists, dates as ISO strings."""
        return _jsonable(asdict(self))


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


@dataclass
class ParseWarning(Record):
    """A defect inside a document that loads anyway: where it is and what kb did about it.

    ``line`` is the 1-based line of a text file (0 where a line means nothing, as in JSON);
    ``kind`` is a stable slug (``number_out_of_sequence``, ``empty_ruling``…) for counting;
    ``message`` says what is wrong and what kb did ("kept as 505.5: number out of sequence").
    """

    line: int
    kind: str
    message: str


# --- Comprehensive Rules ---------------------------------------------------------------------


@dataclass
class RuleRecord(Record):
    """A node of the rules: part ``7``, chapter ``701``, rule ``701.54``, subrule ``701.54a``.

    ``title`` is set for parts, chapters and title-only rules ("701.54. The Ring Tempts You");
    ``text`` holds the rule's body (empty for title-only rules). ``examples`` are the
    ``Example:`` paragraphs that follow the rule, without the ``Example:`` prefix.
    """

    number: str
    kind: RuleKind
    title: str = ""
    text: str = ""
    examples: list[str] = field(default_factory=list)
    parent: str | None = None
    line: int = 0


@dataclass
class GlossaryRecord(Record):
    """A glossary term: one or more senses, or a redirect (``See Typecycling.``)."""

    term: str
    senses: list[str] = field(default_factory=list)
    redirect: str | None = None
    obsolete: bool = False
    line: int = 0

    @property
    def definition(self) -> str:
        """The definition as printed: numbered senses joined, or the redirect."""
        if self.redirect and not self.senses:
            return f"See {self.redirect}."
        if len(self.senses) == 1:
            return self.senses[0]
        return "\n".join(f"{i}. {s}" for i, s in enumerate(self.senses, 1))


@dataclass
class CompRulesDocument(Record):
    """A whole Comprehensive Rules text in one language."""

    language: Lang
    effective_date: dt.date
    rules: list[RuleRecord] = field(default_factory=list)
    glossary: list[GlossaryRecord] = field(default_factory=list)
    format: Format = "comprules"
    warnings: list[ParseWarning] = field(default_factory=list)


# --- Rule pages --------------------------------------------------------------------------------


@dataclass
class RulePageDocument(Record):
    """One rule and its subrules in one language (seed 004), with the sibling rule numbers."""

    language: Lang
    number: str
    title: str
    subrules: list[RuleRecord] = field(default_factory=list)
    siblings: list[str] = field(default_factory=list)
    follows_edition: dt.date | None = None
    provenance: Provenance = "official"
    format: Format = "rule_page"


# --- Rulings -----------------------------------------------------------------------------------


@dataclass
class RulingRecord(Record):
    """One clarification: its date, source and text per language with provenance.

    ``texts`` maps a language to the text in it; ``provenance`` maps the same languages to
    ``official`` (the English original) or ``machine`` (a translation the page says is automatic).
    """

    date: dt.date
    source: str
    texts: dict[str, str] = field(default_factory=dict)
    provenance: dict[str, str] = field(default_factory=dict)
    line: int = 0


@dataclass
class RulingsPageDocument(Record):
    """One rulings page: the rulings of one unnamed card, in one page language."""

    page_id: str
    language: Lang
    machine_translation_notice: bool
    header: str
    rulings: list[RulingRecord] = field(default_factory=list)
    attributes: dict[str, str] = field(default_factory=dict)
    format: Format = "rulings_page"

    @property
    def mana_value(self) -> float | None:
        """The ``CMC`` attribute as a number, if the page has one."""
        return attribute_mana_value(self.attributes)


#: The attribute keys under which a rulings page states its card's mana value (older pages say
#: CMC, newer MV).
MANA_VALUE_KEYS = ("CMC", "MV")


def attribute_mana_value(attributes: dict[str, str] | None) -> float | None:
    """The mana value a rulings page's attributes state, as a number (None if none or unreadable).

    One reading for the recogniser, which checks a candidate card against it, and for the
    lookups, which leave it out when it only repeats the card's own mana value.
    """
    attributes = attributes or {}
    raw = next((attributes[key] for key in MANA_VALUE_KEYS if attributes.get(key)), None)
    try:
        return float(raw) if raw is not None else None
    except (TypeError, ValueError):
        return None


def page_attributes(
    attributes: Sequence[dict[str, str] | None], mana_value: float | None
) -> dict[str, str]:
    """The attribute lines of a card's rulings pages (``CMC 4``) that add to its card data.

    A page's mana value that agrees with the card's only repeats the "mana value" already shown,
    so it is left out; one that disagrees stays, because a judge should see the page differs.
    """
    merged: dict[str, str] = {}
    for page in attributes:
        merged.update(page or {})
    if mana_value is not None and attribute_mana_value(merged) == mana_value:
        merged = {k: v for k, v in merged.items() if k not in MANA_VALUE_KEYS}
    return dict(sorted(merged.items()))


# --- MTGJSON -----------------------------------------------------------------------------------


@dataclass
class PrintingRecord(Record):
    """One printing of a card in a set."""

    set_code: str
    number: str
    uuid: str
    rarity: str = ""


@dataclass
class CardRecord(Record):
    """A card identity (one oracle id) with every printing of it in the file.

    ``names``, ``texts`` and ``type_lines`` map a language to the value in it; for cards with
    several faces the faces are joined with `` // `` in face order.
    """

    oracle_id: str
    name: str
    mana_value: float
    layout: str
    names: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    type_lines: dict[str, str] = field(default_factory=dict)
    faces: list[str] = field(default_factory=list)
    printings: list[PrintingRecord] = field(default_factory=list)
    rulings: list[RulingRecord] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)  # MTGJSON ``keywords``, every face, sorted
    # What a card page shows beside the names and texts (English, from the card itself).
    mana_cost: str = ""
    face_details: list[dict[str, str]] = field(default_factory=list)
    legalities: dict[str, str] = field(default_factory=dict)


@dataclass
class CardSetDocument(Record):
    """An MTGJSON set file."""

    code: str
    name: str
    release_date: dt.date | None
    cards: list[CardRecord] = field(default_factory=list)
    format: Format = "mtgjson"
    warnings: list[ParseWarning] = field(default_factory=list)


ParsedDocument = CompRulesDocument | RulePageDocument | RulingsPageDocument | CardSetDocument

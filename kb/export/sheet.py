"""The rule sheet: chosen rules side by side in several languages, their clarifications, a footer.

A sheet is plain data (dataclasses) built from the database once; the HTML, PDF and Markdown
renderers only lay it out, so the three formats always hold the same text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import PurePath
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from kb.errors import KbUsageError
from kb.export import stages
from kb.export.selection import Selected, select_rules
from kb.export.translations import Translation, translations
from kb.langs import LANGS, check_lang
from kb.lookup import clarifications_of, find_card, find_edition
from kb.models import Card, Document, Edition, Rule, RuleText
from kb.terminology import title_terms


@dataclass
class Cell:
    """One language's column of one row: the text shown and the badges that qualify it."""

    language: str
    shown_language: str  # the column's language, or "en" when the translation is missing
    title: str = ""
    text: str = ""
    examples: list[str] = field(default_factory=list)
    badges: list[str] = field(default_factory=list)  # official machine community stale missing
    follows: str | None = None
    assumed: bool = False
    # A keyword rule with no human translation: the term Wizards prints on its cards in this
    # language (kb.terminology), shown with its own provenance, never as the rule's translation.
    term: str = ""


@dataclass
class Row:
    """A part, chapter, rule or subrule of the sheet, with one cell per language."""

    number: str
    kind: str
    cells: list[Cell]


@dataclass
class CardName:
    """A card as a clarification names it, in each sheet language (English when unknown)."""

    key: str
    names: dict[str, str]


@dataclass
class ClarificationRow:
    """A ruling: its date and source, the cards and rules it concerns, its text per language."""

    id: int
    date: str
    source: str
    cards: list[CardName]
    rules: list[str]
    cells: list[Cell]


@dataclass
class CardSection:
    """A card asked for with ``--cards``: its names and every ruling it carries."""

    card: CardName
    rulings: list[ClarificationRow]


@dataclass
class Sheet:
    """Everything one sheet shows, in the order it shows it."""

    items: list[str]
    languages: list[str]
    edition: str  # ISO effective date of the English edition
    edition_key: str
    source: str  # the file the English edition was read from
    rows: list[Row]
    clarifications: list[ClarificationRow]
    cards: list[CardSection]
    counts: dict[str, dict[str, int]]
    # the title of each item that names one rule, chapter or part, in the label language when
    # it has one (English otherwise): a sheet is called by its rules' names, not just numbers
    names: dict[str, str] = field(default_factory=dict)
    # languages asked for that have no text of their own anywhere on the sheet: said once for
    # the sheet, and no column is spent on what would be a copy of the English
    untranslated: list[str] = field(default_factory=list)

    @property
    def label_language(self) -> str:
        """The language of the sheet's own labels: the first one asked for."""
        return self.languages[0]

    @property
    def columns(self) -> list[int]:
        """The positions in ``languages`` that get a column (at least one: the English text)."""
        shown = [i for i, lang in enumerate(self.languages) if lang not in self.untranslated]
        return shown or [0]

    def as_dict(self) -> dict[str, Any]:
        """The sheet as plain data (for tests and for tools)."""
        return asdict(self)


def parse_languages(value: str | Sequence[str]) -> list[str]:
    """``"fr,en,es"`` -> ``["fr", "en", "es"]``: supported, each once, order kept."""
    parts = value.split(",") if isinstance(value, str) else list(value)
    out: list[str] = []
    for part in parts:
        if not part.strip():
            continue
        try:
            code = check_lang(part)
        except ValueError as exc:
            raise KbUsageError(f"--lang: {exc}") from None
        if code not in out:
            out.append(code)
    if not out:
        raise KbUsageError(f"--lang: name at least one language ({', '.join(LANGS)})")
    return out


def _english_texts(session: Session, edition: Edition, numbers: list[str]) -> dict[str, RuleText]:
    found: dict[str, RuleText] = {}
    for start in range(0, len(numbers), 500):
        for text in session.scalars(
            select(RuleText)
            .join(Rule, Rule.id == RuleText.rule_id)
            .where(
                Rule.edition_id == edition.id,
                RuleText.language == "en",
                Rule.number.in_(numbers[start : start + 500]),
            )
            .options(selectinload(RuleText.examples), selectinload(RuleText.rule))
        ):
            found[text.rule.number] = text
    return found


def _rule_cell(language: str, english: RuleText | None, shown: Translation | None) -> Cell:
    if language == "en" or shown is None:
        return Cell(
            language=language,
            shown_language="en",
            title=english.title if english else "",
            text=english.body if english else "",
            examples=[e.text for e in english.examples] if english else [],
            badges=["official"],
        )
    if shown.status == "missing":
        cell = _rule_cell("en", english, None)
        cell.language, cell.badges = language, ["missing"]
        return cell
    badges = [shown.provenance or "official"]
    if shown.status == "stale":
        badges.append("stale")
    return Cell(
        language=language,
        shown_language=language,
        title=shown.title,
        text=shown.body,
        examples=list(shown.examples),
        badges=badges,
        follows=shown.follows,
        assumed=shown.assumed,
    )


def _rows(
    session: Session, edition: Edition, selected: list[Selected], languages: list[str]
) -> tuple[list[Row], dict[str, dict[str, int]]]:
    numbers = [s.number for s in selected]
    english = _english_texts(session, edition, numbers)
    per_lang = {
        lang: translations(session, lang, edition, numbers) for lang in languages if lang != "en"
    }
    counted = [s.number for s in selected if s.kind in ("rule", "subrule")]
    counts: dict[str, dict[str, int]] = {}
    for lang, chosen in per_lang.items():
        tally = {"current": 0, "stale": 0, "missing": 0}
        for number in counted:
            tally[chosen[number].status] += 1
        counts[lang] = tally
    rows = [
        Row(
            number=s.number,
            kind=s.kind,
            cells=[
                _rule_cell(lang, english.get(s.number), per_lang.get(lang, {}).get(s.number))
                for lang in languages
            ],
        )
        for s in selected
    ]
    _add_card_terms(session, rows)
    return rows, counts


def _add_card_terms(session: Session, rows: list[Row]) -> None:
    """Give the untranslated cells of keyword rules (701.x, 702.x) their learned term."""
    keyword_rows = [r for r in rows if r.kind == "rule" and r.number.startswith(("701.", "702."))]
    for lang in {c.language for r in keyword_rows for c in r.cells} - {"en"}:
        cells = [
            (c, c.title)
            for r in keyword_rows
            for c in r.cells
            if c.language == lang and c.shown_language == "en" and c.title
        ]
        terms = title_terms(session, {title for _, title in cells}, lang)
        for cell, title in cells:
            cell.term = terms.get(title, "")


def _card_names(session: Session, keys: list[str], languages: list[str]) -> dict[str, CardName]:
    cards = session.scalars(
        select(Card).where(Card.key.in_(keys)).options(selectinload(Card.localizations))
    ).all()
    out: dict[str, CardName] = {}
    for card in cards:
        local = {loc.language: loc.name for loc in card.localizations if loc.name}
        out[card.key] = CardName(
            key=card.key, names={lang: local.get(lang) or card.name for lang in languages}
        )
    return out


def _clarification_cells(texts: dict[str, dict[str, str]], languages: list[str]) -> list[Cell]:
    english = texts.get("en")
    cells = []
    for lang in languages:
        own = texts.get(lang)
        if own:
            cells.append(
                Cell(
                    language=lang,
                    shown_language=lang,
                    text=own["text"],
                    badges=[own.get("provenance") or "official"],
                )
            )
        elif english:
            cells.append(
                Cell(
                    language=lang,
                    shown_language="en",
                    text=english["text"],
                    badges=["official" if lang == "en" else "missing"],
                )
            )
        else:
            cells.append(Cell(language=lang, shown_language=lang, badges=["missing"]))
    return cells


def _linked_clarifications(
    session: Session, edition: Edition, selected: list[Selected], languages: list[str]
) -> list[ClarificationRow]:
    found: dict[int, dict[str, Any]] = {}
    chosen = {s.number for s in selected}
    for s in selected:
        if s.kind == "rule" or (s.kind == "subrule" and s.number[:-1] not in chosen):
            for item in stages.clarifications_for_rule(
                session, s.number, edition, include_subrules=s.kind == "rule"
            ):
                found.setdefault(item["id"], item)
    keys = sorted({c["key"] for item in found.values() for c in item.get("cards", [])})
    names = _card_names(session, keys, languages)
    rows = []
    for item in found.values():
        rules = sorted({n for n in item.get("rules", []) if n in chosen})
        rows.append(
            ClarificationRow(
                id=item["id"],
                date=item["date"],
                source=item["source"],
                cards=[names[c["key"]] for c in item.get("cards", []) if c["key"] in names],
                rules=rules or sorted(item.get("rules", [])),
                cells=_clarification_cells(item["texts"], languages),
            )
        )
    rows.sort(key=lambda r: (r.rules[:1], r.date, r.id))
    return rows


def _card_sections(
    session: Session, queries: Sequence[str], languages: list[str]
) -> list[CardSection]:
    sections: list[CardSection] = []
    seen: set[str] = set()
    for query in queries:
        card = find_card(session, query)
        if card.key in seen:
            continue
        seen.add(card.key)
        name = _card_names(session, [card.key], languages)[card.key]
        rulings = [
            ClarificationRow(
                id=item["id"],
                date=item["date"],
                source=item["source"],
                cards=[],  # the section's heading names the card
                rules=[],
                cells=_clarification_cells(item["texts"], languages),
            )
            for item in clarifications_of(session, card.id)
        ]
        sections.append(CardSection(card=name, rulings=rulings))
    return sections


def _item_names(rows: list[Row], items: Sequence[str]) -> dict[str, str]:
    by_number = {row.number: row for row in rows}
    names: dict[str, str] = {}
    for item in items:
        row = by_number.get(item.strip().rstrip("."))
        if row is None:
            continue
        own = row.cells[0]
        title = own.title if own.shown_language == own.language else ""
        english = next((c.title for c in row.cells if c.shown_language == "en" and c.title), "")
        if title or english:
            names[item.strip()] = title or english
    return names


def _untranslated(
    languages: list[str], rows: list[Row], rulings: list[ClarificationRow]
) -> list[str]:
    out = []
    for index, lang in enumerate(languages):
        if lang == "en":
            continue
        cells = [r.cells[index] for r in rows] + [r.cells[index] for r in rulings]
        if cells and not any(c.shown_language == lang for c in cells):
            out.append(lang)
    return out


def split_cards(values: Sequence[str]) -> list[str]:
    """Card names from repeated ``--cards`` options, each of which may hold several split by ``;``.

    Commas are kept: card names have them (``Galadriel, Elven-Queen``).
    """
    return [name.strip() for value in values for name in value.split(";") if name.strip()]


def build_sheet(
    session: Session,
    items: Sequence[str],
    languages: str | Sequence[str] = ("en",),
    *,
    edition: str | None = None,
    cards: Sequence[str] = (),
) -> Sheet:
    """Build the sheet of the items (rules, chapters, ranges) in the languages asked for."""
    langs = parse_languages(languages)
    ed = find_edition(session, edition)
    selected = select_rules(session, ed, items)
    rows, counts = _rows(session, ed, selected, langs)
    doc = session.get(Document, ed.document_id) if ed.document_id else None
    clarifications = _linked_clarifications(session, ed, selected, langs)
    card_sections = _card_sections(session, split_cards(cards), langs)
    rulings = clarifications + [r for section in card_sections for r in section.rulings]
    return Sheet(
        items=[s for s in items if s.strip()],
        languages=langs,
        edition=ed.effective_date.isoformat() if ed.effective_date else "",
        edition_key=ed.key,
        source=PurePath(doc.path).name if doc else "",
        rows=rows,
        clarifications=clarifications,
        cards=card_sections,
        counts=counts,
        names=_item_names(rows, items),
        untranslated=_untranslated(langs, rows, rulings),
    )

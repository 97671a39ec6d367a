"""What `kb rule` and `kb card` print, said once for both of their layouts.

The builders give a lookup's lines as console markup for rich (:mod:`kb.cli.reports`) or as
marked text for kb's own layout (:mod:`kb.cli.lookup_layout`): every styled piece goes through
a ``style(name, markup)`` and every corpus text through an ``escape``. Only what lays the lines
out differs, so the two cannot drift apart in what they say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kb.langs import LANGS, language_name

Style = Callable[[str, str], str]
Escape = Callable[[str], str]

BADGES = {
    "official": "official",
    "machine": "machine translation",
    "community": "community",
    "card-term": "term from official card translations",
}
NUMBER_HEADER = "number"


# --- what a lookup says ------------------------------------------------------------------------


def badge(text: dict[str, Any]) -> str:
    """A translation's provenance, staleness and the edition it follows, in words."""
    shown = BADGES.get(text["provenance"], text["provenance"])
    if text.get("status") == "stale":
        shown += ", STALE: the English changed since"
    if text.get("follows_edition"):
        assumed = ", assumed" if text.get("follows_assumed") else ""
        shown += f"; follows {text['follows_edition']}{assumed}"
    return shown


def _body(text: dict[str, Any], style: Style, escape: Escape) -> str:
    parts = [p for p in (text["title"], text["text"]) if p]
    lines = [escape(" ".join(parts))]
    lines.extend(f"{style('italic', 'Example:')} {escape(e)}" for e in text["examples"])
    return "\n".join(lines)


def rule_heading(view: dict[str, Any], style: Style, escape: Escape) -> list[str]:
    """The lines above a rule's table: its number and edition, where it stands today."""
    number = escape(view["number"])
    lines = [f"{style('bold', f'Rule {number}')} — edition {view['edition']}"]
    lang = view["language"]
    today = view.get("today")
    if today and today["number"] != view["number"]:
        now = (
            f"rule {escape(today['number'])} in the {today['edition']} edition"
            if today["number"]
            else f"removed in the {today['removed_in']} edition"
        )
        lines.append(
            f"{style('cyan', f'today: {now}')} (kb trace {number} --edition {view['edition']})"
        )
    if lang != "en" and view["missing"] == len(view["rules"]):
        lines.append(
            style(
                "yellow",
                f"no {language_name(lang, 'en')} text for rule {number}: English shown",
            )
        )
    return lines


def rule_headers(view: dict[str, Any]) -> list[str]:
    """The table's column headers: the number, English and the language asked for."""
    lang = view["language"]
    return [NUMBER_HEADER, "English"] + ([language_name(lang, "en")] if lang != "en" else [])


def number_width(view: dict[str, Any]) -> int:
    """The width of the number column: every number fits, unbroken."""
    numbers = max(len(i["number"]) for i in view["rules"]) if view["rules"] else 0
    return max(numbers, len(NUMBER_HEADER))


def rule_rows(view: dict[str, Any], style: Style, escape: Escape) -> list[list[str]]:
    """The table's rows: each rule's number, English and translation (or why there is none)."""
    lang = view["language"]
    name = language_name(lang, "en")
    shown_badge = None
    rows = []
    for item in view["rules"]:
        row = [
            style("bold", escape(item["number"])),
            _body(item["english"], style, escape) if item["english"] else "",
        ]
        if lang != "en":
            translation = item["translation"]
            if translation:
                said = badge(translation)
                # The badge is the same for a whole rule page: say it once, then when it changes.
                suffix = f"\n{style('dim', f'({escape(said)})')}" if said != shown_badge else ""
                shown_badge = said
                row.append(_body(translation, style, escape) + suffix)
            elif item.get("card_term"):
                term = item["card_term"]
                note = f"({escape(term['note'])}; no {name} text of the rule)"
                row.append(f"{style('bold', escape(term['title']))}\n{style('dim', note)}")
            else:
                row.append(style("dim", f"no {name} text"))
        rows.append(row)
    return rows


def card_lines(view: dict[str, Any], style: Style, escape: Escape) -> list[tuple[int, str]]:
    """A card's lines, each with its indent (0: printed as is; else a hanging indent): names,
    facts, type lines and texts (Oracle first), then each ruling text with language and
    provenance."""
    lines = [(0, style("bold", escape(view["name"])))]
    for lang in LANGS:
        if lang in view["names"]:
            lines.append((2, f"{language_name(lang, 'en')}: {escape(view['names'][lang])}"))
    facts = []
    if view.get("mana_cost"):  # as printed, {2}{U}{B}: what a judge reads off the card
        facts.append(f"mana cost {view['mana_cost']}")
    if view["mana_value"] is not None:
        facts.append(f"mana value {view['mana_value']:g}")
    if view["oracle_id"]:
        facts.append(f"oracle id {view['oracle_id']}")
    facts.extend(f"{k} {v}" for k, v in sorted(view["attributes"].items()))
    if view["printings"]:
        facts.append(
            "printings " + ", ".join(f"{p['set']} #{p['number']}" for p in view["printings"])
        )
    facts.extend(f"rulings page {page['page_id']}" for page in view["rulings_pages"])
    lines.extend((2, escape(fact)) for fact in facts)
    texts = view.get("texts") or {}
    type_lines = view.get("type_lines") or {}
    for lang in [code for code in LANGS if code in texts or code in type_lines]:
        label = "Oracle text" if lang == "en" else f"{language_name(lang, 'en')} printed text"
        lines.append((0, style("bold", label)))
        if type_lines.get(lang):
            lines.append((2, style("italic", escape(type_lines[lang]))))
        lines.extend(
            (2, escape(line)) for line in (texts.get(lang) or "").splitlines() if line.strip()
        )
    lines.append((0, style("bold", f"{len(view['rulings'])} rulings")))
    for ruling in view["rulings"]:
        lines.append((0, f"{style('cyan', ruling['date'])} · {escape(ruling['source'])}"))
        for lang, text in sorted(ruling["texts"].items(), key=lambda kv: kv[0] != "en"):
            said = BADGES.get(text["provenance"], text["provenance"])
            lines.append((2, f"{style('dim', f'{lang} ({escape(said)}):')} {escape(text['text'])}"))
    return lines

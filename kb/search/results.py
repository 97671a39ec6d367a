"""Result records: what a search result shows, as a plain, JSON-ready dict.

The language shown is the user's when the item has it and it matched (or nothing did), else the
language that matched; a translation comes with its English original. Links follow the site's
URL shapes (:mod:`kb.urls`); an older edition's rule has none, since the site shows the newest.
"""

from __future__ import annotations

from typing import Any

from kb.langs import LANGS
from kb.search import highlight
from kb.search.schema import NO_EDITION, field_language, text_field
from kb.urls import site_url

BADGES = {
    "official": "official",
    "machine": "machine translation",
    "community": "community",
    "card-term": "term from official card translations",
}


def result_record(
    hit: Any, schema: Any, lang: str, rank: int, newest: str | None
) -> dict[str, Any]:
    """The record of one hit (Whoosh's, searched with ``terms=True``, or kb's term engine's)."""
    stored = hit.fields()
    data = stored["data"]
    texts: dict[str, dict[str, Any]] = data["texts"]
    matched: dict[str, set[str]] = {}
    for fieldname, term in _matched_terms(hit):
        field_lang = field_language(fieldname)
        if field_lang:
            matched.setdefault(field_lang, set()).add(_text(term))
    matched_langs = [code for code in LANGS if code in matched]
    shown = _shown_language(lang, texts, matched_langs)
    text = texts.get(shown, {})
    analyzer = schema[text_field(shown)].analyzer
    body = text.get("text") or text.get("title") or ""
    segments = highlight.snippet(analyzer, body, matched.get(shown, set()))
    kind = stored["type"]
    result: dict[str, Any] = {
        "rank": rank,
        "type": kind,
        "key": stored["key"],
        "title": _title(kind, data, shown),
        "number": stored.get("number"),
        "language": shown,
        "languages": [code for code in LANGS if code in texts],
        "matched_languages": matched_langs,
        "provenance": text.get("provenance"),
        "badge": BADGES.get(text.get("provenance", ""), text.get("provenance")),
        "edition": data.get("edition"),
        # One item per distinct text: every edition that holds this one, newest first.
        "editions": data.get("editions") or ([data["edition"]] if data.get("edition") else []),
        "date": data.get("date") or data.get("edition"),
        "source": data.get("source"),
        "sets": data.get("sets", []),
        "url": _url(kind, lang, data, newest),
        "score": round(float(hit.score), 4) if hit.score is not None else None,
        "snippet": highlight.as_text(segments),
        "snippet_html": highlight.as_html(segments),
        "highlights": [[part, flag] for part, flag in segments],
    }
    if kind == "card":
        result["card"] = {"key": data["card_key"], "name": data["name"]}
        result["names"] = data.get("names", {})
        result["rulings"] = data.get("rulings", 0)
    elif kind == "ruling":
        result["cards"] = data.get("cards", [])
    if shown != "en" and "en" in texts:
        english = texts["en"]
        original = highlight.snippet(
            schema[text_field("en")].analyzer,
            english.get("text") or english.get("title") or "",
            matched.get("en", set()),
        )
        result["original"] = {
            "language": "en",
            "title": english.get("title") or "",
            "snippet": highlight.as_text(original),
            "snippet_html": highlight.as_html(original),
        }
    return result


def _matched_terms(hit: Any) -> list[Any]:
    """The query terms a hit holds: none when Whoosh searched without ``terms=True``."""
    results = getattr(hit, "results", None)  # a Whoosh hit; kb's term engine always knows them
    if results is not None and not results.has_matched_terms():
        return []
    return list(hit.matched_terms())


def _text(term: Any) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else str(term)


def _shown_language(lang: str, texts: dict[str, Any], matched: list[str]) -> str:
    """The user's language when the item has it and it matched (or nothing did), else a match."""
    if lang in texts and (lang in matched or not matched):
        return lang
    for code in matched:
        if code in texts:
            return code
    if lang in texts:
        return lang
    return "en" if "en" in texts else next(iter(texts), "en")


def _title(kind: str, data: dict[str, Any], lang: str) -> str:
    text = data["texts"].get(lang, {})
    if kind == "rule":
        context = data.get("context") or {}
        title = text.get("title") or context.get(lang) or context.get("en", "")
        return f"{data['number']} {title}".strip()
    if kind == "example":
        return f"Example, rule {data['number']}"
    if kind == "glossary":
        return str(data["term"])
    if kind == "card":
        return str(text.get("title") or data["name"])
    cards = data.get("cards", [])
    names = ", ".join(c["name"] for c in cards[:3]) + (
        f" +{len(cards) - 3}" if len(cards) > 3 else ""
    )
    return f"Ruling {data['date']}" + (f" — {names}" if names else "")


def _url(kind: str, lang: str, data: dict[str, Any], newest: str | None) -> str | None:
    """The site page of a result; None for older editions, which the site does not publish."""
    if kind in ("rule", "example"):
        if data.get("edition") not in (newest, NO_EDITION):
            return None
        return site_url("rule", lang, number=data["number"])
    if kind == "glossary":
        return site_url("glossary", lang, term=data["term"]) if data["edition"] == newest else None
    if kind == "card":
        return site_url("card", lang, key=data["card_key"])
    cards = data.get("cards", [])
    return site_url("card", lang, key=cards[0]["key"]) if cards else None

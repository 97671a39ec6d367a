"""The link and version stages' public queries, as the site uses them.

The site calls only the public functions of :mod:`kb.links` and :mod:`kb.versions` (never
their internals); this module is the one place that imports them, and reshapes their answers
into what the page builders look up.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from kb.corpus.numbers import sort_key


def links() -> Any:
    """The link stage (imported when first needed: ``kb i18n`` never loads it)."""
    import kb.links

    return kb.links


def versions() -> Any:
    """The version stage (imported when first needed)."""
    import kb.versions

    return kb.versions


def find_references(text: str, language: str) -> list[Any]:
    """Every explicit rule reference in a text, as the link stage finds them."""
    return list(links().find_references(text, language))


def translation_status(session: Session, lang: str, edition: str | None) -> dict[str, Any]:
    """current / stale / missing per rule number of the edition."""
    return dict(versions().translation_status(session, lang, edition))


def preferred_translations(session: Session, lang: str, edition: int | str | None) -> dict:
    """Per rule number: the translation the version stage chose to show, its state and text."""
    return dict(versions().preferred_translations(session, lang, edition))


def stale_translations(session: Session, lang: str, edition: str | None) -> list[dict[str, Any]]:
    """The stale translations with the English then and now."""
    return list(versions().stale_translations(session, lang, edition))


def family_text(contents: dict[str, Any]) -> dict[str, str]:
    """One English edition's rules (``edition_contents``): each with its subrules, as one text.

    A rule's own text is often only its title (701.38 "Vote"): its history is that of the rule
    and its subrules together, each subrule on its own line after its letter.
    """
    lines: dict[str, list[tuple[str, str]]] = {}
    for number, content in contents.items():
        if content.kind == "rule":
            lines.setdefault(number, []).append((content.sort_key, content.full))
        elif content.kind == "subrule":
            rule = number.rstrip("abcdefghijklmnopqrstuvwxyz")
            # The letter only: a renumbered rule whose words stay is the same version.
            letter = number[len(rule) :]
            lines.setdefault(rule, []).append((content.sort_key, f"({letter}) {content.full}"))
    return {
        number: "\n".join(text for _key, text in sorted(parts)) for number, parts in lines.items()
    }


def word_ops(old: str, new: str) -> list[list[str]]:
    """The version stage's word diff of two texts."""
    return list(versions().word_ops(old, new))


def _number_of(item: Any) -> str:
    return str(item["number"] if isinstance(item, dict) else item)


def _label_of(item: Any) -> str:
    if isinstance(item, dict):
        return str(item.get("title") or item.get("text") or "")
    return ""


def _term_of(item: Any) -> str:
    return str(item["term"] if isinstance(item, dict) else item)


def edition_history(
    session: Session, editions: list[str], known: set[str], terms: set[str]
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The diff of each pair of consecutive English editions, and each edition's family texts
    (:func:`family_text`), oldest first.

    One pass over the editions: each edition's rules are read once (the version stage keeps the
    last few), for the diffs with its neighbours and for its texts.
    """
    stage = versions()
    diffs: list[dict[str, Any]] = []
    texts: list[dict[str, str]] = []
    previous: tuple[str, Any] | None = None
    for date in editions:
        edition = stage.resolve_edition(session, date)
        if previous is not None:
            found = stage.diff_editions(session, previous[1], edition)
            diffs.append(_diff_view(found, previous[0], date, known, terms))
        if len(editions) > 1:
            texts.append(family_text(stage.edition_contents(session, edition)))
        previous = (date, edition)
    return diffs, texts


def _diff_view(
    diff: dict[str, Any], old: str, new: str, known: set[str], terms: set[str]
) -> dict[str, Any]:
    """One edition diff as the pages show it (what is still in the edition shown is marked)."""
    added = [
        {"number": _number_of(i), "text": _label_of(i), "current": _number_of(i) in known}
        for i in diff.get("added", [])
    ]
    removed = [{"number": _number_of(i), "text": _label_of(i)} for i in diff.get("removed", [])]
    changed = [{**c, "current": c["new_number"] in known} for c in diff.get("changed", [])]
    renumbered = [{**r, "current": r["new_number"] in known} for r in diff.get("renumbered", [])]
    glossary = {"added": [], "removed": [], "changed": [], **(diff.get("glossary") or {})}
    changed_terms = {
        key: [{"term": _term_of(t), "current": _term_of(t) in terms} for t in glossary[key]]
        for key in ("added", "removed", "changed")
    }
    return {
        "slug": f"{old}_{new}",
        "old": old,
        "new": new,
        "added": added,
        "removed": removed,
        "changed": changed,
        "renumbered": renumbered,
        "glossary": changed_terms if any(changed_terms.values()) else None,
        "counts": {
            "added": len(added),
            "removed": len(removed),
            "changed": len(changed),
            "renumbered": len(renumbered),
        },
    }


def clarifications_by_rule(
    session: Session, edition: str | None, edition_id: int | None, known: set[str]
) -> dict[str, list[dict[str, Any]]]:
    """The rulings linked to each rule shown (kb.links.batch), asked once for all of them."""
    return links().clarifications_by_rule(session, edition, edition_id, known)


def cited_by(
    session: Session, edition: str | None, edition_id: int | None, known: set[str]
) -> dict[str, list[dict[str, Any]]]:
    """What cites each rule shown or its subrules (kb.links.batch), asked once for all."""
    return links().cited_by(session, edition, edition_id, known)


def rules_by_clarification(
    clarifications: dict[str, list[dict[str, Any]]], known: set[str]
) -> dict[int, list[str]]:
    """The rule numbers each ruling is linked to, from the rulings found for the rules."""
    result: dict[int, list[str]] = {}
    for found in clarifications.values():
        for clar in found:
            numbers = [n for n in clar.get("rules", []) if n in known]
            if numbers:
                result[int(clar["id"])] = sorted(set(numbers), key=sort_key)
    return dict(sorted(result.items()))

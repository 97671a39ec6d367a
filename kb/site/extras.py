"""Link and version data for the pages: backlinks, linked rulings, diffs, history, drift.

Gathered once per build through the link and version stages' public queries (see
:mod:`kb.site.stages`) and reshaped into plain dicts keyed the way the page builders look
them up.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from kb.langs import LANGS
from kb.site import history, stages
from kb.site.data import SiteData

log = logging.getLogger(__name__)


@dataclass
class Extras:
    """What the link and version stages add to the pages (empty without an English edition)."""

    status: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    stale: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    clarifications: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    rules_of_clarification: dict[int, list[str]] = field(default_factory=dict)
    cited_by: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    history: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    diffs: list[dict[str, Any]] = field(default_factory=list)
    versions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


VERSION_FIELDS = ("status", "stale", "history", "diffs", "versions")


def load(session: Session, data: SiteData, versions: dict[str, Any] | None = None) -> Extras:
    """Ask the link and version stages for everything the pages show about rules.

    ``versions``: the :func:`version_part` of a build from the same rules documents (the
    history and diffs are not asked again).
    """
    extras = Extras()
    if data.edition is not None:
        if versions is not None:
            for name in VERSION_FIELDS:
                setattr(extras, name, versions[name])
        else:
            _versions(session, data, extras)
        _links(session, data, extras)
    return extras


def version_part(extras: Extras) -> dict[str, Any]:
    """What the version stage gave: it depends on the rules documents only (see the cache)."""
    return {name: getattr(extras, name) for name in VERSION_FIELDS}


def _versions(session: Session, data: SiteData, extras: Extras) -> None:
    for lang in LANGS:
        if lang == "en":
            continue
        extras.status[lang] = stages.translation_status(session, lang, data.edition)
        extras.stale[lang] = stages.stale_translations(session, lang, data.edition)
    terms = {g["term"] for g in data.glossary}
    extras.diffs, texts = stages.edition_history(session, data.editions, set(data.nodes), terms)
    for diff in extras.diffs:
        url_base = f"/{{lang}}/changes/{diff['slug']}.html"
        for item in diff["added"]:
            extras.history.setdefault(item["number"], []).append(
                {
                    "status": "added",
                    "edition": diff["new"],
                    "old_number": None,
                    "url": url_base + f"#added-{item['number']}",
                }
            )
        for item in diff["changed"]:
            number = item["new_number"]
            extras.history.setdefault(number, []).append(
                {
                    "status": "changed",
                    "edition": diff["new"],
                    "old_number": item["old_number"] if item["old_number"] != number else None,
                    "url": url_base + f"#changed-{number}",
                }
            )
        for item in diff["renumbered"]:
            number = item["new_number"]
            extras.history.setdefault(number, []).append(
                {
                    "status": "renumbered",
                    "edition": diff["new"],
                    "old_number": item["old_number"],
                    "url": url_base + f"#renumbered-{number}",
                }
            )
    if len(data.editions) > 1:
        rules = {n for n, node in data.nodes.items() if node.kind == "rule"}
        extras.versions = history.rule_versions(
            extras.diffs, data.editions, texts, rules, stages.word_ops
        )
    # Newest first; only what concerns rules the site shows.
    extras.history = {
        number: sorted(events, key=lambda e: e["edition"], reverse=True)
        for number, events in sorted(extras.history.items())
        if number in data.nodes
    }


def _links(session: Session, data: SiteData, extras: Extras) -> None:
    known = set(data.nodes)
    extras.clarifications = stages.clarifications_by_rule(
        session, data.edition, data.edition_id, known
    )
    extras.rules_of_clarification = stages.rules_by_clarification(extras.clarifications, known)
    extras.cited_by = stages.cited_by(session, data.edition, data.edition_id, known)

"""The link and version stages' public queries, as the exports use them.

Exports call only the public functions of :mod:`kb.links` and :mod:`kb.versions` (the API
contract); this module is the one place that imports them, so a change of theirs shows up here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from kb.models import Edition


def _edition_arg(edition: Edition) -> int:
    return edition.id


def translation_status(session: Session, language: str, edition: Edition) -> dict[str, dict]:
    """Per rule number of the edition: current, stale or missing, and the provenance judged."""
    from kb.versions import translation_status as status

    return status(session, language, _edition_arg(edition))


def preferred_translations(session: Session, language: str, edition: Edition) -> dict[str, dict]:
    """Per rule number: the translation the version stage chose to show, its state and text."""
    from kb.versions import preferred_translations as preferred

    return preferred(session, language, _edition_arg(edition))


def stale_translations(session: Session, language: str, edition: Edition) -> dict[str, dict]:
    """The stale translations of a language by rule number, with the English then and now."""
    from kb.versions import stale_translations as stale

    return {item["number"]: item for item in stale(session, language, _edition_arg(edition))}


def clarifications_for_rule(
    session: Session, number: str, edition: Edition, include_subrules: bool = True
) -> list[dict[str, Any]]:
    """The clarifications that the link stage tied to a rule (and its subrules)."""
    from kb.links import clarifications_for_rule as linked

    return linked(session, number, _edition_arg(edition), include_subrules=include_subrules)


def trace(session: Session, number: str, edition: Edition) -> dict[str, Any]:
    """A rule's number and text in every loaded edition (to follow a renumbered translation)."""
    from kb.versions import trace as history

    return history(session, number, _edition_arg(edition))


def find_references(text: str, language: str) -> list[Any]:
    """The explicit rule references of a text (spans and the numbers they name)."""
    from kb.links import find_references as find

    return find(text, language)

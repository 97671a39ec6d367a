"""Stable site links: one function that both the search results and the static site use.

The site writes one page per rule (its subrules and examples as anchors), one table of rules
per chapter, one page per part, one page per card and one glossary page per language; search
results and the API link into them, so the shapes below are a contract between the two stages:

- rule:          ``/{lang}/rules/{rule}.html``           (``/en/rules/701.54.html``, ``100.1.html``)
- subrule:       ``/{lang}/rules/{rule}.html#{number}``  (``/en/rules/701.54.html#701.54a``)
- chapter, part: ``/{lang}/rules/{number}.html``         (``/en/rules/701.html``, ``7.html``)
- card:          ``/{lang}/cards/{card_file}.html``      (:func:`card_file` of ``Card.key``)
- glossary term: ``/{lang}/glossary.html#{slug}``        (slug = :func:`glossary_slug`)
- set:           ``/{lang}/sets/{set_file}.html``        (``/fr/sets/KHM.html``; page 2: ``KHM-2``)
- cards by initial: ``/{lang}/cards/letter-{id}.html``   (``letter-a.html``, ``letter-a-2.html``)

A rule page holds ``id="{rule}"`` on its heading and ``id="{subrule}"`` on each subrule; a
chapter page lists its rules with ``id="{rule}"`` on each row, so the chapter anchors of the
earlier shape (``701.html#701.54``) still lead to the rule.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from kb.langs import check_lang

_NUMBER = re.compile(r"^(?:[1-9]|\d{3}|(?P<rule>\d{3}\.\d{1,3})[a-z]?)$")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def glossary_slug(term: str) -> str:
    """The anchor of a glossary term: lower-case ASCII, each run of other characters one ``-``.

    Accents are dropped so anchors stay plain ASCII (``Lim-Dûl`` -> ``lim-dul``);
    ``Active Player, Nonactive Player Order`` -> ``active-player-nonactive-player-order``.
    """
    decomposed = unicodedata.normalize("NFKD", term.casefold())
    ascii_only = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_ALNUM.sub("-", ascii_only).strip("-")


_PLAIN_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def card_file(key: str) -> str:
    """The file name (without ``.html``) of a card's page: its key when that is plain.

    Oracle ids and rulings-page ids are plain (``003_c5873bb13b9e08b7``); any other key (a card
    with no oracle id is keyed by name) becomes an ASCII slug plus a short hash of the key, so the
    name on disk and the link to it are the same string, with nothing to percent-encode.
    """
    if _PLAIN_KEY.match(key) and not key.startswith("."):
        return key
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]
    slug = glossary_slug(key)[:60].strip("-")
    return f"{slug}-{digest}" if slug else digest


def rule_page(number: str) -> str:
    """The page a number lives on: a part, chapter or rule its own, a subrule its rule's."""
    match = _NUMBER.match(number)
    if not match:
        raise ValueError(f"not a rule number: {number!r}")
    return match["rule"] or number


def site_url(kind: str, lang: str, **keys: str) -> str:
    """The site-relative URL of a rule (``number=``), card (``key=``) or glossary term (``term=``).

    ``kind`` is ``rule`` (any part, chapter, rule or subrule number), ``card`` or ``glossary``;
    ``lang`` is the site language the page is in. Raises ValueError on anything else.
    """
    code = check_lang(lang)
    if kind == "rule":
        number = keys["number"]
        page = rule_page(number)
        url = f"/{code}/rules/{page}.html"
        return url if page == number else f"{url}#{number}"
    if kind == "card":
        return f"/{code}/cards/{card_file(keys['key'])}.html"
    if kind == "glossary":
        return f"/{code}/glossary.html#{glossary_slug(keys['term'])}"
    if kind == "set":
        return f"/{code}/sets/{card_file(keys['code'])}{_page_suffix(keys)}.html"
    if kind == "letter":
        return f"/{code}/cards/letter-{keys['letter']}{_page_suffix(keys)}.html"
    raise ValueError(f"unknown kind of page: {kind!r} (expected rule, card, glossary, set, letter)")


def _page_suffix(keys: dict[str, str]) -> str:
    """``-2`` for the second page of a paginated list, nothing for the first."""
    page = int(keys.get("page") or 1)
    return f"-{page}" if page > 1 else ""

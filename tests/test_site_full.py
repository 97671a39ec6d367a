"""The site built from the real corpus: the link crawl, cross-links, determinism, Pagefind."""

from __future__ import annotations

import json
import re
from pathlib import Path

from site_files import read_site

from kb.site.check import broken_links
from kb.site.writer import MARKER


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def test_the_whole_site_has_no_broken_internal_link(full_site: Path):
    files = read_site(full_site)
    pages = [p for p in files if p.endswith(".html")]
    assert len(pages) > 5000
    assert broken_links(files) == []
    for path in pages:  # an anchor must name one place only
        ids = re.findall(rb'\bid="([^"]*)"', files[path])
        assert len(ids) == len(set(ids)), path
    for lang in ("en", "fr", "es"):
        assert f"{lang}/rules/701.html" in files
        assert f"{lang}/rules/701.54.html" in files
        assert f"{lang}/rules/100.1.html" in files  # a numbered paragraph is a rule too
        assert f"{lang}/rules/7.html" in files
        assert f"{lang}/glossary.html" in files


def test_every_rule_has_a_page_that_its_chapter_table_links_to(full_site: Path, full_db):
    from sqlalchemy import func, select

    from kb.lookup import find_edition
    from kb.models import Rule

    with full_db.session() as session:
        edition = find_edition(session)
        count = session.scalar(
            select(func.count(Rule.id)).where(Rule.edition_id == edition.id, Rule.kind == "rule")
        )
    files = read_site(full_site)
    row = re.compile(r'<tr id="([0-9.]+)"><th scope="row"><a class="num" href="([^"]+)">')
    for lang in ("en", "fr", "es"):
        rule_pages = {p for p in files if re.fullmatch(rf"{lang}/rules/\d{{3}}\.\d+\.html", p)}
        assert len(rule_pages) >= count > 1000
        linked = set()
        for chapter in (p for p in files if re.fullmatch(rf"{lang}/rules/\d{{3}}\.html", p)):
            for number, href in row.findall(files[chapter].decode()):
                assert href == f"../../{lang}/rules/{number}.html"
                linked.add(f"{lang}/rules/{number}.html")
        assert linked == rule_pages
    first = page(full_site, "fr/rules/100.1.html")
    assert 'rel="prev"' not in first
    assert '<a rel="next" href="../../fr/rules/100.2.html">' in first
    assert '<a class="up" href="../../fr/rules/100.html">' in first
    assert "<title>100.1. These Magic rules apply to any Magic game with two or more" in first
    second = page(full_site, "fr/rules/100.2.html")
    assert '<a rel="prev" href="../../fr/rules/100.1.html">' in second
    chapter = page(full_site, "en/rules/701.html")
    start = chapter.index('<tr id="701.54">')
    assert "The Ring Tempts You" in chapter[start : chapter.index("</tr>", start)]
    assert '<tr id="701.1"><th scope="row">' in chapter  # untitled: its first words
    assert 'class="first-words"><bdi>Most actions described in a card’s rules text' in chapter


def test_the_home_page_shows_the_edition_in_the_page_language(full_site: Path):
    assert "January 16, 2026" in page(full_site, "en/index.html")
    assert "16 janvier 2026" in page(full_site, "fr/index.html")
    assert "16 de enero de 2026" in page(full_site, "es/index.html")
    spanish = page(full_site, "es/index.html")
    assert "Cobertura en español" in spanish


def test_rule_references_and_glossary_redirects_are_links(full_site: Path):
    glossary = page(full_site, "en/glossary.html")
    assert 'id="ring-bearer"' in glossary
    assert 'href="../en/rules/701.54.html"' in glossary
    assert '<a class="term" href="#active-player-nonactive-player-order">' in glossary
    rules = page(full_site, "en/rules/702.19.html")
    assert 'class="ref" href="../../en/rules/' in rules
    spanish = page(full_site, "es/rules/701.54.html")
    # "la regla 701.54a" inside the Spanish text links to the subrule's anchor.
    assert '<a class="ref" href="../../es/rules/701.54.html#701.54a">regla 701.54a</a>' in spanish
    english = page(full_site, "en/rules/100.1.html")
    assert '<a class="ref" href="../../en/rules/8.html">section 8</a>' in english


def test_a_rule_shows_its_translation_beside_the_english(full_site: Path):
    spanish = page(full_site, "es/rules/701.54.html")
    start = spanish.index('id="701.54"')
    article = spanish[start : spanish.index("</article>", start)]
    assert "El Anillo te tienta" in article and "The Ring Tempts You" in article
    assert 'class="texts pair"' in article
    assert 'lang="es"' in article and 'lang="en"' in article
    french = page(full_site, "fr/rules/701.54.html")
    assert "Pas encore traduite en français" in french


def test_linked_rulings_and_backlinks_appear_on_the_rule(full_site: Path):
    english = page(full_site, "en/rules/701.54.html")
    start = english.index('id="701.54"')
    article = english[start : english.index("</article>", start)]
    assert 'class="clarifications"' in article
    assert "Ring-bearer" in article
    assert 'class="cited-by"' in page(full_site, "en/rules/601.2.html")


def test_edition_diffs_and_rule_history(full_site: Path):
    changes = page(full_site, "en/changes/index.html")
    assert "2025-11-14_2026-01-16.html" in changes
    diff = page(full_site, "en/changes/2025-11-14_2026-01-16.html")
    assert 'id="added-610.5"' in diff
    assert "702.124p" in diff
    assert "Blight" in diff
    rules = page(full_site, "en/rules/610.5.html")
    assert 'class="history"' in rules and "2025-11-14_2026-01-16.html#added-610.5" in rules
    blight = page(full_site, "en/rules/701.68.html")  # added with its subrules: said once
    assert blight.count("#added-701.68") == 1 and "#added-701.68a" not in blight


def test_the_translations_page_lists_missing_rules(full_site: Path):
    french = page(full_site, "fr/translations.html")
    assert 'href="../fr/rules/100.1.html#100.1a"' in french
    spanish = page(full_site, "es/translations.html")
    assert 'href="../es/rules/701.54.html#701.54a"' not in spanish.split('id="missing"')[1]


def test_card_pages_link_their_rulings_to_rules(full_site: Path):
    assert 'href="../../en/cards/letter-t.html"' in page(full_site, "en/cards/index.html")
    assert "The Trickster-God" in page(full_site, "en/cards/letter-t.html")
    files = read_site(full_site)
    card_pages = [p for p in files if p.startswith("fr/cards/") and p != "fr/cards/index.html"]
    assert len(card_pages) > 500
    heist = next(p for p in card_pages if "Le vol du dieu-décepteur" in files[p].decode("utf-8"))
    html = files[heist].decode("utf-8")
    assert "5 février 2021" in html and "Valeur de mana" in html


def test_pagefind_indexes_each_language(full_site: Path):
    entry = json.loads(page(full_site, "pagefind/pagefind-entry.json"))
    assert set(entry["languages"]) == {"en", "fr", "es"}
    for lang in ("en", "fr", "es"):
        assert entry["languages"][lang]["page_count"] > 600


def test_two_builds_are_byte_identical(full_settings, full_site: Path, tmp_path: Path):
    from kb.pipeline import open_db
    from kb.site import build_site

    db = open_db(full_settings, create=False)
    try:
        build_site(db, tmp_path / "again", search=True)
    finally:
        db.dispose()
    again, first = read_site(tmp_path / "again"), read_site(full_site)
    # The build record holds a digest of kb's own source files too, which may be edited while
    # the suite runs; every page, asset and index file must be identical.
    del again[MARKER], first[MARKER]
    assert sorted(again) == sorted(first)
    assert [path for path in sorted(first) if again[path] != first[path]] == []


def test_a_stale_translation_is_badged_and_listed_with_the_english_change(full_db):
    from kb.site import data, extras
    from kb.site.build import render_site

    with full_db.session() as session:
        site_data = data.load(session)
        site_extras = extras.load(session, site_data)
    status = site_extras.status["es"]
    assert status["701.54a"]["status"] == "current" and status["100.1"]["status"] == "missing"
    # Make the seed's Spanish 701.54a stale, as the version stage reports it when the English
    # changed after the translation was made.
    status["701.54a"] = {**status["701.54a"], "status": "stale", "follows": "2025-11-14"}
    site_extras.stale["es"] = [
        {
            "number": "701.54a",
            "follows": "2025-11-14",
            "edition": "2026-01-16",
            "english_then": "choose a creature",
            "english_now": "choose a creature you control",
            "ops": [["equal", "choose a creature "], ["insert", "you control"]],
        }
    ]
    files, _ = render_site(site_data, site_extras, ("es",))
    rules = files["es/rules/701.54.html"].decode()
    article = rules[
        rules.index('id="701.54"') : rules.index("</article>", rules.index('id="701.54"'))
    ]
    assert '<span class="badge badge-stale">desfasada</span>' in article
    page = files["es/translations.html"].decode()
    stale = page[page.index('id="stale"') : page.index('id="missing"')]
    assert 'href="../es/rules/701.54.html#701.54a"' in stale
    assert "<ins>you control</ins>" in stale
    assert "14 de noviembre de 2025" in stale and "16 de enero de 2026" in stale


def test_rule_history_feed_whole_rules_and_set_pages(full_site: Path):
    vote = page(full_site, "en/rules/701.38.html")
    history = vote[vote.index('id="history"') :]
    # Renumbered with the same words: one version, with the numbers it had.
    assert "1 version of this rule" in history and "numbered 701.32 (Feb 5, 2021)" in history
    deathtouch = page(full_site, "en/rules/702.2.html")
    history = deathtouch[deathtouch.index('id="history"') :]
    assert "2 versions of this rule" in history and "<del>" in history and "<ins>" in history
    feed = page(full_site, "fr/changes/feed.xml")
    assert feed.count("<entry>") == 2 and "Du 14 novembre 2025 au 16 janvier 2026" in feed
    assert 'href="../../fr/changes/feed.xml"' in page(full_site, "fr/changes/index.html")
    whole = page(full_site, "es/rules/all.html")
    assert 'id="701.54a"' in whole and 'id="100.1"' in whole
    khm = page(full_site, "fr/sets/KHM.html")
    assert "Kaldheim" in khm and "Le vol du dieu-décepteur" in khm
    sizes = {
        p.relative_to(full_site).as_posix(): p.stat().st_size
        for p in full_site.rglob("*.html")
        if p.name != "all.html"
    }
    assert max(sizes.values()) < 1_000_000, max(sizes.items(), key=lambda kv: kv[1])

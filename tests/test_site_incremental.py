"""Incremental site builds: after one changed set, the site equals a build from scratch."""

from __future__ import annotations

import json
from pathlib import Path

from site_files import read_site

from kb.site.writer import MARKER


def _small_set(shared_corpus: Path, folder: Path) -> Path:
    """A set file of the real KHM cards that have rulings, cut to a few (a cheap build)."""
    document = json.loads((shared_corpus / "mtgjson" / "KHM.json").read_text(encoding="utf-8"))
    cards = [c for c in document["data"]["cards"] if c.get("rulings")][:6]
    document["data"]["cards"] = cards
    document["data"].pop("tokens", None)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "KHM.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _site(path: Path) -> dict[str, bytes]:
    files = read_site(path)
    del files[MARKER]
    return files


def test_a_rebuild_after_one_changed_set_equals_a_build_from_scratch(
    settings, shared_corpus: Path, tmp_path: Path, monkeypatch
):
    from dataclasses import replace

    from kb.pipeline import build, open_db
    from kb.site import build_site, render
    from kb.site.cache import SiteCache

    set_file = _small_set(shared_corpus, tmp_path / "sets")
    settings = replace(settings, corpus=(*settings.corpus, set_file.parent))
    out = tmp_path / "site"
    first = build(settings, out).site
    assert first.written == first.files > 0
    assert (settings.home / "site-cache").is_dir()  # in kb's home, not in the published site
    assert not any(p.name.endswith(".pickle") for p in out.rglob("*"))

    document = json.loads(set_file.read_text(encoding="utf-8"))
    card = document["data"]["cards"][0]
    card["rulings"].append({"date": "2026-01-20", "text": "An incremental ruling."})
    set_file.write_text(json.dumps(document), encoding="utf-8")
    read_back: list[str] = []  # the kept pages whose ids and links came out of the cache
    previous_links = SiteCache.previous_links

    def spy(self, path):
        read_back.append(path)
        return previous_links(self, path)

    monkeypatch.setattr(SiteCache, "previous_links", spy)
    rendered: list[str] = []
    render_page = render._render
    monkeypatch.setattr(
        render,
        "_render",
        lambda env, page, common: rendered.append(page.path) or render_page(env, page, common),
    )
    again = build(settings, out).site
    monkeypatch.undo()
    assert not again.up_to_date
    # The link check trusts the kept pages' links, which the last build checked: it reads back
    # the ids the rendered pages had, and those of the few kept pages they link into.
    assert set(rendered) & set(read_back)
    assert len(set(read_back) - set(rendered)) < again.unchanged / 10
    # Only what shows the new ruling is rendered again; the rest is kept as it was.
    assert 0 < again.written < first.files / 2 and again.unchanged > 0
    assert again.seconds_pagefind == 0.0  # no page Pagefind indexes changed
    card_pages = [p for p in _site(out) if p.endswith(".html") and "/cards/" in p]
    changed = [p for p in card_pages if b"An incremental ruling." in (out / p).read_bytes()]
    assert len(changed) == 3  # the card's page in each language
    # Of the card pages, only those are rendered again; no rule page is.
    card_lists = ("/cards/index.html", "/cards/letter-")
    rendered_cards = [p for p in rendered if "/cards/" in p and not any(s in p for s in card_lists)]
    assert sorted(rendered_cards) == sorted(changed)
    assert not [p for p in rendered if "/rules/" in p]

    db = open_db(settings, create=False)
    try:
        scratch = build_site(db, tmp_path / "scratch", search=True)
    finally:
        db.dispose()
    assert scratch.pages == again.pages
    # The card pages kept without computing their context still count what they show as text.
    assert scratch.unresolved_references == again.unresolved_references
    incremental, fresh = _site(out), _site(tmp_path / "scratch")
    assert sorted(incremental) == sorted(fresh)
    assert [p for p in sorted(fresh) if incremental[p] != fresh[p]] == []


def test_a_page_changed_by_hand_is_rendered_again_after_force(settings, tmp_path: Path):
    from kb.pipeline import build

    out = tmp_path / "site"
    build(settings, out)
    page = out / "en" / "index.html"
    good = page.read_bytes()
    page.write_bytes(b"spoiled")
    assert build(settings, out).site.up_to_date  # nothing of the knowledge base changed
    report = build(settings, out, force=True).site
    assert page.read_bytes() == good and report.written >= 1


def test_an_unreadable_or_foreign_cache_only_means_a_full_render(tmp_path: Path, caplog):
    from kb.site.cache import SiteCache
    from kb.site.pagefind import indexed_path

    spoiled = tmp_path / "cache.pickle"
    spoiled.write_bytes(b"not a cache")
    assert SiteCache(spoiled, "code").previous == {}
    assert "ignoring the site cache" in caplog.text
    good = SiteCache(tmp_path / "good.pickle", "code")
    good.record("en/a.html", "d1", ["x"], ["b.html#x", "../assets/kb.css"])
    good.stamp = "stamp"
    good.save()
    again = SiteCache(tmp_path / "good.pickle", "code")
    assert again.stamp == "stamp"
    assert again.lookup("en/a.html", "d1") == (["x"], ["b.html#x", "../assets/kb.css"])
    assert again.lookup("en/a.html", "d2") is None  # other inputs: rendered again
    assert SiteCache(tmp_path / "good.pickle", "other code").previous == {}
    assert indexed_path("es/rules/701.54.html") and indexed_path("fr/glossary.html")
    assert not indexed_path("fr/cards/a.html") and not indexed_path("cite.html")

"""The card pages are read and rendered a batch of cards at a time (memory flat in the cards),
and the offline card search comes in shards, one per batch."""

from __future__ import annotations

import json
import math

from hypothesis import given
from hypothesis import strategies as st


def _shard(content: bytes) -> dict:
    text = content.decode()
    return json.loads(text[text.index("= ", text.index("]")) + 2 : text.rindex(";")])


def test_cards_are_read_a_batch_at_a_time_and_the_site_does_not_depend_on_the_batch(
    full_db, monkeypatch
):
    from kb.site import card_data, data, extras
    from kb.site.render import render_site

    with full_db.session() as session:
        site_data = data.load(session)
        site_extras = extras.load(session, site_data)
        reader = site_data.card_reader
        asked: list[int] = []

        def counting(batch):
            asked.append(len(batch))
            return reader(batch)

        site_data.card_reader = counting
        one, pages = render_site(site_data, site_extras, ("fr",))
        monkeypatch.setattr(card_data, "BATCH", 97)
        asked.clear()
        many, again = render_site(site_data, site_extras, ("fr",))
    cards = len(site_data.cards)
    assert cards > 2 * 97  # the real corpus: several batches
    # Never more than one batch of full cards asked at once, each card once for all languages.
    assert max(asked) == 97 and sum(asked) == cards
    assert pages == again
    shards = sorted(p for p in many if p.startswith("assets/search-cards-"))
    assert len(shards) == math.ceil(cards / 97)
    assert all(len(many[p]) < 1_000_000 for p in shards)
    search = many["assets/search-fr.js"].decode()
    assert f'"cards":{len(shards)}' in search
    # The same pages and the same card search, whatever the batch.
    same = {p for p in many if not p.startswith("assets/search-")}
    assert same == {p for p in one if not p.startswith("assets/search-")}
    assert [p for p in sorted(same) if one[p] != many[p]] == []

    def merged(files):
        titles, texts = [], {}
        count = sum(1 for p in files if p.startswith("assets/search-cards-fr-"))
        for number in range(count):
            shard = _shard(files[f"assets/search-cards-fr-{number}.js"])
            titles += shard["titles"]
            texts.update(shard["texts"])
        return titles, texts

    assert merged(many) == merged(one)
    titles, _texts = merged(many)
    assert len(titles) == cards
    assert any("vol du dieu-décepteur" in t[0].lower() for t in titles)


def test_a_rule_with_more_rulings_than_its_page_shows_links_to_the_whole_list(full_db, monkeypatch):
    import re

    from kb.site import data, extras, rule_lists
    from kb.site.render import render_site
    from kb.site.stream import LinkCollector

    monkeypatch.setattr(rule_lists, "RULINGS_SHOWN", 3)
    monkeypatch.setattr(rule_lists, "RULINGS_PER_PAGE", 5)
    monkeypatch.setattr(rule_lists, "CARDS_SHOWN", 2)
    monkeypatch.setattr(rule_lists, "CARDS_PER_PAGE", 4)
    with full_db.session() as session:
        site_data = data.load(session)
        site_extras = extras.load(session, site_data)
        files, _pages = render_site(site_data, site_extras, ("fr",))
    total = len(site_extras.clarifications["608.2"])
    assert total > 10
    rule = files["fr/rules/608.2.html"].decode()
    shown = rule[
        rule.index('class="clarifications"') : rule.index(
            "</details>", rule.index('class="clarifications"')
        )
    ]
    assert shown.count("<li>") == 3
    assert 'href="../../fr/rules/608.2/rulings.html"' in shown
    lists = sorted(p for p in files if p.startswith("fr/rules/608.2/rulings"))
    assert len(lists) == -(-total // 5)
    listed = sum(files[p].decode().count("<time datetime=") for p in lists)
    assert listed == total  # every ruling, once
    second = files["fr/rules/608.2/rulings-2.html"].decode()
    assert 'rel="prev" href="../../../fr/rules/608.2/rulings.html"' in second
    assert re.search(r'hreflang="en" href="[./]*en/rules/608\.2/rulings\.html"', second)
    cards = [p for p in files if re.fullmatch(r"fr/rules/[^/]+/cards(-\d+)?\.html", p)]
    assert cards  # a rule that many card texts use
    links = LinkCollector()
    for path, content in files.items():
        links.add(path, content)
    # Only French was rendered: the links into the other languages are left out.
    broken = [b for b in links.broken() if "/rules/" in b.page and "/fr/" in "/" + b.href]
    assert broken == []


def test_ids_and_links_are_found_as_the_attribute_patterns_find_them():
    import html

    from kb.site.stream import ID, LINK, LinkCollector, extract

    page = (
        b'<a href="x.html#a">1</a><p id="a" data-id="b" uuid="c"></p>'
        b'<img src="i.png"><a xhref="no.html" data-href="d.html">2</a>'
        b'<a href="x.html#a">3</a><a href="a&amp;b.html">4</a><script src="k.js"></script>'
    )
    ids, hrefs = extract("en/p.html", page)
    assert ids == sorted({html.unescape(m.decode()) for m in ID.findall(page)}) == ["a", "b"]
    assert hrefs == list(dict.fromkeys(html.unescape(m.decode()) for m in LINK.findall(page)))
    assert hrefs == ["x.html#a", "i.png", "d.html", "a&b.html", "k.js"]
    links = LinkCollector()
    links.add("en/p.html", page)
    links.add("en/x.html", b'<p id="z"></p>')
    broken = {(b.page, b.href) for b in links.broken()}
    assert ("en/p.html", "x.html#a") in broken  # x.html has no anchor "a"
    links.clear()
    assert not links.ids and not links.targets and not links.paths


_HREFS = st.text(alphabet="ab/.#%:?é \t-", max_size=12) | st.sampled_from(
    ["../a/b.html#x", "#top", "https://x.y/z", "//cdn/x", "x.html?q=1#f", "caf%C3%A9.html#é", ""]
)


@given(_HREFS)
def test_a_plain_link_resolves_as_urlsplit_reads_it(href: str) -> None:
    import posixpath
    from urllib.parse import unquote, urlsplit

    from kb.site.stream import _resolve

    parts = urlsplit(href)
    if parts.scheme or href.startswith("//"):
        expected = None
    elif not parts.path:
        expected = ("", unquote(parts.fragment))
    else:
        target = posixpath.normpath(posixpath.join("en/cards", unquote(parts.path)))
        expected = (target, unquote(parts.fragment) if target.endswith(".html") else "")
    assert _resolve("en/cards", href) == expected


def _write_site(out, pages: dict[str, bytes], previous=None, keep=()):
    """One build of ``pages`` by the streaming writer; ``keep``: the paths kept as they were."""
    from kb.site.stream import StreamWriter

    writer = StreamWriter(out, previous)
    for path, content in pages.items():
        if path in keep:
            assert writer.reuse(path)
        else:
            writer.add(path, content)
    if writer.gone():
        writer.links.check_kept()
    broken = {(b.page, b.href, b.reason) for b in writer.links.broken()}
    writer.commit({"pages": len(pages)})
    return writer, broken


def test_a_kept_page_is_not_read_again_unless_what_it_links_to_went_away(tmp_path):
    from kb.site.stream import extract

    out = tmp_path / "site"
    first = {
        "en/a.html": b'<p id="top"><a href="b.html#x">b</a><a href="c.html">c</a></p>',
        "en/b.html": b'<p id="x"></p><p id="y"></p>',
        "en/c.html": b"<p>c</p>",
    }
    _writer, broken = _write_site(out, first)
    assert broken == set()
    asked: list[str] = []

    def previous(path):
        asked.append(path)
        return extract(path, first[path]) if path in first else None

    # b.html is rendered again with the same ids: a.html's links are not read again, only the
    # ids of the kept page a rendered link points into are.
    second = {**first, "en/b.html": b'<p id="x"></p><p id="y">changed</p><a href="a.html#top">'}
    writer, broken = _write_site(out, second, previous, keep={"en/a.html", "en/c.html"})
    assert broken == set() and not writer.gone()
    assert "en/c.html" not in asked and asked.count("en/a.html") == 1  # for the anchor #top
    # b.html loses the anchor a.html (kept) links to: the kept pages are checked again.
    asked.clear()
    third = {**first, "en/b.html": b'<p id="y"></p>'}
    writer, broken = _write_site(out, third, previous, keep={"en/a.html", "en/c.html"})
    assert writer.gone()
    assert broken == {("en/a.html", "b.html#x", "no such anchor")}
    # c.html is gone: the same.
    fourth = {"en/a.html": first["en/a.html"], "en/b.html": first["en/b.html"]}
    _writer, broken = _write_site(out, fourth, previous, keep={"en/a.html"})
    assert broken == {("en/a.html", "c.html", "no such file")}

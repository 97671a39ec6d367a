"""The card pages are read and rendered a batch of cards at a time (memory flat in the cards),
and the offline card search comes in shards, one per batch."""

from __future__ import annotations

import json
import math


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

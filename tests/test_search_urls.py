"""The site link contract shared by search results and the static site."""

from __future__ import annotations

import pytest

from kb.urls import glossary_slug, site_url


@pytest.mark.parametrize(
    ("number", "url"),
    [
        ("701.54a", "/en/rules/701.54.html#701.54a"),
        ("701.54", "/en/rules/701.54.html"),
        ("100.1", "/en/rules/100.1.html"),
        ("704.5k", "/en/rules/704.5.html#704.5k"),
        ("701", "/en/rules/701.html"),
        ("7", "/en/rules/7.html"),
    ],
)
def test_rule_urls(number: str, url: str) -> None:
    assert site_url("rule", "en", number=number) == url


def test_language_is_checked_and_normalised() -> None:
    assert site_url("rule", "ES", number="701.54") == "/es/rules/701.54.html"
    with pytest.raises(ValueError, match="unsupported language"):
        site_url("rule", "de", number="701.54")


def test_card_and_glossary_urls() -> None:
    key = "3b2c6b5f-0d2b-5c2e-9a2e-6f3a7a0c1d11"
    assert site_url("card", "fr", key=key) == f"/fr/cards/{key}.html"
    page = "003_c5873bb13b9e08b7"
    assert site_url("card", "en", key=page) == f"/en/cards/{page}.html"
    assert site_url("glossary", "en", term="Active Player, Nonactive Player Order") == (
        "/en/glossary.html#active-player-nonactive-player-order"
    )


def test_card_keys_that_are_not_plain_get_a_safe_file_name() -> None:
    from kb.urls import card_file

    named = card_file("name:Lim-Dûl's Vault // Other")
    assert named.startswith("name-lim-dul-s-vault-other-") and len(named.rsplit("-", 1)[1]) == 10
    assert card_file("name:Lim-Dûl's Vault // Other") == named  # stable
    assert card_file("name:Lim-Dul's Vault // Other") != named  # distinct keys stay distinct
    for key in ("../../etc/passwd", ".hidden", "a/b", "x" * 200, "名前"):
        name = card_file(key)
        assert "/" not in name and not name.startswith(".") and len(name) <= 71
        assert site_url("card", "en", key=key) == f"/en/cards/{name}.html"


def test_slug_folds_accents_and_punctuation() -> None:
    assert glossary_slug("Lim-Dûl’s Vault") == "lim-dul-s-vault"
    assert glossary_slug("  Blight ") == "blight"


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="not a rule number"):
        site_url("rule", "en", number="../etc")
    for bad in ("701a", "7a", "10", "701.1234", "701.54.html"):
        with pytest.raises(ValueError, match="not a rule number"):
            site_url("rule", "en", number=bad)
    with pytest.raises(ValueError, match="unknown kind"):
        site_url("deck", "en", key="KHM")

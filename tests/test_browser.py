"""The built site in a real browser: Debian's headless Chromium driven by Playwright.

Follows a rule link to its page and a reference to a subrule's anchor there, switches language
on the same anchor, follows an old chapter anchor on to the rule's page, jumps to a rule number
from the search box, runs a Pagefind search over HTTP (a local server on 127.0.0.1) and the search
from the files, checks the layout at 360 px and in print, and saves screenshots under
tests/_artifacts/.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parent / "_artifacts"
CHROMIUM = Path(os.environ.get("KB_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """A Chromium context with a fresh profile (fails under CI when Chromium is missing)."""
    if not CHROMIUM.is_file() or shutil.which(str(CHROMIUM)) is None:
        message = f"Chromium is missing at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            args=ARGS,
            headless=True,
            viewport={"width": 1280, "height": 900},
        )
        requests: list[str] = []
        context.on("request", lambda request: requests.append(request.url))
        context.kb_requests = requests  # type: ignore[attr-defined]
        yield context
        context.close()


@pytest.fixture(scope="module")
def server(full_site: Path) -> Iterator[str]:
    """The built site over HTTP on the loopback interface (Pagefind needs fetch)."""
    handler = functools.partial(_QuietHandler, directory=str(full_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_follow_a_rule_link_then_switch_language(browser, full_site: Path):
    page = browser.new_page()
    page.goto((full_site / "en" / "rules" / "701.html").as_uri())
    page.screenshot(path=str(ARTIFACTS / "chapter-701-en.png"))
    page.click('tr[id="701.54"] a[href$="rules/701.54.html"]')
    page.wait_for_url("**/en/rules/701.54.html")
    assert "The Ring Tempts You" in page.locator("h1").inner_text()
    # 701.54d refers to 701.54a: the reference leads to the subrule's anchor on the same page.
    page.click('[id="701.54d"] a.ref[href$="rules/701.54.html#701.54a"]')
    page.wait_for_url("**/en/rules/701.54.html#701.54a")
    assert page.evaluate("document.querySelector(':target').id") == "701.54a"
    assert page.locator('[id="701.54a"]').is_visible()
    page.screenshot(path=str(ARTIFACTS / "rule-701.54-en.png"))
    page.click('.lang-switch a[hreflang="es"]')
    page.wait_for_url("**/es/rules/701.54.html#701.54a")
    assert page.evaluate("document.documentElement.lang") == "es"
    assert "El Anillo te tienta" in page.locator("h1").inner_text()
    assert page.evaluate("document.querySelector(':target').id") == "701.54a"
    assert "Ciertos hechizos" in page.locator('[id="701.54a"]').inner_text()
    page.screenshot(path=str(ARTIFACTS / "rule-701.54-es.png"))
    page.close()


def test_an_old_chapter_anchor_leads_to_the_rule_page(browser, full_site: Path):
    page = browser.new_page()
    chapter = (full_site / "fr" / "rules" / "704.html").as_uri()
    page.goto(chapter + "#704.5k")
    page.wait_for_url("**/fr/rules/704.5.html#704.5k")
    assert page.evaluate("document.querySelector(':target').id") == "704.5k"
    page.goto(chapter + "#704.5")
    page.wait_for_url("**/fr/rules/704.5.html")
    page.goto(chapter)  # no anchor: the chapter's table stays
    assert page.locator('tr[id="704.5"]').is_visible()
    page.close()


def test_a_rule_number_typed_in_the_search_box_jumps_to_the_rule(browser, full_site: Path):
    page = browser.new_page()
    page.goto((full_site / "fr" / "index.html").as_uri())
    page.fill("#site-search", "704.5k")
    page.press("#site-search", "Enter")
    page.wait_for_url("**/fr/rules/704.5.html#704.5k")
    assert page.locator('[id="704.5k"]').is_visible()
    page.fill("#site-search", "règle 100.1")
    page.press("#site-search", "Enter")
    page.wait_for_url("**/fr/rules/100.1.html")
    assert page.locator('h1[id="100.1"]').is_visible()
    page.close()


def test_search_works_from_the_files_without_a_server(browser, full_site: Path):
    page = browser.new_page()
    page.goto((full_site / "en" / "search.html").as_uri() + "?q=ring%20tempts")
    page.wait_for_selector("#search-results li a")
    links = page.locator("#search-results li a").all_inner_texts()
    assert links[0] == "701.54. The Ring Tempts You"  # title matches first
    first = page.locator("#search-results li a").first.get_attribute("href") or ""
    assert first.endswith("/en/rules/701.54.html"), first
    assert "served over HTTP" in page.locator("#search-status").inner_text()
    # Words found only in a rule's text, not its title: the subrule is found, with a snippet.
    page.fill("#search-q", "Ring-bearer designation")
    page.press("#search-q", "Enter")
    page.wait_for_function(
        "[...document.querySelectorAll('#search-results li a')]"
        ".some(a => a.textContent === '701.54e')"
    )
    found = page.locator("#search-results li").all_inner_texts()
    assert any(
        item.startswith("701.54b") and "Ring-bearer is a designation" in item for item in found
    )
    page.close()


def test_pagefind_full_text_search_over_http(browser, server: str):
    page = browser.new_page()
    page.goto(server + "es/search.html?q=Portador%20del%20Anillo")
    page.wait_for_selector("#search-results li a", timeout=30_000)
    hrefs = [
        a.get_attribute("href") for a in page.locator("#search-results li a").element_handles()
    ]
    assert any((href or "").endswith("/es/rules/701.54.html") for href in hrefs), hrefs
    titles = page.locator("#search-results li a").all_inner_texts()
    assert "701.54. El Anillo te tienta" in titles  # the rule page's own title, once
    status = page.locator("#search-status").inner_text()
    assert status.startswith("Resultados: ")
    page.screenshot(path=str(ARTIFACTS / "search-es.png"))
    page.goto(server + "en/search.html?q=trample")
    page.wait_for_selector("#search-results li a", timeout=30_000)
    hrefs = [
        a.get_attribute("href") for a in page.locator("#search-results li a").element_handles()
    ]
    assert any((href or "").endswith("/en/rules/702.19.html") for href in hrefs), hrefs
    first = page.locator("#search-results li a").first
    first.click()
    page.wait_for_load_state()
    assert "/en/" in page.url
    page.close()


def test_usable_at_360_px_and_printed(browser, full_site: Path):
    page = browser.new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    for path, shot in (
        ("fr/rules/702.html", "chapter-702-fr-360px.png"),
        ("fr/rules/702.19.html", "rule-702.19-fr-360px.png"),
        ("es/rules/701.54.html", "rule-701.54-es-360px.png"),
    ):
        page.goto((full_site / path).as_uri())
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{path} scrolls sideways at 360 px ({width} px wide)"
        page.screenshot(path=str(ARTIFACTS / shot))
    assert page.locator("label[for='site-search']").count() == 1
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert page.locator("main").is_visible()
    page.close()


def test_no_request_leaves_the_machine(browser):
    outside = [
        url
        for url in browser.kb_requests
        if not url.startswith(("file://", "http://127.0.0.1", "data:", "about:"))
    ]
    assert outside == []

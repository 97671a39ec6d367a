"""The built site in a real browser: Debian's headless Chromium driven by Playwright.

Follows a rule link to its anchor, switches language on the same rule, jumps to a rule number
from the search box, runs a Pagefind search over HTTP (a local server on 127.0.0.1), checks the
layout at 360 px and in print, and saves screenshots under tests/_artifacts/.
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
    page.goto((full_site / "en" / "rules" / "7.html").as_uri())
    page.click('a[href$="rules/701.html#701.54"]')
    page.wait_for_url("**/en/rules/701.html#701.54")
    heading = page.locator('[id="701.54"]')
    assert "The Ring Tempts You" in heading.inner_text()
    assert page.evaluate("document.querySelector(':target').id") == "701.54"
    page.screenshot(path=str(ARTIFACTS / "rule-701.54-en.png"))
    page.click('.lang-switch a[hreflang="es"]')
    page.wait_for_url("**/es/rules/701.html#701.54")
    assert page.evaluate("document.documentElement.lang") == "es"
    assert "El Anillo te tienta" in page.locator('[id="701.54"]').inner_text()
    page.screenshot(path=str(ARTIFACTS / "rule-701.54-es.png"))
    page.close()


def test_a_rule_number_typed_in_the_search_box_jumps_to_the_rule(browser, full_site: Path):
    page = browser.new_page()
    page.goto((full_site / "fr" / "index.html").as_uri())
    page.fill("#site-search", "704.5k")
    page.press("#site-search", "Enter")
    page.wait_for_url("**/fr/rules/704.html#704.5k")
    assert page.locator('[id="704.5k"]').is_visible()
    page.close()


def test_search_works_from_the_files_without_a_server(browser, full_site: Path):
    page = browser.new_page()
    page.goto((full_site / "en" / "search.html").as_uri() + "?q=ring%20tempts")
    page.wait_for_selector("#search-results li a")
    links = page.locator("#search-results li a").all_inner_texts()
    assert links[0] == "701.54. The Ring Tempts You"  # title matches first
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
    assert any("/es/rules/701.html" in (href or "") for href in hrefs), hrefs
    status = page.locator("#search-status").inner_text()
    assert status.startswith("Resultados: ")
    page.screenshot(path=str(ARTIFACTS / "search-es.png"))
    page.goto(server + "en/search.html?q=trample")
    page.wait_for_selector("#search-results li a", timeout=30_000)
    first = page.locator("#search-results li a").first
    first.click()
    page.wait_for_load_state()
    assert "/en/" in page.url
    page.close()


def test_usable_at_360_px_and_printed(browser, full_site: Path):
    page = browser.new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto((full_site / "fr" / "rules" / "702.html").as_uri())
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways at 360 px ({width} px wide)"
    assert page.locator("label[for='site-search']").count() == 1
    page.screenshot(path=str(ARTIFACTS / "rule-702-fr-360px.png"))
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

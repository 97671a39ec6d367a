"""Safety: a hostile corpus or query cannot inject markup or reach files outside kb's folders.

The hostile corpus holds a Comprehensive Rules text, a rule page, rulings pages and an MTGJSON
set whose texts, titles, card names and file names carry script tags, attribute injection,
``javascript:`` links, template syntax, right-to-left overrides and path traversal, plus a file
with NUL bytes. The whole site is built from it and every page is parsed.
"""

from __future__ import annotations

import json
import os
import threading
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode
from urllib.request import urlopen

import pytest
from click.testing import CliRunner
from conftest import DATA, SEEDS

from kb.cli import main
from kb.config import Settings

SCRIPT = "<script>alert('kb1')</script>"
ATTRIBUTE = '"><img src=x onerror=alert("kb2")>'
QUOTE = "' onmouseover='alert(\"kb3\")"
JS_LINK = "javascript:alert('kb4')"
RTL = "\u202eevil"  # an override left open: it must not reverse the page around it
TEMPLATE = "{{ 7*7 }}{% if true %}kb5{% endif %}"
HOSTILE = f"{SCRIPT} {ATTRIBUTE} {QUOTE} {JS_LINK} {RTL} {TEMPLATE}"
MARKERS = ("kb1", "kb2", "kb3", "kb4")


def write_hostile_corpus(folder: Path) -> dict[str, Path]:
    """Write the hostile corpus; return its files by role."""
    folder.mkdir(parents=True)
    cr = (DATA / "comprules" / "sample.txt").read_text(encoding="utf-8")
    for old in (
        "These sample rules describe a game played with cards and counters.",
        "Example: Ana and Bo start a duel.",
        "A marker placed on a permanent.",
    ):
        assert old in cr
        cr = cr.replace(old, f"{old[:-1]} {HOSTILE}.")
    cr = cr.replace("See also Duel.", f"See also {JS_LINK}.")
    files = {"cr": folder / "cr.txt"}
    files["cr"].write_text(cr, encoding="utf-8")

    page = (SEEDS / "003_c5873bb13b9e08b7.txt").read_text(encoding="utf-8").splitlines()
    rulings = [page[0], page[1], f"Gaining {HOSTILE} control.", page[1], f"See {JS_LINK}", "CMC 4"]
    text = "\n".join(rulings) + "\n"
    for name in ("666_0123456789abcdef.txt", "%2e%2e%2f%2e%2e%2fevil.txt", "<b>x<b> \u202e.txt"):
        files[name] = folder / name
        files[name].write_text(text.replace("Gaining", f"Gaining {name}"), encoding="utf-8")

    spanish = (SEEDS / "004_932ae8b4df47c3c2.txt").read_text(encoding="utf-8").splitlines()
    spanish[0] = f"100.2. {SCRIPT} {RTL}"
    spanish[2] = f"{ATTRIBUTE} {TEMPLATE}"
    files["rule_page"] = folder / "es_100_2.txt"
    files["rule_page"].write_text("\n".join(spanish[:5]) + "\n", encoding="utf-8")

    mini = json.loads((DATA / "mtgjson" / "mini.json").read_text(encoding="utf-8"))
    cards = mini["data"]["cards"]
    cards[0]["name"] = f"Card {SCRIPT} {RTL}"
    cards[0]["text"] = f"Text {HOSTILE}"
    for foreign in cards[0].get("foreignData", []):
        foreign["name"] = f"Nom {ATTRIBUTE}"
    cards[1]["name"] = "../../../../../../tmp/kb-pwned"
    files["set"] = folder / "set.json"
    files["set"].write_text(json.dumps(mini, ensure_ascii=False), encoding="utf-8")

    files["nul"] = folder / "nul.txt"
    files["nul"].write_bytes(b"Official clarifications from Wizards of the Coast.\n\x00\x00evil")
    return files


class PageScanner(HTMLParser):
    """Collect what would run or link in a page, and its text."""

    BLOCKS = frozenset(
        "p li dd dt td th div h1 h2 h3 h4 h5 h6 blockquote pre title option section article "
        "header footer nav main aside figcaption caption summary label".split()
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = ""
        self.problems: list[str] = []
        self.bidi: list[str] = []
        self.text: list[str] = []
        self.stack: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") and any(m in value for m in MARKERS):
                self.problems.append(f"<{tag} {name}={value!r}>: an injected event handler")
            link = value.strip().lower().replace("\t", "").replace("\n", "")
            if name in ("href", "src", "action", "formaction", "data") and link.startswith(
                "javascript:"
            ):
                self.problems.append(f"<{tag} {name}={value!r}>: a javascript: link")
        if tag == "img" and values.get("src") == "x":
            self.problems.append("an injected <img>")
        if tag not in ("br", "img", "meta", "link", "input", "hr", "wbr", "source"):
            self.stack.append((tag, values))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        current = self.stack[-1][0] if self.stack else ""
        if current in ("script", "style") and any(m in data for m in MARKERS):
            self.problems.append(f"corpus text inside <{current}>: {data[:80]!r}")
        opened = "\u202e" in data and "\u202c" not in data.split("\u202e", 1)[1]
        if opened and not self._isolated():
            self.bidi.append(
                f"an open right-to-left override in <{current}> that is not isolated: "
                f"{data.strip()[:60]!r}"
            )
        if "\x00" in data:
            self.problems.append("a NUL character in the text")

    def _isolated(self) -> bool:
        """The override ends with the innermost element that isolates or is a block."""
        tag, attrs = self.stack[-1] if self.stack else ("", {})
        return tag == "bdi" or "dir" in attrs or tag in self.BLOCKS


def test_the_scanner_sees_what_an_escaping_bug_would_let_through() -> None:
    scanner = PageScanner()
    scanner.feed(
        "<p><a href=' javascript:alert(\"kb4\")'>x</a><img src=x onerror=alert('kb2')>"
        "<script>alert('kb1')</script><span>\u202eevil</span></p>"
    )
    assert len(scanner.problems) == 4, scanner.problems
    assert len(scanner.bidi) == 1


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The site built from the hostile corpus, and what the build left around it."""
    from kb.pipeline import build

    base = tmp_path_factory.mktemp("hostile")
    files = write_hostile_corpus(base / "corpus")
    url = os.environ.get("KB_DATABASE_URL")
    if url:  # a schema of its own (this module-wide fixture outlives any test's schema)
        from conftest import _pg_schema_url
        from sqlalchemy import create_engine, pool

        admin = create_engine(url, poolclass=pool.NullPool, isolation_level="AUTOCOMMIT")
        url = _pg_schema_url(admin, "kbhostile")
        admin.dispose()
    settings = Settings(home=base / "_kb", database_url=url, corpus=(base / "corpus",))
    outside_before = sorted(p.name for p in base.parent.iterdir())
    outcome = build(settings, base / "site", search=False)
    return {
        "base": base,
        "files": files,
        "outcome": outcome,
        "outside_before": outside_before,
        "site": base / "site",
        "settings": settings,
    }


def test_hostile_corpus_loads_and_the_binary_file_fails_cleanly(hostile_site) -> None:
    report = hostile_site["outcome"].ingest
    failed = {Path(f.path).name: f for f in report.failed}
    assert set(failed) == {"nul.txt"}
    assert failed["nul.txt"].line == 2 and "binary file" in failed["nul.txt"].reason
    assert len(report.loaded) == len(hostile_site["files"]) - 1


def test_hostile_names_still_give_working_links(hostile_site) -> None:
    # A card with a hostile name (a path) has its page, keyed by its oracle id, inside the site
    # (a card without an oracle id is skipped with a warning since issue 10).
    site = hostile_site["outcome"].site
    assert site.broken == []
    cards = sorted(p.name for p in (hostile_site["site"] / "en" / "cards").glob("*.html"))
    assert "aaaaaaaa-0000-0000-0000-000000000002.html" in cards, cards
    page = hostile_site["site"] / "en" / "cards" / "aaaaaaaa-0000-0000-0000-000000000002.html"
    assert "kb-pwned" in page.read_text(encoding="utf-8")


def scan_site(site: Path) -> list[PageScanner]:
    """Parse every page of a built site."""
    scanners = []
    for page in sorted(site.rglob("*.html")):
        scanner = PageScanner()
        scanner.page = page.relative_to(site).as_posix()
        scanner.feed(page.read_text(encoding="utf-8"))
        scanner.close()
        scanners.append(scanner)
    return scanners


def test_every_page_escapes_the_corpus(hostile_site) -> None:
    scanners = scan_site(hostile_site["site"])
    assert len(scanners) > 20
    problems: list[str] = []
    shown = {marker: 0 for marker in (SCRIPT, ATTRIBUTE, QUOTE, "{{ 7*7 }}")}
    for scanner in scanners:
        problems += [f"{scanner.page}: {p}" for p in scanner.problems]
        text = "".join(scanner.text)
        for marker in shown:
            shown[marker] += marker in text
    assert problems == [], "\n".join(problems[:20])
    # Escaped, not dropped: the hostile strings are shown as text, the template syntax as typed.
    assert all(shown.values()), shown


def test_right_to_left_overrides_stay_inside_their_text(hostile_site) -> None:
    """An open override in corpus text ends with that text (a <bdi>, a dir=, or its block)."""
    found = [f"{s.page}: {b}" for s in scan_site(hostile_site["site"]) for b in s.bidi]
    assert found == [], "\n".join(found[:10])


def test_no_output_file_holds_a_nul(hostile_site) -> None:
    """Pages, scripts and data files: the NUL file was refused, nothing else brings one in."""
    for path in hostile_site["site"].rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        assert b"\x00" not in data, path


def test_nothing_is_written_outside_the_data_and_output_folders(hostile_site) -> None:
    base = hostile_site["base"]
    assert sorted(p.name for p in base.parent.iterdir()) == hostile_site["outside_before"]
    assert sorted(p.name for p in base.iterdir()) == ["_kb", "corpus", "site"]
    assert not Path("/tmp/kb-pwned").exists()
    assert not any(Path("/tmp").glob("kb-pwned*"))
    for path in hostile_site["site"].rglob("*"):
        assert path.resolve().is_relative_to(hostile_site["site"].resolve()), path
    # The corpus folder is read, never written.
    names = sorted(p.name for p in (base / "corpus").iterdir())
    assert names == sorted(p.name for p in hostile_site["files"].values())


def test_a_link_out_of_the_corpus_folder_is_not_followed(tmp_path: Path, settings) -> None:
    from kb.pipeline import ingest

    outside = tmp_path / "private"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text((SEEDS / "000_c70b93c6d7c03b3c.txt").read_text(encoding="utf-8"))
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "003_c5873bb13b9e08b7.txt").write_bytes(
        (SEEDS / "003_c5873bb13b9e08b7.txt").read_bytes()
    )
    (corpus / "000_c70b93c6d7c03b3c.txt").symlink_to(secret)
    (corpus / "passwd.txt").symlink_to("/etc/passwd")
    (corpus / "up").symlink_to(outside, target_is_directory=True)
    report = ingest(settings, [corpus])
    assert [Path(p).name for p in report.loaded] == ["003_c5873bb13b9e08b7.txt"]
    assert report.failed == []
    # Named explicitly, the same file is the user's choice and loads.
    assert len(ingest(settings, [secret]).loaded) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["rule", "../../../../etc/passwd"],
        ["rule", "701.54", "--edition", "../../etc/passwd"],
        ["card", "../../../../etc/passwd"],
        ["card", "/etc/passwd"],
    ],
)
def test_queries_naming_paths_are_only_queries(settings, seeds, args: list[str]) -> None:
    from kb.pipeline import ingest

    ingest(settings, [seeds])
    result = CliRunner().invoke(main, ["--home", str(settings.home), *args])
    assert result.exit_code == (1 if args[0] == "card" else 2), result.output
    assert result.output.startswith("kb: error:") and "root:" not in result.output


def test_api_queries_naming_paths_are_only_queries(hostile_site) -> None:
    from kb.pipeline import index
    from kb.server import make_server

    settings = hostile_site["settings"]
    index(settings)
    server = make_server(settings, port=0, site_dir=hostile_site["site"])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        for params in (
            {"q": "../../../../etc/passwd"},
            {"q": "x", "lang": "../../etc/passwd"},
            {"q": "x", "type": "../../../etc"},
            {"q": SCRIPT},
            {"q": "file:///etc/passwd"},
        ):
            try:
                with urlopen(f"{server.url}api/search?{urlencode(params)}") as response:
                    body = response.read()
                    kind = response.headers["Content-Type"]
            except OSError as exc:  # HTTPError: a 4xx answer
                body = exc.read()  # type: ignore[attr-defined]
                kind = exc.headers["Content-Type"]  # type: ignore[attr-defined]
            assert kind.startswith("application/json"), params
            assert b"root:" not in body
            json.loads(body)
        for path in ("/..%2f..%2f..%2fetc/passwd", "/" + quote("../../etc/passwd", safe="")):
            try:
                with urlopen(server.url.rstrip("/") + path) as response:
                    body = response.read()
            except OSError as exc:
                body = exc.read()  # type: ignore[attr-defined]
            assert b"root:" not in body
    finally:
        server.shutdown()
        server.server_close()

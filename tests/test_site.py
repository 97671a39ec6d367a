"""The static site on the seeds: pages, fallbacks, dates, escaping, and the writer's promises."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from site_files import read_site

from kb.cli import main
from kb.errors import KbError
from kb.site.check import broken_links
from kb.site.stream import StreamWriter
from kb.site.writer import MARKER

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "data" / "site"
SEED_CARDS = ("000_c70b93c6d7c03b3c", "003_c5873bb13b9e08b7")
GOLDEN_PAGES = (
    "en/index.html",
    "fr/index.html",
    "es/index.html",
    "en/rules/701.html",
    "es/rules/701.html",
    "fr/rules/701.html",
    "en/rules/701.54.html",
    "es/rules/701.54.html",
    "fr/rules/701.54.html",
    "fr/cards/000_c70b93c6d7c03b3c.html",
    "es/cards/003_c5873bb13b9e08b7.html",
)


def build(settings, out: Path, **options):
    from kb.pipeline import build as build_job

    return build_job(settings, out, search=False, **options).site


@pytest.fixture
def seed_site(settings, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> Path:
    """The site built from the bundled seeds only (no English Comprehensive Rules).

    Its log is kept at INFO (``caplog.get_records("setup")``) for the golden build's log test.
    """
    caplog.set_level(logging.INFO, logger="kb")
    out = tmp_path / "site"
    report = build(settings, out)
    assert report.edition is None
    return out


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def test_quickstart_command_builds_the_seeds(tmp_path: Path, database_url, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["--home", str(tmp_path / "home"), "build", "--out", str(out), "--no-search"]
    )
    assert result.exit_code == 0, result.output
    assert "no English Comprehensive Rules edition is loaded" in result.output
    assert (out / "index.html").is_file()
    for lang in ("en", "fr", "es"):
        assert (out / lang / "rules" / "701.html").is_file()
        assert (out / lang / "rules" / "701.54.html").is_file()
        for key in SEED_CARDS:
            assert (out / lang / "cards" / f"{key}.html").is_file()
    again = CliRunner().invoke(
        main, ["--home", str(tmp_path / "home"), "build", "--out", str(out), "--no-search"]
    )
    assert again.exit_code == 0, again.output
    assert "site: up to date" in again.output


def test_spanish_rule_page_from_the_seed_says_no_english_is_loaded(seed_site: Path):
    html = page(seed_site, "es/rules/701.54.html")
    assert "El Anillo te tienta" in html
    assert 'id="701.54a"' in html and 'id="701.54e"' in html
    assert "No hay texto inglés cargado para esta regla" in html
    assert 'lang="es"' in html
    english_page = page(seed_site, "en/rules/701.54.html")
    assert "No English text is loaded for this rule" in english_page
    assert "Ciertos hechizos y habilidades" in english_page  # the translation is what there is


def test_a_rule_has_its_own_page_and_its_chapter_page_is_the_table_of_its_rules(seed_site: Path):
    rule = page(seed_site, "es/rules/701.54.html")
    assert '<h1 id="701.54">' in rule
    assert rule.count('class="subrule" id="701.54') == 5  # 701.54a … 701.54e, one anchor each
    start = rule.index('class="breadcrumbs"')
    crumbs = rule[start : rule.index("</nav>", start)]
    assert crumbs.index('href="../../es/rules/7.html"') < crumbs.index(
        'href="../../es/rules/701.html"'
    )
    assert '<span aria-current="page"><bdi>701.54</bdi></span>' in crumbs
    assert '<a class="up" href="../../es/rules/701.html">' in rule  # the chapter's only rule
    assert 'rel="prev"' not in rule and 'rel="next"' not in rule
    chapter = page(seed_site, "es/rules/701.html")
    assert "data-pagefind-body" not in chapter  # the rule pages hold the text Pagefind indexes
    start = chapter.index('<tr id="701.54">')
    row = chapter[start : chapter.index("</tr>", start)]
    assert 'href="../../es/rules/701.54.html">701.54</a>' in row  # the old anchor leads on
    assert "El Anillo te tienta" in row and "(5 subreglas)" in row
    assert '<span class="badge badge-official">oficial</span>' in row
    assert "Ciertos hechizos" not in chapter  # the text is on the rule's page, not here
    english = page(seed_site, "en/rules/701.html")
    assert '<a href="../../es/rules/701.54.html" hreflang="es" lang="es">Español</a>' in english


def test_card_pages_show_dates_in_the_page_language(seed_site: Path):
    card = SEED_CARDS[0]
    assert "16 juin 2023" in page(seed_site, f"fr/cards/{card}.html")
    assert "16 de junio de 2023" in page(seed_site, f"es/cards/{card}.html")
    assert "June 16, 2023" in page(seed_site, f"en/cards/{card}.html")
    heist = page(seed_site, f"fr/cards/{SEED_CARDS[1]}.html")
    assert "5 février 2021" in heist
    assert "Valeur de mana" in heist and ">4<" in heist


def test_every_page_has_hreflang_alternates_and_a_language_switch(seed_site: Path):
    html = page(seed_site, "fr/rules/701.54.html")
    for lang in ("en", "fr", "es"):
        href = f"../../{lang}/rules/701.54.html"
        assert f'<link rel="alternate" hreflang="{lang}" href="{href}">' in html
    assert 'href="../../es/rules/701.54.html" hreflang="es" lang="es"' in html
    assert '<html lang="fr">' in html


def test_no_broken_link_and_no_external_request_in_the_seed_site(seed_site: Path):
    files = read_site(seed_site)
    assert broken_links(files) == []
    for path, data in files.items():
        if path.endswith((".html", ".css", ".js")):
            assert b"http://" not in data and b"https://" not in data, path


@pytest.mark.parametrize("path", GOLDEN_PAGES)
def test_golden_pages(seed_site: Path, path: str):
    golden = GOLDEN / path
    actual = (seed_site / path).read_bytes()
    if os.environ.get("KB_REGEN_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(actual)
    assert golden.is_file(), f"no golden file {golden}: run with KB_REGEN_GOLDEN=1"
    assert actual.decode() == golden.read_text(encoding="utf-8")


def test_the_golden_build_logs_no_warning_and_what_it_built(seed_site: Path, caplog) -> None:
    """Pelican's habit: the log of a good build is part of its expected output."""
    records = caplog.get_records("setup")
    problems = [f"{r.name}: {r.getMessage()}" for r in records if r.levelno >= logging.WARNING]
    assert problems == []
    kb_lines = [
        re.sub(r"\d+\.\d+ s\b", "T s", r.getMessage().replace(str(seed_site), "SITE"))
        for r in records
        if r.name.startswith("kb.") and r.levelno == logging.INFO
    ]
    assert kb_lines[-2:] == [
        "rendered 43 pages in en, fr, es (edition none, 0 unresolved rule references)",
        "site in SITE: 54 files written, 0 unchanged, 0 removed",
    ]
    stages = [line for line in kb_lines if line.startswith(("links built", "indexed"))]
    # the seeds hold no English edition: no text is matched against a numbering
    assert stages == [
        "links built in T s (0 texts matched for 0 editions)",
        "indexed 33 items in T s",
    ]


def test_a_script_in_a_ruling_renders_as_text(settings, tmp_path: Path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "005_0123456789abcdef.txt").write_text(
        "Official rulings from Wizards of the Coast.\n"
        "June 16, 2023 · source: wotc\n"
        'Beware <script>alert("x")</script> & <img src=x onerror=alert(1)> "quotes".\n',
        encoding="utf-8",
    )
    from dataclasses import replace

    report = build(replace(settings, corpus=(corpus,)), tmp_path / "site")
    assert report.pages > 0
    for lang in ("en", "fr", "es"):
        html = page(tmp_path / "site", f"{lang}/cards/005_0123456789abcdef.html")
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;img" in html


def test_a_rebuild_with_no_change_rewrites_nothing(settings, tmp_path: Path):
    out = tmp_path / "site"
    build(settings, out)
    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}
    report = build(settings, out)
    assert report.up_to_date
    from kb.pipeline import open_db
    from kb.site import build_site

    db = open_db(settings, create=False)
    try:
        forced = build_site(db, out, search=False, force=True)
    finally:
        db.dispose()
    assert forced.written == 0 and forced.unchanged == forced.files
    after = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_a_change_rewrites_only_the_pages_it_touches(settings, tmp_path: Path):
    from dataclasses import replace

    out = tmp_path / "site"
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("004_932ae8b4df47c3c2.txt", "003_c5873bb13b9e08b7.txt"):
        (corpus / name).write_bytes((ROOT / "corpus" / name).read_bytes())
    config = replace(settings, corpus=(corpus,))
    build(config, out)
    rule_page = out / "es" / "rules" / "701.54.html"
    inode = rule_page.stat().st_ino
    (corpus / "000_c70b93c6d7c03b3c.txt").write_bytes(
        (ROOT / "corpus" / "000_c70b93c6d7c03b3c.txt").read_bytes()
    )
    report = build(config, out)
    assert not report.up_to_date and report.written > 0
    assert (out / "es" / "cards" / "000_c70b93c6d7c03b3c.html").is_file()
    assert rule_page.stat().st_ino == inode  # untouched: linked from the previous site
    assert report.unchanged > 0


def test_a_failed_build_leaves_the_previous_site_untouched(settings, tmp_path: Path, monkeypatch):
    out = tmp_path / "site"
    build(settings, out)
    before = read_site(out)
    import kb.site.build as site_build

    real_render = site_build.iter_site

    def render_with_a_broken_link(*args, **kwargs):
        for path, content in real_render(*args, **kwargs):
            if path == "en/index.html":
                content += b'<a href="rules/999.html#999.1">nowhere</a>'
            yield path, content

    monkeypatch.setattr(site_build, "iter_site", render_with_a_broken_link)
    with pytest.raises(KbError, match="broken internal link"):
        build(settings, out, strict=True, force=True)
    assert read_site(out) == before
    siblings = sorted(p.name for p in out.parent.iterdir())
    assert siblings == ["_kb", "site"]  # no temporary folder left behind

    def failing_pagefind(folder: Path) -> float:
        raise KbError("Pagefind failed: simulated")

    monkeypatch.setattr(site_build, "iter_site", real_render)
    monkeypatch.setattr(site_build, "run_pagefind", failing_pagefind)
    from kb.pipeline import build as build_job

    with pytest.raises(KbError, match="simulated"):
        build_job(settings, out, search=True, force=True)
    assert read_site(out) == before


def test_the_writer_refuses_paths_outside_the_site_and_foreign_folders(tmp_path: Path):
    writer = StreamWriter(tmp_path / "new")
    for bad in ("../evil.html", "/etc/passwd", "a/../../b", "", "a//b", "pagefind/x.js", MARKER):
        with pytest.raises(KbError):
            writer.add(bad, b"x")
    writer.add("en/index.html", b"x")
    with pytest.raises(KbError, match="same path"):
        writer.add("en/index.html", b"y")
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "holiday.jpg").write_bytes(b"\xff")
    with pytest.raises(KbError, match="not built by kb"):
        StreamWriter(foreign)
    with pytest.raises(KbError):
        StreamWriter(Path("/"))


def test_build_refuses_a_foreign_output_folder_from_the_cli(tmp_path: Path, database_url):
    foreign = tmp_path / "docs"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    result = CliRunner().invoke(
        main, ["--home", str(tmp_path / "home"), "build", "--out", str(foreign), "--no-search"]
    )
    assert result.exit_code == 1
    assert "kb: error:" in result.output and "refusing" in result.output
    assert (foreign / "notes.txt").read_text() == "mine"


def test_a_template_field_is_a_dict_key_unless_it_names_a_dict_method():
    import pytest
    from jinja2 import UndefinedError

    from kb.site.env import make_environment

    env = make_environment("fr")
    view = {"items": [1, 2], "title": "T"}
    assert env.from_string("{{ v.title }} {{ v.items() | list | length }}").render(v=view) == "T 2"
    assert env.from_string("{{ _('Contents') }}|{{ _('Contents') }}").render() == (
        "Sommaire|Sommaire"
    )
    with pytest.raises(UndefinedError):  # a missing field stays an error
        env.from_string("{{ v.missing }}").render(v=view)

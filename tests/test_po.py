"""The translator's round trip: kb export po -> a translator fills it in -> kb import po.

Checked on real editions: the catalog passes ``msgfmt --check``; translations come back as
``community`` texts tied to the English they were made from, so one made from the 2025 English
of a rule changed in 2026 is stale (fuzzy, with the change) until the translator updates it;
bad catalogs are refused with file:line and leave the database untouched.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.pofile import normalize, read_po, write_po
from click.testing import CliRunner
from sqlalchemy import select

from kb.cli import main
from kb.export.po import parse_context, word_diff
from kb.models import Edition, Rule, RuleText

CHANGED = "601.2a"  # its English changed between 2025-11-14 and 2026-01-16


def run(settings, *args: str):
    result = CliRunner().invoke(main, ["--home", str(settings.home), *args])
    return result


def msgfmt_check(path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        if os.environ.get("CI"):
            pytest.fail("msgfmt is missing (gettext, installed by .ci/run)")
        pytest.skip("msgfmt is missing (apt-get install gettext)")
    out = subprocess.run(
        [msgfmt, "--check", "-o", os.devnull, str(path)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr


def read(path: Path):
    with path.open("rb") as handle:
        return read_po(handle)


def fill(path: Path, translate, *, keep_fuzzy: bool = False) -> None:
    """What a translator does: fill every msgstr, clear the fuzzy flags."""
    catalog = read(path)
    for message in catalog:
        if message.id:
            message.string = translate(message)
            if not keep_fuzzy:
                message.flags.discard("fuzzy")
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0)
    path.write_bytes(buffer.getvalue())


@pytest.fixture
def two_editions(settings, cr_path, seeds):
    from kb.pipeline import ingest

    report = ingest(settings, [seeds, cr_path("2025-11-14"), cr_path("2026-01-16")])
    assert not report.failed
    return settings


@pytest.fixture
def newest_edition(settings, cr_path, seeds):
    from kb.pipeline import ingest

    assert not ingest(settings, [seeds, cr_path("2026-01-16")]).failed
    return settings


@pytest.fixture
def seeds_only(settings, seeds):
    from kb.pipeline import ingest

    assert not ingest(settings, [seeds]).failed
    return settings


def community_texts(settings) -> dict[str, RuleText]:
    from kb.pipeline import open_db

    db = open_db(settings, create=False)
    try:
        with db.session() as session:
            rows = session.execute(
                select(Rule.number, RuleText, Edition.key)
                .join(RuleText, RuleText.rule_id == Rule.id)
                .join(Edition, Edition.id == Rule.edition_id)
                .where(RuleText.provenance == "community")
            ).all()
            return {
                n: SimpleNamespace(
                    text=t.title or t.body,
                    follows=t.follows_edition.effective_date.isoformat(),
                    language=t.language,
                    edition=key,
                    examples=[e.text for e in t.examples],
                )
                for n, t, key in rows
            }
    finally:
        db.dispose()


def test_catalog_of_real_rules_passes_msgfmt(full_settings, tmp_path):
    out = tmp_path / "es.po"
    result = run(
        full_settings, "export", "po", "701.54", "702.2", "--lang", "es", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    msgfmt_check(out)
    catalog = read(out)
    assert str(catalog.locale) == "es" and catalog.version == "2026-01-16"
    messages = {m.context: m for m in catalog if m.id}
    assert messages["701.54"].string == "El Anillo te tienta"
    assert "Portador del Anillo" in messages["701.54b"].string
    assert not messages["701.54b"].fuzzy
    assert (
        messages["702.2a"].id == "Deathtouch is a static ability."
        and messages["702.2a"].string == ""
    )
    assert "Translation: official" in " ".join(messages["701.54a"].auto_comments)
    assert "Not translated yet." in messages["702.2a"].auto_comments
    assert messages["701.54a"].locations[0][0] == "MagicCompRules_20260116.txt"
    # --only missing leaves out what is translated; examples get their own entries
    missing = run(
        full_settings, "export", "po", "701.54", "702.19", "--lang", "es", "--only", "missing"
    )
    contexts = {m.context for m in read_po(io.BytesIO(missing.stdout_bytes)) if m.id}
    assert "701.54a" not in contexts and "702.19b" in contexts
    assert any(c.startswith("702.19") and " example " in c for c in contexts)
    bad = run(full_settings, "export", "po", "--lang", "en")
    assert bad.exit_code == 2 and "fr or es" in bad.output


def test_round_trip_stale_then_current(two_editions, tmp_path):
    settings = two_editions
    old = tmp_path / "fr-2025.po"
    result = run(
        settings, "export", "po", CHANGED, "701.54", "--lang", "fr",
        "--edition", "2025-11-14", "--out", str(old),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    msgfmt_check(old)
    english_2025 = {m.context: m.id for m in read(old) if m.id}
    fill(old, lambda m: f"[fr] {m.id}")
    result = run(settings, "import", "po", str(old))
    assert result.exit_code == 0, result.output
    assert "imported 7 new and 0 updated fr community translations" in result.output
    texts = community_texts(settings)
    assert set(texts) == {CHANGED, "701.54", "701.54a", "701.54b", "701.54c", "701.54d", "701.54e"}
    assert texts[CHANGED].follows == "2025-11-14" and texts[CHANGED].edition == "fr:community"
    assert texts[CHANGED].text == f"[fr] {english_2025[CHANGED]}"

    # Against the 2026 English: 601.2a is stale (fuzzy, old English as #| msgid, the diff);
    # 701.54 did not change, so its translation is current.
    now = tmp_path / "fr-2026.po"
    assert (
        run(
            settings, "export", "po", CHANGED, "701.54", "--lang", "fr", "--out", str(now)
        ).exit_code
        == 0
    )
    msgfmt_check(now)
    messages = {m.context: m for m in read(now) if m.id}
    stale = messages[CHANGED]
    assert stale.fuzzy and stale.string == f"[fr] {english_2025[CHANGED]}"
    assert english_2025[CHANGED] != stale.id
    assert f"#| msgid {normalize(english_2025[CHANGED], width=0)}\n" in now.read_text("utf-8")
    assert any("STALE" in c for c in stale.auto_comments)
    assert any("{+" in c or "[-" in c for c in stale.auto_comments)
    assert not messages["701.54a"].fuzzy and messages["701.54a"].string.startswith("[fr] ")
    assert "Translation: community" in " ".join(messages["701.54a"].auto_comments)

    sheet = run(settings, "export", "sheet", CHANGED, "--lang", "fr", "--format", "md")
    assert "communautaire" in sheet.output and "périmée" in sheet.output

    # Importing the fuzzy entry as it is is refused; the translator reviews it
    refused = run(settings, "import", "po", str(now))
    assert refused.exit_code == 1 and "still fuzzy" in refused.output
    assert community_texts(settings)[CHANGED].follows == "2025-11-14"
    fill(now, lambda m: m.string if m.context != CHANGED else f"[fr, revu] {m.id}")
    result = run(settings, "import", "po", str(now), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    # all seven now follow the 2026 English the catalog was made from
    assert report["updated"][0] == CHANGED and len(report["updated"]) == 7
    assert report["follows"] == {"2026-01-16": 7} and report["imported"] == []
    texts = community_texts(settings)
    assert texts[CHANGED].follows == "2026-01-16"
    again = run(settings, "export", "po", CHANGED, "--lang", "fr")
    (message,) = [m for m in read_po(io.BytesIO(again.stdout_bytes)) if m.id]
    assert not message.fuzzy and message.string.startswith("[fr, revu] ")
    assert "communautaire" in run(settings, "export", "sheet", CHANGED, "--lang", "fr").output


def test_round_trip_keeps_examples(newest_edition, tmp_path):
    settings = newest_edition
    path = tmp_path / "es.po"
    assert (
        run(settings, "export", "po", "702.19", "--lang", "es", "--out", str(path)).exit_code == 0
    )
    fill(path, lambda m: f"[es] {m.id}")
    result = run(settings, "import", "po", str(path))
    assert result.exit_code == 0, result.output
    assert kept_counts_after_import(settings)
    texts = community_texts(settings)
    english = {m.context: m.id for m in read(path) if m.id}
    examples = [english[c] for c in sorted(english) if c.startswith("702.19b example")]
    assert examples and texts["702.19b"].examples == [f"[es] {e}" for e in examples]
    again = run(settings, "import", "po", str(path))
    assert (
        "imported 0 new and 0 updated" in again.output and f"{len(texts)} unchanged" in again.output
    )


def kept_counts_after_import(settings) -> bool:
    """The import changed counted translations and no document: the summary's kept counts
    (kb.stats) are gone, and the summary counts again."""
    from kb.pipeline import open_db
    from kb.stats import kept_counts, stats_view, summary_counts

    db = open_db(settings)
    try:
        with db.session() as session:
            return kept_counts(session) is None and summary_counts(session) == stats_view(session)
    finally:
        db.dispose()


BAD_HEADER = """msgid ""
msgstr ""
"Project-Id-Version: kb-rules 2026-01-16\\n"
"Language: fr\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"""


def test_bad_catalogs_are_reported_and_nothing_is_imported(newest_edition, tmp_path):
    settings = newest_edition
    from kb.pipeline import open_db

    db = open_db(settings, create=False)
    with db.session() as session:
        english = {
            n: t.body
            for n, t in session.execute(
                select(Rule.number, RuleText)
                .join(RuleText, RuleText.rule_id == Rule.id)
                .join(Edition, Edition.id == Rule.edition_id)
                .where(Edition.key == "en:2026-01-16", Rule.number.in_(["100.1a", "100.1b"]))
            ).all()
        }
    db.dispose()

    def entry(ctx: str, msgid: str, msgstr: str, flags: str = "") -> str:
        flag = f"#, {flags}\n" if flags else ""
        return f'\n{flag}msgctxt "{ctx}"\nmsgid "{msgid}"\nmsgstr "{msgstr}"\n'

    good = entry("100.1a", english["100.1a"], "Une partie à deux joueurs…")
    path = tmp_path / "bad.po"
    path.write_text(
        BAD_HEADER
        + good
        + entry("999.9z", "Nothing", "Rien")
        + entry("100.1b", english["100.1b"], "")
        + entry("100.1", "Not the English text", "Pas le texte")
        + entry("100.1c", "x", "y", "fuzzy"),
        encoding="utf-8",
    )
    result = run(settings, "import", "po", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "4 problem(s) in the catalog; nothing was imported" in lines[0]
    assert f"{path}:12: unknown rule number 999.9z" in result.output
    assert f"{path}:16: 100.1b: empty msgstr" in result.output
    assert f"{path}:20: 100.1: msgid is not the English text of 100.1" in result.output
    assert f"{path}:25: 100.1c: still fuzzy" in result.output
    assert community_texts(settings) == {}

    # malformed syntax: reported with its line, before anything else is looked at
    broken = tmp_path / "broken.po"
    broken.write_text(BAD_HEADER + good + 'msgctxt "100.1b"\nmsgid "unterminated\nmsgstr ""\n')
    result = run(settings, "import", "po", str(broken))
    assert result.exit_code == 1 and f"{broken}:11: string not closed" in result.output
    dup = tmp_path / "dup.po"
    dup.write_text(BAD_HEADER + good + good, encoding="utf-8")
    result = run(settings, "import", "po", str(dup))
    assert "duplicate entry (context '100.1a'): first defined at line 7" in result.output
    assert community_texts(settings) == {}

    # --dry-run checks and writes nothing; --skip-untranslated imports the rest
    partial = tmp_path / "partial.po"
    partial.write_text(BAD_HEADER + good + entry("100.1b", english["100.1b"], ""), "utf-8")
    result = run(settings, "import", "po", str(partial), "--skip-untranslated", "--dry-run")
    assert result.exit_code == 0 and "would import 1 new" in result.output
    assert community_texts(settings) == {}
    result = run(settings, "import", "po", str(partial), "--skip-untranslated")
    assert (
        result.exit_code == 0 and "1 skipped" in result.output and ":12: skipped" in result.output
    )
    assert set(community_texts(settings)) == {"100.1a"}


def test_language_comes_from_the_header_or_the_option(seeds_only, tmp_path):
    path = tmp_path / "nolang.po"
    path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n', "utf-8")
    result = run(seeds_only, "import", "po", str(path))
    assert result.exit_code == 1 and "no Language header: give --lang" in result.output
    assert "nothing was imported" in result.output
    path.write_bytes(b'msgid ""\nmsgstr "\xff"\n')
    assert "not UTF-8" in run(seeds_only, "import", "po", str(path)).output
    missing = run(seeds_only, "import", "po", str(tmp_path / "nope.po"))
    assert missing.exit_code == 1 and "cannot read" in missing.output


def test_contexts_and_word_diff():
    assert parse_context("701.54a") == ("701.54a", None)
    assert parse_context("701.54a example 2") == ("701.54a", 2)
    assert word_diff("a b c", "a x c") == "a [-b-] {+x+} c"


HEADER = 'msgid ""\nmsgstr ""\n"Project-Id-Version: kb 2026-01-16\\n"\n"{0}\\n"\n"{1}\\n"\n\n'
ENTRY = 'msgctxt "100.1"\nmsgid "These Magic rules apply"\nmsgstr "Ces règles"\n'


# (Language line, Content-Type line, the problem reported): headers made to break the reader
HOSTILE_HEADERS = [
    (
        "Language: fr",
        "Content-Type: text/plain; charset=../../../etc/passwd",
        ":5: Content-Type: unknown charset '../../../etc/passwd' (use UTF-8)",
    ),
    (
        "Language: fr",
        "Content-Type: text/plain; charset=ISO-8859-1",
        ":5: Content-Type: charset 'ISO-8859-1': kb reads catalogs as UTF-8",
    ),
    (
        "Language: ../../x",
        "Content-Type: text/plain; charset=UTF-8",
        ":4: Language: '../../x' is not a language code",
    ),
    (
        "Language: de",
        "Content-Type: text/plain; charset=utf8",
        ":4: Language: unsupported language 'de'",
    ),
]


@pytest.mark.parametrize(("language", "content_type", "problem"), HOSTILE_HEADERS)
def test_a_hostile_header_is_one_line_with_file_line_and_value(
    tmp_path, language, content_type, problem
):
    """Refused before any database is opened: the header is read with the syntax."""
    from kb.errors import KbError
    from kb.export.po_import import _read

    path = tmp_path / "hostile.po"
    path.write_text(HEADER.format(language, content_type) + ENTRY, encoding="utf-8")
    with pytest.raises(KbError) as caught:
        _read(path, None)
    lines = str(caught.value).splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}{problem}"), lines
    assert lines[0].endswith("(nothing was imported)")


def test_header_fields_name_their_lines():
    from kb.export.po_syntax import header_fields

    text = HEADER.format("Language: fr", "Content-Type: text/plain; charset=UTF-8") + ENTRY
    assert header_fields(text) == {
        "project-id-version": (3, "kb 2026-01-16"),
        "language": (4, "fr"),
        "content-type": (5, "text/plain; charset=UTF-8"),
    }
    assert header_fields(ENTRY) == {}


MEMORY_CHILD = r"""
import resource, sys
from pathlib import Path
from kb.errors import KbError
from kb.export.po_import import _read

path = Path(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
messages, lang, _ = _read(path, None)
assert lang == "fr" and len(messages[0].id) > 4_000_000, (lang, len(messages))
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


def test_a_huge_msgid_line_costs_memory_proportional_to_the_file(tmp_path):
    """One 5 MB msgid line: Babel needs about 4x the file; the syntax check once cost 150x."""
    import sys

    path = tmp_path / "huge.po"
    body = "These rules apply " * 280_000  # about 5 MB on one line
    path.write_text(
        HEADER.format("Language: fr", "Content-Type: text/plain; charset=UTF-8")
        + f'msgctxt "100.1"\nmsgid "{body}"\nmsgstr "Ces règles"\n',
        encoding="utf-8",
    )
    size = path.stat().st_size
    done = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    grown = int(done.stdout.strip())
    assert grown < 30 * size, f"reading a {size:,}-byte catalog took {grown:,} more bytes"

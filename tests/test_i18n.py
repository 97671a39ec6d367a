"""The interface catalogs: complete in every language, in step with the templates, compiled."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from kb import i18n
from kb.cli import main
from kb.langs import LANGS
from kb.site.env import make_environment


@pytest.mark.parametrize("lang", LANGS)
def test_no_ui_string_is_untranslated(lang: str):
    status = i18n.status(lang)
    assert status.total > 50
    assert status.untranslated == ()
    assert status.fuzzy == ()


def _ids(path: Path) -> set[object]:
    with path.open("rb") as handle:
        return {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(handle) if m.id}


def test_messages_pot_is_in_step_with_the_templates(tmp_path: Path):
    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES, locales, ignore=shutil.ignore_patterns("*.mo"))
    fresh = i18n.extract(locales=locales)
    assert _ids(fresh) == _ids(i18n.pot_path()), "run `kb i18n extract && kb i18n update`"
    for lang in LANGS:
        assert _ids(i18n.po_path(lang)) == _ids(fresh), f"{lang}: run `kb i18n update`"


def test_update_keeps_translations_and_adds_new_strings_untranslated(tmp_path: Path):
    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES, locales, ignore=shutil.ignore_patterns("*.mo"))
    pot = i18n.pot_path(locales)
    pot.write_text(
        pot.read_text(encoding="utf-8") + '\nmsgid "A brand new string"\nmsgstr ""\n',
        encoding="utf-8",
    )
    i18n.update(locales=locales)
    status = i18n.status("fr", locales)
    assert status.untranslated == ("A brand new string",)
    assert i18n.status("en", locales).untranslated == ()  # English is its own translation
    assert i18n.translations("fr", locales).gettext("Contents") == "Sommaire"


def test_compile_writes_mo_files_that_the_site_loads(tmp_path: Path):
    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES, locales, ignore=shutil.ignore_patterns("*.mo"))
    written = i18n.compile_catalogs(locales=locales)
    assert [p.name for p in written] == ["messages.mo"] * len(LANGS)
    assert i18n.translations("es", locales).gettext("Glossary") == "Glosario"
    # A .po edited after its .mo wins: the build never serves a stale catalog.
    po = i18n.po_path("es", locales)
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr "Glosario"', 'msgstr "Glosario (nuevo)"'),
        encoding="utf-8",
    )
    mo = po.with_suffix(".mo")
    os.utime(mo, (mo.stat().st_mtime - 10, mo.stat().st_mtime - 10))
    assert i18n.translations("es", locales).gettext("Glossary") == "Glosario (nuevo)"


def test_a_broken_po_file_is_reported_with_its_path(tmp_path: Path):
    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES, locales, ignore=shutil.ignore_patterns("*.mo"))
    i18n.po_path("fr", locales).unlink()
    from kb.errors import KbError

    with pytest.raises(KbError, match=r"fr/LC_MESSAGES/messages.po: missing catalog"):
        i18n.translations("fr", locales)


@pytest.mark.parametrize(
    ("lang", "date", "number"),
    [
        ("en", "June 16, 2023", "12,345.5"),
        ("fr", "16 juin 2023", "12\u202f345,5"),
        ("es", "16 de junio de 2023", "12.345,5"),
    ],
)
def test_dates_and_numbers_follow_the_page_locale(lang: str, date: str, number: str):
    env = make_environment(lang)
    assert env.filters["date"]("2023-06-16") == date
    assert env.filters["number"](12345.5) == number


def test_templates_render_the_translated_interface():
    env = make_environment("fr")
    html = env.from_string(
        "{% trans count=2 %}{{ count }} ruling{% pluralize %}{{ count }} rulings{% endtrans %}"
        ' · {{ _("Contents") }}'
    ).render()
    assert html == "2 clarifications · Sommaire"


def test_i18n_commands(tmp_path: Path):
    result = CliRunner().invoke(main, ["i18n", "check"])
    assert result.exit_code == 0, result.output
    assert "fr: " in result.output and "untranslated" not in result.output
    for command in ("extract", "update", "compile", "check"):
        help_text = CliRunner().invoke(main, ["i18n", command, "--help"]).output
        assert "Example:" in help_text

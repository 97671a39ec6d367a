"""A non-editable install works: the wheel carries the templates, assets and catalogs, and kb
finds them from where it is installed (a fresh virtual environment, offline, no build isolation).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What the wheel is built from: what pyproject.toml names (a copy, so the checkout gets no
# build/ or egg-info folder while others work in it).
SOURCES = ("pyproject.toml", "README.md", "kb", "templates")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", "*.egg-info")


def run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{command[:4]} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of kb, built offline with the environment's setuptools (``.[test]`` has it)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=IGNORE)
        else:
            shutil.copy2(path, source / name)
    dist = work / "dist"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        ".",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-q",
        "-w",
        dist,
        cwd=source,
    )
    (built,) = dist.glob("kb-*.whl")
    return built


def test_the_wheel_carries_templates_static_files_catalogs_and_every_module(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = [p for p in (ROOT / "templates").rglob("*") if p.is_file()]
    assert len(templates) > 15
    for path in templates:
        assert f"kb/templates/{path.relative_to(ROOT / 'templates').as_posix()}" in names, path
    for needed in ("base.html", "rule.html", "static/kb.css", "static/search.js"):
        assert f"kb/templates/{needed}" in names
    assert "kb/templates/export/sheet.html" in names
    assert "kb/locales/messages.pot" in names
    for lang in ("en", "fr", "es"):
        assert f"kb/locales/{lang}/LC_MESSAGES/messages.po" in names
    # Every module of the checkout is in the wheel (pyproject.toml lists the packages by name).
    for path in (ROOT / "kb").rglob("*.py"):
        if "__pycache__" not in path.parts:
            assert f"kb/{path.relative_to(ROOT / 'kb').as_posix()}" in names, (
                f"{path} is missing from the wheel: add its package to "
                "[tool.setuptools] packages in pyproject.toml"
            )
    assert not any(name.startswith("templates/") for name in names)  # not a top-level package


def test_an_installed_kb_finds_its_templates_and_builds_the_site(wheel: Path, tmp_path: Path):
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
        "-q", wheel, cwd=tmp_path)  # fmt: skip
    # kb's dependencies come from this environment (appended to the path, after the wheel's kb).
    site_packages = Path(
        run(
            python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path
        ).strip()
    )
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site_packages / "kb-test-dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "KB_"))}
    script = (
        "import json, kb, kb.resources as r, kb.site.env as e, kb.i18n as i\n"
        "import kb.export.html as x\n"
        "e.make_environment('fr').get_template('rule.html')\n"
        "print(json.dumps({'kb': kb.__file__, 'templates': str(r.templates_dir()),\n"
        "  'site': str(e.TEMPLATES), 'export': str(x.TEMPLATES), 'locales': str(i.LOCALES),\n"
        "  'checkout': r.source_checkout() is not None,\n"
        "  'fr': i.translations('fr').gettext('Contents')}))\n"
    )
    found = json.loads(run(python, "-I", "-c", script, cwd=tmp_path, env=env))
    installed = str(site_packages / "kb")
    assert found["kb"].startswith(installed), found
    assert found["templates"] == found["site"] == installed + "/templates", found
    assert found["export"] == installed + "/templates/export"
    assert found["locales"] == installed + "/locales"
    assert found["checkout"] is False
    assert found["fr"] == "Sommaire"
    # The whole job from the installed command: the seeds, three languages, the rule pages.
    shutil.copytree(ROOT / "corpus", tmp_path / "corpus")
    output = run(venv / "bin" / "kb", "--home", "home", "build", "--out", "site", "--no-search",
                 cwd=tmp_path, env=env)  # fmt: skip
    assert "site:" in output
    rule = (tmp_path / "site" / "fr" / "rules" / "701.54.html").read_text(encoding="utf-8")
    assert "Sommaire" in rule and 'id="701.54a"' in rule
    assert (tmp_path / "site" / "assets" / "kb.css").read_bytes() == (
        ROOT / "templates" / "static" / "kb.css"
    ).read_bytes()
    # Extracting UI strings needs the templates of a checkout: an installed kb says so.
    done = subprocess.run(
        [str(venv / "bin" / "kb"), "i18n", "extract"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1 and "kb: error: kb i18n extract" in done.stderr + done.stdout

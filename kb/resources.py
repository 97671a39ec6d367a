"""Where kb's templates and catalogs are, so that an installed kb (a wheel) finds them too.

In a checkout the templates sit at the top level (``templates/`` beside ``kb/``); a wheel ships
them inside the package as ``kb/templates`` (pyproject.toml maps the package ``kb.templates`` to
``templates/``). The catalogs live in ``kb/locales`` in both. Looked up through
:mod:`importlib.resources`, falling back to the source tree (a checkout, or an editable install).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import kb

SOURCE_ROOT = Path(kb.__file__).resolve().parent.parent


def _packaged(name: str, marker: str) -> Path | None:
    """``kb/<name>`` as a real folder holding ``marker``, when the package has one."""
    found = resources.files(kb) / name
    if isinstance(found, Path) and (found / marker).is_file():
        return found.resolve()
    return None


def templates_dir() -> Path:
    """The Jinja2 templates of the site and the sheets (with ``static/`` and ``export/``)."""
    return _packaged("templates", "base.html") or SOURCE_ROOT / "templates"


def locales_dir() -> Path:
    """The Babel catalogs: ``messages.pot`` and ``<lang>/LC_MESSAGES/messages.po``."""
    return _packaged("locales", "messages.pot") or Path(kb.__file__).resolve().parent / "locales"


def source_checkout() -> Path | None:
    """The root of the source checkout kb runs from, if it runs from one (not a wheel)."""
    root = SOURCE_ROOT
    if (root / "pyproject.toml").is_file() and (root / "templates").is_dir():
        return root
    return None

"""Exports: rule sheets (HTML, PDF, Markdown), translator catalogs (PO) and data dumps (JSON, CSV).

Each format has its module; the CLI imports the one it needs, so WeasyPrint is loaded only for
a PDF. Everything here reads the database through models, ``kb.lookup`` and the link/version
stages' public queries (``kb.export.stages``); only ``kb import po`` writes.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# The public face, loaded lazily: each name is imported from its module on first use, so a
# command pays only for the format it writes (WeasyPrint only for a PDF).
_PUBLIC = {
    "export_sheet": "commands",
    "sheet_format": "commands",
    "export_po": "commands",
    "export_json": "commands",
    "export_csv": "commands",
    "import_po": "po_import",
    "ImportReport": "po_import",
    "write_file": "output",
    "write_stdout": "output",
    "silence_stdout": "output",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        return getattr(import_module(f"kb.export.{_PUBLIC[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Exports: rule sheets (HTML, PDF, Markdown), translator catalogs (PO) and data dumps (JSON, CSV).

Each format has its module; the CLI imports the one it needs, so WeasyPrint is loaded only for
a PDF. Everything here reads the database through models, ``kb.lookup`` and the link/version
stages' public queries (``kb.export.stages``); only ``kb import po`` writes.
"""

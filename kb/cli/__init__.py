"""The ``kb`` command: one click group; each command parses options and calls one library function.

Commands live in one module per pipeline stage (``corpus``, ``links``, ``search``, ``site``,
``export``, ``terms``, ``update``); importing one registers its commands on :data:`main`, which
imports a command's module only when the command runs (``kb.cli.app.COMMAND_MODULES``): a one-off
``kb search`` loads nothing of the other stages. Stages are imported inside the commands.
Expected failures (``KbError``) are caught once, where the group invokes a command
(``KbGroup.invoke``): a one-line message and exit 1, or 2 for a usage error (``KbUsageError``,
as click's own), never a traceback.
"""

from __future__ import annotations

from kb.cli.app import main

__all__ = ["main"]

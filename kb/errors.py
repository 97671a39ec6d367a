"""The few exception types kb raises; the CLI turns them into one-line messages.

The ``kb`` command exits 1 for a ``KbError`` and 2 for a ``KbUsageError`` (click's meaning of 2:
the command line itself is wrong — an option, argument or query kb cannot read).
"""

from __future__ import annotations


class KbError(Exception):
    """An expected failure with a message the user can act on."""


class KbUsageError(KbError):
    """A command line kb cannot run as written: a malformed option, argument or query (exit 2)."""


class ParseError(KbError):
    """A corpus file that cannot be read as its format; carries the file and the line."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        self.path = str(path)
        self.line = line
        self.reason = reason
        super().__init__(f"{self.path}:{line}: {reason}")


class ConfigError(KbError):
    """A bad setting in a config file or environment variable."""


class OptionError(ConfigError, KbUsageError):
    """A bad global option on the command line (``--home``, ``--database``)."""


class NotFoundError(KbError):
    """A rule, card, edition or page that the knowledge base does not hold."""


class DatabaseError(KbError):
    """The database cannot be opened, is locked, or is older than this version of kb."""

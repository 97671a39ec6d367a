"""The few exception types kb raises; the CLI turns them into one-line messages."""

from __future__ import annotations


class KbError(Exception):
    """An expected failure with a message the user can act on."""


class ParseError(KbError):
    """A corpus file that cannot be read as its format; carries the file and the line."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        self.path = str(path)
        self.line = line
        self.reason = reason
        super().__init__(f"{self.path}:{line}: {reason}")


class ConfigError(KbError):
    """A bad setting, option or environment variable."""


class NotFoundError(KbError):
    """A rule, card, edition or page that the knowledge base does not hold."""


class DatabaseError(KbError):
    """The database cannot be opened, is locked, or is older than this version of kb."""

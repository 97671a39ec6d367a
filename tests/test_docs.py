"""The README documents every command (the habit of sqlite-utils' test_docs)."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _commands(group: click.Group, prefix: str = "kb "):
    for name, command in sorted(group.commands.items()):
        yield f"{prefix}{name}", command
        if isinstance(command, click.Group):
            yield from _commands(command, f"{prefix}{name} ")


def test_every_command_in_kb_help_is_documented_in_the_readme():
    missing = [name for name, _ in _commands(main) if name not in README]
    assert missing == [], f"commands the README does not mention: {missing}"

"""What may import what (README, "Architecture"): an ``ast`` walk over kb/ enforces it.

Every import counts, the ones inside functions too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

KB = Path(__file__).resolve().parents[1] / "kb"

# Modules every other may import: the shared ground floor and the read model.
SHARED = {
    "kb",
    "kb.errors",
    "kb.config",
    "kb.langs",
    "kb.resources",
    "kb.urls",
    "kb.i18n",
    "kb.models",
    "kb.db",
    "kb.bulk",
    "kb.collector",
    "kb.code_digest",
    "kb.bodies",
    "kb.lookup",
    "kb.stats",
    "kb.readmodel",
    # the rule-number grammar and the parsers' record types are shared vocabulary
    "kb.corpus.numbers",
    "kb.corpus.records",
}
# Stage packages: from outside, reached only through the package itself (its __init__).
PACKAGES = {"corpus", "links", "versions", "search", "site", "export", "terminology", "update"}
# The ingest stage's own modules: only the ingest side (and what chains stages) uses them.
INGEST_INTERNALS = {"kb.loaders", "kb.recognise"}
INGEST_SIDE = {"kb.ingest", "kb.loaders", "kb.recognise", "kb.relink", "kb.pipeline"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(KB.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(KB.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        module = _module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found[module] |= {a.name for a in node.names if a.name.startswith("kb")}
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: resolve against the importing package
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    target = f"{base}.{node.module}" if node.module else base
                else:
                    target = node.module or ""
                if target.startswith("kb"):
                    found[module].add(target)
    return found


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


IMPORTS = _imports()


def _violations(rule) -> list[str]:
    return sorted(
        f"{module} -> {target}"
        for module, targets in IMPORTS.items()
        for target in targets
        if rule(module, target)
    )


def test_the_walk_sees_the_tree():
    assert "kb.cli.app" in IMPORTS and "kb.config" in IMPORTS["kb.cli.app"]
    assert len(IMPORTS) > 60


def test_corpus_parses_only():
    allowed = {"kb.errors", "kb.config", "kb.langs"}
    assert (
        _violations(
            lambda m, t: _stage(m) == "corpus" and _stage(t) != "corpus" and t not in allowed
        )
        == []
    )


def test_nothing_imports_the_cli():
    assert (
        _violations(lambda m, t: _stage(t) == "cli" and _stage(m) not in ("cli", "__main__")) == []
    )


def test_search_and_site_never_import_each_other_and_export_does_not_reach_into_site():
    pairs = {("search", "site"), ("site", "search"), ("export", "site")}
    assert _violations(lambda m, t: (_stage(m), _stage(t)) in pairs) == []


def test_stage_packages_are_reached_through_their_public_face():
    def deep(module: str, target: str) -> bool:
        stage = _stage(target)
        return (
            stage in PACKAGES
            and target != f"kb.{stage}"
            and target not in SHARED
            and _stage(module) != stage
        )

    assert _violations(deep) == []


def test_the_ingest_stage_keeps_its_internals():
    assert _violations(lambda m, t: t in INGEST_INTERNALS and m not in INGEST_SIDE) == []


def test_no_import_cycle_between_top_level_modules():
    top: dict[str, set[str]] = defaultdict(set)
    for module, targets in IMPORTS.items():
        for target in targets:
            a, b = _stage(module) or module, _stage(target) or target
            if a != b and target not in SHARED and module not in SHARED:
                top[a].add(b)
    cycles = sorted(
        f"{a} <-> {b}"
        for a, targets in top.items()
        for b in targets
        if a < b and a in top.get(b, ())
    )
    assert cycles == []

"""Corpus text to safe HTML: everything escaped, rule references and glossary terms hyperlinked.

Rule references are found by the link stage's public ``find_references`` (the same spans the
database links are made of); a reference whose rule the site does not hold is shown as text,
marked, never as a broken link.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Collection
from functools import lru_cache

from markupsafe import Markup, escape

from kb.site import stages
from kb.urls import glossary_slug, site_url

SEE_TERM = re.compile(r"\b(See also|See)\s+([^.]+?)(\.|$)")


def rule_link(number: str, lang: str, root: str) -> str:
    """The relative URL of a rule number's anchor from a page whose root prefix is ``root``."""
    return root + site_url("rule", lang, number=number).lstrip("/")


class Linker:
    """Turns texts into HTML for the pages of one language, caching by text and page depth."""

    def __init__(self, known: Collection[str], lang: str, terms: Collection[str] = ()) -> None:
        self.known = frozenset(known)
        self.lang = lang
        self.terms = {t.casefold(): t for t in terms}
        self.unresolved: dict[str, int] = {}
        self._cached: Callable[[str, str, str], Markup] = lru_cache(maxsize=65536)(self._render)

    def __call__(self, text: str, text_lang: str, root: str) -> Markup:
        """Escaped HTML of a text in ``text_lang`` with its rule references as links."""
        return self._cached(text, text_lang, root)

    def _render(self, text: str, text_lang: str, root: str) -> Markup:
        out: list[str] = []
        pos = 0
        for ref in stages.find_references(text, text_lang):
            if ref.start < pos:
                continue
            out.append(str(escape(text[pos : ref.start])))
            target = next((n for n in ref.numbers if n in self.known), None)
            label = escape(text[ref.start : ref.end])
            if target is None:
                missing = ", ".join(ref.numbers)
                self.unresolved[missing] = self.unresolved.get(missing, 0) + 1
                out.append(f'<span class="ref-missing" title="{escape(missing)}">{label}</span>')
            else:
                out.append(
                    f'<a class="ref" href="{escape(rule_link(target, self.lang, root))}">'
                    f"{label}</a>"
                )
            pos = ref.end
        out.append(str(escape(text[pos:])))
        return Markup("".join(out))

    def paragraphs(self, text: str, text_lang: str, root: str) -> list[Markup]:
        """The text's lines as separate linked paragraphs (blank lines dropped)."""
        return [self(line, text_lang, root) for line in text.splitlines() if line.strip()]

    def glossary(self, text: str, root: str) -> Markup:
        """A glossary definition: rule references and ``See X.`` / ``See also X.`` linked."""
        rendered = str(self(text, "en", root))
        if not self.terms:
            return Markup(rendered)

        def link(name: str) -> str | None:
            term = self.terms.get(html.unescape(name).strip().casefold())
            if term is None:
                return None
            return f'<a class="term" href="#{glossary_slug(term)}">{name.strip()}</a>'

        def replace(match: re.Match[str]) -> str:
            whole = link(match[2])  # "See Active Player, Nonactive Player Order."
            if whole is not None:
                return f"{match[1]} {whole}{match[3]}"
            parts = re.split(r"(,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+)", match[2])
            links = [link(name) for name in parts[0::2]]  # "See also Attack and Block."
            if not all(links):
                return match[0]
            rebuilt = "".join(
                (links[i // 2] or "") if i % 2 == 0 else part for i, part in enumerate(parts)
            )
            return f"{match[1]} {rebuilt}{match[3]}"

        return Markup(SEE_TERM.sub(replace, rendered))

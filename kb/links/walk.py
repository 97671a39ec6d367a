"""Term links of rulings and card texts, walked through the editions in order, per change only.

Every clarification and card text is read in every English edition, but two consecutive editions
differ in a handful of terms and a renumbering at most, while the texts number tens of thousands.
So the walk keeps, for each text, its term spans (:mod:`kb.links.carry`), what they and the
implied-rule patterns resolved to (the rule numbers, in the order a link row is made) and the
lineage rows open for it, and in each edition looks again only at the texts something concerns:

- a term whose shape changed (the text is matched again, :class:`CarriedMatches`; when its
  spans come out the same and nothing else concerns it, its outputs and rows simply go on);
- a term whose rules changed (the text's spans are resolved again);
- the vocabulary the implied-rule patterns read (:func:`kb.links.implied.implied_inputs`) changed:
  the implied rules of the English rulings it concerns are found again (all of them, or when only
  a described rule was renumbered, those where its description shows);
- a rule number whose lineage changed (renumbering): the text's rows are placed again.

Any other text reads exactly as in the edition before, so its lineage rows simply go on. The rows
an edition stores itself (a ruling's explicit references, a term naming a rule without lineage)
are made for every edition from what the walk keeps. Editions not consecutive among the English
editions (a relink of some) start the texts afresh.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .carry import CarriedMatches
from .implied import TextEvidence, implied_change, implied_inputs, implied_matches
from .references import Reference, find_references
from .terms import TermMatch, Vocabulary

__all__ = ["TermWalk"]

_Output = tuple[str, str, int, int]  # the rule number, the words as written, start, end
_Key = tuple[str, int, str, str, int, int, int]  # kb.links.lineage_rows' key


class TermWalk:
    """The term links of a fixed list of texts, carried from one English edition to the next.

    ``explicit``: also make the rulings' explicit references (``kb.links.build``; the learned-term
    relink makes term links only).
    """

    def __init__(self, sources: Sequence[Any], *, explicit: bool = True) -> None:
        self.sources = sources
        self.explicit = explicit
        self.carried = CarriedMatches(sources)
        count = len(sources)
        self.outputs: list[tuple[_Output, ...]] = [()] * count
        self.words: list[frozenset[tuple[str, ...]]] = [frozenset()] * count
        self.open: list[dict[_Key, list[Any]]] = [{} for _ in range(count)]
        self.by_words: dict[str, dict[tuple[str, ...], set[int]]] = {}
        self.by_number: dict[str, set[int]] = {}
        self.own: set[int] = set()  # texts with a target the edition has no lineage for
        self.hit: set[int] = set()  # texts with a term match in the edition walked last
        self.refs: dict[int, tuple[Reference, ...]] = {}
        if explicit:
            for i, source in enumerate(sources):
                if source.source_type == "clarification_text":
                    found = tuple(find_references(source.text, source.language))
                    if found:
                        self.refs[i] = found
        self.english = [
            i
            for i, s in enumerate(sources)
            if s.source_type == "clarification_text" and s.language == "en"
        ]
        # Per English ruling, what the implied-rule patterns find in it (they read the text and
        # its cards alone): kept for the walk, never stored (kb.links.implied.TextEvidence).
        self.evidence: dict[int, TextEvidence] = {}
        self.order: int | None = None  # the place of the edition walked last
        self.last: int | None = None  # the same, kept by finish()
        # What the vocabulary walked last resolved each term to; None: nothing matched yet.
        self.resolution: dict[str, dict[tuple[str, ...], Any]] | None = None
        self.implied: Any = None
        self.lineages: Mapping[str, int] = {}
        self.shared: Any = None
        self.looked_at = 0  # texts resolved again, over the whole walk (for the log)
        self.learned: dict[str, dict[str, str]] = {}  # kb.links.build.vocabularies' names
        self.titles: dict[str, dict[int, dict[str, str]]] = {}  # and translated rule titles
        self.ahead: Any = None  # kb.links.ahead.VocabulariesAhead, in a full run

    def step(self, vocabularies: Mapping[str, Vocabulary], rows: Any, *, emit: bool = True) -> Any:
        """Walk into the edition of ``rows`` (a ``kb.links.build._Rows`` with lineages); return
        the owners (clarification or card, per source type) whose texts matched something now.

        ``emit``: add the rows the edition stores itself to ``rows`` (not when only its lineage
        rows are wanted: an edition an interrupted run already wrote).
        """
        order, lineages, shared = rows.order, rows.lineages, rows.shared
        fed = self.ahead.fed(rows.edition_id) if self.ahead is not None else None
        stale = self.carried.stale(vocabularies, fed)
        resolution = {
            language: {t.words: (t.targets, t.verb_targets) for t in vocabulary.terms}
            for language, vocabulary in vocabularies.items()
        }
        english = vocabularies.get("en")
        implied = implied_inputs(english) if english is not None else None
        again: set[int]
        placed: set[int] = set()
        resolved: set[int] = set()  # texts whose terms' rules or implied rules may differ
        kept: set[str] = set()  # rule numbers some term (or the implied rules) names as before
        fresh = self.order is None or order != self.order + 1 or shared is not self.shared
        if fresh:  # no run goes on: every text's rows are placed anew
            self.finish()
        if self.resolution is None:  # nothing matched yet: every text is
            again = set(range(len(self.sources)))
        else:  # from the texts' matches in the vocabulary walked last (or a kept state's)
            # Consecutive editions: compared by lineage, so a renumbering alone only renumbers.
            now = _Labels(lineages if not fresh else None)
            then = _Labels(self.lineages if not fresh else None)
            for language, terms in resolution.items():
                before = (self.resolution or {}).get(language, {})
                index = self.by_words.get(language, {})
                for words in terms.keys() | before.keys():
                    a, b = terms.get(words), before.get(words)
                    if a == b:
                        if a is not None:
                            kept.update(a[0], a[1])
                    elif now.nested(a) != then.nested(b):
                        resolved.update(index.get(words, ()))
            if implied == self.implied:
                kept |= _numbers(implied)
            elif now.nested(implied) != then.nested(self.implied):
                concerns = implied_change(then.nested(self.implied), now.nested(implied))
                for i in self.english:
                    if i not in resolved and concerns(self._evidence(i)):
                        resolved.add(i)
            if fresh:
                placed = set(range(len(self.sources)))
            else:
                for number in lineages.keys() | self.lineages.keys():
                    if lineages.get(number) != self.lineages.get(number):
                        placed.update(self.by_number.get(number, ()))
                placed |= self._renumber(lineages, resolved, implied, kept)
            again = stale | resolved
        linked: dict[str, set[int]] = {}
        same: set[int] = set()  # matched again, the same spans: its outputs stand
        for i in sorted(again):
            source = self.sources[i]
            vocabulary = vocabularies[source.language]
            if self.carried.spans[i] is None or i in stale:
                before = self.carried.spans[i]
                spans = self.carried.rematch(i, vocabulary)
                self._index_words(i, source.language)
                if before is not None and i not in resolved and spans == before:
                    same.add(i)
                    continue
            matches = self._matches(i, vocabulary)
            if matches:
                linked.setdefault(source.source_type, set()).add(source.owner)
                self.hit.add(i)
            else:
                self.hit.discard(i)
            self._set_outputs(i, matches)
            self._place(i, order, lineages, shared)
        for i in placed - (again - same):
            self._place(i, order, lineages, shared)
        if fresh:  # as if every text had been looked at
            for i in self.hit:
                source = self.sources[i]
                linked.setdefault(source.source_type, set()).add(source.owner)
        self.looked_at += len(again)
        self.order, self.resolution, self.implied = order, resolution, implied
        self.last = order
        self.lineages, self.shared = lineages, shared
        if emit:
            self._emit(rows)
        return linked

    def state(self) -> dict[str, Any]:
        """What the walk knows of its texts after its last step, as plain values: their spans
        and outputs and what the vocabulary then resolved (kb.links.walk_state keeps it). A walk
        that takes it up (:meth:`restore`) steps into any edition by what differs from it."""
        return {
            "carried": self.carried.state(),
            "outputs": self.outputs,
            "hit": sorted(self.hit),
            "resolution": self.resolution,
            "implied": self.implied,
        }

    def restore(self, state: Mapping[str, Any]) -> None:
        """Take up the :meth:`state` of a walk over the same texts (before any step of this one):
        the first step then matches only what its vocabulary changed, and places every text."""
        self.carried.restore(state["carried"])
        for i, source in enumerate(self.sources):
            self._index_words(i, source.language)
        self.outputs = [()] * len(self.sources)
        self.by_number = {}
        for i, outputs in enumerate(state["outputs"]):
            self._note_outputs(i, tuple(outputs))
        self.hit = set(state["hit"])
        self.resolution = state["resolution"]
        self.implied = state["implied"]

    def finish(self) -> None:
        """End the open lineage rows at the edition walked last (before a gap, or at the end)."""
        if self.order is None:
            return
        for runs in self.open:
            for run in runs.values():
                run[1] = self.order
        self.open = [{} for _ in range(len(self.sources))]
        self.order = None

    def _renumber(
        self, lineages: Mapping[str, int], resolved: set[int], implied: Any, kept: set[str]
    ) -> set[int]:
        """Give the texts that name a rule now numbered otherwise (same lineage) its new number;
        return them (their rows are placed again). Run after the comparison by lineage: the
        texts not ``resolved`` then match as in the edition before, their rules renumbered.

        Two cases are resolved again instead (added to ``resolved``): a moved number that some
        term still names as before (``kept``: the number went to another lineage, and which of
        the text's outputs moved is not known), and a renumbering that changes a prefix relation
        between the numbers a ruling reads (matching compares numbers only for equality, but for
        the test of a state-based action's rule, kb.links.implied).
        """
        number_of = {lineage: number for number, lineage in lineages.items()}
        moved = {
            number: number_of[lineage]
            for number, lineage in self.lineages.items()
            if number_of.get(lineage, number) != number
        }
        for number in moved.keys() & kept:
            resolved.update(self.by_number.get(number, ()))
        texts = {i for n in moved for i in self.by_number.get(n, ())} - resolved
        if not texts:
            return set()
        before, after = _flat(self.implied), _flat(implied)
        rulings = {i for i in texts if self.sources[i].source_type == "clarification_text"}
        if rulings and len(before) == len(after):
            read = list(zip(before, after, strict=True))
            named = {(o[0], moved.get(o[0], o[0])) for i in rulings for o in self.outputs[i]}
            if any(
                a.startswith(b) != new_a.startswith(new_b)
                for a, new_a in named | set(read)
                for b, new_b in read
                if a != new_a or b != new_b
            ):
                resolved.update(rulings)
                texts -= rulings
        elif rulings:
            resolved.update(rulings)
            texts -= rulings
        for i in texts:
            self._note_outputs(i, tuple((moved.get(o[0], o[0]), *o[1:]) for o in self.outputs[i]))
        return texts

    def _matches(self, i: int, vocabulary: Vocabulary) -> list[TermMatch]:
        """The text's term matches in this vocabulary, and for a ruling the rules it implies."""
        source = self.sources[i]
        spans = self.carried.spans[i] or []
        matches = [vocabulary.resolve(span) for span in spans]
        if source.source_type == "clarification_text":
            evidence = self._evidence(i) if source.language == "en" else None
            matches = matches + implied_matches(
                vocabulary, source.text, matches, source.context, evidence
            )
        return matches

    def _evidence(self, i: int) -> TextEvidence:
        """The ruling's :class:`TextEvidence`, made when first needed."""
        found = self.evidence.get(i)
        if found is None:
            source = self.sources[i]
            found = self.evidence[i] = TextEvidence(source.text, source.context)
        return found

    def _index_words(self, i: int, language: str) -> None:
        """Note which terms the text's spans are of (a change of their rules concerns it)."""
        index = self.by_words.setdefault(language, {})
        words = frozenset(span[3] for span in self.carried.spans[i] or [])
        for gone in self.words[i] - words:
            index[gone].discard(i)
        for new in words - self.words[i]:
            index.setdefault(new, set()).add(i)
        self.words[i] = words

    def _set_outputs(self, i: int, matches: list[TermMatch]) -> None:
        self._note_outputs(
            i,
            tuple(
                (target, found.matched, found.start, found.end)
                for found in matches
                for target in found.term.targets
            ),
        )

    def _note_outputs(self, i: int, outputs: tuple[_Output, ...]) -> None:
        """Note the text's outputs, and which rule numbers it names (a renumbering concerns it)."""
        before = {o[0] for o in self.outputs[i]}
        after = {o[0] for o in outputs}
        for gone in before - after:
            self.by_number[gone].discard(i)
        for new in after - before:
            self.by_number.setdefault(new, set()).add(i)
        self.outputs[i] = outputs

    def _place(self, i: int, order: int, lineages: Mapping[str, int], shared: Any) -> None:
        """The text's lineage rows in this edition: runs that go on, end or begin here."""
        source = self.sources[i]
        head = (source.source_type, source.source_id, source.language)
        now: dict[_Key, str] = {}
        own = False
        for target, matched, start, end in self.outputs[i]:
            lineage = lineages.get(target)
            if lineage is None:
                own = True
            else:  # the last target of a key names its number, as LineageLinks.add does
                now[(*head, matched, start, end, lineage)] = target
        runs = self.open[i]
        for key in [k for k in runs if k not in now]:
            runs.pop(key)[1] = order - 1
        for key, number in now.items():
            run = runs.get(key)
            if run is None:
                run = runs[key] = [order, order, number]
                shared.found.setdefault(key, []).append(run)
            else:
                run[2] = number
        if own:
            self.own.add(i)
        else:
            self.own.discard(i)

    def _emit(self, rows: Any) -> None:
        """The rows the edition stores itself, text by text as kb.links.build orders them."""
        for i in sorted(self.refs.keys() | self.own):
            source = self.sources[i]
            kind, source_id, language = source.source_type, source.source_id, source.language
            refs = self.refs.get(i)
            if refs:
                rows.references(kind, source_id, language, refs)
            if i in self.own:
                for target, matched, start, end in self.outputs[i]:
                    if target not in rows.lineages:
                        rows.add(kind, source_id, language, target, "term", matched, start, end)


class _Labels:
    """Rule numbers as an edition's lineages (a number without one stays itself): what two
    consecutive editions' vocabularies resolve is compared so (``None``: by number)."""

    def __init__(self, lineages: Mapping[str, int] | None) -> None:
        self.lineages = lineages

    def nested(self, value: Any) -> Any:
        """The value (strings in tuples and lists) with each rule number as its lineage."""
        if self.lineages is None:
            return value
        if isinstance(value, str):
            return self.lineages.get(value, value)
        if isinstance(value, tuple | list):
            return tuple(self.nested(v) for v in value)
        return value


def _numbers(value: Any) -> set[str]:
    """Every string in a nested value (what :func:`implied_inputs` holds: rule numbers, words)."""
    return set(_flat(value))


def _flat(value: Any) -> list[str]:
    """The strings of a nested value in order (two values of one shape pair up place by place)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple | list):
        return [n for v in value for n in _flat(v)]
    return []

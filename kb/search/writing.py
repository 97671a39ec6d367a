"""Cheaper ways through Whoosh's segment writer for a full build: the same index, less work.

Whoosh's writer puts every posting (field, term, document, weight, value) of a segment in a
sorting pool: past its memory limit (a few hundred thousand documents' worth) the pool pickles
each posting to a run file one by one, then sorts and merges the runs back at commit. At the
whole history (4.3 million postings) that was a third of a build. :class:`TermPool` keeps the
postings grouped by field and term instead: a build adds documents in increasing numbers, so
each term's postings are already in the order Whoosh's sort would give, and only the terms
need sorting at commit. The postings reach the codec's field writer as the same stream, so the
files written are the same.

:class:`Keywords` and :class:`Ident` do for the keyword fields (editions, sets, languages…)
and the identifier fields (key, hash, type…) what :class:`kb.search.analysis.PositionalText`
does for the text fields: the same postings as Whoosh's own analyzers and formats give, without
a token object per word.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from typing import Any

from whoosh.analysis import CompositeAnalyzer, IDTokenizer, LowercaseFilter, RegexTokenizer
from whoosh.fields import ID, KEYWORD
from whoosh.formats import Existence, Frequency
from whoosh.system import pack_uint

# Whoosh's SpaceSeparatedTokenizer: one token per run of characters other than white space.
_SPACE_SEPARATED = r"[^ \t\r\n]+"
_WORDS = re.compile(_SPACE_SEPARATED)
_FREQUENCIES = [pack_uint(n) for n in range(64)]


class TermPool:
    """A segment writer's postings, grouped by field and term, in the order they were added.

    It stands in for Whoosh's ``PostingPool`` (``add``, ``iter_postings``, ``cleanup``) in a
    writer that only adds documents in increasing numbers with one posting per term and
    document, as :func:`kb.search.indexer.build_index` does; :func:`use_term_pool` checks the
    first and the pool refuses a posting that breaks the second.
    """

    def __init__(self) -> None:
        self._fields: dict[str, dict[bytes, tuple[array[int], list[float], list[bytes]]]] = {}
        self.fieldnames: set[str] = set()

    def add(self, item: tuple[str, bytes, int, float, bytes | None]) -> None:
        """Keep one posting (the tuple Whoosh's writer makes)."""
        fieldname, tbytes, docnum, weight, vbytes = item
        terms = self._fields.get(fieldname)
        if terms is None:
            terms = self._fields[fieldname] = {}
            self.fieldnames.add(fieldname)
        postings = terms.get(tbytes)
        if postings is None:
            postings = terms[tbytes] = (array("L"), [], [])
        elif postings[0][-1] >= docnum:
            raise ValueError(
                f"posting of {fieldname}:{tbytes!r} for document {docnum} after document "
                f"{postings[0][-1]}: the term pool takes documents in increasing numbers"
            )
        postings[0].append(docnum)
        postings[1].append(weight)
        postings[2].append(vbytes)  # type: ignore[arg-type]

    def iter_postings(self) -> Iterator[tuple[str, bytes, int, float, bytes | None]]:
        """Every posting in Whoosh's pool order: by field, term, then document."""
        for fieldname in sorted(self._fields):
            terms = self._fields[fieldname]
            for tbytes in sorted(terms):
                docnums, weights, values = terms.pop(tbytes)
                for docnum, weight, vbytes in zip(docnums, weights, values, strict=True):
                    yield fieldname, tbytes, docnum, weight, vbytes

    def write(self, fieldwriter: Any, schema: Any, lengths: Any) -> None:
        """Hand every posting to a codec's field writer term by term, as its ``add_postings``
        does with :meth:`iter_postings`' stream: the same calls, in the same order, with each
        document's field length read once per field instead of once per posting."""
        for fieldname in sorted(self._fields):
            terms = self._fields.pop(fieldname)
            fieldwriter.start_field(fieldname, schema[fieldname])
            last = max(postings[0][-1] for postings in terms.values())
            if not lengths:  # as Whoosh's add_postings tests it
                field_lengths = [0] * (last + 1)
            else:
                dfl = lengths.doc_field_length
                field_lengths = [dfl(docnum, fieldname) for docnum in range(last + 1)]
            add = fieldwriter.add
            for tbytes in sorted(terms):
                docnums, weights, values = terms.pop(tbytes)
                fieldwriter.start_term(tbytes)
                for docnum, weight, vbytes in zip(docnums, weights, values, strict=True):
                    add(docnum, weight, b"" if vbytes is None else vbytes, field_lengths[docnum])
                fieldwriter.finish_term()
            fieldwriter.finish_field()

    def cleanup(self) -> None:
        """Drop what is left (Whoosh's pool removes its run files here)."""
        self._fields.clear()


def use_term_pool(writer: Any) -> None:
    """Give a fresh segment writer (nothing added yet, no other segment to merge) a
    :class:`TermPool` in place of Whoosh's sorting pool, whose postings its field writer takes
    term by term at commit (:meth:`TermPool.write`)."""
    if writer.docnum != 0 or writer.segments or getattr(writer, "_added", False):
        raise ValueError("the term pool is for a new index's first segment only")
    writer.pool.cleanup()
    pool = writer.pool = TermPool()
    fieldwriter = writer.fieldwriter
    add_postings = fieldwriter.add_postings

    def postings_in_bulk(schema: Any, lengths: Any, items: Any) -> None:
        if writer.pool is pool and fieldwriter is writer.fieldwriter:
            pool.write(fieldwriter, schema, lengths)
        else:  # not the pool's postings: Whoosh's way
            add_postings(schema, lengths, items)

    fieldwriter.add_postings = postings_in_bulk


class Keywords(KEYWORD):  # type: ignore[misc]
    """A keyword field that indexes a space-separated string without Whoosh's token objects.

    The same postings as :class:`whoosh.fields.KEYWORD` with its own analyzer (space-separated
    words, lowercased if asked) and frequency format: each distinct word once, its count as
    frequency and value, the count times the field boost as weight. Anything else (another
    analyzer, a list of values, an option) takes Whoosh's path.
    """

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        lowercase = _keyword_chain(self.analyzer)
        if (
            lowercase is None
            or not isinstance(value, str)
            or set(kwargs) - {"mode"}
            or type(self.format) is not Frequency
        ):
            yield from super().index(value, **kwargs)
            return
        counts: dict[str, int] = {}
        for word in _WORDS.findall(value.lower() if lowercase else value):
            counts[word] = counts.get(word, 0) + 1
        boost = self.format.field_boost
        for word, count in counts.items():
            value_bytes = _FREQUENCIES[count] if count < 64 else pack_uint(count)
            yield word.encode("utf-8"), count, float(count) * boost, value_bytes


class Ident(ID):  # type: ignore[misc]
    """An identifier field (the whole value is the one term) that skips Whoosh's token object:
    the same posting as :class:`whoosh.fields.ID` with its own analyzer, which keeps the value
    as written. Anything else takes Whoosh's path."""

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        if (
            type(self.analyzer) is not IDTokenizer
            or not isinstance(value, str)
            or set(kwargs) - {"mode"}
            or type(self.format) is not Existence
        ):
            yield from super().index(value, **kwargs)
            return
        yield value.encode("utf-8"), 1, self.format.field_boost, b""


def _keyword_chain(analyzer: Any) -> bool | None:
    """Whether Whoosh's keyword analyzer lowercases; None for any other analyzer."""
    items = analyzer.items if isinstance(analyzer, CompositeAnalyzer) else [analyzer]
    tokenizer = items[0]
    if (
        type(tokenizer) is not RegexTokenizer
        or tokenizer.gaps
        or tokenizer.expression.pattern != _SPACE_SEPARATED
    ):
        return None
    if len(items) == 1:
        return False
    if len(items) == 2 and type(items[1]) is LowercaseFilter:
        return True
    return None

"""Plain words, most searches, without the query parser: a small tree of tuples.

A string of plain words (letters, digits, inner apostrophes, dots and hyphens; no operator,
filter, quote or leading minus) skips the parser's tagging: each word goes through the same
expansion as in the parser (:class:`~kb.search.query.LanguagePlugin`: the user's language,
English as typed, the term bridge, a rule number) and the words are joined as the parser's
group joins them. The tree is normalised as Whoosh normalises queries, then becomes Whoosh
queries (:func:`to_query`, equal to what the parser makes: tested) or goes to kb's term engine
as it is, without the Whoosh objects. Nodes:

- ``("term", field, text, boost)``;
- ``("and", children)`` and ``("or", children, scale)``: groups (their own boost is always 1);
- ``("query", q)``: any other Whoosh query (a phrase from the bridge);
- ``NULL``: nothing to search for (stop words only).
"""

from __future__ import annotations

import re
from typing import Any

from whoosh import query as wq
from whoosh.analysis import CompositeAnalyzer
from whoosh.qparser import AndGroup, QueryParser, syntax

from kb.search.analysis import query_terms
from kb.search.query import (
    RELAXED,
    RELAXED_SCALE,
    LanguagePlugin,
    QueryContext,
    WordMemo,
    parse_words,
)
from kb.search.questions import OPERATORS

TERM, AND, OR, QUERY = "term", "and", "or", "query"
NULL: tuple[Any, ...] = ("null",)

_PLAIN = re.compile(r"\s*(?:[^\W_](?:[\w'’.-]*[^\W_])?\s+)*[^\W_](?:[\w'’.-]*[^\W_])?\s*")
_TERM_PARSERS: dict[tuple[int, bool], Any] = {}


def plain_tree(
    schema: Any,
    text: str,
    context: QueryContext,
    *,
    relaxed: bool = False,
    memo: WordMemo | None = None,
) -> tuple[Any, ...] | None:
    """The normalised tree of a string of plain words; None for any other string.

    ``memo``: what the search worked out of its words in its earlier passes (:class:`WordMemo`).
    """
    if context.fuzzy or not _PLAIN.fullmatch(text):
        return None
    words = []
    for match in re.finditer(r"\S+", text):
        if match.group() in OPERATORS or "_" in match.group():
            return None
        node = syntax.WordNode(match.group())
        node.startchar, node.endchar = match.start(), match.end()
        words.append(node)
    plugin = LanguagePlugin(context, schema, memo)
    plugin.mark_phrases(words)
    parser = _term_parser(schema, relaxed)
    nodes = [n for n in (_word(plugin, parser, word) for word in words) if n is not None]
    if not nodes:
        return NULL
    return normalize((OR, tuple(nodes), RELAXED_SCALE) if relaxed else (AND, tuple(nodes)))


def _term_parser(schema: Any, relaxed: bool) -> Any:
    """A bare parser (no plugins) for its term and phrase queries, grouping as the request's."""
    key = (id(schema), relaxed)
    parser = _TERM_PARSERS.get(key)
    if parser is None:
        group = RELAXED if relaxed else AndGroup
        # plugins=[]: term_query, multitoken_query and the nodes' query() read none of them,
        # and Whoosh's default set compiles a dozen regular expressions (a cold search's).
        parser = _TERM_PARSERS[key] = QueryParser(None, schema, plugins=[], group=group)
    return parser


def _word(plugin: LanguagePlugin, parser: Any, node: Any) -> tuple[Any, ...] | None:
    """The node of a word: the OR of its alternatives (None for a stop word)."""
    alternatives = plugin.alternatives(node)
    if alternatives is None:
        return None
    found = []
    for fieldname, english, boost in alternatives:
        words = english.replace("-", " ").split() if english is not None else [node.text]
        if len(words) > 1:  # a phrase from the bridge
            made = _from_query(plugin._english(node, english, fieldname, boost).query(parser))
        else:
            made = _term(plugin.schema, parser, fieldname, words[0], boost)
        if made is not None:
            found.append(made)
    if len(alternatives) == 1:
        return found[0] if found else None
    return (OR, tuple(found), None)


def _term(schema: Any, parser: Any, fieldname: str, text: str, boost: float) -> Any:
    """``QueryParser.term_query`` as a node, the word analysed through the cached path."""
    field = schema[fieldname]
    if field.self_parsing() or not isinstance(field.analyzer, CompositeAnalyzer):
        return _from_query(parser.term_query(fieldname, text, wq.Term, boost=boost))
    terms = query_terms(field.analyzer, text)
    if not terms:
        return None
    if len(terms) > 1:  # joined as the parser's group joins words (Ring.bearer)
        return _from_query(
            parser.multitoken_query(field.multitoken_query, terms, fieldname, wq.Term, boost)
        )
    return (TERM, fieldname, terms[0], boost)


def _from_query(q: Any) -> tuple[Any, ...] | None:
    """The node of a Whoosh query."""
    if q is None:
        return None
    if q is wq.NullQuery:
        return NULL
    if type(q) is wq.Term and isinstance(q.text, str):
        return (TERM, q.fieldname, q.text, q.boost)
    if type(q) in (wq.And, wq.Or) and q.boost == 1.0 and not getattr(q, "minmatch", 0):
        children = tuple(_from_query(sub) or NULL for sub in q.subqueries)
        return (AND, children) if type(q) is wq.And else (OR, children, q.scale)
    return (QUERY, q)


def normalize(node: tuple[Any, ...]) -> tuple[Any, ...]:
    """``Query.normalize()`` on a tree: groups of a kind merged, repeats and nulls dropped.

    Whoosh's own also merges ranges and ``Every`` queries, which plain words never make.
    """
    kind = node[0]
    if kind == TERM or node is NULL:
        return node
    if kind == QUERY:
        return _from_query(node[1].normalize()) or NULL
    merged: list[tuple[Any, ...]] = []
    for child in node[1]:
        child = normalize(child)
        if child[0] == kind:
            merged.extend(child[1])
        elif child is not NULL:
            merged.append(child)
    unique = list(dict.fromkeys(merged))
    if not unique:
        return NULL
    if len(unique) == 1:
        return unique[0]
    return (AND, tuple(unique)) if kind == AND else (OR, tuple(unique), node[2])


def in_field(node: tuple[Any, ...], fieldname: str) -> tuple[Any, ...]:
    """The tree with only its searches of one field (its terms and phrases there), normalised;
    NULL when it searches nothing there."""
    kind = node[0]
    if kind == TERM:
        return node if node[1] == fieldname else NULL
    if kind == QUERY:
        fields = {name for name, _ in node[1].iter_all_terms()}
        return node if fields == {fieldname} else NULL
    if node is NULL:
        return NULL
    children = tuple(in_field(child, fieldname) for child in node[1])
    return normalize((kind, children) if kind == AND else (kind, children, node[2]))


def to_query(node: tuple[Any, ...]) -> Any:
    """The Whoosh query of a tree."""
    kind = node[0]
    if kind == TERM:
        return wq.Term(node[1], node[2], boost=node[3])
    if kind == AND:
        return wq.And([to_query(child) for child in node[1]])
    if kind == OR:
        return wq.Or([to_query(child) for child in node[1]], scale=node[2])
    if kind == QUERY:
        return node[1]
    return wq.NullQuery


def parse(schema: Any, text: str, context: QueryContext, *, relaxed: bool = False) -> Any:
    """Parse a query string; raise QueryError for a value no field can read (a bad date)."""
    query = plain_query(schema, text, context, relaxed=relaxed)
    if query is not None:
        return query
    return parse_words(schema, text, context, relaxed=relaxed)


def plain_query(
    schema: Any, text: str, context: QueryContext, *, relaxed: bool = False
) -> Any | None:
    """The query of a string of plain words, as :func:`parse` makes it; None for other strings."""
    tree = plain_tree(schema, text, context, relaxed=relaxed)
    return None if tree is None else to_query(tree)

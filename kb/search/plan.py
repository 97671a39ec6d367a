"""Queries as kb's term engine reads them: groups of clauses of terms, with their boosts.

A document matches a plan when it holds every term of a clause of every group: an ``And`` of
words is a group per word, a word's alternatives (``Or``) are the clauses of its group, and the
parts of a split word (an ``And`` under an ``Or``) are the terms of one clause. A plan comes
from a Whoosh query (:func:`plan_query`) or straight from the tree of plain words
(:func:`plan_tree`); a query of any other shape has none, and goes to Whoosh.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from whoosh import query as wq

from kb.search.plain import AND, OR, QUERY, TERM


@dataclass(slots=True)
class Leaf:
    """One term of the query, with the product of the boosts above it."""

    fieldname: str
    text: Any  # str as parsed, bytes once looked up
    boost: float
    df: int = 0
    # (segment, offset, term info) of each segment holding the term
    found: list[tuple[Any, int, Any]] = field(default_factory=list)
    postings: dict[int, float] = field(default_factory=dict)
    # BM25F's parameters (idf, K1, B, average length); None for a field that is not scored
    bm25: tuple[float, float, float, float] | None = None


@dataclass(slots=True)
class Clause:
    """Terms a document must all hold: one term, or the words of a hyphenated word."""

    leaves: list[Leaf]
    docs: AbstractSet[int] = field(default_factory=set)
    # A phrase: its terms must also stand in a row, in order (Whoosh's Phrase with slop 1).
    phrase: bool = False

    df: int = 0  # documents that may hold it all: its rarest term's (set once terms are found)


@dataclass(slots=True)
class Plan:
    """A query as groups of clauses: a document matches a clause of every group."""

    groups: list[list[Clause]]
    scale: float | None = None  # the coordination bonus of a scaled Or (Whoosh's CoordMatcher)

    clauses: list[Clause] = field(default_factory=list)  # every group's, in order
    leaves: list[Leaf] = field(default_factory=list)  # every clause's, in order

    def __post_init__(self) -> None:
        self.clauses = [clause for group in self.groups for clause in group]
        self.leaves = [leaf for clause in self.clauses for leaf in clause.leaves]


def plan_query(q: Any) -> Plan | None:
    """The groups of a query made of terms, ANDs and ORs; None for any other query."""
    if type(q) is wq.And:
        groups: list[list[Clause]] = []
        return Plan(groups) if _required_groups(q, 1.0, groups) else None
    clauses: list[Clause] = []
    if not _alternatives(q, 1.0, clauses, top=True):
        return None
    scale = getattr(q, "scale", None) if type(q) is wq.Or and len(q.subqueries) > 1 else None
    if scale and any(len(clause.leaves) > 1 and not clause.phrase for clause in clauses):
        return None
    return Plan([clauses], scale=scale or None)


def _own_boost(q: Any) -> float:
    # Whoosh applies a compound query's boost only when it has more than one subquery.
    return float(q.boost) if len(q.subqueries) > 1 else 1.0


def _required_groups(q: Any, boost: float, groups: list[list[Clause]]) -> bool:
    """Each child of an AND (nested ANDs flattened) as a group of alternative clauses."""
    boost *= _own_boost(q)
    for child in q.subqueries:
        if type(child) is wq.And:
            if not _required_groups(child, boost, groups):
                return False
            continue
        clauses: list[Clause] = []
        if not _alternatives(child, boost, clauses):
            return False
        groups.append(clauses)
    return True


def _alternatives(q: Any, boost: float, clauses: list[Clause], top: bool = False) -> bool:
    """The clauses under an OR (nested ORs flattened); False if anything else is there."""
    if type(q) is wq.Term:
        leaf = _leaf(q, boost)
        if leaf is not None:
            clauses.append(Clause([leaf]))
        return leaf is not None
    if type(q) is wq.Phrase:
        return _phrase(q, boost, clauses)
    if type(q) is wq.And:
        leaves: list[Leaf] = []
        if not _conjunction(q, boost, leaves):
            return False
        clauses.append(Clause(leaves))
        return True
    if type(q) is not wq.Or or getattr(q, "minmatch", 0):
        return False
    if getattr(q, "scale", None) and not top and len(q.subqueries) > 1:
        return False  # a coordination bonus below the top: left to Whoosh
    boost *= _own_boost(q)
    return all(_alternatives(child, boost, clauses) for child in q.subqueries)


def _conjunction(q: Any, boost: float, leaves: list[Leaf]) -> bool:
    """The terms of an AND under an OR (nested ANDs flattened); False for anything else."""
    boost *= _own_boost(q)
    for child in q.subqueries:
        if type(child) is wq.And:
            if not _conjunction(child, boost, leaves):
                return False
            continue
        leaf = _leaf(child, boost) if type(child) is wq.Term else None
        if leaf is None:
            return False
        leaves.append(leaf)
    return True


def _phrase(q: Any, boost: float, clauses: list[Clause]) -> bool:
    """A phrase of adjacent words (``slop=1``) as a clause of its terms; False for others.

    Whoosh matches it as a ``SpanNear2`` of its terms (each scored as a term, boost 1) wrapped
    with the phrase's boost; a one-word phrase matches and scores as its term.
    """
    words = q.words
    if q.slop != 1 or not words or not all(isinstance(w, str | bytes) for w in words):
        return False
    boost *= q.boost
    leaves = [Leaf(q.fieldname, word, boost) for word in words]
    clauses.append(Clause(leaves, phrase=len(leaves) > 1))
    return True


def _leaf(q: Any, boost: float) -> Leaf | None:
    if not isinstance(q.text, str | bytes) or q.minquality:
        return None
    return Leaf(q.fieldname, q.text, boost * q.boost)


def plan_tree(node: tuple[Any, ...]) -> Plan | None:
    """The plan of a normalised tree of plain words (:mod:`kb.search.plain`).

    The same plan as :func:`plan_query` makes of the tree's Whoosh queries, without them.
    """
    kind = node[0]
    if kind == QUERY:
        return plan_query(node[1])
    if kind == AND:
        groups: list[list[Clause]] = []
        return Plan(groups) if _tree_groups(node, groups) else None
    if kind == OR and node[2]:  # the some-of-the-words pass: one group, a bonus per term
        clauses: list[Clause] = []
        if not all(_tree_alternatives(child, clauses) for child in node[1]):
            return None
        if any(len(clause.leaves) > 1 and not clause.phrase for clause in clauses):
            return None
        return Plan([clauses], scale=node[2])
    clauses = []
    return Plan([clauses]) if _tree_alternatives(node, clauses) else None


def _tree_groups(node: tuple[Any, ...], groups: list[list[Clause]]) -> bool:
    for child in node[1]:
        if child[0] == AND:
            if not _tree_groups(child, groups):
                return False
            continue
        clauses: list[Clause] = []
        if not _tree_alternatives(child, clauses):
            return False
        groups.append(clauses)
    return True


def _tree_alternatives(node: tuple[Any, ...], clauses: list[Clause]) -> bool:
    kind = node[0]
    if kind == TERM:
        clauses.append(Clause([Leaf(node[1], node[2], node[3])]))
        return True
    if kind == AND:
        leaves = []
        for child in node[1]:
            if child[0] == AND:
                inner: list[Clause] = []
                if not _tree_alternatives(child, inner):
                    return False
                leaves += inner[0].leaves
            elif child[0] == TERM:
                leaves.append(Leaf(child[1], child[2], child[3]))
            else:
                return False
        clauses.append(Clause(leaves))
        return True
    if kind == OR and not node[2]:
        return all(_tree_alternatives(child, clauses) for child in node[1])
    if kind == QUERY and type(node[1]) is wq.Phrase:  # a phrase from the bridge
        return _phrase(node[1], 1.0, clauses)
    return False  # another query, a scaled OR below the top, nothing

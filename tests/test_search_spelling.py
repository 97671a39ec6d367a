"""Did-you-mean's deletion index finds exactly the words Whoosh's Levenshtein automaton accepts."""

from __future__ import annotations

import random
from bisect import bisect_left

from whoosh.automata.fsa import find_all_matches
from whoosh.automata.lev import levenshtein_automaton

from kb.search.spelling import MAX_DISTANCE, _DeletionIndex, _edit_distance


def _automaton(words: list[str], text: str, distance: int) -> set[str]:
    """What Whoosh's automaton (one-letter prefix) accepts, walked over the sorted list."""
    ordered = sorted(words)
    dfa = levenshtein_automaton(text, distance, 1).to_dfa()
    position = [0]

    def skipper(w: str) -> str | None:
        position[0] = bisect_left(ordered, w, position[0])
        return ordered[position[0]] if position[0] < len(ordered) else None

    return set(find_all_matches(dfa, skipper))


def test_deletion_index_matches_the_automaton() -> None:
    rng = random.Random(7)
    letters = "abcdeé"
    words = sorted({"a" + "".join(rng.choices(letters, k=rng.randint(2, 7))) for _ in range(400)})
    index = _DeletionIndex(words)
    queries = [w for w in rng.sample(words, 40)]
    for word in list(queries):  # the words with one or two random edits
        for _ in range(2):
            i = rng.randrange(1, len(word))
            word = word[:i] + rng.choice(letters + "xy") + word[i + 1 :]
            queries.append(word)
            queries.append(word[:i] + word[i + 1 :])
    checked = 0
    for query in queries:
        for distance in range(1, MAX_DISTANCE + 1):
            expected = _automaton(words, query, distance)
            assert index.within(query, distance) == expected, (query, distance)
            checked += bool(expected)
    assert checked > 50  # most queries have near words: the comparison is not vacuous


def test_edit_distance() -> None:
    assert _edit_distance("kitten", "sitting", 5) == 3
    assert _edit_distance("abc", "abc", 2) == 0
    assert _edit_distance("abcdef", "uvwxyz", 2) == 3  # past the bound: bound + 1

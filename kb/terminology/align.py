"""Learn a keyword's official translation from English/translated card text pairs.

No SQLAlchemy here: plain card texts in, learned terms out, so the method is testable on its own.

The method (a collocation test, as in statistical term extraction):

1. Each card's English and translated texts are split into faces (`` // ``) and lines; where
   both sides have the same number of faces and lines, line *i* translates line *i*. A line is
   split into its body and its reminder text (in parentheses).
2. A *unit* is the body of one translated line. It is *positive* for keyword K when the English
   line mentions K (the keyword's words, optionally inflected: ``mills``, ``goaded``) on a card
   that has K among its MTGJSON ``keywords``; the same mention on a card without K makes the
   unit ambiguous for K (left out of both sides).
3. Every n-gram (1 to 4 words, not starting or ending with a function word) of the positive
   units is scored by Dunning's log-likelihood ratio G² against all other units: how much more
   often it occurs with K than without. The best-scoring n-gram with at least ``MIN_CARDS``
   supporting cards is the term; its confidence is the harmonic mean of recall (share of K's
   units that contain it) and precision (share of its units that belong to K).
4. Reminder texts are a second source: the same test over the parenthesised parts, used when
   the bodies teach nothing (the keyword is only named in other keywords' reminders) and as
   corroboration otherwise.
5. When no line names K (``Landwalk`` is never printed as such), whole cards with K are the
   positive units against cards without it.
6. Names change (Spanish "dañar primero" became "daña primero"; Mill, printed for decades as
   "put the top cards into the graveyard", became "meule"/"muele" in 2020): most cards still
   print the old wording, so the best association can be the old name. When cards are dated
   (their first printing), the competing name carried by most of the keyword's cards of its
   last ``RECENT_YEARS`` years of printing is the term Wizards uses now; the other stays as an
   ``older`` alternative, for ``kb terms --check``.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass, field
from functools import lru_cache

MAX_N = 5
MIN_CARDS = 3
RECENT_YEARS = 3
# Words that neither open nor close a term: articles, prepositions, pronouns, auxiliaries.
FUNCTION_WORDS = {
    "fr": set(
        "à au aux de des du d' l' la le les un une et ou en par pour sur contre avec dans sans "
        "que qu' qui ce cet cette ces se s' sa son ses vous votre vos il elle ils elles leur "
        "pouvez leurs lui est sont ne n' pas y plus puis si chaque tout toute tous toutes jusqu' "
        "cartes carte créature créatures".split()
    ),
    "es": set(
        "a al de del el la las los lo le les un una unos unas y e o u en por para con contra "
        "sin que se su sus tu tus te es son no más luego si cada todo toda todos todas hasta sobre "
        "puedes cuanto "
        "esa ese esta este carta cartas criatura criaturas".split()
    ),
}
_WORD = re.compile(r"[^\W\d_]+(?:['’])?", re.UNICODE)
_REMINDER = re.compile(r"\([^()]*\)")


@dataclass(frozen=True)
class CardText:
    """One card in one language: names, both texts and the card's English keywords."""

    name: str
    translated_name: str
    english: str
    translated: str
    keywords: tuple[str, ...]
    date: str = ""  # ISO date of the card's first printing ("" when unknown)


@dataclass
class Candidate:
    """An n-gram's association with a keyword."""

    words: tuple[str, ...]
    cards: int
    units: int
    g2: float
    recall: float
    precision: float

    @property
    def confidence(self) -> float:
        """Harmonic mean of recall and precision, in [0, 1]."""
        if not self.recall or not self.precision:
            return 0.0
        return 2 * self.recall * self.precision / (self.recall + self.precision)


@dataclass
class LearnedTerm:
    """The translation of one keyword in one language, with its evidence."""

    keyword: str
    language: str
    term: str  # normalised words, lower case, e.g. "contact mortel"
    label: str  # as printed mid-sentence, e.g. "contact mortel", "Toucheterre"
    cards: int
    keyword_cards: int
    confidence: float
    source: str  # lines | reminders | cards
    examples: list[tuple[str, str]] = field(default_factory=list)
    reminder_cards: int = 0
    alternatives: list[dict[str, object]] = field(default_factory=list)
    g2: float = 0.0  # log-likelihood of the association


def words(text: str) -> list[str]:
    """Lower-case words of a text, French elisions kept as their own word (``d'``)."""
    return [w.replace("’", "'") for w in _WORD.findall(text.casefold())]


@lru_cache(maxsize=1 << 16)
def _spans(text: str) -> list[tuple[str, int, int]]:
    """The words of a text with their offsets (remembered: a unit is labelled for each keyword
    its lines name). Callers only read the list."""
    return [
        (m.group().casefold().replace("’", "'"), m.start(), m.end()) for m in _WORD.finditer(text)
    ]


def _parts(line: str) -> tuple[str, str]:
    """(body, reminder) of a line: outside and inside its parentheses."""
    reminder = " ".join(m.group()[1:-1] for m in _REMINDER.finditer(line))
    return _REMINDER.sub(" ", line), reminder


def aligned_lines(english: str, translated: str) -> list[tuple[str, str]] | None:
    """Pairs (English line, translated line), or None when faces or lines do not correspond."""
    en_faces, tr_faces = english.split(" // "), translated.split(" // ")
    if len(en_faces) != len(tr_faces):
        return None
    pairs: list[tuple[str, str]] = []
    for en_face, tr_face in zip(en_faces, tr_faces, strict=True):
        en_lines, tr_lines = en_face.split("\n"), tr_face.split("\n")
        if len(en_lines) != len(tr_lines):
            return None
        pairs.extend(zip(en_lines, tr_lines, strict=True))
    return pairs


def g2(a: int, b: int, c: int, d: int) -> float:
    """Dunning's log-likelihood ratio of a 2x2 table (a: with both, b, c, d), signed."""
    n = a + b + c + d
    if not n:
        return 0.0
    total = 0.0
    for observed, row, col in (
        (a, a + b, a + c),
        (b, a + b, b + d),
        (c, c + d, a + c),
        (d, c + d, b + d),
    ):
        if observed:
            total += observed * math.log(observed * n / (row * col))
    sign = 1.0 if a * d >= b * c else -1.0
    return sign * 2 * total


_EN_WORD = re.compile(r"[a-z]+")
_INFLECTIONS = ("s", "es", "ed", "d", "ing")
_DASH = re.compile(r"\s*—\s*|\s+[-–]\s+")


def normal_name(keyword: str) -> str:
    """A keyword as the matcher names it: lower-case English words ("council s dilemma")."""
    return " ".join(_EN_WORD.findall(keyword.casefold()))


class KeywordMatcher:
    """Finds the keywords an English text names: longest name first, actions inflected."""

    def __init__(self, names: Iterable[str], actions: Iterable[str]) -> None:
        canonical = {" ".join(_EN_WORD.findall(n.casefold())) for n in names} - {""}
        self.forms = {name: name for name in canonical}
        for action in {" ".join(_EN_WORD.findall(n.casefold())) for n in actions} & canonical:
            for suffix in _INFLECTIONS:
                self.forms.setdefault(action + suffix, action)
        self.lengths: dict[str, list[int]] = defaultdict(list)
        for form in self.forms:
            parts = form.split()
            if len(parts) not in self.lengths[parts[0]]:
                self.lengths[parts[0]].append(len(parts))
        for sizes in self.lengths.values():
            sizes.sort(reverse=True)
        self._seen: dict[str, dict[str, float]] = {}

    def mentions(self, text: str) -> dict[str, float]:
        """{keyword name (lower case): relative position of its first mention}; remembered."""
        known = self._seen.get(text)
        if known is not None:
            return known
        tokens = _EN_WORD.findall(text.casefold())
        found: dict[str, float] = {}
        i = 0
        while i < len(tokens):
            step = 1
            for n in self.lengths.get(tokens[i], ()):
                name = self.forms.get(" ".join(tokens[i : i + n]))
                if name is not None:
                    found.setdefault(name, i / len(tokens))
                    step = n
                    break
            i += step
        self._seen[text] = found
        return found


@dataclass
class _Unit:
    card: int
    text: str
    grams: Set[tuple[str, ...]]
    mentions: dict[str, float]  # keyword -> relative position in the English text


_CLAUSE = re.compile(r"[.,;:!?¡¿«»\"“”()\[\]•]+")


def _grams(text: str, stop: set[str]) -> set[tuple[str, ...]]:
    """The n-grams of a text, never across punctuation (a term is never split by a comma)."""
    found: set[tuple[str, ...]] = set()
    for clause in _CLAUSE.split(text):
        tokens = words(clause)
        ok = [t not in stop and len(t) > 1 for t in tokens]
        size = len(tokens)
        for i in range(size):
            if ok[i]:
                for j in range(i + 1, min(i + MAX_N, size) + 1):
                    if ok[j - 1]:
                        found.add(tuple(tokens[i:j]))
    return found


def _segments(english: str, translated: str) -> list[tuple[str, str]]:
    """Split a line pair at em dashes (ability words, costs) when both sides agree."""
    en, tr = _DASH.split(english), _DASH.split(translated)
    if len(en) == len(tr):
        return list(zip(en, tr, strict=True))
    return [(english, translated)]


class _Corpus:
    """The units of one language: translated line parts and reminders, indexed by mention."""

    def __init__(self, cards: Sequence[CardText], language: str, matcher: KeywordMatcher):
        self.cards = cards
        self.stop = FUNCTION_WORDS.get(language, set())
        self.units: dict[str, list[_Unit]] = {"bodies": [], "reminders": []}
        self.by_mention: dict[str, dict[str, list[_Unit]]] = {
            "bodies": defaultdict(list),
            "reminders": defaultdict(list),
        }
        self.keywords = [frozenset(k.casefold() for k in card.keywords) for card in cards]
        self.unaligned: list[int] = []
        # Many line parts repeat (reminder texts, lone keywords): their n-grams are made once.
        self._grams: dict[str, frozenset[tuple[str, ...]]] = {}
        for index, card in enumerate(cards):
            pairs = aligned_lines(card.english, card.translated)
            if pairs is None:
                self.unaligned.append(index)
                continue
            for en_line, tr_line in pairs:
                en_body, en_reminder = _parts(en_line)
                tr_body, tr_reminder = _parts(tr_line)
                for en_part, tr_part in _segments(en_body, tr_body):
                    self._add("bodies", index, tr_part, matcher.mentions(en_part))
                if en_reminder and tr_reminder:
                    self._add("reminders", index, tr_reminder, matcher.mentions(en_reminder))

    def grams(self, text: str) -> frozenset[tuple[str, ...]]:
        """The n-grams of a translated text (:func:`_grams`), made once per distinct text."""
        found = self._grams.get(text)
        if found is None:
            found = self._grams[text] = frozenset(_grams(text, self.stop))
        return found

    def _add(self, kind: str, card: int, text: str, mentions: dict[str, float]) -> None:
        unit = _Unit(card, text, self.grams(text), mentions)
        self.units[kind].append(unit)
        for mention in mentions:
            self.by_mention[kind][mention].append(unit)

    def whole_cards(self) -> list[_Unit]:
        """One unit per card (all its translated line bodies): for keywords no line names."""
        grams: dict[int, set[tuple[str, ...]]] = defaultdict(set)
        for unit in self.units["bodies"]:
            grams[unit.card] |= unit.grams
        for index in self.unaligned:
            for line in self.cards[index].translated.replace(" // ", "\n").split("\n"):
                grams[index] |= self.grams(_parts(line)[0])
        return [
            _Unit(index, self.cards[index].translated, grams[index], {})
            for index in range(len(self.cards))
        ]


def _score(
    total: int,
    positive: list[_Unit],
    ambiguous: list[_Unit],
    frequency: Counter[tuple[str, ...]],
) -> list[Candidate]:
    """Candidates of a keyword's positive units against all other units, best first."""
    with_k: Counter[tuple[str, ...]] = Counter()
    cards: dict[tuple[str, ...], set[int]] = defaultdict(set)
    for unit in positive:
        for gram in unit.grams:
            with_k[gram] += 1
            cards[gram].add(unit.card)
    in_ambiguous: Counter[tuple[str, ...]] = Counter()
    for unit in ambiguous:
        in_ambiguous.update(unit.grams & with_k.keys())
    total -= len(ambiguous)
    p = len(positive)
    found = []
    for gram, a in with_k.items():
        if len(cards[gram]) < MIN_CARDS:
            continue
        c = max(frequency[gram] - a - in_ambiguous[gram], 0)
        score = g2(a, p - a, c, total - p - c)
        if score <= 0:
            continue
        found.append(Candidate(gram, len(cards[gram]), a, score, a / p, a / (a + c)))
    found.sort(key=lambda cand: (-cand.g2, -len(cand.words), cand.words))
    return found


def _frequency(units: Iterable[_Unit], wanted: set[tuple[str, ...]]) -> Counter[tuple[str, ...]]:
    counts: Counter[tuple[str, ...]] = Counter()
    for unit in units:
        counts.update(unit.grams & wanted)
    return counts


def _split(
    units: Iterable[_Unit], keywords: list[frozenset[str]], keyword: str, carried: bool
) -> tuple[list[_Unit], list[_Unit]]:
    positive, ambiguous = [], []
    for unit in units:
        if not carried or keyword in keywords[unit.card]:
            positive.append(unit)
        else:
            ambiguous.append(unit)
    return positive, ambiguous


_SYMBOL = re.compile(r"\{[^}]*\}")
_LETTER = re.compile(r"[^\W\d_]")


def _opens(before: str) -> bool:
    """Whether a word after this text opens a sentence (so its capital says nothing)."""
    before = before.rstrip()
    return not _LETTER.search(_SYMBOL.sub("", before)) or before.endswith(
        (".", ":", "—", "!", "?", ";", "•")
    )


def _label(gram: tuple[str, ...], units: Iterable[_Unit]) -> str:
    """The n-gram as printed: its most common mid-sentence spelling, else lower-cased."""
    inside: Counter[str] = Counter()
    opening: Counter[str] = Counter()
    n = len(gram)
    for unit in units:
        spans = _spans(unit.text)
        tokens = [s[0] for s in spans]
        for i in range(len(tokens) - n + 1):
            if tuple(tokens[i : i + n]) == gram:
                surface = " ".join(unit.text[spans[i][1] : spans[i + n - 1][2]].split())
                (opening if _opens(unit.text[: spans[i][1]]) else inside)[surface] += 1
    if inside:
        return min(inside, key=lambda s: (-inside[s], s))
    if opening:
        best = min(opening, key=lambda s: (-opening[s], s))
        return best[:1].lower() + best[1:]
    return " ".join(gram)


def _contains(longer: tuple[str, ...], shorter: tuple[str, ...]) -> int | None:
    """Where ``shorter`` sits inside ``longer`` (None when it does not)."""
    n = len(shorter)
    for i in range(len(longer) - n + 1):
        if longer[i : i + n] == shorter:
            return i
    return None


def _extend(best: Candidate, candidates: list[Candidate], units: Sequence[_Unit]) -> Candidate:
    """Prefer a longer n-gram that holds most of the best one's units.

    Words before the best n-gram belong to the name when they come with at least half of its
    units and make it more specific ("daña primero" beside "dañar primero" over "primero"); words
    after it usually are the keyword's argument ("enchanter créature"), so they need nine tenths
    of its units ("contact mortel"). An n-gram printed with a capital inside runs into the next
    sentence (:func:`_runs_on`) and is no name.
    """
    while True:
        longer = []
        for cand in candidates:
            if len(cand.words) <= len(best.words) or cand.precision < 0.9 * best.precision:
                continue
            at = _contains(cand.words, best.words)
            if at is None:
                continue
            if (
                cand.units >= 0.9 * best.units
                or (
                    at > 0  # words before: more specific, with half the units at least
                    and cand.units >= 0.5 * best.units
                    and cand.precision >= best.precision + 0.02
                )
            ) and not _runs_on(cand.words, units):
                longer.append(cand)
        if not longer:
            return best
        best = min(longer, key=lambda c: (-c.units, -c.g2, c.words))


def _runs_on(gram: tuple[str, ...], units: Iterable[_Unit]) -> bool:
    """Whether an n-gram, as printed, has a word after its first that opens with a capital.

    The older printings of an ability word lost their dash in MTGJSON's foreign texts
    ("Hermandad Al comienzo de tu mantenimiento", "Grandeza Descartar otra carta llamada"): every
    n-gram from the ability word into the sentence after it is printed on all of the keyword's
    cards, and the longest one looked like the name. Keyword names are printed in lower case
    after their first word ("ciclo de tierras básicas", "traversée des forêts").
    """
    printed = _label(gram, [u for u in units if gram in u.grams])
    return any(word[:1].isupper() for word in printed.split()[1:])


def _distortion(gram: tuple[str, ...], units: Iterable[_Unit], keyword: str) -> float:
    """Mean distance between the gram's relative position and the English keyword's."""
    total, count = 0.0, 0
    n = len(gram)
    for unit in units:
        if gram not in unit.grams or keyword not in unit.mentions:
            continue
        tokens = words(unit.text)
        for i in range(len(tokens) - n + 1):
            if tuple(tokens[i : i + n]) == gram:
                total += abs(i / len(tokens) - unit.mentions[keyword])
                count += 1
                break
    return total / count if count else 1.0


def _placement(
    gram: tuple[str, ...], key: str, split: dict[str, tuple[list[_Unit], list[_Unit]]]
) -> float:
    """How far from the keyword's English position the gram sits, over its positive lines."""
    units = split.get("bodies", ([], []))[0] or split.get("reminders", ([], []))[0]
    return round(_distortion(gram, units, key), 2)


def _untie(candidates: list[Candidate], units: list[_Unit], keyword: str) -> Candidate:
    """Among candidates scoring alike, the one printed where the English names the keyword."""
    best = candidates[0]
    tied = [c for c in candidates[:10] if c.g2 >= best.g2 * 0.999 and c.units == best.units]
    if len(tied) == 1:
        return best
    return min(tied, key=lambda c: (_distortion(c.words, units, keyword), len(c.words), c.words))


def _dates(corpus: _Corpus, gram: tuple[str, ...], units: Iterable[_Unit]) -> list[str]:
    return sorted(
        {corpus.cards[u.card].date for u in units if gram in u.grams and corpus.cards[u.card].date}
    )


def _newest(corpus: _Corpus, gram: tuple[str, ...], units: Iterable[_Unit]) -> str:
    """The first-printing date of the newest card printing the gram for the keyword."""
    dates = _dates(corpus, gram, units)
    return dates[-1] if dates else ""


def _oldest(corpus: _Corpus, gram: tuple[str, ...], units: Iterable[_Unit]) -> str:
    dates = _dates(corpus, gram, units)
    return dates[0] if dates else ""


def _current(
    corpus: _Corpus, best: Candidate, candidates: list[Candidate], positive: list[_Unit]
) -> Candidate | None:
    """A competing name the keyword's recent cards print more than the best one, if any.

    Recent: first printed in the last ``RECENT_YEARS`` years of the keyword's dated cards. The
    name must be printed (almost) only with the keyword, like a term, on at least ``MIN_CARDS``
    recent cards and on most of them, and must not be a part or an extension of the best one.
    """
    dated = [u for u in positive if corpus.cards[u.card].date]
    if not dated:
        return None
    newest = max(corpus.cards[u.card].date for u in dated)
    since = f"{int(newest[:4]) - RECENT_YEARS:04d}{newest[4:]}"
    recent = [u for u in dated if corpus.cards[u.card].date > since]
    recent_cards = {u.card for u in recent}

    usable = [
        c
        for c in candidates[:200]
        if c.precision >= 0.8
        and c.cards >= MIN_CARDS
        and _contains(c.words, best.words) is None
        and _contains(best.words, c.words) is None
    ]

    holders: dict[tuple[str, ...], set[int]] = {}

    def support(family: list[tuple[str, ...]]) -> int:
        """How many recent cards print one of the names (each name's cards found once)."""
        cards: set[int] = set()
        for words in family:
            found = holders.get(words)
            if found is None:
                found = holders[words] = {u.card for u in recent if words in u.grams}
            cards |= found
        return len(cards)

    floor = max(support([best.words]), MIN_CARDS - 1, len(recent_cards) // 2)
    found = None
    for cand in usable:
        # A verb's forms count together: "meule", "meulez", "meuler" are one name.
        family = [c.words for c in usable if _inflected(c.words, cand.words)]
        count = support(family)
        if count > floor or (count == floor and found is not None and cand.cards > found.cards):
            found, floor = cand, count
    return found


def _inflected(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two n-grams differ only in their last word's ending (``meule``/``meulez``)."""
    if len(a) != len(b) or a[:-1] != b[:-1]:
        return False
    x, y = a[-1], b[-1]
    stem = 0
    while stem < min(len(x), len(y)) and x[stem] == y[stem]:
        stem += 1
    return stem >= 4 and max(len(x), len(y)) - stem <= 3


def learn(
    cards: Sequence[CardText],
    language: str,
    keywords: dict[str, bool],
    actions: Iterable[str] = (),
    matcher: KeywordMatcher | None = None,
) -> list[LearnedTerm]:
    """Learn each keyword's term in a language; ``keywords`` maps a name to whether cards carry it.

    A keyword carried by MTGJSON ``keywords`` counts only on cards that carry it; a rule title
    that no card lists (``Destroy``, ``Sacrifice``) counts wherever the English names it.
    ``actions`` (keyword actions, 701.x) may be named inflected (``mills``, ``goaded``); a
    ``matcher`` shared between languages reads each English text once.
    """
    matcher = matcher or KeywordMatcher(keywords, actions)
    names = {" ".join(_EN_WORD.findall(k.casefold())): k for k in keywords}
    names.pop("", None)
    carried = {" ".join(_EN_WORD.findall(k.casefold())) for k, flag in keywords.items() if flag}
    corpus = _Corpus(cards, language, matcher)
    splits: dict[str, dict[str, tuple[list[_Unit], list[_Unit]]]] = {}
    wanted: dict[str, set[tuple[str, ...]]] = {"bodies": set(), "reminders": set(), "whole": set()}
    fallback = []
    for key in sorted(names):
        splits[key] = {}
        for kind in ("bodies", "reminders"):
            split = _split(
                corpus.by_mention[kind].get(key, []), corpus.keywords, key, key in carried
            )
            splits[key][kind] = split
            if len({u.card for u in split[0]}) >= MIN_CARDS:
                for unit in split[0]:
                    wanted[kind] |= unit.grams
        if key in carried and len({u.card for u in splits[key]["bodies"][0]}) < MIN_CARDS:
            fallback.append(key)
    units: dict[str, list[_Unit]] = dict(corpus.units)
    if fallback:
        units["whole"] = corpus.whole_cards()
        for key in fallback:
            holders = [u for u in units["whole"] if key in corpus.keywords[u.card]]
            splits[key]["whole"] = (holders, [])
            if len(holders) >= MIN_CARDS:
                for unit in holders:
                    wanted["whole"] |= unit.grams
    frequency = {kind: _frequency(units[kind], grams) for kind, grams in wanted.items() if grams}
    results: dict[str, dict[str, list[Candidate]]] = {}
    for key in sorted(names):
        results[key] = {}
        for kind, (positive, ambiguous) in splits[key].items():
            if len({u.card for u in positive}) >= MIN_CARDS and kind in frequency:
                results[key][kind] = _score(len(units[kind]), positive, ambiguous, frequency[kind])
    chosen = {key: _term(corpus, names[key], language, splits[key], results[key]) for key in names}
    # Competitive linking (Melamed 2000): one term names one keyword. When two keywords pick
    # the same n-gram ("then shuffle" closes every "search" line), the stronger association
    # keeps it and the other takes its next candidate.
    for _ in range(5):
        holders: dict[str, list[str]] = defaultdict(list)
        for key, term in chosen.items():
            if term is not None:
                holders[term.term].append(key)
        changed = False
        for keys in holders.values():
            if len(keys) < 2:
                continue
            taken = tuple(chosen[keys[0]].term.split())  # type: ignore[union-attr]
            # The keyword named where the term is printed keeps it, then the stronger one;
            # a keyword sharing an English word with it ("Hexproof from") may share it too.
            keys.sort(key=lambda k: (_placement(taken, k, splits[k]), -chosen[k].g2, k))  # type: ignore[union-attr]
            winner = set(keys[0].split())
            for key in keys[1:]:
                if winner & set(key.split()):
                    continue
                for kind in results[key]:
                    results[key][kind] = [c for c in results[key][kind] if c.words != taken]
                chosen[key] = _term(corpus, names[key], language, splits[key], results[key])
                changed = True
        if not changed:
            break
    return [chosen[key] for key in sorted(chosen) if chosen[key] is not None]  # type: ignore[misc]


def _term(
    corpus: _Corpus,
    name: str,
    language: str,
    split: dict[str, tuple[list[_Unit], list[_Unit]]],
    results: dict[str, list[Candidate]],
) -> LearnedTerm | None:
    source = next((kind for kind in ("bodies", "reminders", "whole") if results.get(kind)), None)
    if source is None:
        return None
    candidates = results[source]
    positive = split[source][0]
    keyword = " ".join(_EN_WORD.findall(name.casefold()))
    best = _extend(_untie(candidates, positive, keyword), candidates, positive)
    older = None
    current = _current(corpus, best, candidates, positive)
    if current is not None:
        older, best = best, _extend(current, candidates, positive)
    holding = [u for u in positive if best.words in u.grams]
    examples: list[tuple[str, str]] = []
    for unit in sorted(holding, key=lambda u: (len(u.text), corpus.cards[u.card].name)):
        card = corpus.cards[unit.card]
        if (card.name, card.translated_name) not in examples:
            examples.append((card.name, card.translated_name))
        if len(examples) == 2:
            break
    alternatives: list[dict[str, object]] = []
    shown = [best.words]
    if older is not None:
        shown.append(older.words)
        alternatives.append(
            {
                "term": " ".join(older.words),
                "cards": older.cards,
                "confidence": round(older.confidence, 3),
                "precision": round(older.precision, 3),
                "older": True,
                "last": _newest(corpus, older.words, positive),
                "current_since": _oldest(corpus, best.words, positive),
            }
        )
    with_best = {id(u) for u in holding}
    for cand in candidates[:50]:
        if len(alternatives) == 3:
            break
        if any(
            _contains(cand.words, w) is not None or _contains(w, cand.words) is not None
            for w in shown
        ):
            continue
        # A competing name is printed (almost) only where the keyword is, like the term, and
        # mostly on lines without the term: an older or newer name ("dañar primero"), not the
        # words around it ("comparte un tipo" beside "hermandad").
        if cand.precision < 0.8 or cand.cards < MIN_CARDS:
            continue
        units = [u for u in positive if cand.words in u.grams]
        apart = sum(1 for u in units if id(u) not in with_best) / max(len(units), 1)
        if apart >= 0.7:
            shown.append(cand.words)
            alternatives.append(
                {
                    "term": " ".join(cand.words),
                    "cards": cand.cards,
                    "confidence": round(cand.confidence, 3),
                    "precision": round(cand.precision, 3),
                }
            )
    reminder_cards = 0
    if source == "bodies" and split["reminders"][0]:
        reminder_cards = len({u.card for u in split["reminders"][0] if best.words in u.grams})
    return LearnedTerm(
        keyword=name,
        language=language,
        term=" ".join(best.words),
        label=_label(best.words, holding),
        cards=best.cards,
        keyword_cards=len({u.card for u in positive}),
        confidence=round(best.confidence, 3),
        source={"bodies": "lines", "reminders": "reminders", "whole": "cards"}[source],
        examples=examples,
        reminder_cards=reminder_cards,
        alternatives=alternatives,
        g2=round(best.g2, 1),
    )

"""AnCast 0.1.1's anchor-broadcast alignment, reproduced step by step (``--ancast-compat``).

1. *Text anchors*: nodes with the same name that occurs once in each graph
   and in the (lowercased) sentence text.
2. *Broadcast* (at most 5 rounds): a structural similarity is propagated from
   the anchors over one- and two-hop neighbourhoods (predicate->argument and
   back), normalized, and combined with the intrinsic similarity as
   ``round((S + 0.001) * (initial + 0.2), 4)``; pairs that are each other's
   unique best (ties broken by the Jaccard overlap of role names, where a
   winner at index 0 is lost) become anchors.  Anchors of earlier rounds that
   are no longer mutual bests are dropped (their concept sums stay counted).
3. *Greedy finish*: among the unmatched nodes, each side picks its best (ties:
   Jaccard of role names, then the lower index) and mutual picks are matched,
   round after round.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import numpy as np

from mrp.errors import ScoreError
from mrp.metrics.ancast.alignment import Alignment, Side
from mrp.metrics.ancast.reading import View
from mrp.metrics.ancast.similarity import Similarity, unique_names

#: Broadcast rounds at most, and the propagation's iterations, tolerance and constants.
ROUNDS = 5
ITERATIONS = 50
TOLERANCE = 1e-4
ALPHA = 0.2
BETA = 1e-3


def _jaccard(one: frozenset, two: frozenset) -> float:
    union = len(one | two)
    return len(one & two) / union if union else 0.0


def _neighbours(out: np.ndarray) -> np.ndarray:
    """One- and two-hop neighbours (0/1), without the node itself."""
    n = out.shape[0]
    mask = np.ones(out.shape) - np.eye(n)
    hops = (np.matmul(out, out) + out) * mask
    hops[hops > 1] = 1
    return hops


def _hops(out: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """AnCast's ``--separate-1-and-2`` neighbourhoods: the one-hop matrix as it is and the two-hop one
    without the node itself, counted (AnCast caps the wrong matrix at 1, so paths are counted)."""
    n = out.shape[0]
    return out, np.matmul(out, out) * (np.ones(out.shape) - np.eye(n))


def _factor(one: np.ndarray, two: np.ndarray) -> np.ndarray:
    """max/min of the neighbour counts of a node pair, inf when either has none."""
    s_one = one.sum(axis=1)[:, np.newaxis]
    s_two = two.sum(axis=1)[np.newaxis, :]
    low = np.minimum(s_one, s_two)
    low[low == 0] = np.inf
    factor = np.maximum(s_one, s_two) / low
    factor[factor == 0] = np.inf
    return factor


class _Broadcast:
    """The structural part: neighbourhood matrices of both graphs."""

    def __init__(self, test: View, gold: View, initial: np.ndarray, cneighbor: float = 1,
                 separate: bool = False) -> None:
        out_t, out_g = test.out_matrix(), gold.out_matrix()
        self.initial = initial
        self.cneighbor = cneighbor
        #: with ``separate`` (AnCast's --separate-1-and-2): one- and two-hop neighbourhoods apart, unscaled
        self.separate: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        if separate:
            for one, two in ((out_t, out_g), (out_t.T.copy(), out_g.T.copy())):
                (one_1, one_2), (two_1, two_2) = _hops(one), _hops(two)
                self.separate.append((one_1, two_1, one_2, two_2))
            return
        self.out_t, self.out_g = _neighbours(out_t), _neighbours(out_g)
        self.in_t, self.in_g = _neighbours(out_t.T.copy()), _neighbours(out_g.T.copy())
        self.c_out = _factor(self.out_t, self.out_g)
        self.c_in = _factor(self.in_t, self.in_g)

    def final(self, anchors: np.ndarray) -> np.ndarray:
        """The final similarity given anchors: propagated structure times intrinsic similarity, rounded."""
        current = anchors.copy()
        for _ in range(ITERATIONS):
            previous = current.copy()
            if self.separate:
                s_out, s_in = ((t1 @ previous) @ g1.T + (t2 @ previous) @ g2.T
                               for t1, g1, t2, g2 in self.separate)
            else:
                s_out = (self.out_t @ previous) @ self.out_g.T / self.c_out
                s_in = (self.in_t @ previous) @ self.in_g.T / self.c_in
            current = np.sqrt((s_out + 1) * (s_in + 1) - 1)
            top = np.amax(current)
            if top > 0:
                current = current / top
            if self.cneighbor != 1:
                current = current * self.cneighbor
            current = np.maximum(current, anchors)
            if np.allclose(previous, current, atol=TOLERANCE):
                break
        return np.around((current + BETA) * (self.initial + ALPHA), decimals=4)


def _tie(candidates: np.ndarray, mine: frozenset, theirs: List[frozenset]) -> Tuple[Optional[int], int]:
    """Among tied candidates: the unique best Jaccard overlap of role names (or None), and the first best."""
    overlaps = np.array([_jaccard(mine, theirs[int(k)]) for k in candidates])
    best = overlaps.max()
    winners = np.flatnonzero(overlaps == best)
    first = int(candidates[winners[0]])
    return (first if len(winners) == 1 else None), first


def _mutual_bests(final: np.ndarray, test: View, gold: View) -> np.ndarray:
    """Anchors of the next round: pairs that are each other's best (AnCast loses a tie won by index 0)."""
    anchors = np.zeros(final.shape)
    picks: Set[Tuple[int, int]] = set()
    for i in range(final.shape[0]):
        row = final[i]
        maxima = np.flatnonzero(row == row.max())
        if len(maxima) == 1:
            picks.add((i, int(maxima[0])))
        else:
            winner, _ = _tie(maxima, test.roles[i], gold.roles)
            if winner:  # AnCast tests the index for truth: a winner at 0 counts as none
                picks.add((i, winner))
    for j in range(final.shape[1]):
        column = final[:, j]
        maxima = np.flatnonzero(column == column.max())
        if len(maxima) == 1:
            winner = int(maxima[0])
        else:
            found, _ = _tie(maxima, gold.roles[j], test.roles)
            if not found:
                continue
            winner = found
        if (winner, j) in picks:
            anchors[winner, j] = 1
    return anchors


def _alignment_anchors(test: View, gold: View) -> np.ndarray:
    """AnCast's --use-alignment anchors: nodes whose alignments start with the same token span (0-0, and
    every node at sentence scope, where AnCast reads no alignment, anchor nothing)."""
    anchors = np.zeros((len(test), len(gold)))
    spans_t, spans_g = test.spans or [(0, 0)] * len(test), gold.spans or [(0, 0)] * len(gold)
    where: Dict[Tuple[int, int], List[int]] = {}
    for j, span in enumerate(spans_g):
        if span[0] != 0:
            where.setdefault(span, []).append(j)
    for i, span in enumerate(spans_t):
        for j in where.get(span, []) if span[0] != 0 else []:
            anchors[i, j] = 1
    return anchors


def _text_anchors(test: View, gold: View) -> np.ndarray:
    anchors = np.zeros((len(test), len(gold)))
    text_t, text_g = test.text.lower(), gold.text.lower()
    unique_t, unique_g = unique_names(test), unique_names(gold)
    where: Dict[str, int] = {name: j for j, name in enumerate(gold.names) if unique_g[j]}
    for i, name in enumerate(test.names):
        j = where.get(name)
        if j is not None and unique_t[i] and name in text_t and name in text_g:
            anchors[i, j] = 1
    return anchors


class _Matcher:
    """The growing alignment with AnCast's bookkeeping of concept sums (logged when a match is made)."""

    def __init__(self, sim: Similarity, n: int, m: int) -> None:
        self.sim = sim
        self.t2g: Dict[int, int] = {}
        self.g2t: Dict[int, int] = {}
        self.quality_t: Dict[int, int] = {}
        self.quality_g: Dict[int, int] = {}
        self.precision, self.recall = Side(), Side()
        self.n, self.m = n, m

    def _log(self, side: Side, value: float, identical: float) -> None:
        side.concept += value
        side.identical += identical
        side.count += 1

    def add(self, i: int, j: int, quality: int) -> None:
        value, identical = float(self.sim.initial[i, j]), float(self.sim.identical[i, j])
        if i not in self.t2g:
            self.t2g[i], self.quality_t[i] = j, quality
            self._log(self.precision, value, identical)
        if j not in self.g2t:
            self.g2t[j], self.quality_g[j] = i, quality
            self._log(self.recall, value, identical)

    def drop(self, i: int, j: int) -> None:
        del self.t2g[i], self.g2t[j], self.quality_t[i], self.quality_g[j]

    def result(self) -> Alignment:
        t2g = [self.t2g.get(i, -1) for i in range(self.n)]
        g2t = [self.g2t.get(j, -1) for j in range(self.m)]
        return Alignment(t2g, g2t, [self.quality_t.get(i, -2) for i in range(self.n)],
                         [self.quality_g.get(j, -2) for j in range(self.m)], self.precision, self.recall)


def _greedy(final: np.ndarray, test: View, gold: View, matcher: _Matcher) -> None:
    """Round after round, match the unmatched pairs that pick each other; the rest stay unmatched."""
    rows = [i for i in range(len(test)) if i not in matcher.t2g]
    columns = [j for j in range(len(gold)) if j not in matcher.g2t]
    while rows and columns:
        sub = final[np.ix_(rows, columns)]
        pick_t: Dict[int, int] = {}
        for r, i in enumerate(rows):
            maxima = np.flatnonzero(sub[r] == sub[r].max())
            if len(maxima) == 1:
                pick_t[i] = columns[int(maxima[0])]
            else:
                pick_t[i] = columns[_tie(maxima, test.roles[i], [gold.roles[j] for j in columns])[1]]
        pick_g: Dict[int, int] = {}
        for c, j in enumerate(columns):
            maxima = np.flatnonzero(sub[:, c] == sub[:, c].max())
            if len(maxima) == 1:
                pick_g[j] = rows[int(maxima[0])]
            else:
                pick_g[j] = rows[_tie(maxima, gold.roles[j], [test.roles[i] for i in rows])[1]]
        matched = [(i, j) for i, j in pick_t.items() if pick_g.get(j) == i]
        if not matched:
            raise ScoreError("AnCast's greedy matching makes no progress")
        for i, j in matched:
            matcher.add(i, j, -1)
        rows = [i for i in rows if i not in matcher.t2g]
        columns = [j for j in columns if j not in matcher.g2t]
    for _ in rows:
        matcher._log(matcher.precision, 0.0, 0.0)
    for _ in columns:
        matcher._log(matcher.recall, 0.0, 0.0)


def align(test: View, gold: View, sim: Similarity, cneighbor: float = 1, separate: bool = False) -> Alignment:
    """AnCast 0.1.1's alignment of a test and a gold graph, with its concept sums (``cneighbor``: AnCast's
    factor of the broadcast similarity; ``separate``: its --separate-1-and-2)."""
    n, m = len(test), len(gold)
    matcher = _Matcher(sim, n, m)
    if n == 0 or m == 0:
        matcher.precision.count, matcher.recall.count = n, m
        return matcher.result()
    broadcast = _Broadcast(test, gold, sim.initial, cneighbor, separate)
    anchors = _alignment_anchors(test, gold) if test.spans is not None else _text_anchors(test, gold)
    for i, j in zip(*np.nonzero(anchors)):
        matcher.add(int(i), int(j), 0)
    final = anchors
    for level in range(1, ROUNDS + 1):
        old = anchors
        final = broadcast.final(old)
        anchors = _mutual_bests(final, test, gold)
        change = anchors - old
        for i, j in zip(*np.nonzero(change < 0)):
            matcher.drop(int(i), int(j))
        if not np.any(change > 0):
            break
        for i, j in zip(*np.nonzero(anchors > 0)):
            matcher.add(int(i), int(j), level)
    _greedy(final, test, gold, matcher)
    return matcher.result()

"""A correspondence of two large graphs in linear time: nodes matched by what they carry and by their
neighbourhood, then grown along edges.

For pairs whose node-pair arrays would not fit the pair's memory cap (:func:`fits`, ``--max-memory``)
this is the answer (with a trivial bound), and for large pairs the search does not finish it is the answer
when the search's own map is worse.  No n x m structure is built: memory is linear in the graphs' size
(:data:`BYTES_PER_NODE`).

1. Each node gets its *own* key (label, properties, anchors) and a *signature*: its own key, whether it
   is a top, and the multiset of (direction, edge label, neighbour's label) of its edges (a 64-bit hash of
   it: a sum of a fixed mixing function's values, no sorting).  A signature held by exactly one gold and
   one system node matches them (the seeds).
2. From each matched pair, the unmatched neighbours are matched along edges of the same label and
   direction: first those with the same signature, then those with the same own key, then, when exactly
   one gold and one system neighbour are left under an edge label, those two (a relabelled node).  Each
   new pair is grown in turn (a queue: each edge is looked at a bounded number of times).
3. What is left is matched by signature, then by own key, in order, and grown again.

Everything is coded as integers first (labels and own keys interned in order of first appearance, gold
before system), so the map depends on neither the clock nor hash seeds.  With a ``deadline`` (a
:func:`mrp.solver.watchdog.clock` time) every phase stops when it passes, and the map made so far (an
injective partial map, valid as any) is returned.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable, Deque, Dict, Hashable, List, Optional, Tuple

import numpy as np

from mrp.normalize import NormalGraph
from mrp.solver import DEFAULT_MAX_MEMORY
from mrp.solver.watchdog import clock

__all__ = ["BYTES_PER_CELL", "BYTES_PER_NODE", "DEFAULT_MAX_MEMORY", "Stopped", "correspondence", "fits",
           "need", "within"]

#: the solver's memory per node pair (gold nodes x system nodes) while searching, bytes: its n x m arrays
#: (measured: a 20,000-node pair took 6.9 GB before they were refused, a 2,000-node pair 300 MB)
BYTES_PER_CELL = 75
#: the linear path's memory per node of a graph (a pair of two such graphs), bytes, for the whole mrp-score
#: process above its base of about 170 MB: reading, normalizing, this module's arrays and counting
#: (measured: 566 MB peak for the generator's 100,000-node pair, 167 MB for its 100-node pair; ``make
#: bench``, "big pairs"); the figure the documentation states, nothing is capped by it
BYTES_PER_NODE = 4_000
# (``--max-memory`` unless told otherwise, :data:`DEFAULT_MAX_MEMORY`, is 2 GB: 26 million node pairs at
# :data:`BYTES_PER_CELL`, about 5,100 x 5,100 nodes)

#: a pair above this many node pairs that the search leaves open keeps the better of its map and this one
START_CELLS = 250_000


def need(n: int, m: int, bytes_per_cell: int = BYTES_PER_CELL) -> int:
    """Bytes a pair's node-pair structures take, estimated before anything is allocated.

    Args:
        n: the gold graph's nodes.
        m: the system graph's nodes.
        bytes_per_cell: their cost per node pair (:data:`BYTES_PER_CELL`, the solver's arrays; a metric
            that builds more per node pair passes its own measured cost).

    Returns:
        ``bytes_per_cell * n * m``.
    """
    return bytes_per_cell * n * m


def fits(n: int, m: int, max_memory: Optional[int], bytes_per_cell: int = BYTES_PER_CELL) -> bool:
    """Whether a pair's node-pair structures may be built under the cap (``--max-memory``).

    Args:
        n: the gold graph's nodes.
        m: the system graph's nodes.
        max_memory: the cap in bytes (None: no cap).
        bytes_per_cell: their cost per node pair (see :func:`need`).

    Returns:
        True when :func:`need` is within the cap.
    """
    return within(need(n, m, bytes_per_cell), max_memory)


def within(needed: int, max_memory: Optional[int]) -> bool:
    """Whether ``needed`` bytes are within the cap ``max_memory`` (``--max-memory``; None: no cap): the one
    rule every metric's memory check ends in."""
    return max_memory is None or needed <= max_memory


class Stopped(Exception):
    """The deadline passed (internal)."""


_MASK = (1 << 64) - 1


def _mix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finalizer on uint64 values (wrapping arithmetic): a fixed, well-spread hash."""
    with np.errstate(over="ignore"):
        z = values.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


class _Coded:
    """One graph as integers: own keys, labels, and its half-edges by node (CSR: ``ptr``, ``link``: edge
    label x 2 + direction, ``other``: the neighbour), loops left out."""

    def __init__(self, graph: NormalGraph, owns: Dict[Hashable, int], labels: Dict[Hashable, int],
                 edge_labels: Dict[Hashable, int], check: Callable[[], None]) -> None:
        n = len(graph)
        self.n = n
        self.own = [owns.setdefault(key, len(owns))
                    for key in zip(graph.labels, graph.properties, graph.anchors)]
        self.label = np.asarray([labels.setdefault(label, len(labels)) for label in graph.labels], np.int64)
        self.top = np.fromiter(graph.tops, np.int64, n)
        check()
        keys = list(graph.edges)
        sources = [key[0] for key in keys]  # three passes: faster than zip(*keys)
        targets = [key[1] for key in keys]
        codes = [edge_labels.setdefault(key[2], len(edge_labels)) for key in keys]
        check()
        s = np.asarray(sources, np.int64)
        t = np.asarray(targets, np.int64)
        c = np.asarray(codes, np.int64) * 2
        kept = s != t  # loops left out
        s, t, c = s[kept], t[kept], c[kept]
        node = np.concatenate((s, t))
        self.node = node
        self.half_other = np.concatenate((t, s))
        self.half_link = np.concatenate((c, c + 1))  # +0: outgoing, +1: incoming
        links = int(self.half_link.max()) + 1 if node.size else 1
        if n * links * n < 1 << 62:  # one int64 key: a quarter of lexsort's time
            order = np.argsort((node * links + self.half_link) * n + self.half_other)
        else:
            order = np.lexsort((self.half_other, self.half_link, node))
        self.ptr = np.zeros(n + 1, np.int64)
        np.cumsum(np.bincount(node, minlength=n), out=self.ptr[1:])
        self.links: List[int] = self.half_link[order].tolist()
        self.others: List[int] = self.half_other[order].tolist()
        self.starts: List[int] = self.ptr.tolist()

    def signatures(self, labels: int) -> List[int]:
        """Each node's signature (own key, top, the multiset of (link, neighbour's label)), a 63-bit hash."""
        half = _mix(self.half_link * max(labels, 1) + self.label[self.half_other])
        total = np.zeros(self.n, np.uint64)
        np.add.at(total, self.node, half)
        with np.errstate(over="ignore"):
            own = _mix(np.asarray(self.own, np.int64) * 2 + self.top)
            return (_mix(own ^ total) >> np.uint64(1)).tolist()  # type: ignore[no-any-return]


class _State:
    """The map being grown: gold -> system (-1), its inverse, and the pairs still to grow from."""

    def __init__(self, n: int, m: int, deadline: Optional[float]) -> None:
        self.pi = [-1] * n
        self.used = [False] * m
        self.queue: Deque[Tuple[int, int]] = deque()
        self.deadline = deadline
        self.ticks = 0

    def match(self, i: int, j: int) -> None:
        self.pi[i] = j
        self.used[j] = True
        self.queue.append((i, j))

    def check(self) -> None:
        """Raise :class:`Stopped` when the deadline has passed."""
        if self.deadline is not None and clock() >= self.deadline:
            raise Stopped

    def tick(self) -> None:
        """:meth:`check`, every 1,024th call (a loop's step)."""
        self.ticks += 1
        if not self.ticks & 1023:
            self.check()


def correspondence(gold: NormalGraph, system: NormalGraph, deadline: Optional[float] = None) -> List[int]:
    """A map gold position -> system position (-1: unmatched), injective, in time linear in the graphs'
    nodes and edges (up to sorting the half-edges).

    Args:
        gold: the gold graph, normalized.
        system: the system graph, normalized.
        deadline: a :func:`mrp.solver.watchdog.clock` time at which to stop (see :func:`timed`).

    Returns:
        The map, as a list of ``len(gold)`` system positions or -1.
    """
    return timed(gold, system, deadline)[0]


def timed(gold: NormalGraph, system: NormalGraph, deadline: Optional[float] = None) -> Tuple[List[int], bool]:
    """:func:`correspondence`, and whether the deadline stopped it (then the map is the part made by then:
    still injective, and as valid a map as any)."""
    n, m = len(gold), len(system)
    state = _State(n, m, deadline)
    if not n or not m:
        return state.pi, False
    try:
        state.check()
        _match(state, gold, system)
    except Stopped:
        return state.pi, True
    return state.pi, False


def _match(state: _State, gold: NormalGraph, system: NormalGraph) -> None:
    owns: Dict[Hashable, int] = {}
    labels: Dict[Hashable, int] = {}
    edge_labels: Dict[Hashable, int] = {}
    coded = (_Coded(gold, owns, labels, edge_labels, state.check),
             _Coded(system, owns, labels, edge_labels, state.check))
    state.check()
    signature = (coded[0].signatures(len(labels)), coded[1].signatures(len(labels)))
    own = (coded[0].own, coded[1].own)
    state.check()
    # seeds: a signature held by one gold and one system node, in gold order
    first: Dict[int, int] = {}
    once: Dict[int, int] = {}
    for j, key in enumerate(signature[1]):
        once[key] = -1 if key in once else j
    for i, key in enumerate(signature[0]):
        first[key] = -1 if key in first else i
    state.check()
    for i, key in enumerate(signature[0]):
        if first[key] == i:
            j = once.get(key, -1)
            if j >= 0:
                state.match(i, j)
    _grow(state, own, signature, coded)
    for keys in (signature, own):
        _by_key(state, keys)
        _grow(state, own, signature, coded)


def _by_key(state: _State, keys: Tuple[List[Any], List[Any]]) -> None:
    """The unmatched nodes of equal key matched in order."""
    waiting: Dict[Any, Deque[int]] = {}
    for j, key in enumerate(keys[1]):
        if not state.used[j]:
            found = waiting.get(key)
            if found is None:
                found = waiting[key] = deque()
            found.append(j)
    state.check()
    for i, key in enumerate(keys[0]):
        if state.pi[i] < 0:
            free = waiting.get(key)
            if free:
                state.match(i, free.popleft())
    state.check()


def _grow(state: _State, own: Tuple[List[int], List[int]], signature: Tuple[List[int], List[int]],
          coded: Tuple[_Coded, _Coded]) -> None:
    """Match unmatched neighbours of each queued pair along edges of equal label and direction."""
    pi, used = state.pi, state.used
    glinks, gothers, gstarts = coded[0].links, coded[0].others, coded[0].starts
    slinks, sothers, sstarts = coded[1].links, coded[1].others, coded[1].starts
    while state.queue:
        state.tick()
        i, j = state.queue.popleft()
        theirs: Dict[int, List[int]] = {}
        for p in range(sstarts[j], sstarts[j + 1]):
            k = sothers[p]
            if not used[k]:
                link = slinks[p]
                found = theirs.get(link)
                if found is None:
                    theirs[link] = [k]
                else:
                    found.append(k)
        if not theirs:
            continue
        mine: Dict[int, List[int]] = {}
        for p in range(gstarts[i], gstarts[i + 1]):
            k = gothers[p]
            if pi[k] < 0:
                link = glinks[p]
                if link in theirs:
                    found = mine.get(link)
                    if found is None:
                        mine[link] = [k]
                    else:
                        found.append(k)
        for link, gold_side in mine.items():
            system_side = theirs[link]
            if len(gold_side) == 1 and len(system_side) == 1:  # one each: the same node, or relabelled
                a, b = gold_side[0], system_side[0]
                if pi[a] < 0 and not used[b]:
                    state.match(a, b)
                continue
            for same in (signature, own):  # equal signatures first, then equal own keys
                free_by: Dict[int, Deque[int]] = {}
                for b in system_side:
                    if not used[b]:
                        key = same[1][b]
                        found_b = free_by.get(key)
                        if found_b is None:
                            found_b = free_by[key] = deque()
                        found_b.append(b)
                for a in gold_side:
                    if pi[a] < 0:
                        waiting = free_by.get(same[0][a])
                        while waiting and used[waiting[0]]:
                            waiting.popleft()
                        if waiting:
                            state.match(a, waiting.popleft())
            left = [a for a in gold_side if pi[a] < 0]
            free = [b for b in system_side if not used[b]]
            if len(left) == 1 and len(free) == 1:  # one each: a relabelled node, most likely
                state.match(left[0], free[0])

"""A correspondence of two large graphs in linear time: nodes matched by what they carry and by their
neighbourhood, then grown along edges.

For pairs too large for the solver's node-pair arrays (``mrp.solver.greedy.MAX_CELLS``) this is the
answer (with a trivial bound), and for large pairs the search does not finish it is the answer when the
search's own map is worse.  No n x m structure is built: memory is linear in the graphs' size.

1. Each node gets its *own* key (label, properties, anchors) and a *signature*: its own key, whether it
   is a top, and the sorted (direction, edge label, neighbour's label) of its edges.  A signature held by
   exactly one gold and one system node matches them (the seeds).
2. From each matched pair, the unmatched neighbours are matched along edges of the same label and
   direction: first those with the same own key (equal signatures first), then, when exactly one gold and
   one system neighbour are left under an edge label, those two (a relabelled node).  Each new pair is
   grown in turn (a queue: each edge is looked at a bounded number of times).
3. What is left is matched by signature, then by own key, in order, and grown again.
"""

from __future__ import annotations

from collections import defaultdict, deque
from typing import Deque, Dict, Hashable, List, Tuple

from mrp.normalize import NormalGraph

__all__ = ["correspondence"]

#: (direction, edge label, neighbour)
_Link = Tuple[int, str, int]


def _links(graph: NormalGraph) -> List[List[_Link]]:
    """Each node's edges as (0: outgoing / 1: incoming, label, the other node); loops left out."""
    links: List[List[_Link]] = [[] for _ in range(len(graph))]
    for key in graph.edges:
        source, target, label = key[0], key[1], key[2]
        if source != target:
            links[source].append((0, str(label), target))
            links[target].append((1, str(label), source))
    return links


def _own(graph: NormalGraph) -> List[Hashable]:
    return [(graph.labels[i], graph.properties[i], graph.anchors[i]) for i in range(len(graph))]


def _signatures(graph: NormalGraph, own: List[Hashable], links: List[List[_Link]]) -> List[Hashable]:
    labels = graph.labels
    return [(own[i], graph.tops[i], tuple(sorted((d, label, str(labels[k])) for d, label, k in links[i])))
            for i in range(len(graph))]


class _State:
    """The map being grown: gold -> system (-1), its inverse, and the pairs still to grow from."""

    def __init__(self, n: int, m: int) -> None:
        self.pi = [-1] * n
        self.used = [False] * m
        self.queue: Deque[Tuple[int, int]] = deque()

    def match(self, i: int, j: int) -> None:
        self.pi[i] = j
        self.used[j] = True
        self.queue.append((i, j))


def correspondence(gold: NormalGraph, system: NormalGraph) -> List[int]:
    """A map gold position -> system position (-1: unmatched), injective, in time linear in the graphs'
    nodes and edges (up to sorting each node's edges).

    Args:
        gold: the gold graph, normalized.
        system: the system graph, normalized.

    Returns:
        The map, as a list of ``len(gold)`` system positions or -1.
    """
    n, m = len(gold), len(system)
    state = _State(n, m)
    if not n or not m:
        return state.pi
    own = (_own(gold), _own(system))
    links = (_links(gold), _links(system))
    signature = (_signatures(gold, own[0], links[0]), _signatures(system, own[1], links[1]))
    buckets: Dict[Hashable, Tuple[List[int], List[int]]] = defaultdict(lambda: ([], []))
    for side in (0, 1):
        for k, key in enumerate(signature[side]):
            buckets[key][side].append(k)
    for mine, theirs in buckets.values():
        if len(mine) == 1 and len(theirs) == 1:
            state.match(mine[0], theirs[0])
    _grow(state, own, signature, links)
    for keys in (signature, own):
        _by_key(state, keys)
        _grow(state, own, signature, links)
    return state.pi


def _by_key(state: _State, keys: Tuple[List[Hashable], List[Hashable]]) -> None:
    """The unmatched nodes of equal key matched in order."""
    waiting: Dict[Hashable, Deque[int]] = defaultdict(deque)
    for j, key in enumerate(keys[1]):
        if not state.used[j]:
            waiting[key].append(j)
    for i, key in enumerate(keys[0]):
        if state.pi[i] < 0:
            free = waiting.get(key)
            if free:
                state.match(i, free.popleft())


def _grow(state: _State, own: Tuple[List[Hashable], List[Hashable]],
          signature: Tuple[List[Hashable], List[Hashable]], links: Tuple[List[List[_Link]], ...]) -> None:
    """Match unmatched neighbours of each queued pair along edges of equal label and direction."""
    pi, used = state.pi, state.used
    while state.queue:
        i, j = state.queue.popleft()
        theirs: Dict[Tuple[int, str], List[int]] = defaultdict(list)
        for d, label, k in links[1][j]:
            if not used[k]:
                theirs[(d, label)].append(k)
        if not theirs:
            continue
        mine: Dict[Tuple[int, str], List[int]] = defaultdict(list)
        for d, label, k in links[0][i]:
            if pi[k] < 0 and (d, label) in theirs:
                mine[(d, label)].append(k)
        for link, gold_side in mine.items():
            system_side = theirs[link]
            for same in (signature, own):  # equal signatures first, then equal own keys
                free_by: Dict[Hashable, Deque[int]] = defaultdict(deque)
                for b in system_side:
                    if not used[b]:
                        free_by[same[1][b]].append(b)
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


#: Node pairs (gold nodes x system nodes) at most for the solver's n x m arrays (about 75 bytes each
#: while searching: 1.9 GB at this size, 5,000 x 5,000 nodes); a larger pair gets :func:`correspondence`
#: alone, cut by this limit, with the trivial bound min(g, s).
MAX_CELLS = 25_000_000
#: A pair of more node pairs than this that the search leaves open keeps the better of its map and
#: :func:`correspondence`'s.
START_CELLS = 250_000


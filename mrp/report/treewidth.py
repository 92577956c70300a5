"""The exact treewidth of a small undirected graph, and the min-fill bound that QuickBB starts from.

Treewidth is the least width over all elimination orderings (eliminating a vertex joins its neighbours
into a clique; the width is the largest number of neighbours a vertex has when it goes).  The search
here is a branch and bound over orderings: the min-fill ordering's width is the first upper bound, the
minor-min-width of Gogate and Dechter the lower bound, a simplicial vertex (its neighbours already a
clique) is eliminated without branching, and a set of eliminated vertices already reached with no larger
width is not searched again.  Each connected component is solved alone.  Meaning-representation graphs
have treewidth 1 to 4, so the search is short.
"""

from __future__ import annotations

import heapq
from typing import Dict, FrozenSet, List, Set, Tuple

__all__ = ["Adjacency", "min_fill_width", "treewidth"]

Adjacency = Dict[int, Set[int]]


def _copy(graph: Adjacency) -> Adjacency:
    return {u: set(vs) for u, vs in graph.items()}


def _eliminate(graph: Adjacency, v: int) -> None:
    neighbours = graph.pop(v)
    for u in neighbours:
        graph[u].discard(v)
        graph[u].update(w for w in neighbours if w != u)


def _fill(graph: Adjacency, v: int) -> int:
    """The edges eliminating v adds."""
    neighbours = sorted(graph[v])
    return sum(1 for k, a in enumerate(neighbours) for b in neighbours[k + 1:] if b not in graph[a])


def min_fill_width(graph: Adjacency) -> int:
    """The width of the min-fill ordering (ties to the smallest vertex): an upper bound of the
    treewidth.

    The fills are kept in a heap (an entry is stale when its vertex's fill has changed since): eliminating
    a vertex changes the fill of its neighbours and of theirs only, so a sparse graph is ordered in
    near-linear time."""
    graph = _copy(graph)
    fills = {v: _fill(graph, v) for v in graph}
    heap = [(fill, v) for v, fill in fills.items()]
    heapq.heapify(heap)
    width = 0
    while heap:
        fill, v = heapq.heappop(heap)
        if fills.get(v) != fill:
            continue
        del fills[v]
        neighbours = graph[v]
        width = max(width, len(neighbours))
        _eliminate(graph, v)
        near = set(neighbours)
        for u in neighbours:
            near.update(graph[u])
        for u in near:
            now = _fill(graph, u)
            if now != fills[u]:
                fills[u] = now
                heapq.heappush(heap, (now, u))
    return width


def _minor_min_width(graph: Adjacency) -> int:
    """Gogate and Dechter's lower bound: contract a least-degree vertex into its neighbour with the fewest
    common neighbours, keeping the largest least degree seen (degrees in a heap, as
    :func:`min_fill_width` keeps fills)."""
    graph = _copy(graph)
    degrees = {x: len(graph[x]) for x in graph}
    heap = [(degree, x) for x, degree in degrees.items()]
    heapq.heapify(heap)
    bound = 0

    def changed(x: int) -> None:
        if len(graph[x]) != degrees[x]:
            degrees[x] = len(graph[x])
            heapq.heappush(heap, (degrees[x], x))

    while heap:
        degree, u = heapq.heappop(heap)
        if degrees.get(u) != degree:
            continue
        bound = max(bound, degree)
        if not graph[u]:
            del graph[u], degrees[u]
            continue
        v = min(graph[u], key=lambda x: (len(graph[x] & graph[u]), x))
        merged = (graph[u] | graph[v]) - {u, v}
        for w in graph.pop(u):
            graph[w].discard(u)
        del degrees[u]
        for w in merged:
            graph[w].add(v)
        graph[v] = merged
        for w in merged:
            changed(w)
        changed(v)
    return bound


def _simplicial(graph: Adjacency, v: int) -> bool:
    neighbours = list(graph[v])
    return all(b in graph[a] for k, a in enumerate(neighbours) for b in neighbours[k + 1:])


def _component_width(graph: Adjacency) -> int:
    best = min_fill_width(graph)
    if _minor_min_width(graph) >= best:
        return best
    seen: Dict[FrozenSet[int], int] = {}

    def search(rest: Adjacency, gone: FrozenSet[int], width: int) -> None:
        nonlocal best
        if len(rest) - 1 <= width or len(rest) <= 1:
            best = min(best, max(width, len(rest) - 1, 0))
            return
        if seen.get(gone, best + 1) <= width:
            return
        seen[gone] = width
        if max(width, _minor_min_width(rest)) >= best:
            return
        choices: List[int] = sorted(rest)
        for v in choices:
            if _simplicial(rest, v):
                choices = [v]
                break
        for v in choices:
            step = max(width, len(rest[v]))
            if step >= best:
                continue
            after = _copy(rest)
            _eliminate(after, v)
            search(after, gone | {v}, step)

    search(_copy(graph), frozenset(), 0)
    return best


def _components(graph: Adjacency) -> List[Adjacency]:
    left: Set[int] = set(graph)
    out: List[Adjacency] = []
    while left:
        start = min(left)
        stack, part = [start], {start}
        while stack:
            for w in graph[stack.pop()]:
                if w not in part:
                    part.add(w)
                    stack.append(w)
        left -= part
        out.append({u: set(graph[u]) for u in part})
    return out


def treewidth(graph: Adjacency) -> Tuple[int, int]:
    """The exact treewidth of an undirected graph (vertex -> neighbours, no loops) and the width of its
    min-fill ordering (the heuristic's bound); 0 and 0 for a graph without edges."""
    exact = max((_component_width(part) for part in _components(graph)), default=0)
    return exact, min_fill_width(graph)

"""How many nodes each node of a graph reaches along its edges: AnCast's descendant counts (WLRM's weights),
in time linear in the graph where its strongly connected components form a forest (trees, chains: AMR's
usual shape), else by bit sets over the components in reverse topological order.

A node reaches the nodes at the end of a path of one edge or more from it: itself only on a cycle (a
self-loop included).  The components come from Tarjan's algorithm (without recursion: a 100,000-node chain
is one path), which emits each after every component it reaches, so one pass in that order sees every
child's set before its parents.  A component's set is dropped as soon as its last parent has used it:
memory is the frontier's sets, not one per node.

The work stops at the pair's clock and memory cap (:func:`mrp.engine.limits.check`, given the bytes the
sets alive take, at the start and every few hundred components).
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from mrp.engine import check_limits as check

__all__ = ["counts"]

#: components handled between two calls of ``check``
EVERY = 256


def _components(children: Sequence[Sequence[int]]) -> List[int]:
    """Tarjan's strongly connected components, iteratively: per node, its component's number, numbered in
    the order emitted (every component after those it reaches)."""
    n = len(children)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    component = [-1] * n
    stack: List[int] = []
    counter = 0
    found = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, position = work[-1]
            edges = children[node]
            if position < len(edges):
                work[-1] = (node, position + 1)
                child = edges[position]
                if index[child] < 0:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack[child] = True
                    work.append((child, 0))
                elif on_stack[child] and index[child] < low[node]:
                    low[node] = index[child]
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component[member] = found
                    if member == node:
                        break
                found += 1
    return component


def counts(children: Sequence[Sequence[int]]) -> List[int]:
    """Per node, how many nodes it reaches along one edge or more (itself on a cycle).

    Args:
        children: per node, the nodes its edges lead to (repeats and self-loops allowed).

    Returns:
        The count of each node.

    Raises:
        mrp.engine.limits.Overrun: at the pair's limits.
    """
    check(0)
    component = _components(children)
    k = max(component, default=-1) + 1
    size = [0] * k
    cyclic = [False] * k
    below: List[List[int]] = [[] for _ in range(k)]  # each component's child components, once each
    parents = [0] * k
    for node, edges in enumerate(children):
        mine = component[node]
        size[mine] += 1
        for child in edges:
            theirs = component[child]
            if theirs == mine:
                cyclic[mine] = True  # a self-loop, or an edge inside a component of several nodes
            else:
                below[mine].append(theirs)
    for c in range(k):
        if len(below[c]) > 1:
            below[c] = sorted(set(below[c]))
        for d in below[c]:
            parents[d] += 1
        cyclic[c] = cyclic[c] or size[c] > 1
    check(0)
    if all(count <= 1 for count in parents):
        reach = _forest(size, cyclic, below)
    else:
        reach = _shared(size, cyclic, below, parents)
    return [reach[c] for c in component]


def _forest(size: List[int], cyclic: List[bool], below: List[List[int]]) -> List[int]:
    """Counts per component where each has at most one parent: the children's closed sets are disjoint,
    so a set's size is a sum."""
    closed = [0] * len(size)
    reach = [0] * len(size)
    for c in range(len(size)):  # children come first
        total = 0
        for d in below[c]:
            total += closed[d]
        reach[c] = total + (size[c] if cyclic[c] else 0)
        closed[c] = total + size[c]
    return reach


def _shared(size: List[int], cyclic: List[bool], below: List[List[int]], parents: List[int]) -> List[int]:
    """Counts per component by bit sets (a component's members are consecutive bits), each set dropped when
    its last parent has used it."""
    k = len(size)
    start = [0] * k
    position = 0
    for c in range(k):
        start[c] = position
        position += size[c]
    closed: List[Optional[int]] = [None] * k
    left = list(parents)
    reach = [0] * k
    alive = 0  # bytes of the sets kept
    for c in range(k):
        if c % EVERY == 0:
            check(alive)
        found = 0
        for d in below[c]:
            theirs = closed[d]
            found |= theirs  # type: ignore[operator]
            left[d] -= 1
            if left[d] == 0:
                closed[d] = None
                alive -= (theirs.bit_length() + 7) // 8  # type: ignore[union-attr]
        own = ((1 << size[c]) - 1) << start[c]
        reach[c] = found.bit_count() + (size[c] if cyclic[c] else 0)
        if left[c] > 0:
            found |= own
            closed[c] = found
            alive += (found.bit_length() + 7) // 8
    return reach

"""AnCast's pairs beyond ``--max-memory``: what its n x m structures would take, and a map made without
them.

The cost of a pair is estimated before anything is allocated, from its node counts, at the bytes each
mode was measured to take per cell (``mrp.solver.greedy.need`` with AnCast's own costs):

* the proved optimum (default): the similarity matrices (:class:`.similarity.Similarity`), the
  objective's integer weights (with a Python list of lists of them) and the branch and bound's arrays,
  all test nodes x gold nodes: :data:`BYTES_PER_CELL`;
* ``--ancast-compat``: the same matrices and AnCast's broadcast, whose neighbourhood matrices are test x
  test and gold x gold nodes besides its test x gold ones: :data:`COMPAT_BYTES_PER_CELL` for each cell of
  the three.

A pair beyond the cap gets :func:`linear_map` (nodes of equal concept matched in order, the nodes around
them considered first), counted as AnCast counts (:class:`.similarity.Pointwise`: one similarity per
relation group, nothing n x m), cut as "limit" with the trivial bound of the LRM numerator,
:func:`bound`.
"""

from __future__ import annotations

from collections import deque
from typing import Deque, Dict, Hashable, List, Optional, Sequence, Tuple

from mrp.metrics.ancast.reading import View
from mrp.solver import need_bytes, within_memory

#: bytes per test node x gold node of the proved optimum's structures (measured, peak RSS above the
#: process before the pair, on synthetic trees scored with --timeout 60: 98 bytes at 2,000 x 2,000 nodes
#: of ten concepts, 145 at 1,500 x 1,500 nodes of one concept, where every similarity is nonzero and the
#: objective's list holds an int object per cell); the larger, rounded up
BYTES_PER_CELL = 150
#: bytes per cell of --ancast-compat's test x gold, test x test and gold x gold matrices (measured:
#: tracemalloc peak of the similarities and the alignment, 40 bytes a cell at 2,000 x 50 and 50 x 2,000
#: nodes, 46 at 1,000 x 1,000 nodes; peak RSS 48 at 1,000 x 1,000); rounded up
COMPAT_BYTES_PER_CELL = 50


def need(n: int, m: int, compat: bool) -> int:
    """Bytes AnCast's structures of a pair would take, estimated from its node counts.

    Args:
        n: the test (system) graph's nodes.
        m: the gold graph's nodes.
        compat: ``--ancast-compat`` (AnCast's broadcast) rather than the proved optimum.

    Returns:
        The estimate in bytes.
    """
    if compat:
        return sum(need_bytes(a, b, COMPAT_BYTES_PER_CELL) for a, b in ((n, m), (n, n), (m, m)))
    return need_bytes(n, m, BYTES_PER_CELL)


def fits(n: int, m: int, max_memory: Optional[int], compat: bool) -> bool:
    """Whether AnCast may build a pair's structures under the cap.

    Args:
        n: the test (system) graph's nodes.
        m: the gold graph's nodes.
        max_memory: the cap in bytes (``--max-memory``; None: no cap).
        compat: ``--ancast-compat``.

    Returns:
        True when :func:`need` is within the cap.
    """
    return within_memory(need(n, m, compat), max_memory)


def _around(view: View) -> List[Hashable]:
    """Per node: its concept with the sorted (direction, label, other end's name or constant) of its
    relations."""
    def name(end: object) -> str:
        return view.names[end] if isinstance(end, int) else str(end)

    around: List[List[Tuple[int, str, str]]] = [[] for _ in range(len(view))]
    for head, label, tail in view.relations:
        if isinstance(head, int):
            around[head].append((1, label, name(tail)))
        if isinstance(tail, int):
            around[tail].append((0, label, name(head)))
    return [(view.names[k], view.senses[k], tuple(sorted(found))) for k, found in enumerate(around)]


def _keys(view: View) -> List[Sequence[Hashable]]:
    """The keys nodes are matched by, strongest first: concept with its surroundings, concept with ops
    and attributes, concept and sense, name."""
    return [_around(view),
            [(name, sense, ops, tuple(sorted(attributes.items())))
             for name, sense, ops, attributes in zip(view.names, view.senses, view.ops, view.attributes)],
            list(zip(view.names, view.senses)), list(view.names)]


def linear_map(test: View, gold: View) -> List[int]:
    """A map test node -> gold node (or -1), injective, in time linear in the graphs (up to sorting each
    node's relations): for each key of :func:`_keys` in turn, the nodes still unmatched that share it,
    in order.

    Args:
        test: the test (system) graph.
        gold: the gold graph.

    Returns:
        Per test node, its gold node or -1.
    """
    t2g = [-1] * len(test)
    used = [False] * len(gold)
    for mine, theirs in zip(_keys(test), _keys(gold)):
        waiting: Dict[Hashable, Deque[int]] = {}
        for j, key in enumerate(theirs):
            if not used[j]:
                waiting.setdefault(key, deque()).append(j)
        for i, key in enumerate(mine):
            free = waiting.get(key)
            if t2g[i] < 0 and free:
                j = free.popleft()
                t2g[i], used[j] = j, True
    return t2g


def bound(precision_count: float, recall_count: float) -> float:
    """The trivial bound of the LRM numerator: a relation label shared under any map is worth at most 1,
    on either side.

    Args:
        precision_count: the test graph's relation labels (``Sums.lr_count`` of precision).
        recall_count: the gold graph's (of recall).

    Returns:
        The smaller.
    """
    return min(precision_count, recall_count)

"""Many sentence pairs' rows (:class:`mrp.solver.problem.Rows`) as the three integer arrays the batch's
compiled search takes (:func:`mrp.solver.batch.search_all`): from each pair's Rows, or, for triple counts,
from each graph's triples interned once with run-wide ids and renumbered pair by pair in one compiled call.

A pair's rows number its keys and edge labels in order of first appearance, system side first
(:func:`mrp.solver.problem.triple_rows`).  Most of that work depends on one graph alone: here each
graph's triples become integer arrays once (:class:`Interned`: ids shared by every graph of a run, e.g.
once per distinct graph content), and only the renumbering, a pass over the pair's ids with a scratch
array, is done per pair, compiled (:func:`mrp.solver.renumber.renumbered`): the rows are
:func:`triple_rows`'s, number for number.  Importing this module imports no numba.
"""

from __future__ import annotations

from array import array
from typing import Any, Dict, Hashable, List, Mapping, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from mrp.solver.problem import Rows

__all__ = ["Batch", "Coded", "Interned"]

class Batch:
    """Pairs' rows one after the other: ``sizes[p]`` holds n, m, gold node rows, system node rows, keys,
    gold edge rows, system edge rows and labels of pair p; its node rows (node, key, count: gold's, then
    system's) follow the previous pair's in ``nodes`` (int64[N, 3]), its edge rows (source, target, label,
    count) in ``edges`` (int64[E, 4])."""

    __slots__ = ("sizes", "nodes", "edges", "_node_at", "_edge_at")

    def __init__(self, sizes: np.ndarray, nodes: np.ndarray, edges: np.ndarray) -> None:
        self.sizes, self.nodes, self.edges = sizes, nodes, edges
        #: where each pair's node rows and edge rows start (and, last, where the rows end): made when
        #: :meth:`rows` first needs them (a batch searched whole never does)
        self._node_at: Optional[List[int]] = None
        self._edge_at: List[int] = []

    @classmethod
    def of(cls, rows: Sequence[Rows]) -> Batch:
        """The Batch of pairs' Rows, in order."""
        sizes: List[int] = []
        nodes: List[int] = []
        edges: List[int] = []
        for pair in rows:
            sizes += (pair.n, pair.m, len(pair.gold_nodes) // 3, len(pair.system_nodes) // 3, pair.keys,
                      len(pair.gold_edges) // 4, len(pair.system_edges) // 4, pair.labels)
            nodes += pair.gold_nodes
            nodes += pair.system_nodes
            edges += pair.gold_edges
            edges += pair.system_edges
        return cls(np.array(sizes, np.int64).reshape(-1, 8), np.array(nodes, np.int64).reshape(-1, 3),
                   np.array(edges, np.int64).reshape(-1, 4))

    def __len__(self) -> int:
        return int(self.sizes.shape[0])

    def rows(self, k: int) -> Rows:
        """Pair ``k``'s Rows (as :meth:`of` took them, or as :func:`~mrp.solver.problem.triple_rows` gives
        them for the triples :meth:`Interned.batch` renumbered)."""
        node_at, edge_at = self._node_at, self._edge_at
        if node_at is None:
            sizes = self.sizes
            node_at = self._node_at = np.concatenate(([0], np.cumsum(sizes[:, 2] + sizes[:, 3]))).tolist()
            edge_at = self._edge_at = np.concatenate(([0], np.cumsum(sizes[:, 5] + sizes[:, 6]))).tolist()
        n, m, gold_n, _, keys, gold_e, _, labels = self.sizes[k].tolist()
        nodes = self.nodes[node_at[k]:node_at[k + 1]].ravel().tolist()
        edges = self.edges[edge_at[k]:edge_at[k + 1]].ravel().tolist()
        return Rows(n, m, nodes[:3 * gold_n], nodes[3 * gold_n:], keys, edges[:4 * gold_e],
                    edges[4 * gold_e:], labels)

    def matched(self, mappings: np.ndarray) -> np.ndarray:
        """What each pair's map matches, counted from its rows: for each gold node row (node, key, count)
        whose node is mapped, its count times that of the system node row of the same key at the node it
        maps to; for each gold edge row (source, target, label, count) whose ends are mapped, its count
        times that of the system edge row of the same label between the nodes they map to.  For triple
        rows, the triples the map matches (SMATCH's count, each match worth the product of the copies),
        counted apart from the search: a check on its value.

        Args:
            mappings: int64, the pairs' maps one after the other (pair p's gold node i -> its system node,
                or -1; n of pair p's).

        Returns:
            int64[pairs]: each pair's count.
        """
        sizes = self.sizes
        pairs = sizes.shape[0]
        gold_at = np.concatenate(([0], np.cumsum(sizes[:, 0])))
        system_at = np.concatenate(([0], np.cumsum(sizes[:, 1])))
        if mappings.shape[0] != gold_at[-1]:
            raise ValueError(f"{mappings.shape[0]} mapped nodes for {gold_at[-1]} gold nodes")
        wide = int(sizes[:, 1].max()) + 1 if pairs else 1
        nodes = _matched_rows(self.nodes, sizes[:, 2], sizes[:, 3], mappings, gold_at, system_at,
                              lambda at, rows: at + rows[:, 0], 1 + int(sizes[:, 4].max(initial=0)))
        edges = _matched_rows(self.edges, sizes[:, 5], sizes[:, 6], mappings, gold_at, system_at,
                              lambda at, rows: (at + rows[:, 0]) * wide + rows[:, 1],
                              1 + int(sizes[:, 7].max(initial=0)))
        return nodes + edges

    def subset(self, picked: Sequence[int]) -> Batch:
        """The Batch of the pairs ``picked`` (positions, in that order)."""
        return self if list(picked) == list(range(len(self))) else Batch.of([self.rows(k) for k in picked])


def _matched_rows(rows: np.ndarray, gold: np.ndarray, system: np.ndarray, mappings: np.ndarray,
                  gold_at: np.ndarray, system_at: np.ndarray, place: Any, kinds: int) -> np.ndarray:
    """:meth:`Batch.matched`'s count over one kind of rows (``rows``: pair after pair, ``gold[p]`` gold rows
    then ``system[p]`` system rows, the node columns first, then the key or label, then the count): each
    gold row whose nodes are mapped, times the system row at the same place (``place(system node offset,
    node columns)``: a number per system row, unique in the batch) with the same key or label (one of
    ``kinds``)."""
    pairs = gold.shape[0]
    if rows.shape[0] == 0:
        return np.zeros(pairs, np.int64)
    width = rows.shape[1]
    owner = np.repeat(np.arange(pairs), gold + system)
    starts = np.concatenate(([0], np.cumsum(gold + system)))
    is_gold = np.arange(rows.shape[0]) - starts[owner] < gold[owner]
    theirs, ours = rows[~is_gold], rows[is_gold]
    codes = place(system_at[owner[~is_gold]], theirs) * kinds + theirs[:, width - 2]
    order = np.argsort(codes, kind="stable")
    codes, counts = codes[order], theirs[order, width - 1]
    pair = owner[is_gold]
    ends = mappings[gold_at[pair][:, None] + ours[:, :width - 2]]
    mapped = (ends >= 0).all(axis=1)
    wanted = place(system_at[pair], ends) * kinds + ours[:, width - 2]
    at = np.minimum(np.searchsorted(codes, wanted), max(codes.shape[0] - 1, 0))
    hit = mapped & (codes[at] == wanted) if codes.shape[0] else np.zeros(pair.shape[0], np.bool_)
    value = np.where(hit, ours[:, width - 1] * (counts[at] if codes.shape[0] else 0), 0)
    total = np.concatenate(([0], np.cumsum(value)))
    gold_starts = np.concatenate(([0], np.cumsum(gold)))
    return total[gold_starts[1:]] - total[gold_starts[:-1]]


class Coded(NamedTuple):
    """A graph's triple counts with interned ids (:meth:`Interned.coded`), each kind's rows one after the
    other in a flat array of signed 64-bit integers (an ``array.array``: made for a tenth of a numpy
    array's fixed cost, a graph's rows being few; a batch's are joined into numpy arrays once)."""

    #: the graph's nodes
    n: int
    #: (node, key id, count) of each node-local triple, node by node, each node's in its order
    local: array
    #: (source, target, label id, count) of each relation, in the relations' order
    relations: array


class Interned:
    """Ids of the keys of node-local triples and of relation labels, shared by every graph coded here (a
    graph's :class:`Coded` holds them: it is to be renumbered by the Interned that made it)."""

    def __init__(self) -> None:
        self.keys: Dict[Hashable, int] = {}
        self.labels: Dict[Hashable, int] = {}
        #: how many times the ids were forgotten (a graph coded before is not to be renumbered after: a
        #: memo of Coded keys them by it)
        self.generation = 0

    def clear(self) -> None:
        """Forget every id: the next generation begins."""
        self.keys.clear()
        self.labels.clear()
        self.generation += 1

    def coded(self, local: Sequence[Mapping[Hashable, int]],
              relations: Mapping[Tuple[int, int, Hashable], int]) -> Coded:
        """A graph's triples (as :func:`~mrp.solver.problem.triple_rows` takes a side's) with interned ids.

        Args:
            local: each node's node-local triples, key -> count.
            relations: relations (source, target, label) -> count.

        Returns:
            The rows of both with ids for keys and labels, new ones added to the tables.
        """
        keys, labels = self.keys, self.labels
        rows: List[int] = []
        for i, triples in enumerate(local):
            for key, count in triples.items():
                k = keys.get(key)
                if k is None:
                    k = keys[key] = len(keys)
                rows += (i, k, count)
        edges: List[int] = []
        for (a, b, label), count in relations.items():
            k = labels.get(label)
            if k is None:
                k = labels[label] = len(labels)
            edges += (a, b, k, count)
        return Coded(len(local), array("q", rows), array("q", edges))

    def batch(self, pairs: Sequence[Tuple[Coded, Coded]]) -> Batch:
        """The Batch of pairs (gold, system) coded here: each pair's rows are those
        :func:`~mrp.solver.problem.triple_rows` gives its triples (keys and labels renumbered per pair in
        first appearance, system first; gold keys no system node has left out).

        Args:
            pairs: the pairs' two graphs, coded by this Interned.

        Returns:
            Their rows, pair after pair (renumbered by one compiled call).
        """
        if not pairs:
            return Batch.of([])
        from mrp.solver.renumber import renumbered

        counts = np.array([(gold.n, system.n, len(gold.local) // 3, len(system.local) // 3,
                            len(gold.relations) // 4, len(system.relations) // 4) for gold, system in pairs],
                          np.int64).reshape(-1, 6)
        local, relations = array("q"), array("q")
        for pair in pairs:
            for side in pair:
                local += side.local
                relations += side.relations
        local_rows = np.frombuffer(local, np.int64).reshape(-1, 3) if local else np.empty((0, 3), np.int64)
        relation_rows = np.frombuffer(relations, np.int64).reshape(-1, 4) if relations \
            else np.empty((0, 4), np.int64)
        return Batch(*renumbered(counts, local_rows, relation_rows, len(self.keys), len(self.labels)))

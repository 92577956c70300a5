"""Pairs of triple counts with run-wide ids (:class:`mrp.solver.batch_rows.Interned`) renumbered pair by
pair as :func:`mrp.solver.problem.triple_rows` numbers them, in one compiled call (numba only)."""

from __future__ import annotations

import numpy as np

from mrp.compiled import njit

__all__ = ["renumbered"]


@njit(cache=True, nogil=True)
def renumbered(counts, local, relations, keys, labels):  # pragma: no cover - compiled
    """The rows of pairs of triples with run-wide ids (:class:`mrp.solver.batch_rows.Interned`), numbered
    per pair as :func:`mrp.solver.problem.triple_rows` numbers them: (sizes, nodes, edges) as
    :func:`mrp.solver.batch.search_all` takes them.

    ``counts[p]``: n, m, gold node-local rows, system node-local rows, gold relation rows and system
    relation rows of pair p; its rows (gold's, then system's) follow the previous pair's in ``local``
    ((node, key id, count)) and ``relations`` ((source, target, label id, count)); ids are below ``keys``
    and ``labels``.  A pair's keys are numbered in order of first appearance among system's rows (gold rows
    of other keys are left out), its labels among system's relations, then gold's.
    """
    pairs = counts.shape[0]
    sizes = np.zeros((pairs, 8), np.int64)
    nodes = np.empty((local.shape[0], 3), np.int64)
    edges = np.empty((relations.shape[0], 4), np.int64)
    key_at = np.full(keys, -1, np.int64)  # a key id's number in the pair (-1: none), reset after each pair
    label_at = np.full(labels, -1, np.int64)
    at_local = 0
    at_relation = 0
    at_node = 0
    for p in range(pairs):
        gold_l, system_l, gold_r, system_r = counts[p, 2], counts[p, 3], counts[p, 4], counts[p, 5]
        first, end = at_local + gold_l, at_local + gold_l + system_l  # system's node-local rows
        numbered = 0
        for r in range(first, end):
            if key_at[local[r, 1]] < 0:
                key_at[local[r, 1]] = numbered
                numbered += 1
        kept = 0
        for r in range(at_local, end):
            k = key_at[local[r, 1]]
            if k >= 0:
                nodes[at_node, 0], nodes[at_node, 1], nodes[at_node, 2] = local[r, 0], k, local[r, 2]
                at_node += 1
                if r < first:
                    kept += 1
        for r in range(first, end):
            key_at[local[r, 1]] = -1
        named = 0
        middle, last = at_relation + gold_r, at_relation + gold_r + system_r
        for r in range(middle, last + gold_r):  # system's labels first, then gold's
            q = r if r < last else r - system_r - gold_r
            if label_at[relations[q, 2]] < 0:
                label_at[relations[q, 2]] = named
                named += 1
        for r in range(at_relation, last):
            edges[r, 0], edges[r, 1] = relations[r, 0], relations[r, 1]
            edges[r, 2], edges[r, 3] = label_at[relations[r, 2]], relations[r, 3]
        for r in range(at_relation, last):
            label_at[relations[r, 2]] = -1
        sizes[p, 0], sizes[p, 1], sizes[p, 2], sizes[p, 3] = counts[p, 0], counts[p, 1], kept, system_l
        sizes[p, 4], sizes[p, 5], sizes[p, 6], sizes[p, 7] = numbered, gold_r, system_r, named
        at_local, at_relation = end, last
    return sizes, nodes[:at_node].copy(), edges

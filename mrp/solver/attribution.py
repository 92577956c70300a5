"""Where a document's gap sits: the value of a map and a bound, sentence by sentence.

Each matched candidate edge is split between its two node pairs as the
potentials split it (half each, :mod:`mrp.solver.potential`), so that a map's
value is the sum of its gold nodes' values (``node_values``), and a gold
node's value at system node j is at most its potential there.  The nodes of
one group (a sentence of a document) are then worth at most a maximum-weight
assignment of their rows of the potentials (``group_bounds``), whatever the
map.  Hence: a map better than the one found must be better on some group
whose bound exceeds the found map's value there; a group whose bound equals its
found value is settled (no better map gains there), and the sum of the group
bounds bounds the whole (a bound that adds up per-sentence bounds, the
cross-sentence edges included through their halves).  Compiled; numba only.
"""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np

from mrp.compiled import njit
from mrp.solver.arrays import index
from mrp.solver.lap import rows_assignment
from mrp.solver.potential import SCALE, potentials, scratch
from mrp.solver.problem import Problem

__all__ = ["node_values", "group_bounds", "where"]


@njit(cache=True)
def node_values(pb, pi, share):  # pragma: no cover - compiled
    """Each gold node's part of the map's value (units of 1/SCALE): its reward and, of each matched edge,
    ``share`` at the source and the rest at the target."""
    n = pb.U.shape[0]
    out = np.zeros(n, np.int64)
    for i in range(n):
        if pi[i] >= 0:
            out[i] = SCALE * pb.U[i, pi[i]]
    for e in range(pb.src.shape[0]):
        a, b = pb.src[e], pb.tgt[e]
        c, d = pi[a], pi[b]
        if c < 0 or d < 0:
            continue
        for q in range(pb.cptr[e], pb.cptr[e + 1]):
            if pb.cc[q] == c and pb.cd[q] == d:
                out[a] += share[q]
                out[b] += pb.cw[q] * SCALE - share[q]
                break
    return out


@njit(cache=True)
def group_bounds(pb, groups, count, share):  # pragma: no cover - compiled
    """Per group ``0..count-1`` of gold nodes, the most its nodes can be worth under any map (units of
    1/SCALE): an assignment of its rows of the potentials (row maxima when it has more rows than columns)."""
    n, m = pb.U.shape
    out = np.zeros(count, np.int64)
    if n == 0 or m == 0:
        return out
    P = np.zeros((n, m), np.int64)
    potentials(P, True, pb, index(pb), share, scratch(m, pb.ssrc.shape[0]), np.zeros(1, np.int64))
    for g in range(count):
        rows = np.nonzero(groups == g)[0]
        if rows.shape[0] == 0:
            continue
        B = P[rows]
        if rows.shape[0] <= m:
            out[g] = rows_assignment(B)
        else:
            for r in range(rows.shape[0]):
                out[g] += B[r].max()
    return out


def where(problem: Problem, mapping: List[int], groups: np.ndarray) -> Dict[str, Any]:
    """Where the gap of a map sits among the groups of the gold nodes (sentences; 0: the root and nodes in
    none): ``bound`` (the sum of the group bounds, in tuples), ``settled`` (groups no better map gains on),
    and ``open``: per other group (most room first), its ``sentence``, the map's ``found`` value on it and
    its ``bound`` (tuples; halves where an edge is split)."""
    pi = np.asarray(mapping, np.int64)
    share = problem.cw * SCALE // 2
    values = node_values(problem, pi, share)
    count = int(groups.max()) + 1 if groups.shape[0] else 0
    bounds = group_bounds(problem, groups, count, share)
    found = np.bincount(groups, weights=values, minlength=count).astype(np.int64) if count else bounds
    present = np.bincount(groups, minlength=count) > 0 if count else np.zeros(0, bool)
    room = [(int(bounds[g] - found[g]), g) for g in range(count) if present[g] and bounds[g] > found[g]]
    room.sort(key=lambda pair: (-pair[0], pair[1]))
    return {"bound": int(bounds.sum()) // SCALE, "settled": int(present.sum()) - len(room),
            "open": [{"sentence": g, "found": round(int(found[g]) / SCALE, 2),
                      "bound": round(int(bounds[g]) / SCALE, 2)} for _, g in room]}

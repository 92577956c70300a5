"""Edge potentials: what a gold node's edges can collect at each system node under a share split.

Each candidate ``q`` (gold edge ``e = (a, b)`` onto system edge ``(c, d)``,
weight ``cw[q]``) puts ``share[q]`` at the node pair ``(a, c)`` and
``SCALE * cw[q] - share[q]`` at ``(b, d)``.  The potential of ``(x, j)`` sums,
per group of x's edge ends with one direction and label, the best shares the
group can collect at j: at most one candidate per gold edge and one gold edge
per system edge (the smaller of the two sums).  Compiled; numba only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mrp.compiled import njit
from mrp.solver import ABANDON

#: Potentials are integers in units of 1/SCALE of a tuple.
SCALE = 64
#: The value of a free gold node in ``assign``.
FREE = -2


class Scratch(NamedTuple):
    """Work arrays of ``row`` (zero between calls; sized by ``scratch``)."""

    #: int64[m]: best share of the current gold edge at each system node
    emax: np.ndarray
    #: int64[F]: best share collected by each system edge in the current group
    fmax: np.ndarray
    #: int64[m]: per system node, the group's sum of best shares per gold edge
    acc_a: np.ndarray
    #: int64[m]: per system node, the group's sum of best shares per system edge
    acc_b: np.ndarray
    #: bool[m]: system nodes listed in tj
    seen: np.ndarray
    #: int64[2m+1]: system nodes touched by the group (and, from m on, by the current edge)
    tj: np.ndarray
    #: int64[F]: system edges touched by the group
    tf: np.ndarray


@njit(cache=True)
def scratch(m, nsys):  # pragma: no cover - compiled
    """Zeroed Scratch for m system nodes and nsys system edges."""
    f = max(nsys, 1)
    return Scratch(np.zeros(m, np.int64), np.zeros(f, np.int64), np.zeros(m, np.int64),
                   np.zeros(m, np.int64), np.zeros(m, np.bool_), np.empty(2 * m + 1, np.int64),
                   np.empty(f, np.int64))


@njit(cache=True)
def row(x, out, assign, free_only, pb, ix, share, sc):  # pragma: no cover - compiled
    """The edge potential of gold node x at every system node, into ``out``.

    Only edges whose other end is free (``assign == FREE``) count when ``free_only``.
    """
    m = out.shape[0]
    emax, fmax, acc_a, acc_b, seen, tj, tf = sc
    src, tgt, cptr, cc, cd, cf, cw = pb.src, pb.tgt, pb.cptr, pb.cc, pb.cd, pb.cf, pb.cw
    for j in range(m):
        out[j] = 0
    t = ix.eptr[x]
    end = ix.eptr[x + 1]
    while t < end:
        key = ix.end_key[t]
        d = ix.end_dir[t]
        nj = 0
        nf = 0
        while t < end and ix.end_key[t] == key:
            e = ix.end_edge[t]
            t += 1
            other = tgt[e] if d == 0 else src[e]
            if free_only and assign[other] != FREE:
                continue
            # best share of this gold edge at each system node; best per system edge
            ne = 0
            for q in range(cptr[e], cptr[e + 1]):
                j = cc[q] if d == 0 else cd[q]
                s = share[q] if d == 0 else cw[q] * SCALE - share[q]
                if s <= 0:
                    continue
                if emax[j] == 0:
                    tj[m + ne] = j
                    ne += 1
                if s > emax[j]:
                    emax[j] = s
                f = cf[q]
                if fmax[f] == 0:
                    tf[nf] = f
                    nf += 1
                if s > fmax[f]:
                    fmax[f] = s
            for u in range(ne):
                j = tj[m + u]
                if not seen[j]:
                    seen[j] = True
                    tj[nj] = j
                    nj += 1
                acc_a[j] += emax[j]
                emax[j] = 0
        for u in range(nf):
            f = tf[u]
            j = pb.ssrc[f] if d == 0 else pb.stgt[f]
            if not seen[j]:
                seen[j] = True
                tj[nj] = j
                nj += 1
            acc_b[j] += fmax[f]
            fmax[f] = 0
        for u in range(nj):
            j = tj[u]
            out[j] += acc_a[j] if acc_a[j] < acc_b[j] else acc_b[j]
            acc_a[j] = 0
            acc_b[j] = 0
            seen[j] = False


@njit(cache=True)
def potentials(P, with_rewards, pb, ix, share, sc, stop):  # pragma: no cover - compiled
    """Every row of the potential into P (all edges; plus ``SCALE * U`` when ``with_rewards``); the rows
    left when ``stop[0]`` is :data:`~mrp.solver.ABANDON` are not written (the call's result is dropped)."""
    n, m = P.shape
    out = np.zeros(m, np.int64)
    assign = np.full(n, FREE, np.int64)
    for i in range(n):
        if stop[0] >= ABANDON:
            return
        row(i, out, assign, False, pb, ix, share, sc)
        for j in range(m):
            P[i, j] = out[j] + (SCALE * pb.U[i, j] if with_rewards else 0)

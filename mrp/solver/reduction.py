"""Problem reduction at the root: the node pairs that no map better than the incumbent uses, left out of the
root's later rounds (compiled; numba only).

Each round of the root solves an assignment over the potentials; its reduced cost ``slack[i, j]`` bounds
every map through ``(i, j)`` by ``lap - slack[i, j]`` (reduced-cost fixing, as ``kernel.fixing`` does once
after the root).  A pair whose bound is below the incumbent plus one is used by no better map: it is
*ruled out* (:func:`rule_out`).  A map better than the incumbent then gains nothing from a ruled-out pair
nor from a candidate edge match with a ruled-out end, so the rounds after go on over the Problem without
them (:func:`reduced`: its rewards there zero, those candidates dropped, the incumbent's own pairs kept),
whose potentials are lower: the bound of maps better than the incumbent, which is all the root has to
bound.  A map keeps its value there unless it uses a ruled-out pair, and such a map is worth no more than
the incumbent, so the incumbent's value, the optimum and every bound stay those of the whole Problem.

The root's shares are kept for the candidates left; :func:`expanded` gives the whole Problem's shares back
(a dropped candidate's weight put at a ruled-out end, so that it lifts no pair that is not ruled out), and
the search is told the ruled-out pairs (``banned``).  On Rematch's efficiency protocol (19,980 random coli
pairs) the root's rounds fell from 105,393 to about 89,000 and the pairs open after 300 search steps from
203 to 117.
"""

from __future__ import annotations

import numpy as np

from mrp.compiled import njit
from mrp.solver.potential import SCALE
from mrp.solver.problem import Problem


@njit(cache=True)
def rule_out(ruled, slack, lap, target, pi):  # pragma: no cover - compiled
    """Mark in ``ruled`` the pairs ``(i, j)`` whose bound ``lap - slack[i, j]`` is below ``target`` (the
    incumbent's value plus one, scaled), except the incumbent's own (``pi[i] == j``); returns how many were
    new."""
    n, m = ruled.shape
    fresh = 0
    for i in range(n):
        for j in range(m):
            if not ruled[i, j] and pi[i] != j and lap - slack[i, j] < target:
                ruled[i, j] = True
                fresh += 1
    return fresh


@njit(cache=True)
def reduced(pb, ruled):  # pragma: no cover - compiled
    """The Problem without the pairs ``ruled`` (no reward there, no candidate with an end there): (that
    Problem, the positions of the candidates kept)."""
    n, m = pb.U.shape
    U = pb.U.copy()
    for i in range(n):
        for j in range(m):
            if ruled[i, j]:
                U[i, j] = 0
    E = pb.src.shape[0]
    kept = np.empty(pb.cc.shape[0], np.int64)
    count = 0
    cptr = np.zeros(E + 1, np.int64)
    for e in range(E):
        a, b = pb.src[e], pb.tgt[e]
        for q in range(pb.cptr[e], pb.cptr[e + 1]):
            if not ruled[a, pb.cc[q]] and not ruled[b, pb.cd[q]]:
                kept[count] = q
                count += 1
        cptr[e + 1] = count
    kept = kept[:count]
    return Problem(U, pb.src, pb.tgt, pb.lab, cptr, pb.cc[kept], pb.cd[kept], pb.cf[kept], pb.cw[kept],
                   pb.ssrc, pb.stgt, pb.complete), kept


@njit(cache=True)
def expanded(pb, share, kept, ruled, out):  # pragma: no cover - compiled
    """Into ``out``, the whole Problem ``pb``'s shares from the shares ``share`` of its candidates ``kept``:
    a candidate left out puts its whole weight at a ruled-out end (its source's pair when that is ruled
    out, else its target's), so that it adds nothing to a pair that is not ruled out."""
    for e in range(pb.src.shape[0]):
        a = pb.src[e]
        for q in range(pb.cptr[e], pb.cptr[e + 1]):
            out[q] = pb.cw[q] * SCALE if ruled[a, pb.cc[q]] else 0
    for t in range(kept.shape[0]):
        out[kept[t]] = share[t]

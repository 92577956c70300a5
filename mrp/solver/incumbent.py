"""Incumbents: the objective of a map, improving moves, and a greedy start (compiled; numba only)."""

from __future__ import annotations

import numpy as np

from mrp.compiled import njit


@njit(cache=True, inline="always")
def edge_weight(e, c, d, cptr, cc, cd, cw):  # pragma: no cover - compiled
    """The weight of candidate (c, d) of gold edge e, or 0 (binary search: candidates are sorted)."""
    # Inlined, with only for loops and one return: numba then counts no references to the arrays per call
    # (in objective and improve's moves); else an atomic increment and decrement per array and call cost
    # more than the search itself (a while loop, a second return or a call that may raise keeps them).
    end = cptr[e + 1]
    lo, hi = cptr[e], end
    if c < 0 or d < 0:
        hi = lo
    for _ in range(64):  # each step halves hi - lo
        if lo >= hi:
            break
        mid = (lo + hi) // 2
        if cc[mid] < c or (cc[mid] == c and cd[mid] < d):
            lo = mid + 1
        else:
            hi = mid
    weight = 0
    for q in range(lo, min(lo + 1, end)):
        if cc[q] == c and cd[q] == d and c >= 0 and d >= 0:
            weight = cw[q]
    return weight


@njit(cache=True)
def objective(pi, pb):  # pragma: no cover - compiled
    """The objective of a complete map (``-1`` for unmatched)."""
    U, src, tgt, cptr, cc, cd, cw = pb.U, pb.src, pb.tgt, pb.cptr, pb.cc, pb.cd, pb.cw
    value = 0
    for i in range(pi.shape[0]):
        if pi[i] >= 0:
            value += U[i, pi[i]]
    for e in range(src.shape[0]):
        value += edge_weight(e, pi[src[e]], pi[tgt[e]], cptr, cc, cd, cw)
    return value


@njit(cache=True)
def improve(pi, m, pb, ix, passes, stop, value, top):  # pragma: no cover - compiled
    """Hill-climb a map of objective ``value`` with improving moves (to a free node or unmatched) and swaps;
    returns the objective of the map it ends with.

    The targets tried for gold node i are the system nodes where i gains
    something by itself: a positive reward, or a candidate edge towards the
    image of one of its neighbours.  ``top``: a bound of every map's objective; the climb ends once the
    map reaches it (no move could improve it further: the map is the one the whole climb ends with).
    """
    U, src, tgt, cptr, cc, cd, cw = pb.U, pb.src, pb.tgt, pb.cptr, pb.cc, pb.cd, pb.cw
    iptr, iedges, upos, ucol = ix.iptr, ix.iedges, ix.upos, ix.ucol
    n = pi.shape[0]
    holder = np.full(m, -1, np.int64)
    for i in range(n):
        if pi[i] >= 0:
            holder[pi[i]] = i
    mark = np.zeros(m, np.bool_)
    tries = np.empty(m + 1, np.int64)
    # the weight each gold edge matches under the map now (kept up to date as nodes move)
    now = np.empty(src.shape[0], np.int64)
    for e in range(src.shape[0]):
        now[e] = edge_weight(e, pi[src[e]], pi[tgt[e]], cptr, cc, cd, cw)
    for _ in range(passes):
        improved = False
        for i in range(n):
            if stop[0] or value >= top:
                return value
            nt = 1
            tries[0] = -1
            for t in range(upos[i], upos[i + 1]):
                j = ucol[t]
                if not mark[j]:
                    mark[j] = True
                    tries[nt] = j
                    nt += 1
            for t in range(iptr[i], iptr[i + 1]):
                e = iedges[t]
                if src[e] == i:
                    y = pi[tgt[e]]
                    if y < 0 or tgt[e] == i:
                        continue
                    for q in range(cptr[e], cptr[e + 1]):
                        if cd[q] == y and not mark[cc[q]]:
                            mark[cc[q]] = True
                            tries[nt] = cc[q]
                            nt += 1
                else:
                    y = pi[src[e]]
                    if y < 0:
                        continue
                    lo, hi = cptr[e], cptr[e + 1]
                    while lo < hi:
                        mid = (lo + hi) // 2
                        if cc[mid] < y:
                            lo = mid + 1
                        else:
                            hi = mid
                    q = lo
                    while q < cptr[e + 1] and cc[q] == y:
                        if not mark[cd[q]]:
                            mark[cd[q]] = True
                            tries[nt] = cd[q]
                            nt += 1
                        q += 1
            best_delta = 0
            best_j = -2
            for u in range(nt):
                j = tries[u]
                if j >= 0:
                    mark[j] = False
                if j == pi[i]:
                    continue
                k = holder[j] if j >= 0 else -1
                # the change of the objective when i moves to j (and k, holding j, to i's place); written
                # out here, not called: see edge_weight
                old_i = pi[i]
                d = 0
                if old_i >= 0:
                    d -= U[i, old_i]
                if j >= 0:
                    d += U[i, j]
                if k >= 0:
                    d -= U[k, j]
                    if old_i >= 0:
                        d += U[k, old_i]
                for x in (i, k):
                    if x < 0:
                        continue
                    for t in range(iptr[x], iptr[x + 1]):
                        e = iedges[t]
                        a, b = src[e], tgt[e]
                        if x == k and (a == i or b == i):
                            continue  # counted with i's edges
                        na = j if a == i else (old_i if a == k else pi[a])
                        nb = j if b == i else (old_i if b == k else pi[b])
                        d += edge_weight(e, na, nb, cptr, cc, cd, cw)
                        d -= now[e]
                if d > best_delta:
                    best_delta = d
                    best_j = j
            if best_j != -2:
                j = best_j
                k = holder[j] if j >= 0 else -1
                old = pi[i]
                pi[i] = j
                if j >= 0:
                    holder[j] = i
                if k >= 0:
                    pi[k] = old
                    if old >= 0:
                        holder[old] = k
                elif old >= 0:
                    holder[old] = -1
                for x in (i, k):
                    if x < 0:
                        continue
                    for t in range(iptr[x], iptr[x + 1]):
                        e = iedges[t]
                        now[e] = edge_weight(e, pi[src[e]], pi[tgt[e]], cptr, cc, cd, cw)
                value += best_delta
                improved = True
        if not improved:
            break
    return value


@njit(cache=True)
def greedy(K):  # pragma: no cover - compiled
    """A map taking, for rows in order of their best value, the best column still free (K: int64[n, m])."""
    n, m = K.shape
    col = np.full(n, -1, np.int64)
    taken = np.zeros(m, np.bool_)
    rowbest = np.zeros(n, np.int64)
    for i in range(n):
        for j in range(m):
            if K[i, j] > rowbest[i]:
                rowbest[i] = K[i, j]
    for i in np.argsort(-rowbest, kind="mergesort"):
        bj = -1
        bv = 0
        for j in range(m):
            if not taken[j] and K[i, j] > bv:
                bv = K[i, j]
                bj = j
        if bj >= 0:
            col[i] = bj
            taken[bj] = True
    return col

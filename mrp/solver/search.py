"""Depth-first branch and bound over gold nodes (compiled; numba only).

At each node of the search some gold nodes are fixed (to a system node or to
nothing) and the rest are free.  The value of what is fixed is exact; a free
node's key at system node j is ``SCALE * (U + L) + P``: its reward, the edges
to fixed neighbours that j would match (``L``, exact), and the shares of its
edges to free neighbours (``P``, rows recomputed when a neighbour is fixed).
The bound of the free part is the smaller of the sums of row and column
maxima of the keys, tightened by an assignment over them on pairs up to
``lap_size`` nodes.  The node with the best row maximum is branched on, its
candidates best first and "unmatched" last.  A candidate is a system node where
the key is positive, or where an edge to a free neighbour can be matched (see
:func:`reached`): a share can be zero, the neighbour's potential then holding the
whole edge, which it gets only when this node goes there, not when it is left
unmatched.
"""

from __future__ import annotations

import numpy as np

from mrp.compiled import njit
from mrp.solver.lap import assignment
from mrp.solver.potential import FREE, SCALE, row


@njit(cache=True)
def key(i, j, pb, L, P, banned):  # pragma: no cover - compiled
    """The key of free gold node i at system node j (0 when the pair is banned)."""
    if banned[i, j]:
        return 0
    return SCALE * (pb.U[i, j] + L[i, j]) + P[i, j]


@njit(cache=True)
def free_bound(pb, L, P, banned, assign, used, rowmax, colmax, frow, fcol, use_lap, value, target,
               stop):  # pragma: no cover - compiled
    """Bound (scaled) of the best completion, the sum of row maxima, and the row to branch on."""
    n, m = P.shape
    rowsum = 0
    besti = -1
    bestrow = -1
    for j in range(m):
        colmax[j] = 0
    for i in range(n):
        if assign[i] != FREE:
            continue
        rm = 0
        for j in range(m):
            if used[j]:
                continue
            k = key(i, j, pb, L, P, banned)
            if k > rm:
                rm = k
            if k > colmax[j]:
                colmax[j] = k
        rowmax[i] = rm
        rowsum += rm
        if rm > bestrow:
            bestrow = rm
            besti = i
    colsum = 0
    for j in range(m):
        if not used[j]:
            colsum += colmax[j]
    bound = SCALE * value + (rowsum if rowsum < colsum else colsum)
    if bound >= target and rowsum > 0 and use_lap:
        nr = 0
        for i in range(n):
            if assign[i] == FREE and rowmax[i] > 0:
                frow[nr] = i
                nr += 1
        nc = 0
        for j in range(m):
            if not used[j] and colmax[j] > 0:
                fcol[nc] = j
                nc += 1
        Kf = np.empty((nr, nc), np.int64)
        for r in range(nr):
            for c in range(nc):
                Kf[r, c] = key(frow[r], fcol[c], pb, L, P, banned)
        done, lap, _, _ = assignment(Kf, stop, False)
        if done and SCALE * value + lap < bound:
            bound = SCALE * value + lap
    return bound, rowsum, besti


@njit(cache=True)
def reached(i, pb, ix, assign, reach):  # pragma: no cover - compiled
    """Mark in ``reach`` the system nodes where an edge of gold node i to a free neighbour can be
    matched."""
    src, tgt, cptr, cc, cd = pb.src, pb.tgt, pb.cptr, pb.cc, pb.cd
    for t in range(ix.iptr[i], ix.iptr[i + 1]):
        e = ix.iedges[t]
        if assign[tgt[e] if src[e] == i else src[e]] != FREE:
            continue
        for q in range(cptr[e], cptr[e + 1]):
            reach[cc[q] if src[e] == i else cd[q]] = True


@njit(cache=True)
def link(i, j, sign, pb, ix, L, assign):  # pragma: no cover - compiled
    """Add (sign 1) or remove (-1) the edges that i -> j offers to i's free neighbours in L."""
    src, tgt, cptr, cc, cd, cw = pb.src, pb.tgt, pb.cptr, pb.cc, pb.cd, pb.cw
    for t in range(ix.iptr[i], ix.iptr[i + 1]):
        e = ix.iedges[t]
        x = tgt[e] if src[e] == i else src[e]
        if assign[x] != FREE:
            continue
        for q in range(cptr[e], cptr[e + 1]):
            if src[e] == i:
                if cc[q] == j:
                    L[x, cd[q]] += sign * cw[q]
            elif cd[q] == j:
                L[x, cc[q]] += sign * cw[q]


@njit(cache=True)
def record(value, best, assign, best_pi):  # pragma: no cover - compiled
    """The new incumbent value: ``value`` (its map ``assign`` copied into best_pi) when above ``best``."""
    if value <= best:
        return best
    for i in range(assign.shape[0]):
        best_pi[i] = assign[i] if assign[i] >= 0 else -1
    return value


@njit(cache=True)
def search(pb, ix, share, best, best_pi, root, limit, use_lap, banned, stop, sc):  # pragma: no cover
    """Branch and bound from an incumbent ``best`` (map ``best_pi``, updated) below ``root``.

    Returns (best, bound, steps, exact).  Pairs ``banned[i, j]`` are left out
    (they were proved unable to beat the incumbent).  Stops after ``limit``
    steps or when ``stop[0]`` is set, with the largest bound of the open
    levels (at most ``root``).
    """
    if stop[0]:  # stopped before the first step: the root's bound, without the O(candidates) set-up
        return best, root, 0, best >= root
    n, m = pb.U.shape
    E = pb.src.shape[0]
    src, tgt, U = pb.src, pb.tgt, pb.U
    iptr, iedges = ix.iptr, ix.iedges
    assign = np.full(n, FREE, np.int64)
    P = np.zeros((n, m), np.int64)
    out = np.zeros(m, np.int64)
    for i in range(n):
        row(i, out, assign, False, pb, ix, share, sc)
        P[i, :] = out
    used = np.zeros(m, np.bool_)
    L = np.zeros((n, m), np.int64)          # exact edge value towards fixed neighbours
    node = np.empty(n, np.int64)            # gold node fixed at each depth
    # the candidates of each depth, best first and -1 last, with their keys: a stack growing on demand
    cbase = np.zeros(n, np.int64)           # where each depth's candidates start
    ccap = min(n * (m + 1), 1 << 16)
    cand = np.empty(ccap, np.int64)
    ckey = np.empty(ccap, np.int64)
    ncand = np.zeros(n, np.int64)
    cpos = np.zeros(n, np.int64)
    cur = np.full(n, FREE, np.int64)        # current choice at each depth
    rest = np.zeros(n, np.int64)            # SCALE*value + row bound of the other free nodes
    lbound = np.zeros(n, np.int64)          # bound of each level (for inexact reports)
    # undo stack of potential rows: which node, and its old row
    deg_max = 0
    for i in range(n):
        if ix.eptr[i + 1] - ix.eptr[i] > deg_max:
            deg_max = ix.eptr[i + 1] - ix.eptr[i]
    saved_node = np.empty(2 * E + 1, np.int64)
    scap = min(2 * E + 1, 64)               # rows the undo stack holds now (it grows on demand)
    saved_row = np.empty((scap, m), np.int64)
    saved_top = np.zeros(n + 1, np.int64)   # stack height before each depth's fix
    nsaved = 0
    marks = np.zeros(n, np.bool_)
    touched = np.empty(max(deg_max, 1), np.int64)
    rowmax = np.zeros(n, np.int64)
    colmax = np.zeros(m, np.int64)
    keys = np.empty(m, np.int64)
    reach = np.zeros(m, np.bool_)
    frow = np.empty(n, np.int64)
    fcol = np.empty(m, np.int64)
    value = 0
    steps = 0
    nfree = n
    depth = -1
    stopped = False
    target = SCALE * (best + 1)

    expand = True
    while True:
        if expand:
            expand = False
            bound, rowsum, besti = free_bound(pb, L, P, banned, assign, used, rowmax, colmax, frow, fcol,
                                              use_lap, value, target, stop)
            if bound < target:
                pass  # pruned
            elif rowsum == 0:
                # every free node is best left unmatched: the completion is exact
                best = record(value, best, assign, best_pi)
                target = SCALE * (best + 1)
            else:
                depth += 1
                i = besti
                node[depth] = i
                lbound[depth] = bound // SCALE
                rest[depth] = SCALE * value + rowsum - rowmax[i]
                base = 0 if depth == 0 else cbase[depth - 1] + ncand[depth - 1]
                cbase[depth] = base
                if base + m + 1 > ccap:
                    ccap = max(2 * ccap, base + m + 1)
                    grown = np.empty(ccap, np.int64)
                    grown[:base] = cand[:base]
                    cand = grown
                    grown = np.empty(ccap, np.int64)
                    grown[:base] = ckey[:base]
                    ckey = grown
                cnt = 0
                reached(i, pb, ix, assign, reach)
                for j in range(m):
                    edge = reach[j]
                    reach[j] = False
                    if used[j]:
                        continue
                    k = key(i, j, pb, L, P, banned)
                    if k > 0 or (edge and not banned[i, j]):
                        fcol[cnt] = j
                        keys[cnt] = -k
                        cnt += 1
                order = np.argsort(keys[:cnt], kind="mergesort")
                for t in range(cnt):
                    cand[base + t] = fcol[order[t]]
                    ckey[base + t] = -keys[order[t]]
                cand[base + cnt] = -1
                ckey[base + cnt] = 0
                ncand[depth] = cnt + 1
                cpos[depth] = 0
                cur[depth] = FREE
        if depth < 0:
            break
        i = node[depth]
        # undo the current choice at this depth
        if cur[depth] != FREE:
            j = cur[depth]
            if j >= 0:
                link(i, j, -1, pb, ix, L, assign)
                value -= U[i, j] + L[i, j]
                used[j] = False
            while nsaved > saved_top[depth]:
                nsaved -= 1
                P[saved_node[nsaved], :] = saved_row[nsaved, :]
            assign[i] = FREE
            nfree += 1
            cur[depth] = FREE
        # next choice
        p = cpos[depth]
        if p >= ncand[depth]:
            depth -= 1
            continue
        j = cand[cbase[depth] + p]
        if j >= 0 and rest[depth] + ckey[cbase[depth] + p] < target:
            # candidates are sorted: no later real candidate can do better; try unmatched
            p = ncand[depth] - 1
            j = -1
        cpos[depth] = p + 1
        if j == -1 and rest[depth] < target:
            continue
        if steps >= limit or stop[0]:
            stopped = True
            break
        steps += 1
        # fix i -> j: edges to free neighbours become exact in L, their potential rows are recomputed
        assign[i] = j
        cur[depth] = j
        nfree -= 1
        saved_top[depth] = nsaved
        nt = 0
        for t in range(iptr[i], iptr[i + 1]):
            e = iedges[t]
            x = tgt[e] if src[e] == i else src[e]
            if assign[x] == FREE and not marks[x]:
                marks[x] = True
                touched[nt] = x
                nt += 1
        if j >= 0:
            link(i, j, 1, pb, ix, L, assign)
        for u in range(nt):
            x = touched[u]
            marks[x] = False
            saved_node[nsaved] = x
            if nsaved == scap:
                scap = min(2 * scap, 2 * E + 1)
                rows = np.empty((scap, m), np.int64)
                rows[:nsaved] = saved_row[:nsaved]
                saved_row = rows
            saved_row[nsaved, :] = P[x, :]
            nsaved += 1
            row(x, out, assign, True, pb, ix, share, sc)
            P[x, :] = out
        if j >= 0:
            used[j] = True
            value += U[i, j] + L[i, j]
        if nfree == 0:
            best = record(value, best, assign, best_pi)
            target = SCALE * (best + 1)
        else:
            expand = True
    if stopped:
        bound = best
        for d in range(depth + 1):
            if lbound[d] > bound:
                bound = lbound[d]
        if bound > root:
            bound = root
        return best, bound, steps, bound == best
    return best, best, steps, True

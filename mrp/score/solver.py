"""An exact solver for maximum common edge subgraph problems with node rewards.

The problem, over integer arrays only (the solver knows nothing of graphs):
find an injective partial map ``pi`` from gold nodes ``0..n-1`` to system nodes
``0..m-1`` that maximizes

    sum_i U[i, pi(i)]  +  sum over gold edges e = (a, b) of w(e, pi(a), pi(b))

where ``w(e, c, d)`` is the weight of the candidate system edge ``(c, d)`` of
``e`` (zero when there is none).  Loops belong in ``U``; gold edges are not
loops and their candidates are system edges that are not loops.

The search is a depth-first branch and bound.  Its bound counts, for each free
gold node, the best of: the exact value of its edges to fixed neighbours, its
node reward, and half the potential of its edges to other free nodes (the
other half is counted at the other end); the smaller of the row-wise and the
column-wise sums bounds the free part.  The root bound is a linear assignment
over the same per-pair potentials.  A heuristic start (assignment, then
improving moves and swaps) often meets the root bound, which proves the pair
without branching.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_INF = np.int64(1) << np.int64(60)


@njit(cache=True)
def _incidence(n, src, tgt):  # pragma: no cover - compiled
    """CSR lists of the edges incident to each gold node."""
    deg = np.zeros(n + 1, np.int64)
    for e in range(src.shape[0]):
        deg[src[e] + 1] += 1
        deg[tgt[e] + 1] += 1
    for i in range(n):
        deg[i + 1] += deg[i]
    fill = deg[:n].copy()
    edges = np.empty(deg[n], np.int64)
    for e in range(src.shape[0]):
        edges[fill[src[e]]] = e
        fill[src[e]] += 1
        edges[fill[tgt[e]]] = e
        fill[tgt[e]] += 1
    return deg, edges


@njit(cache=True)
def _potential(n, m, src, tgt, lab, nlab, cptr, cc, cd, cw, scount):  # pragma: no cover
    """H[i, j]: an upper bound on the weight of i's edges that can match edges at j.

    For each gold node, direction and label, the sum of the per-edge best
    weights at j, capped by the number of such system edges at j times the
    group's largest weight.
    """
    H = np.zeros((n, m), np.int64)
    E = src.shape[0]
    best = np.zeros(m, np.int64)
    acc = np.zeros(m, np.int64)
    touched = np.empty(m, np.int64)
    seen = np.zeros(m, np.bool_)
    # group key: (end node, direction, label); gather gold edge ends by key
    keys = np.empty(2 * E, np.int64)
    ends = np.empty(2 * E, np.int64)
    for e in range(E):
        keys[2 * e] = (src[e] * 2 + 0) * nlab + lab[e]
        ends[2 * e] = e
        keys[2 * e + 1] = (tgt[e] * 2 + 1) * nlab + lab[e]
        ends[2 * e + 1] = e
    order = np.argsort(keys, kind="mergesort")
    k = 0
    while k < 2 * E:
        key = keys[order[k]]
        node = key // (2 * nlab)
        direction = (key // nlab) % 2
        label = key % nlab
        ntouched = 0
        gmax = 0
        while k < 2 * E and keys[order[k]] == key:
            e = ends[order[k]]
            k += 1
            # best weight of this edge at each system node (as its end in this direction)
            local = 0
            for q in range(cptr[e], cptr[e + 1]):
                j = cc[q] if direction == 0 else cd[q]
                if cw[q] > best[j]:
                    if best[j] == 0:
                        touched[local] = j
                        local += 1
                    best[j] = cw[q]
                if cw[q] > gmax:
                    gmax = cw[q]
            for t in range(local):
                j = touched[t]
                if not seen[j]:
                    seen[j] = True
                    touched[m - 1 - ntouched] = j
                    ntouched += 1
                acc[j] += best[j]
                best[j] = 0
        for t in range(ntouched):
            j = touched[m - 1 - t]
            cap = scount[j, direction, label] * gmax
            H[node, j] += acc[j] if acc[j] < cap else cap
            acc[j] = 0
            seen[j] = False
    return H


@njit(cache=True)
def _assignment(B):  # pragma: no cover - compiled
    """Maximum-weight assignment of rows to columns of a non-negative matrix.

    Returns (value, column of each row or -1).  Shortest augmenting paths on a
    square zero-padded cost matrix (Hungarian method, O(N^3)).
    """
    n, m = B.shape
    N = max(n, m)
    top = 0
    for i in range(n):
        for j in range(m):
            if B[i, j] > top:
                top = B[i, j]
    cost = np.full((N + 1, N + 1), top, np.int64)
    for i in range(n):
        for j in range(m):
            cost[i + 1, j + 1] = top - B[i, j]
    u = np.zeros(N + 1, np.int64)
    v = np.zeros(N + 1, np.int64)
    p = np.zeros(N + 1, np.int64)
    way = np.zeros(N + 1, np.int64)
    for i in range(1, N + 1):
        p[0] = i
        j0 = 0
        minv = np.full(N + 1, _INF, np.int64)
        used = np.zeros(N + 1, np.bool_)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = _INF
            j1 = 0
            for j in range(1, N + 1):
                if not used[j]:
                    cur = cost[i0, j] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(N + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    col = np.full(n, -1, np.int64)
    value = 0
    for j in range(1, N + 1):
        i = p[j] - 1
        if i < n and j - 1 < m and B[i, j - 1] > 0:
            col[i] = j - 1
            value += B[i, j - 1]
    return value, col


@njit(cache=True)
def _edge_weight(e, c, d, cptr, cc, cd, cw):  # pragma: no cover - compiled
    if c < 0 or d < 0:
        return 0
    for q in range(cptr[e], cptr[e + 1]):
        if cc[q] == c and cd[q] == d:
            return cw[q]
    return 0


@njit(cache=True)
def _objective(pi, U, src, tgt, cptr, cc, cd, cw):  # pragma: no cover - compiled
    """The objective of a complete map (``-1`` for unmatched)."""
    value = 0
    for i in range(pi.shape[0]):
        if pi[i] >= 0:
            value += U[i, pi[i]]
    for e in range(src.shape[0]):
        value += _edge_weight(e, pi[src[e]], pi[tgt[e]], cptr, cc, cd, cw)
    return value


@njit(cache=True)
def _gain(i, j, k, pi, U, src, tgt, iptr, iedges, cptr, cc, cd, cw):  # pragma: no cover
    """Change of the objective when i moves to j (k: the gold node holding j, or -1: they swap)."""
    old_i = pi[i]
    delta = 0
    if old_i >= 0:
        delta -= U[i, old_i]
    if j >= 0:
        delta += U[i, j]
    if k >= 0:
        delta -= U[k, j]
        if old_i >= 0:
            delta += U[k, old_i]
    # edges incident to i (and to k), each once
    for t in range(iptr[i], iptr[i + 1]):
        e = iedges[t]
        a, b = src[e], tgt[e]
        oa, ob = pi[a], pi[b]
        delta -= _edge_weight(e, oa, ob, cptr, cc, cd, cw)
        na = j if a == i else (old_i if a == k else oa)
        nb = j if b == i else (old_i if b == k else ob)
        delta += _edge_weight(e, na, nb, cptr, cc, cd, cw)
    if k >= 0:
        for t in range(iptr[k], iptr[k + 1]):
            e = iedges[t]
            a, b = src[e], tgt[e]
            if a == i or b == i:
                continue
            oa, ob = pi[a], pi[b]
            delta -= _edge_weight(e, oa, ob, cptr, cc, cd, cw)
            na = old_i if a == k else oa
            nb = old_i if b == k else ob
            delta += _edge_weight(e, na, nb, cptr, cc, cd, cw)
    return delta


@njit(cache=True)
def _improve(pi, m, U, src, tgt, iptr, iedges, cptr, cc, cd, cw, passes):  # pragma: no cover
    """Hill-climb a map with improving moves (to a free node or unmatched) and swaps."""
    n = pi.shape[0]
    holder = np.full(m, -1, np.int64)
    for i in range(n):
        if pi[i] >= 0:
            holder[pi[i]] = i
    for _ in range(passes):
        improved = False
        for i in range(n):
            best_delta = 0
            best_j = -2
            for j in range(-1, m):
                if j == pi[i]:
                    continue
                k = holder[j] if j >= 0 else -1
                d = _gain(i, j, k, pi, U, src, tgt, iptr, iedges, cptr, cc, cd, cw)
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
                improved = True
        if not improved:
            break


@njit(cache=True)
def solve(U, src, tgt, lab, nlab, cptr, cc, cd, cw, slab_count, limit, lap_size):  # pragma: no cover
    """Maximize the objective; returns (value, bound, steps, exact, map).

    ``U``: int64[n, m] node rewards.  ``src``, ``tgt``, ``lab``: gold edges
    (no loops) with label ids below ``nlab``.  ``cptr``/``cc``/``cd``/``cw``:
    CSR candidate system edges (c, d) and weights of each gold edge.
    ``slab_count[j, dir, label]``: system edges at j (dir 0 out, 1 in) per label.
    ``limit``: search steps at most; ``lap_size``: largest side for which the
    assignment bound and start are computed.
    """
    n, m = U.shape
    E = src.shape[0]
    pi = np.full(n, -1, np.int64)
    if n == 0 or m == 0:
        return 0, 0, 0, True, pi
    iptr, iedges = _incidence(n, src, tgt)
    H = _potential(n, m, src, tgt, lab, nlab, cptr, cc, cd, cw, slab_count)
    maxw = np.zeros(E, np.int64)
    for e in range(E):
        for q in range(cptr[e], cptr[e + 1]):
            if cw[q] > maxw[e]:
                maxw[e] = cw[q]
    B = 2 * U + H
    # root bound and start
    if max(n, m) <= lap_size:
        lap, col = _assignment(B)
        root = lap // 2
        for i in range(n):
            pi[i] = col[i]
    else:
        root = 0
        for i in range(n):
            best = 0
            for j in range(m):
                if B[i, j] > best:
                    best = B[i, j]
            root += best
        cbound = 0
        for j in range(m):
            best = 0
            for i in range(n):
                if B[i, j] > best:
                    best = B[i, j]
            cbound += best
        if cbound < root:
            root = cbound
        root = root // 2
        # greedy start: rows by their best value
        taken = np.zeros(m, np.bool_)
        rowbest = np.zeros(n, np.int64)
        for i in range(n):
            for j in range(m):
                if B[i, j] > rowbest[i]:
                    rowbest[i] = B[i, j]
        for i in np.argsort(-rowbest, kind="mergesort"):
            bj = -1
            bv = 0
            for j in range(m):
                if not taken[j] and B[i, j] > bv:
                    bv = B[i, j]
                    bj = j
            if bj >= 0:
                pi[i] = bj
                taken[bj] = True
    passes = 50 if n * m <= 250000 else 3
    _improve(pi, m, U, src, tgt, iptr, iedges, cptr, cc, cd, cw, passes)
    best = _objective(pi, U, src, tgt, cptr, cc, cd, cw)
    best_pi = pi.copy()
    if best >= root or limit <= 0:
        return best, max(best, root), 0, best >= root, best_pi

    # ---- branch and bound ----
    FREE = -2
    assign = np.full(n, FREE, np.int64)
    used = np.zeros(m, np.bool_)
    L = np.zeros((n, m), np.int64)
    R = np.zeros(n, np.int64)
    for e in range(E):
        R[src[e]] += maxw[e]
        R[tgt[e]] += maxw[e]
    node = np.empty(n, np.int64)          # gold node fixed at each depth
    cand = np.empty((n, m + 1), np.int64)  # its candidates, best first, -1 last
    ckey = np.empty((n, m + 1), np.int64)  # their keys
    ncand = np.zeros(n, np.int64)
    cpos = np.zeros(n, np.int64)
    cur = np.full(n, FREE, np.int64)       # current choice at each depth
    rest = np.zeros(n, np.int64)           # 2*value + row bound of the other free nodes
    lbound = np.zeros(n, np.int64)         # bound of each level (for inexact reports)
    rowmax = np.zeros(n, np.int64)
    colmax = np.zeros(m, np.int64)
    keys = np.empty(m, np.int64)
    frow = np.empty(n, np.int64)
    fcol = np.empty(m, np.int64)
    value = 0
    steps = 0
    nfree = n
    depth = -1
    stopped = False

    # expand: compute the bound at the current node and push a level; written inline twice
    # (root and after each fix) through a flag loop.
    expand = True
    while True:
        if expand:
            expand = False
            # bound of the current partial map
            rowsum = 0
            besti = -1
            bestrow = -1
            for j in range(m):
                colmax[j] = 0
            for i in range(n):
                if assign[i] != FREE:
                    continue
                rm = 0
                Ri = R[i]
                for j in range(m):
                    if used[j]:
                        continue
                    h = H[i, j]
                    if h > Ri:
                        h = Ri
                    k = 2 * (U[i, j] + L[i, j]) + h
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
            bound2 = 2 * value + (rowsum if rowsum < colsum else colsum)
            if bound2 >= 2 * (best + 1) and rowsum > 0 and nfree <= lap_size:
                # the assignment bound over the free part respects injectivity
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
                K = np.empty((nr, nc), np.int64)
                for r in range(nr):
                    i = frow[r]
                    Ri = R[i]
                    for c in range(nc):
                        j = fcol[c]
                        h = H[i, j]
                        if h > Ri:
                            h = Ri
                        K[r, c] = 2 * (U[i, j] + L[i, j]) + h
                lap, _ = _assignment(K)
                if 2 * value + lap < bound2:
                    bound2 = 2 * value + lap
            if bound2 < 2 * (best + 1):
                pass  # pruned: fall through to backtracking
            elif rowsum == 0:
                # every free node is best left unmatched: the completion is exact
                if value > best:
                    best = value
                    for i in range(n):
                        best_pi[i] = assign[i] if assign[i] >= 0 else -1
            else:
                depth += 1
                i = besti
                node[depth] = i
                lbound[depth] = bound2 // 2
                rest[depth] = 2 * value + rowsum - rowmax[i]
                cnt = 0
                Ri = R[i]
                for j in range(m):
                    if used[j]:
                        continue
                    h = H[i, j]
                    if h > Ri:
                        h = Ri
                    k = 2 * (U[i, j] + L[i, j]) + h
                    if k > 0:
                        cand[depth, cnt] = j
                        keys[cnt] = -k
                        cnt += 1
                order = np.argsort(keys[:cnt], kind="mergesort")
                tmp = np.empty(cnt, np.int64)
                for t in range(cnt):
                    tmp[t] = cand[depth, order[t]]
                for t in range(cnt):
                    cand[depth, t] = tmp[t]
                    ckey[depth, t] = -keys[order[t]]
                cand[depth, cnt] = -1
                ckey[depth, cnt] = 0
                ncand[depth] = cnt + 1
                cpos[depth] = 0
                cur[depth] = FREE
        if depth < 0:
            break
        # undo the current choice at this depth
        i = node[depth]
        if cur[depth] != FREE:
            j = cur[depth]
            for t in range(iptr[i], iptr[i + 1]):
                e = iedges[t]
                x = tgt[e] if src[e] == i else src[e]
                if assign[x] != FREE:
                    continue
                R[x] += maxw[e]
                if j >= 0:
                    for q in range(cptr[e], cptr[e + 1]):
                        if src[e] == i:
                            if cc[q] == j:
                                L[x, cd[q]] -= cw[q]
                        elif cd[q] == j:
                            L[x, cc[q]] -= cw[q]
            if j >= 0:
                value -= U[i, j] + L[i, j]
                used[j] = False
            assign[i] = FREE
            nfree += 1
            cur[depth] = FREE
        # next choice
        p = cpos[depth]
        if p >= ncand[depth]:
            depth -= 1
            continue
        j = cand[depth, p]
        if j >= 0 and rest[depth] + ckey[depth, p] < 2 * (best + 1):
            # candidates are sorted: no later real candidate can do better; try unmatched
            p = ncand[depth] - 1
            j = -1
        cpos[depth] = p + 1
        if j == -1 and rest[depth] < 2 * (best + 1):
            continue
        if steps >= limit:
            stopped = True
            break
        steps += 1
        # fix i -> j
        assign[i] = j
        cur[depth] = j
        nfree -= 1
        if j >= 0:
            used[j] = True
            value += U[i, j] + L[i, j]
        for t in range(iptr[i], iptr[i + 1]):
            e = iedges[t]
            x = tgt[e] if src[e] == i else src[e]
            if assign[x] != FREE:
                continue
            R[x] -= maxw[e]
            if j >= 0:
                for q in range(cptr[e], cptr[e + 1]):
                    if src[e] == i:
                        if cc[q] == j:
                            L[x, cd[q]] += cw[q]
                    elif cd[q] == j:
                        L[x, cc[q]] += cw[q]
        if nfree == 0:
            if value > best:
                best = value
                for t in range(n):
                    best_pi[t] = assign[t] if assign[t] >= 0 else -1
        else:
            expand = True
    if stopped:
        bound = best
        for d in range(depth + 1):
            if lbound[d] > bound:
                bound = lbound[d]
        if bound > root:
            bound = root
        if bound < best:
            bound = best
        return best, bound, steps, bound == best, best_pi
    return best, best, steps, True, best_pi

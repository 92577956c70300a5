"""An exact solver for maximum common edge subgraph problems with node rewards.

The problem, over integer arrays only (the solver knows nothing of graphs):
find an injective partial map ``pi`` from gold nodes ``0..n-1`` to system nodes
``0..m-1`` that maximizes

    sum_i U[i, pi(i)]  +  sum over gold edges e = (a, b) of w(e, pi(a), pi(b))

where ``w(e, c, d)`` is the weight of the candidate system edge ``(c, d)`` of
``e`` (zero when there is none).  Loops belong in ``U``; gold edges are not
loops and their candidates are system edges that are not loops.

Bounds.  The weight of each candidate edge match is split between its two
node pairs, ``share`` at the source pair and the rest at the target pair; a
node pair's potential is its reward plus the best shares its edges can collect
there (at most one system edge per gold edge and one gold edge per system
edge, per label and direction).  The sum over any injective map of these
potentials bounds its objective, so a linear assignment over them bounds the
optimum (Gilmore-Lawler with a Lagrangian split).  The shares start at one
half and are tuned by subgradient steps at the root, each step's assignment
also serving as a start for hill climbing.  Inside the depth-first search,
edges to fixed neighbours count exactly and only edges between free nodes are
split; rows of the potential are recomputed when a neighbour is fixed.  All
arithmetic is in integers scaled by ``SCALE``.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel

_INF = np.int64(1) << np.int64(60)
#: Potentials are integers in units of 1/SCALE of a tuple.
SCALE = 64
#: Subgradient iterations at the root at most.
ROUNDS = 80


@kernel()
def _ends(n, src, tgt, lab):  # pragma: no cover - compiled
    """Edge ends grouped by (gold node, direction, label): CSR by node, and the group key of each end."""
    E = src.shape[0]
    width = 1
    for e in range(E):
        if lab[e] + 1 > width:
            width = lab[e] + 1
    keys = np.empty(2 * E, np.int64)
    for e in range(E):
        keys[2 * e] = (src[e] * 2) * width + lab[e]
        keys[2 * e + 1] = (tgt[e] * 2 + 1) * width + lab[e]
    order = np.argsort(keys, kind="mergesort")
    end_edge = np.empty(2 * E, np.int64)
    end_dir = np.empty(2 * E, np.int64)
    end_key = np.empty(2 * E, np.int64)
    ptr = np.zeros(n + 1, np.int64)
    for t in range(2 * E):
        k = order[t]
        end_edge[t] = k // 2
        end_dir[t] = k % 2
        end_key[t] = keys[k]
        node = src[k // 2] if k % 2 == 0 else tgt[k // 2]
        ptr[node + 1] += 1
    for i in range(n):
        ptr[i + 1] += ptr[i]
    return ptr, end_edge, end_dir, end_key


@kernel()
def _row(x, row, m, assign, free_only, ptr, end_edge, end_dir, end_key, src, tgt,
         cptr, cc, cd, cf, cw, share, fj_src, fj_tgt, emax, fmax, acc_a, acc_b, seen, tj, tf):
    """Recompute the edge potential of gold node x at every system node (into ``row``).

    Only edges whose other end is free count when ``free_only``.
    """
    for j in range(m):
        row[j] = 0
    t = ptr[x]
    end = ptr[x + 1]
    while t < end:
        key = end_key[t]
        d = end_dir[t]
        nj = 0
        nf = 0
        while t < end and end_key[t] == key:
            e = end_edge[t]
            t += 1
            other = tgt[e] if d == 0 else src[e]
            if free_only and assign[other] != -2:
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
            j = fj_src[f] if d == 0 else fj_tgt[f]
            if not seen[j]:
                seen[j] = True
                tj[nj] = j
                nj += 1
            acc_b[j] += fmax[f]
            fmax[f] = 0
        for u in range(nj):
            j = tj[u]
            row[j] += acc_a[j] if acc_a[j] < acc_b[j] else acc_b[j]
            acc_a[j] = 0
            acc_b[j] = 0
            seen[j] = False


@kernel()
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
    minv = np.empty(N + 1, np.int64)
    used = np.empty(N + 1, np.bool_)
    for i in range(1, N + 1):
        p[0] = i
        j0 = 0
        minv[:] = _INF
        used[:] = False
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


@kernel()
def _edge_weight(e, c, d, cptr, cc, cd, cw):  # pragma: no cover - compiled
    """The weight of candidate (c, d) of gold edge e, or 0 (binary search: candidates are sorted)."""
    if c < 0 or d < 0:
        return 0
    lo, hi = cptr[e], cptr[e + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        if cc[mid] < c or (cc[mid] == c and cd[mid] < d):
            lo = mid + 1
        else:
            hi = mid
    if lo < cptr[e + 1] and cc[lo] == c and cd[lo] == d:
        return cw[lo]
    return 0


@kernel()
def _objective(pi, U, src, tgt, cptr, cc, cd, cw):  # pragma: no cover - compiled
    """The objective of a complete map (``-1`` for unmatched)."""
    value = 0
    for i in range(pi.shape[0]):
        if pi[i] >= 0:
            value += U[i, pi[i]]
    for e in range(src.shape[0]):
        value += _edge_weight(e, pi[src[e]], pi[tgt[e]], cptr, cc, cd, cw)
    return value


@kernel()
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


@kernel()
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


@kernel()
def _positive(U):  # pragma: no cover - compiled
    """CSR lists, per gold node, of the system nodes with a positive reward."""
    n, m = U.shape
    ptr = np.zeros(n + 1, np.int64)
    for i in range(n):
        for j in range(m):
            if U[i, j] > 0:
                ptr[i + 1] += 1
        ptr[i + 1] += ptr[i]
    cols = np.empty(ptr[n], np.int64)
    t = 0
    for i in range(n):
        for j in range(m):
            if U[i, j] > 0:
                cols[t] = j
                t += 1
    return ptr, cols


@kernel()
def _improve(pi, m, U, src, tgt, iptr, iedges, cptr, cc, cd, cw, upos, ucol, passes,
             stop):  # pragma: no cover
    """Hill-climb a map with improving moves (to a free node or unmatched) and swaps.

    The targets tried for gold node i are the system nodes where i gains
    something by itself: a positive reward, or a candidate edge towards the
    image of one of its neighbours.
    """
    n = pi.shape[0]
    holder = np.full(m, -1, np.int64)
    for i in range(n):
        if pi[i] >= 0:
            holder[pi[i]] = i
    mark = np.zeros(m, np.bool_)
    tries = np.empty(m + 1, np.int64)
    for _ in range(passes):
        improved = False
        for i in range(n):
            if stop[0]:
                return
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


@kernel(nogil=True)
def solve(U, src, tgt, lab, cptr, cc, cd, cf, cw, ssrc, stgt, limit, lap_size, stop):  # pragma: no cover
    """Maximize the objective; returns (value, bound, steps, exact, map).

    ``U``: int64[n, m] node rewards.  ``src``, ``tgt``, ``lab``: gold edges (no
    loops) with integer labels.  ``cptr``/``cc``/``cd``/``cf``/``cw``: for each
    gold edge (CSR), its candidate system edges sorted by (source, target):
    endpoints, index into ``ssrc``/``stgt`` (the system edges), and weight.  ``limit``: search steps
    at most; ``lap_size``: the largest side for which assignment bounds are used;
    ``stop``: a one-element array that another thread sets non-zero to stop the
    search early (the result is then the best map so far with a valid bound).
    """
    n, m = U.shape
    E = src.shape[0]
    K = cc.shape[0]
    pi = np.full(n, -1, np.int64)
    if n == 0 or m == 0:
        return 0, 0, 0, True, pi
    FREE = -2
    iptr, iedges = _incidence(n, src, tgt)
    upos, ucol = _positive(U)
    ptr, end_edge, end_dir, end_key = _ends(n, src, tgt, lab)
    share = np.empty(K, np.int64)
    for q in range(K):
        share[q] = cw[q] * SCALE // 2
    # scratch for _row
    nsys = ssrc.shape[0]
    emax = np.zeros(m, np.int64)
    fmax = np.zeros(max(nsys, 1), np.int64)
    acc_a = np.zeros(m, np.int64)
    acc_b = np.zeros(m, np.int64)
    seen = np.zeros(m, np.bool_)
    tj = np.empty(2 * m + 1, np.int64)
    tf = np.empty(max(nsys, 1), np.int64)
    assign = np.full(n, FREE, np.int64)
    P = np.zeros((n, m), np.int64)
    row = np.zeros(m, np.int64)
    use_lap = max(n, m) <= lap_size

    # ---- root: bound, start, and tuning of the shares ----
    best = -1
    best_pi = pi.copy()
    root = _INF
    best_share = share.copy()
    step = 0.25
    stall = 0
    rounds = ROUNDS if use_lap else 1
    for rnd in range(rounds):
        if rnd > 0 and stop[0]:
            break
        for i in range(n):
            _row(i, row, m, assign, False, ptr, end_edge, end_dir, end_key, src, tgt,
                 cptr, cc, cd, cf, cw, share, ssrc, stgt, emax, fmax, acc_a, acc_b, seen, tj, tf)
            for j in range(m):
                P[i, j] = SCALE * U[i, j] + row[j]
        if use_lap:
            lap, col = _assignment(P)
        else:
            lap = 0
            for i in range(n):
                rm = 0
                for j in range(m):
                    if P[i, j] > rm:
                        rm = P[i, j]
                lap += rm
            cm = 0
            for j in range(m):
                top = 0
                for i in range(n):
                    if P[i, j] > top:
                        top = P[i, j]
                cm += top
            if cm < lap:
                lap = cm
            # greedy start by rows' best values
            col = np.full(n, -1, np.int64)
            taken = np.zeros(m, np.bool_)
            rowbest = np.zeros(n, np.int64)
            for i in range(n):
                for j in range(m):
                    if P[i, j] > rowbest[i]:
                        rowbest[i] = P[i, j]
            for i in np.argsort(-rowbest, kind="mergesort"):
                bj = -1
                bv = 0
                for j in range(m):
                    if not taken[j] and P[i, j] > bv:
                        bv = P[i, j]
                        bj = j
                if bj >= 0:
                    col[i] = bj
                    taken[bj] = True
        bound = lap // SCALE
        if bound < root:
            root = bound
            best_share[:] = share
            stall = 0
        else:
            stall += 1
            if stall >= 3:
                step *= 0.6
                stall = 0
        # a start from this assignment
        for i in range(n):
            pi[i] = col[i]
        value = _objective(pi, U, src, tgt, cptr, cc, cd, cw)
        if value < root or rnd == 0:
            _improve(pi, m, U, src, tgt, iptr, iedges, cptr, cc, cd, cw, upos, ucol, 50, stop)
            value = _objective(pi, U, src, tgt, cptr, cc, cd, cw)
        if value > best:
            best = value
            best_pi[:] = pi
        if best >= root or step * SCALE < 1.0:
            break
        # subgradient: move share toward the end whose pair the assignment did not take
        for e in range(E):
            a, b = src[e], tgt[e]
            for q in range(cptr[e], cptr[e + 1]):
                on_a = col[a] == cc[q]
                on_b = col[b] == cd[q]
                if on_a == on_b:
                    continue
                delta = int(step * cw[q] * SCALE)
                if delta < 1:
                    delta = 1
                if on_a:
                    share[q] = max(0, share[q] - delta)
                else:
                    share[q] = min(cw[q] * SCALE, share[q] + delta)
    if best >= root or limit <= 0:
        return best, max(best, root), 0, best >= root, best_pi

    # ---- branch and bound with the best shares ----
    share[:] = best_share
    for i in range(n):
        _row(i, row, m, assign, False, ptr, end_edge, end_dir, end_key, src, tgt,
             cptr, cc, cd, cf, cw, share, ssrc, stgt, emax, fmax, acc_a, acc_b, seen, tj, tf)
        for j in range(m):
            P[i, j] = row[j]
    used = np.zeros(m, np.bool_)
    L = np.zeros((n, m), np.int64)
    node = np.empty(n, np.int64)          # gold node fixed at each depth
    # the candidates of each depth, best first and -1 last, with their keys: a stack growing on demand
    cbase = np.zeros(n, np.int64)          # where each depth's candidates start
    ccap = min(n * (m + 1), 1 << 16)
    cand = np.empty(ccap, np.int64)
    ckey = np.empty(ccap, np.int64)
    ncand = np.zeros(n, np.int64)
    cpos = np.zeros(n, np.int64)
    cur = np.full(n, FREE, np.int64)       # current choice at each depth
    rest = np.zeros(n, np.int64)           # SCALE*value + row bound of the other free nodes
    lbound = np.zeros(n, np.int64)         # bound of each level (for inexact reports)
    # undo stack of potential rows: which node, and its old row
    deg_max = 0
    for i in range(n):
        if ptr[i + 1] - ptr[i] > deg_max:
            deg_max = ptr[i + 1] - ptr[i]
    saved_node = np.empty(2 * E + 1, np.int64)
    scap = min(2 * E + 1, 64)              # rows the undo stack holds now (it grows on demand)
    saved_row = np.empty((scap, m), np.int64)
    saved_top = np.zeros(n + 1, np.int64)  # stack height before each depth's fix
    nsaved = 0
    marks = np.zeros(n, np.bool_)
    touched = np.empty(max(deg_max, 1), np.int64)
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
    target = SCALE * (best + 1)

    expand = True
    while True:
        if expand:
            expand = False
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
                    k = SCALE * (U[i, j] + L[i, j]) + P[i, j]
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
                    i = frow[r]
                    for c in range(nc):
                        j = fcol[c]
                        Kf[r, c] = SCALE * (U[i, j] + L[i, j]) + P[i, j]
                lap, _ = _assignment(Kf)
                if SCALE * value + lap < bound:
                    bound = SCALE * value + lap
            if bound < target:
                pass  # pruned
            elif rowsum == 0:
                # every free node is best left unmatched: the completion is exact
                if value > best:
                    best = value
                    target = SCALE * (best + 1)
                    for i in range(n):
                        best_pi[i] = assign[i] if assign[i] >= 0 else -1
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
                for j in range(m):
                    if used[j]:
                        continue
                    k = SCALE * (U[i, j] + L[i, j]) + P[i, j]
                    if k > 0:
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
                for t in range(iptr[i], iptr[i + 1]):
                    e = iedges[t]
                    x = tgt[e] if src[e] == i else src[e]
                    if assign[x] != FREE:
                        continue
                    for q in range(cptr[e], cptr[e + 1]):
                        if src[e] == i:
                            if cc[q] == j:
                                L[x, cd[q]] -= cw[q]
                        elif cd[q] == j:
                            L[x, cc[q]] -= cw[q]
                value -= U[i, j] + L[i, j]
                used[j] = False
            while nsaved > saved_top[depth]:
                nsaved -= 1
                x = saved_node[nsaved]
                for jj in range(m):
                    P[x, jj] = saved_row[nsaved, jj]
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
        # fix i -> j
        assign[i] = j
        cur[depth] = j
        nfree -= 1
        saved_top[depth] = nsaved
        nt = 0
        for t in range(iptr[i], iptr[i + 1]):
            e = iedges[t]
            x = tgt[e] if src[e] == i else src[e]
            if assign[x] != FREE:
                continue
            if not marks[x]:
                marks[x] = True
                touched[nt] = x
                nt += 1
            if j >= 0:
                for q in range(cptr[e], cptr[e + 1]):
                    if src[e] == i:
                        if cc[q] == j:
                            L[x, cd[q]] += cw[q]
                    elif cd[q] == j:
                        L[x, cc[q]] += cw[q]
        for u in range(nt):
            x = touched[u]
            marks[x] = False
            saved_node[nsaved] = x
            if nsaved == scap:
                scap = min(2 * scap, 2 * E + 1)
                rows = np.empty((scap, m), np.int64)
                rows[:nsaved] = saved_row[:nsaved]
                saved_row = rows
            for jj in range(m):
                saved_row[nsaved, jj] = P[x, jj]
            nsaved += 1
            _row(x, row, m, assign, True, ptr, end_edge, end_dir, end_key, src, tgt,
                 cptr, cc, cd, cf, cw, share, ssrc, stgt, emax, fmax, acc_a, acc_b, seen, tj, tf)
            for jj in range(m):
                P[x, jj] = row[jj]
        if j >= 0:
            used[j] = True
            value += U[i, j] + L[i, j]
        if nfree == 0:
            if value > best:
                best = value
                target = SCALE * (best + 1)
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
        return best, bound, steps, bound == best, best_pi
    return best, best, steps, True, best_pi

"""Maximum-weight assignment with its dual (compiled; numba only)."""

from __future__ import annotations

import numpy as np

from mrp.compiled import njit
from mrp.solver import ABANDON

_INF = np.int64(1) << np.int64(60)


@njit(cache=True)
def _augment(cost, i, u, v, p, way, minv, used):  # pragma: no cover - compiled
    """Row ``i`` joins the assignment (Hungarian method): one shortest augmenting path over the columns
    1.. of the 1-based ``cost``, updating the duals ``u``, ``v`` and each column's row ``p``.

    The textbook method moves the duals of the columns reached, and the distances of the others, by each
    step's ``delta``; here only the steps' sum is kept (``minv`` holds a column's distance plus that sum, and,
    once the column is reached, the sum before the step it was reached in), and the duals move once at the
    end: the same comparisons in the same order (shifted by a common offset), the same duals and path.
    """
    m = cost.shape[1] - 1
    p[0] = i
    j0 = 0
    for j in range(m + 1):
        minv[j] = _INF
        used[j] = False
    total = np.int64(0)  # the sum of the steps' deltas so far
    while True:
        used[j0] = True
        minv[j0] = total  # the sum before the step in which j0 joins (its duals move by every step from it)
        i0 = p[j0]
        best = _INF + total
        j1 = 0
        base = u[i0]
        for j in range(1, m + 1):
            if not used[j]:
                cur = cost[i0, j] - base - v[j] + total
                if cur < minv[j]:
                    minv[j] = cur
                    way[j] = j0
                if minv[j] < best:
                    best = minv[j]
                    j1 = j
        total = best  # this step's delta is best - total: the new sum is best
        j0 = j1
        if p[j0] == 0:
            break
    for j in range(m + 1):
        if used[j]:
            shift = total - minv[j]
            u[p[j]] += shift
            v[j] -= shift
    while True:
        j1 = way[j0]
        p[j0] = p[j1]
        j0 = j1
        if j0 == 0:
            break


@njit(cache=True)
def _optimal(cost, u, v, p):  # pragma: no cover - compiled
    """Whether duals ``u``, ``v`` are feasible (reduced costs >= 0) and tight on the matching ``p``: then
    the matching is optimal (complementary slackness)."""
    N = cost.shape[0] - 1
    for j in range(1, N + 1):
        if p[j] < 1 or cost[p[j], j] - u[p[j]] - v[j] != 0:
            return False
    for i in range(1, N + 1):
        for j in range(1, N + 1):
            if cost[i, j] - u[i] - v[j] < 0:
                return False
    return True


@njit(cache=True)
def assignment(B, stop, with_slack):  # pragma: no cover - compiled
    """:func:`warm` from column duals zero (a cold start)."""
    N = max(B.shape[0], B.shape[1]) + 1
    return warm(B, stop, with_slack, np.zeros(N, np.int64), np.zeros(N, np.int64))


@njit(cache=True)
def warm(B, stop, with_slack, v, match):  # pragma: no cover - compiled
    """Maximum-weight assignment of rows to columns of a non-negative matrix.

    Returns (done, value, col, slack): ``col[i]`` is row i's column or -1, and
    (when ``with_slack``; else empty) ``slack[i, j] >= 0`` is the reduced cost
    of (i, j): every assignment that uses (i, j) is worth at most ``value -
    slack[i, j]``.  ``done`` is False when ``stop[0]`` was set before the end
    (nothing else is then valid); :data:`~mrp.solver.ABANDON` stops the set-up
    too.

    ``v`` and ``match`` (``max(n, m) + 1`` integers each) hold column duals and
    a matching of the square zero-padded cost matrix (``top - B``) to start
    from (``match[j]``: the row of column j, both 1-based, 0: none), e.g. the
    last assignment's of a matrix that changed a little (the subgradient rounds
    of the root); they end as the duals and matching found (unchanged when
    stopped).  From a cold start (``v`` all zero) the matrix is solved as it is,
    rectangular, with the smaller side as rows (:func:`_rectangular`, O(r^2 c)
    for r <= c); from a warm one on the padded square (:func:`_square`: the pairs
    of ``match`` still tight are kept, only the other rows are augmented, and the
    start is checked).  Any start gives the same optimum.
    """
    cold = True
    for j in range(1, v.shape[0]):
        if v[j] != 0:
            cold = False
    if not cold:
        return _square(B, stop, with_slack, v, match)
    return _rectangular(B, stop, with_slack, v, match)


@njit(cache=True)
def _largest(B, stop):  # pragma: no cover - compiled
    """The largest entry of ``B`` and 0, or -1 when ``stop`` says abandon (the set-up of an assignment: O(nm)
    steps, as plain Python seconds at 2,000 a side)."""
    n, m = B.shape
    top = 0
    for i in range(n):
        if stop[0] >= ABANDON:
            return -1
        for j in range(m):
            if B[i, j] > top:
                top = B[i, j]
    return top


@njit(cache=True)
def _rectangular(B, stop, with_slack, v, match):  # pragma: no cover - compiled
    """:func:`warm` from a cold start: shortest augmenting paths on the rectangular cost matrix ``top - B``
    whose rows are the smaller side (transposed when B has more rows than columns), each of its rows
    matched, each column at most once; its duals and matching are written into ``v`` and ``match`` as those
    of the padded square (the padding's rows, or columns, matched to the free lines, at dual ``top``)."""
    n, m = B.shape
    flip = n > m
    r = m if flip else n
    c = n if flip else m
    col = np.full(n, -1, np.int64)
    slack = np.zeros((n, m) if with_slack else (0, 0), np.int64)
    top = _largest(B, stop)
    if top < 0:
        return False, 0, col, slack
    cost = np.zeros((r + 1, c + 1), np.int64)
    for i in range(n):
        if stop[0] >= ABANDON:
            return False, 0, col, slack
        for j in range(m):
            if flip:
                cost[j + 1, i + 1] = top - B[i, j]
            else:
                cost[i + 1, j + 1] = top - B[i, j]
    p = np.zeros(c + 1, np.int64)
    way = np.zeros(c + 1, np.int64)
    minv = np.empty(c + 1, np.int64)
    used = np.empty(c + 1, np.bool_)
    u = np.zeros(r + 1, np.int64)
    dual = np.zeros(c + 1, np.int64)
    for i in range(1, r + 1):
        if stop[0]:
            return False, 0, col, slack
        _augment(cost, i, u, dual, p, way, minv, used)
    value = 0
    for j in range(1, c + 1):
        if p[j] > 0:
            i, k = (j - 1, p[j] - 1) if flip else (p[j] - 1, j - 1)
            if B[i, k] > 0:
                col[i] = k
                value += B[i, k]
    for i in range(slack.shape[0]):
        for j in range(m):
            slack[i, j] = cost[j + 1, i + 1] - u[j + 1] - dual[i + 1] if flip else \
                cost[i + 1, j + 1] - u[i + 1] - dual[j + 1]
    # the padded square's duals and matching (free lines: column duals <= 0 here, 0 on the free ones)
    v[:] = 0
    match[:] = 0
    pad = r
    if flip:  # square rows: B's rows (the columns here); square columns: B's columns, then the padding
        for j in range(1, r + 1):
            v[j] = u[j]
        for i in range(1, c + 1):
            if p[i] > 0:
                match[p[i]] = i
            else:
                pad += 1
                v[pad] = top
                match[pad] = i
    else:
        for j in range(1, c + 1):
            v[j] = dual[j]
            if p[j] > 0:
                match[j] = p[j]
            else:
                pad += 1
                match[j] = pad
    return True, value, col, slack


@njit(cache=True)
def _square(B, stop, with_slack, v, match):  # pragma: no cover - compiled
    """:func:`warm` from a start: shortest augmenting paths on the square zero-padded cost matrix (O(N^3)),
    from the column duals ``v`` and matching ``match`` (of the padded matrix); checked, and solved again
    from a cold start when the start's duals do not prove the matching found."""
    n, m = B.shape
    N = max(n, m)
    col = np.full(n, -1, np.int64)
    slack = np.zeros((n, m) if with_slack else (0, 0), np.int64)
    top = _largest(B, stop)
    if top < 0:
        return False, 0, col, slack
    cost = np.full((N + 1, N + 1), top, np.int64)
    for i in range(n):
        if stop[0] >= ABANDON:
            return False, 0, col, slack
        for j in range(m):
            cost[i + 1, j + 1] = top - B[i, j]
    cold = True
    for j in range(1, N + 1):
        if v[j] != 0:
            cold = False
    p = np.zeros(N + 1, np.int64)
    way = np.zeros(N + 1, np.int64)
    minv = np.empty(N + 1, np.int64)
    used = np.empty(N + 1, np.bool_)
    u = np.zeros(N + 1, np.int64)
    start = np.zeros(N + 1, np.int64)
    for attempt in range(2):
        if not cold and attempt == 0:
            start[1:] = v[1:]
            for i in range(1, N + 1):  # the largest row duals feasible with the start: reduced costs >= 0
                if stop[0] >= ABANDON:
                    return False, 0, col, slack
                low = _INF
                for j in range(1, N + 1):
                    if cost[i, j] - start[j] < low:
                        low = cost[i, j] - start[j]
                u[i] = low
        else:
            start[:] = 0
            u[:] = 0
        p[:] = 0
        kept = np.zeros(N + 1, np.bool_)
        if not cold and attempt == 0:
            for j in range(1, N + 1):
                r = match[j]
                if 0 < r <= N and not kept[r] and cost[r, j] - u[r] - start[j] == 0:
                    p[j] = r
                    kept[r] = True
        for i in range(1, N + 1):
            if stop[0]:
                return False, 0, col, slack
            if not kept[i]:
                _augment(cost, i, u, start, p, way, minv, used)
        # a cold start is the textbook method; a warm one is checked (the bound must not rest on it)
        if cold or attempt == 1 or _optimal(cost, u, start, p):
            break
    v[:] = start
    match[:] = p
    value = 0
    for j in range(1, N + 1):
        i = p[j] - 1
        if i < n and j - 1 < m and B[i, j - 1] > 0:
            col[i] = j - 1
            value += B[i, j - 1]
    for i in range(slack.shape[0]):
        for j in range(m):
            slack[i, j] = cost[i + 1, j + 1] - u[i + 1] - v[j + 1]
    return True, value, col, slack


@njit(cache=True)
def rows_assignment(B):  # pragma: no cover - compiled
    """The value of a maximum-weight assignment of the rows of a non-negative matrix with no more rows than
    columns (each row to its own column; a row at a zero is as good as unmatched): shortest augmenting paths
    on the rectangular matrix, O(n^2 m), for a few rows against many columns."""
    n, m = B.shape
    top = 0
    for i in range(n):
        for j in range(m):
            if B[i, j] > top:
                top = B[i, j]
    u = np.zeros(n + 1, np.int64)
    v = np.zeros(m + 1, np.int64)
    p = np.zeros(m + 1, np.int64)
    way = np.zeros(m + 1, np.int64)
    minv = np.empty(m + 1, np.int64)
    used = np.empty(m + 1, np.bool_)
    cost = np.zeros((n + 1, m + 1), np.int64)
    for i in range(n):
        for j in range(m):
            cost[i + 1, j + 1] = top - B[i, j]
    for i in range(1, n + 1):
        _augment(cost, i, u, v, p, way, minv, used)
    value = 0
    for j in range(1, m + 1):
        if p[j] > 0:
            value += B[p[j] - 1, j - 1]
    return value

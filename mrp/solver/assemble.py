"""The compiled half of building a Problem (mrp.solver.problem): node rewards and edge candidates from
integer rows.

:mod:`mrp.solver.problem` turns a pair's keys (triples, labels, edge labels)
into small integer ids, one pass over each graph; these kernels do the rest in
one call each, where numpy would take a few dozen calls per pair (a sentence
pair's Problem is built in microseconds; the calls alone cost more).
"""

from __future__ import annotations

import numpy as np

from mrp.compiled import njit

__all__ = ["candidates", "rewards"]


@njit(cache=True, nogil=True)
def _buckets(keys, size):  # pragma: no cover - compiled
    """Positions grouped by key (keys in ``0..size-1``; -1: left out): (start, order), the positions of key
    k being ``order[start[k]:start[k + 1]]``, in order."""
    start = np.zeros(size + 1, np.int64)
    for r in range(keys.shape[0]):
        if keys[r] >= 0:
            start[keys[r] + 1] += 1
    for k in range(size):
        start[k + 1] += start[k]
    at = start[:-1].copy()
    order = np.empty(start[size], np.int64)
    for r in range(keys.shape[0]):
        k = keys[r]
        if k >= 0:
            order[at[k]] = r
            at[k] += 1
    return start, order


@njit(cache=True, nogil=True)
def rewards(U, gold, system, keys):  # pragma: no cover - compiled
    """Add to ``U[i, j]`` the product of the counts of every key gold node i and system node j share.

    ``gold``, ``system``: int64 rows (node, key, count), keys in ``0..keys-1``
    (a gold row with key -1 has no system counterpart and adds nothing).
    """
    start, order = _buckets(system[:, 1].copy(), keys)
    for r in range(gold.shape[0]):
        k = gold[r, 1]
        if k < 0:
            continue
        i, count = gold[r, 0], gold[r, 2]
        for q in range(start[k], start[k + 1]):
            row = order[q]
            U[i, system[row, 0]] += count * system[row, 2]


@njit(cache=True, nogil=True)
def candidates(U, gold, system, labels, most, products):  # pragma: no cover - compiled
    """The edge arrays of a Problem from edge rows (source, target, label, payload), labels in
    ``0..labels-1``: (status, E, K, F, L, out), ``out`` holding one after the other src, tgt, lab (E
    each), cptr (E + 1), cc, cd, cf, cw (K each), ssrc, stgt (F each), the gold row of each gold edge
    (E), the system row of each system edge (F), and the gold rows and the system rows of the L pairs of
    loops that match (one array: each array returned costs more than the slices).

    As :func:`mrp.solver.problem.with_edges` defines them: the system edges that
    are not loops grouped by label in the order each label first appears among
    them, each group sorted by (source, target); the gold edges that are not
    loops in row order, their labels numbered as they first appear; a gold
    edge's candidates the group of its label.  With ``products``, each
    candidate weighs the product of the two payloads and each pair of loops
    adds that product to ``U`` (else ``cw`` is left zero for the caller).
    Status 1, and nothing, when the candidates are more than ``most``.
    """
    rank = np.full(labels, -1, np.int64)
    size = np.zeros(labels, np.int64)
    groups = 0
    edges_f = 0
    loops_s = 0
    span = 1
    for r in range(system.shape[0]):
        c, d, label = system[r, 0], system[r, 1], system[r, 2]
        if c == d:
            loops_s += 1
            continue
        if rank[label] < 0:
            rank[label] = groups
            groups += 1
        size[label] += 1
        edges_f += 1
        span = max(span, c + 1, d + 1)
    total = 0
    edges_e = 0
    loops_g = 0
    for r in range(gold.shape[0]):
        if gold[r, 0] == gold[r, 1]:
            loops_g += 1
        else:
            edges_e += 1
            total += size[gold[r, 2]]
    if total > most:
        return 1, 0, 0, 0, 0, np.zeros(0, np.int64)
    # the system edges, group by group, each sorted by (source, target): unique within a group
    key = np.empty(edges_f, np.int64)
    rows = np.empty(edges_f, np.int64)
    f = 0
    for r in range(system.shape[0]):
        c, d = system[r, 0], system[r, 1]
        if c != d:
            key[f] = (rank[system[r, 2]] * span + c) * span + d
            rows[f] = r
            f += 1
    order = np.argsort(key)
    matches = 0
    looping = np.full(system.shape[0], -1, np.int64)  # the label of each system loop
    if loops_g and loops_s:
        for q in range(system.shape[0]):
            if system[q, 0] == system[q, 1]:
                looping[q] = system[q, 2]
    begin, loops = _buckets(looping, labels)
    for r in range(gold.shape[0]):
        if loops_s and gold[r, 0] == gold[r, 1]:
            matches += begin[gold[r, 2] + 1] - begin[gold[r, 2]]
    out = np.zeros(5 * edges_e + 1 + 4 * total + 3 * edges_f + 2 * matches, np.int64)
    src, tgt, lab = out[0:edges_e], out[edges_e:2 * edges_e], out[2 * edges_e:3 * edges_e]
    at = 3 * edges_e
    cptr = out[at:at + edges_e + 1]
    at += edges_e + 1
    cc, cd, cf, cw = out[at:at + total], out[at + total:at + 2 * total], \
        out[at + 2 * total:at + 3 * total], out[at + 3 * total:at + 4 * total]
    at += 4 * total
    ssrc, stgt = out[at:at + edges_f], out[at + edges_f:at + 2 * edges_f]
    at += 2 * edges_f
    gitem = out[at:at + edges_e]
    at += edges_e
    sitem = out[at:at + edges_f]
    at += edges_f
    loop_g, loop_s = out[at:at + matches], out[at + matches:at + 2 * matches]
    for f in range(edges_f):
        r = rows[order[f]]
        ssrc[f], stgt[f], sitem[f] = system[r, 0], system[r, 1], r
    first_of_rank = np.zeros(groups + 1, np.int64)
    for label in range(labels):
        if rank[label] >= 0:
            first_of_rank[rank[label] + 1] = size[label]
    for g in range(groups):
        first_of_rank[g + 1] += first_of_rank[g]
    number = np.full(labels, -1, np.int64)
    numbered = 0
    e = 0
    k = 0
    for r in range(gold.shape[0]):
        a, b, label = gold[r, 0], gold[r, 1], gold[r, 2]
        if a == b:
            continue
        if number[label] < 0:
            number[label] = numbered
            numbered += 1
        src[e], tgt[e], lab[e], gitem[e] = a, b, number[label], r
        if rank[label] >= 0:
            first = first_of_rank[rank[label]]
            for f in range(first, first + size[label]):
                cc[k], cd[k], cf[k] = ssrc[f], stgt[f], f
                if products:
                    cw[k] = gold[r, 3] * system[sitem[f], 3]
                k += 1
        e += 1
        cptr[e] = k
    # loops match the system's loops of the same label
    if matches:
        t = 0
        for r in range(gold.shape[0]):
            if gold[r, 0] == gold[r, 1]:
                for p in range(begin[gold[r, 2]], begin[gold[r, 2] + 1]):
                    q = loops[p]
                    loop_g[t], loop_s[t] = r, q
                    t += 1
                    if products:
                        U[gold[r, 0], system[q, 0]] += gold[r, 3] * system[q, 3]
    return 0, edges_e, total, edges_f, matches, out

"""Index arrays the solver derives once per pair from a Problem (compiled; numba only)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mrp.compiled import njit


class Index(NamedTuple):
    """Lookup tables over a Problem's gold side (CSR lists; built by ``index``)."""

    #: int64[n+1], int64[2E]: the gold edges incident to each gold node (iedges[iptr[i]:iptr[i+1]])
    iptr: np.ndarray
    iedges: np.ndarray
    #: int64[n+1], int64[*]: per gold node, the system nodes where its reward U[i, j] is positive
    upos: np.ndarray
    ucol: np.ndarray
    #: int64[n+1]: per gold node, its edge ends, grouped by (direction, label)
    eptr: np.ndarray
    #: int64[2E]: the gold edge of each end
    end_edge: np.ndarray
    #: int64[2E]: 0 when the node is the edge's source, 1 when its target
    end_dir: np.ndarray
    #: int64[2E]: the group key (node, direction, label) of each end; equal keys are adjacent
    end_key: np.ndarray


@njit(cache=True)
def incidence(n, src, tgt):  # pragma: no cover - compiled
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
def positive(U):  # pragma: no cover - compiled
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


@njit(cache=True)
def ends(n, src, tgt, lab):  # pragma: no cover - compiled
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


@njit(cache=True)
def index(pb):  # pragma: no cover - compiled
    """The Index of a Problem."""
    n = pb.U.shape[0]
    iptr, iedges = incidence(n, pb.src, pb.tgt)
    upos, ucol = positive(pb.U)
    eptr, end_edge, end_dir, end_key = ends(n, pb.src, pb.tgt, pb.lab)
    return Index(iptr, iedges, upos, ucol, eptr, end_edge, end_dir, end_key)

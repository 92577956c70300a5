"""Turning a pair of normalized graphs into the solver's integer arrays."""

from __future__ import annotations

from typing import Any, Callable, Dict, Hashable, List, Mapping, NamedTuple, Optional, Tuple

import numpy as np

from mrp.normalize import NormalGraph


class Problem(NamedTuple):
    """The solver's input for one graph pair: integer arrays only (see mrp.solver.kernel).

    Gold nodes are ``0..n-1``, system nodes ``0..m-1``; gold edges ``0..E-1`` are
    not loops (a loop's weight is in ``U``); the candidates of gold edge ``e``
    are ``cptr[e]..cptr[e+1]-1``, sorted by (system source, system target).
    """

    #: int64[n, m]: the reward of matching gold node i with system node j (labels, properties, loops ...)
    U: np.ndarray
    #: int64[E]: source gold node of each gold edge
    src: np.ndarray
    #: int64[E]: target gold node of each gold edge
    tgt: np.ndarray
    #: int64[E]: label id of each gold edge (candidates share it; the bound groups edges by it)
    lab: np.ndarray
    #: int64[E+1]: CSR start of each gold edge's candidates
    cptr: np.ndarray
    #: int64[K]: system source node of each candidate
    cc: np.ndarray
    #: int64[K]: system target node of each candidate
    cd: np.ndarray
    #: int64[K]: the system edge of each candidate (index into ssrc/stgt)
    cf: np.ndarray
    #: int64[K]: weight of each candidate (tuples matched when the edge maps onto it; > 0)
    cw: np.ndarray
    #: int64[F]: source system node of each system edge that has a gold counterpart label
    ssrc: np.ndarray
    #: int64[F]: target system node of each such system edge
    stgt: np.ndarray
    #: False when the edges were left out (more than MAX_CANDIDATES candidates, or out of time while
    #: building): the solver then maximizes the node rewards only, and its value and bound count nothing
    #: else
    complete: bool = True


#: Candidate edge matches per pair at most (beyond, a pair is solved on its node rewards only).
MAX_CANDIDATES = 8_000_000
#: Gold edges between two looks at the stop flag while building ...
_CHECK_EVERY = 256
#: ... and system edges.
_CHECK_SYSTEM = 16384
#: Up to this many candidates (integer payloads), the arrays are listed in Python first (:func:`_few`;
#: a coli sentence pair has 30 at the median, an EDS pair about 200, where the numpy passes are as fast).
_FEW_CANDIDATES = 128


def _ids(values: List[Hashable], table: Dict[Hashable, int]) -> np.ndarray:
    return np.array([-1 if value is None else table.setdefault(value, len(table)) for value in values],
                    np.int64)


def build(gold: NormalGraph, system: NormalGraph, stop: Optional[np.ndarray] = None) -> Problem:
    """Node rewards (tops, labels, properties, anchors, loops) and edge candidates with weights.

    When ``stop[0]`` is set before the end, the Problem is not ``complete``.
    """
    n, m = len(gold), len(system)
    U = np.zeros((n, m), np.int64)
    if n and m:
        U += np.outer(np.array(gold.tops, np.int64), np.array(system.tops, np.int64))
        table: Dict[Hashable, int] = {}
        for gv, sv in ((gold.labels, system.labels), (gold.anchors, system.anchors)):
            gids, sids = _ids(list(gv), table), _ids(list(sv), table)
            U += (gids[:, None] == sids[None, :]) & (gids[:, None] >= 0)
        where: Dict[Tuple[str, str], List[int]] = {}
        for j, pairs in enumerate(system.properties):
            for pair in pairs:
                where.setdefault(pair, []).append(j)
        for i, pairs in enumerate(gold.properties):
            for pair in pairs:
                for j in where.get(pair, ()):
                    U[i, j] += 1
    if not any(gold.edges.values()):  # no gold edge has attributes: every match is worth 1 (1 x 1)
        return with_edges(U, dict.fromkeys(gold.edges, 1), dict.fromkeys(system.edges, 1), None, stop)
    gold_edges = {key: frozenset(attributes) for key, attributes in gold.edges.items()}
    system_edges = {key: frozenset(attributes) for key, attributes in system.edges.items()}
    return with_edges(U, gold_edges, system_edges, lambda mine, theirs: 1 + len(mine & theirs), stop)


def from_triples(local_g: List[Dict[Hashable, int]], local_s: List[Dict[Hashable, int]],
                 rel_g: Dict[Tuple[int, int, Hashable], int],
                 rel_s: Dict[Tuple[int, int, Hashable], int], stop: Optional[np.ndarray] = None) -> Problem:
    """The solver's input for triple counts (SMATCH): node-local triples and relations by key.

    Each count is a multiplicity; two matched triples are worth the product of
    theirs (the original SMATCH tool counts duplicates that way; with sets every
    multiplicity is 1).
    """
    n, m = len(local_g), len(local_s)
    where: Dict[Hashable, List[Tuple[int, int]]] = {}
    for j, triples in enumerate(local_s):
        for key, count in triples.items():
            found = where.get(key)
            if found is None:
                where[key] = [(j, count)]
            else:
                found.append((j, count))
    cells: List[int] = []
    values: List[int] = []
    for i, triples in enumerate(local_g):
        for key, count in triples.items():
            found = where.get(key)
            if found is not None:
                for j, theirs in found:
                    cells.append(i * m + j)
                    values.append(count * theirs)
    if cells and n * m <= 1 << 16 and max(values) < 1 << 50:  # small, and float64 sums of these are exact
        U = np.bincount(cells, values, n * m).astype(np.int64).reshape(n, m)
    else:
        U = np.zeros((n, m), np.int64)
        np.add.at(U.reshape(-1), np.array(cells, np.int64), np.array(values, np.int64))
    return with_edges(U, rel_g, rel_s, None, stop)


#: (first, count) of a label no system edge has
_NONE = (0, 0)


def with_edges(U: np.ndarray, gold: Mapping[Tuple[int, int, Any], Any],
                system: Mapping[Tuple[int, int, Any], Any], weight: Optional[Callable[[Any, Any], int]],
                stop: Optional[np.ndarray] = None) -> Problem:
    """The Problem for rewards U and edges keyed (source, target, label) with a payload each.

    A gold edge and a system edge with the same label match with ``weight(gold
    payload, system payload)`` (the product of the two when ``weight`` is None:
    integer payloads); loops can only match loops and go into U.  The
    candidates of each gold edge are sorted by (source, target), as the solver
    requires.  Past MAX_CANDIDATES candidates, or when ``stop[0]`` is set, the
    Problem keeps the rewards only (not ``complete``).
    """
    s_edges: Dict[Hashable, List[Tuple[int, int, Any]]] = {}
    s_loops: Dict[Hashable, List[Tuple[int, Any]]] = {}
    for number, ((c, d, key), payload) in enumerate(system.items()):
        if stop is not None and number % _CHECK_SYSTEM == 0 and stop[0]:
            return _rewards_only(U)
        if c == d:
            s_loops.setdefault(key, []).append((c, payload))
        else:
            found = s_edges.get(key)
            if found is None:
                s_edges[key] = [(c, d, payload)]
            else:
                found.append((c, d, payload))
    # the system edges by label, each label's sorted by ends: label key -> (first index, count)
    flat: List[Tuple[int, int, Any]] = []
    blocks: Dict[Hashable, Tuple[int, int]] = {}
    for key, found in s_edges.items():
        if stop is not None and stop[0]:
            return _rewards_only(U)
        found.sort()  # the ends are unique within a label: payloads are never compared
        blocks[key] = (len(flat), len(found))
        flat.extend(found)
    labels: Dict[Hashable, int] = {}
    edges: List[Tuple[int, int, int, int, int]] = []  # source, target, label, first candidate, candidates
    gpay: List[Any] = []
    loops: List[Tuple[int, Any, Hashable]] = []
    total = 0
    for number, ((a, b, key), payload) in enumerate(gold.items()):
        if stop is not None and number % _CHECK_EVERY == 0 and stop[0]:
            return _rewards_only(U)
        if a == b:
            loops.append((a, payload, key))
            continue
        label = labels.get(key)
        if label is None:
            label = labels[key] = len(labels)
        first, size = blocks.get(key, _NONE)
        edges.append((a, b, label, first, size))
        gpay.append(payload)
        total += size
    if total > MAX_CANDIDATES or (stop is not None and stop[0]):
        return _rewards_only(U)
    for a, payload, key in loops:
        for j, theirs in s_loops.get(key, ()):
            U[a, j] += payload * theirs if weight is None else weight(payload, theirs)
    if weight is None and total <= _FEW_CANDIDATES:
        return _few(U, edges, gpay, flat)
    columns = np.array(edges, np.int64).reshape(-1, 5).T
    sizes = columns[4]
    cptr = np.zeros(len(edges) + 1, np.int64)
    np.cumsum(sizes, out=cptr[1:])
    # candidate k of gold edge e is system edge firsts[e] + (k - cptr[e])
    cf = np.arange(total, dtype=np.int64) + np.repeat(columns[3] - cptr[:-1], sizes)
    if stop is not None and stop[0]:  # each step below is a pass over every candidate
        return _rewards_only(U)
    if weight is None:  # integer payloads that multiply
        ends = np.array(flat, np.int64).reshape(-1, 3).T if len(flat) <= 1 << 12 else \
            np.array([[edge[0] for edge in flat], [edge[1] for edge in flat], [edge[2] for edge in flat]],
                     np.int64)
        cw = np.repeat(_ints(gpay), sizes) * ends[2][cf]
    else:
        ends = np.array([edge[:2] for edge in flat], np.int64).reshape(-1, 2).T
        weights = _weights(weight, gpay, [edge[2] for edge in flat], columns[3].tolist(), sizes.tolist(),
                           total, stop)
        if weights is None:
            return _rewards_only(U)
        cw = weights
    if stop is not None and stop[0]:
        return _rewards_only(U)
    system_src, system_tgt = ends[0].copy(), ends[1].copy()
    return Problem(U, columns[0].copy(), columns[1].copy(), columns[2].copy(), cptr, system_src[cf],
                   system_tgt[cf], cf, cw, system_src, system_tgt)


def _few(U: np.ndarray, edges: List[Tuple[int, int, int, int, int]], gpay: List[int],
         flat: List[Tuple[int, int, Any]]) -> Problem:
    """:func:`with_edges`'s Problem for integer payloads and few candidates, its arrays listed first (a
    sentence pair's: a few dozen numpy calls cost more than the lists)."""
    src: List[int] = []
    tgt: List[int] = []
    lab: List[int] = []
    cptr = [0]
    cc: List[int] = []
    cd: List[int] = []
    cf: List[int] = []
    cw: List[int] = []
    for (a, b, label, first, size), payload in zip(edges, gpay):
        src.append(a)
        tgt.append(b)
        lab.append(label)
        cptr.append(cptr[-1] + size)
        for f in range(first, first + size):
            c, d, theirs = flat[f]
            cc.append(c)
            cd.append(d)
            cf.append(f)
            cw.append(payload * theirs)
    i64 = np.int64
    return Problem(U, np.array(src, i64), np.array(tgt, i64), np.array(lab, i64), np.array(cptr, i64),
                   np.array(cc, i64), np.array(cd, i64), np.array(cf, i64), np.array(cw, i64),
                   np.array([edge[0] for edge in flat], i64), np.array([edge[1] for edge in flat], i64))


def _weights(weight: Callable[[Any, Any], int], gpay: List[Any], spay: List[Any], firsts: List[int],
             sizes: List[int], total: int, stop: Optional[np.ndarray]) -> Optional[np.ndarray]:
    """Each candidate's weight(gold payload, system payload), gold edge by gold edge (None when ``stop[0]``
    is set meanwhile).  Payloads repeat (most edges carry none), so where the distinct ones are few the
    weight is computed once per distinct pair and spread with numpy."""
    distinct: Dict[Any, int] = {}
    try:
        ids = np.fromiter((distinct.setdefault(payload, len(distinct)) for payload in spay), np.int64,
                          len(spay))
    except TypeError:  # unhashable payloads: one weight per candidate
        ids = None
    mine_distinct = len(set(gpay)) if ids is not None else 0
    out = np.empty(total, np.int64)
    position = 0
    table: Dict[Any, np.ndarray] = {}
    for mine, first, size in zip(gpay, firsts, sizes):
        if stop is not None and stop[0]:
            return None
        if ids is not None and mine_distinct * len(distinct) <= total:
            row = table.get(mine)
            if row is None:
                row = table[mine] = np.array([weight(mine, theirs) for theirs in distinct], np.int64)
            out[position:position + size] = row[ids[first:first + size]]
        else:
            out[position:position + size] = np.fromiter(
                (weight(mine, spay[f]) for f in range(first, first + size)), np.int64, size)
        position += size
    return out


def _ints(values: List[int]) -> np.ndarray:
    """Integers as an int64 array (an empty list too)."""
    return np.array(values, np.int64)


def _rewards_only(U: np.ndarray) -> Problem:
    """The Problem of node rewards U without edges (not ``complete``)."""
    empty = np.zeros(0, np.int64)
    return Problem(U, empty, empty, empty, np.zeros(1, np.int64), empty, empty, empty, empty, empty, empty,
                   False)


def candidate_edges(problem: Problem) -> np.ndarray:
    """The gold edge of each candidate (``cptr`` unrolled)."""
    return np.repeat(np.arange(problem.src.shape[0]), np.diff(problem.cptr))


def restrict(problem: Problem, rows: np.ndarray, cols: np.ndarray) -> Problem:
    """The Problem on gold nodes ``rows`` and system nodes ``cols`` only (both ascending), renumbered
    ``0..len-1`` in that order; edges and candidates with an end outside are left out."""
    n, m = problem.U.shape
    gold_at = np.full(n, -1, np.int64)
    gold_at[rows] = np.arange(rows.shape[0])
    system_at = np.full(m, -1, np.int64)
    system_at[cols] = np.arange(cols.shape[0])
    kept_edges = (gold_at[problem.src] >= 0) & (gold_at[problem.tgt] >= 0)
    edge_of = candidate_edges(problem)
    kept = kept_edges[edge_of] & (system_at[problem.cc] >= 0) & (system_at[problem.cd] >= 0)
    edges = np.nonzero(kept_edges)[0]
    cptr = np.zeros(edges.shape[0] + 1, np.int64)
    np.cumsum(np.bincount(edge_of[kept], minlength=problem.src.shape[0])[edges], out=cptr[1:])
    kept_system = (system_at[problem.ssrc] >= 0) & (system_at[problem.stgt] >= 0)
    system_edge_at = np.cumsum(kept_system) - 1
    return Problem(problem.U[np.ix_(rows, cols)], gold_at[problem.src[edges]], gold_at[problem.tgt[edges]],
                   problem.lab[edges], cptr, system_at[problem.cc[kept]], system_at[problem.cd[kept]],
                   system_edge_at[problem.cf[kept]], problem.cw[kept], system_at[problem.ssrc[kept_system]],
                   system_at[problem.stgt[kept_system]], problem.complete)


def within(problem: Problem, gold_groups: np.ndarray, system_groups: np.ndarray) -> Problem:
    """The Problem where gold node i may match system node j only when ``gold_groups[i] ==
    system_groups[j]`` (e.g. the sentences of two documents): every other pair is worth nothing (its
    reward is 0 and no edge candidate uses it), so an optimal map of this Problem, with the pairs across
    groups unmapped (:func:`unmapped_across`), is an optimal map among those within groups, of the same
    value; its bound bounds them."""
    same = gold_groups[:, None] == system_groups[None, :]
    edge_of = candidate_edges(problem)
    kept = ((gold_groups[problem.src[edge_of]] == system_groups[problem.cc])
            & (gold_groups[problem.tgt[edge_of]] == system_groups[problem.cd]))
    cptr = np.zeros(problem.src.shape[0] + 1, np.int64)
    np.cumsum(np.bincount(edge_of[kept], minlength=problem.src.shape[0]), out=cptr[1:])
    return problem._replace(U=np.where(same, problem.U, 0), cptr=cptr, cc=problem.cc[kept],
                            cd=problem.cd[kept], cf=problem.cf[kept], cw=problem.cw[kept])


def unmapped_across(mapping: List[int], gold_groups: np.ndarray, system_groups: np.ndarray) -> List[int]:
    """The map with every pair across groups unmapped (worth nothing under :func:`within`)."""
    return [j if j >= 0 and gold_groups[i] == system_groups[j] else -1 for i, j in enumerate(mapping)]

"""Turning a pair of normalized graphs into the solver's integer arrays."""

from __future__ import annotations

from itertools import repeat
from typing import Any, Callable, Dict, Hashable, List, Mapping, NamedTuple, Optional, Tuple

import numpy as np

from mrp.normalize import NormalGraph
from mrp.solver import Abandoned


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


def _rows(values: List[int], width: int) -> np.ndarray:
    """A flat list of integers as an int64 array of rows ``width`` wide."""
    return np.array(values, np.int64).reshape(-1, width)


def _node_rows(normal: NormalGraph, tables: Tuple[Dict[Hashable, int], ...], intern: bool) -> List[int]:
    """Rows (node, key, 1) of a normal graph's tops (key 0), labels, anchors and properties: key ``1 +
    field + 3 * k`` for the ``k``-th distinct value of a field (labels 0, anchors 1, properties 2) in
    ``tables``; values new to a table are added with ``intern``, else left out (no counterpart)."""
    rows: List[int] = []
    for i, top in enumerate(normal.tops):
        if top:
            rows += (i, 0, 1)
    fields = ((normal.labels, tables[0], 1), (normal.anchors, tables[1], 2))
    for values, table, offset in fields:
        for i, value in enumerate(values):
            if value is not None:
                k = table.get(value)
                if k is None:
                    if not intern:
                        continue
                    k = table[value] = len(table)
                rows += (i, offset + 3 * k, 1)
    table = tables[2]
    for i, pairs in enumerate(normal.properties):
        for pair in pairs:
            k = table.get(pair)
            if k is None:
                if not intern:
                    continue
                k = table[pair] = len(table)
            rows += (i, 3 + 3 * k, 1)
    return rows


def build(gold: NormalGraph, system: NormalGraph, stop: Optional[np.ndarray] = None) -> Problem:
    """Node rewards (tops, labels, properties, anchors, loops) and edge candidates with weights.

    When ``stop[0]`` is set before the end, the Problem is not ``complete``.
    """
    if not any(gold.edges.values()):  # no gold edge has attributes: every match is worth 1 (1 x 1)
        return from_rows(normal_rows(gold, system), stop)
    U = np.zeros((len(gold), len(system)), np.int64)
    gold_nodes, system_nodes, keys = _node_part(gold, system)
    if not _rewarded(U, gold_nodes, system_nodes, keys):
        return _rewards_only(U)
    gold_edges = {key: frozenset(attributes) for key, attributes in gold.edges.items()}
    system_edges = {key: frozenset(attributes) for key, attributes in system.edges.items()}
    return with_edges(U, gold_edges, system_edges, lambda mine, theirs: 1 + len(mine & theirs), stop)


def _node_part(gold: NormalGraph, system: NormalGraph) -> Tuple[List[int], List[int], int]:
    """The node rows of gold and of system (:func:`_node_rows`) and how many keys they may use."""
    if not (len(gold) and len(system)):
        return [], [], 0
    tables: Tuple[Dict[Hashable, int], ...] = ({}, {}, {})
    system_nodes = _node_rows(system, tables, True)
    gold_nodes = _node_rows(gold, tables, False)
    return gold_nodes, system_nodes, 4 + 3 * max(map(len, tables))


def normal_rows(gold: NormalGraph, system: NormalGraph) -> Rows:
    """The rows of :func:`build`'s Problem for a pair whose gold edges carry no attributes (every edge
    match worth 1): :func:`from_rows` of them is that Problem."""
    gold_nodes, system_nodes, keys = _node_part(gold, system)
    labels: Dict[Hashable, int] = {}
    system_edges = _edge_rows(system.edges, labels, True, True)[0]
    gold_edges = _edge_rows(gold.edges, labels, True, True)[0]
    return Rows(len(gold), len(system), gold_nodes, system_nodes, keys, gold_edges, system_edges,
                len(labels))


class Rows(NamedTuple):
    """A pair's keys numbered (per pair): node rows (node, key, count) and edge rows (source, target,
    label, payload) of gold and of system, each a flat list of integers, with the pair's node counts and
    how many keys and labels there are."""

    n: int
    m: int
    gold_nodes: List[int]
    system_nodes: List[int]
    keys: int
    gold_edges: List[int]
    system_edges: List[int]
    labels: int


def triple_rows(local_g: List[Dict[Hashable, int]], local_s: List[Dict[Hashable, int]],
                rel_g: Dict[Tuple[int, int, Hashable], int],
                rel_s: Dict[Tuple[int, int, Hashable], int]) -> Rows:
    """The rows of :func:`from_triples`'s Problem (gold keys that no system node has are left out)."""
    keys: Dict[Hashable, int] = {}
    system_nodes: List[int] = []
    for j, triples in enumerate(local_s):
        for key, count in triples.items():
            k = keys.get(key)
            if k is None:
                k = keys[key] = len(keys)
            system_nodes += (j, k, count)
    gold_nodes: List[int] = []
    for i, triples in enumerate(local_g):
        for key, count in triples.items():
            k = keys.get(key)
            if k is not None:
                gold_nodes += (i, k, count)
    labels: Dict[Hashable, int] = {}
    system_edges = _edge_rows(rel_s, labels, True, False)[0]
    gold_edges = _edge_rows(rel_g, labels, True, False)[0]
    return Rows(len(local_g), len(local_s), gold_nodes, system_nodes, len(keys), gold_edges, system_edges,
                len(labels))


def from_triples(local_g: List[Dict[Hashable, int]], local_s: List[Dict[Hashable, int]],
                 rel_g: Dict[Tuple[int, int, Hashable], int],
                 rel_s: Dict[Tuple[int, int, Hashable], int], stop: Optional[np.ndarray] = None) -> Problem:
    """The solver's input for triple counts (SMATCH): node-local triples and relations by key.

    Each count is a multiplicity; two matched triples are worth the product of
    theirs (the original SMATCH tool counts duplicates that way; with sets every
    multiplicity is 1).
    """
    return from_rows(triple_rows(local_g, local_s, rel_g, rel_s), stop)


def from_rows(rows: Rows, stop: Optional[np.ndarray] = None) -> Problem:
    """The Problem of a pair's rows (integer payloads, which multiply)."""
    U = np.zeros((rows.n, rows.m), np.int64)
    if not _rewarded(U, rows.gold_nodes, rows.system_nodes, rows.keys) or (stop is not None and stop[0]):
        return _rewards_only(U)
    return _candidates(U, rows.gold_edges, rows.system_edges, rows.labels, None, [], [], stop)


def _rewarded(U: np.ndarray, gold_nodes: List[int], system_nodes: List[int], keys: int) -> bool:
    """Add the node rows' rewards to U (:func:`mrp.solver.assemble.rewards`); False when the call was
    abandoned as plain Python past the pair's time (U then holds some of them: a Problem of it is not
    ``complete``, its map counted by the caller)."""
    from mrp.solver.assemble import rewards

    if gold_nodes:
        try:
            rewards(U, _rows(gold_nodes, 3), _rows(system_nodes, 3), keys)
        except Abandoned:
            return False
    return True


def _edge_rows(edges: Mapping[Tuple[int, int, Any], Any], labels: Dict[Hashable, int], products: bool,
               unit: bool) -> Tuple[List[int], List[Any]]:
    """Rows (source, target, label id, payload) of edges keyed (source, target, label), label ids added to
    ``labels`` as they first appear; the payloads go into the rows with ``products`` (1 each with
    ``unit``), else into the list returned beside them."""
    rows: List[int] = []
    payloads: List[Any] = []
    if products:
        for (a, b, key), payload in (zip(edges, repeat(1)) if unit else edges.items()):
            label = labels.get(key)
            if label is None:
                label = labels[key] = len(labels)
            rows += (a, b, label, payload)
        return rows, payloads
    for (a, b, key), payload in edges.items():
        label = labels.get(key)
        if label is None:
            label = labels[key] = len(labels)
        rows += (a, b, label, 0)
        payloads.append(payload)
    return rows, payloads


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
    U = np.ascontiguousarray(U, np.int64)  # the compiled kernels' one layout (a no-op for the usual)
    labels: Dict[Hashable, int] = {}
    system_rows, system_payloads = _edge_rows(system, labels, weight is None, False)
    gold_rows, gold_payloads = _edge_rows(gold, labels, weight is None, False)
    if stop is not None and stop[0]:
        return _rewards_only(U)
    return _candidates(U, gold_rows, system_rows, len(labels), weight, gold_payloads, system_payloads, stop)


def _candidates(U: np.ndarray, gold_rows: List[int], system_rows: List[int], labels: int,
                weight: Optional[Callable[[Any, Any], int]], gold_payloads: List[Any],
                system_payloads: List[Any], stop: Optional[np.ndarray]) -> Problem:
    """The Problem of rewards U and edge rows (:func:`_edge_rows`), the payloads in the rows when
    ``weight`` is None, else in the lists beside them."""
    from mrp.solver.assemble import candidates

    try:
        status, E, K, F, L, out = candidates(U, _rows(gold_rows, 4), _rows(system_rows, 4), labels,
                                             MAX_CANDIDATES, weight is None)
    except Abandoned:  # as plain Python, past the pair's time (mrp.solver.plain)
        return _rewards_only(U)
    if status or (stop is not None and stop[0]):
        return _rewards_only(U)
    src, tgt, lab, cptr, cc, cd, cf, cw, ssrc, stgt, gitem, sitem, loop_g, loop_s = unpacked(E, K, F, L, out)
    if weight is not None:
        sizes = np.diff(cptr)
        firsts = np.where(sizes > 0, cf[np.minimum(cptr[:-1], max(cf.shape[0] - 1, 0))], 0) \
            if cf.shape[0] else np.zeros(sizes.shape[0], np.int64)
        weights = _weights(weight, [gold_payloads[r] for r in gitem.tolist()],
                           [system_payloads[r] for r in sitem.tolist()], firsts.tolist(), sizes.tolist(),
                           cf.shape[0], stop)
        if weights is None:
            return _rewards_only(U)
        cw = weights
        for r, q in zip(loop_g.tolist(), loop_s.tolist()):
            U[gold_rows[4 * r], system_rows[4 * q]] += weight(gold_payloads[r], system_payloads[q])
    return Problem(U, src, tgt, lab, cptr, cc, cd, cf, cw, ssrc, stgt)


def unpacked(E: int, K: int, F: int, L: int, out: np.ndarray) -> Tuple[np.ndarray, ...]:
    """The arrays :func:`mrp.solver.assemble.candidates` returns in one: src, tgt, lab, cptr, cc, cd, cf,
    cw, ssrc, stgt, the gold row of each gold edge, the system row of each system edge, and the gold and
    system rows of the loops that match."""
    c, s = 4 * E + 1, 4 * E + 1 + 4 * K  # where the candidates' and the system edges' arrays start
    return (out[:E], out[E:2 * E], out[2 * E:3 * E], out[3 * E:c], out[c:c + K], out[c + K:c + 2 * K],
            out[c + 2 * K:c + 3 * K], out[c + 3 * K:s], out[s:s + F], out[s + F:s + 2 * F],
            out[s + 2 * F:s + 2 * F + E], out[s + 2 * F + E:s + 3 * F + E],
            out[s + 3 * F + E:s + 3 * F + E + L], out[s + 3 * F + E + L:])


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

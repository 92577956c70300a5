"""Many small Problems of integer payloads built and searched in one compiled call.

A corpus of sentence pairs is mostly pairs the search settles at its root in
microseconds; one call per pair (building, searching, the arrays handed to and
fro) costs more than that.  Here the pairs' rows (:class:`mrp.solver.problem.Rows`)
go in together (a :class:`mrp.solver.batch_rows.Batch`), and each Problem is built
(:mod:`mrp.solver.assemble`) and searched (:func:`mrp.solver.kernel.solve`) exactly
as it would be alone.
"""

from __future__ import annotations

from typing import List, NamedTuple, Optional, Sequence

import numpy as np

from mrp.compiled import njit
from mrp.solver.assemble import candidates, rewards
from mrp.solver.batch_rows import Batch
from mrp.solver.kernel import solve
from mrp.solver.problem import MAX_CANDIDATES, Problem, Rows

__all__ = ["Searched", "search_all", "search_batch", "search_rows"]


class Searched(NamedTuple):
    """A Problem's search up to its step limit: its map (gold position -> system position or -1), value,
    bound and steps, and whether it ended before the limit (else it is open, at the limit)."""

    mapping: List[int]
    value: int
    bound: int
    exact: bool
    steps: int
    ended: bool = True


@njit(cache=True, nogil=True)
def search_all(sizes, nodes, edges, limit, lap_size, most, stop):  # pragma: no cover - compiled
    """Each pair's Problem built from its rows and searched up to ``limit`` steps: (found: each pair's value,
    bound, steps, exact and ended, 0 when the pair was left out, 1 when its search stopped at the limit, 2
    when it ended before; maps: the pairs' maps one after the other).  Two arrays, not one a figure: numba
    hands each array it returns to Python with a copy of its type unpickled, about a microsecond each.

    ``sizes[p]``: n, m, gold node rows, system node rows, keys, gold edge rows,
    system edge rows, labels of pair p; its rows follow the previous pair's in
    ``nodes`` and ``edges``.
    """
    pairs = sizes.shape[0]
    found = np.zeros((pairs, 5), np.int64)
    total = 0
    for p in range(pairs):
        total += sizes[p, 0]
    maps = np.full(total, -1, np.int64)
    empty = np.zeros(0, np.int64)
    at_node = 0
    at_edge = 0
    at_map = 0
    for p in range(pairs):
        n, m, gold_n, system_n, keys = sizes[p, 0], sizes[p, 1], sizes[p, 2], sizes[p, 3], sizes[p, 4]
        gold_e, system_e, labels = sizes[p, 5], sizes[p, 6], sizes[p, 7]
        U = np.zeros((n, m), np.int64)
        if gold_n:
            rewards(U, nodes[at_node:at_node + gold_n], nodes[at_node + gold_n:at_node + gold_n + system_n],
                    keys)
        at_node += gold_n + system_n
        status, E, K, F, L, out = candidates(U, edges[at_edge:at_edge + gold_e],
                                             edges[at_edge + gold_e:at_edge + gold_e + system_e], labels,
                                             most, True)
        at_edge += gold_e + system_e
        if status == 0 and not stop[0]:
            c, s = 4 * E + 1, 4 * E + 1 + 4 * K
            problem = Problem(U, out[:E], out[E:2 * E], out[2 * E:3 * E], out[3 * E:c], out[c:c + K],
                              out[c + K:c + 2 * K], out[c + 2 * K:c + 3 * K], out[c + 3 * K:s], out[s:s + F],
                              out[s + F:s + 2 * F], True)
            best, top, used, proved, pi = solve(problem, limit, lap_size, stop, empty)
            found[p, 0], found[p, 1], found[p, 2], found[p, 3] = best, top, used, proved
            found[p, 4] = 2 if used < limit else 1
            maps[at_map:at_map + n] = pi
        at_map += n
    return found, maps


def search_rows(rows: Sequence[Rows], limit: int, lap_size: int,
                open_too: bool = False) -> List[Optional[Searched]]:
    """:func:`search_batch` of the pairs' Rows."""
    return search_batch(Batch.of(rows), limit, lap_size, open_too)


def search_batch(batch: Batch, limit: int, lap_size: int, open_too: bool = False) -> List[Optional[Searched]]:
    """Each pair's search up to ``limit`` steps (the assignment bound up to ``lap_size`` nodes a side), or
    None where it stopped at the limit (or held more than MAX_CANDIDATES candidates): a search that ends
    before its limit is the search under any larger limit, step for step.

    Args:
        batch: the pairs' rows.
        limit: search steps per pair at most.
        lap_size: the largest side searched with assignment bounds.
        open_too: a pair stopped at the limit gets its search so far (``ended`` False: its map, value and
            bound at the limit, as the search alone has them there) rather than None.

    Returns:
        One Searched (or None) per pair, in order.
    """
    if not len(batch):
        return []
    stop = np.zeros(1, np.int64)
    results, maps = search_all(batch.sizes, batch.nodes, batch.edges, limit, lap_size, MAX_CANDIDATES, stop)
    found = maps.tolist()
    out: List[Optional[Searched]] = []
    at = 0
    for n, (value, bound, steps, exact, done) in zip(batch.sizes[:, 0].tolist(), results.tolist()):
        out.append(Searched(found[at:at + n], value, bound, bool(exact), steps, done == 2)
                   if done == 2 or (open_too and done == 1) else None)
        at += n
    return out

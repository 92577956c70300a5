"""The program of a Problem (mrp.solver.mip's description) as arrays, and what is computed on them without
HiGHS: a map's value, the variables counted, the Problem without pairs no better map uses."""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

import numpy as np

from mrp.solver.problem import Problem, candidate_edges

__all__ = ["MAX_COLUMNS", "SENTENCE_COLUMNS", "Model", "columns", "model_from", "model_of", "scoring_pairs",
           "value_of", "without"]

#: Programs with more variables than this are not built (memory and time beyond any per-pair budget).
MAX_COLUMNS = 1_000_000
#: A program of up to this many variables (a sentence pair's have a few hundred to a few thousand) is
#: solved in this process: its relaxation (mrp.solver.relaxation.sentence_relaxation), and a sentence
#: pair's mixed-integer program (mrp.solver.mip.in_process), where HiGHS's phases take milliseconds and its
#: callbacks and time limit stop it in time.
SENTENCE_COLUMNS = 20_000

def value_of(problem: Problem, mapping: np.ndarray) -> int:
    """The objective of a map (gold position -> system position or -1) under the Problem."""
    pi = np.asarray(mapping, np.int64)
    rows = np.nonzero(pi >= 0)[0]
    total = int(problem.U[rows, pi[rows]].sum())
    if problem.cc.shape[0]:
        edge = candidate_edges(problem)
        hit = (pi[problem.src[edge]] == problem.cc) & (pi[problem.tgt[edge]] == problem.cd)
        total += int(problem.cw[hit].sum())
    return total


class Model(NamedTuple):
    """The program's arrays (no HiGHS objects: they are made where the program runs)."""

    xi: np.ndarray
    xj: np.ndarray
    cost: np.ndarray
    rows: int
    upper: np.ndarray
    column_start: np.ndarray
    row_index: np.ndarray
    coefficient: np.ndarray
    initial: np.ndarray


def columns(problem: Problem) -> int:
    """The number of variables of the Problem's program."""
    useful, _ = scoring_pairs(problem)
    return int(np.count_nonzero(useful)) + int(problem.cc.shape[0])


def model_of(problem: Problem, mapping: np.ndarray) -> Optional[Model]:
    """The program's arrays from the map ``mapping`` (None when no pair scores, or it is larger than
    MAX_COLUMNS)."""
    useful, edge = scoring_pairs(problem)
    scoring = int(np.count_nonzero(useful))
    if scoring == 0 or scoring + problem.cc.shape[0] > MAX_COLUMNS:
        return None
    return model_from(problem, mapping, useful, edge)


def scoring_pairs(problem: Problem) -> Tuple[np.ndarray, np.ndarray]:
    """The node pairs that can score (a reward or a candidate edge end), and each candidate's gold edge."""
    edge = candidate_edges(problem)
    useful = problem.U > 0
    useful[problem.src[edge], problem.cc] = True
    useful[problem.tgt[edge], problem.cd] = True
    return useful, edge


def model_from(problem: Problem, mapping: np.ndarray, useful: np.ndarray, edge: np.ndarray) -> Model:
    """The program's arrays (the module's description) over the node pairs ``useful`` and the candidates of
    the gold edges ``edge``, started from ``mapping``."""
    U = problem.U
    n, m = U.shape
    K = problem.cc.shape[0]
    xi, xj = np.nonzero(useful)
    X = xi.shape[0]
    x_id = np.full((n, m), -1, np.int64)
    x_id[xi, xj] = np.arange(X)
    rows, columns, coefficients = [xi, n + xj], [np.arange(X), np.arange(X)], [np.ones(2 * X)]
    groups = 0
    if K:  # the rows "sum of y over a group - x[group] <= 0": one a key, numbered in the keys' order
        keys, x_of = _groups(problem, edge, x_id)
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        kept = _distinct(inverse, unique.shape[0], K)
        entries, renumbered = kept[inverse], np.cumsum(kept) - 1
        groups = int(np.count_nonzero(kept))
        rows += [n + m + renumbered[inverse[entries]], n + m + np.arange(groups)]
        columns += [np.tile(X + np.arange(K), 4)[entries], x_of[first[kept]]]
        coefficients += [np.ones(int(np.count_nonzero(entries))), np.full(groups, -1.0)]
    row, column, coefficient = np.concatenate(rows), np.concatenate(columns), np.concatenate(coefficients)
    order = np.lexsort((row, column))
    count = n + m + groups
    return Model(xi, xj, np.concatenate([U[xi, xj], problem.cw]).astype(np.float64), count,
                  np.concatenate([np.ones(n + m), np.zeros(groups)]),
                  np.searchsorted(column[order], np.arange(X + K + 1)).astype(np.int32),
                  row[order].astype(np.int32), coefficient[order], _start(problem, mapping, x_id, X, K, edge))


def _distinct(inverse: np.ndarray, groups: int, K: int) -> np.ndarray:
    """Which of the ``groups`` (each candidate's group of each kind: ``inverse``, :func:`_groups`'s order)
    get a row: all but those of a system edge and a gold node that hold one candidate which the group of its
    gold edge at the same end holds alone too.  Both rows then say that candidate's ``y`` is at most the
    same ``x`` (the pair of that gold node and the system edge's end): on Rematch's testbed, a third of the
    rows, and a sixth of HiGHS's time on the relaxations."""
    size = np.bincount(inverse, minlength=groups)
    kept = np.ones(groups, np.bool_)
    for gold, system in ((0, 2), (1, 3)):
        by_gold, by_system = inverse[gold * K:(gold + 1) * K], inverse[system * K:(system + 1) * K]
        kept[by_system[(size[by_gold] == 1) & (size[by_system] == 1)]] = False
    return kept


def _groups(problem: Problem, edge: np.ndarray, x_id: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Each candidate's key in each of the four kinds of grouped rows (one after the other, their ranges
    apart and in that order: gold edge and the system node its source maps to, ... its target maps to;
    system edge and the gold node of its source, ... of its target), and the ``x`` of each key's pair."""
    n, m = problem.U.shape
    gold, system = problem.src.shape[0] * m, problem.ssrc.shape[0] * n
    a, b, f = problem.src[edge], problem.tgt[edge], problem.cf
    keys = np.concatenate([edge * m + problem.cc, gold + edge * m + problem.cd, 2 * gold + f * n + a,
                           2 * gold + system + f * n + b])
    pairs = np.concatenate([x_id[a, problem.cc], x_id[b, problem.cd], x_id[a, problem.ssrc[f]],
                            x_id[b, problem.stgt[f]]])
    return keys, pairs


def without(problem: Problem, banned: np.ndarray, mapping: np.ndarray,
            dropped: Optional[np.ndarray] = None) -> Problem:
    """The Problem with the pairs ``banned[i, j]`` worth nothing (no reward, no candidate edge uses one) and
    the candidates ``dropped[q]`` left out, the pairs and candidates ``mapping`` uses kept.

    When no map better than ``mapping`` uses a banned pair or a dropped candidate (reduced-cost fixing:
    mrp.solver.kernel, mrp.solver.relaxation.fixed), the optimum of this Problem is the optimum of
    ``problem``: a better map keeps its value here, and ``mapping`` keeps its own.  So this Problem's bounds
    bound ``problem``, and its program is smaller.
    """
    keep = ~np.asarray(banned, np.bool_)
    pi = np.asarray(mapping, np.int64)
    rows = np.nonzero(pi >= 0)[0]
    keep[rows, pi[rows]] = True
    edge = candidate_edges(problem)
    kept = keep[problem.src[edge], problem.cc] & keep[problem.tgt[edge], problem.cd]
    if dropped is not None:
        kept &= ~dropped | ((pi[problem.src[edge]] == problem.cc) & (pi[problem.tgt[edge]] == problem.cd))
    cptr = np.zeros(problem.src.shape[0] + 1, np.int64)
    np.cumsum(np.bincount(edge[kept], minlength=problem.src.shape[0]), out=cptr[1:])
    return problem._replace(U=np.where(keep, problem.U, 0), cptr=cptr, cc=problem.cc[kept],
                            cd=problem.cd[kept], cf=problem.cf[kept], cw=problem.cw[kept])


def _start(problem: Problem, mapping: np.ndarray, x_id: np.ndarray, X: int, K: int,
           edge: np.ndarray) -> np.ndarray:
    """The program's variables for a map (a feasible starting solution)."""
    pi = np.asarray(mapping, np.int64)
    start = np.zeros(X + K)
    rows = np.nonzero(pi >= 0)[0]
    ids = x_id[rows, pi[rows]]
    start[ids[ids >= 0]] = 1.0
    if K:
        hit = (pi[problem.src[edge]] == problem.cc) & (pi[problem.tgt[edge]] == problem.cd)
        start[X:][hit] = 1.0
    return start

"""Proving what the branch and bound leaves open: the Problem as a mixed-integer program, solved by HiGHS.

The program (``x`` binary, ``y`` continuous in [0, 1]):

    maximize   sum U[i, j] x[i, j]  +  sum over candidates k of cw[k] y[k]
    subject to sum_j x[i, j] <= 1 for each gold node i, sum_i x[i, j] <= 1 for each system node j,
               for each gold edge e = (a, b) and system node c:
                   sum of y[k] over e's candidates leaving c   <= x[a, c]
                   sum of y[k] over e's candidates entering c  <= x[b, c]
               for each system edge f = (c, d) and gold node a:
                   sum of y[k] over f's candidates from gold edges leaving a  <= x[a, c]
                   sum of y[k] over f's candidates from gold edges entering a <= x[a, d]

Each sum holds at most one candidate that a map can realise, so every map is feasible with its own
objective, and for integral ``x`` the best ``y`` is integral: the optimum is the Problem's.  Grouping the
candidates per node (rather than ``y[k] <= x`` one by one) makes the linear relaxation far tighter; it closes
the gaps the Lagrangian bound leaves on document-sized graphs.  Only pairs (i, j) that can score get an ``x``.

HiGHS (``highspy``) is imported only when a pair needs it.  Its bound is floating point: the bound reported
is ``floor(dual bound + 1e-6)``, within HiGHS's feasibility tolerances (1e-7) of the true one on these
integer data.  The map it returns is checked and valued here, not taken on trust.
"""

from __future__ import annotations

import importlib
import math
import os
import time
from typing import Any, NamedTuple, Optional, Tuple

import numpy as np

from mrp.process import worker
from mrp.process.forked import Child, can_fork, silenced_stdout
from mrp.solver.problem import Problem, candidate_edges

__all__ = ["MAX_COLUMNS", "Proof", "available", "columns", "fits", "prove", "rounded", "value_of", "without"]

#: Programs with more variables than this are not built (memory and time beyond any per-pair budget).
MAX_COLUMNS = 1_000_000
#: HiGHS's presolve and root work take about this many seconds per variable (measured on merged coli
#: documents: 160,000 variables, 43 s); a program gets a pair only when that fits half its time left.
COLUMN_SECONDS = 3e-4
#: A child process running HiGHS is killed this many seconds after its time limit (HiGHS keeps its limit
#: within a few hundredths of a second on these programs; the pair's cap is what counts).
GRACE = 0.2
#: Slack added to HiGHS's floating-point dual bound before rounding it down to an integer.
_EPS = 1e-6
#: The most branch-and-bound nodes HiGHS can be told to take (its option is a 32-bit integer).
MOST_NODES = 2**31 - 1

_HIGHSPY: Any = None
#: whether highspy can be found (None: not looked up yet)
_FOUND: Optional[bool] = None


def installed() -> bool:
    """Whether HiGHS is installed (without importing it; looked up once per process)."""
    global _FOUND
    if _HIGHSPY is not None:
        return bool(_HIGHSPY)
    if _FOUND is None:
        import importlib.util

        _FOUND = importlib.util.find_spec("highspy") is not None
    return _FOUND


def available() -> bool:
    """Whether HiGHS can be imported (imported on first use)."""
    global _HIGHSPY
    if _HIGHSPY is None:
        try:
            import highspy
            _HIGHSPY = highspy
        except ImportError:
            _HIGHSPY = False
    return bool(_HIGHSPY)


def version() -> str:
    """HiGHS's version, or "" when it is not installed."""
    if not available():
        return ""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("highspy")
    except PackageNotFoundError:  # pragma: no cover - imported from elsewhere
        return "?"


class Proof(NamedTuple):
    """What the program found: a map with its value, an upper bound, and whether it ran to the end."""

    mapping: np.ndarray
    value: int
    #: None when HiGHS was stopped before it had a bound
    bound: Optional[int]
    #: True when HiGHS proved its answer optimal (else it was stopped and ``bound`` is what it had)
    finished: bool
    #: what became of a HiGHS process that died on its own (killed from outside, out of memory), else None
    died: Optional[str] = None
    #: True when HiGHS stopped at its time limit (the clock), not when done or at its node budget (work)
    timed: bool = False


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


class _Model(NamedTuple):
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
    useful, _ = _useful(problem)
    return int(np.count_nonzero(useful)) + int(problem.cc.shape[0])


def fits(problem: Problem, seconds: Optional[float]) -> bool:
    """Whether the program is worth building: HiGHS is there, and its size fits MAX_COLUMNS and (by
    COLUMN_SECONDS) half the time left."""
    if not installed() or (seconds is not None and seconds <= 0):
        return False
    least = int(problem.cc.shape[0])  # its edge variables alone: decided without the O(n m) count
    if least > MAX_COLUMNS or (seconds is not None and least * COLUMN_SECONDS > seconds / 2):
        return False
    size = columns(problem)
    return size <= MAX_COLUMNS and (seconds is None or size * COLUMN_SECONDS <= seconds / 2)


def highs_module() -> Any:
    """highspy, once :func:`available` has imported it."""
    return _HIGHSPY


def model_of(problem: Problem, mapping: np.ndarray) -> Optional[_Model]:
    """The program's arrays from the map ``mapping`` (None when no pair scores, or it is larger than
    MAX_COLUMNS)."""
    useful, edge = _useful(problem)
    scoring = int(np.count_nonzero(useful))
    if scoring == 0 or scoring + problem.cc.shape[0] > MAX_COLUMNS:
        return None
    return _model(problem, mapping, useful, edge)


def _useful(problem: Problem) -> Tuple[np.ndarray, np.ndarray]:
    """The node pairs that can score (a reward or a candidate edge end), and each candidate's gold edge."""
    edge = candidate_edges(problem)
    useful = problem.U > 0
    useful[problem.src[edge], problem.cc] = True
    useful[problem.tgt[edge], problem.cd] = True
    return useful, edge


def _model(problem: Problem, mapping: np.ndarray, useful: np.ndarray, edge: np.ndarray) -> _Model:
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
        groups = unique.shape[0]
        rows += [n + m + inverse, n + m + np.arange(groups)]
        columns += [np.tile(X + np.arange(K), 4), x_of[first]]
        coefficients += [np.ones(4 * K), np.full(groups, -1.0)]
    row, column, coefficient = np.concatenate(rows), np.concatenate(columns), np.concatenate(coefficients)
    order = np.lexsort((row, column))
    count = n + m + groups
    return _Model(xi, xj, np.concatenate([U[xi, xj], problem.cw]).astype(np.float64), count,
                  np.concatenate([np.ones(n + m), np.zeros(groups)]),
                  np.searchsorted(column[order], np.arange(X + K + 1)).astype(np.int32),
                  row[order].astype(np.int32), coefficient[order], _start(problem, mapping, x_id, X, K, edge))


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


def pass_model(solver: Any, model: _Model, integral: bool) -> None:
    """Hand the program to HiGHS's ``solver`` from its arrays in one call (``integral``: its node variables
    binary, else its linear relaxation); a model HiGHS refuses leaves it without a solution."""
    highspy = _HIGHSPY
    X, size = model.xi.shape[0], model.cost.shape[0]
    kinds = np.zeros(size, np.int32)  # HiGHS's kContinuous
    if integral:
        kinds[:X] = int(highspy.HighsVarType.kInteger)
    solver.passModel(size, model.rows, model.row_index.shape[0], int(highspy.MatrixFormat.kColwise),
                     int(highspy.ObjSense.kMaximize), 0.0, model.cost, np.zeros(size), np.ones(size),
                     np.full(model.rows, -highspy.kHighsInf), model.upper, model.column_start,
                     model.row_index, model.coefficient, kinds)


def _run(model: _Model, n: int, seconds: Optional[float], stop: Optional[np.ndarray],
         nodes: Optional[int] = None) -> Tuple[Optional[np.ndarray], float, bool, bool]:
    """HiGHS on the program within ``seconds`` (the clock) and ``nodes`` (work; None: no cap): its map (None
    when it has none), its dual bound, whether it finished, and whether it stopped at its time limit."""
    highspy = _HIGHSPY
    X = model.xi.shape[0]
    with silenced_stdout():  # highspy >= 1.16 prints a banner when a solver is made, before any option
        solver = highspy.Highs()
    # presolve off: on these programs HiGHS's presolve costs more than it saves (the programs of the
    # merged coli documents left open by the search: 10.7 -> 4.2 s at k = 8, 45.9 -> 37.5 s at k = 32),
    # and the time limit is then kept more closely (presolve does not look at the clock)
    for option, setting in (("output_flag", False), ("threads", 1), ("random_seed", 0), ("presolve", "off"),
                            ("mip_rel_gap", 0.0), ("mip_abs_gap", 1 - 1e-4)):
        solver.setOptionValue(option, setting)
    if seconds is not None:
        solver.setOptionValue("time_limit", max(0.0, seconds))
    if nodes is not None:
        solver.setOptionValue("mip_max_nodes", int(min(max(1, nodes), MOST_NODES)))
    pass_model(solver, model, True)
    solution = highspy.HighsSolution()
    solution.col_value = model.initial
    solution.value_valid = True
    solver.setSolution(solution)
    if stop is not None:
        def interrupt(event: Any) -> None:
            if stop[0]:
                event.interrupt()

        for callback in (solver.cbMipInterrupt, solver.cbSimplexInterrupt, solver.cbIpmInterrupt):
            callback.subscribe(interrupt)
    solver.run()
    status = solver.getModelStatus()
    finished = status == highspy.HighsModelStatus.kOptimal
    timed = status == highspy.HighsModelStatus.kTimeLimit
    dual = float(solver.getInfo().mip_dual_bound)
    values = np.asarray(solver.getSolution().col_value[:X])
    if values.shape[0] != X:
        return None, dual, finished, timed
    return rounded(model, values, n), dual, finished, timed


def rounded(model: _Model, values: np.ndarray, n: int) -> Optional[np.ndarray]:
    """The map of ``n`` gold nodes taking the node pairs whose variable in ``values`` is above 1/2, or None
    when they form no map (a solver stopped early may hold an infeasible solution)."""
    chosen = np.nonzero(values[:model.xi.shape[0]] > 0.5)[0]
    rows, columns, found = model.xi[chosen], model.xj[chosen], np.full(n, -1, np.int64)
    found[rows] = columns
    return found if np.unique(rows).shape[0] == np.unique(columns).shape[0] == chosen.shape[0] else None


def _in_child(model: _Model, n: int, seconds: Optional[float], stop: np.ndarray,
              nodes: Optional[int]) -> Tuple[Optional[Tuple[Optional[np.ndarray], float, bool, bool]],
                                             Optional[str]]:
    """:func:`_run` in a forked process, killed at ``seconds`` + GRACE or when ``stop[0]`` is set (HiGHS
    does not look at the clock in every phase): its answer (None when it was killed or failed), and how
    it died when it died on its own."""
    return in_child("mrp.solver.mip:run_alone", (model, n, seconds, nodes), seconds, stop)


def in_child(function: str, args: Tuple[Any, ...], seconds: Optional[float],
             stop: np.ndarray) -> Tuple[Any, Optional[str]]:
    """``module:function(*args)`` in a child process (forked, or HiGHS's kept process where this one
    cannot fork), killed at ``seconds`` + GRACE or when ``stop[0]`` is set: (its answer or None, how it
    died when it died on its own)."""
    deadline = None if seconds is None else time.monotonic() + seconds + GRACE
    if can_fork():
        module, name = function.split(":")
        work = getattr(importlib.import_module(module), name)
        child = Child(lambda: work(*args))
        return child.result(deadline, lambda: bool(stop[0])), child.died
    # threads run (the search's helper thread, the watchdog): the process kept for HiGHS's programs
    # (mrp.process.worker; starting one costs more CPU than HiGHS takes on a small program), not a fork
    return worker.call(function, args, deadline, lambda: bool(stop[0]))


def run_alone(model: _Model, n: int, seconds: Optional[float],
              nodes: Optional[int] = None) -> Tuple[Optional[np.ndarray], float, bool, bool]:
    """:func:`_run` in a process of its own (HiGHS loaded there first)."""
    if not available():
        raise RuntimeError("HiGHS (highspy) cannot be loaded")
    return _run(model, n, seconds, None, nodes)


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


def prove(problem: Problem, mapping: np.ndarray, seconds: Optional[float], stop: np.ndarray,
          banned: Optional[np.ndarray] = None, nodes: Optional[int] = None) -> Optional[Proof]:
    """Solve the Problem's program from the map ``mapping`` within ``seconds`` (None: no limit) and
    ``nodes`` branch-and-bound nodes (None: no limit).

    ``banned``: pairs that no map better than ``mapping`` uses (reduced-cost fixing), left out of the
    program (:func:`without`).  ``nodes`` is work (``--limit``): with one thread and a fixed seed the same
    answer on any machine; ``seconds`` is the clock (``--timeout``); :attr:`Proof.timed` says which stopped.

    Where processes can fork, HiGHS runs in a child process that is killed when
    ``stop[0]`` is set or ``seconds`` (plus GRACE) have passed; else in this
    thread, stopped through HiGHS's callbacks.  Returns None when HiGHS is
    missing, the program is larger than MAX_COLUMNS, or it was stopped before
    it had anything to say.
    """
    if not available():
        return None
    n = problem.U.shape[0]
    program = problem if banned is None else without(problem, banned, mapping)
    useful, edge = _useful(program)
    scoring = int(np.count_nonzero(useful))
    if scoring == 0:  # no node pair can score: every map is worth 0
        return Proof(np.full(n, -1, np.int64), 0, 0, True)
    if scoring + program.cc.shape[0] > MAX_COLUMNS or stop[0]:
        return None
    model = _model(program, mapping, useful, edge)
    if stop[0]:
        return None
    died = None
    if hasattr(os, "fork"):
        ran, died = _in_child(model, n, seconds, stop, nodes)
    else:
        ran = _run(model, n, seconds, stop, nodes)
    if ran is None:
        if died is not None:
            return Proof(np.asarray(mapping, np.int64), value_of(problem, mapping), None, False, died)
        return None
    candidate, dual, finished, timed = ran
    found = np.asarray(mapping, np.int64).copy()
    best = value_of(problem, found)
    if candidate is not None:
        value = value_of(problem, candidate)
        if value > best:
            found, best = candidate, value
    bound = math.floor(dual + _EPS) if math.isfinite(dual) else None
    return Proof(found, best, None if bound is None else max(best, bound), finished, timed=timed)


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

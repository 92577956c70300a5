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
from mrp.solver.problem import Problem
from mrp.solver.program import (
    MAX_COLUMNS,
    SENTENCE_COLUMNS,
    columns,
    model_from,
    scoring_pairs,
    value_of,
    without,
)
from mrp.solver.program import Model as _Model

__all__ = ["IN_PROCESS_PAIRS", "MAX_COLUMNS", "Proof", "available", "columns", "fits", "in_process", "prove",
           "rounded", "value_of", "without"]

#: HiGHS's presolve and root work take about this many seconds per variable (measured on merged coli
#: documents: 160,000 variables, 43 s); a program gets a pair only when that fits half its time left.
COLUMN_SECONDS = 3e-4
#: A child process running HiGHS is killed this many seconds after its time limit (HiGHS keeps its limit
#: within a few hundredths of a second on these programs; the pair's cap is what counts).
GRACE = 0.2
#: The program of a pair of at most this many node pairs (a sentence pair: 100 x 100 nodes) and at most
#: SENTENCE_COLUMNS variables is solved in this process, stopped by HiGHS's callbacks and its time limit
#: (each of its phases takes milliseconds there): a run of sentence pairs then starts no HiGHS process (where
#: threads run, a fresh interpreter, about 0.3-0.4 s of CPU, for programs of a few hundredths of a second; on
#: Rematch's efficiency protocol 3 of 20,000 pairs get a program); a larger pair's runs in a child process.
IN_PROCESS_PAIRS = 10_000
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


def in_process(problem: Problem, model: _Model) -> bool:
    """Whether the program ``model`` of ``problem`` is solved in this process: a sentence pair's (at most
    IN_PROCESS_PAIRS node pairs and SENTENCE_COLUMNS variables)."""
    return problem.U.size <= IN_PROCESS_PAIRS and model.cost.shape[0] <= SENTENCE_COLUMNS


def prove(problem: Problem, mapping: np.ndarray, seconds: Optional[float], stop: np.ndarray,
          banned: Optional[np.ndarray] = None, nodes: Optional[int] = None) -> Optional[Proof]:
    """Solve the Problem's program from the map ``mapping`` within ``seconds`` (None: no limit) and
    ``nodes`` branch-and-bound nodes (None: no limit).

    ``banned``: pairs that no map better than ``mapping`` uses (reduced-cost fixing), left out of the
    program (:func:`without`).  ``nodes`` is work (``--limit``): with one thread and a fixed seed the same
    answer on any machine; ``seconds`` is the clock (``--timeout``); :attr:`Proof.timed` says which stopped.

    Where processes can fork, HiGHS runs in a child process that is killed when
    ``stop[0]`` is set or ``seconds`` (plus GRACE) have passed; else in this
    thread, stopped through HiGHS's callbacks and its time limit, as is a sentence pair's program anyway
    (:func:`in_process`: the same answer, without a process to start).  Returns None when HiGHS is
    missing, the program is larger than MAX_COLUMNS, or it was stopped before
    it had anything to say.
    """
    if not available():
        return None
    n = problem.U.shape[0]
    program = problem if banned is None else without(problem, banned, mapping)
    useful, edge = scoring_pairs(program)
    scoring = int(np.count_nonzero(useful))
    if scoring == 0:  # no node pair can score: every map is worth 0
        return Proof(np.full(n, -1, np.int64), 0, 0, True)
    if scoring + program.cc.shape[0] > MAX_COLUMNS or stop[0]:
        return None
    model = model_from(program, mapping, useful, edge)
    if stop[0]:
        return None
    died = None
    if hasattr(os, "fork") and not in_process(problem, model):
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

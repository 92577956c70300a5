"""An upper bound of a Problem's optimum from the linear relaxation of its program (mrp.solver.mip), solved by
HiGHS in this process: on small pairs often the optimum itself where the search's Lagrangian bound is one
above it (the hardest coli sentence pair: 39, proved in about 0.01 s where the search needs 4,377 steps)."""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from mrp.process.forked import silenced_stdout
from mrp.solver import mip
from mrp.solver.problem import Problem

__all__ = ["LP_COLUMNS", "LP_SECONDS", "bound"]

#: Programs up to this many variables are relaxed (a sentence pair's have a few hundred to a few thousand).
LP_COLUMNS = 20_000
#: The relaxation's time limit, seconds (a sentence pair's takes milliseconds).
LP_SECONDS = 1.0
#: The optimum of the relaxation is rounded down after adding this much: more than the simplex's
#: tolerances can take off an optimum of a few hundred, less than any fraction of the integer data.
_EPS = 1e-4


def bound(problem: Problem, seconds: Optional[float] = None) -> Optional[int]:
    """floor(optimum of the relaxation), an upper bound of every map's value; None when HiGHS is missing,
    the program has more than LP_COLUMNS variables, or the relaxation was not solved to optimality within
    ``seconds`` (at most LP_SECONDS)."""
    if not problem.complete or not mip.available():
        return None
    useful, edge = mip._useful(problem)
    if int(np.count_nonzero(useful)) == 0:
        return 0
    if int(np.count_nonzero(useful)) + int(problem.cc.shape[0]) > LP_COLUMNS:
        return None
    limit = LP_SECONDS if seconds is None else min(LP_SECONDS, seconds)
    if limit <= 0:
        return None
    model = mip._model(problem, np.full(problem.U.shape[0], -1, np.int64), useful, edge)
    highspy = mip._HIGHSPY
    size = model.cost.shape[0]
    lp = highspy.HighsLp()
    lp.num_col_ = size
    lp.num_row_ = model.rows
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = model.cost
    lp.col_lower_ = np.zeros(size)
    lp.col_upper_ = np.ones(size)
    lp.row_lower_ = np.full(model.rows, -highspy.kHighsInf)
    lp.row_upper_ = model.upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = model.column_start
    lp.a_matrix_.index_ = model.row_index
    lp.a_matrix_.value_ = model.coefficient
    with silenced_stdout():  # highspy >= 1.16 prints a banner when a solver is made
        solver = highspy.Highs()
    for option, setting in (("output_flag", False), ("threads", 1), ("random_seed", 0),
                            ("time_limit", float(limit))):
        solver.setOptionValue(option, setting)
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    value = float(solver.getInfo().objective_function_value)
    return math.floor(value + _EPS) if math.isfinite(value) else None

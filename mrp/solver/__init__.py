"""The exact solver: the Problem (integer arrays, no graphs), its compiled branch and bound, the
mixed-integer hand-over, the per-pair watchdog, and compiling the kernels ahead of any pair.

Importing this package does not import numba or HiGHS.  Everything outside the package imports only the
names of :data:`__all__` (``from mrp.solver import solve_problem``); each is loaded from its module on first
use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Tuple

from mrp.lazy import forwarded

if TYPE_CHECKING:
    from mrp.solver.background import status as compile_status
    from mrp.solver.batch_rows import Batch, Coded, Interned
    from mrp.solver.greedy import BYTES_PER_CELL, START_CELLS, correspondence
    from mrp.solver.greedy import fits as fits_memory
    from mrp.solver.greedy import need as need_bytes
    from mrp.solver.greedy import timed as timed_correspondence
    from mrp.solver.greedy import within as within_memory
    from mrp.solver.kernel import solved
    from mrp.solver.problem import (
        Problem,
        Rows,
        from_triples,
        normal_rows,
        restrict,
        triple_rows,
        unmapped_across,
        with_edges,
    )
    from mrp.solver.problem import build as build_problem
    from mrp.solver.small import Edge as SparseEdge
    from mrp.solver.small import Found as SparseFound
    from mrp.solver.small import Sparse
    from mrp.solver.small import search as sparse_search
    from mrp.solver.small import upper_bound as sparse_upper_bound
    from mrp.solver.small import value as sparse_value
    from mrp.solver.solve import (
        DEFAULT_LIMIT,
        Seeding,
        Solution,
        fits_together,
        solve_problem,
        solve_together,
        solve_within,
        together,
    )
    from mrp.solver.solve import identity as identity_solution
    from mrp.solver.warmup import ready
    from mrp.solver.warmup import waited as wait_compiled
    from mrp.solver.watchdog import Watchdog, clock, pair_clock
    from mrp.solver.watchdog import left as time_left
    from mrp.solver.watchdog import spent as time_spent
    from mrp.solver.watchdog import watchdog as get_watchdog

#: The assignment bound is computed for pairs up to this many nodes on the larger side (the searches'
#: ``lap_size``).
LAP_SIZE = 700

#: A stop flag's value (``stop[0]``) that abandons a kernel's call: the long loops of the root (every row of
#: the potentials, the assignment's set-up) stop at once, where a plain stop lets the root's first round
#: finish for a valid bound.  Set on a kernel's plain-Python twin whose time budget ran out
#: (:mod:`mrp.solver.warmup`: its result is dropped), and on one still running a moment after its pair's
#: time was up (``MRP_COMPILE=plain``: :mod:`mrp.solver.plain`).
ABANDON = 2

#: The root's bound before its first round has ended: a kernel abandoned in that round (``stop[0] =
#: ABANDON``) returns it (no valid bound, and no map but its seed); one abandoned later returns the bound and
#: the map of its rounds before (valid: :func:`~mrp.solver.solve.solve_problem` keeps them under
#: ``MRP_COMPILE=plain``).
NO_BOUND = 1 << 60


class Abandoned(Exception):
    """A kernel call abandoned past its pair's time cap, its result dropped (plain-Python twins only:
    :mod:`mrp.solver.plain`); :func:`~mrp.solver.solve.solve_problem` answers without it."""

#: Bytes a pair's node-pair arrays may take unless told otherwise (``--max-memory``); a pair that would
#: take more is mapped in linear time (:mod:`mrp.solver.greedy`) and cut.
DEFAULT_MAX_MEMORY = 2_000_000_000


#: each name the package offers beyond the constants above: (its module inside the package, its name there).
#: A name that would read two ways at this level is renamed (``greedy.within`` -> ``within_memory``, as
#: ``problem.within`` is another thing), and none is a submodule's name (``watchdog.watchdog`` ->
#: ``get_watchdog``: once ``mrp.solver.watchdog`` is imported the package's attribute is that module).
_HOMES: Dict[str, Tuple[str, str]] = {
    # the entry point
    **{name: ("solve", name) for name in ("Solution", "Seeding", "DEFAULT_LIMIT", "solve_problem",
                                            "solve_within", "solve_together", "fits_together", "together")},
    "identity_solution": ("solve", "identity"),
    # the Problem and the rows it is built from
    **{name: ("problem", name) for name in ("Problem", "Rows", "with_edges", "from_triples", "triple_rows",
                                              "normal_rows", "unmapped_across", "restrict")},
    "build_problem": ("problem", "build"),
    # the rows of many pairs, coded with run-wide ids
    **{name: ("batch_rows", name) for name in ("Batch", "Coded", "Interned")},
    # memory caps and the linear-time map of pairs too large for the search
    **{name: ("greedy", name) for name in ("BYTES_PER_CELL", "START_CELLS", "correspondence")},
    "need_bytes": ("greedy", "need"), "fits_memory": ("greedy", "fits"),
    "within_memory": ("greedy", "within"), "timed_correspondence": ("greedy", "timed"),
    # a pair's clock and the process's watchdog
    **{name: ("watchdog", name) for name in ("clock", "pair_clock", "Watchdog")},
    "time_left": ("watchdog", "left"), "time_spent": ("watchdog", "spent"),
    "get_watchdog": ("watchdog", "watchdog"),
    # the exhaustive search of small sparse problems (UMR's exact mode)
    "Sparse": ("small", "Sparse"), "SparseEdge": ("small", "Edge"), "SparseFound": ("small", "Found"),
    "sparse_value": ("small", "value"), "sparse_upper_bound": ("small", "upper_bound"),
    "sparse_search": ("small", "search"),
    # the compiled kernel and compiling it
    "solved": ("kernel", "solved"), "ready": ("warmup", "ready"), "wait_compiled": ("warmup", "waited"),
    "compile_status": ("background", "status"),
}

__all__ = [
    "LAP_SIZE", "ABANDON", "NO_BOUND", "Abandoned", "DEFAULT_MAX_MEMORY", "Solution", "Seeding",
    "DEFAULT_LIMIT", "solve_problem", "solve_within", "solve_together", "fits_together", "together",
    "identity_solution", "Problem", "Rows", "with_edges", "from_triples", "triple_rows", "normal_rows",
    "unmapped_across", "restrict", "build_problem", "Batch", "Coded", "Interned", "BYTES_PER_CELL",
    "START_CELLS", "correspondence", "need_bytes", "fits_memory", "within_memory", "timed_correspondence",
    "clock", "pair_clock", "Watchdog", "time_left", "time_spent", "get_watchdog", "Sparse", "SparseEdge",
    "SparseFound", "sparse_value", "sparse_upper_bound", "sparse_search", "solved", "ready",
    "wait_compiled", "compile_status"
]


#: a name of :data:`__all__` from its module, imported on first use (numba and HiGHS with it, for those that
#: need them), and looked up there on every use (``monkeypatch.setattr(mrp.solver.solve, "solve_problem",
#: ...)`` replaces it for every caller that imports it inside a function)
__getattr__ = forwarded(__name__, _HOMES)


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))

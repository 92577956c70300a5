"""The exact solver: the Problem (integer arrays, no graphs), its compiled branch and bound, the
mixed-integer hand-over, the per-pair watchdog, and compiling the kernels ahead of any pair.

Importing this package does not import numba or HiGHS.
"""

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


#: the entry point's names, loaded with :mod:`mrp.solver.solve` when first asked for
_ENTRY = ("Solution", "solve_problem", "solve_within", "solve_together")

__all__ = ["LAP_SIZE", "ABANDON", "NO_BOUND", "Abandoned", "DEFAULT_MAX_MEMORY", *_ENTRY]


def __getattr__(name: str) -> object:
    """The entry point (:mod:`mrp.solver.solve`) without importing it with the package."""
    if name in _ENTRY:
        from mrp.solver import solve

        return getattr(solve, name)
    raise AttributeError(f"module 'mrp.solver' has no attribute {name!r}")

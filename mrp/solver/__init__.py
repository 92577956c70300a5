"""The exact solver: the Problem (integer arrays, no graphs), its compiled branch and bound, the
mixed-integer hand-over, the per-pair watchdog, and compiling the kernels ahead of any pair.

Importing this package does not import numba or HiGHS.
"""

#: The assignment bound is computed for pairs up to this many nodes on the larger side (the searches'
#: ``lap_size``).
LAP_SIZE = 700

#: A stop flag's value (``stop[0]``) that abandons a kernel's call: its result is dropped, so the long loops
#: of the root (every row of the potentials) stop at once, where a plain stop lets the root's first round
#: finish for a valid bound.  Set on a kernel's plain-Python twin whose time budget ran out
#: (:mod:`mrp.solver.warmup`).
ABANDON = 2


class Abandoned(Exception):
    """A kernel call abandoned past its pair's time cap, its result dropped (plain-Python twins only:
    :mod:`mrp.solver.plain`); :func:`~mrp.solver.solve.solve_problem` answers without it."""

#: Bytes a pair's node-pair arrays may take unless told otherwise (``--max-memory``); a pair that would
#: take more is mapped in linear time (:mod:`mrp.solver.greedy`) and cut.
DEFAULT_MAX_MEMORY = 2_000_000_000


#: the entry point's names, loaded with :mod:`mrp.solver.solve` when first asked for
_ENTRY = ("Solution", "solve_problem", "solve_within", "solve_together")

__all__ = ["LAP_SIZE", "ABANDON", "Abandoned", "DEFAULT_MAX_MEMORY", *_ENTRY]


def __getattr__(name: str) -> object:
    """The entry point (:mod:`mrp.solver.solve`) without importing it with the package."""
    if name in _ENTRY:
        from mrp.solver import solve

        return getattr(solve, name)
    raise AttributeError(f"module 'mrp.solver' has no attribute {name!r}")

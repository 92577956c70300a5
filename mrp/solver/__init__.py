"""The exact solver: the Problem (integer arrays, no graphs), its compiled branch and bound, the
mixed-integer hand-over, the per-pair watchdog, and compiling the kernels ahead of any pair.

Importing this package does not import numba or HiGHS.
"""

#: The assignment bound is computed for pairs up to this many nodes on the larger side (the searches'
#: ``lap_size``).
LAP_SIZE = 700


#: the entry point's names, loaded with :mod:`mrp.solver.solve` when first asked for
_ENTRY = ("Solution", "solve_problem", "solve_within", "solve_together")

__all__ = ["LAP_SIZE", *_ENTRY]


def __getattr__(name: str) -> object:
    """The entry point (:mod:`mrp.solver.solve`) without importing it with the package."""
    if name in _ENTRY:
        from mrp.solver import solve

        return getattr(solve, name)
    raise AttributeError(f"module 'mrp.solver' has no attribute {name!r}")

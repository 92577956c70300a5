"""The exact solver: the Problem (integer arrays, no graphs), its compiled branch and bound, the
mixed-integer hand-over, the per-pair watchdog, and compiling the kernels ahead of any pair.

Importing this package does not import numba or HiGHS.
"""

#: The assignment bound is computed for pairs up to this many nodes on the larger side (the searches'
#: ``lap_size``).
LAP_SIZE = 700


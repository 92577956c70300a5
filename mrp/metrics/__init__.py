"""The metrics: pairing graphs, each metric's tuples and counts on the one driver, and the registry.

Importing this package does not import numba; the solver is loaded when the
first pair is scored.
"""

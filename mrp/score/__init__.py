"""Scoring: pairing graphs, the metrics' tuples, the exact solver and corpus results.

Importing this package does not import numba; the solver is loaded when the
first pair is scored.
"""

"""The validation API under its first name; see :mod:`mrp.validation`."""

from __future__ import annotations

from .validation import Problem, Report, anchor_problem, validate_file, validate_for_score, validate_graph

__all__ = ["Problem", "Report", "anchor_problem", "validate_file", "validate_for_score", "validate_graph"]

"""The MRP metric (MRP 2019/2020): tuple counts over an optimal node correspondence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ..errors import ScoreError
from ..graph import Graph
from ..normalize import NormalGraph, normalize
from .problem import Problem, build
from .tuples import count, differences

#: Search steps per pair unless --limit says otherwise.
DEFAULT_LIMIT = 5_000_000
#: The assignment bound is computed for pairs up to this many nodes on the larger side.
LAP_SIZE = 700


@dataclass
class PairScore:
    """The result of one graph pair: per type (g, s, c), and how the correspondence was found."""

    counts: Dict[str, Tuple[int, int, int]]
    exact: bool
    bound: int
    steps: int
    correspondence: List[Tuple[int, int]] = field(default_factory=list)
    errors: Optional[Dict[str, Any]] = None


def solve_problem(problem: Problem, limit: Optional[int] = None) -> Tuple[List[int], int, int, bool, int]:
    """An optimal map (gold position -> system position or -1) with value, bound, exactness, steps."""
    from .solver import solve  # numba only when a pair is scored

    value, bound, steps, exact, pi = solve(
        problem.U, problem.src, problem.tgt, problem.lab, problem.cptr, problem.cc, problem.cd,
        problem.cf, problem.cw, problem.ssrc, problem.stgt,
        DEFAULT_LIMIT if limit is None else limit, LAP_SIZE,
    )
    return [int(j) for j in pi], int(value), int(bound), bool(exact), int(steps)


def solve_normal(gold: NormalGraph, system: NormalGraph, limit: Optional[int] = None) -> Tuple[
        List[int], int, int, bool, int]:
    """The optimal correspondence of two normalized graphs under the MRP metric."""
    return solve_problem(build(gold, system), limit)


def score_normal(gold: NormalGraph, system: NormalGraph, limit: Optional[int] = None,
                 errors: bool = False) -> PairScore:
    """Score two normalized graphs."""
    mapping, value, bound, exact, steps = solve_normal(gold, system, limit)
    counts = count(gold, system, mapping)
    if counts["all"][2] != value:
        raise ScoreError(
            f"graph {gold.id}: internal error: solver value {value} but {counts['all'][2]} tuples match"
        )
    return PairScore(
        counts=counts,
        exact=exact,
        bound=bound,
        steps=steps,
        correspondence=[
            (gold.node_ids[i], system.node_ids[j]) for i, j in enumerate(mapping) if j >= 0
        ],
        errors=differences(gold, system, mapping) if errors else None,
    )


def score_pair(gold: Graph, system: Graph, limit: Optional[int] = None, errors: bool = False) -> PairScore:
    """Score a system graph against a gold graph with the MRP metric (exact unless ``limit`` stops it)."""
    return score_normal(normalize(gold), normalize(system), limit, errors)

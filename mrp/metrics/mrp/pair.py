"""The MRP metric (MRP 2019/2020): tuple counts over an optimal node correspondence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from mrp.engine import Detail, normal_detail
from mrp.errors import ScoreError
from mrp.graph import Graph
from mrp.metrics.mrp.large import beyond, greedy_start, improved
from mrp.metrics.mrp.tuples import count, differences
from mrp.normalize import NormalGraph, normalize
from mrp.solver import (
    DEFAULT_LIMIT,
    DEFAULT_MAX_MEMORY,
    Seeding,
    Solution,
    fits_memory,
    solve_within,
    unmapped_across,
)
from mrp.solver import build_problem as build
from mrp.solver import identity_solution as identity

__all__ = ["DEFAULT_LIMIT", "PairScore", "Solution", "identity", "same", "score_normal", "score_pair",
           "scored", "seeding", "sentence_groups", "solve_normal"]


@dataclass
class PairScore:
    """The result of one graph pair: per type (g, s, c), and how the correspondence was found."""

    counts: Dict[str, Tuple[int, int, int]]
    exact: bool
    bound: int
    steps: int
    #: why the search stopped early ("limit" or "timeout"), None when proved optimal
    cut: Optional[str] = None
    correspondence: List[Tuple[int, int]] = field(default_factory=list)
    errors: Optional[Dict[str, Any]] = None
    #: what went wrong when scoring the pair raised (the counts are then a lower bound)
    failure: Optional[str] = None
    #: what the user should know about how it was solved (e.g. HiGHS's process died), else None
    note: Optional[str] = None
    #: every tuple as matched, missed or surplus (``explain`` only)
    detail: Optional[Detail] = None
    #: a document not proved: where its gap sits (mrp.solver.attribution.where)
    gap: Optional[Dict[str, Any]] = None


def solve_normal(gold: NormalGraph, system: NormalGraph, limit: Optional[int] = None,
                 timeout: Optional[float] = None, graphs: Optional[Tuple[Graph, Graph]] = None,
                 handover: bool = True, sentence: bool = False,
                 max_memory: Optional[int] = DEFAULT_MAX_MEMORY) -> Solution:
    """The optimal correspondence of two normalized graphs under the MRP metric (``graphs``: the two
    graphs they normalize, for a sentence-by-sentence start on documents; ``sentence``: the alignment
    restricted to within sentences on documents, ``--doc-align sentence``).  A pair whose node-pair
    arrays would take more than ``max_memory`` bytes (``--max-memory``, :func:`mrp.solver.greedy.need`)
    gets the linear-time map instead, cut, with its trivial bound."""
    groups = sentence_groups(graphs, len(gold), len(system))
    if same(gold, system) and (groups is None or not sentence or np.array_equal(*groups)):
        return identity(len(gold))
    if not fits_memory(len(gold), len(system), max_memory):
        # no n x m array: the linear-time map, cut by the memory cap, with the trivial bound
        solution = beyond(gold, system, timeout)
        if groups is not None and sentence:
            solution = solution._replace(mapping=unmapped_across(solution.mapping, *groups))
        return solution
    start = None if groups is not None and sentence else greedy_start(gold, system, timeout)
    solution = solve_within(lambda stop: build(gold, system, stop), groups, sentence, limit, timeout,
                            seeding(graphs), handover)
    return improved(gold, system, solution, start)


def sentence_groups(graphs: Optional[Tuple[Graph, Graph]], n: int,
                    m: int) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """The sentences of the nodes of a pair of documents (mrp.engine.seed), or None."""
    from mrp.engine import sentence_groups as groups

    return groups(graphs, n, m)


def seeding(graphs: Optional[Tuple[Graph, Graph]]) -> Optional[Seeding]:
    """The sentence-by-sentence start of mrp.engine.seed for a pair of graphs (None without them)."""
    if graphs is None:
        return None
    from mrp.engine import sentence_seed

    return lambda problem, stop: sentence_seed(problem, graphs[0], graphs[1], stop)


def same(gold: NormalGraph, system: NormalGraph) -> bool:
    """Whether two normalized graphs are the same graph node by node (then the identity is optimal)."""
    return (gold.tops == system.tops and gold.labels == system.labels and gold.anchors == system.anchors
            and gold.properties == system.properties and gold.edges == system.edges)


def score_normal(gold: NormalGraph, system: NormalGraph, limit: Optional[int] = None,
                 errors: bool = False, timeout: Optional[float] = None,
                 graphs: Optional[Tuple[Graph, Graph]] = None, handover: bool = True,
                 explain: bool = False, sentence: bool = False,
                 max_memory: Optional[int] = DEFAULT_MAX_MEMORY) -> PairScore:
    """Score two normalized graphs (``explain``: with the :class:`Detail` of its tuples; ``sentence``:
    documents aligned within sentences; ``max_memory``: bytes the solver's node-pair arrays may take).

    Identical graphs are matched node by node at once (every tuple matches:
    proved optimal).  A pair solved without its edges reports the tuples its
    map matches and the bound min(g, s).
    """
    return scored(gold, system, solve_normal(gold, system, limit, timeout, graphs, handover, sentence,
                                             max_memory), errors, explain)


def scored(gold: NormalGraph, system: NormalGraph, solution: Solution, errors: bool = False,
           explain: bool = False) -> PairScore:
    """The PairScore of a pair under its Solution (the tuples its map matches counted again: a check on
    the solver)."""
    mapping = solution.mapping
    counts = count(gold, system, mapping)
    g, s, c = counts["all"]
    if solution.complete and c != solution.value:
        raise ScoreError(f"graph {gold.id}: internal error: solver value {solution.value} but "
                         f"{c} tuples match")
    if solution.exact and not solution.complete and not g == s == c:
        raise ScoreError(f"graph {gold.id}: internal error: identical graphs but {c} of {g} tuples match")
    return PairScore(
        counts=counts,
        exact=solution.exact,
        bound=solution.bound if solution.complete else (c if solution.exact else min(g, s)),
        steps=solution.steps,
        cut=solution.cut,
        correspondence=[
            (gold.node_ids[i], system.node_ids[j]) for i, j in enumerate(mapping) if j >= 0
        ],
        errors=differences(gold, system, mapping) if errors else None,
        note=solution.note,
        detail=normal_detail(gold, system, mapping) if explain else None,
        gap=solution.gap,
    )


def score_pair(gold: Graph, system: Graph, limit: Optional[int] = None, errors: bool = False,
               timeout: Optional[float] = None) -> PairScore:
    """Score a system graph against a gold graph with the MRP metric (exact unless a limit stops it)."""
    return score_normal(normalize(gold), normalize(system), limit, errors, timeout, (gold, system))

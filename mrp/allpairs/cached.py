"""SMATCH for all-pairs runs: each graph's triples built once per process instead of once per pair.

In an all-pairs run a graph takes part in N pairs; building its triples (a fifth of a pair's time on coli
AMR) once is the one thing that differs from :class:`mrp.metrics.smatch.SMATCH`, whose pair scoring
(:func:`mrp.metrics.smatch.score_triples`: the exact search, its bound and checks) is called unchanged."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

from mrp.graph import Graph
from mrp.metrics.base import Metric
from mrp.metrics.options import Options
from mrp.metrics.smatch import SMATCH, triples

__all__ = ["MEMO", "CachedSMATCH", "cached"]

Triples = Any


class CachedSMATCH(SMATCH):
    """SMATCH with a memo of triples by graph (the graph kept alive with its entry)."""

    def __init__(self) -> None:
        self.memo: Dict[Tuple[int, bool, bool, Optional[str]], Tuple[Graph, Triples]] = {}

    def triples_of(self, graph: Graph, options: Options) -> Triples:
        """The triples of a graph under the options, built once."""
        key = (id(graph), options.penman, options.smatch_compat, options.smatchpp_compat)
        found = self.memo.get(key)
        if found is None or found[0] is not graph:
            found = self.memo[key] = (graph, triples(graph, options))
        return found[1]

    def fill(self, graphs: Sequence[Any], options: Options) -> None:
        """Build the triples of live graphs now (before worker processes fork, which inherit them)."""
        for graph in graphs:
            if isinstance(graph, Graph):
                self.triples_of(graph, options)


#: graphs whose triples a process keeps at most (a block of a packed corpus unpacks its graphs anew)
MEMO = 50_000

#: the one instance of a process (its memo serves every block the process scores)
_CACHED = CachedSMATCH()


def cached(metric: Metric, graphs: Sequence[Sequence[Any]], options: Options) -> Metric:
    """The metric an all-pairs block uses: SMATCH with its memo filled for ``graphs``, else ``metric``."""
    if type(metric) is not SMATCH:
        return metric
    if len(_CACHED.memo) > MEMO:  # graphs unpacked anew for each block are not met again
        _CACHED.memo.clear()
    for group in graphs:
        _CACHED.fill(group, options)
    return _CACHED

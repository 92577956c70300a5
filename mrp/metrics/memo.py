"""What a metric computes from one graph alone (Rematch's motifs, WLK's features), kept per graph: in an
all-pairs run or an ensemble each graph takes part in many pairs."""

from __future__ import annotations

from typing import Any, Callable, Hashable, Tuple

from mrp.graph import Graph
from mrp.memo import Memo

__all__ = ["GraphMemo"]


class GraphMemo:
    """Values by (graph, key), each kept with its graph (so that an id is never reused while its entry
    lives; an entry of another graph under a reused id is made anew) in a :class:`mrp.memo.Memo` of at most
    ``most`` entries."""

    def __init__(self, most: int = 10_000) -> None:
        self.kept: Memo[Tuple[int, Hashable], Tuple[Graph, Any]] = Memo(most)

    def get(self, graph: Graph, key: Hashable, make: Callable[[Graph], Any]) -> Any:
        """The value of ``make(graph)`` under ``key``, made once.

        Args:
            graph: the graph.
            key: what else the value depends on (the metric's options).
            make: computes the value from the graph.

        Returns:
            The value.
        """
        found = self.kept.get((id(graph), key))
        if found is None or found[0] is not graph:
            found = self.kept.keep((id(graph), key), (graph, make(graph)))
        return found[1]

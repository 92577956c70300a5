"""What a metric computes from one graph alone (Rematch's motifs, WLK's features), kept per graph: in an
all-pairs run or an ensemble each graph takes part in many pairs."""

from __future__ import annotations

from typing import Any, Callable, Dict, Hashable, Tuple

from mrp.graph import Graph

__all__ = ["GraphMemo"]


class GraphMemo:
    """Values by (graph, key), each kept with its graph (so that an id is never reused while its entry
    lives) until ``most`` entries are held, when the memo starts again."""

    def __init__(self, most: int = 10_000) -> None:
        self.most = most
        self.kept: Dict[Tuple[int, Hashable], Tuple[Graph, Any]] = {}

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
            if len(self.kept) >= self.most:
                self.kept.clear()
            found = self.kept[(id(graph), key)] = (graph, make(graph))
        return found[1]

"""AMR: unanchored, exactly one top."""

from __future__ import annotations

from typing import List

from mrp.graph import Graph
from mrp.validation.common import Found, one_top, unanchored

FRAMEWORKS = ("amr",)


def check(graph: Graph, name: str, found: List[Found]) -> None:
    """No node or edge has anchors; exactly one top."""
    unanchored(graph, name, found)
    one_top(graph, "an AMR graph", found)

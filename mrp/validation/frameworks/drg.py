"""DRG (MRP 2020 discourse representation graphs): flavor 2, unanchored."""

from __future__ import annotations

from typing import List

from mrp.graph import Graph
from mrp.validation.common import Found, unanchored

FRAMEWORKS = ("drg",)


def check(graph: Graph, name: str, found: List[Found]) -> None:
    """No node or edge has anchors."""
    unanchored(graph, name, found)

"""What the checks share: a found problem, plurals, values shown in messages, anchored items, flags."""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Sequence, Tuple

import ujson

from mrp.graph import Anchor, Graph
from mrp.rules import lower

#: A problem before it knows its file, line and graph: (where, message).
Found = Tuple[str, str]


def plural(count: int, noun: str) -> str:
    """``1 graph``, ``2 graphs``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def show(value: Any, limit: int = 60) -> str:
    """A value as JSON for messages, cut to ``limit`` characters."""
    try:
        text = str(ujson.dumps(value, ensure_ascii=False, escape_forward_slashes=False))
    except (TypeError, OverflowError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def anchored(graph: Graph) -> Iterator[Tuple[str, List[Anchor]]]:
    """(where, anchors) of every node and edge that has anchors."""
    for node in graph.nodes:
        if node.anchors:
            yield f"node {node.id}", node.anchors
    for k, edge in enumerate(graph.edges):
        if edge.anchors:
            yield f"edge {k}", edge.anchors


def flag(names: Sequence[str], values: Sequence[Any], name: str) -> Optional[str]:
    """The value of a named property or attribute as the scorers compare it (lowercased), or None."""
    for key, value in zip(names, values):
        if key == name:
            return lower(value)
    return None


def one_top(graph: Graph, article: str, found: List[Found]) -> None:
    """A graph of a framework with exactly one top (``article``: "an AMR graph")."""
    if len(graph.tops) != 1:
        count = "no top" if not graph.tops else plural(len(graph.tops), "top")
        found.append(("", f"has {count} ({article} has exactly one)"))


def unanchored(graph: Graph, name: str, found: List[Found]) -> None:
    """A framework whose nodes and edges have no anchors (flavor 2)."""
    for where, _ in anchored(graph):
        found.append((where, f"has anchors ({name.upper()} graphs are unanchored)"))


def anchor_problem(span: Anchor, text: Optional[str]) -> Optional[str]:
    """What is wrong with one anchor (against the input ``text`` when known), or None."""
    start, end = span
    name = f"anchor {start}:{end}"
    if start > end:
        return f"{name} has from > to"
    if start == end:
        return f"{name} is empty"
    if text is None:
        return None
    if start < 0 or end > len(text):
        return f"{name} is outside the input ({plural(len(text), 'character')})"
    if text[start:end].isspace():
        return f"{name} covers only whitespace"
    return None

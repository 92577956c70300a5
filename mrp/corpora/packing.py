"""A graph as bytes and back (:func:`pack`, :func:`unpack`): every field of a :class:`~mrp.graph.Graph`
round-trips exactly; :mod:`mrp.corpora.packed` keeps a corpus so."""

from __future__ import annotations

import marshal
import pickle
from dataclasses import fields
from operator import attrgetter
from typing import Any, List, Tuple

from mrp.graph import TEXT_FIELDS, Edge, Graph, Node

__all__ = ["OWN", "PICKLED", "pack", "unpack"]

_GRAPH = tuple(f.name for f in fields(Graph))
_NODE = attrgetter(*(f.name for f in fields(Node)))
_EDGE = attrgetter(*(f.name for f in fields(Edge)))
_NODES, _EDGES = _GRAPH.index("nodes"), _GRAPH.index("edges")
_FLAVOR = _GRAPH.index("flavor")
_FIELDS = attrgetter(*_GRAPH)
#: the first byte of a packed graph: its fields as marshal data, or (for values marshal cannot hold, e.g. a
#: Penman Symbol or a UMR document placement) the same fields pickled (not the Graph object: pickling its
#: nodes and edges as dataclasses costs about twice as much)
_MARSHAL, PICKLED = b"M", b"P"


def _no_text() -> List[Tuple[str, Any]]:
    """A graph's content fields (:data:`~mrp.graph.TEXT_FIELDS`) as packed when an earlier graph holds
    them: those of a graph without content."""
    empty = Graph(id="")
    return [(name, getattr(empty, name)) for name in TEXT_FIELDS]


#: a graph's own fields but its id and line (the others, TEXT_FIELDS, are its content), in order
OWN = attrgetter(*(name for name in _GRAPH if name not in TEXT_FIELDS and name not in ("id", "line")))
#: (position among the packed fields, value) of each content field packed by ``pack(graph, own=True)``
_EMPTY_TEXT = [(_GRAPH.index(name), value) for name, value in _no_text()]


def pack(graph: Graph, own: bool = False, pickled: bool = False) -> bytes:
    """A graph as bytes (:func:`unpack` gives it back, every field equal).

    Args:
        graph: the graph.
        own: pack only the graph's own fields: its :data:`~mrp.graph.TEXT_FIELDS` (kept with an earlier
            graph of the same text) as those of an empty graph.
        pickled: pickle the fields without trying marshal first (the graph before needed pickle: every
            AMR graph read from Penman does, its labels being penman's symbols).

    Returns:
        The bytes.
    """
    values = list(_FIELDS(graph))
    if own:
        for k, value in _EMPTY_TEXT:
            values[k] = value
    else:
        values[_NODES] = [_NODE(node) for node in graph.nodes]
        values[_EDGES] = [_EDGE(edge) for edge in graph.edges]
    if not pickled:
        try:
            return _MARSHAL + marshal.dumps(tuple(values))
        except ValueError:  # a value of a type marshal does not know (a Penman Symbol, a UMR placement)
            pass
    return PICKLED + pickle.dumps(tuple(values), protocol=5)


def unpack(data: bytes) -> Graph:
    """The graph that :func:`pack` packed."""
    view = memoryview(data)[1:]
    values = list(pickle.loads(view) if data[:1] == PICKLED else marshal.loads(view))
    values[_NODES] = [Node(*node) for node in values[_NODES]]
    values[_EDGES] = [Edge(*edge) for edge in values[_EDGES]]
    graph = Graph(*values)
    graph.flavor = values[_FLAVOR]  # as packed, even where the default would differ
    return graph

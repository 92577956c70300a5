"""AMR graphs as penman triples and back, for standardization (mrp.standardize.graph).

Concepts are ``:instance`` triples, constants are wrapped in :class:`Constant`
(never equal to a variable, keeping the original value object), relations are
in their normal direction.  :func:`to_graph` rebuilds a graph with ids
``0..n-1``: the tops first, then in order of first mention.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import penman
from penman.models.amr import model as AMR

from mrp import rules
from mrp.graph import Edge, Graph, Node

#: penman's role of the concept (instance) triple
INSTANCE = ":instance"
#: a variable and role used only to keep nodes from being dereified (removed afterwards)
GUARD_VARIABLE = "guard"
GUARD_ROLE = ":mrp-guard"
#: prefix that keeps a role named like the instance role from being taken for it
_ESCAPE = "\x00"

Triple = Tuple[Any, str, Any]


class Constant:
    """A constant in a triple: never equal to a variable, and keeping the original value object."""

    __slots__ = ("value", "_key")

    def __init__(self, value: Any) -> None:
        self.value = value
        self._key = ("str", str(value)) if isinstance(value, str) else ("other", repr(value))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Constant) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"Constant({self.value!r})"


def _role(label: Optional[str]) -> str:
    """The penman role of an edge label or property name (escaped if it could become ':instance')."""
    text = "" if label is None else str(label)
    stem = text
    while stem.endswith("-of"):
        stem = stem[:-3]
    if stem == INSTANCE[1:]:
        text = _ESCAPE + text
    return ":" + text


def _label(role: str) -> Optional[str]:
    """The edge label or property name of a penman role (None for the empty role)."""
    text = role[1:] if role.startswith(":") else role
    if text.startswith(_ESCAPE):
        text = text[len(_ESCAPE):]
    return text or None


def is_variable(target: Any) -> bool:
    return isinstance(target, str)


def to_triples(graph: Graph, names: Dict[int, str], no_wiki: bool) -> List[Triple]:
    """Triples of a graph: concept and constants per node, then edges in their normal direction."""
    triples: List[Triple] = []
    for node in graph.nodes:
        variable = names[node.id]
        triples.append((variable, INSTANCE, node.label))
        for name, value in zip(node.properties, node.values):
            if no_wiki and name == "wiki":
                continue
            triples.append((variable, _role(name), Constant(value)))
    for edge in graph.edges:
        triples.append(AMR.deinvert((names[edge.source], _role(edge.label), names[edge.target])))
    return triples


def penman_graph(triples: Sequence[Triple], tops: Sequence[str]) -> penman.Graph:
    """A penman graph of the triples, with the (empty) layout data its transforms look up."""
    top = tops[0] if tops else GUARD_VARIABLE
    return penman.Graph(list(triples), top=top, epidata={triple: [] for triple in triples})


def _order(triples: Iterable[Triple], tops: Sequence[str]) -> List[str]:
    """Variables: the tops first, then in order of first mention."""
    order: Dict[str, None] = dict.fromkeys(tops)
    for source, role, target in triples:
        order.setdefault(source)
        if role != INSTANCE and is_variable(target):
            order.setdefault(target)
    return list(order)


def _new_node(k: int, original: Optional[Node]) -> Node:
    node = Node(id=k)
    if original is not None and original.anchors is not None:
        node.anchors = list(original.anchors)
    return node


def _keep_anchorings(node: Node, original: Optional[Node]) -> None:
    """Per-property anchors stay only where the properties did not change."""
    if original is None or original.anchorings is None:
        return
    if node.properties == list(original.properties) and node.values == list(original.values):
        node.anchorings = copy.deepcopy(original.anchorings)


def to_graph(graph: Graph, triples: List[Triple], tops: List[str], origin: Dict[str, Node]) -> Graph:
    """A new graph of the triples: ids 0..n-1, constants as properties, edges as written."""
    ids = {variable: k for k, variable in enumerate(_order(triples, tops))}
    nodes = [_new_node(k, origin.get(variable)) for variable, k in ids.items()]
    edges: List[Edge] = []
    for source, role, target in triples:
        node = nodes[ids[source]]
        if role == INSTANCE:
            node.label = target.value if isinstance(target, Constant) else target
        elif is_variable(target):
            label = _label(role)
            edges.append(Edge(ids[source], ids[target], label, rules.normal_role(label, rules.MTOOL)))
        else:
            node.properties.append(_label(role) or "")
            node.values.append(target.value if isinstance(target, Constant) else target)
    for variable, k in ids.items():
        _keep_anchorings(nodes[k], origin.get(variable))
    shell = copy.deepcopy(replace(graph, nodes=[], edges=[], tops=[]))
    shell.nodes, shell.edges, shell.tops = nodes, edges, [ids[top] for top in tops]
    shell.layout = None  # the Penman layout described the graph before the rewrite
    shell.variables = _variables_kept(graph, ids, origin)
    return shell


def _variables_kept(graph: Graph, ids: Dict[str, int], origin: Dict[str, Node]) -> Optional[Dict[int, str]]:
    """The file's variables of the nodes that stay, under their new ids (a new node has none)."""
    if graph.variables is None:
        return None
    kept: Dict[int, str] = {}
    for variable, k in ids.items():
        node = origin.get(variable)
        if node is not None and node.id in graph.variables:
            kept[k] = graph.variables[node.id]
    return kept

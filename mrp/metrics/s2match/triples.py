"""S2match's triples: a graph's concepts (graded), its tops, its exact node-local triples and relations.

Two definitions (see :mod:`mrp.metrics.s2match.metric`):

* **mrp's** (the default): SMATCH's triples as :mod:`mrp.metrics.smatch.metric` makes them (sets; the original
  SMATCH tool's reading of Penman, else mtool's of MRP graphs), the ``instance`` triple of each node and
  the ``TOP`` triple of each top set apart, to be graded by their concepts.
* **the original's** (``compat``): as the reader S2match ships (amr-metric-suite's ``amr_py3.py``, an
  older SMATCH reader) gives them, read in the written order of the graph's Penman layout: a relation
  ending in ``-of`` is inverted (``consist-of`` too; ``mod`` is kept) where it opens a node or ends its
  node's branches, and kept as written on a reference or constant followed by another branch; an inverted
  one on a constant is lost; a node keeps one relation per other node and one value per attribute name,
  the last in the reader's order (relations that open a node or refer to one defined before, then the
  rest); a quoted value keeps its first word, marked with a ``_`` when it is one word (unless ``mark`` is
  off); a value whose kept word is a variable becomes a relation to that node; the root's ``TOP`` is valued
  with its concept.  Graphs without a Penman layout (MRP input) are read in edge order.
"""

from __future__ import annotations

from typing import Any, Dict, Hashable, List, NamedTuple, Optional, Tuple

from mrp.codecs.penman import Quoted
from mrp.engine import Options
from mrp.graph import Graph
from mrp.metrics.smatch.metric import triples as smatch_triples
from mrp.metrics.smatch.penman import Local, Relations

__all__ = ["Soft", "compat_triples", "soft_triples"]


class Soft(NamedTuple):
    """A graph's triples for S2match: by node position, its concept (None: no instance triple) and its
    top triples; its exact node-local triples and relations (with copies), and its triple count."""

    concepts: List[Optional[str]]
    tops: List[int]
    local: Local
    relations: Relations
    total: int


def soft_triples(graph: Graph, options: Options) -> Soft:
    """The triples of a graph under mrp's definition (SMATCH's triples, instance and TOP set apart)."""
    local, relations, total = smatch_triples(graph, options)
    concepts: List[Optional[str]] = []
    tops: List[int] = []
    exact: Local = []
    for triples in local:
        concept, top, rest = None, 0, {}
        for key, copies in triples.items():
            if isinstance(key, tuple) and len(key) == 2 and key[0] == "instance":
                concept = str(key[1])
            elif isinstance(key, tuple) and len(key) == 2 and key[0] == "TOP":
                top = copies
            else:
                rest[key] = copies
        concepts.append(concept)
        tops.append(top)
        exact.append(rest)
    return Soft(concepts, tops, exact, relations, total)


def _kept(value: object, mark: bool) -> str:
    """A constant as the original's reader keeps it: quoted, its first word (``_`` after a lone word with
    ``mark``); else its first word."""
    text = str(value)
    if type(value) is Quoted and mark:
        text += "_"
    words = text.split()
    return words[0] if words else ""


#: what the original's reader files under a node, in its two lists (the first read first): (role, other
#: end), the other end a node position, or a constant's text
Filed = List[List[Tuple[str, Any]]]


def _filed(graph: Graph, position: Dict[Any, int], variables: Dict[str, int], mark: bool
           ) -> Optional[Tuple[Filed, Filed]]:
    """The original reader's two lists of each node, from the graph's Penman layout read in written order
    (None without a layout): a branch that opens its node, or a reference to a node defined before, goes to
    the first list, anything else to the second; a role ending in ``-of`` is inverted (filed under the
    other end) except on a reference or constant followed by another branch of its node."""
    layout = graph.layout
    if not layout or not graph.nodes:
        return None
    first: Filed = [[] for _ in graph.nodes]
    second: Filed = [[] for _ in graph.nodes]
    defined: set = set()
    root = graph.tops[0] if graph.tops else graph.nodes[0].id
    stack = [(root, 0)]
    defined.add(position[root])
    while stack:
        node, at = stack.pop()
        branches = layout.get(node, [])
        if at >= len(branches):
            continue
        stack.append((node, at + 1))
        role, target, here = branches[at]
        mine = position[node]
        role = str(role)
        if here:  # "(x / ..." opens the node: the relation is filed at once, inverted for -of
            opened = position[target]
            if role.endswith("-of"):
                first[opened].append((role[:-3], mine))
            else:
                first[mine].append((role, opened))
            defined.add(opened)
            stack.append((target, 0))
            continue
        reference = isinstance(target, int) and target in position and graph.variables
        text = graph.variables.get(target, "") if reference and graph.variables else _kept(target, mark)
        last = at == len(branches) - 1  # read at ")": -of inverted; at ":" it is not
        known = variables.get(text)
        if last and role.endswith("-of"):
            if known is not None:
                first[known].append((role[:-3], mine))
        elif known is not None and known in defined:
            first[mine].append((role, known))
        else:
            second[mine].append((role, text))
    return first, second


def compat_triples(graph: Graph, mark: bool = True) -> Soft:
    """The triples of a graph as the original S2match's reader gives them (the module's description)."""
    nodes = graph.nodes
    position = {node.id: k for k, node in enumerate(nodes)}
    variables = {name: position[node] for node, name in (graph.variables or {}).items() if node in position}
    # per node: other node -> role (one relation per node pair), attribute name -> value (the last of each)
    relations: List[Dict[int, str]] = [{} for _ in nodes]
    attributes: List[Dict[str, str]] = [{} for _ in nodes]
    filed = _filed(graph, position, variables, mark)
    if filed is not None:
        for k, (mine_first, mine_second) in enumerate(zip(*filed)):
            for role, other in mine_first:
                relations[k][other] = role
            for role, text in mine_second:
                if text in variables:
                    relations[k][variables[text]] = role
                else:
                    attributes[k][role] = text
        return _soft(graph, position, relations, attributes)
    for k, node in enumerate(nodes):
        for name, value in zip(node.properties, node.values):
            if str(name).endswith("-of"):
                continue  # filed under the constant, which is no node: lost
            kept = _kept(value, mark)
            if kept in variables:
                relations[k][variables[kept]] = str(name)
            else:
                attributes[k][str(name)] = kept
    for edge in graph.edges:
        a, b, role = position[edge.source], position[edge.target], edge.label or ""
        if role.endswith("-of"):
            a, b, role = b, a, role[:-3]
        relations[a][b] = role
    return _soft(graph, position, relations, attributes)


def _soft(graph: Graph, position: Dict[Any, int], relations: List[Dict[int, str]],
          attributes: List[Dict[str, str]]) -> Soft:
    """The :class:`Soft` triples of the original reader's relations and attributes of each node."""
    nodes = graph.nodes
    concepts: List[Optional[str]] = [str(node.label if node.label is not None else "").lower()
                                     for node in nodes]
    tops = [0] * len(nodes)
    if nodes:
        tops[position.get(graph.tops[0], 0) if graph.tops else 0] = 1
    local: Local = []
    for mine in attributes:
        triples: Dict[Hashable, int] = {}
        for name, value in mine.items():
            key = (name.lower(), value.lower())
            triples[key] = triples.get(key, 0) + 1
        local.append(triples)
    out: Relations = {}
    for a, mine_relations in enumerate(relations):
        for b, role in mine_relations.items():
            key3: Tuple[int, int, Hashable] = (a, b, role.lower())
            out[key3] = out.get(key3, 0) + 1
    total = len(nodes) + sum(map(len, attributes)) + sum(tops) + sum(map(len, relations))
    return Soft(concepts, tops, local, out, total)

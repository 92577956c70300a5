"""Writing Penman: a graph laid out as a tree (nodes nested in node order where possible), with
AMR-style variables; the string types that remember how the reader found a value quoted."""

from __future__ import annotations

import contextlib
import json
import logging
import re
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import penman

from mrp import rules
from mrp.codecs.base import Unwritable, cannot_write
from mrp.graph import Graph

#: an unquoted symbol: no white space and no line separator of any kind (penman's lexer splits its text
#: with ``str.splitlines``), no quote, parenthesis, slash, colon or tilde
_SYMBOL = re.compile(r'[^\s"()/:~]+')
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_MODES = frozenset({"imperative", "interrogative", "expressive"})

class _Dropped(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return False


#: penman's loggers that lay out (its layout module) and parse (penman)
_LOGGERS = (logging.getLogger("penman.layout"), logging.getLogger("penman"))


@contextlib.contextmanager
def quiet_layout() -> Iterator[None]:
    """Nothing of what penman logs meanwhile (laying out a graph, it warns of epidata it ignores, a
    duplicate triple) is shown: that is not the library's to print."""
    dropped = _Dropped()  # one for each call: another thread's call may end meanwhile
    for logger in _LOGGERS:
        logger.addFilter(dropped)
    try:
        yield
    finally:
        for logger in _LOGGERS:
            logger.removeFilter(dropped)


class Quoted(str):
    """A string that was written in double quotes in Penman."""

    __slots__ = ()


class Symbol(str):
    """A string that was written without quotes in Penman."""

    __slots__ = ()


def preorder(root: Any) -> List[Any]:
    """The nodes of a Penman tree in depth-first order of their definitions (no recursion)."""
    order: List[Any] = []
    stack = [root]
    while stack:
        node = stack.pop()
        order.append(node)
        children = [target for _, target in node[1] if isinstance(target, tuple)]
        stack.extend(reversed(children))
    return order


def _format_constant(value: Any, role: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = "" if value is None else str(value)
    if isinstance(value, Quoted):
        return json.dumps(text, ensure_ascii=False)
    symbol = _SYMBOL.fullmatch(text) is not None and not text.startswith("#")
    if isinstance(value, Symbol) and symbol:
        return text
    if symbol and (_NUMBER.fullmatch(text) or text in ("-", "+") or (role == "mode" and text in _MODES)):
        return text
    return json.dumps(text, ensure_ascii=False)


def _format_label(label: str) -> str:
    if isinstance(label, Quoted) or _SYMBOL.fullmatch(label) is None or label.startswith("#"):
        return json.dumps(label, ensure_ascii=False)
    return label


def _check(graph: Graph) -> int:
    if not graph.nodes:
        raise Unwritable("graph has no nodes")
    if len(graph.tops) > 1:
        raise Unwritable(f"graph has {len(graph.tops)} tops (Penman has one root)")
    known = {node.id for node in graph.nodes}
    for edge in graph.edges:
        if edge.source not in known or edge.target not in known:
            raise Unwritable(f"edge {edge.source} -> {edge.target} names no node")
        if edge.attributes:
            raise Unwritable(f"edge {edge.source} -> {edge.target} has attributes")
        if edge.label is None or _SYMBOL.fullmatch(edge.label) is None:
            raise Unwritable(f"edge {edge.source} -> {edge.target} has label {edge.label!r}")
    for node in graph.nodes:
        for name in node.properties:
            if not isinstance(name, str) or _SYMBOL.fullmatch(name) is None:
                raise Unwritable(f"node {node.id} has property name {name!r}")
    top = graph.tops[0] if graph.tops else graph.nodes[0].id
    if top not in known:
        raise Unwritable(f"top {top} names no node")
    return top


def _layout(graph: Graph, top: int, strict: bool, ordered: bool) -> Optional[Any]:
    """A Penman tree whose variables are node ids, or None when this layout cannot reach every node.

    The strict layout follows edges as written and nests a node only where it
    comes next in node order, so that reading the output gives the same node
    ids; the relaxed one nests each node at its first visit and may follow an
    edge backwards (writing it with the inverse role).  With ``ordered``, the
    edges of a node are written in their order in the graph, else in the node
    order of their other ends.
    """
    position = {node.id: k for k, node in enumerate(graph.nodes)}
    if strict and position[top] != 0:
        return None
    by_id = {node.id: node for node in graph.nodes}
    forward: Dict[int, List[int]] = {node.id: [] for node in graph.nodes}
    backward: Dict[int, List[int]] = {node.id: [] for node in graph.nodes}
    for k, edge in enumerate(graph.edges):
        forward[edge.source].append(k)
        backward[edge.target].append(k)

    def branches(node_id: int) -> Tuple[int, List[Any]]:
        node = by_id[node_id]
        result: List[Any] = []
        if node.label is not None:
            result.append(("/", _format_label(node.label)))
        for name, value in zip(node.properties, node.values):
            result.append((":" + name, _format_constant(value, name)))
        return (node_id, result)

    def candidates(node_id: int) -> Iterator[Tuple[int, bool]]:
        if ordered:
            items = [(k, False) for k in forward[node_id]]
        else:
            items = [(k, False) for k in sorted(forward[node_id],
                                                key=lambda k: position[graph.edges[k].target])]
        if not strict:
            items += [(k, True) for k in sorted(backward[node_id],
                                                key=lambda k: position[graph.edges[k].source])]
        return iter(items)

    trees = {top: branches(top)}
    visited = {top}
    written: Set[int] = set()
    following = 1
    stack = [(top, candidates(top))]
    while stack:
        current, items = stack[-1]
        for k, inverted in items:
            if k in written:
                continue
            edge = graph.edges[k]
            other = edge.source if inverted else edge.target
            if inverted and other in visited:
                continue
            label = str(edge.label)
            role = ":" + (rules.inverse_role(label) if inverted else label)
            written.add(k)
            if other not in visited and (not strict or position[other] == following):
                visited.add(other)
                following += 1
                trees[other] = branches(other)
                trees[current][1].append((role, trees[other]))
                stack.append((other, candidates(other)))
                break
            trees[current][1].append((role, other))
        else:
            stack.pop()
    if len(visited) != len(graph.nodes):
        return None
    return trees[top]


def _variables(root: Any, graph: Graph, given: Optional[Dict[int, str]] = None) -> penman.Tree:
    """A Penman tree with the ``given`` variables, else AMR-style ones (first letter of the concept,
    numbered)."""
    names: Dict[int, str] = dict(given or {})
    counts: Dict[str, int] = {}
    by_id = {node.id: node for node in graph.nodes}
    for node_id, _ in preorder(root) if given is None else []:
        label = by_id[node_id].label or "x"
        letters = [c for c in str(label).lower() if "a" <= c <= "z"]
        prefix = letters[0] if letters else "x"
        counts[prefix] = counts.get(prefix, 0) + 1
        names[node_id] = prefix if counts[prefix] == 1 else f"{prefix}{counts[prefix]}"

    def rename(node: Any) -> Any:
        node_id, branches = node
        renamed = []
        for role, target in branches:
            if isinstance(target, tuple):
                renamed.append((role, rename(target)))
            elif isinstance(target, int) and role != "/":
                renamed.append((role, names[target]))
            else:
                renamed.append((role, target))
        return (names[node_id], renamed)

    return penman.Tree(rename(root))


def penman_text(graph: Graph, variables: Optional[Dict[int, str]] = None, indent: int = 6) -> str:
    """The Penman text of a graph (no metadata); ``variables``: node id -> variable of every node
    (default: AMR-style ones); FormatError when Penman cannot represent the graph."""
    return formatted(graph, penman_tree(graph, variables), indent)


def formatted(graph: Graph, tree: penman.Tree, indent: Optional[int], compact: bool = False) -> str:
    """penman's text of a graph's tree (``indent`` as penman's: None for one line, -1 aligned)."""
    try:
        return penman.format(tree, indent=indent, compact=compact)
    except RecursionError:
        raise cannot_write(graph, "Penman", Unwritable("graph is nested too deeply")) from None


def penman_tree(graph: Graph, variables: Optional[Dict[int, str]] = None) -> penman.Tree:
    """The Penman tree of a graph, as :func:`penman_text` lays it out (to format it in another style)."""
    try:
        top = _check(graph)
        root = (_layout(graph, top, strict=True, ordered=True)
                or _layout(graph, top, strict=True, ordered=False)
                or _layout(graph, top, strict=False, ordered=False))
        if root is None:
            raise Unwritable("not every node can be reached from the top")
        return _variables(root, graph, variables)
    except Unwritable as error:
        raise cannot_write(graph, "Penman", error) from None
    except RecursionError:
        raise cannot_write(graph, "Penman", Unwritable("graph is nested too deeply")) from None

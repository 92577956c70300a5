"""The graph of a plain Penman text in one pass: what :func:`.amr._convert` builds from the tree
:func:`.parse.parse` gives, without building the tree.

The text is lexed with :mod:`.parse`'s tokens and grammar (the same refusals: a text outside the plain
grammar gives None); the nodes are numbered as they open, which is the depth-first order of their
definitions that :func:`.writer.preorder` gives, and each branch keeps its child's number instead of its
node.  A text that :func:`.amr._convert` refuses (a variable defined twice) gives None too, so that the
caller reads it the full way and its error stays as it is.  ``tests/test_penman_fast.py`` proves the graphs
equal on the shared data, on perturbed texts and on random ones.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Union

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.amr import _ROLES, _role, _strip_alignment, _value, attach
from mrp.codecs.penman.parse import _KINDS, _OTHER_BREAKS, _TOKEN, MAX_DEPTH
from mrp.graph import Branch, Edge, Graph, Node

__all__ = ["fast_graph"]

#: the first characters of tokens other than symbols
_SPECIAL = "".join(_KINDS)
#: a branch as read: its role as written and its target (a child's number, or a constant or variable)
_Branch = Tuple[str, Union[int, str]]


def _tree(text: str, whole: bool = False
          ) -> Optional[Tuple[List[str], List[Optional[str]], List[List[_Branch]]]]:
    """Each node's variable, concept as written (None: none) and branches, numbered as they open; None
    for a text :func:`.parse.parse` declines (its grammar, checked by each token's first character:
    :data:`.parse._KINDS`), and with ``whole`` for a text with tokens after its graph."""
    if _OTHER_BREAKS.search(text) is not None:
        return None
    tokens = _TOKEN.findall(text)
    if '"' in tokens or "~" in tokens:
        return None
    count = len(tokens)
    if count < 3 or tokens[0] != "(":
        return None
    special = _SPECIAL
    names: List[str] = []
    concepts: List[Optional[str]] = []
    branches: List[List[_Branch]] = []
    stack: List[List[_Branch]] = []
    position = 0
    role = ""
    while True:
        # at "(": open a node (its variable a symbol)
        if position + 1 >= count or tokens[position + 1][0] in special or len(stack) >= MAX_DEPTH:
            return None
        number = len(names)
        names.append(tokens[position + 1])
        mine: List[_Branch] = []
        branches.append(mine)
        position += 2
        concept: Optional[str] = None
        if position < count and tokens[position] == "/":
            position += 1
            if position >= count:
                return None
            concept = tokens[position]
            if concept[0] in special and concept[0] != '"':
                return None  # no symbol or string
            position += 1
            if position < count and tokens[position][0] == "~":
                concept += tokens[position]
                position += 1
        concepts.append(concept)
        if stack:
            stack[-1].append((role, number))
        stack.append(mine)
        # the node's edges, and the nodes it closes
        while True:
            if position >= count:
                return None
            token = tokens[position]
            first = token[0]
            if first == ")":
                position += 1
                stack.pop()
                if not stack:
                    return (names, concepts, branches) if not whole or position == count else None
                continue
            if first != ":":
                return None
            role = token
            position += 1
            if position < count and tokens[position][0] == "~":
                role += tokens[position]
                position += 1
            if position >= count:
                return None
            target = tokens[position]
            first = target[0]
            if first not in special or first == '"':
                position += 1
                if position < count and tokens[position][0] == "~":
                    target += tokens[position]
                    position += 1
                stack[-1].append((role, target))
                continue
            if first == "(":
                break
            return None


def fast_graph(text: str, gid: str, options: ReadOptions, whole: bool = False) -> Optional[Graph]:
    """The graph :func:`.amr._convert` builds from the tree of ``text``, or None for a text that
    :func:`.parse.parse` declines or that :func:`.amr._convert` refuses (with ``whole``, also for a
    text with anything but white space after its graph).

    Args:
        text: the graph text of a frame, closed (every separator a ``\\n``: a text with others is declined).
        gid: the graph's id.
        options: the read options (``no_wiki`` and ``framework`` are read).
        whole: whether the text must end with its graph.

    Returns:
        The graph, or None.
    """
    tree = _tree(text, whole)
    if tree is None:
        return None
    names, concepts, branches = tree
    variables: Dict[str, int] = {}
    for k, name in enumerate(names):
        if name in variables:
            return None  # the full reader says so
        variables[name] = k
    nodes: List[Node] = []
    edges: List[Edge] = []
    layout: Dict[int, List[Branch]] = {}
    no_wiki = options.no_wiki
    roles = _ROLES
    for k, mine in enumerate(branches):
        concept = concepts[k]
        node = Node(id=k) if concept is None else \
            Node(id=k, label=_value(_strip_alignment(concept) if "~" in concept else concept))
        written: List[Branch] = []
        layout[k] = written
        for role, target in mine:
            known = roles.get(role)
            label, normal = known if known is not None else _role(role)
            if isinstance(target, int):
                edges.append(Edge(k, target, label, normal))
                written.append((label, target, True))
                continue
            text = _strip_alignment(target) if "~" in target else target
            attach(node, label, normal, text, variables, edges, written, no_wiki)
        nodes.append(node)
    return Graph(id=gid, framework=options.framework or "amr", flavor=2, tops=[0], nodes=nodes, edges=edges,
                 layout=layout, variables=dict(enumerate(names)))

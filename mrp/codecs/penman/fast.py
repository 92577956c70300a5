"""The graph of a plain Penman text in one pass: what :func:`.amr._convert` builds from the tree
:func:`.parse.parse` gives, without building the tree.

The text is lexed with :mod:`.parse`'s tokens and grammar (the same refusals: a text outside the plain
grammar gives None); the nodes are numbered as they open, which is the depth-first order of their
definitions that :func:`.writer.preorder` gives, and each branch keeps its child's number instead of its
node.  Every variable is known before the branches are read (the token after each ``(``), so that each
branch becomes its edge or property as it is read; the edges, made in the order of the text, are then put
in the order of their nodes (a stable sort by source: each node's in the order written).  A text that
:func:`.amr._convert` refuses (a variable defined twice) gives None too, so that the caller reads it the
full way and its error stays as it is.  ``tests/test_penman_fast.py`` proves the graphs
equal on the shared data, on perturbed texts and on random ones.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Dict, List, Optional

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.amr import _CONSTANTS, _ROLES, _role, _strip_alignment, _value
from mrp.codecs.penman.parse import _KINDS, _OTHER_BREAKS, _TOKEN, MAX_DEPTH
from mrp.graph import Branch, Edge, Graph, Node

__all__ = ["fast_graph"]

#: the first characters of tokens other than symbols
_SPECIAL = "".join(_KINDS)
_SOURCE = attrgetter("source")


def fast_graph(text: str, gid: str, options: ReadOptions, whole: bool = False) -> Optional[Graph]:
    """The graph :func:`.amr._convert` builds from the tree of ``text``, or None for a text that
    :func:`.parse.parse` declines (its grammar, checked by each token's first character:
    :data:`.parse._KINDS`) or that :func:`.amr._convert` refuses (with ``whole``, also for a text with
    anything but white space after its graph).

    Args:
        text: the graph text of a frame, closed (every separator a ``\\n``: a text with others is declined).
        gid: the graph's id.
        options: the read options (``no_wiki`` and ``framework`` are read).
        whole: whether the text must end with its graph.

    Returns:
        The graph, or None.
    """
    if _OTHER_BREAKS.search(text) is not None:
        return None
    tokens = _TOKEN.findall(text)
    if '"' in tokens or "~" in tokens:
        return None
    count = len(tokens)
    if count < 3 or tokens[0] != "(":
        return None
    # the variables, numbered as their nodes open (in a text the grammar takes, the token after each "(")
    following = iter(tokens)
    names = [next(following, "") for token in following if token == "("]
    variables: Dict[str, int] = {name: k for k, name in enumerate(names)}
    if len(variables) != len(names):
        return None  # a variable defined twice: the full reader says so
    special = _SPECIAL
    no_wiki = options.no_wiki
    roles, constants = _ROLES, _CONSTANTS
    nodes: List[Node] = []
    edges: List[Edge] = []
    layout: Dict[int, List[Branch]] = {}
    stack: List[Node] = []
    writing: List[List[Branch]] = []  # the layout of each node of the stack
    position = 0
    label = ""
    normal: Optional[str] = None
    while True:
        # at "(": open a node (its variable a symbol)
        if position + 1 >= count or tokens[position + 1][0] in special or len(stack) >= MAX_DEPTH:
            return None
        number = len(nodes)
        position += 2
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
            node = Node(number, _value(_strip_alignment(concept) if "~" in concept else concept))
        else:
            node = Node(number)
        nodes.append(node)
        written: List[Branch] = []
        layout[number] = written
        if stack:
            edges.append(Edge(stack[-1].id, number, label, normal))
            writing[-1].append((label, number, True))
        stack.append(node)
        writing.append(written)
        # the node's edges, and the nodes it closes
        while True:
            if position >= count:
                return None
            token = tokens[position]
            first = token[0]
            if first == ")":
                position += 1
                stack.pop()
                writing.pop()
                if not stack:
                    if whole and position != count:
                        return None
                    edges.sort(key=_SOURCE)
                    return Graph(id=gid, framework=options.framework or "amr", flavor=2, tops=[0],
                                 nodes=nodes, edges=edges, layout=layout, variables=dict(enumerate(names)))
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
            known = roles.get(role)
            label, normal = known if known is not None else _role(role)
            target = tokens[position]
            first = target[0]
            if first == "(":
                break
            if first in special and first != '"':
                return None
            position += 1
            if position < count and tokens[position][0] == "~":
                target += tokens[position]
                position += 1
            if "~" in target:
                target = _strip_alignment(target)
            # a branch whose target is written as text: an edge to the node of a variable, else a property
            # (``:wiki`` left out with ``no_wiki``), as :func:`.amr.attach` makes it
            owner = stack[-1]
            if first != '"' and target in variables:
                other = variables[target]
                edges.append(Edge(owner.id, other, label, normal))
                writing[-1].append((label, other, False))
                continue
            if no_wiki and label == "wiki":
                continue
            value = constants.get(target)
            if value is None:
                value = _value(target)
            owner.properties.append(label)
            owner.values.append(value)
            writing[-1].append((label, value, False))

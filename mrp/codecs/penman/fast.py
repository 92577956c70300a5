"""The graph of a plain Penman text in one pass: what :func:`.amr._convert` builds from the tree
:func:`.parse.parse` gives, without building the tree, and without a Python step per token.

One regular expression (:data:`_UNITS`) cuts the text into structural units, each matched with its parts as
groups: a node opening (``( variable / concept``, the concept optional) or a branch (``:role value`` or
``:role ( variable / concept``), each with the ``)`` that follow it, alignments matched and left out.  The
units are made of :mod:`.parse`'s tokens (the same character classes; each token of a unit as long as its
class allows, so that no text is cut into other tokens than ``penman``'s lexer cuts it), and any other
character is a unit of its own that declines the text: a comment, a missing concept or target, an
unexpected character, a line separator other than ``\\n``, nesting deeper than :data:`.parse.MAX_DEPTH`,
anything after the graph, a variable defined twice (which :func:`.amr._convert` refuses) give None, and the
caller reads the text the full way, with its errors as they are.

The nodes are numbered as they open, which is the depth-first order of their definitions that
:func:`.writer.preorder` gives.  Every variable is known before the branches are read (each opening's
variable), so that each branch becomes its edge or property as it is read; the edges, made in the order of
the text, are then put in the order of their nodes (a stable sort by source: each node's in the order
written).  ``tests/test_penman_fast.py`` proves the graphs equal to the full reader's on the shared data, on
perturbed texts and on random ones, and the texts declined the same as a token-by-token reading declines
them.
"""

from __future__ import annotations

import re
from operator import attrgetter
from typing import Dict, List, Optional, Tuple

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.amr import _CONSTANTS, _ROLES, _role, _value
from mrp.codecs.penman.parse import MAX_DEPTH
from mrp.graph import Branch, Edge, Graph, Node

__all__ = ["fast_graph"]

#: line separators other than "\n" (penman's lexer splits lines at them): no unit holds one
_BREAKS = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
#: what no symbol or role holds (besides the separators): white space, quotes, parentheses, slash, colon, ~
_NOT = ' \t\n"()/:~' + _BREAKS
#: white space between tokens
_W = "[ \t\n]*"
#: a symbol, as long as it goes (a "#" first starts a comment)
_SYMBOL = f"[^{_NOT}#][^{_NOT}]*"
#: a quoted string on one line, with its escapes
_STRING = rf'"[^"\\\n{_BREAKS}]*(?:\\[^\n{_BREAKS}][^"\\\n{_BREAKS}]*)*"'
#: an alignment, as long as it goes (left out of the graph)
_ALIGNMENT = rf"(?:{_W}~(?:[a-z]\.?)?[0-9]+(?:,[0-9]+)*(?![0-9]|,[0-9]))?"
#: a role, as long as it goes
_ROLE = f":[^{_NOT}]*(?![^{_NOT}])"
#: the units: (role, value, variable, concept, closing parentheses, any other character); a unit is a
#: branch when it has a role, a node's opening when it has a variable
_UNITS = re.compile(
    f"(?:({_ROLE}){_ALIGNMENT}{_W})?"
    f"(?:({_SYMBOL}|{_STRING}){_ALIGNMENT}"
    rf"|\({_W}({_SYMBOL})(?:{_W}/{_W}({_SYMBOL}|{_STRING}){_ALIGNMENT})?)"
    rf"(?:{_W}(\)(?:{_W}\))*))?"
    "|([^ \t\n])")
_SOURCE = attrgetter("source")


def fast_graph(text: str, gid: str, options: ReadOptions, whole: bool = False) -> Optional[Graph]:
    """The graph :func:`.amr._convert` builds from the tree of ``text``, or None for a text that
    :func:`.parse.parse` declines, that :func:`.amr._convert` refuses, or that holds anything but white space
    after its graph.

    Args:
        text: the graph text of a frame, closed (every separator a ``\\n``: a text with others is declined).
        gid: the graph's id.
        options: the read options (``no_wiki`` and ``framework`` are read).
        whole: kept for callers that ask for a text that ends with its graph: every text must.

    Returns:
        The graph, or None.
    """
    units: List[Tuple[str, str, str, str, str, str]] = _UNITS.findall(text)
    names = [unit[2] for unit in units if unit[2]]
    variables: Dict[str, int] = {name: k for k, name in enumerate(names)}
    if len(variables) != len(names) or not units:
        return None  # a variable defined twice (the full reader says so), or no graph
    no_wiki = options.no_wiki
    roles, constants = _ROLES, _CONSTANTS
    nodes: List[Node] = []
    edges: List[Edge] = []
    layout: Dict[int, List[Branch]] = {}
    #: the open nodes above the current one, each with its layout
    stack: List[Tuple[Node, List[Branch]]] = []
    owner: Optional[Node] = None  # the current node (None: before the root, and after it closes)
    written: List[Branch] = []  # its layout
    number = 0
    for role, value, variable, concept, closes, _other in units:
        if variable:  # a node opens
            if concept:
                label = constants.get(concept)
                node = Node(number, label if label is not None else _value(concept), [], [])
            else:
                node = Node(number, None, [], [])
            nodes.append(node)
            here: List[Branch] = []
            layout[number] = here
            if role:
                if owner is None:
                    return None
                known = roles.get(role)
                label, normal = known if known is not None else _role(role)
                edges.append(Edge(owner.id, number, label, normal, [], []))
                written.append((label, number, True))
                stack.append((owner, written))
                if len(stack) >= MAX_DEPTH:
                    return None
            elif number:
                return None  # a node where a branch or the end was due
            number += 1
            owner, written = node, here
        elif value:  # a branch whose target is written as text
            if not role or owner is None:
                return None
            known = roles.get(role)
            label, normal = known if known is not None else _role(role)
            # an edge to the node of a variable, else a property (``:wiki`` left out with ``no_wiki``), as
            # :func:`.amr.attach` makes it
            if value[0] != '"' and value in variables:
                other = variables[value]
                edges.append(Edge(owner.id, other, label, normal, [], []))
                written.append((label, other, False))
            elif not no_wiki or label != "wiki":
                found = constants.get(value)
                if found is None:
                    found = _value(value)
                owner.properties.append(label)
                owner.values.append(found)
                written.append((label, found, False))
        else:
            return None  # a character no unit starts with
        if closes:
            for _ in range(1 if closes == ")" else closes.count(")")):
                if stack:
                    owner, written = stack.pop()
                elif owner is None:
                    return None  # a ")" after the graph
                else:
                    owner = None  # the root closes
    if owner is not None or not number:
        return None  # left open
    edges.sort(key=_SOURCE)
    return Graph(id=gid, framework=options.framework or "amr", flavor=2, tops=[0],
                 nodes=nodes, edges=edges, layout=layout, variables=dict(enumerate(names)))

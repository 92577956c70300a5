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

The pass gives the text's :class:`Plain` form: each node's concept and branches as written, the nodes
numbered as they open (the depth-first order of their definitions that :func:`.writer.preorder` gives),
every variable known before the branches are read (each opening's), so that each branch names its target
node by number.  What the text means is then read from that form alone, by whoever reads it: the graph
(:func:`built`: labels, values and roles as the full reader makes them, each node's edges in the order
written, the nodes' in order), or a metric that codes its triples without a graph (SMATCH's).
``tests/test_penman_fast.py`` proves the graphs equal to the full reader's on the shared data, on perturbed
texts and on random ones, and the texts declined the same as a token-by-token reading declines them.
"""

from __future__ import annotations

import re
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.amr import _CONSTANTS, _ROLES, _role, _value
from mrp.codecs.penman.parse import MAX_DEPTH
from mrp.graph import Branch, Edge, Graph, Node

__all__ = ["Plain", "built", "fast_graph", "plain_form", "role_label", "written_value"]

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

#: a branch as written: its role (``:ARG0-of``) and its target, a node's number (``k``: the node opens
#: there; ``~k``, below 0: the variable of node ``k`` named again) or a constant as written (``"Cold_War"``)
Written = Tuple[str, Union[int, str]]


class Plain(NamedTuple):
    """A plain Penman text as written, nothing read into it yet: what the graph (:func:`built`) and a
    metric's triples are both read from."""

    #: node k's variable
    variables: List[str]
    #: node k's concept as written ("" for none)
    concepts: List[str]
    #: node k's branches in the order written (each a :data:`Written`)
    branches: List[List[Written]]
    #: how many branches reach a node (the graph's edges)
    edges: int


def written_value(text: str) -> str:
    """The value the graph holds of a concept or constant as written (a Quoted or Symbol string).

    Args:
        text: the concept or constant as written (not empty).

    Returns:
        Its value, as :func:`built` (and the full reader) makes it.
    """
    found = _CONSTANTS.get(text)
    return found if found is not None else _value(text)


def role_label(role: str) -> str:
    """The label the graph's edge or property has of a role as written (``:ARG0-of`` -> ``ARG0-of``).

    Args:
        role: the role as written.

    Returns:
        Its label.
    """
    known = _ROLES.get(role)
    return (known if known is not None else _role(role))[0]


def plain_form(text: str, no_wiki: bool = False) -> Optional[Plain]:
    """The :class:`Plain` form of a plain Penman text, or None for a text that :func:`.parse.parse`
    declines, that :func:`.amr._convert` refuses, or that holds anything but white space after its graph.

    Args:
        text: the graph text of a frame, closed (every separator a ``\\n``: a text with others is declined).
        no_wiki: leave ``:wiki`` constants out (``ReadOptions.no_wiki``).

    Returns:
        The form, or None.
    """
    units: List[Tuple[str, str, str, str, str, str]] = _UNITS.findall(text)
    names = [unit[2] for unit in units if unit[2]]
    variables: Dict[str, int] = {name: k for k, name in enumerate(names)}
    if len(variables) != len(names) or not units:
        return None  # a variable defined twice (the full reader says so), or no graph
    concepts: List[str] = []
    branches: List[List[Written]] = []
    #: the open nodes above the current one, each with its branches
    stack: List[Tuple[int, List[Written]]] = []
    owner = -1  # the current node (-1: before the root, and after it closes)
    written: List[Written] = []  # its branches
    number = edges = 0
    for role, value, variable, concept, closes, _other in units:
        if variable:  # a node opens
            concepts.append(concept)
            here: List[Written] = []
            branches.append(here)
            if role:
                if owner < 0:
                    return None
                written.append((role, number))
                edges += 1
                stack.append((owner, written))
                if len(stack) >= MAX_DEPTH:
                    return None
            elif number:
                return None  # a node where a branch or the end was due
            owner, written = number, here
            number += 1
        elif value:  # a branch whose target is written as text
            if not role or owner < 0:
                return None
            # an edge to the node of a variable, else a constant (``:wiki`` left out with ``no_wiki``), as
            # :func:`.amr.attach` makes it
            if value[0] != '"' and value in variables:
                written.append((role, ~variables[value]))
                edges += 1
            elif not no_wiki or role_label(role) != "wiki":
                written.append((role, value))
        else:
            return None  # a character no unit starts with
        if closes:
            for _ in range(1 if closes == ")" else closes.count(")")):
                if stack:
                    owner, written = stack.pop()
                elif owner < 0:
                    return None  # a ")" after the graph
                else:
                    owner = -1  # the root closes
    if owner >= 0 or not number:
        return None  # left open
    return Plain(names, concepts, branches, edges)


def built(plain: Plain, gid: str, options: ReadOptions) -> Graph:
    """The graph of a text's :class:`Plain` form, as :func:`.amr._convert` builds it from the text's tree.

    Args:
        plain: the form.
        gid: the graph's id.
        options: the read options (``framework`` is read).

    Returns:
        The graph.
    """
    roles, constants = _ROLES, _CONSTANTS
    nodes: List[Node] = []
    edges: List[Edge] = []
    layout: Dict[int, List[Branch]] = {}
    number = 0
    for concept, branches in zip(plain.concepts, plain.branches):
        label = constants.get(concept) if concept else None
        if label is None and concept:
            label = _value(concept)
        node = Node(number, label, [], [])
        nodes.append(node)
        here: List[Branch] = []
        layout[number] = here
        for role, target in branches:
            known = roles.get(role)
            label, normal = known if known is not None else _role(role)
            if type(target) is int:  # an edge: to the node that opens here, or to one named again
                if target >= 0:
                    edges.append(Edge(number, target, label, normal, [], []))
                    here.append((label, target, True))
                else:
                    target = ~target
                    edges.append(Edge(number, target, label, normal, [], []))
                    here.append((label, target, False))
            else:
                found = constants.get(target)  # type: ignore[arg-type]
                if found is None:
                    found = _value(target)  # type: ignore[arg-type]
                node.properties.append(label)
                node.values.append(found)
                here.append((label, found, False))
        number += 1
    return Graph(id=gid, framework=options.framework or "amr", flavor=2, tops=[0], nodes=nodes, edges=edges,
                 layout=layout, variables=dict(enumerate(plain.variables)))


def fast_graph(text: str, gid: str, options: ReadOptions, whole: bool = False) -> Optional[Graph]:
    """The graph :func:`.amr._convert` builds from the tree of ``text``, or None for a text that
    :func:`.parse.parse` declines, that :func:`.amr._convert` refuses, or that holds anything but white space
    after its graph (:func:`plain_form`, then :func:`built`).

    Args:
        text: the graph text of a frame, closed (every separator a ``\\n``: a text with others is declined).
        gid: the graph's id.
        options: the read options (``no_wiki`` and ``framework`` are read).
        whole: kept for callers that ask for a text that ends with its graph: every text must.

    Returns:
        The graph, or None.
    """
    plain = plain_form(text, options.no_wiki)
    return None if plain is None else built(plain, gid, options)

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

The pass gives the text's :class:`Plain` form: the graph but for its objects.  The nodes are numbered as
they open (the depth-first order of their definitions that :func:`.writer.preorder` gives), and every
variable is known before the branches are read (each opening's), so that each branch is read at once into
the graph's layout entry (its label, the number of the node it reaches or the constant's value, whether the
node opens there), each concept into its node's label, as the full reader makes them.  The graph is then
built from the form (:func:`built`: its Node and Edge objects, each node's edges in the order written), or
a metric reads the form without a graph (SMATCH codes its triples from it:
:mod:`mrp.metrics.smatch.coded`; :mod:`.light`'s graphs build themselves only when read).
``tests/test_penman_fast.py`` proves the graphs equal to the full reader's on the shared data, on perturbed
texts and on random ones, and the texts declined the same as a token-by-token reading declines them.
"""

from __future__ import annotations

import re
from typing import Dict, List, NamedTuple, Optional, Tuple

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.amr import _CONSTANTS, _ROLES, _role, _value, normal_role
from mrp.codecs.penman.parse import MAX_DEPTH
from mrp.graph import Branch, Edge, Graph, Node
from mrp.memo import Memo

__all__ = ["Plain", "built", "fast_graph", "plain_form", "scanned_plain"]

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


def _units(alignment: str) -> re.Pattern[str]:
    """The units: (role, value, variable, concept, closing parentheses, any other character); a unit is a
    branch when it has a role, a node's opening when it has a variable (``alignment``: what may follow a
    role, a constant or a concept, left out)."""
    return re.compile(
        f"(?:({_ROLE}){alignment}{_W})?"
        f"(?:({_SYMBOL}|{_STRING}){alignment}"
        rf"|\({_W}({_SYMBOL})(?:{_W}/{_W}({_SYMBOL}|{_STRING}){alignment})?)"
        rf"(?:{_W}(\)(?:{_W}\))*))?"
        "|([^ \t\n])")


_UNITS = _units(_ALIGNMENT)
#: the same units of a text without ``~`` (which holds no alignment), matched sooner
_UNALIGNED = _units("")


class Plain(NamedTuple):
    """A plain Penman text read, no object made for its nodes and edges yet: what the graph (:func:`built`)
    and a metric's triples are both read from."""

    #: node k's variable
    variables: List[str]
    #: node k's concept (its label: a Symbol or Quoted string, None for none)
    labels: List[Optional[str]]
    #: node k's branches in the order written (the graph's ``layout``: each (label, the number of the node
    #: it reaches or a constant's value, whether the node opens there))
    layout: Dict[int, List[Branch]]
    #: how many branches reach a node (the graph's edges)
    edges: int


#: an edge's label -> (its ``normal``,)
_NORMALS: Memo[str, Tuple[Optional[str]]] = Memo(1 << 16)


def plain_form(text: str, no_wiki: bool = False) -> Optional[Plain]:
    """The :class:`Plain` form of a plain Penman text, or None for a text that :func:`.parse.parse`
    declines, that :func:`.amr._convert` refuses, or that holds anything but white space after its graph.

    Args:
        text: the graph text of a frame, closed (every separator a ``\\n``: a text with others is declined).
        no_wiki: leave ``:wiki`` constants out (``ReadOptions.no_wiki``).

    Returns:
        The form, or None.
    """
    units: List[Tuple[str, str, str, str, str, str]] = (_UNITS if "~" in text else _UNALIGNED).findall(text)
    names = [unit[2] for unit in units if unit[2]]
    variables: Dict[str, int] = {name: k for k, name in enumerate(names)}
    if len(variables) != len(names) or not units:
        return None  # a variable defined twice (the full reader says so), or no graph
    roles, constants = _ROLES, _CONSTANTS
    labels: List[Optional[str]] = []
    layout: Dict[int, List[Branch]] = {}
    #: the open nodes above the current one, each with its branches
    stack: List[Tuple[int, List[Branch]]] = []
    owner = -1  # the current node (-1: before the root, and after it closes)
    written: List[Branch] = []  # its branches
    number = edges = 0
    for role, value, variable, concept, closes, _other in units:
        if variable:  # a node opens
            if concept:
                label = constants.get(concept)
                labels.append(label if label is not None else _value(concept))
            else:
                labels.append(None)
            here: List[Branch] = []
            layout[number] = here
            if role:
                if owner < 0:
                    return None
                known = roles.get(role)
                written.append(((known if known is not None else _role(role))[0], number, True))
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
            known = roles.get(role)
            name = (known if known is not None else _role(role))[0]
            # an edge to the node of a variable, else a constant (``:wiki`` left out with ``no_wiki``), as
            # :func:`.amr.attach` makes it
            if value[0] != '"' and value in variables:
                written.append((name, variables[value], False))
                edges += 1
            elif not no_wiki or name != "wiki":
                found = constants.get(value)
                written.append((name, found if found is not None else _value(value), False))
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
    return Plain(names, labels, layout, edges)


def scanned_plain(text: str, codes: List[int], no_wiki: bool = False) -> Plain:
    """The :class:`Plain` form of a text from its compiled scan (:func:`.scanner.scan_kernel`'s integers),
    what :func:`plain_form` gives for that text without reading it again: each node's variable is the symbol
    between its ``(`` and the ``/`` before its concept (the scan reads only nodes with a concept).

    Args:
        text: the text scanned.
        codes: its integers.
        no_wiki: leave ``:wiki`` constants out.

    Returns:
        The form.
    """
    constants, roles = _CONSTANTS, _ROLES
    find = text.rfind
    variables: List[str] = []
    labels: List[Optional[str]] = []
    layout: Dict[int, List[Branch]] = {}
    number = codes[0]
    at = 3 + 3 * number
    for k in range(number):
        start = codes[3 + 3 * k]
        slash = find("/", 0, start)
        variables.append(text[find("(", 0, slash) + 1:slash].strip())
        token = text[start:codes[4 + 3 * k]]
        label = constants.get(token)
        labels.append(label if label is not None else _value(token))
        here: List[Branch] = []
        layout[k] = here
        end = at + 5 * codes[5 + 3 * k]
        while at < end:
            role = text[codes[at + 1]:codes[at + 2]]
            known = roles.get(role)
            name = (known if known is not None else _role(role))[0]
            target = codes[at]
            if target >= 0:  # an edge: the node opens there when no symbol names it
                here.append((name, target, codes[at + 3] < 0))
            elif not no_wiki or name != "wiki":
                token = text[codes[at + 3]:codes[at + 4]]
                found = constants.get(token)
                here.append((name, found if found is not None else _value(token), False))
            at += 5
    return Plain(variables, labels, layout, codes[2])


def built(plain: Plain, gid: str, options: ReadOptions) -> Graph:
    """The graph of a text's :class:`Plain` form, as :func:`.amr._convert` builds it from the text's tree
    (its layout the form's own).

    Args:
        plain: the form.
        gid: the graph's id.
        options: the read options (``framework`` is read).

    Returns:
        The graph.
    """
    normals = _NORMALS
    nodes: List[Node] = []
    edges: List[Edge] = []
    layout = plain.layout
    for number, label in enumerate(plain.labels):
        node = Node(number, label, [], [])
        nodes.append(node)
        for name, target, _ in layout[number]:
            if type(target) is int:  # an edge, to the node that opens there or to one named again
                normal = normals.get(name)
                if normal is None:
                    normal = normals.keep(name, (normal_role(name),))
                edges.append(Edge(number, target, name, normal[0], [], []))
            else:
                node.properties.append(name)
                node.values.append(target)
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

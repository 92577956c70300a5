"""Checks on the graph model: identity, structure, anchors and input, and the framework's rules.

Each check appends (where, message) pairs; :func:`model_problems` runs all of
them, :func:`content_problems` those that the MRP reader's collecting mode
does not already report (structure is checked there while decoding).
"""

from __future__ import annotations

from typing import List, Optional

from mrp.graph import Graph, default_flavor, length_problems, reference_problems
from mrp.validation.common import Found, anchor_problem, anchored
from mrp.validation.frameworks import RULES
from mrp.validation.problems import Problem


def _identity(graph: Graph, framework: Optional[str], found: List[Found]) -> None:
    """The framework asked for, and a flavor that fits the framework."""
    if framework is not None and graph.framework is not None and graph.framework != framework:
        found.append(("", f"framework is '{graph.framework}', not '{framework}'"))
    expected = default_flavor(graph.framework)
    if graph.flavor in (0, 1, 2) and expected is not None and graph.flavor != expected:
        found.append(("", f"flavor {graph.flavor} does not fit framework '{graph.framework}' "
                          f"(flavor {expected})"))


def _structure(graph: Graph, found: List[Found]) -> None:
    """Duplicate node ids, references to no node, a top listed twice, names and values of unequal length."""
    found.extend((where, message) for where, message, _ in reference_problems(graph))
    found.extend((where, message) for where, message, _ in length_problems(graph))


#: frameworks whose data anchor generated nodes with an empty span at a position (PTG in MRP 2020)
EMPTY_ANCHORS = frozenset({"ptg"})


def _anchors(graph: Graph, name: str, found: List[Found]) -> None:
    """Every anchor of every node and edge; the input of an anchored framework (flavor 0 or 1)."""
    unchecked = False
    for where, spans in anchored(graph):
        for span in spans:
            if span[0] == span[1] and name in EMPTY_ANCHORS:
                continue
            message = anchor_problem(span, graph.input)
            if message:
                found.append((where, message))
        unchecked = unchecked or graph.input is None
    flavor = default_flavor(name)
    if not graph.input and flavor in (0, 1):
        what = "has no 'input'" if graph.input is None else "has an empty 'input'"
        found.append(("", f"{what} ({name.upper()} graphs are anchored to their input)"))
    elif unchecked and flavor != 2:  # the rules of an unanchored framework report its anchors
        found.append(("", "has anchors but no 'input'; anchors not checked against the input"))


def content_problems(graph: Graph, framework: Optional[str]) -> List[Found]:
    """Identity, anchors and the framework's rules (``framework``, else the graph's own)."""
    found: List[Found] = []
    _identity(graph, framework, found)
    name = framework or graph.framework or ""
    _anchors(graph, name, found)
    rules = RULES.get(name)
    if rules is not None:
        rules(graph, name, found)
    return found


def model_problems(graph: Graph, framework: Optional[str]) -> List[Found]:
    """Every problem of a graph of the model, structure included."""
    found: List[Found] = []
    _structure(graph, found)
    return found + content_problems(graph, framework)


def validate_graph(graph: Graph, framework: Optional[str] = None, *,
                   file: Optional[str] = None) -> List[Problem]:
    """Every problem of a graph of the model: structure, anchors and input, and the framework's rules.

    ``framework`` chooses the framework rules (default: the graph's own
    ``framework``); a graph that names another framework is a problem.
    Problems carry ``file``, the graph's ``line`` and its id.
    """
    return [Problem(file, graph.line, graph.id, where, message)
            for where, message in model_problems(graph, framework)]

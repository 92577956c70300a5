"""``penman.configure``'s layout of a ``penman.Graph`` and the conversion of its tree in one pass over the
triples (the rules: :mod:`.layout`).

Each triple is placed as ``penman.configure`` places it (the same rules, the
same cases left to penman) and becomes at once what the AMR reader's conversion
makes of its branch: a concept, an edge, a property.  Properties and the layout
are kept node by node, edges sorted by their source at the end, so that the
graph lists them in the order of the tree.  One thing is known only at the end:
whether an unquoted constant names a node defined later in the tree (an edge
then, not a property); the nodes with one are then made again from their
layout (for a wiki left out with ``no_wiki``, penman lays the graph out).
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter
from typing import Any, Dict, List, Optional, Tuple

from penman.layout import POP, Pop, Push
from penman.surface import Alignment, RoleAlignment

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.amr import normal_role
from mrp.codecs.penman.layout import (
    _ATOMS,
    _CONCEPT,
    _NAMES,
    _ROLES,
    _aligned,
    _atom_of,
    _inverted,
    _named,
    _role_of,
)
from mrp.codecs.penman.tokens import DEPTH
from mrp.codecs.penman.writer import Symbol
from mrp.graph import Branch, Edge, Graph, Node

__all__ = ["fast_graph"]

#: the variable of no context (the top's context closed)
_NOWHERE = object()
#: a wiki left out named a node defined later: convert in two passes
_AGAIN = object()
_SOURCE = attrgetter("source")


def _epidata(epis: List[Any], source: Any, role: Any, target: Any, defined: Dict[Any, int]) -> Any:
    """A triple as its epidata have it placed (its source, role, target, whether it opens a node context,
    its alignments and how many contexts it closes), None for epidata penman would warn about (or
    where a node would be defined twice)."""
    push = False
    aligned: Optional[List[Any]] = None
    pops = 0
    for epi in epis:
        kind = type(epi)
        if kind is Pop:
            pops += 1
        elif kind is Push:
            pushing = epi.variable
            if push or role == _CONCEPT or pushing in defined:
                return None  # a second context (or one for a concept): penman warns
            if pushing == source and pushing != target:
                source, role, target = target, _inverted(role), source
            elif pushing != target:
                return None  # a context for a variable not in its triple: penman warns
            push = True
        elif kind is Alignment or kind is RoleAlignment:
            if aligned is None:
                aligned = [epi]
            else:
                aligned.append(epi)
        else:
            return None
    return source, role, target, push, aligned, pops


def _ahead(defined: Dict[Any, int], props_of: List[List[str]], vals_of: List[List[Any]],
           written_of: List[List[Branch]], edges: List[Edge]) -> List[Edge]:
    """The edges, with the unquoted constants that name a node defined after them made edges too (as the
    conversion makes them), taken from the properties and values of their nodes."""
    late = {k for k, vals in enumerate(vals_of) if vals and not defined.keys().isdisjoint(vals)}
    kept = [edge for edge in edges if edge.source not in late]
    for k in sorted(late):
        old = iter([edge for edge in edges if edge.source == k])
        props: List[str] = []
        vals: List[Any] = []
        written: List[Branch] = []
        for name, target, nested in written_of[k]:
            if type(target) is int:
                kept.append(next(old))
            elif type(target) is Symbol and target in defined:
                target = defined[target]
                kept.append(Edge(k, target, name, normal_role(name), [], []))
            else:
                props.append(name)
                vals.append(target)
            written.append((name, target, nested))
        props_of[k], vals_of[k], written_of[k] = props, vals, written
    return kept


def _one_pass(graph: Any, no_wiki: bool) -> Any:
    """(variables -> node ids in order; labels, properties, values, layout: each node by node; edges;
    lines), None where penman would lay the graph out otherwise or its text might read otherwise, or
    _AGAIN."""
    triples = graph.triples
    if not triples:
        return None
    top = graph.top
    if top not in _NAMES and not _named(top):
        return None
    roles, atoms, names = _ROLES, _ATOMS, _NAMES
    epidata = graph.epidata
    labels: List[Any] = [None]
    props: List[str] = []
    vals: List[Any] = []
    written: List[Branch] = []
    props_of, vals_of, written_of = [props], [vals], [written]
    edges: List[Edge] = []
    # the variables defined, in order (a node opened for each; penman warns of a second context for one)
    defined: Dict[Any, int] = {top: 0}
    # the node contexts open: each node's id, variable, properties, values, layout
    stack: List[Tuple[int, Any, List[str], List[Any], List[Branch]]] = [(0, top, props, vals, written)]
    at, here = 0, top
    blank = 0  # concepts penman does not write
    skipped: Optional[List[Tuple[int, str]]] = None  # wikis left out: (node, constant)
    for triple in triples:
        source, role, target = triple
        push = False
        aligned: Optional[List[Any]] = None
        pops = 0
        epis = epidata.get(triple)
        if epis:
            first = epis[0]
            if first is POP:  # the usual data of a node's last branch
                pops = len(epis)
                if pops > 1 and epis.count(POP) != pops:
                    found = _epidata(epis, source, role, target, defined)
                    if found is None:
                        return None
                    source, role, target, push, aligned, pops = found
            elif type(first) is Push and len(epis) == 1:  # the usual datum of a nested node
                pushing = first.variable
                if role == _CONCEPT or pushing in defined:
                    return None
                if pushing != target:
                    if pushing != source:
                        return None
                    source, role, target = target, _inverted(role), source
                push = True
            else:
                found = _epidata(epis, source, role, target, defined)
                if found is None:
                    return None
                source, role, target, push, aligned, pops = found
        if source != here:
            while True:
                if not stack:
                    return None  # triples left over at the top: penman improvises
                if target == here and role != _CONCEPT:
                    if push:
                        return None  # the context pushed is dropped (penman would not warn of another)
                    source, role, target = here, _inverted(role), source
                    break
                stack.pop()
                if not stack:
                    return None
                at, here, props, vals, written = stack[-1]
                if source == here:
                    break
        if role == _CONCEPT:
            if push:
                return None  # an inverted :instance-of pushed
            if target:  # penman writes (a) for a node without a concept
                if labels[at] is not None:
                    return None
                if aligned is not None:
                    both = _aligned("/", target, aligned, False)
                    if both is None or both[0] != "/":
                        return None
                    target = both[1]
                atom = atoms.get(target)
                if atom is None:
                    atom = _atom_of(target)
                    if atom is None:
                        return None
                labels[at] = atom[1]
            else:
                blank += 1
        else:
            if aligned is not None:
                both = _aligned(role, target, aligned, push)
                if both is None:
                    return None
                role, target = both
            named = roles.get(role)
            if named is None:
                named = _role_of(role)
                if named is None:
                    return None
            name, normal = named
            if push:
                if target not in names and not _named(target):
                    return None
                node = len(labels)
                defined[target] = node
                labels.append(None)
                edges.append(Edge(at, node, name, normal, [], []))
                written.append((name, node, True))
                props, vals, written = [], [], []
                props_of.append(props)
                vals_of.append(vals)
                written_of.append(written)
                stack.append((node, target, props, vals, written))
                at, here = node, target
                if len(stack) > DEPTH + 1:
                    return None
            else:
                atom = atoms.get(target)
                if atom is None:
                    atom = _atom_of(target)
                    if atom is None:
                        return None
                text, value = atom
                if text in defined:
                    other = defined[text]
                    edges.append(Edge(at, other, name, normal, [], []))
                    written.append((name, other, False))
                elif no_wiki and name == "wiki":
                    if skipped is None:
                        skipped = []
                    skipped.append((at, text))
                else:
                    props.append(name)
                    vals.append(value)
                    written.append((name, value, False))
        if pops:
            if pops < len(stack):
                del stack[-pops:]
                at, here, props, vals, written = stack[-1]
            else:
                stack.clear()
                here = _NOWHERE
    if skipped is not None and not defined.keys().isdisjoint(text for _, text in skipped):
        return _AGAIN  # a wiki left out that names a node defined after it: two passes
    if not defined.keys().isdisjoint(chain.from_iterable(vals_of)):
        edges = _ahead(defined, props_of, vals_of, written_of, edges)
    # the lines of the tree: one, and one per branch after the first of a node
    lines = 1 + len(triples) - blank - len(labels)
    if None in labels:
        wikis = {k for k, _ in skipped} if skipped is not None else ()
        lines += sum(1 for k, label in enumerate(labels)
                     if label is None and not written_of[k] and k not in wikis)
    if len(edges) > 1:
        edges.sort(key=_SOURCE)
    return defined, labels, props_of, vals_of, written_of, edges, lines


def fast_graph(graph: Any, options: ReadOptions) -> Optional[Tuple[Graph, int]]:
    """The mrp Graph (its id left empty, no input or line yet) that the AMR reader's conversion gives the
    tree ``penman.configure`` lays a ``penman.Graph`` out as, and the lines of that tree's text; None where
    this does not follow penman (the caller then lays the graph out with penman)."""
    found = _one_pass(graph, options.no_wiki)
    if found is None:
        return None
    if found is _AGAIN:
        return None  # penman's layout decides
    defined, labels, props_of, vals_of, written_of, edges, lines = found
    nodes = list(map(Node, range(len(labels)), labels, props_of, vals_of))
    mrp_graph = Graph(id="", framework=options.framework or "amr", flavor=2, tops=[0], nodes=nodes,
                      edges=edges, layout=dict(enumerate(written_of)), variables=dict(enumerate(defined)))
    return mrp_graph, lines

"""The two-pass statement of penman's layout rules (what ``penman.configure`` makes of a
``penman.Graph``), straight into an mrp Graph: the oracle mrp.codecs.penman.direct's one pass is tested
against, beside penman's own layout and the AMR reader's conversion of its tree.

:func:`direct_graph` lays the triples out (the nodes and their branches), and gives what the AMR reader's
conversion of the tree would give (``mrp.codecs.penman.amr._convert``: nodes in the order of their
definitions, edges and properties node by node in the order written, ``normal`` of inverted roles, the layout,
the variables) and the lines penman's format gives the tree.  Where penman would improvise or warn, where a
node would be defined twice, has two concepts, or a text would not read back as one Penman token, it gives
None.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

from penman.layout import Pop, Push
from penman.surface import Alignment, RoleAlignment

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.layout import (
    _ATOMS,
    _CONCEPT,
    _NAMES,
    _NOWHERE,
    _ROLES,
    _aligned,
    _atom_of,
    _inverted,
    _named,
    _role_of,
)
from mrp.codecs.penman.tokens import DEPTH
from mrp.graph import Branch, Edge, Graph, Node

#: a branch as laid out: its role, target (a node index or an atom), alignments (or None), nested or not
_Laid = Tuple[Any, Any, Optional[List[Any]], bool]


def _layout(graph: Any) -> Optional[Tuple[List[Any], List[Any], List[List[_Laid]]]]:
    """The variables of the tree's nodes in order of definition, their concepts (with alignments) and
    branches, as ``penman.configure`` lays them out; None where it would improvise or warn."""
    triples = graph.triples
    if not triples:
        return None
    top = graph.top
    variables: List[Any] = [top]
    concepts: List[Any] = [None]
    branches: List[List[_Laid]] = [[]]
    defined: Dict[Any, int] = {top: 0}
    pushed: Set[Any] = set()
    stack = [0]
    at, here, laid = 0, top, branches[0]
    epidata = graph.epidata
    for triple in triples:
        source, role, target = triple
        push = False
        aligned: Optional[List[Any]] = None
        pops = 0
        epis = epidata.get(triple)
        if epis:
            for epi in epis:
                kind = type(epi)
                if kind is Pop:
                    pops += 1
                elif kind is Push:
                    pushing = epi.variable
                    if (push or role == _CONCEPT or pushing in pushed
                            or (pushing != source and pushing != target)):
                        return None  # penman warns and ignores the context (a second one: not followed here)
                    if pushing == source:
                        source, role, target = target, _inverted(role), source
                    pushed.add(pushing)
                    push = True
                elif kind is Alignment or kind is RoleAlignment:
                    if aligned is None:
                        aligned = [epi]
                    else:
                        aligned.append(epi)
                else:
                    return None
        if source != here:
            while True:
                if not stack:
                    return None  # triples left over at the top: penman improvises
                if target == here and role != _CONCEPT:
                    source, role, target = here, _inverted(role), source
                    push = False
                    break
                stack.pop()
                if not stack:
                    return None  # triples left over at the top: penman improvises
                at = stack[-1]
                here, laid = variables[at], branches[at]
                if source == here:
                    break
        if role == _CONCEPT:
            if target:  # penman writes (a) for a node without a concept
                if concepts[at] is not None:
                    return None
                concepts[at] = (target, aligned)
        elif push:
            if target in defined:
                return None  # defined twice: the conversion refuses it
            node = len(variables)
            defined[target] = node
            variables.append(target)
            concepts.append(None)
            laid.append((role, node, aligned, True))
            laid = []
            branches.append(laid)
            stack.append(node)
            at, here = node, target
            if len(stack) > DEPTH + 1:
                return None
        else:
            laid.append((role, target, aligned, False))
        if pops:
            while pops and stack:
                stack.pop()
                pops -= 1
            if stack:
                at = stack[-1]
                here, laid = variables[at], branches[at]
            else:
                here = _NOWHERE
    return variables, concepts, branches


def direct_graph(graph: Any, options: ReadOptions) -> Optional[Tuple[Graph, int]]:
    """The mrp Graph (its id left empty, no input or line yet) that the AMR reader's conversion gives the
    tree ``penman.configure`` lays a ``penman.Graph`` out as, and the lines of that tree's text; None where
    this does not follow penman (see the module's docstring)."""
    laid = _layout(graph)
    if laid is None:
        return None
    variables, concepts, branches = laid
    roles, atoms, names = _ROLES, _ATOMS, _NAMES
    defined = {var: k for k, var in enumerate(variables)}
    no_wiki = options.no_wiki
    nodes: List[Node] = []
    edges: List[Edge] = []
    layout: Dict[int, List[Branch]] = {}
    lines = 1
    for k, var in enumerate(variables):
        if var not in names and not _named(var):
            return None
        laid_out = branches[k]
        concept = concepts[k]
        label = None
        if concept is not None:
            lines += len(laid_out)
            text, aligned = concept
            if aligned is not None:
                both = _aligned("/", text, aligned, False)
                if both is None or both[0] != "/":
                    return None
                text = both[1]
            atom = atoms.get(text) or _atom_of(text)
            if atom is None:
                return None
            label = atom[1]
        elif laid_out:
            lines += len(laid_out) - 1
        properties: List[str] = []
        values: List[Any] = []
        written: List[Branch] = []
        for role, target, aligned, nested in laid_out:
            if aligned is not None:
                both = _aligned(role, target, aligned, nested)
                if both is None:
                    return None
                role, target = both
            named = roles.get(role) or _role_of(role)
            if named is None:
                return None
            name, normal = named
            if nested:
                edges.append(Edge(k, target, name, normal))
                written.append((name, target, True))
                continue
            atom = atoms.get(target) or _atom_of(target)
            if atom is None:
                return None
            text, value = atom
            if text in defined:  # never a quoted string
                other = defined[text]
                edges.append(Edge(k, other, name, normal))
                written.append((name, other, False))
            elif not no_wiki or name != "wiki":
                properties.append(name)
                values.append(value)
                written.append((name, value, False))
        nodes.append(Node(k, label, properties, values))
        layout[k] = written
    mrp_graph = Graph(id="", framework=options.framework or "amr", flavor=2, tops=[0], nodes=nodes,
                      edges=edges, layout=layout, variables=dict(enumerate(variables)))
    return mrp_graph, lines

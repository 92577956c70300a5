"""A ``penman.Graph`` laid out as ``penman.configure`` lays it out, straight into an mrp Graph.

``penman.configure`` makes a tree of a graph by reading its triples in order, their
epidata deciding the nesting: a ``Push`` on a triple opens the context of a node
(the triple's target; its source, the triple then written inverted), a ``Pop``
closes one, alignments go on the role or the target as written.  A triple whose
source is the node of the current context is one of its branches; one whose
target is that node is written inverted; another closes the context, and the
enclosing one is tried.  When that leaves triples over at the top, penman
improvises, and warns where epidata cannot apply (a second context for a node,
a context for a variable not in its triple).

:func:`direct_graph` follows those rules (a pass over the triples: the nodes and
their branches), and gives what the AMR reader's conversion of the tree would
give (``mrp.codecs.amr._convert``: nodes in the order of their definitions,
edges and properties node by node in the order written, ``normal`` of inverted
roles, the layout, the variables) and the lines penman's
format gives the tree.  Where penman would improvise or warn, where a node would
be defined twice, has two concepts, or a text would not read back as one Penman
token (see :mod:`.penman_tokens`), it gives None and the caller lays the graph
out with penman.  :mod:`.penman_direct` does the same in one pass (and comes
here for what it cannot finish); this module is also the plainer statement of
the rules, tested against penman alongside it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

from penman.layout import Pop, Push
from penman.surface import Alignment, RoleAlignment

from mrp.codecs.amr import _role, _strip_alignment, _value
from mrp.codecs.base import ReadOptions
from mrp.codecs.penman_tokens import ATOM, DEPTH, ROLE, VARIABLE
from mrp.graph import Branch, Edge, Graph, Node

__all__ = ["direct_graph"]

_CONCEPT = ":instance"
#: the variable of no context (the top's context closed)
_NOWHERE = object()

#: a branch as laid out: its role, target (a node index or an atom), alignments (or None), nested or not
_Laid = Tuple[Any, Any, Optional[List[Any]], bool]


def _inverted(role: Any) -> Any:
    """penman's default model's inversion of a role (``:ARG0`` <-> ``:ARG0-of``)."""
    if role.endswith("-of"):
        return role[:-3]
    return role + "-of"


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


def _aligned(role: Any, target: Any, aligned: List[Any], nested: bool) -> Optional[Tuple[Any, Any]]:
    """A role and target with their alignments written on (None where penman would ignore one)."""
    if type(role) is not str or not (nested or type(target) is str):
        return None
    for epi in aligned:
        if epi.mode == 1:
            role = f"{role}{epi}"
        elif epi.mode == 2 and not nested:
            target = f"{target}{epi}"
        else:
            return None
    return role, target


#: what the conversion makes of roles, atoms (constants, concepts, variables as targets) and variables that
#: are one Penman token: role -> its label and normal; atom -> its text without the alignment (a variable
#: it names, unless quoted) and its value
_ROLES: Dict[str, Tuple[str, Optional[str]]] = {}
_ATOMS: Dict[str, Tuple[str, str]] = {}
_NAMES: Set[str] = set()
_CACHED = 1 << 16


def _role_of(role: Any) -> Optional[Tuple[str, Optional[str]]]:
    if type(role) is not str or role == "/" or ROLE.fullmatch(role) is None:
        return None
    if len(_ROLES) >= _CACHED:
        _ROLES.clear()
    found = _ROLES[role] = _role(role)
    return found


def _atom_of(atom: Any) -> Optional[Tuple[str, str]]:
    if type(atom) is not str or ATOM.fullmatch(atom) is None:
        return None
    text = _strip_alignment(atom) if "~" in atom else atom
    if len(_ATOMS) >= _CACHED:
        _ATOMS.clear()
    found = _ATOMS[atom] = (text, _value(text))
    return found


def _named(var: Any) -> bool:
    if type(var) is not str or VARIABLE.fullmatch(var) is None:
        return False
    if len(_NAMES) >= _CACHED:
        _NAMES.clear()
    _NAMES.add(var)
    return True


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

"""A graph as AnCast sees it: concepts with senses, attributes, and relation triples.

AnCast compares nodes by concept *name* and *sense*, by the ``op`` constants
joined onto the name, and by the other constant attributes; it compares
relations as triples ``(predicate, label, argument)`` in predicate->argument
direction (an inverted role ``X-of`` is stored as ``X`` with its ends swapped,
and ``mod`` as ``mod-of`` with its ends swapped).  A relation end is a node
position or, for a constant, its text.

:func:`view` builds this from a :class:`~mrp.graph.Graph` read by a codec.
With ``compat`` it applies the reading quirks of AnCast 0.1.1 (listed in
docs/guide/metrics.md); without, it reads the graph as written: every constant is kept, the
sense is a final ``-NN``, and the project's inverse-role rule applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import numpy as np

from mrp.codecs.penman import Quoted, Symbol, normal_role
from mrp.graph import Graph
from mrp.metrics.ancast import reach

#: A relation end: a node position (int) or a constant's text (str).
End = object
#: A relation: (predicate end, label, argument end).
Relation = Tuple[object, str, object]

_SENSE_ANYWHERE = re.compile(r"-[0-9]{2}")
_SENSE_FINAL = re.compile(r"-([0-9]+)$")
_VARIABLE = re.compile(r"[a-z0-9_\-]+")
_NUMERIC = re.compile(r"^[0-9.:+-]+$")
_UMR_VARIABLE = re.compile(r"s[0-9]+[a-z]+[0-9]*")
_KEPT_SYMBOLS = frozenset({"imperative", "expressive"})


@dataclass
class View:
    """One graph for AnCast: per node (in definition order) its variable, name, sense, ops and attributes."""

    variables: List[str]
    names: List[str]
    senses: List[int]
    #: the ``op`` constants joined, in order (AnCast appends them to the name)
    ops: List[str]
    #: other constant attributes: lowercased role -> value
    attributes: List[Dict[str, str]]
    #: the role names at each node as written (outgoing as written, incoming inverted): AnCast's
    #: tie-break (compat only; empty otherwise)
    roles: List[FrozenSet[str]]
    #: relation triples (a set: duplicates collapse)
    relations: Set[Relation] = field(default_factory=set)
    #: the sentence text searched for text anchors
    text: str = ""
    #: why AnCast 0.1.1 would skip this graph (or crash on it), else None
    skip: Optional[str] = None
    #: whether the mock Smatch counts the TOP triple (AnCast's --use-smatch-top, on by default)
    top: bool = True
    #: with AnCast's --use-alignment (compat only): per node the first token span of its alignment, (0, 0)
    #: for none; None when anchors come from the text
    spans: Optional[List[Tuple[int, int]]] = None
    _cache: Dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.names)

    def out_matrix(self) -> np.ndarray:
        """float64[n, n]: 1 where node i is the predicate of a relation whose argument is node k."""
        n = len(self.names)
        matrix = np.zeros((n, n))
        for head, _, tail in self.relations:
            if isinstance(head, int) and isinstance(tail, int):
                matrix[head, tail] = 1.0
        return matrix

    def groups(self) -> Dict[Tuple[object, object], FrozenSet[str]]:
        """The relations grouped by (predicate, argument) into label sets."""
        found = self._cache.get("groups")
        if found is None:
            grouped: Dict[Tuple[object, object], Set[str]] = {}
            for head, label, tail in self.relations:
                grouped.setdefault((head, tail), set()).add(label)
            found = self._cache["groups"] = {key: frozenset(value) for key, value in grouped.items()}
        return found  # type: ignore[return-value]

    def triples(self) -> Set[Relation]:
        """The relation triples plus, in a graph with nodes, the TOP triple of the first (mock Smatch;
        unless ``top`` is off)."""
        found = self._cache.get("triples")
        if found is None:
            top = {("TOP", "TOP", 0)} if self.names and self.top else set()
            found = self._cache["triples"] = set(self.relations) | top
        return found  # type: ignore[return-value]

    def descendants(self) -> List[int]:
        """Per node, how many nodes it reaches along predicate->argument relations (itself on a cycle;
        :mod:`.reach`, within the pair's limits: :func:`mrp.engine.limits.check`)."""
        found = self._cache.get("descendants")
        if found is None:
            found = self._cache["descendants"] = self._descendants()
        return found  # type: ignore[return-value]

    def unweighted(self) -> None:
        """Count no node's descendants from now on (WLRM weighs every relation 1: a pair stopped at its
        limits, whose descendant counts may be what stopped it)."""
        self._cache["descendants"] = [0] * len(self.names)

    def _descendants(self) -> List[int]:
        children: List[List[int]] = [[] for _ in range(len(self.names))]
        for head, _, tail in self.relations:
            if type(head) is int and type(tail) is int:
                children[head].append(tail)  # type: ignore[index]
        return reach.counts(children)


def _reverse(role: str) -> str:
    return role[:-3] if role.endswith("-of") else role + "-of"


def _inverted(role: str) -> bool:
    """AnCast's test: ``mod`` and every ``X-of`` except ``mod-of`` count as inverted."""
    return role == "mod" or (role.endswith("-of") and role != "mod-of")


def _concept(label: Optional[str], compat: bool) -> Tuple[str, int]:
    text = "" if label is None else str(label)
    if compat:
        if isinstance(label, Quoted):
            text = f'"{text}"'
        match = _SENSE_ANYWHERE.search(text)
        if match:
            return text[:match.start()].lower(), int(text[match.start() + 1:match.end()])
        return text.lower(), 0
    match = _SENSE_FINAL.search(text)
    if match and match.start() > 0:
        return text[:match.start()].lower(), int(match.group(1))
    return text.lower(), 0


def _compat_problem(graph: Graph, variables: List[str]) -> Optional[str]:
    """Why AnCast's parser would reject the graph (the pair is then skipped), else None."""
    for node, var in zip(graph.nodes, variables):
        label = "" if node.label is None else str(node.label)
        if not _VARIABLE.fullmatch(var):
            return f"variable '{var}' is not lowercase [a-z0-9_-]"
        if "/" in label:
            return f"concept '{label}' contains '/'"
        if not label or re.search(r"[\s)]", label):
            return f"concept '{label}' is empty or contains space or ')'"
        if "#" in label or any("#" in str(value) for value in node.values):
            return "a '#' inside the graph cuts it"
    return None


def _written(graph: Graph) -> List[Tuple[int, str, object]]:
    """Every branch (node id, role, value: a node id or the constant) in the order the text wrote them."""
    layout = graph.layout or {}
    out: List[Tuple[int, str, object]] = []
    seen: Set[int] = set()

    def visit(node: int) -> None:
        seen.add(node)
        for role, value, nested in layout.get(node, ()):
            out.append((node, role, value))
            if nested and isinstance(value, int) and value not in seen:
                visit(value)

    for top in graph.tops[:1]:
        visit(top)
    return out


def _spaced_roles(graph: Graph) -> Tuple[Dict[Tuple[int, str, object], str], Optional[str]]:
    """AnCast 0.1.1 ends a role's name at the next space, wherever it is: a role followed by a line break
    (or a tab) takes the whitespace up to the first space into its name (``manner`` + line break), and
    where no space comes before the value, the value's text too, and its parser fails.  The labels it
    reads for such branches, and why it fails, if it does."""
    if not graph.breaks:
        return {}, None
    branches = _written(graph)
    labels: Dict[Tuple[int, str, object], str] = {}
    for number, whitespace in graph.breaks.items():
        if number >= len(branches):
            continue
        node, role, value = branches[number]
        if " " not in whitespace:
            return labels, f"role :{role} is followed by {whitespace!r} and no space (AnCast's parser fails)"
        labels[(node, role, value)] = role + whitespace[:whitespace.index(" ")]
    return labels, None


def view(graph: Graph, compat: bool, umr: bool = False, text: Optional[str] = None) -> View:
    """The AnCast view of a graph (with ``compat``, as AnCast 0.1.1 reads the same Penman text)."""
    n = len(graph.nodes)
    position = {node.id: k for k, node in enumerate(graph.nodes)}
    named = graph.variables or {}
    variables = [named.get(node.id) or f"x{k}" for k, node in enumerate(graph.nodes)]
    names: List[str] = []
    senses: List[int] = []
    ops: List[str] = []
    attributes: List[Dict[str, str]] = []
    roles: List[Set[str]] = [set() for _ in range(n)]
    relations: Set[Relation] = set()
    skip = _compat_problem(graph, variables) if compat else None
    spaced: Dict[Tuple[int, str, object], str] = {}
    if compat:
        spaced, failure = _spaced_roles(graph)
        skip = skip or failure
    for k, node in enumerate(graph.nodes):
        name, sense = _concept(node.label, compat)
        names.append(name)
        senses.append(sense)
        attrs: Dict[str, str] = {}
        for role, value in zip(node.properties, node.values):
            if compat and isinstance(value, Symbol):
                symbol = str(value)
                if umr:
                    if _UMR_VARIABLE.fullmatch(symbol):
                        continue  # taken for a variable declared later, never resolved
                elif symbol not in _KEPT_SYMBOLS and not _NUMERIC.match(symbol):
                    continue  # likewise
            constant = str(value).lower()
            label = spaced.get((node.id, role, value), role).lower()
            if compat:
                roles[k].add(role)
                if label.endswith("-of") and label != "mod-of":
                    skip = skip or f"inverted role :{role} on a constant (AnCast crashes)"
                    relations.add((constant, label[:-3], k))
                    continue
                if label == "mod":
                    relations.add((constant, "mod-of", k))
                    continue
            else:
                normal = normal_role(label)
                if normal is not None:
                    relations.add((constant, "mod-of" if label == "mod" else normal, k))
                    continue
            relations.add((k, label, constant))
            attrs[label] = constant
        names_ops = "".join(value for role, value in attrs.items() if role[:2] == "op")
        ops.append(names_ops)
        attributes.append({role: value for role, value in attrs.items() if role[:2] != "op"})
    for edge in graph.edges:
        a, b = position[edge.source], position[edge.target]
        raw = edge.label or ""
        if compat:
            raw = spaced.get((edge.source, raw, edge.target), raw)
        label = raw.lower()
        if compat:
            roles[a].add(raw)
            roles[b].add(_reverse(raw))
            if _inverted(label):
                relations.add((b, _reverse(label), a))
            else:
                relations.add((a, label, b))
        else:
            normal = normal_role(label)
            if label == "mod":
                relations.add((b, "mod-of", a))
            elif normal is not None:
                relations.add((b, normal, a))
            else:
                relations.add((a, label, b))
    return View(variables, names, senses, ops, attributes, [frozenset(found) for found in roles], relations,
                text if text is not None else (graph.input or ""), skip)


def anchor_text(graph: Graph, scope: str) -> str:
    """The text AnCast 0.1.1 searches for text anchors, at sentence (``snt``) or document (``doc``) scope.

    At sentence scope it is the rest of the ``# :: sntN`` (or ``# ::snt``) line, which is empty when the
    words sit on a ``Words:`` line; at document scope the whole sentence header (in the release layout from
    its rule line on).  A UMR sentence without
    header lines besides ``# :: sntN`` is taken to be in AnCast's layout (the text on that line).
    """
    words = graph.input or ""
    place = graph.document
    own_layout = place is None or not place.info
    if scope == "snt" or place is None:
        return words if own_layout else ""
    # the release layout opens each sentence with a rule line, which AnCast++ keeps in the header (its
    # tokens count one more for it under --weighted toks)
    rule = [] if own_layout else ["#" * 80]
    lines = rule + list(place.info) + [f"# :: snt{place.sentence}" + ("\t" + words if own_layout else "")]
    if not own_layout:
        lines.append("Index: " + " ".join(str(k) for k in range(1, len(words.split()) + 1)))
        lines.append("Words: " + words)
    return "\n".join(lines)

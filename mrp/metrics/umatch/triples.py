"""What juːmæʧ counts of a node: its concept and relations, each a (name, value) pair, with values that
name nodes of the sentence projected to the other file; and how two nodes' pairs match."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Optional, Tuple

from mrp.errors import MRPError
from mrp.metrics.umatch.model import Node

#: the value a relation gets when the node it names has no counterpart (it matches nothing)
UNMAPPED = "UNMAPPED"

Pair = Tuple[str, str, str]


@dataclass(frozen=True)
class Selection:
    """Which relations count (``--only``/``--except``; ``concept`` names the concept)."""

    only: Optional[FrozenSet[str]] = None
    excluded: FrozenSet[str] = frozenset()

    @staticmethod
    def of(only: Optional[Iterable[str]] = None, excluded: Optional[Iterable[str]] = None) -> Selection:
        """The selection of ``--only`` and ``--except`` lists (names with or without ':'); both given:
        the excepted ones leave the only list."""
        chosen = {name[1:] if name.startswith(":") else name for name in only or () if name}
        left = {name[1:] if name.startswith(":") else name for name in excluded or () if name}
        if chosen and left:
            chosen -= left
            if not chosen:
                raise MRPError("--except removes every relation --only names")
            return Selection(frozenset(chosen))
        if chosen:
            return Selection(frozenset(chosen))
        return Selection(None, frozenset(left)) if left else ALL  # one object: the nodes' profiles kept

    def ignored(self, name: str) -> bool:
        """Whether a relation (``:ARG0``, ``concept``) is left out."""
        if self.only is None and not self.excluded:
            return False
        if name.startswith(":"):
            name = name[1:]
        if self.only is not None:
            return name not in self.only
        return name in self.excluded

    def key(self) -> str:
        """How the selection shows in a signature."""
        if self.only is not None:
            return "only:" + ",".join(sorted(self.only))
        if self.excluded:
            return "except:" + ",".join(sorted(self.excluded))
        return "all"


ALL = Selection()


def targets(value: str, label: Optional[str], nodes: Dict[str, Node]) -> Optional[List[str]]:
    """The variables of file ``label`` the node ``value`` names is projected to (None: no node)."""
    if not value or not label:
        return None
    node = nodes.get(value)
    if node is None:
        return None
    return node.mapped(label)


def attributes(node: Node, nodes: Dict[str, Node], label: Optional[str], selection: Selection) -> List[Pair]:
    """(name, shown value, compared value) of a node's concept and relations, in name order; a value naming
    a node of the sentence is compared as its counterpart in file ``label`` (None: as itself)."""
    pairs: List[Pair] = []
    if not selection.ignored("concept"):
        pairs.append(("concept", node.concept, node.concept))
    for name, value in node.in_name_order():
        if selection.ignored(name) or not value:
            continue
        found = targets(value, label, nodes)
        if found is None:
            pairs.append((name, value, value))
        elif not found:
            pairs.append((name, f"{value} unmapped", UNMAPPED))
        else:
            shown = f"{value} mapped to {label} {', '.join(found)}"
            pairs.extend((name, shown, target) for target in found)
    return pairs


@dataclass
class Comparison:
    """Two nodes compared: totals, matches, and the mismatches (name, left value, right value)."""

    total0: int
    total1: int
    correct: int
    mismatches: List[Tuple[str, str, str]]
    mapped: bool
    #: node 0's matched pairs (with ``details``)
    matches: List[Pair] = field(default_factory=list)


class Profile:
    """A node's pairs of :func:`attributes` as multisets, for counting without building them: those whose
    value names no node of the sentence (the concept included), and the relations to nodes, whose values
    the projection of the moment gives (:func:`projection`). It holds no node of its sentence but its own
    (each relation to a node by the node's variable and projections): no cycle through the sentence."""

    __slots__ = ("node", "selection", "size", "fixed", "fixed_total", "edges", "own", "own_total", "_names")

    def __init__(self, node: Node, nodes: Dict[str, Node], selection: Selection) -> None:
        self.node, self.selection = node, selection
        self.size = len(node.relations)
        #: (name, value) -> how many, of the pairs whose value names no node
        self.fixed: Dict[Tuple[str, str], int]
        self.fixed_total: int
        #: (name, variable, the projections of the node it names) of each relation to a node
        self.edges: List[Tuple[str, str, Dict[str, Dict[str, int]]]] = []
        #: (name, value) -> how many, of every pair taken as written (no projection)
        self.own: Dict[Tuple[str, str], int] = {}
        self._names: Optional[Dict[str, int]] = None
        own, edges = self.own, self.edges
        every = selection.only is None and not selection.excluded
        if every or not selection.ignored("concept"):
            own[("concept", node.concept)] = 1
        for relation in node.relations:  # multisets: the order does not matter; a relation is its own key
            name, value = relation
            if not value or not every and selection.ignored(name):
                continue
            own[relation] = own.get(relation, 0) + 1
            other = nodes.get(value)
            if other is not None:
                edges.append((name, value, other.cross))
        self.own_total = sum(own.values())
        if edges:  # the pairs as written, less the relations to nodes
            self.fixed = fixed = dict(own)
            for name, value, _ in edges:
                key = (name, value)
                left = fixed[key] - 1
                if left:
                    fixed[key] = left
                else:
                    del fixed[key]
            self.fixed_total = self.own_total - len(edges)
        else:  # the same pairs: one table (read only)
            self.fixed, self.fixed_total = own, self.own_total

    def moved(self, node: Node, nodes: Dict[str, Node]) -> Profile:
        """The profile of ``node``, a copy of this profile's node (its concept and relations the same
        objects) in ``nodes``, a copy of its sentence's nodes (the same variables): its pairs shared, its
        relations to nodes naming the copies' projections."""
        out = Profile.__new__(Profile)
        out.node, out.selection, out.size = node, self.selection, self.size
        out.fixed, out.fixed_total, out.own, out.own_total = self.fixed, self.fixed_total, self.own, \
            self.own_total
        out.edges = [(name, value, nodes[value].cross) for name, value, _ in self.edges]
        out._names = self._names
        return out

    @property
    def names(self) -> Dict[str, int]:
        """Relation names (and ``concept``) -> how many, whatever the values and selection (:func:`weak`)."""
        if self._names is None:
            self._names = dict(Counter(["concept"] + [name for name, _ in self.node.relations]))
        return self._names


def profile(node: Node, nodes: Dict[str, Node], selection: Selection) -> Profile:
    """The node's :class:`Profile` in its sentence's ``nodes`` under ``selection`` (kept beside the nodes
    when they are a sentence's :class:`~mrp.metrics.umatch.model.Nodes`)."""
    kept = getattr(nodes, "profiles", None)
    if kept is None:
        return Profile(node, nodes, selection)
    found = kept.get(node.variable)
    if found is not None and found.node is node and found.size == len(node.relations) and \
            (found.selection is selection or found.selection == selection):
        return found  # type: ignore[no-any-return]
    found = kept[node.variable] = Profile(node, nodes, selection)
    nodes.every = None  # type: ignore[attr-defined]
    return found


def profiles(nodes: Dict[str, Node], selection: Selection) -> Dict[str, Profile]:
    """Every node's :func:`profile` in a sentence's ``nodes`` under ``selection``, by variable (made once
    for the sentence when its nodes are :class:`~mrp.metrics.umatch.model.Nodes`: the nodes' relations do
    not change once they are compared)."""
    kept = getattr(nodes, "profiles", None)
    if kept is None:
        return {variable: profile(node, nodes, selection) for variable, node in nodes.items()}
    every = nodes.every  # type: ignore[attr-defined]
    if every is None or len(kept) != len(nodes) or not (every is selection or every == selection):
        for node in nodes.values():
            profile(node, nodes, selection)
        nodes.every = selection  # type: ignore[attr-defined]
    return kept  # type: ignore[no-any-return]


def projected(node: Node, nodes: Dict[str, Node], label: Optional[str], selection: Selection
              ) -> Tuple[Dict[Tuple[str, str], int], int]:
    """The compared values of :func:`attributes` as a multiset (name, value) -> how many, and their number."""
    return projection(profile(node, nodes, selection), label)


def projection(found: Profile, label: Optional[str]) -> Tuple[Dict[Tuple[str, str], int], int]:
    """:func:`projected` of a node's :class:`Profile`."""
    if label is None:
        return found.own, found.own_total
    if not found.edges:
        return found.fixed, found.fixed_total
    values = dict(found.fixed)
    total = found.fixed_total
    for name, _, cross in found.edges:
        mapped = cross.get(label)
        if mapped:
            for target in mapped:
                values[(name, target)] = values.get((name, target), 0) + 1
            total += len(mapped)
        else:
            values[(name, UNMAPPED)] = values.get((name, UNMAPPED), 0) + 1
            total += 1
    return values, total


def counts(node0: Node, nodes0: Dict[str, Node], node1: Optional[Node], nodes1: Dict[str, Node],
           label1: Optional[str], selection: Selection) -> Tuple[int, int, int]:
    """(total0, total1, correct) of :func:`compare`, without the pairs (each of node 1's pairs matches at
    most one of node 0's with the same name and compared value: per (name, value), the fewer of the two)."""
    values0, total0 = projected(node0, nodes0, label1, selection)
    if node1 is None:
        return total0, 0, 0
    other = profile(node1, nodes1, selection)
    return total0, other.own_total, matches(values0, other.own)


def matches(values0: Dict[Tuple[str, str], int], values1: Dict[Tuple[str, str], int]) -> int:
    """The pairs two multisets of (name, value) share (per pair, the fewer of the two)."""
    correct = 0
    for key, n in values0.items():
        m = values1.get(key)
        if m:
            correct += n if n < m else m
    return correct


def compare(node0: Node, nodes0: Dict[str, Node], node1: Optional[Node], nodes1: Dict[str, Node],
            label1: Optional[str], selection: Selection, details: bool = False) -> Comparison:
    """Node 0's pairs (projected to ``label1``) against node 1's (None: node 0 has no counterpart)."""
    if not details:
        total0, total1, correct = counts(node0, nodes0, node1, nodes1, label1, selection)
        return Comparison(total0, total1, correct, [], node1 is not None)
    pairs0 = attributes(node0, nodes0, label1, selection)
    if node1 is None:
        missing = [(name, shown, UNMAPPED) for name, shown, _ in pairs0] if details else []
        return Comparison(len(pairs0), 0, 0, missing, False)
    pairs1 = attributes(node1, nodes1, None, selection)
    found = matched(pairs0, pairs1)[0]
    correct = sum(found)
    mismatches = _mismatches(pairs0, pairs1, found) if details else []
    matches = [pair for pair, hit in zip(pairs0, found) if hit] if details else []
    return Comparison(len(pairs0), len(pairs1), correct, mismatches, True, matches)


def matched(pairs0: List[Pair], pairs1: List[Pair]) -> Tuple[List[bool], List[bool]]:
    """Which of node 0's pairs match one of node 1's (compared values equal, each of node 1's used once, in
    order), and which of node 1's are used so."""
    free: Dict[Tuple[str, str], List[int]] = {}
    for k, (name, _, value) in enumerate(pairs1):
        free.setdefault((name, value), []).append(k)
    found0 = [False] * len(pairs0)
    found1 = [False] * len(pairs1)
    for k, (name, _, value) in enumerate(pairs0):
        left = free.get((name, value))
        if left:
            found0[k] = True
            found1[left.pop(0)] = True
    return found0, found1


def _mismatches(pairs0: List[Pair], pairs1: List[Pair], found: List[bool]) -> List[Tuple[str, str, str]]:
    """The comparator's mismatch lines: one merged line where each side has the relation once."""
    out: List[Tuple[str, str, str]] = []
    remaining = list(pairs1)
    for (name, shown, value), hit in zip(pairs0, found):
        if hit:
            for k, other in enumerate(remaining):
                if other[0] == name and other[1] == value:
                    del remaining[k]
                    break
            continue
        same0 = [p for p in pairs0 if p[0] == name]
        same1 = [p for p in remaining if p[0] == name]
        out.append((name, shown, same1[0][1] if len(same0) == 1 and len(same1) == 1 else ""))
    for name, shown, _ in remaining:
        if any(p[0] == name and p[2] == shown for p in pairs0):
            continue
        same0 = [p for p in pairs0 if p[0] == name]
        same1 = [p for p in remaining if p[0] == name]
        if len(same0) != 1 or len(same1) != 1:
            out.append((name, "", shown))
    return out


def weak_matches(node0: Node, node1: Node) -> List[str]:
    """The relation names (and ``concept``) of node 0 that node 1 has too, in node 0's order."""
    left = Counter(["concept"] + [name for name, _ in node1.relations])
    out = []
    for name in ["concept"] + [name for name, _ in node0.relations]:
        if left[name] > 0:
            left[name] -= 1
            out.append(name)
    return out


def weak(profile0: Profile, profile1: Profile) -> int:
    """Relation names (and ``concept``) two nodes share, as multisets, whatever their values (of their
    :func:`profile`)."""
    names1 = profile1.names
    shared = 0
    for name, n in profile0.names.items():
        m = names1.get(name)
        if m:
            shared += n if n < m else m
    return shared


def count(node: Node, selection: Selection) -> int:
    """The pairs a node contributes on its own (concept and non-empty relations counted)."""
    total = 0 if selection.ignored("concept") else 1
    return total + sum(1 for name, value in node.relations if value and not selection.ignored(name))

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
        return Selection(None, frozenset(left))

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


def compare(node0: Node, nodes0: Dict[str, Node], node1: Optional[Node], nodes1: Dict[str, Node],
            label1: Optional[str], selection: Selection, details: bool = False) -> Comparison:
    """Node 0's pairs (projected to ``label1``) against node 1's (None: node 0 has no counterpart)."""
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


def weak(node0: Node, node1: Node) -> int:
    """Relation names (and ``concept``) the two nodes share, as multisets, whatever their values."""
    names0 = Counter(["concept"] + [name for name, _ in node0.relations])
    names1 = Counter(["concept"] + [name for name, _ in node1.relations])
    return sum((names0 & names1).values())


def count(node: Node, selection: Selection) -> int:
    """The pairs a node contributes on its own (concept and non-empty relations counted)."""
    total = 0 if selection.ignored("concept") else 1
    return total + sum(1 for name, value in node.relations if value and not selection.ignored(name))

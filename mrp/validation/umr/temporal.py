"""Level 3 after the coreference clusters: the document's temporal graph (validate.py's
``temporal-mismatch``, and the graph and time line that ``--print-temporal`` prints).

The graph holds one relation for each ordered pair of nodes, the first one given or inferred: the members of
each coreference cluster are ``:identity`` to each other; then each ``:temporal`` relation of the
document-level annotations in file order adds itself, its inverse (``:before`` and ``:after`` each other's,
``:contains`` for ``:contained``, ``:overlap`` its own) and what follows from it and the relations of every
other node already there (an ``:identity``, ``:before`` or ``:after`` carried over, ``:contains`` carrying
``:before``/``:after`` down).  A relation that would replace another between the same pair is a
``temporal-mismatch``.  Nodes with ``:identity`` relations alone leave the graph at the end (the relations
pointing at them stay), as in validate.py.
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import Any, Dict, List, Optional, Tuple

from mrp.validation.umr.blocks import Block
from mrp.validation.umr.state import State

_BEFORE, _AFTER, _IDENTITY = ":before", ":after", ":identity"
_CONTAINS, _CONTAINED, _OVERLAP = ":contains", ":contained", ":overlap"
_OPPOSITE = {_BEFORE: _AFTER, _AFTER: _BEFORE}
#: the relations that join a component of the time line
_JOINING = (_BEFORE, _AFTER, _IDENTITY, _CONTAINED, _CONTAINS)


def describe(name: Optional[str], state: State) -> str:
    """A node as validate.py's reports show it: ``s1x (concept 'aligned words')``, the name alone for a node
    the file does not define."""
    node = state.nodes.get(name) if name is not None else None
    if node is None:
        return str(name)
    words = node.get("alignment", {}).get("tokstr", "") or "UNALIGNED"
    return f"{name} ({node.get('concept', 'UNKNOWN CONCEPT')} '{words}')"


class Temporal:
    """The temporal graph of a file: ``graph[a][b]`` is the relation of ``a`` to ``b``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.graph: Dict[str, Dict[str, str]] = {}

    def nodes(self) -> List[str]:
        """The nodes with relations, sorted."""
        return sorted(self.graph)

    def relation(self, a: str, b: str) -> Optional[str]:
        """The relation of ``a`` to ``b``, or None."""
        return self.graph.get(a, {}).get(b)

    def add(self, a: str, relation: str, b: str, line: int) -> None:
        """Keep ``a relation b`` unless the pair has a relation; another one is a ``temporal-mismatch``."""
        old = self.relation(a, b)
        if old is None:
            self.graph.setdefault(a, {})[b] = relation
        elif old != relation:
            self.state.report(3, "Document", "temporal-mismatch", f"'{a} {relation} {b}' contradicts "
                              f"'{a} {old} {b}', given or inferred before", line)

    def infer(self, a: str, relation: str, b: str, line: int) -> None:
        """Add a temporal relation of the file, its inverse and what follows from them."""
        self.add(a, relation, b, line)
        if relation in _OPPOSITE:
            same, other = relation, _OPPOSITE[relation]
            self.add(b, other, a, line)
            for n in self.nodes():
                if n in (a, b):
                    continue
                if self.relation(n, b) in (other, _IDENTITY):
                    self.add(a, same, n, line)
                    self.add(n, other, a, line)
                if self.relation(n, a) in (same, _IDENTITY):
                    self.add(b, other, n, line)
                    self.add(n, same, b, line)
                if self.relation(n, a) == _CONTAINS:
                    self.add(b, other, n, line)
                    self.add(n, same, b, line)
                if self.relation(n, b) == _CONTAINS:
                    self.add(a, same, n, line)
                    self.add(n, other, a, line)
        elif relation == _CONTAINED:
            self.add(b, _CONTAINS, a, line)
            for n in self.nodes():
                if n in (a, b):
                    continue
                if self.relation(n, b) in (_CONTAINS, _IDENTITY):
                    self.add(a, _CONTAINED, n, line)
                    self.add(n, _CONTAINS, a, line)
                if self.relation(n, a) in (_CONTAINED, _IDENTITY):
                    self.add(b, _CONTAINS, n, line)
                    self.add(n, _CONTAINED, b, line)
                found = self.relation(n, a)
                if found in _OPPOSITE:
                    self.add(n, found, b, line)
                    self.add(b, _OPPOSITE[found], n, line)
        elif relation == _OVERLAP:
            self.add(b, _OVERLAP, a, line)

    def lines(self) -> List[str]:
        """validate.py's ``--print-temporal`` report: the graph (each node and its relations), then the
        time line."""
        out = ["Document temporal graph:", ""]
        for name in self.nodes():
            out.append(f"{describe(name, self.state)} -->")
            out.extend(sorted(f"    {self.graph[name][other]} --> {describe(other, self.state)}"
                              for other in self.graph[name]))
        out += ["", "Document time line:"]
        printed: List[str] = []
        for name in self.nodes():
            if name in printed:
                continue
            component = self._component(name)
            while True:
                candidates = [x for x in component if x not in printed and self._linked(x, printed)]
                candidates = candidates or [x for x in component if x not in printed]
                if not candidates:
                    break
                first = self._earliest(candidates)
                same = [x for x in self.graph if self.relation(first, x) == _IDENTITY]
                for node in sorted([first] + same):
                    self._print(node, printed, out)
        return out

    def _component(self, name: str) -> List[str]:
        """The nodes reached by the joining relations, breadth first, then ordered by :func:`_compare` as
        validate.py's sort orders them (its order is a partial one: the sort's own steps decide the rest)."""
        queue, seen = [name], {}
        while queue:
            x = queue.pop(0)
            if x not in seen:
                seen[x] = True
                queue.extend(y for y in sorted(self.graph.get(x, {}))
                             if y not in seen and self.graph[x][y] in _JOINING)
        return sorted(seen, key=cmp_to_key(self._compare))

    def _compare(self, a: str, b: str) -> int:
        if self.relation(a, b) in (_BEFORE, _CONTAINS):
            return 1
        if self.relation(a, b) in (_AFTER, _CONTAINED):
            return -1
        return 0

    def _earliest(self, names: List[str]) -> str:
        """The node after the fewest nodes and before the most (``:contained`` as after, ``:contains`` as
        before), the least name among equals."""
        def rank(name: str) -> Tuple[int, int, str]:
            after = sum(1 for x in self.graph if self.relation(x, name) in (_AFTER, _CONTAINED))
            before = sum(1 for x in self.graph if self.relation(x, name) in (_BEFORE, _CONTAINS))
            return (after, -before, name)
        return min(names, key=rank)

    def _linked(self, name: str, printed: List[str], overlap: bool = False) -> Optional[Tuple[str, str]]:
        """The last printed node with a relation to ``name`` (``:overlap`` only with ``overlap``), and it."""
        for other in reversed(printed):
            relation = self.relation(other, name)
            if relation is not None and (overlap or relation != _OVERLAP):
                return other, relation
        return None

    def _print(self, name: str, printed: List[str], out: List[str]) -> None:
        if name in printed:
            return
        found = self._linked(name, printed)
        if found is None:
            out.append("")  # a new stretch of the time line
            found = self._linked(name, printed, overlap=True)
        parent, relation = found or (printed[-1] if printed else None, ":norel")
        out.append(f"{describe(parent, self.state)} {relation} {describe(name, self.state)}")
        printed.append(name)


def check(sentences: List[List[Block]], state: State, clusters: Dict[str, Any],
          lines: Dict[str, int]) -> Temporal:
    """Build the temporal graph of the sentences that passed level 1 (reporting ``temporal-mismatch``).

    Args:
        sentences: the sentences, after their level-3 checks.
        state: the file's checks.
        clusters: the coreference clusters (cluster id -> members).
        lines: each clustered node's first coreference line.

    Returns:
        The graph, nodes with ``:identity`` relations alone left out.
    """
    temporal = Temporal(state)
    for members in clusters.values():
        for a in sorted(members):
            for b in sorted(members):
                if a != b:
                    temporal.add(a, _IDENTITY, b, lines[a])
    for sentence in sentences:
        for relation in sentence[3].get("relations", []):
            if relation["group"] == ":temporal":
                temporal.infer(relation["node0"], relation["relation"], relation["node1"], relation["line0"])
    for name in [x for x, others in temporal.graph.items() if all(r == _IDENTITY for r in others.values())]:
        del temporal.graph[name]
    return temporal

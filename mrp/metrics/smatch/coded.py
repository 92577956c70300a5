"""SMATCH's Penman triples (sets: :func:`mrp.metrics.smatch.penman.penman_triples` without ``compat``) coded
straight from a graph with the ids of an :class:`~mrp.solver.Interned`, in one pass and without the
triples' dicts: the rows :meth:`Interned.coded` gives for the triples, number for number.

A reward function scores each sampled graph once; what it pays a graph is this pass.  The same few
thousand concepts, names, values and roles recur in every graph, so each, as written, is looked up once
for its id (:class:`Coder`: a concept's, a name and value's, a role's and whether it is inverted), the ids
kept as long as the Interned keeps its own (its generation).
"""

from __future__ import annotations

from array import array
from typing import Any, Dict, List, Optional, Tuple

from mrp.codecs.penman import Plain, Scanned, constant, role_label
from mrp.graph import Graph
from mrp.metrics.smatch.penman import _STRINGS, _TOP, _instance, _role, _text
from mrp.solver import Coded, Interned

__all__ = ["Coder"]


class Coder:
    """Graphs' Penman triples (sets) coded with the ids of one Interned (:meth:`coded`).

    Args:
        interned: the ids to code with (new keys and labels are added to it).
    """

    def __init__(self, interned: Interned) -> None:
        self.interned = interned
        self._generation = -1
        #: a concept as written -> its instance triple's key id
        self._concepts: Dict[Any, int] = {}
        #: a name as written -> (a value as written -> the key id of the pair)
        self._properties: Dict[Any, Dict[Any, int]] = {}
        #: a role as written -> (whether it is inverted, the id of its normal role)
        self._roles: Dict[str, Tuple[bool, int]] = {}
        #: the same three by the tokens as a scanned text writes them (:meth:`coded_scan`): a concept's token
        #: (None: no concept), a role as written, a role and a constant's token
        self._tokens: Dict[str, int] = {}
        self._written: Dict[str, Tuple[bool, int]] = {}
        #: the text of a branch to a constant from its role to its token -> the key id (-1: left out), and the
        #: same for texts read without ``:wiki``
        self._pairs: Dict[str, int] = {}
        self._pairs_no_wiki: Dict[str, int] = {}
        self._top = 0

    def _fresh(self) -> None:
        """Forget the ids of an earlier generation of the Interned."""
        self._concepts, self._properties, self._roles = {}, {}, {}
        self._tokens, self._written, self._pairs, self._pairs_no_wiki = {}, {}, {}, {}
        self._generation = self.interned.generation
        self._top = self._key(_TOP)

    def _key(self, key: Any) -> int:
        keys = self.interned.keys
        found = keys.get(key)
        if found is None:
            found = keys[key] = len(keys)
        return found

    def _concept(self, label: Optional[str]) -> int:
        found = self._key(_instance(label))
        if type(label) in _STRINGS:
            self._concepts[label] = found
        return found

    def _property(self, name: Any, value: Any) -> int:
        found = self._key((_text(name), _text(value)))
        if type(name) in _STRINGS and type(value) in _STRINGS:
            self._properties.setdefault(name, {})[value] = found
        return found

    def _relation(self, label: str) -> Tuple[bool, int]:
        inverted, normal = _role(label)
        labels = self.interned.labels
        found = labels.get(normal)
        if found is None:
            found = labels[normal] = len(labels)
        made = self._roles[label] = (inverted, found)
        return made

    def _node(self, rows: List[int], i: int, key: int, pairs: Any, top: bool) -> None:
        """Node ``i``'s rows beyond its instance alone: its instance (``key``), each property triple once
        (the first place it takes) and, for the top, the TOP triple."""
        properties = self._properties
        keys = [key]
        for name, value in pairs:
            values = properties.get(name)
            found = values.get(value) if values is not None else None
            if found is None:
                found = self._property(name, value)
            if found not in keys:
                keys.append(found)
        self._rows(rows, i, keys, top)

    def coded(self, graph: Graph) -> Tuple[Coded, int]:
        """A graph's Penman triples (every triple once) coded, and how many triples there are.

        Args:
            graph: an AMR graph.

        Returns:
            Its :class:`~mrp.solver.Coded` (the rows ``Interned.coded`` gives its triples) and its triple
            count.
        """
        if self._generation != self.interned.generation:
            self._fresh()
        nodes = graph.nodes
        position = {node.id: k for k, node in enumerate(nodes)}
        top = (position.get(graph.tops[0], 0) if graph.tops else 0) if nodes else -1
        concepts = self._concepts
        rows: List[int] = []
        for i, node in enumerate(nodes):
            label = node.label
            key = concepts.get(label)  # the memos keep strings only, which no other value equals
            if key is None:
                key = self._concept(label)
            if node.properties or i == top:
                self._node(rows, i, key, zip(node.properties, node.values), i == top)
            else:
                rows += (i, key, 1)
        roles = self._roles
        edges: List[int] = []
        for edge in graph.edges:
            label = edge.label or ""
            known = roles.get(label)  # (an inverted role's relation the other way round: its normal role)
            inverted, normal = known if known is not None else self._relation(label)
            source, target = position[edge.source], position[edge.target]
            edges += (target, source, normal, 1) if inverted else (source, target, normal, 1)
        return _made(len(nodes), rows, edges)

    def coded_plain(self, plain: Plain) -> Tuple[Coded, int]:
        """:meth:`coded` of the graph of a plain Penman text, from the text's Plain form (its nodes' labels
        and layout, without the graph's objects): the same rows, number for number.

        Args:
            plain: the form (:func:`mrp.codecs.penman.plain_form`).

        Returns:
            As :meth:`coded` of the graph built from it.
        """
        if self._generation != self.interned.generation:
            self._fresh()
        concepts, roles = self._concepts, self._roles
        layout = plain.layout
        rows: List[int] = []
        edges: List[int] = []
        for i, label in enumerate(plain.labels):
            key = concepts.get(label)  # the memos keep strings only, which no other value equals
            if key is None:
                key = self._concept(label)
            pairs: Optional[List[Tuple[str, Any]]] = None
            for name, target, _ in layout[i]:
                if type(target) is int:  # a relation (as in :meth:`coded`)
                    known = roles.get(name)
                    inverted, normal = known if known is not None else self._relation(name)
                    edges += (target, i, normal, 1) if inverted else (i, target, normal, 1)
                elif pairs is None:
                    pairs = [(name, target)]
                else:
                    pairs.append((name, target))
            if pairs is not None or not i:  # (the root is the top)
                self._node(rows, i, key, pairs or (), not i)
            else:
                rows += (i, key, 1)
        return _made(len(plain.labels), rows, edges)

    def coded_scan(self, form: Scanned) -> Tuple[Coded, int]:
        """:meth:`coded_plain` of a text read by the compiled scan, from its integers and its tokens (each
        token looked up as written, its value made as the reader makes it once): the same rows, number for
        number.

        Args:
            form: the scanned text (:func:`mrp.codecs.penman.unscanned`).

        Returns:
            As :meth:`coded` of the graph built from it.
        """
        if self._generation != self.interned.generation:
            self._fresh()
        text, codes, no_wiki = form.text, form.codes, form.no_wiki
        tokens, written = self._tokens, self._written
        constants = self._pairs_no_wiki if no_wiki else self._pairs
        n = codes[0]
        rows: List[int] = []
        edges: List[int] = []
        branch = 3 + 3 * n
        at = 3
        for i in range(n):
            concept, count = text[codes[at]:codes[at + 1]], codes[at + 2]
            at += 3
            key = tokens.get(concept)
            if key is None:
                key = tokens[concept] = self._concept(constant(concept))
            keys: Optional[List[int]] = None  # the node's keys once a constant of it is kept
            for _ in range(count):
                target = codes[branch]
                if target >= 0:  # a relation
                    role = text[codes[branch + 1]:codes[branch + 2]]
                    known = written.get(role)
                    inverted, normal = known if known is not None else self._written_role(role)
                    edges += (target, i, normal, 1) if inverted else (i, target, normal, 1)
                else:  # a constant, by its role and token as written (with what the scan read between)
                    found = constants.get(text[codes[branch + 1]:codes[branch + 4]])
                    if found is None:
                        found = self._written_constant(text, codes, branch, no_wiki)
                    if found >= 0:  # (-1: ``:wiki`` left out)
                        if keys is None:
                            keys = [key]
                        if found not in keys:
                            keys.append(found)
                branch += 5
            if keys is None:
                if i:
                    rows += (i, key, 1)
                    continue
                keys = [key]
            self._rows(rows, i, keys, not i)  # (the root is the top)
        # each node but the root brought in by a relation, and no relation else: a tree (the scan's count of
        # relations, codes[2], counts every branch to a node)
        return _made(n, rows, edges, codes[2] == n - 1)

    def _written_role(self, role: str) -> Tuple[bool, int]:
        label = role_label(role)
        known = self._roles.get(label)
        made = self._written[role] = known if known is not None else self._relation(label)
        return made

    def _written_constant(self, text: str, codes: List[int], branch: int, no_wiki: bool) -> int:
        """The key id of the constant of a scanned branch (-1: a ``:wiki`` left out with ``no_wiki``, as the
        reader leaves it out), kept by the text from its role to its token: the scan reads the role as a
        symbol from its start, white space, then the token, so that text is that role and that token."""
        role, token = text[codes[branch + 1]:codes[branch + 2]], text[codes[branch + 3]:codes[branch + 4]]
        name = role_label(role)
        found = -1 if no_wiki and name == "wiki" else self._property(name, constant(token))
        (self._pairs_no_wiki if no_wiki else self._pairs)[text[codes[branch + 1]:codes[branch + 4]]] = found
        return found

    def _rows(self, rows: List[int], i: int, keys: List[int], top: bool) -> None:
        """Node ``i``'s rows of its keys (each once), the TOP triple's added for the top."""
        if top and self._top not in keys:
            keys.append(self._top)
        for found in keys:
            rows += (i, found, 1)


def _made(n: int, rows: List[int], edges: List[int], tree: bool = False) -> Tuple[Coded, int]:
    """The Coded of ``n`` nodes' rows and relation rows (each relation once), and the triple count.  ``tree``:
    the relations are a tree's, ``n - 1`` of them each bringing in its own node, so that no two join the
    same two nodes and none is to be left out."""
    relations = len(edges) // 4
    if relations > 1 and not tree and len(set(zip(edges[0::4], edges[1::4], edges[2::4]))) < relations:
        edges = _once(edges)
    local, joined = array("q"), array("q")
    local.fromlist(rows)  # (a tenth faster than array("q", rows))
    joined.fromlist(edges)
    return Coded(n, local, joined), len(rows) // 3 + len(edges) // 4


def _once(edges: List[int]) -> List[int]:
    """Relation rows with each (source, target, label) once, where it first appears."""
    seen = set()
    out: List[int] = []
    for at in range(0, len(edges), 4):
        relation = (edges[at], edges[at + 1], edges[at + 2])
        if relation not in seen:
            seen.add(relation)
            out += edges[at:at + 4]
    return out

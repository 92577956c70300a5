"""A sentence pair's juːmæʧ tuples for the ``--explain`` report: each node's concept and relations (and each
document-level relation) as matched, missed or surplus under the pair's node correspondence, by the very
rules that count them (:func:`mrp.metrics.umatch.compare.counterpart`,
:func:`mrp.metrics.umatch.triples.matched`, :func:`mrp.metrics.umatch.compare.docrel_statuses`), so the
facts add up to the pair's g, s and c."""

from __future__ import annotations

from typing import Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from mrp.engine import MATCHED, MISSED, SURPLUS, Detail, Fact
from mrp.graph import Graph
from mrp.metrics.umatch.compare import counterpart, docrel_statuses
from mrp.metrics.umatch.model import Node, Sentence
from mrp.metrics.umatch.triples import Pair, Selection, attributes, matched

SOURCE = "juːmæʧ's tuples: each node's concept and relations (a relation naming a node compared as the " \
         "node's counterpart), and document-level relations"


def _ids(graph: Graph) -> Dict[str, int]:
    """Variable -> node id of a graph (a node without a variable is ``n`` and its id, as juːmæʧ names it)."""
    names = graph.variables or {}
    return {names.get(node.id, f"n{node.id}"): node.id for node in graph.nodes}


def _fact(pair: Pair, status: str, node: int, ids: Dict[str, int], target: Optional[str],
          gold: bool) -> Fact:
    """One (name, shown, compared) pair of a node as a fact: a concept inside the node, a relation naming a
    node (``target``: that node's variable on this side) as an arrow, any other relation inside the node."""
    name, shown, value = pair
    if name == "concept":
        ends: Tuple[int, ...] = (node,)
        kind, text = "concept", value
    elif target is not None and target in ids:
        ends, kind, text = (node, ids[target]), "relation", name.lstrip(":")
    else:
        ends, kind, text = (node,), "attribute", f"{name.lstrip(':')} {shown if gold else value}"
    return Fact(kind, status, ends if gold else (), () if gold else ends, text)


def _both(pair0: Pair, pair1: Pair, node0: int, node1: int, ids0: Dict[str, int], ids1: Dict[str, int],
          nodes0: Dict[str, Node]) -> Fact:
    """A matched pair: drawn on both sides (a relation between the nodes' counterparts)."""
    gold = _fact(pair0, MATCHED, node0, ids0, _target(pair0, nodes0), True)
    system = _fact(pair1, MATCHED, node1, ids1, pair1[2], False)
    if gold.kind == "attribute" and system.kind == "attribute":
        return Fact("attribute", MATCHED, gold.gold, system.system, gold.text)
    if gold.kind != system.kind:  # a relation to a node on one side, a constant on the other
        return Fact(gold.kind, MATCHED, gold.gold, system.system if len(system.system) == len(gold.gold)
                    else system.system[:1], gold.text)
    return Fact(gold.kind, MATCHED, gold.gold, system.system, gold.text)


def _target(pair: Pair, nodes: Dict[str, Node]) -> Optional[str]:
    """The variable a gold relation names (its written value), when it names a node of the sentence."""
    value = pair[1].split(" ", 1)[0]
    return value if value in nodes else None


def places(sentences: Sequence[Sentence]) -> Dict[int, int]:
    """Each node of the sentences (by identity) -> the position of its sentence (from 0)."""
    return {id(node): k for k, sentence in enumerate(sentences) for node in sentence.nodes.values()}


class AsOf(Mapping[str, Node]):
    """A variable table as the comparator's greedy run sees it when it counts sentence ``number`` (from 1)
    of the sentences whose nodes ``places`` places: a node of a later sentence (or of none) has no
    counterpart yet. A view: nothing is copied (each sentence of a file has one, and the table is the
    file's)."""

    def __init__(self, table: Dict[str, Node], places: Dict[int, int], number: int) -> None:
        self._table, self._places, self._number = table, places, number

    def __getitem__(self, name: str) -> Node:
        node = self._table[name]
        if self._places.get(id(node), self._number) < self._number:
            return node
        return Node(node.variable, node.concept)

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


def detail(sentence0: Sentence, sentence1: Sentence, graph0: Graph, graph1: Graph, label0: str, label1: str,
           selection: Selection,
           documents: Optional[Tuple[Mapping[str, Node], Mapping[str, Node]]]) -> Detail:
    """The detail of a mapped sentence pair (file labels ``label0``, ``label1``; ``documents``: the variable
    tables document-level relations are projected through, None when they are left out)."""
    ids0, ids1 = _ids(graph0), _ids(graph1)
    nodes0, nodes1 = sentence0.nodes, sentence1.nodes
    facts: List[Fact] = []
    correspondence: List[Tuple[int, int]] = []
    paired: set = set()  # type: ignore[type-arg]
    for variable in sorted(nodes0):
        node = nodes0[variable]
        chosen = counterpart(node, nodes0, nodes1, label1, selection)
        mine = ids0.get(variable, -1)
        pairs0 = attributes(node, nodes0, label1, selection)
        if chosen is None:
            facts += [_fact(pair, MISSED, mine, ids0, _target(pair, nodes0), True) for pair in pairs0]
            continue
        other = chosen[0]
        theirs = ids1.get(other.variable, -1)
        correspondence.append((mine, theirs))
        paired.add(other.variable)
        pairs1 = attributes(other, nodes1, None, selection)
        found0, found1 = matched(pairs0, pairs1)
        used = [pair for pair, hit in zip(pairs1, found1) if hit]
        for pair, hit in zip(pairs0, found0):
            if hit:
                twin = next(k for k, p in enumerate(used) if p[0] == pair[0] and p[2] == pair[2])
                facts.append(_both(pair, used.pop(twin), mine, theirs, ids0, ids1, nodes0))
            else:
                facts.append(_fact(pair, MISSED, mine, ids0, _target(pair, nodes0), True))
        facts += [_fact(pair, SURPLUS, theirs, ids1, pair[2], False)
                  for pair, hit in zip(pairs1, found1) if not hit]
    for variable in sorted(nodes1):
        if nodes1[variable].mapped(label0):
            continue
        node = nodes1[variable]
        facts += [_fact(pair, SURPLUS, ids1.get(variable, -1), ids1, pair[2], False)
                  for pair in attributes(node, nodes1, None, selection)]
    if documents is not None:
        for side, triple, hit in docrel_statuses(sentence0, sentence1, documents[0], documents[1], label0,
                                                 label1, selection):
            status = MATCHED if hit else MISSED if side == 0 else SURPLUS
            facts.append(Fact("document", status, (), (), triple))
    return Detail(correspondence, facts, SOURCE)

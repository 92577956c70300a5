"""A starting map for document graphs: each sentence aligned with its counterpart.

A multi-sentence AMR (``(m / multi-sentence :snt1 … :snt2 …)``, as DocAMR and
merged documents write it) aligns mostly sentence to sentence.  The map that
aligns the root with the root and each gold sentence ``sntK`` optimally with the
system's ``sntK`` is always a valid correspondence, so the solver starts from
it: on documents too large to prove, the answer is never below the
sentence-by-sentence alignment.  Sentences are found from the graph alone: the
nodes reached from each ``sntK`` edge along edges in their written direction,
a node reached from several sentences belonging to the first; graphs of
another shape get no seed.

The same sentences restrict the alignment under ``--doc-align sentence``
(:func:`sentence_groups`), as DocAMR's docSmatch does: a gold node of sentence
K may match only a system node of sentence K, the root only the root (nodes in
no sentence form group 0 with it), and a node merged across sentences (a
coreference chain) belongs to the sentence of its first mention, the first
sentence that reaches it.  Every triple of the document is counted, the
cross-sentence ones too; the optimum is the best map *within sentences*, a
restriction: it can be below the unrestricted optimum, never above.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

import numpy as np

from mrp.graph import Graph
from mrp.solver import Problem, restrict

__all__ = ["document_root", "sentences", "sentence_groups", "restricted", "sentence_seed"]

_SENTENCE = re.compile(r"snt(\d+)$", re.IGNORECASE)
#: Search steps per sentence pair (the sentences of a document are small; the seed needs no proof).
SENTENCE_STEPS = 20_000


def document_root(label: Optional[str]) -> bool:
    """Whether a root with this label makes its graph a document (whose sentences :func:`sentences` finds
    when it has two or more): the first look, which most graphs end at.

    Args:
        label: the root's label.

    Returns:
        Whether it is ``multi-sentence``.
    """
    return str(label or "").lower() == "multi-sentence"


def sentences(graph: Graph) -> Optional[Dict[int, List[int]]]:
    """Node positions per sentence number of a multi-sentence graph (the root in none), or None."""
    root = _root(graph)
    if root is None or not document_root(graph.nodes[root].label):
        return None
    position = {node.id: k for k, node in enumerate(graph.nodes)}
    children: Dict[int, List[int]] = {}
    starts: Dict[int, int] = {}
    for edge in graph.edges:
        a, b = position.get(edge.source), position.get(edge.target)
        if a is None or b is None:
            continue
        found = _SENTENCE.match(edge.label or "") if a == root else None
        if found:
            starts.setdefault(int(found.group(1)), b)
        elif a != root and b != root:
            children.setdefault(a, []).append(b)  # in the direction written (a Penman tree's branches)
    if len(starts) < 2:
        return None
    owner = {root: 0}
    blocks: Dict[int, List[int]] = {}
    for number in sorted(starts):
        start = starts[number]
        if start in owner:
            continue
        owner[start] = number
        block, todo = [start], [start]
        while todo:
            for neighbour in children.get(todo.pop(), ()):
                if neighbour not in owner:
                    owner[neighbour] = number
                    block.append(neighbour)
                    todo.append(neighbour)
        blocks[number] = block
    return blocks


def groups(graph: Graph) -> Optional[np.ndarray]:
    """The sentence number of each node position of a multi-sentence graph (0: the root, or no sentence),
    or None when the graph is not a document."""
    blocks = sentences(graph)
    if blocks is None:
        return None
    out = np.zeros(len(graph.nodes), np.int64)
    for number, block in blocks.items():
        out[np.array(block, np.int64)] = number
    return out


def sentence_groups(graphs: Optional[Tuple[Graph, Graph]], n: int,
                    m: int) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """The sentence of each gold and each system node when both graphs are documents of ``n`` and ``m``
    nodes (their positions those of the solver's problem), else None (the pair is aligned unrestricted)."""
    if graphs is None or (n, m) != (len(graphs[0].nodes), len(graphs[1].nodes)):
        return None
    gold = groups(graphs[0])
    system = groups(graphs[1]) if gold is not None else None
    return None if gold is None or system is None else (gold, system)


def restricted(graphs: Tuple[Graph, Graph]) -> bool:
    """Whether ``--doc-align sentence`` restricts the alignment of this pair (both are documents)."""
    return sentence_groups(graphs, len(graphs[0].nodes), len(graphs[1].nodes)) is not None


def sentence_seed(problem: Problem, gold: Graph, system: Graph,
                  stop: Optional[np.ndarray] = None) -> Optional[np.ndarray]:
    """The sentence-by-sentence map of two multi-sentence graphs under ``problem`` (positions), or None;
    ``stop[0]`` set (the pair's time is up) ends each sentence's search with what it has."""
    from mrp.solver import LAP_SIZE, solved

    ours = sentences(gold)
    theirs = sentences(system) if ours else None  # most graphs are not documents: one look suffices
    n, m = problem.U.shape
    top, their_top = _root(gold), _root(system)
    if not ours or not theirs or top is None or their_top is None or (n, m) != (len(gold.nodes),
                                                                          len(system.nodes)):
        return None
    seed = np.full(n, -1, np.int64)
    seed[top] = their_top
    stop = np.zeros(1, np.int64) if stop is None else stop
    empty = np.zeros(0, np.int64)
    for number, rows in ours.items():
        cols = theirs.get(number)
        if not cols:
            continue
        gold_nodes, system_nodes = np.array(sorted(rows), np.int64), np.array(sorted(cols), np.int64)
        pi = solved(restrict(problem, gold_nodes, system_nodes), SENTENCE_STEPS, LAP_SIZE, stop, empty)[4]
        matched = pi >= 0
        seed[gold_nodes[matched]] = system_nodes[pi[matched]]
    return seed


def _root(graph: Graph) -> Optional[int]:
    """The position of the graph's (first) top, or None."""
    if not graph.tops:
        return None
    nodes = graph.nodes
    if nodes and nodes[0].id == graph.tops[0]:
        return 0  # where readers put the top
    return next((k for k, node in enumerate(graph.nodes) if node.id == graph.tops[0]), None)

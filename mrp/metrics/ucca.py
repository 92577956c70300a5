"""The UCCA metric: primary and remote edges between nodes identified by their yields.

The yield of a node is its own normalized anchor spans plus those of every
node reachable from it through *primary* edges (an edge is remote when it has
an attribute named ``remote``; ``remote: false`` is dropped by normalization,
so only a true remote counts).  A yield is exploded to character positions
(``mrp.normalize.explode``) when the graph has an input string, otherwise it
is the sorted tuple of distinct spans.  Every edge gives a labeled item
(yield(source), yield(target), label) and an unlabeled item (yield(source),
yield(target)), in the ``remote`` bucket when the edge is remote and in
``primary`` otherwise.  Everything is a set, so nodes with identical yields
(unary chains) collapse; tops are not scored.  Graphs are normalized first with
the MRP rules, as the reference scorer does under ``--score``.

Deliberate differences from the reference scorer (``mtool``, score/ucca.py):

* Per-item ``scores`` (with ``--trace``) are keyed by framework, then graph
  id: ``{"scores": {framework: {id: {...}}}}``; the reference keys them by id
  only, so the same id in two frameworks overwrites an earlier item.
* Yields are computed without recursion (the reference recurses once per
  level and can hit Python's recursion limit on deep graphs) and with an
  index of outgoing edges instead of a scan of all edges per node.  On a cyclic
  graph the same rule applies (a node reached again while it is being expanded
  contributes what it has so far), in edge list order; the reference's result
  there also depends on the iteration order of its edge set.
* A graph without input whose anchors are not one contiguous run crashes the
  reference during normalization; here only adjacent spans merge.  An edge
  naming no node crashes the reference; our reader rejects such graphs, and
  unknown references are skipped here.
* A graph with a duplicate node id is read by the reference (the later node
  shadows the earlier one in some places and not in others); our reader
  rejects it, so it is scored as an empty system graph and counted as invalid.
* ``--trace --trace`` makes the reference print per-item lines to stdout,
  corrupting its JSON; there is no such mode here.
"""

from __future__ import annotations

from typing import Any, Dict, Hashable, List, Optional, Set, Tuple

from mrp.engine import Metric, Options, Pair, PairCounts, Run, prf
from mrp.graph import Anchor, Graph
from mrp.metrics.edm import NormalEdge, normal_edges, normal_spans
from mrp.normalize import explode

#: (measure, bucket) in the reference's output order.
MEASURES = ("labeled", "unlabeled")
BUCKETS = ("primary", "remote")


def is_remote(edge: NormalEdge) -> bool:
    """True for an edge with a (non-default) ``remote`` attribute."""
    return any(name == "remote" for name, _ in edge.attributes)


def yields(graph: Graph, edges: Optional[List[NormalEdge]] = None) -> Dict[int, Hashable]:
    """Node id -> its yield: positions when the graph has input, else the sorted tuple of spans."""
    spans = normal_spans(graph)
    if edges is None:
        edges = normal_edges(graph)
    children: Dict[int, List[int]] = {}
    for edge in edges:
        if not is_remote(edge):
            children.setdefault(edge.source, []).append(edge.target)
    leaves: Dict[int, List[Anchor]] = {}
    seen: Dict[int, Set[Anchor]] = {}

    def start(node: int) -> None:
        leaves[node] = list(spans[node])
        seen[node] = set(leaves[node])

    for node in graph.nodes:
        if node.id in leaves:
            continue
        start(node.id)
        stack: List[List[int]] = [[node.id, 0]]
        while stack:
            frame = stack[-1]
            current, k = frame
            below = children.get(current, ())
            if k >= len(below):
                stack.pop()
                continue
            child = below[k]
            if child not in leaves:
                # expand the child first; this frame merges it when control returns here
                start(child)
                stack.append([child, 0])
                continue
            for leaf in leaves[child]:
                if leaf not in seen[current]:
                    seen[current].add(leaf)
                    leaves[current].append(leaf)
            frame[1] = k + 1
    text = graph.input
    if text:
        return {node: explode(sorted(found), text) for node, found in leaves.items()}
    return {node: tuple(sorted(found)) for node, found in leaves.items()}


def items(graph: Graph) -> Dict[Tuple[str, str], Set[Tuple[Any, ...]]]:
    """The item sets of a graph by (measure, bucket)."""
    edges = normal_edges(graph)
    identity = yields(graph, edges)
    result: Dict[Tuple[str, str], Set[Tuple[Any, ...]]] = {
        (measure, bucket): set() for measure in MEASURES for bucket in BUCKETS
    }
    for edge in edges:
        bucket = "remote" if is_remote(edge) else "primary"
        source, target = identity[edge.source], identity[edge.target]
        result[("labeled", bucket)].add((source, target, edge.label))
        result[("unlabeled", bucket)].add((source, target))
    return result


def score_pair(gold: Graph, system: Graph) -> Dict[Tuple[str, str], Tuple[int, int, int]]:
    """(g, s, c) by (measure, bucket) for one pair."""
    ours, theirs = items(gold), items(system)
    return {key: (len(ours[key]), len(theirs[key]), len(ours[key] & theirs[key])) for key in ours}


class UCCA(Metric):
    """The UCCA measures: primary and remote edges between yields, labeled and unlabeled."""

    name = "ucca"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: tuples counted: linear in the pair
    preparation_per_cell = 0
    summary = "UCCA: primary and remote edges matched by their spans"
    normalization = "case+anchors+edges"
    primary = ("labeled", "primary")

    def score(self, pair: Pair, options: Options) -> PairCounts:
        return PairCounts({key: counts for key, counts in score_pair(pair.gold, pair.system).items()})

    def report(self, run: Run) -> Dict[str, Any]:
        return {measure: {bucket: prf(*run.totals.get((measure, bucket), (0, 0, 0))) for bucket in BUCKETS}
                for measure in MEASURES}


METRIC = UCCA()

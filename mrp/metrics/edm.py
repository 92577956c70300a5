"""The EDM metric (Elementary Dependency Match): tuples over nodes identified by their anchoring.

There is no node correspondence to search for.  A node *is* its anchoring:
the exploded character positions (``mrp.normalize.explode``) when both the
gold and the system graph have an input string, otherwise the tuple of its
normalized spans in list order.  Per pair, four sets are compared:

* names: (identity, label) for every labelled node;
* arguments: (identity(source), identity(target), label) for every edge
  (edge attributes are ignored);
* tops: identity of every top node;
* properties: (identity, name, value) for every property.

Everything is a set, so nodes with equal anchoring collapse; in particular all
unanchored nodes share one identity (``()`` or ``frozenset()``).  ``all`` sums
the four types.  Graphs are normalized first with the MRP rules in the
reference scorer's order: anchor union then trimming, lowercasing, inverted
edges restored, default edge attributes dropped.

Deliberate differences from the reference scorer (``mtool``, score/edm.py):

* Per-item ``scores`` (with ``--trace``) are keyed by framework, then graph
  id: ``{"scores": {framework: {id: {...}}}}``.  The reference keys them by id
  only, so the same id in two frameworks overwrites an earlier item.
* A graph without input whose node anchors are not one contiguous run crashes
  the reference (during normalization); here only adjacent spans merge
  (``mrp.normalize.union_anchors``) and the pair is scored.
* An edge or top that names no node crashes the reference; our reader rejects
  such graphs, and the helpers below skip such references defensively.
* ``--trace --trace`` makes the reference print the tuple sets to stdout,
  corrupting its JSON; there is no such mode here.

``normal_spans`` and ``normal_edges`` are shared with the SDP and UCCA metrics.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, FrozenSet, Hashable, List, NamedTuple, Optional, Set, Tuple

from mrp.engine import ACCOUNTING, FIGURES, SCORES, TIME, Metric, N, Options, Pair, PairCounts, Run, prf
from mrp.errors import MRPWarning
from mrp.graph import Anchor, Graph
from mrp.normalize import explode, lower, normal_edge, normalize_anchors

#: The tuple types in the reference's output order.
TYPES = ("names", "arguments", "tops", "properties")


class NormalEdge(NamedTuple):
    """An edge after normalization: direction restored, label lowercased, default attributes dropped."""

    source: int
    target: int
    label: Optional[str]
    attributes: FrozenSet[Tuple[str, str]]


def normal_spans(graph: Graph) -> Dict[int, List[Anchor]]:
    """Node id -> its anchor spans after union and trimming (empty when it covers nothing)."""
    return {node.id: normalize_anchors(node.anchors, graph.input) or [] for node in graph.nodes}


def normal_edges(graph: Graph) -> List[NormalEdge]:
    """The edges after inversion, lowercasing and dropping default attributes, in list order.

    Edges naming an unknown node are skipped (the reader never lets one through).
    """
    known = {node.id for node in graph.nodes}
    edges = []
    for edge in graph.edges:
        if edge.source not in known or edge.target not in known:
            continue
        source, target, label, attributes = normal_edge(edge)
        edges.append(NormalEdge(source, target, label, attributes))
    return edges


def tuples(graph: Graph, positions: bool) -> Dict[str, Set[Any]]:
    """The four EDM tuple sets of a graph; identities are exploded positions when ``positions``."""
    spans = normal_spans(graph)
    identity: Dict[int, Hashable] = {
        node: explode(s, graph.input) if positions else tuple(s) for node, s in spans.items()
    }
    names: Set[Any] = set()
    properties: Set[Any] = set()
    for node in graph.nodes:
        if node.label is not None:
            names.add((identity[node.id], lower(node.label)))
        for name, value in zip(node.properties, node.values):
            properties.add((identity[node.id], lower(name), lower(value)))
    tops = {identity[top] for top in graph.tops if top in identity}
    arguments = {(identity[e.source], identity[e.target], e.label) for e in normal_edges(graph)}
    return {"names": names, "arguments": arguments, "tops": tops, "properties": properties}


def score_pair(gold: Graph, system: Graph) -> Dict[str, Tuple[int, int, int]]:
    """(g, s, c) per tuple type for one pair."""
    positions = bool(gold.input) and bool(system.input)
    ours, theirs = tuples(gold, positions), tuples(system, positions)
    return {name: (len(ours[name]), len(theirs[name]), len(ours[name] & theirs[name])) for name in TYPES}


class EDMWarning(MRPWarning):
    """EDM was asked to score graphs whose nodes it cannot tell apart (no anchors)."""


class EDM(Metric):
    """Elementary dependency match: tuples over nodes identified by their anchoring."""

    name = "edm"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: tuples counted: linear in the pair
    preparation_per_cell = 0
    layout = (N, SCORES, FIGURES, TIME, "unanchored", ACCOUNTING)
    summary = "EDM: anchored tuples matched by their character spans (no search)"
    normalization = "case+anchors+edges"
    primary = ("all",)

    def score(self, pair: Pair, options: Options) -> PairCounts:
        # one unanchored node is an identity like any other; two or more are one node to EDM
        unanchored = any(sum(not node.anchors for node in graph.nodes) > 1
                         for graph in (pair.gold, pair.system))
        return PairCounts({(name,): counts for name, counts in score_pair(pair.gold, pair.system).items()},
                          extra={"unanchored": unanchored})

    def report(self, run: Run) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        unanchored = sum(bool(result.extra.get("unanchored")) for result in run.results)
        if unanchored:
            warnings.warn(f"edm: {unanchored} of {run.n} pairs have several nodes without anchors; EDM "
                          "identifies a node by its anchors, so they count as one node (extra or "
                          "missing unanchored nodes are not seen): score unanchored graphs with mrp or "
                          "smatch", EDMWarning, stacklevel=2)
        for name in TYPES:
            out[name] = prf(*run.totals.get((name,), (0, 0, 0)))
        out["all"] = prf(*(sum(run.totals.get((name,), (0, 0, 0))[k] for name in TYPES) for k in range(3)))
        if unanchored:
            out["unanchored"] = unanchored
        return out


METRIC = EDM()

"""The SDP metric: labeled and unlabeled dependencies between nodes identified by their spans.

A node is the tuple of its normalized anchor spans (union then trimming, in
list order; not exploded, so it does not depend on the input string).  Per
pair, the labeled items are (identity(source), identity(target), label) for
every edge plus a *virtual root edge* (-1, identity(top), None) for every top
node; the unlabeled items drop the label.  Node labels and properties are
ignored.  g, s and c are summed over the corpus; ``m`` is the fraction of pairs
whose item sets are identical (per item: 1 or 0).  Graphs are normalized first
with the MRP rules, as the reference scorer does under ``--score``.

Deliberate differences from the reference scorer (``mtool``, score/sdp.py):

* Per-item ``scores`` (with ``--trace``) are keyed by framework, then graph
  id: ``{"scores": {framework: {id: {...}}}}``; the reference keys them by id
  only, so the same id in two frameworks overwrites an earlier item.
* A graph without input whose anchors are not one contiguous run crashes the
  reference during normalization; here only adjacent spans merge and the pair
  is scored.  An edge naming no node crashes the reference; our reader rejects
  such graphs, and unknown references are skipped here.
"""

from __future__ import annotations

from typing import Any, Dict, Hashable, Set, Tuple

from mrp.engine import Metric, Options, Pair, PairCounts, Run, prf
from mrp.graph import Graph
from mrp.metrics.edm import normal_edges, normal_spans

#: The measures in the reference's output order.
MEASURES = ("labeled", "unlabeled")


def items(graph: Graph) -> Dict[str, Set[Tuple[Any, ...]]]:
    """The labeled and unlabeled dependency sets of a graph, with the virtual root edges."""
    identity: Dict[int, Hashable] = {node: tuple(spans) for node, spans in normal_spans(graph).items()}
    labeled: Set[Tuple[Any, ...]] = set()
    unlabeled: Set[Tuple[Any, ...]] = set()
    for edge in normal_edges(graph):
        labeled.add((identity[edge.source], identity[edge.target], edge.label))
        unlabeled.add((identity[edge.source], identity[edge.target]))
    for top in graph.tops:
        if top in identity:
            labeled.add((-1, identity[top], None))
            unlabeled.add((-1, identity[top]))
    return {"labeled": labeled, "unlabeled": unlabeled}


def score_pair(gold: Graph, system: Graph) -> Dict[str, Tuple[int, int, int, int]]:
    """(g, s, c, m) per measure for one pair; m is 1 when the item sets are identical."""
    ours, theirs = items(gold), items(system)
    return {
        name: (len(ours[name]), len(theirs[name]), len(ours[name] & theirs[name]),
               int(ours[name] == theirs[name]))
        for name in MEASURES
    }


class SDP(Metric):
    """The SDP 2015 measures: labeled and unlabeled dependencies, with complete-graph matches."""

    name = "sdp"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: tuples counted: linear in the pair
    preparation_per_cell = 0
    summary = "SDP 2015: labeled and unlabeled dependencies of bilexical graphs"
    normalization = "case+anchors+edges"
    primary = ("labeled",)
    letters = "gscm"

    def score(self, pair: Pair, options: Options) -> PairCounts:
        return PairCounts({(name,): counts for name, counts in score_pair(pair.gold, pair.system).items()})

    def report(self, run: Run) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for name in MEASURES:
            g, s, c, matches = run.totals.get((name,), (0, 0, 0, 0))
            out[name] = prf(g, s, c)
            out[name]["m"] = matches / run.n if run.n else 0.0
        return out


METRIC = SDP()

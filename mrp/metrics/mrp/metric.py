"""The MRP metric over a whole pairing (on the shared corpus driver).

Each pair is scored in isolation: an exception while scoring one pair is
reported for that item (its gold tuples count as missed, its system tuples
as surplus, and its upper bound is min(g, s)) and the run goes on.  Pairs
stopped by ``--limit`` or ``--timeout`` keep the best correspondence found
and their upper bound; the result counts them under ``cut`` with the F
interval they imply.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from mrp.engine import (
    ACCOUNTING,
    DOC_ALIGN,
    EXACT,
    FIGURES,
    SCORES,
    SEARCH,
    TIME,
    Metric,
    N,
    Options,
    Pair,
    PairCounts,
    Run,
    Steps,
    doc_align_field,
    doc_align_report,
    prf,
    score_together,
)
from mrp.engine import CountPath as Path
from mrp.graph import Graph
from mrp.metrics.mrp.pair import PairScore, Solution, identity, same, score_normal, scored, sentence_groups
from mrp.metrics.mrp.tuples import TYPES, count
from mrp.normalize import NormalGraph, normalize
from mrp.solver import Rows, normal_rows

_KEYS = TYPES + ("all",)


def _result(score: PairScore) -> PairCounts:
    return PairCounts({(name,): score.counts[name] for name in _KEYS}, exact=score.exact, bound=score.bound,
                      steps=score.steps, cut=score.cut, failure=score.failure, errors=score.errors,
                      note=score.note, detail=score.detail,
                      extra={"gap": score.gap} if score.gap is not None else {})


class MRP(Metric):
    """The MRP metric: tuple counts by type under an optimal node correspondence."""

    name = "mrp"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: its node-pair arrays are the search's, capped there (mrp.solver.greedy.fits)
    preparation_per_cell = 0
    symmetric = True
    summary = "the MRP metric: tuples by type (tops, labels, properties, anchors, edges, attributes), exact"
    normalization = "case+anchors+edges"
    primary = ("all",)
    stopped_by_solver = True
    searches = True
    explains = True
    parameters = (DOC_ALIGN,)
    layout = (N, "null", EXACT, FIGURES, SCORES, TIME, SEARCH, ACCOUNTING, "doc_align")

    def prepare(self, options: Options) -> None:
        self.load_solver(options)

    def signature_fields(self, options: Options) -> List[str]:
        return doc_align_field(options)

    def main(self) -> Path:
        return ("all",)

    def scored_pair(self, pair: Pair) -> Pair:
        """The pair as this metric scores it (here: as given; :mod:`mrp.metrics.unlabeled` drops labels)."""
        return pair

    def score(self, pair: Pair, options: Options) -> PairCounts:
        pair = self.scored_pair(pair)
        gold, system = pair.gold, pair.system
        return _result(score_normal(normalize(gold), normalize(system), options.limit, options.errors,
                                    options.timeout, (gold, system), options.mip,
                                    options.explain, options.doc_align == "sentence", options.max_memory))

    def score_many(self, pairs: Sequence[Pair], options: Options) -> List[Optional[PairCounts]]:
        return score_together(_Together(self), pairs, options)

    def alone(self, graph: Graph, gold: bool, options: Options) -> Dict[Path, Tuple[Any, ...]]:
        normal = normalize(graph)
        empty = normalize(graph.empty_copy())
        counts = count(normal, empty, [-1] * len(normal)) if gold else count(empty, normal, [])
        return {(name,): counts[name] for name in _KEYS}

    def item(self, pair: Pair, result: PairCounts) -> Dict[str, Any]:
        out = super().item(pair, result)
        if pair.null:
            out["null"] = True
        return out

    def report(self, run: Run) -> Dict[str, Any]:
        out: Dict[str, Any] = {"null": sum(pair.null for pair in run.pairing.pairs)}
        for name in _KEYS:
            out[name] = prf(*run.totals.get((name,), (0, 0, 0)))
        out.update(doc_align_report(run))
        return out


class _Together(Steps):
    """The MRP metric's steps for :func:`mrp.engine.together.score_together`: a pair's forms are its normal
    graphs; a pair with an empty side, a document or gold edges with attributes is scored alone."""

    def __init__(self, metric: MRP) -> None:
        self.metric = metric

    def forms(self, pair: Pair) -> Optional[Tuple[NormalGraph, NormalGraph]]:
        pair = self.metric.scored_pair(pair)
        gold, system = pair.gold, pair.system
        if not (gold.nodes and system.nodes) or any(edge.attributes for edge in gold.edges) \
                or sentence_groups((gold, system), len(gold.nodes), len(system.nodes)) is not None:
            return None  # alone: its normal graphs are made there, once
        return normalize(gold), normalize(system)

    def at_once(self, pair: Pair, gold: NormalGraph, system: NormalGraph) -> Optional[PairCounts]:
        return _result(scored(gold, system, identity(len(gold)))) if same(gold, system) else None

    def rows(self, gold: NormalGraph, system: NormalGraph) -> Rows:
        return normal_rows(gold, system)

    def solved(self, pair: Pair, gold: NormalGraph, system: NormalGraph, solution: Solution) -> PairCounts:
        return _result(scored(gold, system, solution))


METRIC = MRP()

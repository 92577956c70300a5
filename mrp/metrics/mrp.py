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

from mrp.graph import Graph
from mrp.metrics.base import Metric, PairResult, Run
from mrp.metrics.counting import Path, prf
from mrp.metrics.documents import DOC_ALIGN, doc_align_field, doc_align_report
from mrp.metrics.driver import evaluate as drive
from mrp.metrics.mrp_pair import (
    PairScore,
    identity,
    same,
    score_normal,
    scored,
    sentence_groups,
    solve_together,
    together,
)
from mrp.metrics.options import Options
from mrp.metrics.pairing import Pair, Pairing
from mrp.metrics.tuples import TYPES, count
from mrp.normalize import NormalGraph, normalize
from mrp.solver.problem import normal_rows

_KEYS = TYPES + ("all",)


def _result(score: PairScore) -> PairResult:
    return PairResult({(name,): score.counts[name] for name in _KEYS}, exact=score.exact, bound=score.bound,
                      steps=score.steps, cut=score.cut, failure=score.failure, errors=score.errors,
                      note=score.note, detail=score.detail,
                      extra={"gap": score.gap} if score.gap is not None else {})


class MRP(Metric):
    """The MRP metric: tuple counts by type under an optimal node correspondence."""

    name = "mrp"
    summary = "the MRP metric: tuples by type (tops, labels, properties, anchors, edges, attributes), exact"
    normalization = "case+anchors+edges"
    primary = ("all",)
    searches = True
    explains = True
    parameters = (DOC_ALIGN,)

    def prepare(self, options: Options) -> None:
        self.load_solver(options)

    def signature_fields(self, options: Options) -> List[str]:
        return doc_align_field(options)

    def main(self) -> Path:
        return ("all",)

    def scored_pair(self, pair: Pair) -> Pair:
        """The pair as this metric scores it (here: as given; :mod:`mrp.metrics.unlabeled` drops labels)."""
        return pair

    def score(self, pair: Pair, options: Options) -> PairResult:
        pair = self.scored_pair(pair)
        gold, system = pair.gold, pair.system
        return _result(score_normal(normalize(gold), normalize(system), options.limit, options.errors,
                                    options.timeout, (gold, system), options.mip,
                                    options.explain, options.doc_align == "sentence"))

    def score_many(self, pairs: Sequence[Pair], options: Options) -> List[Optional[PairResult]]:
        return score_together(self, pairs, options)

    def alone(self, graph: Graph, gold: bool, options: Options) -> Dict[Path, Tuple[Any, ...]]:
        normal = normalize(graph)
        empty = normalize(graph.empty_copy())
        counts = count(normal, empty, [-1] * len(normal)) if gold else count(empty, normal, [])
        return {(name,): counts[name] for name in _KEYS}

    def item(self, pair: Pair, result: PairResult) -> Dict[str, Any]:
        out = super().item(pair, result)
        if pair.null:
            out["null"] = True
        return out

    def report(self, run: Run) -> Dict[str, Any]:
        out: Dict[str, Any] = {"n": run.n, "null": sum(pair.null for pair in run.pairing.pairs),
                               "exact": sum(result.exact for result in run.results)}
        for name in _KEYS:
            out[name] = prf(*run.totals.get((name,), (0, 0, 0)))
        if run.options.trace:
            out["scores"] = run.scores(self.item)
        out["time"], out["cpu"] = run.seconds()
        out.update(run.search(("all",)))
        out.update(run.accounting())
        out.update(doc_align_report(run))
        return out


def score_together(metric: MRP, pairs: Sequence[Pair], options: Options) -> List[Optional[PairResult]]:
    """The results of the sentence pairs that :func:`mrp.metrics.mrp_pair.solve_together` settles (and of
    identical pairs), None for the others (documents, gold edges with attributes, an empty side, a search
    that goes on, ``errors`` or ``explain`` asked for): each the result ``metric.score`` gives it."""
    out: List[Optional[PairResult]] = [None] * len(pairs)
    if options.errors or options.explain or not together(options.timeout, options.mip):
        return out
    todo: List[Tuple[int, NormalGraph, NormalGraph]] = []
    for k, pair in enumerate(pairs):
        live = metric.scored_pair(pair.live())
        gold, system = live.gold, live.system
        if not (gold.nodes and system.nodes) or any(edge.attributes for edge in gold.edges) \
                or sentence_groups((gold, system), len(gold.nodes), len(system.nodes)) is not None:
            continue  # alone: its normal graphs are made there, once
        normal_gold, normal_system = normalize(gold), normalize(system)
        if same(normal_gold, normal_system):
            out[k] = _result(scored(normal_gold, normal_system, identity(len(normal_gold))))
        else:
            todo.append((k, normal_gold, normal_system))
    solutions = solve_together([normal_rows(normal_gold, normal_system) for _, normal_gold, normal_system
                                in todo], options.limit, options.timeout, options.mip)
    for (k, normal_gold, normal_system), solution in zip(todo, solutions):
        if solution is not None:
            out[k] = _result(scored(normal_gold, normal_system, solution))
    return out


METRIC = MRP()


def evaluate(pairing: Pairing, options: Optional[Options] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The MRP result of a pairing (mtool's layout, then new keys), and the --errors data."""
    return drive(METRIC, pairing, options)

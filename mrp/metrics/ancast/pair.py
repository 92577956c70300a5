"""AnCast scores of one graph pair, and of a pairing (``evaluate``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from mrp.codecs.umr import token_spans
from mrp.engine import Options, Pair
from mrp.errors import ScoreError
from mrp.graph import Graph
from mrp.metrics.ancast import capped, compat, exact, knobs
from mrp.metrics.ancast.alignment import Alignment, from_map
from mrp.metrics.ancast.reading import View, anchor_text, view
from mrp.metrics.ancast.scores import Sums, report, score
from mrp.metrics.ancast.similarity import SENSE_COEFFICIENT, Pointwise, Similarity


@dataclass
class AncastPair:
    """One pair: its sums per side, the per-pair item, and the solver's verdict."""

    precision: Sums
    recall: Sums
    item: Dict[str, Any]
    exact: bool
    #: upper bound on the LRM numerator (the numerator itself when nothing better can exist)
    bound: float
    steps: int = 0
    cut: Optional[str] = None
    #: why AnCast 0.1.1 would skip the pair (compat only)
    skipped: Optional[str] = None
    alignment: Optional[Alignment] = None
    #: the variables of the test and the gold graph, by node position
    variables: Tuple[List[str], List[str]] = ([], [])


def _is_umr(graph: Graph) -> bool:
    return (graph.framework or "").lower() == "umr"


def _spans(graph: Graph, read: bool) -> List[Tuple[int, int]]:
    """Per node the first token span of its alignment ((0, 0) for none, and for all unless ``read``)."""
    found = token_spans(graph) if read else {}
    return [found[node.id][0] if found.get(node.id) else (0, 0) for node in graph.nodes]


def views(gold: Graph, system: Graph, compat_mode: bool, scope: Optional[str] = None,
          alignment: bool = False) -> Tuple[View, View]:
    """The AnCast views of the test (system) and the gold graph.

    With ``compat``, the text searched for anchors is AnCast's: at document scope (UMR graphs with
    document annotation, as AnCast++ reads them, unless ``scope`` is "snt") the test sentence's header on
    both sides; else each sentence's own line.  With ``alignment`` (AnCast's --use-alignment), the anchors
    come from the alignments instead, which AnCast reads at document scope alone.
    """
    umr = _is_umr(gold) or _is_umr(system)
    if not compat_mode:
        return view(system, False, umr), view(gold, False, umr)
    if scope != "snt" and (gold.document is not None or system.document is not None):
        text = anchor_text(system if system.document is not None else gold, "doc")
        test, gold_view = view(system, True, umr, text), view(gold, True, umr, text)
        read = True
    else:
        test = view(system, True, umr, anchor_text(system, "snt"))
        gold_view = view(gold, True, umr, anchor_text(gold, "snt"))
        read = False
    if alignment:
        test.spans, gold_view.spans = _spans(system, read), _spans(gold, read)
    return test, gold_view


def _optimal(test: View, gold: View, sim: Similarity,
             options: Options) -> Tuple[Alignment, exact.ExactResult]:
    found = exact.solve(test, gold, sim, options.limit, options.timeout, options.mip)
    return from_map(found.mapping, len(gold), sim), found


def score_views(test: View, gold: View, options: Options, gid: str = "") -> AncastPair:
    """Score two AnCast views: AnCast's alignment with ``ancast_compat``, else the proved optimum; a pair
    whose structures would exceed ``options.max_memory`` in either mode: :func:`beyond`."""
    if not capped.fits(len(test), len(gold), options.max_memory, options.ancast_compat):
        return beyond(test, gold, options.ancast_compat, knobs.sense(options))
    sim = Similarity(test, gold, knobs.sense(options))
    if options.ancast_compat:
        alignment = compat.align(test, gold, sim, knobs.cneighbor(options), knobs.separate(options))
        precision, recall = score(test, gold, sim, alignment, True)
        item: Dict[str, Any] = dict(report(precision, recall, True))
        result = AncastPair(precision, recall, item, False, precision.lr, alignment=alignment)
        if options.trace:
            best, found = _optimal(test, gold, sim, options)
            p_best, r_best = score(test, gold, sim, best, True)
            optimum = report(p_best, r_best, True)["lrm"]
            item["optimum"] = {"lrm": optimum, "lost": optimum["f"] - item["lrm"]["f"], "exact": found.exact}
            result.exact = found.complete and found.exact and abs(found.lr - precision.lr) < 1e-9
            result.bound = found.bound if found.complete else capped.bound(p_best.lr_count, r_best.lr_count)
        skip = test.skip or gold.skip
        if skip is not None:
            result.skipped = skip
            item["skipped"] = skip
        return result
    alignment, found = _optimal(test, gold, sim, options)
    precision, recall = score(test, gold, sim, alignment, False)
    if not found.complete:  # the clock stopped building: the map is counted here, the bound is trivial
        return _unbuilt(precision, recall, alignment, found)
    slack = 1e-6 * max(1.0, found.lr)
    if found.rounded:  # each relation pair's weight was rounded to 1 / (2 * scale)
        slack += (len(test.relations) + 1) / found.scale
    if abs(precision.lr - found.lr) > slack or abs(recall.lr - precision.lr) > 1e-6 * max(1.0, found.lr):
        raise ScoreError(f"graph {gid}: internal error: solver LRM {found.lr} but the alignment gives "
                         f"{precision.lr}")
    item = dict(report(precision, recall, False))
    item.update(exact=found.exact, bound=found.bound, steps=found.steps)
    if found.cut:  # as every searching metric's item shows it (and a pair beyond the cap, beyond())
        item["cut"] = found.cut
    if found.rounded:
        item["rounded"] = True
    result = AncastPair(precision, recall, item, found.exact, found.bound, found.steps, found.cut,
                        alignment=alignment)
    return result


def _unbuilt(precision: Sums, recall: Sums, alignment: Alignment, found: exact.ExactResult) -> AncastPair:
    """A pair whose Problem the clock stopped building (its solver's value and bound count node rewards
    only): its map as counted, cut as the solver's cut, with the trivial bound of the LRM numerator."""
    bound = capped.bound(precision.lr_count, recall.lr_count)
    item: Dict[str, Any] = dict(report(precision, recall, False))
    cut = found.cut or "timeout"
    item.update(exact=False, bound=bound, steps=found.steps, cut=cut)
    return AncastPair(precision, recall, item, False, bound, found.steps, cut, alignment=alignment)


def beyond(test: View, gold: View, compat_mode: bool, sense: float = SENSE_COEFFICIENT) -> AncastPair:
    """A pair beyond ``--max-memory``: the linear-time map (:func:`.capped.linear_map`) counted as the
    mode counts, nothing n x m built, cut as "limit", not exact, with the trivial bound of the LRM
    numerator.  In compat mode too: AnCast's own alignment would need the matrices, so its figures cannot
    be reproduced for such a pair; it is scored and reported cut rather than left to exhaust memory.

    Args:
        test: the test (system) graph.
        gold: the gold graph.
        compat_mode: count as AnCast 0.1.1 does (``ancast_compat``).
        sense: the sense coefficient.

    Returns:
        The pair's result.
    """
    sim = Pointwise(test, gold, sense)
    alignment = from_map(capped.linear_map(test, gold), len(gold), sim)
    precision, recall = score(test, gold, sim, alignment, compat_mode)
    bound = capped.bound(precision.lr_count, recall.lr_count)
    item: Dict[str, Any] = dict(report(precision, recall, compat_mode))
    item.update(exact=False, bound=bound, steps=0, cut="limit")
    result = AncastPair(precision, recall, item, False, bound, cut="limit", alignment=alignment)
    skip = test.skip or gold.skip if compat_mode else None
    if skip is not None:
        result.skipped = item["skipped"] = skip
    return result


def score_pair(gold: Graph, system: Graph, options: Optional[Options] = None) -> AncastPair:
    """AnCast scores of a system graph against a gold graph."""
    options = options or Options()
    test, gold_view = views(gold, system, options.ancast_compat, options.ancast_scope,
                            knobs.use_alignment(options))
    test.top = gold_view.top = knobs.smatch_top(options)
    result = score_views(test, gold_view, options, gold.id)
    result.variables = (test.variables, gold_view.variables)
    return result


def failed(pair: Pair, options: Options, failure: str, cut: str = "error") -> AncastPair:
    """A pair whose scoring raised (``cut`` "error"), or that the driver stopped at its limits (``cut``
    "timeout" or "limit", :mod:`mrp.engine.limits`): nothing aligned, so the gold graph's relations count
    as missed (and the system graph's as surplus, when it can be read at all); a failure never raises a
    score (and builds nothing n x m).  A stopped pair's WLRM weighs every relation 1 (its descendant
    counts are not taken again: they may be what stopped it), its bound is the trivial one."""
    precision, recall = Sums(), Sums()
    for system in (pair.system, pair.system.empty_copy()):
        try:
            test, gold = views(pair.gold, system, options.ancast_compat, options.ancast_scope)
            test.top = gold.top = knobs.smatch_top(options)
            if cut != "error":
                test.unweighted()
                gold.unweighted()
            sim = Pointwise(test, gold, knobs.sense(options))
            precision, recall = score(test, gold, sim, from_map([-1] * len(test), len(gold), sim),
                                      options.ancast_compat)
            break
        except Exception:  # noqa: BLE001 - try again without the system graph
            continue
    item: Dict[str, Any] = dict(report(precision, recall, options.ancast_compat))
    if cut == "error":
        item["error"] = failure
        return AncastPair(precision, recall, item, False, precision.lr_count, cut="error")
    bound = capped.bound(precision.lr_count, recall.lr_count)
    item.update(exact=False, bound=bound, steps=0, cut=cut, note=failure)
    return AncastPair(precision, recall, item, False, bound, cut=cut)

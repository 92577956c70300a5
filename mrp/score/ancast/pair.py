"""AnCast scores of one graph pair, and of a pairing (``evaluate``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ...errors import ScoreError
from ...graph import Graph
from ..metrics import Options, Progress
from ..pairing import Pair, Pairing
from . import compat, exact
from .alignment import Alignment, from_map
from .reading import View, view
from .scores import KEYS, Sums, f_score, report, score
from .similarity import Similarity


@dataclass
class PairResult:
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


def _is_umr(graph: Graph) -> bool:
    return (graph.framework or "").lower() == "umr"


def views(gold: Graph, system: Graph, compat_mode: bool, text: Optional[str] = None) -> Tuple[View, View]:
    """The AnCast views of the test (system) and the gold graph."""
    umr = _is_umr(gold) or _is_umr(system)
    return view(system, compat_mode, umr, text), view(gold, compat_mode, umr)


def _pairs(alignment: Alignment, test: View, gold: View) -> List[List[Optional[str]]]:
    return [[test.variables[i], gold.variables[j] if j >= 0 else None] for i, j in enumerate(alignment.t2g)]


def _optimal(test: View, gold: View, sim: Similarity,
             options: Options) -> Tuple[Alignment, exact.ExactResult]:
    found = exact.solve(test, gold, sim, options.limit, options.timeout)
    return from_map(found.mapping, len(gold), sim), found


def score_views(test: View, gold: View, options: Options, gid: str = "") -> PairResult:
    """Score two AnCast views: AnCast's alignment with ``ancast_compat``, else the proved optimum."""
    sim = Similarity(test, gold)
    if options.ancast_compat:
        alignment = compat.align(test, gold, sim)
        precision, recall = score(test, gold, sim, alignment, True)
        item: Dict[str, Any] = dict(report(precision, recall, True))
        result = PairResult(precision, recall, item, False, precision.lr, alignment=alignment)
        if options.trace:
            best, found = _optimal(test, gold, sim, options)
            p_best, r_best = score(test, gold, sim, best, True)
            optimum = report(p_best, r_best, True)["lrm"]
            item["optimum"] = {"lrm": optimum, "lost": optimum["f"] - item["lrm"]["f"], "exact": found.exact}
            result.exact = found.exact and abs(found.lr - precision.lr) < 1e-9
            result.bound = found.bound
        skip = test.skip or gold.skip
        if skip is not None:
            result.skipped = skip
            item["skipped"] = skip
        return result
    alignment, found = _optimal(test, gold, sim, options)
    precision, recall = score(test, gold, sim, alignment, False)
    if abs(precision.lr - found.lr) > 1e-6 * max(1.0, found.lr) or abs(recall.lr - precision.lr) > 1e-6 * max(
            1.0, found.lr):
        raise ScoreError(f"graph {gid}: internal error: solver LRM {found.lr} but the alignment gives "
                         f"{precision.lr}")
    item = dict(report(precision, recall, False))
    item.update(exact=found.exact, bound=found.bound, steps=found.steps)
    if found.rounded:
        item["rounded"] = True
    result = PairResult(precision, recall, item, found.exact, found.bound, found.steps, found.cut,
                        alignment=alignment)
    return result


def score_pair(gold: Graph, system: Graph, options: Optional[Options] = None) -> PairResult:
    """AnCast scores of a system graph against a gold graph."""
    options = options or Options()
    test, gold_view = views(gold, system, options.ancast_compat)
    return score_views(test, gold_view, options, gold.id)


def _failed(pair: Pair, options: Options, error: Exception) -> PairResult:
    """A pair whose scoring raised: nothing aligned (a lower bound), or nothing at all."""
    try:
        test, gold = views(pair.gold, pair.system, options.ancast_compat)
        sim = Similarity(test, gold)
        precision, recall = score(test, gold, sim, from_map([-1] * len(test), len(gold), sim),
                                  options.ancast_compat)
    except Exception:  # noqa: BLE001 - not even the views can be built
        precision, recall = Sums(), Sums()
    item: Dict[str, Any] = dict(report(precision, recall, options.ancast_compat))
    item["error"] = f"{type(error).__name__}: {error}"
    return PairResult(precision, recall, item, False, precision.lr_count, cut="error")


def _isolated(pair: Pair, options: Options, progress: Progress) -> PairResult:
    try:
        return score_pair(pair.gold, pair.system, options)
    except Exception as error:  # noqa: BLE001 - one pair's failure must not end the run
        progress.problem(pair.gold, f"scoring failed: {type(error).__name__}: {error}")
        return _failed(pair, options, error)


class Totals:
    """Micro sums and macro lists over pairs."""

    def __init__(self) -> None:
        self.precision, self.recall = Sums(), Sums()
        self.f: Dict[str, List[float]] = {key: [] for key in KEYS}
        self.bound = 0.0
        self.n = 0

    def add(self, result: PairResult) -> None:
        """Count one pair."""
        self.precision.add(result.precision)
        self.recall.add(result.recall)
        for key in KEYS:
            self.f[key].append(result.item[key]["f"])
        self.bound += result.bound
        self.n += 1

    def to_json(self, compat_mode: bool) -> Dict[str, Any]:
        """Micro P/R/F per metric, then the macro F means."""
        out: Dict[str, Any] = dict(report(self.precision, self.recall, compat_mode))
        out["macro"] = {key: (sum(values) / len(values) if values else 0.0) for key, values in self.f.items()}
        return out


def _bound(totals: Totals) -> Dict[str, float]:
    p_count, r_count = totals.precision.lr_count, totals.recall.lr_count
    p = totals.bound / p_count if p_count else 0.0
    r = totals.bound / r_count if r_count else 0.0
    return {"p": p, "r": r, "f": f_score(p, r)}


def evaluate(pairing: Pairing, options: Options) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The AnCast result of a pairing: n, micro P/R/F per metric, macro F, exact, bound, skipped, time."""
    start, cpu = time.time(), time.process_time()
    progress = options.progress or Progress()
    progress.start(len(pairing.pairs))
    kept, every = Totals(), Totals()
    skipped: Dict[str, str] = {}
    scores: Dict[str, Dict[str, Any]] = {}
    exact_count = steps = 0
    cut = {"limit": 0, "timeout": 0, "error": 0}
    for pair in pairing.pairs:
        result = _isolated(pair, options, progress)
        every.add(result)
        if result.skipped is None:
            kept.add(result)
        else:
            skipped[pair.gold.id] = result.skipped
        exact_count += result.exact
        steps += result.steps
        if result.cut is not None:
            cut[result.cut] += 1
        progress.advance(result.cut is not None)
        if options.trace:
            item = dict(result.item)
            if result.alignment is not None:
                test, gold = views(pair.gold, pair.system, options.ancast_compat)
                item["alignment"] = _pairs(result.alignment, test, gold)
            item["precision"] = result.precision.to_json()
            item["recall"] = result.recall.to_json()
            scores.setdefault(pair.gold.framework or "none", {})[pair.gold.id] = item
    progress.finish()
    out: Dict[str, Any] = {"n": len(pairing.pairs)}
    out.update((kept if options.ancast_compat else every).to_json(options.ancast_compat))
    out["exact"] = exact_count
    if options.ancast_compat:
        out["skipped"] = {"n": len(skipped), "ids": sorted(skipped)}
        if skipped:
            out["with_skipped"] = every.to_json(True)
    if options.trace:
        out["scores"] = scores
    out["time"] = time.time() - start
    out["cpu"] = time.process_time() - cpu
    if not options.ancast_compat or options.trace:
        out["bound"] = {"lrm": _bound(every)}
    out["steps"] = steps
    out["cut"] = cut
    out["compat"] = options.ancast_compat
    out["invalid"] = len(pairing.invalid)
    return out, {}

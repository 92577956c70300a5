"""Scoring a whole pairing with the MRP metric, optionally in several processes."""

from __future__ import annotations

import os
import time
from typing import Any, Dict, Iterator, Optional, Sequence, Tuple

from ..normalize import normalize
from ..report import prf
from .metrics import Options
from .mrp import PairScore, score_normal
from .pairing import Pair, Pairing
from .tuples import TYPES

_KEYS = TYPES + ("all",)


def _score_one(job: Tuple[Pair, Optional[int], bool]) -> PairScore:
    pair, limit, errors = job
    return score_normal(normalize(pair.gold), normalize(pair.system), limit, errors)


def score_pairs(pairs: Sequence[Pair], limit: Optional[int] = None, errors: bool = False,
                jobs: int = 1) -> Iterator[PairScore]:
    """Scores of the pairs, in order; with ``jobs`` > 1 in worker processes."""
    work = [(pair, limit, errors) for pair in pairs]
    if jobs <= 1 or len(work) < 2:
        for job in work:
            yield _score_one(job)
        return
    import multiprocessing

    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    chunk = max(1, min(64, len(work) // (jobs * 4) or 1))
    with context.Pool(jobs) as pool:
        yield from pool.imap(_score_one, work, chunksize=chunk)


def evaluate(pairing: Pairing, options: Optional[Options] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The MRP result of a pairing (mtool's layout, then new keys), and the --errors data."""
    options = options or Options()
    limit, trace, errors, jobs = options.limit, options.trace, options.errors, options.jobs
    start, cpu = time.time(), time.process_time()
    children = os.times()
    totals = {name: [0, 0, 0] for name in _KEYS}
    scores: Dict[str, Dict[str, Any]] = {}
    details: Dict[str, Dict[str, Any]] = {}
    exact = bound = steps = 0
    for pair, result in zip(pairing.pairs, score_pairs(pairing.pairs, limit, errors, jobs)):
        for name in _KEYS:
            for k in range(3):
                totals[name][k] += result.counts[name][k]
        exact += result.exact
        bound += result.bound
        steps += result.steps
        framework = pair.gold.framework or "none"
        if trace:
            item: Dict[str, Any] = {
                name: dict(zip("gsc", result.counts[name])) for name in _KEYS
            }
            item.update(exact=result.exact, steps=result.steps, bound=result.bound)
            if pair.null:
                item["null"] = True
            scores.setdefault(framework, {})[pair.gold.id] = item
        if errors and result.errors is not None:
            details.setdefault(framework, {})[pair.gold.id] = result.errors
    out: Dict[str, Any] = {
        "n": len(pairing.pairs),
        "null": sum(pair.null for pair in pairing.pairs),
        "exact": exact,
    }
    for name in _KEYS:
        out[name] = prf(*totals[name])
    if trace:
        out["scores"] = scores
    after = os.times()
    out["time"] = time.time() - start
    out["cpu"] = time.process_time() - cpu + (after.children_user - children.children_user) + (
        after.children_system - children.children_system)
    g, s, _ = totals["all"]
    out["bound"] = {"c": bound, "f": prf(g, s, bound)["f"]}
    out["steps"] = steps
    out["invalid"] = len(pairing.invalid)
    out["unpaired"] = len(pairing.unpaired)
    out["duplicates"] = len(pairing.duplicates)
    return out, details


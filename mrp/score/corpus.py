"""Scoring a whole pairing with the MRP metric, optionally in several processes.

Each pair is scored in isolation: an exception while scoring one pair is
reported for that item (it counts with no tuple matched and an upper bound of
min(g, s)) and the run goes on.  Pairs stopped by ``--limit`` or ``--timeout``
keep the best correspondence found and their upper bound; the result counts
them under ``cut`` with the F interval they imply.
"""

from __future__ import annotations

import os
import signal
import time
from collections import deque
from typing import Any, Deque, Dict, Iterator, List, Optional, Sequence, Tuple

from ..normalize import normalize
from ..report import prf
from .metrics import Options, Progress
from .mrp import PairScore, score_normal
from .pairing import Pair, Pairing
from .tuples import TYPES, count

_KEYS = TYPES + ("all",)

Job = Tuple[Pair, Optional[int], bool, Optional[float]]


def _failed(pair: Pair, error: BaseException) -> PairScore:
    """The score of a pair whose scoring raised: g and s counted, nothing matched, bound min(g, s)."""
    message = f"{type(error).__name__}: {error}"
    try:
        gold, system = normalize(pair.gold), normalize(pair.system)
        counts = count(gold, system, [-1] * len(gold))
    except Exception:  # noqa: BLE001 - the pair cannot even be counted
        counts = {name: (0, 0, 0) for name in _KEYS}
    g, s, _ = counts["all"]
    return PairScore(counts=counts, exact=False, bound=min(g, s), steps=0, cut="error", failure=message)


def _score_one(job: Job) -> PairScore:
    pair, limit, errors, timeout = job
    try:
        return score_normal(normalize(pair.gold), normalize(pair.system), limit, errors, timeout)
    except Exception as error:  # noqa: BLE001 - one pair's failure must not end the run
        return _failed(pair, error)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: the pairs of the running pool, inherited by forked workers (which then receive only positions)
_WORK: List[Job] = []


def _score_many(jobs: List[Job]) -> List[PairScore]:
    return [_score_one(job) for job in jobs]


def _score_range(start: int, end: int) -> List[PairScore]:
    return _score_many(_WORK[start:end])


def score_pairs(pairs: Sequence[Pair], limit: Optional[int] = None, errors: bool = False,
                jobs: int = 1, timeout: Optional[float] = None) -> Iterator[PairScore]:
    """Scores of the pairs, in order; with ``jobs`` > 1 in worker processes.

    Forked workers inherit the pairs and receive positions only; work goes
    out in chunks, a few per worker at a time, so that the pipe to the
    workers never fills and an interrupted pool can always be stopped.
    """
    global _WORK
    work = [(pair, limit, errors, timeout) for pair in pairs]
    if jobs <= 1 or len(work) < 2:
        for job in work:
            yield _score_one(job)
        return
    import gc
    import multiprocessing

    fork = hasattr(os, "fork")
    context = multiprocessing.get_context("fork" if fork else "spawn")
    size = max(1, min(64, len(work) // (jobs * 4) or 1))
    starts = iter(range(0, len(work), size))
    _WORK = work
    gc.collect()
    gc.freeze()  # the workers' collector then leaves the inherited objects (and their pages) alone
    try:
        with context.Pool(jobs, initializer=_ignore_interrupts) as pool:
            pending: Deque[Any] = deque()

            def submit() -> None:
                start = next(starts, None)
                if start is None:
                    return
                end = min(start + size, len(work))
                pending.append(pool.apply_async(_score_range, (start, end)) if fork
                               else pool.apply_async(_score_many, (work[start:end],)))

            for _ in range(2 * jobs):
                submit()
            while pending:
                done = pending.popleft().get()
                submit()
                yield from done
    finally:
        _WORK = []
        gc.unfreeze()


def _memo_key(pair: Pair) -> Tuple[int, str]:
    from ..codecs.mrp import dumps

    return id(pair.gold), dumps(pair.system)


def _scores(pairs: Sequence[Pair], options: Options) -> Iterator[PairScore]:
    """Scores in order, reusing ``options.memo`` for a system graph already scored against the same gold."""
    memo = options.memo
    if memo is None:
        yield from score_pairs(pairs, options.limit, options.errors, options.jobs, options.timeout)
        return
    keys = [_memo_key(pair) for pair in pairs]
    todo: List[Pair] = []
    planned = set()
    for pair, key in zip(pairs, keys):
        if key not in memo and key not in planned:
            planned.add(key)
            todo.append(pair)
    fresh = score_pairs(todo, options.limit, options.errors, options.jobs, options.timeout)
    for key in keys:
        if key not in memo:
            memo[key] = next(fresh)
        yield memo[key]


def cut_summary(cut: Dict[str, int], g: int, s: int, c: int, bound: int) -> Dict[str, Any]:
    """How many pairs were stopped early (by reason) and the interval of F they leave open."""
    summary: Dict[str, Any] = {"n": sum(cut.values())}
    summary.update(cut)
    summary["f"] = [prf(g, s, c)["f"], prf(g, s, bound)["f"]]
    return summary


def evaluate(pairing: Pairing, options: Optional[Options] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The MRP result of a pairing (mtool's layout, then new keys), and the --errors data."""
    options = options or Options()
    trace, errors = options.trace, options.errors
    start, cpu = time.time(), time.process_time()
    children = os.times()
    totals = {name: [0, 0, 0] for name in _KEYS}
    scores: Dict[str, Dict[str, Any]] = {}
    details: Dict[str, Dict[str, Any]] = {}
    exact = bound = steps = 0
    cut = {"limit": 0, "timeout": 0, "error": 0}
    progress = options.progress or Progress()
    progress.start(len(pairing.pairs))
    for pair, result in zip(pairing.pairs, _scores(pairing.pairs, options)):
        for name in _KEYS:
            for k in range(3):
                totals[name][k] += result.counts[name][k]
        exact += result.exact
        bound += result.bound
        steps += result.steps
        if result.cut:
            cut[result.cut] += 1
        if result.failure:
            progress.problem(pair.gold, f"scoring failed: {result.failure}")
        progress.advance(result.cut is not None)
        framework = pair.gold.framework or "none"
        if trace:
            item: Dict[str, Any] = {
                name: dict(zip("gsc", result.counts[name])) for name in _KEYS
            }
            item.update(exact=result.exact, steps=result.steps, bound=result.bound)
            if result.cut:
                item["cut"] = result.cut
            if pair.null:
                item["null"] = True
            scores.setdefault(framework, {})[pair.gold.id] = item
        if errors and result.errors is not None:
            details.setdefault(framework, {})[pair.gold.id] = result.errors
    progress.finish()
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
    g, s, c = totals["all"]
    out["bound"] = {"c": bound, "f": prf(g, s, bound)["f"]}
    out["steps"] = steps
    out["cut"] = cut_summary(cut, g, s, c, bound)
    out["invalid"] = len(pairing.invalid)
    out["unpaired"] = len(pairing.unpaired)
    out["duplicates"] = len(pairing.duplicates)
    return out, details

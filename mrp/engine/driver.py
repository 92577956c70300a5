"""One corpus driver for every metric (the metric itself: :mod:`mrp.engine.base`).

A metric supplies what differs: how one pair is scored (:meth:`Metric.score`),
what a pair counts when its scoring fails (:meth:`Metric.fallback`), and the
layout of its result (:meth:`Metric.report`).  The driver owns the rest: the
loop over the pairs, ``--jobs`` worker processes (a dead worker is detected
and its pairs are scored again or reported), per-pair failure isolation,
reuse of identical system graphs in leaderboards, progress, per-item trace,
``--errors`` data, and the bookkeeping every result carries (``n``, time, cpu,
cut counts, invalid/unpaired/duplicate graphs).

A pair whose scoring fails never raises a score: it counts the gold graph's
tuples as missed (``g`` from the gold graph, ``c`` = 0) and the system
graph's tuples as surplus when they can be counted at all.
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Deque, Dict, Iterator, List, Optional, Sequence, Tuple

from mrp.corpora import size
from mrp.engine.base import Metric, PairCounts, Run
from mrp.engine.counting import Path, add
from mrp.engine.limits import CUT, GRACE, SEARCH_GRACE, Overrun, Sizes, budget, guarded
from mrp.engine.options import Execution, Options, Progress
from mrp.engine.pairing import Pair, Pairing
from mrp.errors import MRPError, ScoreError
from mrp.graph import fingerprint
from mrp.process.collector import collector_paused
from mrp.process.forked import available_cpus, fork_pool, freeze_heap, stop_pool
from mrp.process.worker import cpu_seconds
from mrp.solver import pair_clock
from mrp.solver import within_memory as within

if TYPE_CHECKING:  # the process pool (and multiprocessing) is imported only for --jobs
    from concurrent.futures import Future

#: ``Execution.jobs`` for "as many worker processes as pay off" (see :func:`workers`)
AUTO = 0
#: AUTO uses at most this many workers ...
AUTO_MAX = 4
#: ... and only for pairs holding at least this many node pairs (gold nodes x system nodes, summed): less
#: is scored faster than worker processes start (the 1,368 coli AMR pairs hold 362,000, the 89 EDS pairs of
#: the MRP 2019 sample 83,000)
AUTO_WORK = 200_000
#: pairs handed to :meth:`Metric.score_many` at a time (in this process; a worker's range is smaller)
TOGETHER = 256


# --- scoring pairs, isolated and optionally in worker processes -------------------------------------------


def _isolated(metric: Metric, pair: Pair, options: Options) -> PairCounts:
    """A pair's result, within its limits (:mod:`mrp.engine.limits`): a pair whose declared preparation
    exceeds them, or that overruns them while scored, gets the metric's cut result; an exception while
    scoring it gives the fallback result with the failure named."""
    pair = pair.live()  # unpacked once here, and dropped with the pair's result
    gold, system = pair.gold, pair.system
    cost = metric.preparation(Sizes(len(gold.nodes), len(gold.edges), len(system.nodes), len(system.edges)),
                              options)
    if not within(cost.bytes, options.max_memory):
        return _stopped(metric, pair, options, "limit")
    if options.timeout is not None and cost.seconds > options.timeout + GRACE:
        return _stopped(metric, pair, options, "timeout")
    found: Optional[PairCounts] = None
    why = "timeout"
    try:
        with pair_clock(), budget(options.timeout, options.max_memory):
            try:
                with guarded(options.timeout, SEARCH_GRACE if metric.stopped_by_solver else GRACE):
                    found = metric.score(pair, options)
            except Overrun as stop:  # the result stands when the guard fired as scoring ended
                why = stop.why
            except MemoryError:  # the process's own limit (ulimit, a container): a limit, not a failure
                why = "limit"
        if found is not None:
            return found
        return _stopped(metric, pair, options, why)
    except Exception as error:  # noqa: BLE001 - one pair's failure must not end the run
        message = f"{type(error).__name__}: {error}"
    try:
        with guarded(0.0 if options.timeout is not None else None, CUT):
            return metric.fallback(pair, options, message)
    except (Exception, Overrun) as error:  # noqa: BLE001 - not even the gold graph can be counted in time
        return PairCounts({}, exact=False, cut="error", failure=f"{message}; counting failed too: {error}")


def _stopped(metric: Metric, pair: Pair, options: Options, why: str) -> PairCounts:
    """The result of a pair stopped at its limits (``why``), as the metric gives it (:meth:`Metric.cut`),
    which has :data:`mrp.engine.limits.CUT` of CPU (it counts the graphs alone): beyond, or when it
    fails, the pair counts nothing, cut all the same, with a note saying so."""
    clocked = 0.0 if options.timeout is not None else None
    try:
        with guarded(clocked, CUT):
            return metric.cut(pair, options, why)
    except Overrun:
        failure = "counting its graphs alone took too long too"
    except Exception as error:  # noqa: BLE001 - not even the gold graph can be counted
        failure = f"counting failed: {type(error).__name__}: {error}"
    note = f"{metric.name}: stopped at the pair's limits ({why}); {failure}: the pair counts nothing"
    try:  # the shape of the metric's result, every count 0: two empty graphs scored
        with guarded(clocked, CUT / 2):
            result = metric.score(Pair(pair.gold.empty_copy(), pair.system.empty_copy(), True), options)
    except (Exception, Overrun):  # noqa: BLE001 - then no count at all
        result = PairCounts({})
    result.exact, result.bound, result.steps, result.cut, result.failure = False, 0, 0, why, None
    result.note = note
    return result


#: the running pool's work, inherited by forked workers (which then receive only positions)
_WORK: List[Any] = []


def _score_range(start: int, end: int) -> List[PairCounts]:
    metric, pairs, options = _WORK
    return list(_together(metric, pairs[start:end], options))


def _together(metric: Metric, pairs: Sequence[Pair], options: Options) -> Iterator[PairCounts]:
    """The results of the pairs, in order: :data:`TOGETHER` at a time offered to :meth:`Metric.score_many`,
    the ones it leaves (or all of a chunk, when it raises) scored alone, each failure isolated."""
    for start in range(0, len(pairs), TOGETHER):
        chunk = pairs[start:start + TOGETHER]
        try:
            ready = metric.score_many(chunk, options)
        except Exception:  # noqa: BLE001 - then each pair is scored alone, its failure isolated
            ready = [None] * len(chunk)
        for pair, result in zip(chunk, ready):
            yield result if result is not None else _isolated(metric, pair, options)


def _parallel(metric: Metric, pairs: Sequence[Pair], options: Options) -> Iterator[PairCounts]:
    """Results in order, scored by forked workers.

    When a worker dies, the pool is replaced and every pair that was in flight becomes a suspect: suspects
    are scored one at a time, alone in the pool, so a pair whose worker dies again is known for certain and
    reported as failed, and the others are scored normally.
    """
    global _WORK
    import gc
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    jobs = options.run.jobs
    # a range is at most one batch of :meth:`Metric.score_many` (fewer round trips: on Rematch's testbed,
    # 20,000 pairs, ranges of 256 rather than 64 took 0.2 s less CPU), and a quarter of a worker's share
    chunk = max(1, min(TOGETHER, len(pairs) // (jobs * 4) or 1))
    todo: Deque[Tuple[int, int]] = deque((k, min(k + chunk, len(pairs))) for k in range(0, len(pairs), chunk))
    suspects: Deque[int] = deque()
    done: Dict[int, PairCounts] = {}
    _WORK = [metric, pairs, replace(options, run=Execution(jobs))]
    freeze_heap()
    pool = fork_pool(jobs)
    running: Dict[Future, Tuple[int, int]] = {}
    position = 0
    refused = 0
    try:
        while position < len(pairs):
            handing: Tuple[int, int] = (0, 0)
            try:
                if suspects:
                    if not running:
                        k = suspects.popleft()
                        handing = (k, k + 1)
                        running[pool.submit(_score_range, k, k + 1)] = handing
                else:
                    while todo and len(running) < 2 * jobs:
                        handing = todo.popleft()
                        running[pool.submit(_score_range, *handing)] = handing
                refused = 0
            except BrokenProcessPool:
                # a worker died before the pool took this range: it was not run, so it is not blamed; it and
                # every range in flight are scored again in a new pool, as suspects
                refused += 1
                if refused > 3:
                    raise ScoreError("the worker processes keep dying before they take any work; "
                                     "score with --jobs 1") from None
                suspects.extend(range(*handing))
                for start, end in running.values():
                    suspects.extend(range(start, end))
                running.clear()
                stop_pool(pool)
                pool = fork_pool(jobs)
                suspects = deque(sorted(set(suspects) - set(done)))
                continue
            alone = len(running) == 1 and next(iter(running.values()))
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            broken = False
            for future in finished:
                start, end = running.pop(future)
                try:
                    for k, result in enumerate(future.result(), start):
                        done[k] = result
                except BrokenProcessPool:
                    broken = True
                    if alone == (start, end) and end - start == 1:
                        done[start] = metric.fallback(pairs[start].live(), options, "its worker process died "
                                                      "(killed, e.g. out of memory)")
                    else:
                        suspects.extend(range(start, end))
            if broken:
                for start, end in running.values():
                    suspects.extend(range(start, end))
                running.clear()
                stop_pool(pool)
                pool = fork_pool(jobs)
                suspects = deque(sorted(suspects))
            while position in done:
                yield done.pop(position)
                position += 1
    finally:
        stop_pool(pool, finished=position >= len(pairs))  # every result is in, or the run is ending
        _WORK = []
        gc.unfreeze()


def workers(jobs: int, pairs: Sequence[Pair]) -> int:
    """The worker processes for ``pairs`` (1: none, scored in this process).

    ``jobs`` as given, or for :data:`AUTO` one per available CPU (at most
    :data:`AUTO_MAX`) when the pairs hold at least :data:`AUTO_WORK` node pairs, else 1.
    """
    if jobs != AUTO:
        return jobs
    cpus = min(available_cpus(), AUTO_MAX)
    if cpus < 2 or len(pairs) < 2:
        return 1
    work = 0
    for pair in pairs:
        work += size(pair.gold_entry) * size(pair.system_entry)
        if work >= AUTO_WORK:
            return cpus
    return 1


def results(metric: Metric, pairs: Sequence[Pair], options: Options) -> Iterator[PairCounts]:
    """The results of the pairs, in order (in worker processes when :func:`workers` says so)."""
    jobs = workers(options.run.jobs, pairs)
    if jobs > 1 and len(pairs) > 1 and hasattr(os, "fork"):
        yield from _parallel(metric, pairs, replace(options, run=replace(options.run, jobs=jobs)))
    else:
        yield from _together(metric, pairs, options)


def _memoized(metric: Metric, pairs: Sequence[Pair], options: Options) -> Iterator[PairCounts]:
    """Results in order, reusing ``options.run.memo`` for a system graph already scored against the same
    gold."""
    memo = options.run.memo
    if memo is None or metric.contextual:
        yield from results(metric, pairs, options)
        return
    keys = [(metric.name, id(pair.gold_entry), fingerprint(pair.system)) for pair in pairs]
    todo: List[Pair] = []
    planned = set()
    for pair, key in zip(pairs, keys):
        if key not in memo and key not in planned:
            planned.add(key)
            todo.append(pair)
    fresh = results(metric, todo, options)
    for key in keys:
        if key not in memo:
            memo[key] = next(fresh)
        yield memo[key]


def run(metric: Metric, pairing: Pairing, options: Optional[Options] = None) -> Tuple[Run, Dict[str, Any]]:
    """Every pair of a pairing scored, with the garbage collector paused (as every door scores): the Run
    (for :func:`summary`), and the --errors data {framework: {id: data}}."""
    options = options or Options()
    with collector_paused(freeze=options.run is not None and options.run.ending):
        return _scored(metric, pairing, options)


def _scored(metric: Metric, pairing: Pairing, options: Options) -> Tuple[Run, Dict[str, Any]]:
    """:func:`run`'s work."""
    try:
        metric.prepare(options)
    except MRPError:  # the metric refuses its options: its own message
        raise
    except Exception as error:  # noqa: BLE001 - without its kernels the metric cannot score anything
        raise ScoreError(f"{metric.name}: cannot load the solver: {type(error).__name__}: {error}") from error
    # the one clock rule of every door: a run's time and CPU are its pairs' (from begin to the last pair),
    # never the loading of the solver's kernels that prepare did (once per process, or not at all)
    start, cpu = time.time(), cpu_seconds()
    stopped = _begun(metric, pairing, options)
    progress = options.run.progress or Progress()
    progress.start(len(pairing.pairs))
    totals: Dict[Path, List[Any]] = {}
    found: List[PairCounts] = []
    details: Dict[str, Dict[str, Any]] = {}
    try:
        scored = (_stopped(metric, pair.live(), options, stopped) for pair in pairing.pairs) if stopped \
            else _memoized(metric, pairing.pairs, options)
        for pair, result in zip(pairing.pairs, scored):
            add(totals, result.counts)
            found.append(result)
            if result.failure:
                progress.problem(pair.gold, f"scoring failed: {result.failure}")
            if result.note:
                progress.problem(pair.gold, result.note)
            progress.advance(result.cut is not None)
            if options.errors and result.errors is not None:
                gold = pair.gold_entry
                details.setdefault(gold.framework or "none", {})[gold.id] = result.errors
    finally:
        progress.finish()
    return Run(pairing, found, totals, options, start, cpu), details


def _begun(metric: Metric, pairing: Pairing, options: Options) -> Optional[str]:
    """:meth:`Metric.begin` (a metric whose pairs depend on each other prepares them all there) within the
    run's limits: the pairs' timeouts summed (and the memory cap); why it was stopped, or None."""
    timeout = None if options.timeout is None else options.timeout * max(1, len(pairing.pairs))
    try:
        with budget(timeout, options.max_memory), guarded(timeout):
            metric.begin(pairing, options)
    except Overrun as stop:
        return stop.why
    return None


def joined(pairings: Sequence[Pairing]) -> Pairing:
    """One Pairing of several (batches), as if they had been paired as one: pairs and what was not scored,
    in order."""
    out = Pairing()
    for part in pairings:
        out.extend(part)
    return out


def combined(runs: Sequence[Run]) -> Run:
    """One Run of several (batches of one metric, scored with the same options), as if their pairings had
    been scored as one: pairs, results and what was not scored, in order; time from the first start."""
    first = runs[0]
    totals: Dict[Path, List[Any]] = {}
    results: List[PairCounts] = []
    for part in runs:
        for result in part.results:
            add(totals, result.counts)
            results.append(result)
    pairing = joined([part.pairing for part in runs])
    return Run(pairing, results, totals, first.options, first.start, first.cpu)


def summary(metric: Metric, run: Run) -> Dict[str, Any]:
    """A metric's result object over a Run, in the envelope every result has (:meth:`Metric.result`)."""
    return metric.result(run)


def evaluate_metric(metric: Metric, pairing: Pairing, options: Optional[Options] = None
             ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """A metric's result over a pairing, and its --errors data {framework: {id: data}}."""
    done, details = run(metric, pairing, options)
    return summary(metric, done), details

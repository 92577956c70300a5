"""Blocks scored by local worker processes, one pool for the whole run.

Each worker is forked once, inherits the run's :class:`~mrp.allpairs.work.Work` (the corpus, the metric's
options) and scores whole blocks in turn, alone (one process per block, ``jobs`` 1 inside it), handing
back only the block's arrays.  Scoring each block through the driver's own worker pool instead forks a
pool per block and sends every pair's result back through a pipe: on all pairs of 200 coli graphs (11
blocks), about 0.8 s of CPU of 6 went to that.  A block whose worker dies is scored again here by the
driver (:func:`mrp.allpairs.engine.run_blocks`), whose recovery finds the pair that killed it.
"""

from __future__ import annotations

import gc
import os
from dataclasses import replace
from typing import Any, Callable, Dict, List, Sequence

import numpy as np

from mrp.allpairs.work import Block, Work, prepare, score_block
from mrp.engine import Execution
from mrp.process.forked import fork_pool, freeze_heap, stop_pool

__all__ = ["pooled"]

#: the run the workers inherit at their fork (set while a pool runs)
_RUN: List[object] = []


def _score(k: int) -> Dict[str, np.ndarray]:
    """Block ``k`` of the inherited run, scored in this worker alone."""
    work, blocks = _RUN
    assert isinstance(work, Work) and isinstance(blocks, list)
    return score_block(work, blocks[k])


def _task(k: int) -> Dict[str, np.ndarray]:
    """What a worker is handed (by name): :func:`_score` of block ``k``, looked up when it runs."""
    return _score(k)


def pooled(work: Work, blocks: Sequence[Block], jobs: int,
           finished: Callable[[int, Dict[str, np.ndarray]], None]) -> List[int]:
    """Score ``blocks`` on ``jobs`` forked workers (one pool for all of them), telling ``finished(k, arrays)``
    of each block ``k`` as it ends, in any order.

    Args:
        work: the run's work (its options' ``jobs`` is set to 1 inside the workers).
        blocks: the blocks to score.
        jobs: worker processes (at most one per block).
        finished: told each block's index and arrays as it ends.

    Returns:
        The indices of the blocks not scored (a worker died, or no worker could be forked): the caller
        scores them otherwise.
    """
    global _RUN
    from concurrent.futures import FIRST_COMPLETED, wait  # the pool's modules, only when it runs
    from concurrent.futures.process import BrokenProcessPool

    if not hasattr(os, "fork") or jobs < 2 or len(blocks) < 2:  # forked as the driver's workers are
        return list(range(len(blocks)))
    alone = replace(work, options=replace(work.options, run=replace(work.options.run or Execution(), jobs=1,
                                                                     progress=None)))
    prepare(alone)  # the solver's kernels loaded once, here, not in each worker
    _RUN = [alone, list(blocks)]
    freeze_heap()
    left = set(range(len(blocks)))
    pool: Any = None
    try:
        pool = fork_pool(min(jobs, len(blocks)))
        running: Dict[Any, int] = {}
        waiting = list(range(len(blocks)))
        while waiting or running:
            while waiting and len(running) < 2 * jobs:
                k = waiting.pop(0)
                running[pool.submit(_task, k)] = k
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in done:
                k = running.pop(future)
                arrays = future.result()  # BrokenProcessPool: the blocks left go back to the caller
                left.discard(k)
                finished(k, arrays)
    except BrokenProcessPool:
        pass
    finally:
        if pool is not None:
            stop_pool(pool, finished=not left)  # every block is in, or the run ends: no worker outlives it
        _RUN = []
        gc.unfreeze()
    return sorted(left)

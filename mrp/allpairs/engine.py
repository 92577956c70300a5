"""Running blocks of pairs: locally (in this process, or whole blocks on one pool of forked workers,
:mod:`mrp.allpairs.pool`, a block whose worker died scored again through the metric driver, whose
dead-worker recovery finds the pair that killed it), or as tasks of a Dask cluster
(:mod:`mrp.allpairs.cluster`, imported only then); finished blocks are checkpointed and progress is told."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from mrp.allpairs.checkpoint import Store
from mrp.allpairs.pool import pooled
from mrp.allpairs.work import Block, Work, pairs_of, score_block
from mrp.engine import Execution

__all__ = ["RETRIES", "Engine", "Status", "block_key", "run_blocks"]

#: times a block whose worker pool broke is handed to a new pool before it is scored in this process
RETRIES = 2


@dataclass
class Status:
    """Where a run stands, as progress is told: blocks and pairs done of all, seconds since its start."""

    blocks: int
    blocks_total: int
    pairs: int
    pairs_total: int
    #: pairs scored by this run (not loaded from a checkpoint), for the rate
    scored: int
    seconds: float

    @property
    def rate(self) -> float:
        """Pairs per second scored by this run."""
        return self.scored / self.seconds if self.seconds > 0 else 0.0

    @property
    def eta(self) -> Optional[float]:
        """Seconds left at the current rate (None before any pair is scored)."""
        return (self.pairs_total - self.pairs) / self.rate if self.rate > 0 else None


@dataclass
class Engine:
    """How blocks run: ``jobs`` local worker processes (0: as many as pay off), or a Dask ``client``;
    ``store`` keeps finished blocks; ``progress`` is told each finished block."""

    jobs: int = 1
    client: Any = None
    store: Optional[Store] = None
    progress: Optional[Callable[[Status], None]] = None


def block_key(block: Block) -> str:
    """A block's name in a checkpoint: its range, or a digest of its pairs."""
    if isinstance(block[0], np.ndarray):
        hasher = hashlib.sha256(np.ascontiguousarray(block[0], np.int64).tobytes())
        hasher.update(np.ascontiguousarray(block[1], np.int64).tobytes())
        return "p" + hasher.hexdigest()[:24]
    return f"{int(block[0])}-{int(block[1])}"


def _size(block: Block) -> int:
    if isinstance(block[0], np.ndarray):
        return len(block[0])
    return int(block[1]) - int(block[0])


def run_blocks(work: Work, blocks: Sequence[Block], engine: Engine) -> List[Dict[str, np.ndarray]]:
    """Every block's arrays, in the order of ``blocks`` (loaded from the checkpoint where finished)."""
    start = time.monotonic()
    results: List[Optional[Dict[str, np.ndarray]]] = [None] * len(blocks)
    sizes = [_size(block) for block in blocks]
    todo: List[int] = []
    for b, block in enumerate(blocks):
        found = engine.store.load(block_key(block), sizes[b]) if engine.store is not None else None
        if found is not None:
            results[b] = found
        else:
            todo.append(b)
    state = {"blocks": len(blocks) - len(todo), "pairs": sum(sizes) - sum(sizes[b] for b in todo),
             "scored": 0}

    def finished(b: int, arrays: Dict[str, np.ndarray]) -> None:
        results[b] = arrays
        if engine.store is not None:
            engine.store.save(block_key(blocks[b]), arrays)
        state["blocks"] += 1
        state["pairs"] += sizes[b]
        state["scored"] += sizes[b]
        if engine.progress is not None:
            engine.progress(Status(state["blocks"], len(blocks), state["pairs"], sum(sizes), state["scored"],
                                   time.monotonic() - start))

    try:
        if todo and engine.client is not None:
            from mrp.allpairs.cluster import run_on

            run_on(engine.client, work, [blocks[b] for b in todo],
                   lambda k, arrays: finished(todo[k], arrays))
        elif todo:
            local = replace(work, options=replace(work.options, run=replace(work.options.run or Execution(),
                                                                            jobs=engine.jobs, progress=None)))
            # whole blocks on one pool of workers; what that cannot score, here through the driver
            left = pooled(work, [blocks[b] for b in todo], engine.jobs,
                          lambda k, arrays: finished(todo[k], arrays))
            for k in left:
                finished(todo[k], _local_block(local, blocks[todo[k]]))
    finally:
        if engine.store is not None:
            engine.store.flush()
    return [result for result in results if result is not None]


def _local_block(work: Work, block: Block) -> Dict[str, np.ndarray]:
    """A block scored here (by the driver's worker processes for ``jobs`` > 1).  The driver scores again the
    pairs of a worker that dies while it waits for results; a pool that breaks while work is being handed
    to it raises instead, and the block is then scored again whole (the same numbers: each pair is scored
    alone), at last in this process."""
    from concurrent.futures.process import BrokenProcessPool

    for _ in range(RETRIES):
        try:
            return score_block(work, block)
        except BrokenProcessPool:
            continue
    alone = replace(work.options, run=replace(work.options.run, jobs=1))
    return score_block(replace(work, options=alone), block)


def pairs_in(work: Work, blocks: Sequence[Block]) -> int:
    """Pairs held by blocks."""
    return sum(len(pairs_of(work, block)[0]) for block in blocks)

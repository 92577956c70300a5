"""The full matrix: every pair cut into blocks of pair numbers, run, and laid out as N x M arrays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

import numpy as np

from mrp.allpairs.engine import Engine, run_blocks
from mrp.allpairs.work import Block, Work, pair_count, pairs_of

__all__ = ["DEFAULT_BLOCK", "Matrix", "f_array", "full", "ranges"]

#: pairs per block unless told otherwise (a few seconds of work: checkpoints and progress stay fresh)
DEFAULT_BLOCK = 2000


@dataclass
class Matrix:
    """N x M arrays: F, the counts g, s, c, the bound of c, and whether each pair's c is proved optimal;
    ``failed``: the (row, column) pairs whose scoring failed (their counts are a lower bound)."""

    f: np.ndarray
    g: np.ndarray
    s: np.ndarray
    c: np.ndarray
    bound: np.ndarray
    exact: np.ndarray
    failed: List[Tuple[int, int]] = field(default_factory=list)
    #: pairs scored (each unordered pair once in a symmetric run)
    pairs: int = 0


def f_array(g: np.ndarray, s: np.ndarray, c: np.ndarray) -> np.ndarray:
    """F of count arrays with the operations, in the order, of :func:`mrp.engine.counting.prf` (the same
    bits as each pair's result)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(s != 0, c / np.where(s != 0, s, 1), 0.0)
        r = np.where(g != 0, c / np.where(g != 0, g, 1), 0.0)
        total = p + r
        f = np.where(total != 0, 2 * p * r / np.where(total != 0, total, 1), 0.0)
    return np.asarray(f, np.float64)


def ranges(total: int, size: int) -> List[Block]:
    """Blocks of ``size`` consecutive pair numbers."""
    size = max(1, int(size))
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def lay_out(work: Work, blocks: Sequence[Block], results: Sequence[Dict[str, np.ndarray]]) -> Matrix:
    """The N x M arrays of finished blocks (a symmetric run fills (j, i) from (i, j), g and s swapped)."""
    n, m = work.n, work.m
    arrays = {name: np.zeros((n, m), np.float64) for name in ("g", "s", "c", "bound")}
    exact = np.zeros((n, m), np.bool_)
    given = np.zeros((n, m), np.float64) if results and "f" in results[0] else None
    failed: List[Tuple[int, int]] = []
    pairs = 0
    for block, result in zip(blocks, results):
        rows, columns = pairs_of(work, block)
        pairs += len(rows)
        for name in ("c", "bound"):
            arrays[name][rows, columns] = result[name]
        arrays["g"][rows, columns] = result["g"]
        arrays["s"][rows, columns] = result["s"]
        exact[rows, columns] = result["exact"]
        if given is not None:
            given[rows, columns] = result["f"]
        if work.once:
            for name in ("c", "bound"):
                arrays[name][columns, rows] = result[name]
            arrays["g"][columns, rows] = result["s"]
            arrays["s"][columns, rows] = result["g"]
            exact[columns, rows] = result["exact"]
        failed.extend((int(rows[k]), int(columns[k])) for k in result["failed"].tolist())
    f = f_array(arrays["g"], arrays["s"], arrays["c"]) if given is None else given
    return Matrix(f, arrays["g"], arrays["s"], arrays["c"], arrays["bound"], exact, sorted(failed), pairs)


def full(work: Work, engine: Engine, block_size: int = DEFAULT_BLOCK) -> Matrix:
    """Every pair of the work scored (each unordered pair once where the work says so)."""
    blocks = ranges(pair_count(work), block_size)
    return lay_out(work, blocks, run_blocks(work, blocks, engine))

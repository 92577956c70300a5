"""What an all-pairs run scores: the graphs, the metric and its options, the pairs (by index), and one
block of pairs scored into arrays.

Pairs are numbered: in a symmetric square run, ``(i, j)`` with ``i <= j`` row by row (the diagonal
included); in any other square run and in an N x M run, every ``(i, j)`` row by row.  A block is a range
of pair numbers, or an explicit list of pairs (top-k candidates, ensemble candidates).  Every pair is
scored by the metric's own pair scoring under the driver's failure isolation (``mrp.engine.pair_results``),
the same steps as :func:`mrp.score` takes for one pair, so each number equals that pair's ``mrp.score``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from mrp.corpora import live
from mrp.engine import Execution, Options, Pair, pair_results, prf
from mrp.errors import MRPError
from mrp.metrics.registry import canonical, metric, metrics

__all__ = ["ARRAYS", "Block", "Work", "f_of", "pair_count", "pairs_of", "prepare", "score_block",
           "symmetric"]

#: the arrays a block (and a run) holds: counts, bound of c, exactness; ``failed``: pairs whose scoring failed
ARRAYS = ("g", "s", "c", "bound", "exact")

#: a block: a range of pair numbers ``(start, end)``, or explicit pairs ``(rows, columns)``
Block = Union[Tuple[int, int], Tuple[np.ndarray, np.ndarray]]


def symmetric(name: str) -> bool:
    """Whether a metric's square runs score each unordered pair once (``Metric.symmetric``); every other
    metric is scored in both orders."""
    return metric(canonical(name)).symmetric


@dataclass
class Work:
    """Everything a block needs: the metric, its options, the graphs (rows) and the other graphs (columns;
    None: the rows again), and whether each unordered pair is scored once."""

    metric: str
    options: Options
    rows: Sequence[Any]
    columns: Optional[Sequence[Any]]
    once: bool

    @property
    def n(self) -> int:
        """Rows."""
        return len(self.rows)

    @property
    def m(self) -> int:
        """Columns."""
        return len(self.columns) if self.columns is not None else len(self.rows)

    def shipped(self) -> Work:
        """The work with plain options (no progress object, one process): what a worker receives."""
        return replace(self, options=replace(self.options, run=Execution(jobs=1)))


def pair_count(work: Work) -> int:
    """Pairs scored by a full run."""
    if work.once:
        return work.n * (work.n + 1) // 2
    return work.n * work.m


def _row_starts(n: int) -> np.ndarray:
    """First pair number of each row of a symmetric run (and the total at the end)."""
    rows = np.arange(n + 1, dtype=np.int64)
    return rows * n - rows * (rows - 1) // 2


def pairs_of(work: Work, block: Block) -> Tuple[np.ndarray, np.ndarray]:
    """The (rows, columns) of a block's pairs."""
    if isinstance(block[0], np.ndarray):
        return np.asarray(block[0], np.int64), np.asarray(block[1], np.int64)
    start, end = int(block[0]), int(block[1])
    numbers = np.arange(start, end, dtype=np.int64)
    if not work.once:
        return numbers // work.m, numbers % work.m
    starts = _row_starts(work.n)
    rows = np.searchsorted(starts, numbers, side="right") - 1
    return rows, numbers - starts[rows] + rows


def f_of(g: float, s: float, c: float) -> float:
    """F of counts, as every result computes it."""
    return float(prf(g, s, c)["f"])


def _headline(name: str) -> Tuple[str, ...]:
    """Where a metric without per-pair counts keeps a pair's F in its item (SemBLEU's score, AnCast's LRM)."""
    path = metric(name).figure_path()
    if path is None:
        able = [measure.name for measure in metrics() if measure.figure_path() is not None
                and not measure.contextual]
        raise MRPError(f"metric '{name}' has no per-pair figure to fill a similarity matrix (use "
                       f"{', '.join(able[:-1])} or {able[-1]})")
    return path


def item_f(item: Any, path: Tuple[str, ...]) -> float:
    """The F at ``path`` of a pair's item (a figures object's ``f``, or the number itself)."""
    node = item
    for step in path:
        node = node.get(step, {}) if isinstance(node, dict) else {}
    if isinstance(node, dict):
        return float(node.get("f", 0.0))
    return float(node) if isinstance(node, (int, float)) else 0.0


def check(name: str) -> None:
    """Refuse a metric that cannot fill a matrix: no per-pair figure, or pairs depending on each other."""
    _headline(name)
    if metric(name).contextual:
        raise MRPError(f"metric '{name}' scores pairs in the context of their documents, not one pair alone")


def prepare(work: Work) -> None:
    """What the run's metric needs before any block (its solver's kernels loaded): done once in a parent
    whose forked workers then inherit it."""
    metric(work.metric).prepare(work.options)


def score_block(work: Work, block: Block) -> Dict[str, np.ndarray]:
    """A block's arrays: g, s, c, bound (float64), exact (bool), and ``failed`` (the positions in the block
    of pairs whose scoring failed; their counts are the metric's fallback, as in :func:`mrp.score`).  A
    metric without per-pair counts (SemBLEU, AnCast) gives ``f`` from each pair's item instead, and NaN
    counts."""
    rows, columns = pairs_of(work, block)
    path = _headline(work.metric)
    counted = metric(work.metric).primary is not None
    options = work.options
    # each graph the block uses, unpacked once (a large corpus is held packed)
    first = {i: live(work.rows[i]) for i in sorted(set(rows.tolist()))}
    if work.columns is None:
        second = {j: first[j] if j in first else live(work.rows[j]) for j in sorted(set(columns.tolist()))}
    else:
        second = {j: live(work.columns[j]) for j in sorted(set(columns.tolist()))}
    scorer = metric(work.metric).remembering([list(first.values()), list(second.values())], options)
    scorer.prepare(options)
    pairs = [Pair(first[i], second[j], False) for i, j in zip(rows.tolist(), columns.tolist())]
    size = len(pairs)
    out = {name: np.zeros(size, np.float64) for name in ("g", "s", "c", "bound")}
    out["exact"] = np.zeros(size, np.bool_)
    failed: List[int] = []
    if not counted:
        out["f"] = np.zeros(size, np.float64)
    for k, result in enumerate(pair_results(scorer, pairs, options)):
        if not counted:
            out["f"][k] = item_f(scorer.item(pairs[k], result), path)
            for name in ("g", "s", "c", "bound"):
                out[name][k] = np.nan
            out["exact"][k] = result.exact
            if result.failure:
                failed.append(k)
            continue
        counts = result.counts.get(path, (0, 0, 0))
        out["g"][k], out["s"][k], out["c"][k] = counts[0], counts[1], counts[2]
        out["bound"][k] = result.bound if scorer.searches else counts[2]
        out["exact"][k] = result.exact
        if result.failure:
            failed.append(k)
    out["failed"] = np.array(failed, np.int64)
    return out

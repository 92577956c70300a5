"""Intervals and paired tests of a task's figures, resampling sentences.

A group's figure (a micro F) and an overall ``micro`` figure use :mod:`mrp.report.stats` as it is (the
percentile bootstrap, the paired bootstrap test).  An overall ``macro`` figure (the mean of the groups' F)
is resampled **within each group** (a stratified bootstrap: every replicate keeps each group's number of
sentences, so that the mean stays a mean over the same groups); its paired test is the same two-sided paired
bootstrap as :func:`mrp.report.stats.paired_test` (``|d* - d| >= |d|``, p = (k + 1) / (n + 1)), the
sentences of both systems resampled together.

A test needs something to resample: with fewer than two sentences (in every group, for a stratified test)
each replicate is the observed sample, and p is 1.0 (:func:`units` counts a test's resampling units, which
the leaderboard shows).  Every interval and test of a figure, on the leaderboard and on the page's group
tables alike, comes from here.
"""

from __future__ import annotations

import functools
from typing import Dict, List, Sequence, Tuple

import numpy as np

from mrp.report.stats import bootstrap, paired_test, replicate_weights
from mrp.task.definition import Task
from mrp.task.scoring import Item

__all__ = ["arrays", "file_interval", "interval", "test", "units", "varies"]

_EPS = 1e-12


def arrays(items: Sequence[Item], groups: Sequence[str]) -> Dict[str, np.ndarray]:
    """Per group, its sentences' (g, s, c) as an (items, 3) array in gold order."""
    rows: Dict[str, List[Tuple[int, int, int]]] = {group: [] for group in groups}
    for item in items:
        rows.setdefault(item.group, []).append(item.counts)
    return {group: np.array(found, dtype=np.int64).reshape(len(found), 3) for group, found in rows.items()}


def _f(sums: np.ndarray) -> np.ndarray:
    """F of (replicates, 3) summed counts, 0.0 where undefined (P = c/s, R = c/g)."""
    g, s, c = sums[:, 0], sums[:, 1], sums[:, 2]
    p = np.divide(c, s, out=np.zeros(len(c)), where=s != 0)
    r = np.divide(c, g, out=np.zeros(len(c)), where=g != 0)
    total = p + r
    return np.divide(2 * p * r, total, out=np.zeros(len(c)), where=total != 0)


def _macro(per_group: Sequence[np.ndarray], weights: Sequence[np.ndarray]) -> np.ndarray:
    values = [_f(w @ array.astype(np.float64)) for array, w in zip(per_group, weights)]
    return np.mean(values, axis=0) if values else np.zeros(0)


@functools.lru_cache(maxsize=1)
def _stratified(seed: int, n: int, sizes: Tuple[int, ...]) -> Tuple[np.ndarray, ...]:
    """The stratified bootstrap's weights of ``n`` replicates per group of ``sizes`` sentences, drawn from
    ``seed`` (a function of its arguments alone: kept for the next interval or test of the same board; as
    large as one call's weights were, read-only)."""
    weights = _weights(np.random.default_rng(seed), n, sizes)
    for array in weights:
        array.flags.writeable = False
    return tuple(weights)


def _weights(rng: np.random.Generator, n: int, sizes: Sequence[int]) -> List[np.ndarray]:
    out = []
    for size in sizes:
        if not size:
            out.append(np.zeros((n, 0)))
            continue
        draws = rng.integers(0, size, size=(n, size))
        flat = (draws + (np.arange(n, dtype=np.int64) * size)[:, None]).ravel()
        out.append(np.bincount(flat, minlength=n * size).reshape(n, size).astype(np.float64))
    return out


def units(task: Task, items: Sequence[Item], groups: Sequence[str], group: str = "") -> int:
    """The resampling units of a figure's interval and tests: its sentences (those of ``group``, or of
    every group).

    Args:
        task: the task.
        items: one submission's sentences.
        groups: the groups.
        group: one group, or ``""`` for the overall figure.

    Returns:
        The number of sentences resampled.
    """
    return sum(1 for item in items if not group or item.group == group)


def varies(task: Task, items: Sequence[Item], groups: Sequence[str], group: str = "") -> bool:
    """Whether a resample can differ from the sample: two sentences at least (in one group at least, for
    the stratified bootstrap of a macro figure); else a test's p is 1.0.

    Args:
        task: the task.
        items: one submission's sentences.
        groups: the groups.
        group: one group, or ``""`` for the overall figure.

    Returns:
        True when the bootstrap has something to resample.
    """
    found = arrays(items, groups)
    if group:
        return len(found[group]) >= 2
    if task.overall == "micro":
        return sum(len(found[name]) for name in groups) >= 2
    return any(len(found[name]) >= 2 for name in groups)


def interval(task: Task, items: Sequence[Item], groups: Sequence[str], group: str = "") -> List[float]:
    """The bootstrap interval of a group's F (``group``) or of the overall F (``group`` empty)."""
    found = arrays(items, groups)
    if len(groups) == 1 and not group:  # the mean of one group is that group's figure: one computation
        group = groups[0]
    if group or task.overall == "micro":
        array = found[group] if group else np.concatenate([found[name] for name in groups] or
                                                           [np.zeros((0, 3), dtype=np.int64)])
        return list(bootstrap({(): array}, task.bootstrap, task.seed, task.confidence)[()]["micro"]["f"])
    per_group = [found[name] for name in groups]
    values = _macro(per_group, _stratified(task.seed, task.bootstrap, tuple(len(a) for a in per_group)))
    low, high = np.quantile(values, [(1 - task.confidence) / 2, (1 + task.confidence) / 2])
    return [float(low), float(high)]


def test(task: Task, first: Sequence[Item], second: Sequence[Item], groups: Sequence[str],
         group: str = "") -> float:
    """The p-value of the difference between two submissions' F of a group (or overall), on the same
    sentences."""
    if not varies(task, first, groups, group):
        return 1.0
    a, b = arrays(first, groups), arrays(second, groups)
    if len(groups) == 1 and not group:
        group = groups[0]
    if group or task.overall == "micro":
        names = [group] if group else list(groups)
        left = np.concatenate([a[name] for name in names])
        right = np.concatenate([b[name] for name in names])
        return paired_test(left, right, task.bootstrap, task.seed)
    names = list(groups)
    firsts, seconds = [a[name] for name in names], [b[name] for name in names]
    if any(x.shape != y.shape for x, y in zip(firsts, seconds)):
        raise ValueError("the two submissions must be scored on the same sentences")
    full = [np.ones((1, len(x))) for x in firsts]
    observed = float(_macro(firsts, full)[0] - _macro(seconds, full)[0]) if names else 0.0
    weights = _stratified(task.seed, task.bootstrap, tuple(len(x) for x in firsts))
    deltas = _macro(firsts, weights) - _macro(seconds, weights) - observed
    hits = int(np.count_nonzero(np.abs(deltas) >= abs(observed) - _EPS))
    return (hits + 1) / (task.bootstrap + 1)


def file_interval(task: Task, items: Sequence[Item]) -> List[float]:
    """The bootstrap interval of the F of some sentences (one document's), resampling them: the micro F
    bounds of :func:`mrp.report.stats.bootstrap` (the same replicates and quantiles, computed for F alone;
    kept for the next call on the same counts, as the results and the page ask for each file's).

    Args:
        task: the task (its replicates, seed and level).
        items: the sentences.

    Returns:
        The interval's bounds.
    """
    array = np.array([item.counts for item in items], dtype=np.int64).reshape(len(items), 3)
    return list(_file_interval(array.tobytes(), len(items), task.bootstrap, task.seed, task.confidence))


@functools.lru_cache(maxsize=4096)
def _file_interval(counts: bytes, items: int, n: int, seed: int, level: float) -> Tuple[float, float]:
    if n < 1 or not 0.0 < level < 1.0:  # bootstrap's own refusal
        bounds = bootstrap({(): np.zeros((items, 3), dtype=np.int64)}, n, seed, level)[()]["micro"]["f"]
        return bounds[0], bounds[1]
    array = np.frombuffer(counts, dtype=np.int64).reshape(items, 3).astype(np.float64)
    chunks = replicate_weights(seed, n, items) if items else [np.zeros((n, 0))]
    f = np.concatenate([_f(weights @ array) for weights in chunks])
    low, high = np.quantile(f, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return float(low), float(high)

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
from collections import OrderedDict
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from mrp.report.stats import (
    bootstrap,
    micro_f,
    p_value,
    paired_test,
    percentile_interval,
    replicate_weights,
    strays,
)
from mrp.task.definition import Task
from mrp.task.scoring import Item

__all__ = ["arrays", "file_interval", "interval", "prime", "replicated", "test", "units", "varies"]

def arrays(items: Sequence[Item], groups: Sequence[str]) -> Dict[str, np.ndarray]:
    """Per group, its sentences' (g, s, c) as an (items, 3) array in gold order."""
    rows: Dict[str, List[Tuple[int, int, int]]] = {group: [] for group in groups}
    for item in items:
        rows.setdefault(item.group, []).append(item.counts)
    return {group: np.array(found, dtype=np.int64).reshape(len(found), 3) for group, found in rows.items()}


def _macro(per_group: Sequence[np.ndarray], weights: Sequence[np.ndarray]) -> np.ndarray:
    values = [micro_f(w @ array.astype(np.float64)) for array, w in zip(per_group, weights)]
    return np.mean(values, axis=0) if values else np.zeros(0)


def _stratified_macro(per_group: Sequence[np.ndarray], seed: int, n: int) -> np.ndarray:
    """:func:`_macro` under the stratified weights of ``seed`` (:func:`_stratified`), each group's F per
    replicate kept for the next interval or test on the same counts (:data:`_KEPT`)."""
    sizes = tuple(len(array) for array in per_group)
    values = []
    weights: Optional[Tuple[np.ndarray, ...]] = None
    for k, array in enumerate(per_group):
        key = ("stratified", array.tobytes(), sizes, k, n, seed)
        found = _KEPT.get(key)
        if found is None:
            weights = weights or _stratified(seed, n, sizes)
            found = _keep(key, micro_f(weights[k] @ array.astype(np.float64)))
        values.append(found)
    return np.mean(values, axis=0) if values else np.zeros(0)


#: counts -> their F per bootstrap replicate (read-only), by the counts' bytes and how they are resampled:
#: kept for the next interval or test on the same counts (a group's interval and its paired tests, every
#: figure's table on the page), at most :data:`_KEEP` of them, the least recently used dropped first
_KEPT: OrderedDict[Tuple[Any, ...], np.ndarray] = OrderedDict()
_KEEP = 512


def _keep(key: Tuple[Any, ...], values: np.ndarray) -> np.ndarray:
    values.flags.writeable = False
    _KEPT[key] = values
    while len(_KEPT) > _KEEP:
        _KEPT.popitem(last=False)
    return values


def replicated(arrays: Sequence[np.ndarray], n: int, seed: int) -> List[np.ndarray]:
    """The micro F of each of ``n`` bootstrap replicates of counts (:func:`mrp.report.stats.replicate_weights`
    of ``seed``: the replicates :func:`mrp.report.stats.bootstrap` and :func:`~mrp.report.stats.paired_test`
    draw), for several (items, 3) count arrays of the same items at once: one product of the weights with
    the counts not kept yet, side by side (the sums are of integers: exact in any order, so the very values
    of those functions).

    Args:
        arrays: the counts, each (items, 3), all of the same items.
        n: replicates (at least 1).
        seed: the seed.

    Returns:
        Per array its F per replicate (read-only).
    """
    keys = [("micro", array.tobytes(), len(array), n, seed) for array in arrays]
    for key in keys:
        if key in _KEPT:
            _KEPT.move_to_end(key)
    todo = {key: array for key, array in zip(keys, arrays) if key not in _KEPT}
    if todo:
        items = len(next(iter(todo.values())))
        together = np.concatenate([array.astype(np.float64).reshape(items, 3) for array in todo.values()],
                                  axis=1)
        sums = np.concatenate([weights @ together for weights in
                               (replicate_weights(seed, n, items) if items else [np.zeros((n, 0))])])
        for k, key in enumerate(todo):
            _keep(key, micro_f(sums[:, 3 * k:3 * k + 3]))
    return [_KEPT[key] for key in keys]


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
    return _varies(task, arrays(items, groups), groups, group)


def _varies(task: Task, found: Dict[str, np.ndarray], groups: Sequence[str], group: str) -> bool:
    if group:
        return len(found[group]) >= 2
    if task.overall == "micro":
        return sum(len(found[name]) for name in groups) >= 2
    return any(len(found[name]) >= 2 for name in groups)


def _refused(task: Task) -> bool:
    """Whether :func:`mrp.report.stats.bootstrap` refuses the task's replicates or level (saying why)."""
    return task.bootstrap < 1 or not 0.0 < task.confidence < 1.0


def prime(task: Task, groups: Sequence[str], found: Sequence[Sequence[Item]]) -> None:
    """The replicates' F of each group's sentences in several submissions' sentences (:func:`replicated`),
    computed group by group together (one draw of a group's weights, however many submissions and
    metrics), and kept for the intervals and tests of the groups that follow.

    Args:
        task: the task (its replicates and seed).
        groups: the groups.
        found: submissions' sentences (a metric's of one submission each).
    """
    if _refused(task):
        return
    together: Dict[Tuple[str, int], List[np.ndarray]] = {}
    for items in found:
        for group, array in arrays(items, groups).items():
            together.setdefault((group, len(array)), []).append(array)
    for listed in together.values():
        replicated(listed, task.bootstrap, task.seed)


def interval(task: Task, items: Sequence[Item], groups: Sequence[str], group: str = "") -> List[float]:
    """The bootstrap interval of a group's F (``group``) or of the overall F (``group`` empty): the micro F
    bounds of :func:`mrp.report.stats.bootstrap` (its replicates and quantiles, computed for F alone,
    :func:`replicated`), or the stratified bootstrap's bounds of the groups' mean F."""
    found = arrays(items, groups)
    if len(groups) == 1 and not group:  # the mean of one group is that group's figure: one computation
        group = groups[0]
    if group or task.overall == "micro":
        array = found[group] if group else np.concatenate([found[name] for name in groups] or
                                                           [np.zeros((0, 3), dtype=np.int64)])
        if _refused(task):
            return list(bootstrap({(): array}, task.bootstrap, task.seed, task.confidence)[()]["micro"]["f"])
        values = replicated([array], task.bootstrap, task.seed)[0]
        return list(percentile_interval(values, task.confidence))
    per_group = [found[name] for name in groups]
    values = _stratified_macro(per_group, task.seed, task.bootstrap)
    return list(percentile_interval(values, task.confidence))


def test(task: Task, first: Sequence[Item], second: Sequence[Item], groups: Sequence[str],
         group: str = "") -> float:
    """The p-value of the difference between two submissions' F of a group (or overall), on the same
    sentences: :func:`mrp.report.stats.paired_test` (its replicates and count, from the replicates' F of
    :func:`replicated`), or its stratified form for the groups' mean F."""
    a = arrays(first, groups)
    if not _varies(task, a, groups, group):
        return 1.0
    b = arrays(second, groups)
    if len(groups) == 1 and not group:
        group = groups[0]
    if group or task.overall == "micro":
        names = [group] if group else list(groups)
        left = np.concatenate([a[name] for name in names])
        right = np.concatenate([b[name] for name in names])
        if task.bootstrap < 1 or left.shape != right.shape:  # refused there, as it says
            return paired_test(left, right, task.bootstrap, task.seed)
        totals = [array.astype(np.float64).sum(axis=0).reshape(1, 3) for array in (left, right)]
        observed = float(micro_f(totals[0])[0] - micro_f(totals[1])[0])
        values = replicated([left, right], task.bootstrap, task.seed)
        deltas = values[0] - values[1] - observed
        return p_value(strays(deltas, observed), task.bootstrap)
    names = list(groups)
    firsts, seconds = [a[name] for name in names], [b[name] for name in names]
    if any(x.shape != y.shape for x, y in zip(firsts, seconds)):
        raise ValueError("the two submissions must be scored on the same sentences")
    full = [np.ones((1, len(x))) for x in firsts]
    observed = float(_macro(firsts, full)[0] - _macro(seconds, full)[0]) if names else 0.0
    deltas = _stratified_macro(firsts, task.seed, task.bootstrap) - \
        _stratified_macro(seconds, task.seed, task.bootstrap) - observed
    return p_value(strays(deltas, observed), task.bootstrap)


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
    f = np.concatenate([micro_f(weights @ array) for weights in chunks])
    return percentile_interval(f, level)

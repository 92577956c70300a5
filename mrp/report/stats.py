"""Statistics over per-item counts: macro averages, bootstrap intervals and paired significance tests.

Everything here works on the per-item ``(g, s, c)`` counts of a traced result
(``--trace``: ``"scores": {framework: {id: item}}``).  A *count path* names a
count triple of the result, e.g. ``("all",)`` for MRP, ``("labeled", "primary")``
for UCCA and ``()`` for SMATCH, whose counts sit at the top level.

* :func:`item_counts` turns a traced result into one ``(items, 3)`` int64 array per count path, rows
  in a stable item order (framework, then id, as listed; :func:`item_keys` gives that order).
* :func:`micro` and :func:`macro` are the point estimates: micro P/R/F from the summed counts (as the
  scorers report them), macro the mean of per-item P/R/F over the items with ``g + s > 0``.
* :func:`bootstrap` gives percentile confidence intervals of both, resampling items with replacement
  (one set of resampled items per replicate, shared by all paths).
* :func:`paired_test` gives the p-value of the difference in micro F between two
  systems scored on the same items.
* :func:`annotate` adds ``"macro"`` (and with a bootstrap ``"ci"`` and
  ``"bootstrap"``) to a traced result.

P = c/s, R = c/g, F = 2PR/(P+R), each 0.0 where undefined (as :func:`mrp.report.render.prf`). All
randomness comes from ``numpy.random.default_rng(seed)``: the same input and seed give the same output.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping  # isinstance checks against it are several times cheaper than typing's
from typing import Any, Dict, Hashable, Iterator, List, Optional, Sequence, Tuple, TypeVar

import numpy as np

from mrp.report.few import few_macro
from mrp.report.items import item_counts, item_keys, item_rows

Path = Tuple[str, ...]
Interval = List[float]
#: one item's (g, s, c), or None when the item does not report them
Counts = Optional[Tuple[int, int, int]]
#: the key of a set of per-item counts (a count path, or anything else hashable)
Key = TypeVar("Key", bound=Hashable)

#: at most this many (replicate, item) cells are held in memory at once
_CELLS = 1 << 22
#: floating-point slack when comparing differences in F with the observed one
_EPS = 1e-12

METHODS = ("bootstrap", "randomization")


def _array(rows: Sequence[Tuple[int, int, int]]) -> np.ndarray:
    return np.array(rows, dtype=np.int64).reshape(len(rows), 3)


def _check(counts: np.ndarray) -> np.ndarray:
    array = np.asarray(counts)
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError(f"per-item counts must have shape (items, 3), not {array.shape}")
    return array


def _prf(g: np.ndarray, s: np.ndarray, c: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Elementwise P, R, F of float arrays, 0.0 where undefined (the formula of mrp.report.render.prf)."""
    p = np.divide(c, s, out=np.zeros(np.shape(c)), where=s != 0)
    r = np.divide(c, g, out=np.zeros(np.shape(c)), where=g != 0)
    total = p + r
    f = np.divide(2 * p * r, total, out=np.zeros(np.shape(c)), where=total != 0)
    return p, r, f


def micro(counts: np.ndarray) -> Tuple[float, float, float]:
    """Micro P, R, F: from the counts summed over items (what the scorers report)."""
    g, s, c = np.asarray(_check(counts), dtype=np.float64).sum(axis=0)
    p, r, f = _prf(np.array(g), np.array(s), np.array(c))
    return float(p), float(r), float(f)


def _per_item(counts: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-item P, R, F, and the mask (as 0.0/1.0) of the items with g + s > 0."""
    array = _check(counts).astype(np.float64)
    g, s, c = array[:, 0], array[:, 1], array[:, 2]
    p, r, f = _prf(g, s, c)
    mask = ((g + s) > 0).astype(np.float64)
    return p, r, f, mask


def macro(counts: np.ndarray) -> Tuple[float, float, float, int]:
    """Macro P, R, F and how many items were averaged.

    The mean of per-item P, R and F over the items with ``g + s > 0`` (an item
    with nothing to count in either graph is left out); all 0.0 and 0 items
    when there is no such item.
    """
    few = few_macro(_check(counts))
    if few is not None:
        return few
    p, r, f, mask = _per_item(counts)
    keep = mask > 0
    items = int(np.count_nonzero(keep))
    if not items:
        return 0.0, 0.0, 0.0, 0
    return float(np.mean(p[keep])), float(np.mean(r[keep])), float(np.mean(f[keep])), items


def _weights(rng: np.random.Generator, replicates: int, items: int) -> np.ndarray:
    """A (replicates, items) float matrix: how often each item is drawn in each bootstrap replicate."""
    draws = rng.integers(0, items, size=(replicates, items))
    flat = (draws + (np.arange(replicates, dtype=np.int64) * items)[:, None]).ravel()
    return np.bincount(flat, minlength=replicates * items).reshape(replicates, items).astype(np.float64)


def replicate_weights(seed: int, n: int, items: int) -> Iterator[np.ndarray]:
    """The bootstrap's weights of ``n`` replicates of ``items`` items drawn from ``seed``, chunk by chunk
    (:data:`_CELLS` cells at most); one chunk is kept for the next call with the same arguments (the
    weights are a function of them alone: every interval and test of one seed resamples alike).

    Args:
        seed: the random generator's seed.
        n: replicates.
        items: items resampled in each.

    Returns:
        The (replicates, items) weight matrices in replicate order (read-only).
    """
    if n * items <= _CELLS:
        yield _kept_weights(seed, n, items)
        return
    rng = np.random.default_rng(seed)
    for size in _chunks(n, items):
        yield _weights(rng, size, items)


@functools.lru_cache(maxsize=2)
def _kept_weights(seed: int, n: int, items: int) -> np.ndarray:
    weights = _weights(np.random.default_rng(seed), n, items)
    weights.flags.writeable = False
    return weights


def _chunks(n: int, items: int) -> List[int]:
    size = max(1, _CELLS // max(1, items))
    return [min(size, n - start) for start in range(0, n, size)]


def _check_level(level: float) -> None:
    if not 0.0 < level < 1.0:
        raise ValueError(f"the confidence level must lie strictly between 0 and 1, not {level}")


def bootstrap(counts_by_path: Mapping[Key, np.ndarray], n: int, seed: int,
              level: float = 0.95) -> Dict[Key, Dict[str, Dict[str, Interval]]]:
    """Percentile bootstrap intervals of micro and macro P, R, F for every path.

    Each of the ``n`` replicates resamples the items with replacement (the
    same resampled items for every path), and the interval of each measure is
    the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of its replicate
    values.  Returns path -> ``{"micro": {"p": [lo, hi], "r": ..., "f": ...},
    "macro": {...}}``.  Raises ValueError for ``n < 1``, a level outside
    (0, 1), or paths with different numbers of items.
    """
    if n < 1:
        raise ValueError(f"the number of bootstrap replicates must be at least 1, not {n}")
    _check_level(level)
    arrays = {path: _check(counts).astype(np.float64) for path, counts in counts_by_path.items()}
    sizes = {array.shape[0] for array in arrays.values()}
    if len(sizes) > 1:
        raise ValueError(f"all paths must have the same items, but their item counts are {sorted(sizes)}")
    if not arrays:
        return {}
    items = sizes.pop()
    # per path: the columns whose weighted sums give the replicate's micro counts and macro sums
    columns = {}
    for path, array in arrays.items():
        p, r, f, mask = _per_item(array)
        columns[path] = np.column_stack([array, p * mask, r * mask, f * mask, mask])
    values = {path: np.zeros((n, 6)) for path in arrays}
    start = 0
    for weights in replicate_weights(seed, n, items) if items else [np.zeros((n, 0))]:
        size = weights.shape[0]
        for path, column in columns.items():
            sums = weights @ column
            block = values[path][start:start + size]
            block[:, 0], block[:, 1], block[:, 2] = _prf(sums[:, 0], sums[:, 1], sums[:, 2])
            averaged = sums[:, 6]
            for k in range(3):
                block[:, 3 + k] = np.divide(sums[:, 3 + k], averaged, out=np.zeros(size), where=averaged > 0)
        start += size
    quantiles = [(1.0 - level) / 2.0, (1.0 + level) / 2.0]
    out: Dict[Key, Dict[str, Dict[str, Interval]]] = {}
    for path, table in values.items():
        bounds = np.quantile(table, quantiles, axis=0)
        out[path] = {
            kind: {name: [float(bounds[0, offset + k]), float(bounds[1, offset + k])]
                   for k, name in enumerate("prf")}
            for kind, offset in (("micro", 0), ("macro", 3))
        }
    return out


def _micro_f(g: np.ndarray, s: np.ndarray, c: np.ndarray) -> np.ndarray:
    return _prf(g, s, c)[2]


def micro_f(sums: np.ndarray) -> np.ndarray:
    """The micro F of each row of summed counts, 0.0 where undefined (:func:`micro`'s F, row by row).

    Args:
        sums: (rows, 3) float counts (g, s, c), e.g. one row per bootstrap replicate.

    Returns:
        F per row.
    """
    return _micro_f(sums[:, 0], sums[:, 1], sums[:, 2])


def percentile_interval(values: np.ndarray, level: float) -> Tuple[float, float]:
    """A percentile interval: the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of replicate values
    (:func:`bootstrap`'s, of one measure).

    Args:
        values: one value per replicate.
        level: the confidence level, in (0, 1).

    Returns:
        The interval's low and high ends.
    """
    low, high = np.quantile(values, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return float(low), float(high)


def strays(deltas: np.ndarray, observed: float) -> int:
    """How many replicates differ at least as much as observed: ``|delta| >= |observed|`` (within 1e-12), the
    count :func:`paired_test`'s p-value is made of (:func:`p_value`).

    Args:
        deltas: the replicates' differences (for the paired bootstrap, centred on the observed one).
        observed: the observed difference.

    Returns:
        The count.
    """
    return int(np.count_nonzero(np.abs(deltas) >= abs(observed) - _EPS))


def p_value(hits: int, n: int) -> float:
    """A test's p-value from the replicates that differ at least as much as observed: ``(hits + 1) / (n +
    1)``, never 0.

    Args:
        hits: the count (:func:`strays`).
        n: the replicates.

    Returns:
        The p-value.
    """
    return (hits + 1) / (n + 1)


def paired_test(a: np.ndarray, b: np.ndarray, n: int, seed: int, method: str = "bootstrap") -> float:
    """The p-value that the difference in micro F between systems A and B is due to chance.

    ``a`` and ``b`` are the per-item (g, s, c) of the two systems on the same
    items in the same order.  The test is two-sided, and both methods return
    ``(k + 1) / (n + 1)`` (never 0; exactly 1.0 for identical systems):

    * ``"bootstrap"``: the paired bootstrap of Berg-Kirkpatrick, Burkett and
      Klein (2012), made two-sided.  Each of ``n`` replicates resamples the
      items jointly for both systems; ``k`` counts the replicates whose
      difference ``d*`` strays at least as far from the observed ``d`` as ``d``
      from zero, ``|d* - d| >= |d|`` (the bootstrap distribution shifted to
      mean zero approximates the null; their one-sided test counts ``d* > 2d``).
      This is not Koehn's (2004) test, which counts the replicates where A
      does not beat B.
    * ``"randomization"``: approximate randomization (Noreen 1989; Riezler and
      Maxwell 2005).  Each of ``n`` replicates swaps the two systems' counts of
      each item with probability 1/2; ``k`` counts ``|d*| >= |d|``.

    With fewer than two items there is nothing to resample (every bootstrap replicate is the observed
    sample): the test says nothing, and p is 1.0.

    Raises ValueError for arrays of different shapes, ``n < 1`` or an unknown method.
    """
    if method not in METHODS:
        raise ValueError(f"unknown test method '{method}' (known: {', '.join(METHODS)})")
    if n < 1:
        raise ValueError(f"the number of test samples must be at least 1, not {n}")
    first, second = _check(a).astype(np.float64), _check(b).astype(np.float64)
    if first.shape != second.shape:
        raise ValueError(f"the two systems must be scored on the same items: shapes {first.shape} and "
                         f"{second.shape}")
    items = first.shape[0]
    if items < 2:
        return 1.0
    total_a, total_b = first.sum(axis=0), second.sum(axis=0)
    observed = float(_micro_f(*total_a) - _micro_f(*total_b))
    hits = 0
    if method == "bootstrap":
        for weights in replicate_weights(seed, n, items):
            deltas = micro_f(weights @ first) - micro_f(weights @ second) - observed
            hits += strays(deltas, observed)
        return p_value(hits, n)
    rng = np.random.default_rng(seed)
    for size in _chunks(n, items):
        swaps = (rng.random((size, items)) < 0.5).astype(np.float64)
        moved = swaps @ (second - first)
        sums_a, sums_b = total_a + moved, total_b - moved
        hits += strays(micro_f(sums_a) - micro_f(sums_b), observed)
    return p_value(hits, n)


def _place(document: Dict[str, Any], path: Path, value: Mapping[str, Any]) -> None:
    """Put value at path of a nested document (at the top, merged in, for the empty path)."""
    node = document
    for key in path:
        node = node.setdefault(key, {})
    node.update(value)


def annotate(result: Dict[str, Any], bootstrap: Optional[int], seed: int, level: float = 0.95) -> None:
    """Add macro averages, and with ``bootstrap`` replicates confidence intervals, to a traced result.

    Adds ``"macro"``, mirroring the result's nesting with ``{"p", "r", "f",
    "items"}`` at each count path (for SMATCH, whose counts are at the top,
    ``"macro"`` is that object itself).  With ``bootstrap`` (the number of
    replicates) also ``"ci"``, mirroring it with ``{"micro": {"p": [lo, hi],
    "r": ..., "f": ...}, "macro": {...}}``, and ``"bootstrap": {"n", "seed",
    "level"}``.  ``"scores"`` is kept.  Raises ValueError when the result
    carries no ``"scores"``.
    """
    rows = item_rows(result)
    averages: Dict[str, Any] = {}
    for path, counts in rows.items():  # one or two items without numpy's arrays (the same numbers)
        few = few_macro(counts) if len(counts) <= 2 else None
        p, r, f, items = few if few is not None else macro(_array(counts))
        _place(averages, path, {"p": p, "r": r, "f": f, "items": items})
    if averages or "macro" not in result:  # a metric without count triples keeps its own macro values
        result["macro"] = averages
    if bootstrap is None:
        return
    intervals = _bootstrap({path: _array(found) for path, found in rows.items()}, bootstrap, seed, level)
    ci: Dict[str, Any] = {}
    for path, value in intervals.items():
        _place(ci, path, value)
    result["ci"] = ci
    result["bootstrap"] = {"n": bootstrap, "seed": seed, "level": level}


_bootstrap = bootstrap


def pair_counts(results: Sequence[Mapping[str, Any]], path: Path) -> Tuple[List[Tuple[str, str]],
                                                                           List[np.ndarray]]:
    """The counts at path of several traced results on the items all of them share.

    Returns the shared (framework, id) keys, in the first result's order, and
    for each result its (items, 3) array in that order.  Raises ValueError
    when a result lacks the path.
    """
    keyed = []
    for result in results:
        counts = item_counts(result)
        if path not in counts:
            raise ValueError(f"the result has no counts at {'/'.join(path) or 'the top level'}")
        keyed.append(dict(zip(item_keys(result), counts[path])))
    if not keyed:
        return [], []
    shared = [key for key in keyed[0] if all(key in other for other in keyed[1:])]
    arrays = [np.array([table[key] for key in shared], dtype=np.int64).reshape(len(shared), 3)
              for table in keyed]
    return shared, arrays

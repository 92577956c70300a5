"""Top-k neighbours without scoring every pair, exactly.

Each pair of a metric that declares label counts (:meth:`mrp.engine.base.Metric.label_counts`; SMATCH
does) has a cheap upper bound of its F: its g and s are known before any search, and its c is at most the
overlap of the two graphs' label-only tuple multisets (for SMATCH: a node-local triple matches only a
triple with the same name and value, a relation only one with the same label, and a node map is one to
one, so each label matches at most ``min(sum_a * max_b, sum_b * max_a)`` copies, ``min(count_a, count_b)``
where triples are sets).  For each row the candidates are taken in order of that bound, in rounds (k, then
twice as many, ...); a row is settled when its k-th best F scored so far is above the bound of every
candidate not scored.  No skipped pair can enter a top k (ties: lower column index first), so the lists
equal those of the full matrix.  A metric without such a bound scores every pair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Set, Tuple

import numpy as np

from mrp.allpairs.engine import Engine, run_blocks
from mrp.allpairs.matrix import DEFAULT_BLOCK, f_array
from mrp.allpairs.work import Block, Work
from mrp.corpora import live
from mrp.metrics.registry import metric

__all__ = ["SLACK", "TopK", "bounds", "top_k"]

#: a candidate is skipped only when its F bound is below the k-th best F by more than this (floating point)
SLACK = 1e-9

Bounds = Callable[[int], np.ndarray]


@dataclass
class TopK:
    """Per row, its k best columns (``neighbours``, -1 where a row has fewer) by F, then column index, with
    their F, g, s, c, bound and exactness; how many pairs were scored and how many were skipped."""

    neighbours: np.ndarray
    f: np.ndarray
    g: np.ndarray
    s: np.ndarray
    c: np.ndarray
    bound: np.ndarray
    exact: np.ndarray
    scored: int
    skipped: int
    #: pairs a full run would score (the diagonal of a square run left out)
    candidates: int
    rounds: int
    failed: List[Tuple[int, int]] = field(default_factory=list)


def bounds(work: Work) -> Optional[Bounds]:
    """``row -> F bound of the row against every column``, or None when the metric has no cheap bound
    (:meth:`mrp.engine.base.Metric.label_counts`)."""
    counts = metric(work.metric).label_counts(work.options)
    if counts is None:
        return None
    rows = [counts(live(graph)) for graph in work.rows]
    columns = rows if work.columns is None else [counts(live(graph)) for graph in work.columns]
    index: Dict[object, Tuple[List[int], List[int], List[int]]] = {}
    for j, (labels, _) in enumerate(columns):
        for key, (total, most) in labels.items():
            entry = index.setdefault(key, ([], [], []))
            entry[0].append(j)
            entry[1].append(total)
            entry[2].append(most)
    arrays = {key: (np.array(a, np.int64), np.array(b, np.int64), np.array(c, np.int64))
              for key, (a, b, c) in index.items()}
    s = np.array([total for _, total in columns], np.float64)

    def row(i: int) -> np.ndarray:
        labels, g = rows[i]
        c = np.zeros(len(columns), np.int64)
        for key, (total, most) in labels.items():
            found = arrays.get(key)
            if found is not None:
                where, totals, mosts = found
                c[where] += np.minimum(total * mosts, totals * most)
        return f_array(np.full(len(columns), float(g)), s, c.astype(np.float64))

    return row


def _order(fub: np.ndarray, exclude: Optional[int]) -> np.ndarray:
    """Columns by decreasing bound, then increasing index (a row's own column left out)."""
    order = np.lexsort((np.arange(len(fub)), -fub))
    return order[order != exclude] if exclude is not None else order


def top_k(work: Work, k: int, engine: Engine, block_size: int = DEFAULT_BLOCK) -> TopK:
    """Every row's top ``k`` columns by F, exactly, scoring only the pairs that can enter one."""
    n, m = work.n, work.m
    square = work.columns is None
    bound_of = bounds(work)
    known: List[Dict[int, Tuple[float, ...]]] = [{} for _ in range(n)]
    pointer = [0] * n
    step = [max(1, k)] * n
    settled = [False] * n
    scored = 0
    rounds = 0
    failed: List[Tuple[int, int]] = []
    while True:
        wanted: Set[Tuple[int, int]] = set()
        for i in range(n):
            if settled[i]:
                continue
            fub = bound_of(i) if bound_of is not None else np.full(m, np.inf)
            order = _order(fub, i if square else None)
            while pointer[i] < len(order) and int(order[pointer[i]]) in known[i]:
                pointer[i] += 1
            values = sorted((value[0] for value in known[i].values()), reverse=True)
            if pointer[i] >= len(order) or (len(values) >= k
                                            and values[k - 1] > fub[order[pointer[i]]] + SLACK):
                settled[i] = True
                continue
            if bound_of is None:
                chosen = [int(j) for j in order if int(j) not in known[i]]
            else:
                chosen = []
                for j in order[pointer[i]:].tolist():
                    if j not in known[i]:
                        chosen.append(j)
                        if len(chosen) >= step[i]:
                            break
            step[i] *= 2
            for j in chosen:
                wanted.add((min(i, j), max(i, j)) if work.once else (i, j))
        if not wanted:
            break
        rounds += 1
        ordered = sorted(wanted)
        rows_all = np.array([pair[0] for pair in ordered], np.int64)
        columns_all = np.array([pair[1] for pair in ordered], np.int64)
        size = max(1, block_size)
        blocks: List[Block] = [(rows_all[a:a + size], columns_all[a:a + size])
                               for a in range(0, len(ordered), size)]
        for block, result in zip(blocks, run_blocks(work, blocks, engine)):
            rows, columns = np.asarray(block[0]), np.asarray(block[1])
            f = result["f"] if "f" in result else f_array(result["g"], result["s"], result["c"])
            for x, (i, j) in enumerate(zip(rows.tolist(), columns.tolist())):
                known[i][j] = (float(f[x]), result["g"][x], result["s"][x], result["c"][x],
                               result["bound"][x], bool(result["exact"][x]))
                if work.once and i != j:
                    known[j][i] = (float(f[x]), result["s"][x], result["g"][x], result["c"][x],
                                   result["bound"][x], bool(result["exact"][x]))
            failed.extend((int(rows[x]), int(columns[x])) for x in result["failed"].tolist())
            scored += len(rows)
    return _gathered(work, k, known, scored, rounds, failed)


def _gathered(work: Work, k: int, known: List[Dict[int, Tuple[float, ...]]], scored: int, rounds: int,
              failed: List[Tuple[int, int]]) -> TopK:
    n, m = work.n, work.m
    square = work.columns is None
    neighbours = np.full((n, k), -1, np.int64)
    arrays = {name: np.zeros((n, k), np.float64) for name in ("f", "g", "s", "c", "bound")}
    exact = np.zeros((n, k), np.bool_)
    for i in range(n):
        best = sorted(((-value[0], j) for j, value in known[i].items() if not (square and j == i)))[:k]
        for x, (_, j) in enumerate(best):
            value = known[i][j]
            neighbours[i, x] = j
            for y, name in enumerate(("f", "g", "s", "c", "bound")):
                arrays[name][i, x] = value[y]
            exact[i, x] = value[5]
    candidates = n * (n - 1) // 2 if (square and work.once) else (n * (m - 1) if square else n * m)
    return TopK(neighbours, arrays["f"], arrays["g"], arrays["s"], arrays["c"], arrays["bound"], exact,
                scored, max(0, candidates - scored), candidates, rounds, sorted(set(failed)))

"""Ensemble selection by Bayes risk (MBSE): per sentence, the candidate graph with the highest mean
similarity to the other systems' candidates.

Candidate ``a`` of a sentence is scored as a system graph against each other candidate ``b`` as gold
(F(gold=b, system=a); the same as F(a, b) for a symmetric metric such as SMATCH), and its mean over the
other candidates is its expected score; the highest mean wins, a tie going to the lowest system index.
All candidate pairs of all sentences are scored as one all-pairs run (blocks, workers or a cluster)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Sequence

import numpy as np

from mrp.allpairs.engine import Engine, run_blocks
from mrp.allpairs.matrix import DEFAULT_BLOCK, f_array
from mrp.allpairs.work import Block, Work
from mrp.errors import InputError
from mrp.metrics.options import Options

__all__ = ["Selection", "align", "select"]


@dataclass
class Selection:
    """Per sentence (in the first system's order): the chosen system, every candidate's mean similarity,
    and the K x K matrix of F (row: gold candidate, column: system candidate; the diagonal unused)."""

    #: per sentence, the graphs' positions in each system's file (sentences x systems)
    positions: np.ndarray
    chosen: np.ndarray
    means: np.ndarray
    f: np.ndarray
    exact: np.ndarray
    pairs: int


def align(names: Sequence[str], ids: Sequence[Sequence[str]]) -> np.ndarray:
    """Positions of each sentence's graph in each system (sentences x systems): by id where every system
    has the same ids, each once; else by position where the systems hold as many graphs."""
    first = list(ids[0])
    unique = all(len(set(system)) == len(system) for system in ids)
    if unique and all(set(system) == set(first) for system in ids):
        where = [{graph_id: k for k, graph_id in enumerate(system)} for system in ids]
        return np.array([[where[x][graph_id] for x in range(len(ids))] for graph_id in first], np.int64)
    for name, system in zip(names, ids):
        if len(system) != len(first):
            raise InputError(f"{name}: holds {len(system)} graphs, {names[0]} holds {len(first)}, and their "
                             "ids "
                             "differ: the systems cannot be paired by id or by position")
    return np.array([[k] * len(ids) for k in range(len(first))], np.int64)


def select(metric: str, options: Options, systems: Sequence[Sequence[Any]], positions: np.ndarray, once: bool,
           engine: Engine, block_size: int = DEFAULT_BLOCK) -> Selection:
    """The MBSE selection over the systems' graphs (``positions`` from :func:`align`)."""
    count, k = positions.shape
    if k < 2:
        raise InputError("ensemble selection needs at least two systems")
    rows: List[Any] = []
    for x in range(k):
        rows.extend(systems[x][int(p)] for p in positions[:, x])
    pairs = [(a * count + sentence, b * count + sentence) for sentence in range(count)
             for a in range(k) for b in range(k) if (a < b if once else a != b)]
    work = Work(metric, options, rows, None, once)
    size = max(1, block_size)
    gold = np.array([pair[0] for pair in pairs], np.int64)
    system = np.array([pair[1] for pair in pairs], np.int64)
    blocks: List[Block] = [(gold[a:a + size], system[a:a + size]) for a in range(0, len(pairs), size)]
    f = np.zeros((count, k, k), np.float64)
    exact = np.ones((count, k, k), np.bool_)
    for block, result in zip(blocks, run_blocks(work, blocks, engine)):
        values = result["f"] if "f" in result else f_array(result["g"], result["s"], result["c"])
        gold_of, system_of = np.asarray(block[0]), np.asarray(block[1])
        for x, (i, j) in enumerate(zip(gold_of.tolist(), system_of.tolist())):
            sentence, a, b = i % count, i // count, j // count
            f[sentence, a, b] = values[x]
            exact[sentence, a, b] = result["exact"][x]
            if once:
                f[sentence, b, a] = values[x]
                exact[sentence, b, a] = result["exact"][x]
    means = np.zeros((count, k), np.float64)
    chosen = np.zeros(count, np.int64)
    for sentence in range(count):
        for a in range(k):
            total = 0.0
            for b in range(k):
                if b != a:
                    total += float(f[sentence, b, a])
            means[sentence, a] = total / (k - 1)
        best = max(means[sentence].tolist())
        chosen[sentence] = means[sentence].tolist().index(best)
    return Selection(positions, chosen, means, f, exact, len(pairs))

"""Ensemble selection by Bayes risk (MBSE): per sentence, the candidate graph with the highest mean
similarity to the other systems' candidates.

Candidate ``a`` of a sentence is scored as a system graph against each other candidate ``b`` as gold
(F(gold=b, system=a); the same as F(a, b) for a symmetric metric such as SMATCH), and its mean over the
other candidates is its expected score; the highest mean wins, a tie going to the lowest system index.
All candidate pairs of all sentences are scored as one all-pairs run (blocks, workers or a cluster)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from mrp.allpairs.engine import Engine, run_blocks
from mrp.allpairs.matrix import DEFAULT_BLOCK, f_array
from mrp.allpairs.work import Block, Work
from mrp.corpora import Corpus, entries
from mrp.engine import Options, PairingWarning, positional
from mrp.errors import InputError
from mrp.graph import Graph

__all__ = ["Candidates", "Selection", "candidates", "select"]


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


@dataclass
class Candidates:
    """The systems' graphs per sentence, paired as scoring pairs them, and what each system lacked."""

    #: the sentences' ids, in the first system's order, then those only later systems have
    ids: List[str]
    #: per system, per sentence its graph (an empty graph where it has none, or its graph was unreadable)
    graphs: List[List[Any]]
    #: per system, the pairing counts: sentences without its graph (``missing``), unreadable graphs
    #: (``invalid``), repeated ids (``duplicates``, the first kept); neither of the first two is a candidate
    counts: List[Dict[str, int]]
    #: sentences x systems: whether the system offers a graph it read for the sentence
    present: np.ndarray


def candidates(names: Sequence[str], corpora: Sequence[Corpus]) -> Candidates:
    """The candidates of each sentence: by id (a sentence any system has; a system without it, or whose
    graph there could not be read, offers none: an empty graph in ``graphs``, not ``present``);
    by position where no file gives ids and all hold as many graphs; else InputError.  Each system's
    counts are warned of (:class:`mrp.engine.pairing.PairingWarning`) when not zero."""
    given = [positional(corpus) for corpus in corpora]
    if any(given) and not all(given):
        bare, named = names[given.index(True)], names[given.index(False)]
        raise InputError(f"{bare} gives no graph ids and {named} does: the systems cannot be paired by id "
                         "(add # ::id lines)")
    if all(given):
        sizes = [len(corpus.graphs) + len(corpus.errors) for corpus in corpora]
        for name, size in zip(names, sizes):
            if size != sizes[0]:
                raise InputError(f"{name}: holds {size} graphs, {names[0]} holds {sizes[0]}, and neither "
                                 "gives graph ids: the systems cannot be paired (by position, every graph "
                                 "after a missing one would pair with the wrong sentence; add # ::id lines)")
    ids: Dict[str, None] = {}
    found: List[Dict[str, Any]] = []
    broken: List[Set[str]] = []
    counts: List[Dict[str, int]] = []
    for corpus in corpora:
        mine: Dict[str, Any] = {}
        count = {"missing": 0, "invalid": 0, "duplicates": 0}
        read: List[Tuple[int, int, str, Any]] = [(entry.line or 0, 1, str(entry.id), entry)
                                                 for entry in entries(corpus.graphs)]
        unread: List[Tuple[int, int, str, Any]] = [
            (error.line or 0, 0, str(error.graph_id), Graph(str(error.graph_id), error.framework))
            for error in corpus.errors if error.graph_id is not None]
        count["invalid"] = len(corpus.errors)
        for _, kind, graph_id, graph in sorted(read + unread, key=lambda item: item[:2]):
            if graph_id in mine:
                count["duplicates"] += kind  # an unreadable graph is counted as invalid already
            else:
                mine[graph_id] = graph
                ids.setdefault(graph_id, None)
        found.append(mine)
        counts.append(count)
        broken.append({graph_id for _, kind, graph_id, _ in unread})
    framework = next((graph.framework for mine in found for graph in mine.values()), None)
    graphs: List[List[Any]] = []
    present = np.zeros((len(ids), len(names)), np.bool_)
    for x, (name, mine, count) in enumerate(zip(names, found, counts)):
        row: List[Any] = []
        for sentence, graph_id in enumerate(ids):
            if graph_id not in mine:
                count["missing"] += 1
            row.append(mine.get(graph_id) or Graph(graph_id, framework))
            present[sentence, x] = graph_id in mine and graph_id not in broken[x]
        graphs.append(row)
        parts = []
        if count["missing"]:
            parts.append(f"{count['missing']} of {len(ids)} sentence(s) without its graph (no candidate)")
        if count["invalid"]:
            parts.append(f"{count['invalid']} unreadable graph(s) (no candidate)")
        if count["duplicates"]:
            parts.append(f"{count['duplicates']} graph(s) repeating an id (the first kept)")
        if parts:
            warnings.warn(f"{name}: {'; '.join(parts)}", PairingWarning, stacklevel=2)
    return Candidates(list(ids), graphs, counts, present)


def select(metric: str, options: Options, systems: Sequence[Sequence[Any]], positions: np.ndarray, once: bool,
           engine: Engine, block_size: int = DEFAULT_BLOCK,
           present: Optional[np.ndarray] = None) -> Selection:
    """The MBSE selection over the systems' graphs (``positions``: per sentence, each graph's position in its
    system; for :func:`candidates`' graphs, the sentence's own number).  ``present`` (sentences x systems):
    which systems offer a candidate (:attr:`Candidates.present`; default all); a sentence's mean is over
    the other candidates present, and an absent candidate is never chosen while one is present."""
    count, k = positions.shape
    if k < 2:
        raise InputError("ensemble selection needs at least two systems")
    if present is None:
        present = np.ones((count, k), np.bool_)
    rows: List[Any] = []
    for x in range(k):
        rows.extend(systems[x][int(p)] for p in positions[:, x])
    pairs = [(a * count + sentence, b * count + sentence) for sentence in range(count)
             for a in range(k) for b in range(k)
             if (a < b if once else a != b) and present[sentence, a] and present[sentence, b]]
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
        offered = [a for a in range(k) if present[sentence, a]] or list(range(k))
        for a in offered:
            others = [b for b in offered if b != a]
            total = 0.0
            for b in others:
                total += float(f[sentence, b, a])
            means[sentence, a] = total / len(others) if others else 1.0
        best = max(float(means[sentence, a]) for a in offered)
        chosen[sentence] = next(a for a in offered if float(means[sentence, a]) == best)
    return Selection(positions, chosen, means, f, exact, len(pairs))

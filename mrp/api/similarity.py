"""All-pairs similarity from Python: :func:`similarity` (the N x N or N x M matrix, or top-k neighbours)
and :func:`ensemble` (MBSE selection among systems), on local worker processes or a Dask cluster."""

from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from mrp.allpairs.checkpoint import Store, digest
from mrp.allpairs.engine import Engine, Status
from mrp.allpairs.matrix import DEFAULT_BLOCK, full
from mrp.allpairs.topk import top_k as neighbours_of
from mrp.allpairs.work import Work, check, pair_count, symmetric
from mrp.api.scoring import _plan
from mrp.corpora import Corpus, entries, reading_together
from mrp.engine import AUTO, AUTO_MAX, checked
from mrp.errors import InputError
from mrp.io.option_files import content_digest
from mrp.metrics.registry import metric as registered
from mrp.pipeline.inputs import Graphs, corpus_of, read_options
from mrp.pipeline.steps import penman_corpora, standardized
from mrp.process.worker import cpu_seconds

__all__ = ["Similarity", "prepared", "similarity", "engine_of", "running_options"]

#: the keyword arguments of :func:`similarity` that say how it runs (the rest are mrp.score's)
RUNNING = ("top_k", "jobs", "block_size", "client", "scheduler", "checkpoint", "resume", "progress")


@dataclass
class Similarity:
    """An all-pairs result: ``f``, ``g``, ``s``, ``c``, ``bound``, ``exact`` as N x M arrays (row: the
    graph as gold, column: as system), or N x k arrays with ``neighbours`` (column indices, -1: none) in
    top-k mode; ``ids`` of the rows and ``other_ids`` of the columns (None: the rows)."""

    metric: str
    ids: List[str]
    other_ids: Optional[List[str]]
    f: np.ndarray
    g: np.ndarray
    s: np.ndarray
    c: np.ndarray
    bound: np.ndarray
    exact: np.ndarray
    #: pairs scored (a symmetric metric scores each unordered pair once)
    pairs: int
    symmetric: bool
    #: top-k mode: k, the neighbours, and the pairs the bound showed could not enter any top k
    k: Optional[int] = None
    neighbours: Optional[np.ndarray] = None
    skipped: int = 0
    #: (row, column) pairs whose scoring failed (their counts are a lower bound)
    failed: List[Tuple[int, int]] = field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0

    @property
    def all_exact(self) -> bool:
        """Whether every figure is proved optimal (in top-k mode: every listed neighbour's)."""
        if self.neighbours is not None:
            return bool(self.exact[self.neighbours >= 0].all())
        return bool(self.exact.all())

    def arrays(self) -> Dict[str, np.ndarray]:
        """The arrays an ``.npz`` holds (plain numbers and strings: loadable with ``allow_pickle=False``)."""
        out = {"f": self.f, "c": self.c, "g": self.g, "s": self.s, "bound": self.bound, "exact": self.exact,
               "ids": np.array(self.ids, dtype=str)}
        if self.other_ids is not None:
            out["other_ids"] = np.array(self.other_ids, dtype=str)
        if self.neighbours is not None:
            out["neighbours"] = self.neighbours
        return out

    def columns(self) -> Dict[str, List[Any]]:
        """The figures as a table, one row per pair (per listed neighbour in top-k mode): ``row`` (the id of
        the graph as gold), ``rank`` (top-k only, from 1), ``column`` (the id as system), f, c, g, s, bound,
        exact."""
        columns_ids = self.other_ids if self.other_ids is not None else self.ids
        out: Dict[str, List[Any]] = {"row": []}
        if self.neighbours is not None:
            out["rank"] = []
        out.update((name, []) for name in ("column", "f", "c", "g", "s", "bound", "exact"))
        for i, gid in enumerate(self.ids):
            for k in range(self.f.shape[1]):
                j = int(self.neighbours[i, k]) if self.neighbours is not None else k
                if j < 0:
                    continue
                out["row"].append(gid)
                if self.neighbours is not None:
                    out["rank"].append(k + 1)
                out["column"].append(columns_ids[j])
                for name in ("f", "c", "g", "s", "bound"):
                    out[name].append(getattr(self, name)[i, k].item())
                out["exact"].append(bool(self.exact[i, k]))
        return out

    def save(self, path: str) -> None:
        """Write the result in the format the file's name says (:func:`mrp.io.tables.table_format`): the
        :meth:`arrays` to an ``.npz``, the :meth:`columns` to ``.csv``, ``.parquet`` or ``.arrow``
        (atomically).

        Raises:
            MRPError: an unknown extension, or Parquet/Arrow without pyarrow.
        """
        import io

        from mrp.io.tables import encode_table, table_format
        from mrp.io.write import write_bytes

        kind = table_format(path)
        if kind == "npz":
            archive = io.BytesIO()
            np.savez_compressed(archive, **self.arrays())  # type: ignore[arg-type]
            write_bytes(path, archive.getvalue())
        else:
            write_bytes(path, encode_table(self.columns(), kind))

    def summary(self) -> Dict[str, Any]:
        """The report: what was computed, how exactly, and how fast."""
        out: Dict[str, Any] = {"metric": self.metric, "n": len(self.ids),
                               "m": len(self.other_ids) if self.other_ids is not None else len(self.ids),
                               "symmetric": self.symmetric, "pairs": self.pairs}
        if self.k is not None:
            out.update(k=self.k, skipped=self.skipped)
        out["exact"] = self.all_exact
        out["inexact"] = int((~self.exact[self.neighbours >= 0]).sum() if self.neighbours is not None
                             else (~self.exact).sum())
        out["failed"] = len(self.failed)
        out["time"], out["cpu"] = round(self.seconds, 3), round(self.cpu, 3)
        out["pairs_per_second"] = round(self.pairs / self.seconds, 1) if self.seconds > 0 else None
        return out


def _checked(corpus: Corpus) -> Corpus:
    if corpus.errors:
        raise InputError(f"{corpus.name}: {len(corpus.errors)} invalid graph(s), the first: "
                         f"{corpus.errors[0]}; nothing scored")
    return corpus


def prepared(graphs: Graphs, other: Optional[Graphs], metric: str, options: Dict[str, Any],
             names: Tuple[str, str] = ("graphs", "other")) -> Tuple[Work, Corpus, Optional[Corpus]]:
    """The work of an all-pairs run: the corpora read (invalid graphs refused), the options as
    :func:`mrp.score` plans them, and whether each unordered pair is scored once."""
    plan = _plan(metric, options, "mrp.similarity")
    check(plan.metric)
    reading = read_options(**plan.reading)
    if other is not None:  # the texts the two collections share parsed once
        reading = reading_together(reading)
    first = _checked(corpus_of(graphs, plan.formats[1], reading, names[0]))
    second = _checked(corpus_of(other, plan.formats[1], reading, names[1])) if other is not None else None
    penman = penman_corpora(plan.triples, [first, second if second is not None else first])
    first = standardized(first, plan.standardization)
    if second is not None:
        second = standardized(second, plan.standardization)
    scoring = dataclasses.replace(plan.options, penman=penman, trace=False)
    work = Work(plan.metric, scoring, list(entries(first.graphs)),
                list(entries(second.graphs)) if second is not None else None,
                second is None and symmetric(plan.metric))
    return work, first, second


def manifest(work: Work, block_size: int, mode: str) -> Dict[str, Any]:
    """What a checkpoint is made for: the inputs' digests, the metric, its options, the layout of blocks."""
    options = {key: value for key, value in dataclasses.asdict(work.options).items() if key != "run"}
    files = {}
    for parameter in registered(work.metric).parameters:  # a file by its content: where it is changes nothing
        named = parameter.value(work.options) if parameter.file else None
        if named:
            files[f"{parameter.flag} content"] = content_digest(os.fspath(named), parameter.flag)
            if parameter.field in options:
                options[parameter.field] = "file"
            else:
                options["parameters"][parameter.field] = "file"
    return {"mode": mode, "metric": work.metric, "options": json.loads(json.dumps(options, default=str)),
            "rows": digest(work.rows), "columns": digest(work.columns) if work.columns is not None else None,
            "once": work.once, "block_size": block_size, **files}


def running_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """The running options (:data:`RUNNING`) taken out of ``options``, their numbers checked.

    Args:
        options: the keyword arguments of :func:`similarity` or :func:`mrp.ensemble` (changed in place).

    Returns:
        The running options, ``jobs`` as a number (0: auto).
    """
    running = {key: options.pop(key) for key in RUNNING if key in options}
    for name in ("top_k", "block_size", "jobs"):
        if name in running:
            running[name] = checked(name, running[name])
    return running


def engine_of(work: Work, running: Dict[str, Any], mode: str) -> Tuple[Engine, Any]:
    """The engine the running options ask for, and a client to close afterwards (or None)."""
    jobs = running.get("jobs", 1)  # checked by running_options
    if jobs == AUTO:
        from mrp.process.forked import available_cpus

        jobs = max(1, min(available_cpus(), AUTO_MAX))
    client, made = running.get("client"), None
    if client is None and running.get("scheduler"):
        from mrp.allpairs.cluster import connect

        client = made = connect(str(running["scheduler"]), jobs)
    store = None
    if running.get("checkpoint"):
        store = Store(os.fspath(running["checkpoint"]),
                      manifest(work, int(running.get("block_size") or DEFAULT_BLOCK), mode),
                      bool(running.get("resume")))
    progress: Optional[Callable[[Status], None]] = running.get("progress")
    return Engine(jobs, client, store, progress), made


def _ids(corpus: Optional[Corpus]) -> Optional[List[str]]:
    return None if corpus is None else [str(graph.id) for graph in entries(corpus.graphs)]


def similarity(graphs: Graphs, other: Optional[Graphs] = None, metric: str = "smatch", **options: Any
               ) -> Similarity:
    """Every graph scored against every other (``other`` None: N x N) or against every graph of ``other``
    (N x M), with a metric's exact pair scoring: cell (i, j) equals ``mrp.score([graphs[i]], [other[j]])``.

    A symmetric metric (SMATCH, MRP) scores each unordered pair once and fills (j, i) with g and s swapped;
    the diagonal is each graph against itself (F 1.0, or 0.0 for a graph without tuples, as mrp.score).
    ``top_k=K``: each row's K best columns by F (ties: lower index), its own column left out, skipping the
    pairs a cheap bound shows cannot enter any top K; ``jobs`` (1, N or "auto"): local worker processes;
    ``client`` (a ``dask.distributed.Client``) or ``scheduler`` (an address, or "local" for a cluster of
    ``jobs`` processes on 127.0.0.1): blocks run as Dask tasks; ``block_size``: pairs per block;
    ``checkpoint`` (a directory) with ``resume``: finished blocks are kept and a resumed run scores only
    the missing ones; ``progress``: a function given an :class:`mrp.allpairs.engine.Status` per block.
    Every other keyword is :func:`mrp.score`'s (``format``, ``timeout``, ``smatch_compat``, ...).
    The numbers do not depend on the engine, the block size or the number of workers.
    """
    running = running_options(options)
    start, cpu = time.time(), cpu_seconds()
    work, first, second = prepared(graphs, other, metric, options)
    block_size = int(running.get("block_size") or DEFAULT_BLOCK)
    k = running.get("top_k")
    engine, made = engine_of(work, running, "top-k" if k else "matrix")
    try:
        if k:
            found = neighbours_of(work, int(k), engine, block_size)
            result = Similarity(work.metric, _ids(first) or [], _ids(second), found.f, found.g, found.s,
                                found.c, found.bound, found.exact, found.scored, work.once, int(k),
                                found.neighbours, found.skipped, found.failed)
        else:
            matrix = full(work, engine, block_size)
            assert matrix.pairs == pair_count(work)
            result = Similarity(work.metric, _ids(first) or [], _ids(second), matrix.f, matrix.g, matrix.s,
                                matrix.c, matrix.bound, matrix.exact, matrix.pairs, work.once,
                                failed=matrix.failed)
    finally:
        if made is not None:
            from mrp.allpairs.cluster import close

            close(made)
    result.seconds = time.time() - start
    result.cpu = cpu_seconds() - cpu
    return result

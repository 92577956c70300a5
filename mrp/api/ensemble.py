"""Ensemble selection from Python: :func:`ensemble` picks per sentence the candidate with the highest mean
similarity to the other systems' candidates (MBSE), optionally scoring the selection against gold."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from mrp.allpairs.ensemble import Selection, candidates, select
from mrp.allpairs.matrix import DEFAULT_BLOCK
from mrp.allpairs.work import Work, check, symmetric
from mrp.api.scoring import _plan, score
from mrp.api.similarity import engine_of, running_options
from mrp.corpora import Corpus, entries, live, reading_together
from mrp.errors import InputError
from mrp.graph import Graph
from mrp.pipeline.inputs import Graphs, corpus_of, read_options
from mrp.pipeline.steps import penman_corpora, standardized

__all__ = ["Ensemble", "ensemble"]


@dataclass
class Ensemble:
    """The selection: the chosen graphs in sentence order, which system each came from, and the report
    (per sentence: chosen system, every candidate's mean similarity, all pairwise F)."""

    metric: str
    systems: List[str]
    graphs: List[Graph]
    chosen: List[int]
    selection: Selection = field(repr=False)
    ids: List[str] = field(default_factory=list)
    #: with gold: the primary F of the selection and of each system against it
    gold: Optional[Dict[str, Any]] = None
    seconds: float = 0.0
    #: per system, its pairing counts (missing, invalid, duplicates; see mrp.allpairs.ensemble.candidates)
    pairing: List[Dict[str, int]] = field(default_factory=list)

    def report(self) -> Dict[str, Any]:
        """The JSON report."""
        counts = [0] * len(self.systems)
        for k in self.chosen:
            counts[k] += 1
        sentences = []
        for x, graph_id in enumerate(self.ids):
            sentences.append({"id": graph_id, "chosen": self.chosen[x],
                              "system": self.systems[self.chosen[x]],
                              "mean": float(self.selection.means[x, self.chosen[x]]),
                              "means": [float(v) for v in self.selection.means[x]],
                              "f": [[float(v) for v in row] for row in self.selection.f[x]],
                              "exact": bool(self.selection.exact[x].all())})
        out: Dict[str, Any] = {"metric": self.metric, "systems": self.systems, "n": len(self.ids),
                               "pairs": self.selection.pairs, "chosen": counts,
                               "exact": all(item["exact"] for item in sentences),
                               "pairing": dict(zip(self.systems, self.pairing))}
        if self.gold is not None:
            out["gold"] = self.gold
        out["time"] = round(self.seconds, 3)
        out["sentences"] = sentences
        return out


def _name(value: Any, k: int) -> str:
    if isinstance(value, (str, os.PathLike)) and "\n" not in str(value):
        return os.fspath(value)
    return f"system{k + 1}"


def ensemble(systems: Sequence[Graphs], metric: str = "smatch", gold: Optional[Graphs] = None,
             names: Optional[Sequence[str]] = None, **options: Any) -> Ensemble:
    """MBSE over ``systems`` (paths, text or lists of graphs; the same sentences, paired by id, else by
    position): per sentence, the candidate whose mean F against the other candidates (each as gold) is
    highest, a tie going to the lowest system index.  With ``gold``, the selection and each system are
    scored against it with :func:`mrp.score` (the same options).  Running options as :func:`mrp.similarity`
    (``jobs``, ``client``, ``scheduler``, ``block_size``, ``progress``); the rest are mrp.score's."""
    running = running_options(options)
    start = time.time()
    if len(systems) < 2:
        raise InputError("ensemble selection needs at least two systems")
    labels = list(names) if names is not None else [_name(value, k) for k, value in enumerate(systems)]
    plan = _plan(metric, dict(options), "mrp.ensemble")
    check(plan.metric)
    reading = reading_together(read_options(**plan.reading))  # texts parsed once for all
    corpora: List[Corpus] = []
    for label, value in zip(labels, systems):
        corpora.append(corpus_of(value, plan.formats[1], reading, label))
    penman = all(penman_corpora(plan.triples, [corpus]) for corpus in corpora)
    found = candidates(labels, corpora)  # paired as scoring pairs: by id, a missing or broken graph empty
    originals = found.graphs
    prepared = [list(entries(standardized(Corpus(corpus.name, corpus.format, list(row)),
                                          plan.standardization).graphs))
                    for corpus, row in zip(corpora, originals)]
    positions = np.tile(np.arange(len(found.ids), dtype=np.int64)[:, None], (1, len(corpora)))
    from dataclasses import replace

    scoring = replace(plan.options, penman=penman, trace=False)
    work = Work(plan.metric, scoring, [], None, symmetric(plan.metric))
    engine, made = engine_of(work, {key: value for key, value in running.items() if key != "checkpoint"},
                             "ensemble")
    try:
        selection = select(plan.metric, scoring, prepared, positions, work.once, engine,
                           int(running.get("block_size") or DEFAULT_BLOCK), found.present)
    finally:
        if made is not None:
            from mrp.allpairs.cluster import close

            close(made)
    chosen = [int(k) for k in selection.chosen]
    graphs = [live(originals[k][int(positions[x, k])]) for x, k in enumerate(chosen)]
    result = Ensemble(plan.metric, labels, graphs, chosen, selection, found.ids, pairing=found.counts)
    if gold is not None:
        scores: Dict[str, Any] = {"selection": score(gold, graphs, plan.metric, **options).f}
        scores["systems"] = [score(gold, value, plan.metric, **options).f for value in systems]
        result.gold = scores
    result.seconds = time.time() - start
    return result

"""A submission scored file by file with the task's metrics, through the one pipeline (reading, pairing of
sentences, the metric's driver), keeping each sentence's counts for the averages and the statistics.

Each gold file is scored against the system file of the same name on its own, so that a UMR file's compat
figure is what ``compare_umr.pl`` prints for that pair of files; a missing file, or one the task scores as
empty, is an empty system file (every gold triple missed: ``compare_umr.pl`` prints no figure for a file
without nodes, and ``micro_average.pl`` would then leave that file's gold triples out of the sums).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from mrp.codecs import ReadOptions
from mrp.errors import InputError, ScoreError
from mrp.io.corpus import Corpus
from mrp.io.load import read_corpus
from mrp.metrics import driver
from mrp.metrics.base import Run, parameter_values
from mrp.metrics.options import DEFAULT_TIMEOUT, Options
from mrp.metrics.pairing import pair
from mrp.metrics.registry import metric as registered
from mrp.metrics.registry import module_of
from mrp.report.signature import Statistics, signature
from mrp.task.definition import MetricSpec, Task

__all__ = ["Counts", "Item", "Scored", "explained_pairs", "options_of", "read_gold", "read_system",
           "score_file", "score_submission"]

Counts = Tuple[int, int, int]


@dataclass(frozen=True)
class Item:
    """One sentence's counts (g, s, c) at the metric's primary path, with its group and file."""

    group: str
    file: str
    id: str
    counts: Counts
    exact: bool = True


@dataclass
class Scored:
    """One submission under one metric: every sentence's counts in gold order, notes, the signature."""

    spec: MetricSpec
    items: List[Item] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    signature: str = ""
    #: per file, the pairing's counts: gold sentences, those without a system sentence (scored as empty),
    #: system sentences paired with none, system sentences that could not be read
    pairing: Dict[str, Dict[str, int]] = field(default_factory=dict)


def options_of(spec: MetricSpec, explain: bool = False) -> Options:
    """The options a task's metric is run with (the library's defaults, and under ``compat`` the metric's
    switch to its reference tool's behaviour: its parameter ``<metric>_compat``, when it has one)."""
    switch = f"{spec.metric}_compat"
    compat = spec.compat and any(parameter.field == switch
                                 for parameter in registered(spec.metric).parameters)
    return Options(trace=True, timeout=DEFAULT_TIMEOUT, explain=explain,
                   **parameter_values({switch: True} if compat else {}))


def read_gold(name: str, path: str, task: Task) -> Corpus:
    """A gold file, refused (ScoreError) when any of its graphs cannot be read."""
    try:
        corpus = read_corpus(path, task.format, ReadOptions())
    except InputError as error:
        raise ScoreError(f"gold {name}: {error}") from None
    if corpus.errors:
        raise ScoreError(f"gold {name}: {len(corpus.errors)} graph(s) cannot be read, the first: "
                         f"{corpus.errors[0]}; nothing scored")
    return corpus


def _system(name: str, path: Optional[str], task: Task, notes: List[str]) -> Corpus:
    if path is None:
        return Corpus(name, task.format)
    try:
        return read_corpus(path, task.format, ReadOptions())
    except InputError as error:
        notes.append(f"{name}: {error} (scored as empty)")
        return Corpus(name, task.format)


def score_file(spec: MetricSpec, gold: Corpus, system: Corpus, explain: bool = False) -> Run:
    """One gold file against its system file: the metric's Run (every sentence pair)."""
    try:
        pairing = pair(gold, system)
    except InputError as error:
        raise ScoreError(f"{system.name}: {error}") from None
    done, _ = driver.run(module_of(spec.metric).METRIC, pairing, options_of(spec, explain))
    return done


def _group(task: Task, name: str, framework: Optional[str]) -> str:
    return (framework or "none") if task.group == "framework" else task.group_of(name)


def read_system(task: Task, gold: Dict[str, Corpus], system: Dict[str, Optional[str]]
                ) -> Tuple[Dict[str, Corpus], List[str]]:
    """The system corpus of each gold file (an empty corpus for a missing file, or one that cannot be used
    at all), read once for every metric, and the notes on what could not be read."""
    notes: List[str] = []
    return {name: _system(name, system.get(name), task, notes) for name in gold}, notes


def score_submission(task: Task, spec: MetricSpec, gold: Dict[str, Corpus], system: Dict[str, Corpus],
                     notes: Sequence[str] = ()) -> Scored:
    """Every gold file against the submission's corpus of the same name.

    Args:
        task: the task.
        spec: the metric.
        gold: the gold corpora by file name.
        system: the system corpus for each gold file name (empty: missing, or scored as empty).
        notes: what reading the system files found (kept with the result).

    Returns:
        The sentences' counts at the metric's primary path, in gold order, and the notes of the pairing.
    """
    path = registered(spec.metric).primary or ()
    out = Scored(spec, notes=list(notes))
    frameworks = set()
    for name, corpus in gold.items():
        done = score_file(spec, corpus, system[name])
        out.notes.extend(f"{name}: {note}" for note in done.pairing.notes)
        out.pairing[name] = {"sentences": len(done.pairing.pairs),
                             "missing": sum(1 for item in done.pairing.pairs if item.null),
                             "unpaired": len(done.pairing.unpaired), "invalid": len(done.pairing.invalid)}
        if done.pairing.unpaired:
            out.notes.append(f"{name}: {len(done.pairing.unpaired)} system graph(s) pair with no gold graph "
                             "(not scored)")
        for item, result in zip(done.pairing.pairs, done.results):
            gold_graph = item.gold_entry
            frameworks.add(gold_graph.framework or "none")
            counts: Any = result.counts.get(path, (0, 0, 0))
            out.items.append(Item(_group(task, name, gold_graph.framework), name, gold_graph.id,
                                  (int(counts[0]), int(counts[1]), int(counts[2])), bool(result.exact)))
    statistics = Statistics(task.bootstrap, task.seed, "bootstrap")
    out.signature = f"task:{task.name}|" + signature(spec.metric, sorted(frameworks), options_of(spec),
                                                      statistics)
    return out


def explained_pairs(task: Task, spec: MetricSpec, gold: Corpus, system: Optional[str],
                    ids: List[str]) -> Tuple[Any, Run]:
    """The metric and the Run of one file scored with every pair's detail kept (for the pictures of the
    pairs ``ids``)."""
    notes: List[str] = []
    done = score_file(spec, gold, _system(gold.name, system, task, notes), explain=True)
    return module_of(spec.metric).METRIC, done

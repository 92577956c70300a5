"""A submission scored file by file with the task's metrics, through the one pipeline (reading, pairing of
sentences, the metric's driver), keeping each sentence's counts for the averages and the statistics.

Each gold file is scored against the system file of the same name on its own, so that a UMR file's compat
figure is what ``compare_umr.pl`` prints for that pair of files; a missing file, or one the task scores as
empty, is an empty system file (every gold triple missed: ``compare_umr.pl`` prints no figure for a file
without nodes, and ``micro_average.pl`` would then leave that file's gold triples out of the sums).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type

from mrp.corpora import Corpus
from mrp.errors import InputError, ScoreError
from mrp.metrics import DEFAULT_TIMEOUT, Execution, Options, Run, module_of
from mrp.metrics import metric as registered
from mrp.pipeline import compat_values, paired, run_pairing
from mrp.pipeline import run_options as options_from
from mrp.report.signature import Statistics, signature
from mrp.task.definition import MetricSpec, Task
from mrp.task.figures import SUMMED
from mrp.task.memo import EvaluationMemo
from mrp.task.reading import read_file

__all__ = ["Counts", "FileScore", "Item", "Scored", "explained_pairs", "file_score", "options_of",
           "score_file", "score_files_first", "score_submission"]

#: the names a file pair is scored under when its score is kept for every pair of the same content (the
#: notes and messages then name the files of each pair)
_GOLD, _SYSTEM = "\x00gold\x00", "\x00system\x00"

Counts = Tuple[int, int, int]


@dataclass(frozen=True)
class Item:
    """One sentence's counts (g, s, c) at the metric's primary path, with its group and file."""

    group: str
    file: str
    id: str
    counts: Counts
    exact: bool = True
    #: AnCast's precision and recall sums of the sentence (None for a metric of counts)
    sums: Optional[Tuple[Any, Any]] = None


@dataclass
class Scored:
    """One submission under one metric: every sentence's counts in gold order, notes, the signature."""

    spec: MetricSpec
    items: List[Item] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    signature: str = ""
    #: per file, the pairing's counts: gold sentences, those without a system sentence (scored as empty),
    #: system sentences paired with none, system sentences that could not be read, system sentences read by
    #: a repair
    pairing: Dict[str, Dict[str, int]] = field(default_factory=dict)


def options_of(spec: MetricSpec, explain: bool = False) -> Options:
    """The options a task's metric is run with (the library's defaults, and under ``compat`` the metric's
    switch to its reference tool's behaviour: its parameter ``<metric>_compat``, when it has one).  In a
    command's own process (mrp-evaluate, its forked children) what each run made is moved out of the
    collector's way when it ends (``Execution.ending``; the library leaves it to the collector): otherwise
    the first collection after each run walks every object the run made, and the older generations walk
    them again (a third of the night's CPU)."""
    return options_from({"trace": True, "timeout": DEFAULT_TIMEOUT, "explain": explain},
                        {**dict(spec.options), **compat_values(spec.metric, spec.compat)},
                        run=Execution(ending=True))


def score_file(spec: MetricSpec, gold: Corpus, system: Corpus, explain: bool = False) -> Run:
    """One gold file against its system file, through the pipeline every door scores with: the metric's Run
    (every sentence pair)."""
    try:
        pairing = paired(gold, system)
    except InputError as error:
        raise ScoreError(f"{system.name}: {error}") from None
    return run_pairing(spec.metric, pairing, options_of(spec, explain))[0]


@dataclass(frozen=True)
class FileScore:
    """One gold file scored against its system file, naming neither (notes and warnings name them by
    placeholders): per gold sentence its id, framework, counts at every count path of the metric (a task's
    figures at different paths of one run share it) and whether they are proved; the pairing's counts; the
    pairing's notes; the warnings raised."""

    rows: Tuple[Tuple[str, Optional[str], Dict[Tuple[str, ...], Tuple[Any, ...]], bool,
                      Optional[Tuple[Any, Any]]], ...]
    pairing: Tuple[Tuple[str, int], ...]
    notes: Tuple[str, ...]
    warnings: Tuple[Tuple[Type[Warning], str], ...]


def _ancast_sums(spec: MetricSpec, result: Any) -> Optional[Tuple[Any, Any]]:
    """AnCast's precision and recall sums of a sentence (None for another metric); a sentence AnCast 0.1.1
    skips adds nothing under ``compat``, as its corpus figures leave it out."""
    if spec.metric not in SUMMED:
        return None
    found = result.extra["ancast"]
    if spec.compat and found.skipped is not None:
        return None
    return found.precision, found.recall


def _renamed(corpus: Corpus, name: str) -> Corpus:
    return Corpus(name, corpus.format, corpus.graphs, corpus.errors, corpus.repaired)


def _named(text: str, gold: Corpus, system: Corpus) -> str:
    return text.replace(_GOLD, gold.name).replace(_SYSTEM, system.name)


def file_score(spec: MetricSpec, gold: Corpus, system: Corpus) -> FileScore:
    """One gold file against its system file, scored under placeholder names (so that the score holds for
    any two files of the same content).

    Args:
        spec: the metric.
        gold: the gold corpus.
        system: the system corpus.

    Returns:
        The file's score.

    Raises:
        ScoreError: for files that cannot be paired (naming the files).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            done = score_file(spec, _renamed(gold, _GOLD), _renamed(system, _SYSTEM))
        except ScoreError as error:
            raise ScoreError(_named(str(error), gold, system)) from None
    rows = []
    for item, result in zip(done.pairing.pairs, done.results):
        rows.append((item.gold_entry.id, item.gold_entry.framework, dict(result.counts), bool(result.exact),
                     _ancast_sums(spec, result)))
    notes = list(done.pairing.notes)
    if done.pairing.unpaired:
        notes.append(f"{len(done.pairing.unpaired)} system graph(s) pair with no gold graph (not scored)")
    pairing = (("sentences", len(done.pairing.pairs)),
               ("missing", sum(1 for item in done.pairing.pairs if item.null)),
               ("unpaired", len(done.pairing.unpaired)), ("invalid", len(done.pairing.invalid)),
               ("repaired", done.pairing.repaired))
    return FileScore(tuple(rows), pairing, tuple(notes),
                     tuple((warning.category, str(warning.message)) for warning in caught))


def _group(task: Task, name: str, framework: Optional[str]) -> str:
    return (framework or "none") if task.group == "framework" else task.group_of(name)


def score_submission(task: Task, spec: MetricSpec, gold: Dict[str, Corpus], system: Dict[str, Corpus],
                     notes: Sequence[str] = (), memo: Optional[EvaluationMemo] = None,
                     keys: Optional[Mapping[str, Tuple[Optional[str], Optional[str]]]] = None) -> Scored:
    """Every gold file against the submission's corpus of the same name.

    Args:
        task: the task.
        spec: the metric.
        gold: the gold corpora by file name.
        system: the system corpus for each gold file name (empty: missing, or scored as empty).
        notes: what reading the system files found (kept with the result).
        memo: the evaluation's memo: a file pair's score is kept under the content keys of its two files
            and the metric's options (None: every pair scored).
        keys: per gold file name, the content keys of its gold and system corpus (None: not kept).

    Returns:
        The sentences' counts at the metric's primary path, in gold order, and the notes of the pairing.
    """
    path = tuple(spec.path.split("/")) if spec.path else registered(spec.metric).primary or ()
    out = Scored(spec, notes=list(notes))
    frameworks = set()
    memo = memo or EvaluationMemo(enabled=False)
    number = signature(spec.metric, (), options_of(spec))
    groups: Dict[Tuple[str, Optional[str]], str] = {}  # a file's group, found once (a pattern match each)
    for name, corpus in gold.items():
        other = system[name]
        key = _key(name, corpus, other, number, keys)
        done = memo.get("scored", key, partial(file_score, spec, corpus, other))
        for category, message in done.warnings:
            memo.warn(category, _named(message, corpus, other))
        out.notes.extend(f"{name}: {_named(note, corpus, other)}" for note in done.notes)
        out.pairing[name] = dict(done.pairing)
        for ident, framework, paths, exact, sums in done.rows:
            frameworks.add(framework or "none")
            found: Any = paths.get(path, (0, 0, 0))
            counts = (int(found[0]), int(found[1]), int(found[2]))
            group = groups.get((name, framework))
            if group is None:
                group = groups[name, framework] = _group(task, name, framework)
            out.items.append(Item(group, name, ident, counts, exact, sums))
    statistics = Statistics(task.bootstrap, task.seed, "bootstrap")
    out.signature = f"task:{task.name}|" + (f"path:{spec.path}|" if spec.path else "") + \
        signature(spec.metric, sorted(frameworks), options_of(spec), statistics)
    return out


def _key(name: str, gold: Corpus, system: Corpus, number: str,
         keys: Optional[Mapping[str, Tuple[Optional[str], Optional[str]]]]) -> Optional[Tuple[Any, ...]]:
    """A file pair's key in the memo: the contents of its two files, their formats and the metric's
    signature of options (every count path of one run shares it); None: not kept."""
    gold_key, system_key = (keys or {}).get(name, (None, None))
    if gold_key is None or system_key is None:
        return None
    return gold_key, system_key, gold.format, system.format, number


def score_files_first(task: Task, gold: Dict[str, Corpus], system: Dict[str, Corpus], memo: EvaluationMemo,
                      keys: Mapping[str, Tuple[Optional[str], Optional[str]]]) -> None:
    """Every file pair scored under each of the task's metrics in turn, file by file, into the memo (a
    metric's runs on one pairing share its preparation, :class:`mrp.metrics.umatch.metric.UMatch`), before
    :func:`score_submission` takes them metric by metric: the same scores, messages and order as without.

    Args:
        task: the task.
        gold: the gold corpora by file name.
        system: the system corpus for each gold file name.
        memo: the evaluation's memo (disabled: nothing done).
        keys: per gold file name, the content keys of its gold and system corpus.
    """
    if not memo.enabled:
        return
    numbers = [signature(spec.metric, (), options_of(spec)) for spec in task.metrics]
    for name, corpus in gold.items():
        other = system[name]
        for spec, number in zip(task.metrics, numbers):
            key = _key(name, corpus, other, number, keys)
            if key is not None:
                memo.get("scored", key, partial(file_score, spec, corpus, other))


def explained_pairs(task: Task, spec: MetricSpec, gold: Corpus, system: Optional[str],
                    ids: List[str], memo: Optional[EvaluationMemo] = None) -> Tuple[Any, Run]:
    """One file scored with every pair's detail kept (for the pictures of the pairs ``ids``).

    Args:
        task: the task.
        spec: the metric.
        gold: the gold corpus.
        system: the system file (None: empty).
        ids: the pairs to be drawn.
        memo: the evaluation's memo (the system file read through it).

    Returns:
        The metric and the Run.
    """
    corpus = Corpus(gold.name, task.format)
    if system is not None:
        try:
            corpus, _ = read_file(system, task.format, memo)
        except InputError:
            pass
    done = score_file(spec, gold, corpus, explain=True)
    return module_of(spec.metric).METRIC, done

"""Scoring from Python: :func:`score` for a corpus, :class:`Scorer` for batches, and :func:`finish`, the
last step every result takes (macro figures, intervals, signature), shared with mrp-score."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional, Tuple

from mrp.api.inputs import Graphs, corpus_of, read_options
from mrp.api.results import Result
from mrp.errors import ScoreError
from mrp.io.corpus import Corpus
from mrp.io.load import collector_paused
from mrp.metrics import driver
from mrp.metrics.options import DEFAULT_TIMEOUT, Execution, Options, checked
from mrp.metrics.pairing import Pairing, duplicate_errors, key, pair
from mrp.metrics.registry import canonical, module_of
from mrp.metrics.registry import metric as registered
from mrp.process.packed import entries, mapped
from mrp.report.outcome import complete, finish, frameworks_scored
from mrp.report.signature import Statistics

__all__ = ["DEFAULT_TIMEOUT", "Scorer", "finish", "primary_path", "score"]


_READING = ("framework", "text", "no_wiki", "strict", "wsj_ids")
_OPTIONS = ("limit", "timeout", "jobs", "smatch_compat", "ancast_compat", "aspect_depth", "sembleu_weights",
            "sembleu_compat", "errors")


def primary_path(metric: str) -> Optional[Tuple[str, ...]]:
    """Where a metric's primary figures sit in its result (None: it has no single figure, as aspects)."""
    return registered(metric).figure_path()


@dataclass
class _Plan:
    """Everything :func:`score` decides from its keyword arguments."""

    metric: str
    options: Options
    statistics: Statistics
    standardization: Any
    triples: Optional[str]
    formats: Tuple[Optional[str], Optional[str]]
    reading: Dict[str, Any]


#: every keyword argument of score() and Scorer()
_KNOWN = frozenset(_READING) | frozenset(_OPTIONS) | {"standardize", "bootstrap", "seed", "triples", "mip",
                                                       "format", "gold_format", "progress"}


#: plans by (metric, keyword arguments) for calls without progress (a training loop repeats its call)
_PLANS: Dict[Any, _Plan] = {}
_PLANS_KEPT = 64


def _plan(metric: str, arguments: Dict[str, Any]) -> _Plan:
    if arguments.get("progress"):
        return _planned(metric, arguments)
    try:
        key = (metric, tuple(sorted((name, type(value), value) for name, value in arguments.items())))
        found = _PLANS.get(key)
    except TypeError:  # an unhashable option value (sembleu_weights as a list): planned each time
        return _planned(metric, arguments)
    if found is None:
        if len(_PLANS) >= _PLANS_KEPT:
            _PLANS.clear()
        found = _PLANS[key] = _planned(metric, arguments)
    return found


def _planned(metric: str, arguments: Dict[str, Any]) -> _Plan:
    unknown = sorted(set(arguments) - _KNOWN)
    if unknown:
        raise TypeError(f"mrp.score() got unexpected keyword argument(s): {', '.join(unknown)}")
    from mrp.standardize.options import parse

    name = canonical(metric)
    std = parse(arguments.get("standardize", "none"))
    values = {option: arguments[option] for option in _OPTIONS if option in arguments}
    values["timeout"] = checked("timeout", values.get("timeout", DEFAULT_TIMEOUT))
    values["limit"] = checked("limit", values.get("limit"))
    jobs = checked("jobs", values.pop("jobs", 1))
    progress = arguments.get("progress")
    if progress is True:
        from mrp.report.progress import Line

        progress = Line("mrp", "gold", show=True)
    run = Execution(jobs=jobs, progress=progress or None)
    options = Options(trace=True, mip=arguments.get("mip", True), standardization=std.name(),
                      no_wiki=bool(arguments.get("no_wiki")), strict=bool(arguments.get("strict")), run=run,
                      **values)
    statistics = Statistics(checked("bootstrap", arguments.get("bootstrap")),
                            checked("seed", arguments.get("seed", 0)))
    return _Plan(name, options, statistics, std, arguments.get("triples"),
                 (arguments.get("gold_format", arguments.get("format")), arguments.get("format")),
                 {option: arguments[option] for option in _READING if option in arguments})


def _penman(gold: Corpus, system: Corpus, triples: Optional[str]) -> bool:
    """SMATCH counts the original tool's triples on AMR read from Penman (as mrp-score does)."""
    if triples == "mrp":
        return False
    if gold.format == system.format == "amr":
        return True
    return all(graph.framework in (None, "amr") and graph.layout is not None
               for corpus in (gold, system) for graph in corpus.graphs)


def _checked_gold(gold: Corpus) -> None:
    bad = gold.errors + duplicate_errors(gold)
    if bad:
        raise ScoreError(f"{gold.name}: {len(bad)} invalid gold graph(s), the first: {bad[0]}; "
                         "nothing scored")


def _paired(gold: Corpus, system: Corpus, plan: _Plan) -> Pairing:
    frameworks = [plan.reading["framework"]] if plan.reading.get("framework") else None
    pairing = pair(gold, system, frameworks)
    if not pairing.pairs:
        raise ScoreError(f"{gold.name}: no gold graph to score")
    paired = {key(g) for g in entries(system.graphs)} & {key(p.gold_entry) for p in pairing.pairs}
    if not paired and not pairing.invalid:
        raise ScoreError(f"{system.name}: no system graph pairs with a gold graph by (framework, id)")
    return pairing


def _standardized(corpus: Corpus, std: Any) -> Corpus:
    if std.active():
        from mrp.standardize.graph import standardize

        corpus.graphs = mapped(corpus.graphs, lambda graph: standardize(graph, std))
    return corpus


def _pairing(gold: Graphs, system: Graphs, plan: _Plan) -> Tuple[Pairing, Options]:
    reading = read_options(**plan.reading)
    gold_corpus = corpus_of(gold, plan.formats[0], reading, "gold")
    _checked_gold(gold_corpus)
    system_corpus = corpus_of(system, plan.formats[1], reading, "system")
    penman = _penman(gold_corpus, system_corpus, plan.triples)
    gold_corpus = _standardized(gold_corpus, plan.standardization)
    system_corpus = _standardized(system_corpus, plan.standardization)
    options = object.__new__(Options)  # dataclasses.replace or copy.copy cost more than the scoring of a pair
    options.__dict__.update(plan.options.__dict__, penman=penman)
    return _paired(gold_corpus, system_corpus, plan), options


def score(gold: Graphs, system: Graphs, metric: str = "mrp", **options: Any) -> Result:
    """Score system graphs against gold graphs with one metric, as ``mrp-score`` does.

    ``gold`` and ``system``: a path, text (Penman or MRP JSON lines), or a list of
    :class:`mrp.Graph`, ``penman.Graph``, Penman strings, MRP JSON strings or dicts.
    Options (the defaults are mrp-score's): ``timeout`` (60 s per pair; 0: none),
    ``limit``, ``mip``, ``jobs`` (1, or "auto"), ``triples`` ("penman"/"mrp"),
    ``smatch_compat``, ``ancast_compat``, ``aspect_depth``, ``sembleu_weights``,
    ``sembleu_compat``, ``standardize``, ``bootstrap``, ``seed``, ``errors``,
    ``format``, ``gold_format``, ``framework``, ``text``, ``no_wiki``, ``strict``,
    ``progress``.  Raises :class:`mrp.errors.MRPError` subclasses for input that
    cannot be scored; never prints.
    """
    plan = _plan(metric, options)
    with collector_paused(freeze=False):
        pairing, scoring = _pairing(gold, system, plan)
        result, details = module_of(plan.metric).evaluate(pairing, scoring)
        frameworks = frameworks_scored(pairing)
        del pairing  # the graphs go before the collector resumes (it would walk them all once more)

    def completion(document: Dict[str, Any]) -> None:
        complete(plan.metric, document, frameworks, scoring, plan.statistics)
        if details:
            document["errors"] = details

    return Result(plan.metric, primary_path(plan.metric), result, completion=completion)


class Scorer:
    """A metric's score accumulated over batches (``update``), then computed once (``compute``): the same
    numbers as scoring the concatenated batches in one call."""

    def __init__(self, metric: str = "mrp", **options: Any) -> None:
        self._plan = _plan(metric, options)
        self._runs: List[driver.Run] = []
        self._penman: Optional[bool] = None
        self._seen = 0

    def update(self, gold: Graphs, system: Graphs) -> None:
        """Score one batch of pairs (gold and system in the same order, or paired by id)."""
        with collector_paused(freeze=False):
            self._update(gold, system)

    def _update(self, gold: Graphs, system: Graphs) -> None:
        pairing, scoring = _pairing(gold, system, self._plan)
        if self._penman is None:
            self._penman = scoring.penman
        elif self._penman != scoring.penman:
            raise ScoreError("a batch of Penman graphs and a batch of other graphs cannot be scored together")
        pairing = _renumbered(pairing, self._seen)
        self._seen += len(pairing.pairs)
        run, _ = driver.run(module_of(self._plan.metric).METRIC, pairing, scoring)
        self._runs.append(run)

    def reset(self) -> None:
        """Forget every batch."""
        self._runs, self._penman, self._seen = [], None, 0

    def compute(self) -> Result:
        """The result over every batch so far."""
        if not self._runs:
            raise ScoreError("no batch was scored: call update() first")
        module = module_of(self._plan.metric)
        run = driver.combined(self._runs)
        result = driver.summary(module.METRIC, run)
        options = replace(self._plan.options, penman=bool(self._penman))
        finish(self._plan.metric, result, run.pairing, options, self._plan.statistics)
        return Result(self._plan.metric, primary_path(self._plan.metric), result)


def _renumbered(pairing: Pairing, offset: int) -> Pairing:
    """Pairs whose gold graphs are numbered by position get ids counted across batches (so that the items
    of two batches do not share ids)."""
    if not offset:
        return pairing
    from mrp.metrics.pairing import Pair

    pairs = []
    for position, item in enumerate(pairing.pairs):
        gold, system = item.gold, item.system
        if gold.id == str(position):
            gold = replace(gold, id=str(position + offset))
            system = replace(system, id=str(position + offset))
        pairs.append(Pair(gold, system, item.null))
    return replace(pairing, pairs=pairs)


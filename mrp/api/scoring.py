"""Scoring from Python: :func:`score` for a corpus, :class:`Scorer` for batches; their keyword arguments
come from :mod:`mrp.pipeline.keywords` (every run's options and every metric's parameters)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional, Tuple

from mrp.api.results import Result
from mrp.api.state import ScorerState, key_of, light, needs_graphs, renumbered
from mrp.corpora import Corpus, reading_together
from mrp.engine import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_TIMEOUT,
    Execution,
    Options,
    Pairing,
    Run,
    combined_runs,
    joined_pairings,
    run_summary,
)
from mrp.engine import checked as valid
from mrp.errors import MRPError, ScoreError
from mrp.memo import Memo
from mrp.metrics.registry import canonical
from mrp.metrics.registry import metric as registered
from mrp.pipeline.inputs import Graphs, corpus_of, is_path, read_options
from mrp.pipeline.keywords import READING, checked, keywords, respelled, sign
from mrp.pipeline.options import run_options as options_of
from mrp.pipeline.options import with_penman
from mrp.pipeline.steps import (
    gold_problems,
    paired,
    penman_corpora,
    run_pairing,
    score_pairing,
    standardized,
    unanswered,
)
from mrp.process.collector import collector_paused
from mrp.report.outcome import complete, frameworks_scored
from mrp.report.signature import Statistics

__all__ = ["DEFAULT_TIMEOUT", "Scorer", "primary_path", "score"]


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
    positional: bool
    trace: bool
    explain: Optional[str]
    explain_id: Optional[str]
    #: the read options of ``reading``, made at the first call that reads (its errors are that call's)
    read: Any = None


#: plans by (metric, function, keyword arguments) for calls without progress (a training loop repeats
#: its call)
_PLANS: Memo[Any, _Plan] = Memo(64)


def _plan(metric: str, arguments: Dict[str, Any], function: str = "mrp.score") -> _Plan:
    if arguments.get("progress"):
        return _planned(metric, arguments, function)
    try:
        given = tuple(sorted((name, type(value), value) for name, value in arguments.items()))
        key = (metric, function, given)
        found = _PLANS.get(key)
    except TypeError:  # an unhashable option value (sembleu_weights as a list): planned each time
        return _planned(metric, arguments, function)
    if found is None:
        found = _PLANS.keep(key, _planned(metric, arguments, function))
    return found


def _planned(metric: str, arguments: Dict[str, Any], function: str) -> _Plan:
    arguments = checked(arguments, function)
    from mrp.standardize.options import parse

    name = canonical(metric)
    table = keywords()
    taken = {parameter.field for parameter in registered(name).parameters}
    for option in arguments:
        if table[option].metric is not None and option not in taken:
            raise TypeError(f"{function}(): {option} is a keyword of metric {table[option].metric}, and "
                            f"metric={name!r} does not take it")
    if arguments.get("explain_id") is not None and not arguments.get("explain"):
        raise TypeError(f"{function}(): explain_id needs explain (the path the pair's page goes to)")
    if arguments.get("explain") and not registered(name).explains:
        raise ScoreError(f"explain: {name} aligns no nodes to show")
    std = parse(arguments.get("standardize", "none"))
    values = {option: value for option, value in arguments.items() if table[option].metric is not None}
    timeout = valid("timeout", arguments.get("timeout", DEFAULT_TIMEOUT))
    limit = valid("limit", arguments.get("limit"))
    max_memory = valid("max_memory", arguments.get("max_memory", DEFAULT_MAX_MEMORY))
    jobs = valid("jobs", arguments.get("jobs", 1))
    progress = arguments.get("progress")
    if progress is True:
        from mrp.report.progress import Line

        progress = Line("mrp", "gold", show=True)
    run = Execution(jobs=jobs, progress=progress or None)
    options = options_of({"limit": limit, "timeout": timeout, "max_memory": max_memory, "trace": True,
                          "mip": arguments.get("mip", True), "errors": arguments.get("errors"),
                          "no_wiki": bool(arguments.get("no_wiki")), "strict": bool(arguments.get("strict"))},
                         values, std.name(), run=run)
    statistics = Statistics(valid("bootstrap", arguments.get("bootstrap")),
                            valid("seed", arguments.get("seed", 0)))
    return _Plan(name, options, statistics, std, arguments.get("triples"),
                 (arguments.get("gold_format", arguments.get("format")),
                  "generated" if arguments.get("read") == "generated" else arguments.get("format")),
                 {option: arguments[option] for option in READING if option in arguments},
                 bool(arguments.get("positional")), bool(arguments.get("trace")), arguments.get("explain"),
                 arguments.get("explain_id"))


def _checked_gold(gold: Corpus) -> None:
    bad = gold_problems(gold)
    if bad:
        raise ScoreError(f"{gold.name}: {len(bad)} invalid gold graph(s), the first: {bad[0]}; "
                         "nothing scored")


def _paired(gold: Corpus, system: Corpus, plan: _Plan, batch: bool = False) -> Tuple[Pairing, bool]:
    """The pairing of gold and system, and whether no system graph pairs with a gold graph: ScoreError
    then (but for a batch of a Scorer, where a batch may hold none: that is decided over every batch)."""
    frameworks = [plan.reading["framework"]] if plan.reading.get("framework") else None
    pairing = paired(gold, system, frameworks, plan.positional)
    if not pairing.pairs:
        raise ScoreError(f"{gold.name}: no gold graph to score")
    none = unanswered(pairing)
    if not batch and none:
        raise ScoreError(f"{system.name}: no system graph pairs with a gold graph by (framework, id)")
    return pairing, none


def _pairing(gold: Graphs, system: Graphs, plan: _Plan, batch: bool = False
             ) -> Tuple[Pairing, Options, bool]:
    """Both sides read, the gold checked, standardized, paired; the options of the pair's scoring; and
    whether any system graph pairs with a gold graph (``batch``: a Scorer's batch, whose system side may
    be an empty list or pair with no gold graph)."""
    reading = plan.read
    if reading is None:
        reading = plan.read = read_options(**plan.reading)
    if is_path(gold) or is_path(system):  # texts of files parsed once for all (text and graphs: no memo)
        reading = reading_together(reading)
    gold_corpus = corpus_of(gold, plan.formats[0], reading, "gold")
    _checked_gold(gold_corpus)
    if batch and isinstance(system, (list, tuple)) and not system:
        system_corpus = Corpus("system", gold_corpus.format)
    else:
        system_corpus = corpus_of(system, plan.formats[1], reading, "system")
    penman = penman_corpora(plan.triples, (gold_corpus, system_corpus))
    gold_corpus = standardized(gold_corpus, plan.standardization)
    system_corpus = standardized(system_corpus, plan.standardization)
    options = with_penman(plan.options, penman)
    pairing, none = _paired(gold_corpus, system_corpus, plan, batch)
    return pairing, options, not none


def score(gold: Graphs, system: Graphs, metric: str = "mrp", **options: Any) -> Result:
    """Score system graphs against gold graphs with one metric, as ``mrp-score`` does.

    Args:
        gold: the gold graphs: a path, text (Penman, MRP JSON lines, ...) as ``str`` or ``bytes``, or a
            list of :class:`mrp.Graph`, ``penman.Graph``, Penman strings, MRP JSON strings or dicts.
        system: the system graphs, as ``gold``.
        metric: the metric's name or alias (mrp-score ``--score``).
        options: the keyword arguments listed below (the defaults are mrp-score's); each corresponds to
            an mrp-score option, and a metric's own keyword is refused for another metric.

    Returns:
        The :class:`mrp.Result`.

    Raises:
        mrp.errors.MRPError: a subclass, for input that cannot be scored (the library never prints).
        TypeError: for a keyword that is not one, or belongs to another metric.
    """
    plan = _plan(metric, options)
    try:
        with collector_paused(freeze=False):
            pairing, scoring, _ = _pairing(gold, system, plan)
            scored = score_pairing(plan.metric, pairing, scoring)
            result, details = scored.result, scored.details
            done = scored.run if plan.explain else None  # the run holds the pairs, and so every graph read
            frameworks = frameworks_scored(pairing)
            del pairing, scored  # the graphs go before the collector resumes (it would walk them again)
    except MRPError as error:
        raise respelled(error) from None
    return _result(plan, done, result, details, frameworks, scoring)


def _result(plan: _Plan, done: Optional[Run], result: Dict[str, Any], details: Dict[str, Any],
            frameworks: Any, scoring: Options) -> Result:
    """The Result of a run; its --explain report written first (``plan.explain``: ``done`` is the run)."""
    def completion(document: Dict[str, Any]) -> None:
        complete(plan.metric, document, frameworks, scoring, plan.statistics)
        if details:
            document["errors"] = details

    if plan.explain and done is not None:
        from mrp.explain.build import write_scored

        completion(result)
        write_scored(plan.explain, registered(plan.metric), done, result, "system against gold",
                     plan.explain_id)
        return Result(plan.metric, primary_path(plan.metric), result, plan.trace)
    return Result(plan.metric, primary_path(plan.metric), result, plan.trace, completion=completion)


class Scorer:
    """A metric's score accumulated over batches (``update``), then computed once (``compute``): the same
    numbers as scoring the concatenated batches in one :func:`score` call, however they were cut.  A
    metric whose pairs depend on each other (``Metric.contextual``, e.g. umatch's document-level
    relations) keeps every batch's graphs and scores them together when ``compute`` is called.

    Args:
        metric: the metric's name or alias.
        options: the keyword arguments of :func:`score`.
    """

    def __init__(self, metric: str = "mrp", **options: Any) -> None:
        self._plan = _plan(metric, options, "mrp.Scorer")
        self._key = key_of(self._plan.metric, self._plan.options, options)
        self._runs: List[Run] = []
        self._held: List[Pairing] = []
        self._details: Dict[str, Any] = {}
        self._penman: Optional[bool] = None
        self._paired = False
        self._seen = 0

    def update(self, gold: Graphs, system: Graphs) -> None:
        """Score one batch of pairs (gold and system in the same order, or paired by id)."""
        try:
            with collector_paused(freeze=False):
                self._update(gold, system)
        except MRPError as error:
            raise respelled(error) from None

    def _update(self, gold: Graphs, system: Graphs) -> None:
        pairing, scoring, paired = _pairing(gold, system, self._plan, batch=True)
        self._paired = self._paired or paired
        if self._penman is None:
            self._penman = scoring.penman
        elif self._penman != scoring.penman:
            raise ScoreError("a batch of Penman graphs and a batch of other graphs cannot be scored together")
        pairing = renumbered(pairing, self._seen)
        self._seen += len(pairing.pairs)
        metric = registered(self._plan.metric)
        if metric.contextual or self._plan.explain:  # scored together in compute()
            self._held.append(pairing)
            return
        run, details = run_pairing(metric.name, pairing, scoring)
        _merge(self._details, details)
        self._runs.append(run if needs_graphs(metric, scoring) else light(run))

    def state(self) -> ScorerState:
        """What this scorer has gathered, without its graphs: small, picklable, and merged with the state
        of another scorer of the same metric and options (:meth:`merge`; ``sum(states)``), in another
        process or on another machine, to give one :func:`score` call's numbers over all their batches."""
        return ScorerState(self._key, list(self._runs), list(self._held), dict(self._details), self._penman,
                           self._paired, self._seen)

    def merge(self, other: Scorer | ScorerState) -> Scorer:
        """Add another scorer's batches (or a state of one) after this one's, as if they had been given to
        :meth:`update` here; returns this scorer.

        Args:
            other: a Scorer or a :class:`~mrp.api.state.ScorerState` of the same metric and options.

        Returns:
            This scorer.

        Raises:
            mrp.errors.ScoreError: for another metric or other options.
        """
        merged = self.state().merge(other.state() if isinstance(other, Scorer) else other)
        self._runs, self._held, self._details = merged.runs, merged.held, merged.details
        self._penman, self._paired, self._seen = merged.penman, merged.paired, merged.seen
        return self

    def reset(self) -> None:
        """Forget every batch."""
        self._runs, self._held, self._details, self._penman, self._seen = [], [], {}, None, 0
        self._paired = False

    def compute(self) -> Result:
        """The result over every batch so far."""
        if not self._runs and not self._held:
            raise ScoreError("no batch was scored: call update() first")
        if not self._paired:
            raise ScoreError("system: no system graph of any batch pairs with a gold graph by (framework, "
                             "id)")
        metric = registered(self._plan.metric)
        options = replace(self._plan.options, penman=bool(self._penman))
        details = self._details
        if self._held:
            try:
                with collector_paused(freeze=False):
                    run, details = run_pairing(metric.name, joined_pairings(self._held), options)
            except MRPError as error:
                raise respelled(error) from None
        else:
            run = combined_runs(self._runs)
        result = run_summary(metric, run)
        return _result(self._plan, run, result, details, frameworks_scored(run.pairing), options)


def _merge(details: Dict[str, Any], more: Dict[str, Any]) -> None:
    for framework, items in more.items():
        details.setdefault(framework, {}).update(items)


sign(score, [inspect.Parameter("gold", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Graphs),
             inspect.Parameter("system", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Graphs),
             inspect.Parameter("metric", inspect.Parameter.POSITIONAL_OR_KEYWORD, default="mrp",
                               annotation=str)])
sign(Scorer, [inspect.Parameter("metric", inspect.Parameter.POSITIONAL_OR_KEYWORD, default="mrp",
                                annotation=str)])

"""What a metric is to the driver: a class that owns its facts (name, aliases, normalization, primary
figure, parameters, signature fields, report) and scores one pair; and the results the driver gathers."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Dict, Hashable, List, Mapping, Optional, Sequence, Tuple

from mrp.engine import envelope
from mrp.engine.counting import Path, nest, prf
from mrp.engine.limits import Cost, Sizes
from mrp.engine.options import Options
from mrp.engine.pairing import Pair, Pairing
from mrp.graph import Graph
from mrp.process.worker import cpu_seconds
from mrp.solver import BYTES_PER_CELL

#: why a pair's search stopped early, in the order results list them
CUTS = ("limit", "timeout", "error")
#: a graph's label-only tuples, each with (its copies summed, its largest copy count), and its tuple count
LabelCounts = Tuple[Dict[Hashable, Tuple[int, int]], int]
@dataclass
class PairCounts:
    """The result of one pair: count tuples by path (summed over the corpus) and how they were found."""

    counts: Dict[Path, Tuple[Any, ...]]
    exact: bool = True
    #: upper bound of the main count's c (searching metrics)
    bound: Any = 0
    steps: int = 0
    #: why the search stopped before proving optimality ("limit", "timeout", "error"), None when proved
    cut: Optional[str] = None
    #: what went wrong when scoring the pair failed (the counts are then a lower bound)
    failure: Optional[str] = None
    #: the --errors data of the pair
    errors: Optional[Dict[str, Any]] = None
    #: metric-specific per-item data (kept for the metric's report)
    extra: Dict[str, Any] = field(default_factory=dict)
    #: what the user should know about how the pair was scored (reported on stderr, and in its item)
    note: Optional[str] = None
    #: the correspondence and every tuple as matched, missed or surplus (``Options.explain`` only; a
    #: :class:`mrp.engine.detail.Detail`)
    detail: Any = None


@dataclass
class Run:
    """What the driver gathered over a pairing, handed to :meth:`Metric.report`."""

    pairing: Pairing
    results: List[PairCounts]
    totals: Dict[Path, List[Any]]
    options: Options
    start: float
    #: cpu_seconds() when the run began (this process, its reaped children, its kept HiGHS process)
    cpu: float

    @property
    def n(self) -> int:
        """Number of pairs."""
        return len(self.results)

    def seconds(self) -> Tuple[float, float]:
        """Wall and CPU seconds since the run began (CPU includes finished worker processes)."""
        return time.time() - self.start, cpu_seconds() - self.cpu

    def scores(self, item: Any) -> Dict[str, Dict[str, Any]]:
        """Per-item trace objects {framework: {id: item(pair, result)}} in gold order."""
        out: Dict[str, Dict[str, Any]] = {}
        for pair, result in zip(self.pairing.pairs, self.results):
            gold = pair.gold_entry
            out.setdefault(gold.framework or "none", {})[gold.id] = item(pair, result)
        return out

    def search(self, main: Path) -> Dict[str, Any]:
        """exact, bound, steps and cut keys of a searching metric, for its ``main`` count path."""
        g, s, c = self.totals.get(main, [0, 0, 0])[:3]
        bound = sum(result.bound for result in self.results)
        cut = {name: 0 for name in CUTS}
        for result in self.results:
            if result.cut:
                cut[result.cut] += 1
        summary: Dict[str, Any] = {"n": sum(cut.values())}
        summary.update(cut)
        bounded = prf(g, s, bound)["f"]
        summary["f"] = [prf(g, s, c)["f"], bounded]
        return {"bound": {"c": bound, "f": bounded},
                "steps": sum(result.steps for result in self.results), "cut": summary}

    def accounting(self) -> Dict[str, Any]:
        """The pairing counts (:meth:`mrp.engine.pairing.Pairing.counts`): gold graphs without a system
        graph, system graphs without a gold graph, duplicate, invalid and repaired ones; and ``ids_differ``,
        the system ids that differ from their gold graph's, where files with ids were paired by position."""
        counts: Dict[str, int] = self.pairing.counts()
        if self.pairing.ids_differ is not None:
            counts["ids_differ"] = self.pairing.ids_differ
        return counts


@dataclass(frozen=True)
class Parameter:
    """An option of a metric: the :class:`Options` field it sets and its command-line form."""

    #: the Options field
    field: str
    #: the command-line flag, e.g. "--smatch-compat"
    flag: str
    help: str
    #: converts the flag's argument; None for a switch (present: True)
    kind: Optional[Callable[[str], Any]] = None
    metavar: Optional[str] = None
    #: the command line's default (None: the Options default)
    default: Any = None
    #: argparse choices, when the value is one of a few words
    choices: Optional[Tuple[str, ...]] = None
    #: the type of the library's keyword (None: bool for a switch, else Optional of ``kind`` for str, int
    #: and float); a string given to the library is converted by ``kind`` as the command line converts it
    annotation: Any = None
    #: the value names a file (a checkpoint records the file's content, not its path)
    file: bool = False


    def value(self, options: Options) -> Any:
        """The parameter's value in a run's options (its Options field, or its entry of
        ``Options.parameters``; the default when it was not given)."""
        if self.field in _FIELDS:
            return getattr(options, self.field)
        default = False if self.kind is None else self.default
        return options.parameters.get(self.field, default)


#: the fields of Options
_FIELDS = frozenset(item.name for item in fields(Options))


def parameter_values(values: Mapping[str, Any]) -> Dict[str, Any]:
    """Metric parameter values as Options' keyword arguments: each under its own field, the others (a new
    metric's parameters) gathered in ``parameters``."""
    out = {name: value for name, value in values.items() if name in _FIELDS}
    others = {name: value for name, value in values.items() if name not in _FIELDS}
    if others:
        out["parameters"] = others
    return out


class Metric(ABC):
    """What a metric supplies to the driver, and the facts the CLI, the API, signatures and leaderboards
    read from it."""

    #: the registry name
    name: str = ""
    #: other names it answers to (e.g. "mces" for "mrp")
    aliases: Tuple[str, ...] = ()
    #: one line for --help
    summary: str = ""
    #: what its normalization does, as the signature names it
    normalization: str = "none"
    #: the count path its primary figures sit at (ranked by leaderboards; None: no count triple)
    primary: Optional[Path] = ()
    #: where the figures it is judged by sit, when they are not counts at ``primary`` (tables and
    #: leaderboards show them; empty: every {p, r, f} of its result)
    headlines: Tuple[Path, ...] = ()
    #: its options
    parameters: Tuple[Parameter, ...] = ()
    #: the letters of a count tuple in per-item objects
    letters: str = "gsc"
    #: whether the metric searches a correspondence (its items carry exact, bound, steps, cut)
    searches: bool = False
    #: whether the solver alone stops its scoring at the pair's time and maps an unfinished pair in linear
    #: time (MRP, SMATCH): the driver's CPU guard then gives it :data:`mrp.engine.limits.SEARCH_GRACE`
    #: past the timeout (the plain-Python twins' linear map takes seconds), not GRACE
    stopped_by_solver: bool = False
    #: whether a pair's result depends on the other pairs too (then no result is reused across runs)
    contextual: bool = False
    #: the frameworks it scores (None: every one); mrp-score leaves it out, with a warning, where none of
    #: them is scored, and ``elsewhere`` then says what to use instead
    frameworks: Optional[Tuple[str, ...]] = None
    elsewhere: str = ""
    #: whether the count c of (a, b) equals that of (b, a), with g and s swapped (the optimum of a tuple
    #: overlap under a one-to-one node map is the same in both directions: the inverse map matches the
    #: same tuples); all-pairs runs then score each unordered pair once
    symmetric: bool = False
    #: whether its results carry a :class:`mrp.engine.detail.Detail` under ``Options.explain`` (the
    #: metrics that align nodes; ``mrp-score --explain`` draws it)
    explains: bool = False
    #: the order of its result's keys (:mod:`mrp.engine.envelope`): the envelope's sections, its report's
    #: figures (``"..."``), and keys of its report by name; None: ``envelope.SEARCHING`` for a metric that
    #: searches, else ``envelope.PLAIN``
    layout: Optional[Tuple[str, ...]] = None

    #: bytes per node pair (gold nodes x system nodes) that preparing a pair builds outside any search of
    #: the metric's own (which caps its node-pair arrays itself): what ``--max-memory`` caps before the
    #: pair is prepared (:meth:`preparation`).  A metric that declares nothing is taken to build node-pair
    #: arrays as large as the solver's (``mrp.solver.greedy.BYTES_PER_CELL``): the safe default
    preparation_per_cell: int = BYTES_PER_CELL

    def preparation(self, sizes: Sizes, options: Options) -> Cost:
        """What preparing a pair takes beyond reading it (linear in its size, which ``--max-memory`` does
        not cap): the structures that grow faster, and the seconds it takes at least.  The driver reports
        a pair cut, unprepared, when the bytes exceed ``--max-memory`` ("limit") or the seconds its timeout
        ("timeout"); see :mod:`mrp.engine.limits`.

        The default: :attr:`preparation_per_cell` bytes per node pair, no time up front (the pair's clock
        and the driver's guard hold its time); a metric whose preparation grows otherwise overrides this.

        Args:
            sizes: the pair's nodes and edges.
            options: the run's options.

        Returns:
            The estimate.
        """
        return Cost(0.0, self.preparation_per_cell * sizes.gold_nodes * sizes.system_nodes)

    def cut(self, pair: Pair, options: Options, why: str) -> PairCounts:
        """The result of a pair the driver stopped, or did not start, at its limits (``why``: "timeout" or
        "limit"): by default as :meth:`fallback` counts (c = 0, its bound the smaller side), cut as
        ``why``, with a note and no failure.

        Args:
            pair: the pair.
            options: the run's options.
            why: "timeout" or "limit".

        Returns:
            Its result: counts a lower bound, the bound valid.
        """
        result = self._nothing_matched(pair, options)
        result.cut = why
        where = "clock" if why == "timeout" else "memory cap"
        result.note = f"{self.name}: stopped at the pair's {where}: counted as nothing matched"
        return result

    def prepare(self, options: Options) -> None:  # noqa: B027 - most metrics need nothing loaded
        """Load what scoring needs (e.g. compiled kernels); an error here stops the run."""

    def begin(self, pairing: Pairing, options: Options) -> None:  # noqa: B027 - most metrics score pairs alone
        """See every pair before any is scored (metrics whose pairs depend on each other, e.g. through
        document-level relations)."""

    @staticmethod
    def load_solver(options: Options) -> None:
        """Compile or load the solver's kernels now, outside every pair's clock (metrics that search)."""
        from mrp.solver import ready

        progress = options.run.progress
        ready(progress.compiling if progress is not None else None)

    @abstractmethod
    def score(self, pair: Pair, options: Options) -> PairCounts:
        """Score one pair."""

    def remembering(self, graphs: Sequence[Sequence[Any]], options: Options) -> Metric:
        """The metric an all-pairs block scores with: one that keeps what it computes from one graph alone
        for every pair the graph takes part in (its instance of the process), or itself.

        The default is itself: a metric that keeps nothing, or keeps per graph anyway (Rematch's and WLK's
        :class:`mrp.memo.ByObject`).  A metric opts in by overriding this, in its own module.

        Args:
            graphs: the groups of graphs the block uses (live :class:`Graph` ones, or packed ones), whose
                values it may make now (before worker processes fork, which inherit them).
            options: the run's options.

        Returns:
            The metric to score the block's pairs with; its results are those of this metric.
        """
        return self

    def label_counts(self, options: Options) -> Optional[Callable[[Graph], LabelCounts]]:
        """What exact top-k runs (:mod:`mrp.allpairs.topk`) bound a pair's count c by, when the metric has
        such a bound: a graph's label-only tuples, each with (its copies summed, its largest copy count),
        and its tuple count, such that c of a pair is at most, over the labels both graphs have, the sum of
        ``min(sum_a * most_b, sum_b * most_a)``.  A metric opts in by overriding this, in its own module.

        Args:
            options: the run's options.

        Returns:
            The function of a graph, or None (the default): no such bound, every pair is scored.
        """
        return None

    def score_many(self, pairs: Sequence[Pair], options: Options) -> List[Optional[PairCounts]]:
        """The results of those of ``pairs`` it can score together (each what :meth:`score` gives it),
        None for the others, which the driver scores one by one (a metric that scores pairs alone: all)."""
        return [None] * len(pairs)

    def alone(self, graph: Graph, gold: bool, options: Options) -> Dict[Path, Tuple[Any, ...]]:
        """The count tuples of one graph scored against nothing (its tuples as g, or as s)."""
        empty = graph.empty_copy()
        pair = Pair(graph, empty, True) if gold else Pair(empty, graph, False)
        return self.score(pair, options).counts

    def fallback(self, pair: Pair, options: Options, failure: str) -> PairCounts:
        """The result of a pair whose scoring failed: gold tuples missed, system tuples surplus, c = 0."""
        result = self._nothing_matched(pair, options)
        result.cut, result.failure = "error", failure
        return result

    def _nothing_matched(self, pair: Pair, options: Options) -> PairCounts:
        """Gold tuples missed, system tuples surplus (when they can be counted at all), c = 0, the bound
        the smaller side."""
        gold = self.alone(pair.gold, True, options)
        try:
            system = self.alone(pair.system, False, options)
        except Exception:  # noqa: BLE001 - a system graph that cannot even be counted counts nothing
            system = {}
        counts: Dict[Path, Tuple[Any, ...]] = {}
        for path, values in gold.items():
            mine = list(values)
            mine[1:] = [0] * (len(mine) - 1)
            if path in system:
                mine[1] = system[path][1]
            counts[path] = tuple(mine)
        main = counts.get(self.main(), (0, 0))
        return PairCounts(counts, exact=False, bound=min(main[0], main[1]))

    def main(self) -> Path:
        """The path of the count whose bound and cut interval a searching metric reports."""
        return ()

    def figures(self, counts: Dict[Path, Tuple[Any, ...]]) -> Dict[str, Any]:
        """A pair's counts as its trace object shows them (nested by path, letters named)."""
        return nest(counts, self.letters)

    def item(self, pair: Pair, result: PairCounts) -> Dict[str, Any]:
        """The per-item trace object of a pair."""
        out = self.figures(result.counts)
        if self.searches:
            out.update(exact=result.exact, bound=result.bound, steps=result.steps)
            if result.cut:
                out["cut"] = result.cut
            if "gap" in result.extra:  # a document not proved (mrp.solver.attribution.where)
                g, s, c = result.counts[self.main()][:3]
                out["gap"] = {"f": [prf(g, s, c)["f"], prf(g, s, result.bound)["f"]], **result.extra["gap"]}
        if result.note:
            out["note"] = result.note
        return out

    def figure_path(self) -> Optional[Path]:
        """Where the one figure it is judged by sits in its results and items: the primary count path,
        else its first headline (SemBLEU's score, AnCast's LRM figures); None when it has none."""
        if self.primary is not None:
            return self.primary
        return self.headlines[0] if self.headlines else None

    def signature_fields(self, options: Options) -> List[str]:
        """The signature fields of its own options (placed after the normalization); by default, each of
        its parameters given a value other than its default, as ``field`` (a switch) or ``field:value``."""
        out = []
        for parameter in self.parameters:
            value = parameter.value(options)
            if value in (None, False) or value == parameter.default:
                continue
            out.append(parameter.field if value is True else f"{parameter.field}:{value}")
        return out

    @abstractmethod
    def report(self, run: Run) -> Dict[str, Any]:
        """The metric's own figures over a run, in its key order; :meth:`result` places them in the
        envelope every result has (never a key of the envelope: ``n``, ``scores``, ``time``, ``cpu``, the
        pairing counts, and for a layout with them ``exact``, ``bound``, ``steps``, ``cut``)."""

    def result(self, run: Run) -> Dict[str, Any]:
        """The result object of a run: the metric's report in the envelope every result has
        (:mod:`mrp.engine.envelope`), in the order of its :attr:`layout`."""
        layout = self.layout or (envelope.SEARCHING if self.searches else envelope.PLAIN)
        return envelope.envelope(layout, self.report(run), run, self.item, self.main())

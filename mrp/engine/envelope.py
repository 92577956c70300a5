"""The envelope of every result: the keys each metric's result has, with the same meaning, around the
metric's own figures (its :meth:`mrp.engine.base.Metric.report`).

A metric's ``layout`` (:attr:`mrp.engine.base.Metric.layout`) names where each goes: a section of the
envelope, the metric's figures (:data:`FIGURES`: every key of its report not named elsewhere, in the
report's order), or one key of its report by name (placed there when the report has it).  The sections:

* ``n``: the number of pairs (gold graphs, each with its system graph or an empty one);
* ``scores``: the per-item objects {framework: {id: item}} in gold order, under ``Options.trace`` only;
* ``time``: the wall seconds of the run, then ``cpu``, its CPU seconds (worker processes included);
* ``exact``: the pairs whose search was proved optimal (metrics that search);
* ``search``: ``bound``, ``steps`` and ``cut`` of the main count (:meth:`mrp.engine.base.Run.search`);
* ``accounting``: the pairing counts (:data:`mrp.engine.pairing.COUNTS`: invalid, unpaired, duplicate,
  repaired system graphs, gold graphs without a system graph).

A metric that does not search gets ``cut`` last, {n, limit, timeout}, when the driver stopped a pair at its
limits (:mod:`mrp.engine.limits`): its counts there are the metric's :meth:`~mrp.engine.base.Metric.cut`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Protocol, Sequence, Tuple

from mrp.engine.counting import Path
from mrp.engine.options import Options
from mrp.engine.pairing import COUNTS

__all__ = ["ACCOUNTING", "EXACT", "FIGURES", "N", "PLAIN", "SCORES", "SCORES_FIRST", "SEARCH", "SEARCHING",
           "SECTIONS", "TIME", "envelope", "written"]

N, SCORES, TIME, EXACT, SEARCH, ACCOUNTING = "n", "scores", "time", "exact", "search", "accounting"
#: where the metric's own figures go
FIGURES = "..."
#: the keys each section writes
SECTIONS: Dict[str, Tuple[str, ...]] = {
    N: ("n",), SCORES: ("scores",), TIME: ("time", "cpu"), EXACT: ("exact",),
    SEARCH: ("bound", "steps", "cut"), ACCOUNTING: COUNTS,
}

#: the layout of a metric that does not search: n, its figures, the items, time and cpu, the pairing
PLAIN = (N, FIGURES, SCORES, TIME, ACCOUNTING)
#: the layout of a metric that searches: exact after its figures, bound, steps and cut after the time
SEARCHING = (N, FIGURES, EXACT, SCORES, TIME, SEARCH, ACCOUNTING)
#: the items before the figures (the metrics whose reference tools list them first)
SCORES_FIRST = (N, SCORES, FIGURES, TIME, ACCOUNTING)


class Gathered(Protocol):
    """What the envelope reads of a run (:class:`mrp.engine.base.Run`)."""

    options: Options

    @property
    def n(self) -> int: ...

    @property
    def results(self) -> Sequence[Any]: ...

    def scores(self, item: Any) -> Dict[str, Dict[str, Any]]: ...

    def seconds(self) -> Tuple[float, float]: ...

    def search(self, main: Path) -> Dict[str, Any]: ...

    def accounting(self) -> Dict[str, Any]: ...


def written(layout: Sequence[str]) -> List[str]:
    """The keys the envelope writes in a layout, in order.

    Args:
        layout: a metric's layout.

    Returns:
        The keys of its sections.
    """
    return [key for name in layout for key in SECTIONS.get(name, ())]


@lru_cache(maxsize=64)
def _written(layout: Tuple[str, ...]) -> Tuple[FrozenSet[str], FrozenSet[str]]:
    """The keys the envelope writes in a layout, and the layout's names, as sets (made once per layout: a
    metric's is a constant)."""
    return frozenset(written(layout)), frozenset(layout)


def envelope(layout: Sequence[str], report: Mapping[str, Any], run: Gathered,
             item: Callable[..., Dict[str, Any]], main: Path) -> Dict[str, Any]:
    """A metric's result: its report's keys and the envelope's, in the order of its layout.

    Args:
        layout: where each goes (sections, :data:`FIGURES`, names of the report's keys).
        report: the metric's own figures.
        run: what the driver gathered.
        item: the per-item object of a pair and its result (``scores``).
        main: the count path of ``bound`` and ``cut`` (``search``).

    Returns:
        The result object.

    Raises:
        TypeError: for a layout without :data:`FIGURES`, or a report that writes a key of the envelope.
    """
    if FIGURES not in layout:
        raise TypeError(f"a metric's layout places its figures ({FIGURES!r}): {tuple(layout)}")
    keys, named = _written(layout if isinstance(layout, tuple) else tuple(layout))
    if not keys.isdisjoint(report):
        clash = sorted(keys.intersection(report))
        raise TypeError(f"a metric's report writes {', '.join(clash)}, which the envelope writes "
                        "(mrp.engine.envelope)")
    out: Dict[str, Any] = {}
    for name in layout:
        if name == FIGURES:
            out.update((key, value) for key, value in report.items() if key not in named)
        elif name == N:
            out["n"] = run.n
        elif name == SCORES:
            if run.options.trace:
                out["scores"] = run.scores(item)
        elif name == TIME:
            out["time"], out["cpu"] = run.seconds()
        elif name == EXACT:
            out["exact"] = sum(result.exact for result in run.results)
        elif name == SEARCH:
            out.update(run.search(main))
        elif name == ACCOUNTING:
            out.update(run.accounting())
        elif name in report:
            out[name] = report[name]
    if SEARCH not in layout and "cut" not in out:  # a metric that does not search: pairs stopped at limits
        stopped = {why: sum(result.cut == why for result in run.results) for why in ("limit", "timeout")}
        if any(stopped.values()):
            out["cut"] = {"n": sum(stopped.values()), **stopped}
    return out

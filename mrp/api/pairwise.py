"""Rewards: one F per (gold, system) pair, paired by position, as a numpy array (:func:`pairwise`).

A training loop that samples graphs scores each against its gold graph, often millions of times: this is
:func:`mrp.score` over the pairs in one call (the same reading, pairing and keyword checks, the metric's
batch path), keeping of each pair its F, whether it was proved optimal and the bound of its F.
"""

from __future__ import annotations

import inspect
from typing import Any, List, Optional, Tuple

import numpy as np

from mrp.api.scoring import _pairing, _plan
from mrp.engine import Metric, prf
from mrp.errors import InputError, MRPError, ScoreError
from mrp.metrics.registry import canonical, metrics
from mrp.metrics.registry import metric as registered
from mrp.pipeline.inputs import Graphs
from mrp.pipeline.keywords import respelled, sign
from mrp.pipeline.steps import run_pairing
from mrp.process.collector import collector_paused

__all__ = ["Rewards", "pairwise", "supported"]

#: keywords of :func:`mrp.score` that have no meaning for one F per pair, each with its reason
REFUSED = {
    "positional": "pairwise always pairs by position",
    "bootstrap": "intervals are a corpus figure; pairwise gives one F per pair",
    "seed": "intervals are a corpus figure; pairwise gives one F per pair",
    "trace": "the per-pair figures are what pairwise returns",
    "errors": "per-pair error data: use mrp.score(..., errors=True)",
    "explain": "an HTML report: use mrp.score(..., explain=...)",
    "explain_id": "an HTML report: use mrp.score(..., explain=...)",
}


class Rewards(np.ndarray):  # type: ignore[type-arg]
    """The F of each pair (float64, in the order given), with how each was found.

    ``exact`` (bool per pair) says whether the pair's F is proved optimal; ``bound`` (float per pair) is an
    upper bound of its F, equal to it for an exact pair.  A pair cut by ``timeout``, ``limit`` or
    ``max_memory`` has ``exact`` False and its F is the best found (a lower bound).  The two arrays
    belong to the array :func:`pairwise` returns: an array derived from it (a slice, ``rewards * 2``) is a
    plain-valued array whose ``exact`` and ``bound`` are None.
    """

    exact: Optional[np.ndarray]  # type: ignore[type-arg]
    bound: Optional[np.ndarray]  # type: ignore[type-arg]

    def __array_finalize__(self, obj: Any) -> None:
        self.exact = None
        self.bound = None

    @property
    def cut(self) -> int:
        """How many pairs were not proved optimal (0 when every F is exact)."""
        return 0 if self.exact is None else int(len(self.exact) - np.count_nonzero(self.exact))


def supported() -> List[str]:
    """The metrics :func:`pairwise` scores: those that score pairs in batches (their ``score_many``),
    each pair apart from the others, with one figure."""
    return [metric.name for metric in metrics() if _batched(metric)]


def _batched(metric: Metric) -> bool:
    return (type(metric).score_many is not Metric.score_many and not metric.contextual
            and metric.figure_path() is not None)


def pairwise(golds: Graphs, systems: Graphs, metric: str = "smatch", **options: Any) -> Rewards:
    """One F per pair: the k-th system graph scored against the k-th gold graph, each F what
    :func:`mrp.score` gives that pair alone.

    Args:
        golds: the gold graphs, as :func:`mrp.score` takes them (a list of Penman strings, of
            :class:`mrp.Graph`, ``penman.Graph``, MRP JSON ..., text or a path).
        systems: as many system graphs, in the same order (an unreadable one scores 0, as in
            :func:`mrp.score`).
        metric: ``smatch`` or ``mrp`` (:func:`supported`; another is refused).
        options: the keyword arguments of :func:`mrp.score` listed below, but ``positional``,
            ``bootstrap``, ``seed``, ``trace``, ``errors``, ``explain`` and ``explain_id``.

    Returns:
        A :class:`Rewards`: a float64 numpy array of the F of each pair, with ``exact`` and ``bound``.

    Raises:
        mrp.errors.MRPError: a subclass, for input that cannot be scored (e.g. different numbers of gold
            and system graphs).
        TypeError: for a keyword that is not one, belongs to another metric, or is refused here.
        ValueError: for a metric that pairwise does not score.
    """
    for name in options:
        if name in REFUSED:
            raise TypeError(f"mrp.pairwise() does not take {name}: {REFUSED[name]}")
    plan = _plan(metric, {**options, "positional": True}, "mrp.pairwise")
    scorer = registered(plan.metric)
    if not _batched(scorer):
        raise ValueError(f"mrp.pairwise(): metric={canonical(metric)!r} is not scored pair by pair in "
                         f"batches; give one of {', '.join(map(repr, supported()))} (or use "
                         "mrp.score(...).pairs)")
    if isinstance(golds, (list, tuple)) and isinstance(systems, (list, tuple)) and len(golds) != len(systems):
        raise InputError(f"mrp.pairwise(): {len(golds)} gold graphs and {len(systems)} system graphs: give "
                         "one system graph per gold graph, in the same order")
    try:
        with collector_paused(freeze=False):
            pairing, scoring, _ = _pairing(golds, systems, plan)
            if pairing.missing or pairing.unpaired or pairing.duplicates:
                raise InputError(f"mrp.pairwise(): the system graphs do not answer the {len(pairing.pairs)} "
                                 "gold graphs one by one (give one system graph per gold graph, in the "
                                 "same order)")
            done, _ = run_pairing(plan.metric, pairing, scoring)
            del pairing
            # the figures taken and the run dropped before the collector resumes: the run holds the pairs,
            # and with them every graph read, which the collector's first pass would otherwise walk
            out = _rewards(done, scorer.figure_path() or (), scorer.main())
            del done
    except MRPError as error:
        raise respelled(error) from None
    if not len(out):
        raise ScoreError("gold: no gold graph to score")
    return out


def _rewards(done: Any, path: Tuple[str, ...], main: Tuple[str, ...]) -> Rewards:
    """The F of each pair of a run at the count path ``path``, with whether it is proved and its bound (the
    bound of a pair cut at the metric's ``main`` path)."""
    found: List[float] = []
    exact: List[bool] = []
    bound: List[float] = []
    for result in done.results:  # (lists made into arrays once: a numpy item costs more than a list's)
        g, s, c = result.counts.get(path, (0, 0, 0))[:3]
        f = prf(g, s, c)["f"]
        proved = bool(result.exact and result.cut is None)
        found.append(f)
        exact.append(proved)
        if proved or path != main:
            bound.append(f if proved else 1.0)
        else:
            bound.append(max(f, prf(g, s, result.bound)["f"]))
    out = np.array(found, dtype=np.float64).view(Rewards)
    out.exact, out.bound = np.array(exact, dtype=bool), np.array(bound, dtype=np.float64)
    return out


sign(pairwise, [inspect.Parameter("golds", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Graphs),
                inspect.Parameter("systems", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Graphs),
                inspect.Parameter("metric", inspect.Parameter.POSITIONAL_OR_KEYWORD, default="smatch",
                                  annotation=str)], omitted=tuple(REFUSED))

"""A task's figure of a set of sentences under one metric: for a metric of counts (a primary count path) P, R
and F of the summed (g, s, c), as ``micro_average.pl`` sums; for AnCast, which weighs matches with partial
credit and divides precision and recall by different totals, its LRM P, R and F of its per-sentence sums
added up, as AnCast adds up a corpus (:func:`mrp.metrics.ancast.scores.report`)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

from mrp.metrics import AncastSums as Sums
from mrp.metrics import ancast_report as report
from mrp.metrics import metric as registered
from mrp.metrics import prf

__all__ = ["SUMMED", "figure", "ranks", "summable"]

#: metrics without a primary count path whose figure a task can still add up, and the figure it takes
SUMMED = {"ancast": "lrm"}


def ranks(metric: str) -> bool:
    """Whether a metric's figure is a sum of counts (it can rank, with intervals and paired tests).

    Args:
        metric: the registered metric's canonical name.

    Returns:
        True for a metric with a primary count path.
    """
    return registered(metric).primary is not None


def summable(metric: str) -> bool:
    """Whether a task can add a metric's sentences up into a figure (a metric of counts, or AnCast).

    Args:
        metric: the registered metric's canonical name.

    Returns:
        True when a task may name it.
    """
    return ranks(metric) or metric in SUMMED


def figure(metric: str, counts: Sequence[Tuple[int, int, int]],
           sums: Sequence[Optional[Tuple[Any, Any]]] = ()) -> Dict[str, float]:
    """The figure of a set of sentences.

    Args:
        metric: the metric's canonical name.
        counts: each sentence's (g, s, c) at the metric's primary path (a metric of counts).
        sums: each sentence's AnCast precision and recall sums (:class:`mrp.metrics.ancast.scores.Sums`;
            AnCast).

    Returns:
        g, s, c, P, R and F (a metric of counts), or P, R and F (AnCast's LRM).
    """
    if metric in SUMMED:
        precision, recall = Sums(), Sums()
        for found in sums:
            if found is not None:
                precision.add(found[0])
                recall.add(found[1])
        return dict(report(precision, recall, False)[SUMMED[metric]])
    g = sum(item[0] for item in counts)
    s = sum(item[1] for item in counts)
    c = sum(item[2] for item in counts)
    return dict(prf(g, s, c))

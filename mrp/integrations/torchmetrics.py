"""mrp as a torchmetrics ``Metric`` (the extra ``mrp-graphs[torch]``): :class:`MRPMetric`.

Its states are the sums one :func:`mrp.score` call's primary figures are made of: the gold, system and
correct counts, the bound of the correct count, the pairs and the pairs proved optimal, each a float64
tensor reduced by ``sum``.  Any number of processes (torchmetrics' ``dist_reduce_fx``), or
``merge_state``, therefore give the figures of one call over all their pairs: counts are integers, exact in
float64 up to 2**53.  A metric whose figures are not counts that add up (SemBLEU, AnCast, aspects) is
refused; use :meth:`mrp.Scorer.state` for those.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Sequence, Tuple

import torch
from torchmetrics import Metric

import mrp

__all__ = ["MRPMetric"]

#: the states, each a sum
SUMS = ("g", "s", "c", "bound", "n", "exact")


class MRPMetric(Metric):
    """An mrp metric's primary figures accumulated over batches and processes.

    Args:
        metric: the metric's name (``mrp-score --score``; default smatch).
        options: keywords of :func:`mrp.score` (``timeout``, ``smatch_compat``, ...).

    ``update(predictions, references)`` takes graphs as :func:`mrp.score` does (Penman strings, MRP JSON
    lines or dicts, :class:`mrp.Graph` or ``penman.Graph`` objects), paired in order; ``compute()`` returns
    ``{"f", "p", "r", "bound_f", "n", "exact"}`` as tensors.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, metric: str = "smatch", **options: Any) -> None:
        kwargs = {name: options.pop(name) for name in list(options) if name in _METRIC_KWARGS}
        super().__init__(**kwargs)
        self.metric, self.options = metric, options
        for name in SUMS:
            self.add_state(name, default=torch.tensor(0.0, dtype=torch.float64), dist_reduce_fx="sum")

    def update(self, predictions: Sequence[Any], references: Sequence[Any]) -> None:  # type: ignore[override]
        """Score a batch of pairs (``predictions[k]`` against ``references[k]``)."""
        if len(predictions) != len(references):
            raise ValueError(f"{len(predictions)} predictions and {len(references)} references")
        if not len(references):
            return
        result = mrp.score(list(references), list(predictions), metric=self.metric,
                           **{"positional": True, **self.options})
        figures = result.figures
        if math.isnan(figures.g):
            raise ValueError(f"{self.metric}: its figures are not counts that add up across batches; use "
                             "mrp.Scorer (its state merges)")
        document = result.to_dict()
        bound = document.get("bound", {}).get("c", figures.c)
        found = {"g": figures.g, "s": figures.s, "c": figures.c, "bound": bound, "n": document["n"],
                 "exact": document.get("exact", document["n"])}
        for name in SUMS:
            setattr(self, name, getattr(self, name) + float(found[name]))

    def compute(self) -> Dict[str, torch.Tensor]:
        """The figures over every batch of every process: F, precision and recall (as :func:`mrp.score`
        computes them from the summed counts), the F of the bound, the pairs and the pairs proved optimal."""
        g, s, c, bound = (float(getattr(self, name)) for name in ("g", "s", "c", "bound"))
        p, r, f = _prf(g, s, c)
        out = {"p": p, "r": r, "f": f, "bound_f": _prf(g, s, bound)[2]}
        figures = {name: torch.tensor(value, dtype=torch.float64) for name, value in out.items()}
        figures.update(n=torch.as_tensor(self.n), exact=torch.as_tensor(self.exact))
        return figures


def _prf(g: float, s: float, c: float) -> Tuple[float, float, float]:
    """Precision, recall and F as mrp's results compute them (0 where undefined)."""
    p = c / s if s else 0.0
    r = c / g if g else 0.0
    return p, r, 2 * p * r / (p + r) if p + r != 0 else 0.0


#: the keywords of torchmetrics' Metric (the rest are mrp.score's)
_METRIC_KWARGS = ("compute_on_cpu", "dist_sync_on_step", "process_group", "dist_sync_fn",
                  "distributed_available_fn", "sync_on_compute", "compute_with_cache")

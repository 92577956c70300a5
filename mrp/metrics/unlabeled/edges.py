"""The MRP metric with edge labels ignored and node labels kept (see :mod:`mrp.metrics.unlabeled.metric`)."""

from __future__ import annotations

from mrp.metrics.unlabeled.metric import Unlabeled

METRIC = Unlabeled("unlabeled-edges", nodes=False)

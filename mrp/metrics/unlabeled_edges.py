"""The MRP metric with edge labels ignored and node labels kept (see :mod:`mrp.metrics.unlabeled`)."""

from __future__ import annotations

from mrp.metrics.unlabeled import Unlabeled

METRIC = Unlabeled("unlabeled-edges", nodes=False)

"""The unlabeled MRP metrics: ``unlabeled`` (:mod:`~mrp.metrics.unlabeled.metric`: node and edge
labels ignored) and ``unlabeled-edges`` (:mod:`~mrp.metrics.unlabeled.edges`: edge labels ignored), the MRP
metric on rewritten graphs.
"""

from __future__ import annotations

from mrp.metrics.unlabeled.metric import METRIC

__all__ = ["METRIC"]

"""The MRP metric (MRP 2019/2020): tuple counts over an optimal node correspondence.

The package: :mod:`~mrp.metrics.mrp.metric` (the metric over a pairing), :mod:`~mrp.metrics.mrp.pair` (one
pair scored), :mod:`~mrp.metrics.mrp.tuples` (its tuples and their counts under a correspondence) and
:mod:`~mrp.metrics.mrp.large` (the linear-time map of pairs the search leaves open, SMATCH's too).
"""

from __future__ import annotations

from mrp.metrics.mrp.metric import METRIC

__all__ = ["METRIC"]

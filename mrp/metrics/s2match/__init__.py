"""S2match (Opitz, Parcalabescu and Frank, TACL 2020): SMATCH with graded credit for similar concepts.

The package: :mod:`~mrp.metrics.s2match.metric` (the metric), :mod:`~mrp.metrics.s2match.similarity` (the
concepts' similarity from word vectors) and :mod:`~mrp.metrics.s2match.triples` (its triples, mrp's or the
original's).
"""

from __future__ import annotations

from mrp.metrics.s2match.metric import METRIC

__all__ = ["METRIC"]

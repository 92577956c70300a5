"""The library: read and write graphs, score them, accumulate scores over batches."""

from __future__ import annotations

from mrp.api.reading import read, write
from mrp.api.results import Figures, PairResult, Result
from mrp.api.scoring import DEFAULT_TIMEOUT, Scorer, score

__all__ = ["DEFAULT_TIMEOUT", "Figures", "PairResult", "Result", "Scorer", "read", "score", "write"]

"""The library: read and write graphs, score them, accumulate scores over batches."""

from __future__ import annotations

from .reading import read, write
from .results import Figures, PairResult, Result
from .scoring import DEFAULT_TIMEOUT, Scorer, score

__all__ = ["DEFAULT_TIMEOUT", "Figures", "PairResult", "Result", "Scorer", "read", "score", "write"]

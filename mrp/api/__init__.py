"""The library: read and write graphs, score them, accumulate scores over batches."""

from __future__ import annotations

from mrp.api.ensemble import Ensemble, ensemble
from mrp.api.pairwise import Rewards, pairwise
from mrp.api.reading import read, write
from mrp.api.results import Figures, PairResult, Result
from mrp.api.scoring import DEFAULT_TIMEOUT, Scorer, score
from mrp.api.similarity import Similarity, similarity
from mrp.api.state import ScorerState

__all__ = ["DEFAULT_TIMEOUT", "Ensemble", "Figures", "PairResult", "Result", "Rewards", "Scorer",
           "ScorerState", "Similarity", "ensemble", "pairwise", "read", "score", "similarity", "write"]

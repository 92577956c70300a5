"""The AnCast metrics (Sun & Xue 2024): concept, LRM, ULRM, WLRM and mock-Smatch P/R/F.

By default the node alignment is the proved optimum of AnCast's own objective
(the labeled relation score, ties broken by concept similarity; see
:mod:`.exact`); ``Options.ancast_compat`` reproduces AnCast 0.1.1 instead:
its reading quirks (:mod:`.reading`), its anchor-broadcast alignment
(:mod:`.compat`) and its scoring quirks (:mod:`.scores`).  Pairs that AnCast
would skip are scored all the same and counted apart (``skipped``); the
corpus figures in compat mode leave them out, as AnCast does.
"""

from __future__ import annotations

from mrp.metrics.ancast.metric import METRIC
from mrp.metrics.ancast.pair import score_pair

__all__ = ["METRIC", "evaluate", "score_pair"]

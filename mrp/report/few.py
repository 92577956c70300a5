"""Macro averages of one or two items in plain Python, equal bit for bit to numpy's (the arrays and
reductions of :func:`mrp.report.stats.macro` cost more than the arithmetic for one pair scored alone)."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

__all__ = ["few_macro"]


def few_macro(counts: Any) -> Optional[Tuple[float, float, float, int]]:
    """Macro P, R, F and the items averaged, for an (items, 3) array of at most two items (else None).

    The same IEEE operations in the same order as numpy's: each ratio of two counts (exact as floats),
    ``2 * p * r / (p + r)``, and the mean of one value (itself) or two (their sum, halved).
    """
    if len(counts) > 2:
        return None
    kept: List[Tuple[float, float, float]] = []
    for g, s, c in (counts.tolist() if hasattr(counts, "tolist") else counts):
        if g + s > 0:
            p = float(c) / float(s) if s != 0 else 0.0
            r = float(c) / float(g) if g != 0 else 0.0
            total = p + r
            kept.append((p, r, 2 * p * r / total if total != 0 else 0.0))
    if not kept:
        return 0.0, 0.0, 0.0, 0
    n = len(kept)
    return sum(x[0] for x in kept) / n, sum(x[1] for x in kept) / n, sum(x[2] for x in kept) / n, n

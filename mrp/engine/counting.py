"""Counts and what follows from them: precision, recall and F, and per-item count objects."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Sequence, Tuple, Union

Number = Union[int, float]
#: where a count tuple sits in a metric's result: () for the top level, ("all",), ("labeled", "primary"), ...
Path = Tuple[str, ...]


def prf(g: Number, s: Number, c: Number) -> Dict[str, Any]:
    """Counts with precision, recall and F1 (0.0 where undefined), computed as the reference does."""
    p = c / s if s else 0.0
    r = c / g if g else 0.0
    f = 2 * p * r / (p + r) if p + r != 0 else 0.0
    return {"g": g, "s": s, "c": c, "p": p, "r": r, "f": f}


def nest(counts: Mapping[Path, Sequence[Number]], letters: str = "gsc") -> Dict[str, Any]:
    """Count tuples by path as one nested object.

    ``{("all",): (1, 2, 1)}`` gives ``{"all": {"g": 1, "s": 2, "c": 1}}``.
    """
    out: Dict[str, Any] = {}
    for path, values in counts.items():
        node = out
        for step in path:
            node = node.setdefault(step, {})
        node.update(zip(letters, values))
    return out


def add(totals: Dict[Path, list], counts: Mapping[Path, Sequence[Number]]) -> None:
    """Add one item's count tuples to running totals (element by element)."""
    for path, values in counts.items():
        total = totals.get(path)
        if total is None:
            totals[path] = list(values)
        else:
            for k, value in enumerate(values):
                total[k] += value

"""Precision, recall and F from counts, and the JSON layout of results."""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping


def prf(g: int, s: int, c: int) -> Dict[str, Any]:
    """Counts with precision, recall and F1 (0.0 where undefined), computed as the reference does."""
    p = c / s if s else 0.0
    r = c / g if g else 0.0
    f = 2 * p * r / (p + r) if p + r != 0 else 0.0
    return {"g": g, "s": s, "c": c, "p": p, "r": r, "f": f}


def render(result: Mapping[str, Any]) -> str:
    """A result as JSON text: one top-level key a line, as the reference scorer prints it."""
    items = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in result.items()]
    return "{" + ",\n ".join(items) + "}\n"

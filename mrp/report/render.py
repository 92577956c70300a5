"""Precision, recall and F from counts, and the JSON layout of results."""

from __future__ import annotations

import json
from typing import Any, Mapping

from mrp.engine import prf

__all__ = ["prf", "render"]


def render(result: Mapping[str, Any]) -> str:
    """A result as JSON text: one top-level key a line, as the reference scorer prints it."""
    items = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in result.items()]
    return "{" + ",\n ".join(items) + "}\n"

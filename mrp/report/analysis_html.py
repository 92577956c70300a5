"""mrp-analyze --html: the per-graph distributions of each framework (nodes, edges, treewidth, edge density,
reentrant nodes) as bar charts in one self-contained HTML page (inline SVG, no script)."""

from __future__ import annotations

import html
from collections import Counter
from typing import Dict, List, Tuple

from mrp.report.analysis import PER_GRAPH, Analysis

__all__ = ["page"]

#: at most this many bars; wider ranges are grouped into equal bins
BARS = 30
WIDTH, HEIGHT = 360, 120


def _bins(values: List[float]) -> List[Tuple[str, int]]:
    """(label, count) bars: each value its own bar for a few integers, else equal bins."""
    if not values:
        return []
    if all(float(v).is_integer() for v in values) and max(values) - min(values) < BARS:
        counts = Counter(int(v) for v in values)
        return [(str(k), counts.get(k, 0)) for k in range(int(min(values)), int(max(values)) + 1)]
    low, high = min(values), max(values)
    step = (high - low) / BARS or 1.0
    counts = Counter(min(int((v - low) / step), BARS - 1) for v in values)
    return [(f"{low + k * step:.2f}–{low + (k + 1) * step:.2f}", counts.get(k, 0)) for k in range(BARS)]


def _chart(title: str, values: List[float]) -> str:
    bars = _bins(values)
    most = max((count for _, count in bars), default=0) or 1
    width = WIDTH / max(1, len(bars))
    rects = []
    for k, (label, count) in enumerate(bars):
        tall = HEIGHT * count / most
        rects.append(f'<rect x="{k * width:.1f}" y="{HEIGHT - tall:.1f}" width="{max(1.0, width - 1):.1f}" '
                     f'height="{tall:.1f}"><title>{html.escape(label)}: {count}</title></rect>')
    axis = (f'<text x="0" y="{HEIGHT + 14}">{html.escape(bars[0][0])}</text>'
            f'<text x="{WIDTH}" y="{HEIGHT + 14}" text-anchor="end">{html.escape(bars[-1][0])}</text>'
            if bars else "")
    return (f'<figure><figcaption>{html.escape(title)}</figcaption>'
            f'<svg width="{WIDTH}" height="{HEIGHT + 20}" role="img">{"".join(rects)}{axis}</svg></figure>')


def page(totals: Dict[str, Analysis]) -> str:
    """The HTML page: a section per framework, a chart per distribution (a bar's tooltip: value and
    graphs)."""
    sections = []
    for name, total in totals.items():
        charts = "".join(_chart(f"{figure} per graph", total.per_graph[figure]) for figure in PER_GRAPH)
        sections.append(f"<section><h2>{html.escape(name)} ({total.graphs} graphs)</h2>{charts}</section>")
    style = ("body{font-family:sans-serif;margin:1em}figure{display:inline-block;margin:0 1em 1em 0}"
             "rect{fill:#4a7ab5}text{font-size:10px}figcaption{font-size:12px}")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>graph-bank statistics'
            f"</title><style>{style}</style></head><body><h1>Graph-bank statistics</h1>"
            f"{''.join(sections)}</body></html>\n")

"""One side of a pair as inline SVG (nodes as boxes listing their tuples, edges as arrows), or as text when
the graph is large.

Each tuple carries its status as a class (``matched``, ``missed``, ``surplus``, ``plain``) that the page's
style draws in a colour-blind-safe colour *and* a line style (solid, dashed, dotted), and its text starts
with a sign (``✓``, ``−``, ``+``), so nothing is told by colour alone.  Corresponding nodes share an
alignment number (``#3``, and ``data-a`` for the page's hover and focus linking); unaligned nodes say so
and have a dashed, heavier border.  Arrowheads are markers defined once per page (:data:`MARKERS`) and
set by the style sheet, per status.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

from mrp.explain.escape import shorten, text
from mrp.explain.layout import place
from mrp.explain.model import PLAIN, NodeView, SideView

#: graphs with more nodes than this (on either side of a pair) are shown as text, not drawn
TEXT_VIEW = 80
#: characters of a row shown in a box (the whole text is in its tooltip and in the lists)
ROW_CHARS = 36
#: pixels per character (11 px monospace), per row, and of padding
CHAR, LINE, PAD = 6.7, 15, 6
SIGNS = {"matched": "\u2713 ", "missed": "\u2212 ", "surplus": "+ ", PLAIN: ""}
STATUS_WORDS = {"matched": "matched", "missed": "missed (gold only)", "surplus": "surplus (system only)",
                PLAIN: ""}

#: arrowheads, one per status (an SVG marker does not take its path's colour)
MARKERS = ('<svg class="defs" aria-hidden="true" width="0" height="0"><defs>'
           + "".join(f'<marker id="a-{status}" class="{status}" viewBox="0 0 10 10" refX="9" refY="5" '
                     'markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" '
                     'orient="auto-start-reverse">'
                     '<path d="M0,0L10,5L0,10z"/></marker>' for status in SIGNS)
           + "</defs></svg>")


def _badge(node: NodeView, scored: bool) -> str:
    if not scored:
        return ""
    return f" #{node.align}" if node.align else " \u2205 unaligned"


def _size(node: NodeView, scored: bool) -> Tuple[float, float]:
    longest = max([len(node.name + _badge(node, scored))]
                  + [len(SIGNS[row.status]) + min(len(row.text), ROW_CHARS) for row in node.rows])
    return longest * CHAR + 2 * PAD, (len(node.rows) + 1) * LINE + PAD


def _node(node: NodeView, x: float, y: float, width: float, height: float, scored: bool) -> str:
    unaligned = scored and not node.align
    classes = "n u" if unaligned else "n"
    link = f' data-a="{node.align}"' if node.align else ""
    parts = [f'<g class="{classes}"{link} tabindex="0" transform="translate({x:.0f},{y:.0f})">'
             f'<rect width="{width:.0f}" height="{height:.0f}" rx="5"/>'
             f'<text x="{PAD}" y="{LINE - 3}" class="h">{text(node.name)}'
             f'<tspan class="b">{text(_badge(node, scored))}</tspan></text>']
    for k, row in enumerate(node.rows, 2):
        shown = SIGNS[row.status] + shorten(row.text, ROW_CHARS)
        parts.append(f'<text x="{PAD}" y="{k * LINE - 3}" class="{row.status}">{text(shown)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _anchor_key(side: SideView, keys: Optional[Dict[int, float]]) -> Optional[List[Optional[float]]]:
    if not keys:
        return None
    return [keys.get(node.id) for node in side.nodes]


def _point(x: float, y: float, w: float, h: float, towards: Tuple[float, float]) -> Tuple[float, float]:
    """Where the line from a box's centre towards a point leaves the box."""
    cx, cy = x + w / 2, y + h / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    if dx == 0 and dy == 0:
        return cx, y + h
    scale = min(w / 2 / abs(dx) if dx else math.inf, h / 2 / abs(dy) if dy else math.inf)
    return cx + dx * scale, cy + dy * scale


def draw(side: SideView, title: str, roots: Sequence[int] = (), keys: Optional[Dict[int, float]] = None,
         scored: bool = True) -> str:
    """The SVG of a side; ``roots``: node ids to start the layers from (tops); ``keys``: node id -> its
    position in the sentence (anchored graphs keep that order)."""
    position = {node.id: k for k, node in enumerate(side.nodes)}
    sizes = [_size(node, scored) for node in side.nodes]
    links = [(position[e.source], position[e.target]) for e in side.edges
             if e.source in position and e.target in position]
    placed = place(sizes, links, [position[r] for r in roots if r in position], _anchor_key(side, keys))
    body: List[str] = []
    seen: Dict[Tuple[int, int], int] = {}
    for edge in side.edges:
        if edge.source not in position or edge.target not in position:
            continue
        a, b = position[edge.source], position[edge.target]
        pair = (min(a, b), max(a, b))
        k = seen.get(pair, 0)
        seen[pair] = k + 1
        body.append(_edge(edge.status, edge.text, edge.kind, side.nodes[a].name, side.nodes[b].name, k,
                          (placed.x[a], placed.y[a], *sizes[a]), (placed.x[b], placed.y[b], *sizes[b])))
    for k, node in enumerate(side.nodes):
        body.append(_node(node, placed.x[k], placed.y[k], sizes[k][0], sizes[k][1], scored))
    return (f'<svg class="g" role="img" width="{placed.width:.0f}" height="{placed.height:.0f}" '
            f'viewBox="0 0 {placed.width:.0f} {placed.height:.0f}"><title>{text(title)}</title>'
            + "".join(body) + "</svg>")


def _edge(status: str, label: str, kind: str, source: str, target: str, k: int,
          a: Tuple[float, float, float, float], b: Tuple[float, float, float, float]) -> str:
    """An arrow from box ``a`` to box ``b`` (x, y, width, height); the k-th between the same two boxes
    bends further out."""
    tip = f"{source} \u2014{label}\u2192 {target}" + (f", {status}" if status != PLAIN else "")
    shown = text(SIGNS[status] + shorten(label, ROW_CHARS))
    if a == b:  # a loop on the box's right side
        x, y = a[0] + a[2], a[1] + a[3] / 2
        r = 14 + 8 * k
        d = f"M{x:.0f},{y - 6:.0f}C{x + 2 * r:.0f},{y - 2 * r:.0f} {x + 2 * r:.0f},{y + 2 * r:.0f} " \
            f"{x:.0f},{y + 6:.0f}"
        lx, ly = x + 1.6 * r, y + 4
    else:
        ca, cb = (a[0] + a[2] / 2, a[1] + a[3] / 2), (b[0] + b[2] / 2, b[1] + b[3] / 2)
        dx, dy = cb[0] - ca[0], cb[1] - ca[1]
        if abs(dy) < 1:  # boxes side by side: the arrow arches above them, higher for each more
            bend = -(34 + 22 * k) * (1 if dx > 0 else -1)
        else:
            bend = (k + 1) // 2 * 22 * (1 if k % 2 else -1)
        length = math.hypot(dx, dy) or 1.0
        mx, my = (ca[0] + cb[0]) / 2 - dy / length * bend, (ca[1] + cb[1]) / 2 + dx / length * bend
        x1, y1 = _point(*a, (mx, my))
        x2, y2 = _point(*b, (mx, my))
        d = f"M{x1:.0f},{y1:.0f}Q{mx:.0f},{my:.0f} {x2:.0f},{y2:.0f}"
        # the label at t = 0.6 along the curve: nearer the target, so labels of arrows leaving one node
        # spread apart
        lx, ly = 0.16 * x1 + 0.48 * mx + 0.36 * x2, 0.16 * y1 + 0.48 * my + 0.36 * y2 + 4
    return (f'<g class="e {status}"><title>{text(tip)}</title><path d="{d}"/>'
            f'<text x="{lx:.0f}" y="{ly:.0f}">{shown}</text></g>')


def text_view(side: SideView, scored: bool = True) -> str:
    """A side as text: each node with its tuples, then each edge (for graphs too large to draw)."""
    names = side.names()
    rows = []
    for node in side.nodes:
        link = f' data-a="{node.align}"' if node.align else ""
        badge = _badge(node, scored)
        cells = "".join(f'<li class="{row.status}">{text(SIGNS[row.status] + row.text)}</li>'
                        for row in node.rows)
        rows.append(f'<tr{link} tabindex="0"><th scope="row">{text(node.name)}<span class="b">{text(badge)}'
                    f'</span></th><td><ul>{cells}</ul></td></tr>')
    edges = "".join(f'<li class="{e.status}">{text(SIGNS[e.status])}{text(names.get(e.source, e.source))} '
                    f'\u2014{text(e.text)}\u2192 {text(names.get(e.target, e.target))}</li>'
                    for e in side.edges)
    return (f'<div class="tv"><table><caption>{text(side.label)}: {len(side.nodes)} nodes</caption>'
            f'<tbody>{"".join(rows)}</tbody></table><p>{len(side.edges)} arrows:</p><ul>{edges}</ul></div>')


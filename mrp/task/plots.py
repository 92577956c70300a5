"""The plots of ``detailed_results.html``, drawn by matplotlib (the optional extra ``mrp-graphs[plot]``) and
placed inline as SVG, so that the page stays one file.

matplotlib is the plotting library most organisers already have, renders SVG without a browser or a
server, and is imported only here and only when a page is drawn.  Its SVG carries ``style`` attributes
that the page's Content-Security-Policy (no inline style without the nonce) would block, so each is
turned into the equivalent presentation attributes, and its ``<style>`` element gets the page's nonce.
Without matplotlib, :func:`available` is False and the page shows its tables alone, with a note.  Every
label is drawn as it reads (:func:`mrp.task.escape.mathtext`: a ``$`` in a team's name starts no formula).
"""

from __future__ import annotations

import io
import re
from typing import Dict, List, Sequence, Tuple

from mrp.task.escape import mathtext

__all__ = ["available", "intervals_svg", "sentences_svg"]

_STYLE = re.compile(r'\sstyle="([^"]*)"')
_PROPERTY = re.compile(r"^[a-z-]+$")


def available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _attributes(match: re.Match) -> str:
    out = []
    for declaration in match.group(1).split(";"):
        name, _, value = declaration.partition(":")
        name, value = name.strip(), value.strip()
        if name and value and _PROPERTY.match(name) and '"' not in value:
            out.append(f' {name}="{value}"')
    return "".join(out)


def inline(svg: str, key: str) -> str:
    """matplotlib's SVG made fit for the page: no XML prologue, no inline ``style`` attribute, its style
    element under the page's nonce."""
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg
    svg = _STYLE.sub(_attributes, svg)
    return svg.replace("<style", f'<style nonce="{key}"')


def _figure(width: float, height: float) -> Tuple[object, object]:
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height))
    return figure, figure.add_subplot(1, 1, 1)


def _svg(figure: object, key: str) -> str:
    stream = io.StringIO()
    figure.savefig(stream, format="svg", bbox_inches="tight", metadata={"Date": None})  # type: ignore
    return inline(stream.getvalue(), key)


def sentences_svg(values: Dict[str, List[float]], label: str, key: str) -> str:
    """Box plots of the per-sentence F of each submission (one box per submission, best first)."""
    names = list(values)
    figure, axes = _figure(max(4.0, 1.0 + 0.9 * len(names)), 3.2)
    axes.boxplot([values[name] or [0.0] for name in names], showmeans=True)  # type: ignore[attr-defined]
    axes.set_xticks(range(1, len(names) + 1), [mathtext(name) for name in names],  # type: ignore
                    rotation=30, ha="right")
    axes.set_ylabel(mathtext(f"{label} per sentence"))  # type: ignore[attr-defined]
    axes.set_ylim(-0.02, 1.02)  # type: ignore[attr-defined]
    return _svg(figure, key)


def intervals_svg(rows: Sequence[Tuple[str, float, float, float]], label: str, key: str) -> str:
    """Each submission's figure with its confidence interval (name, value, low, high), best on top."""
    figure, axes = _figure(6.0, max(1.6, 0.4 * len(rows) + 0.8))
    positions = list(range(len(rows)))[::-1]
    for y, (_, value, low, high) in zip(positions, rows):
        axes.errorbar([value], [y], xerr=[[value - low], [high - value]], fmt="o",  # type: ignore
                      capsize=4, color="#1f5f99")
    axes.set_yticks(positions, [mathtext(name) for name, _, _, _ in rows])  # type: ignore[attr-defined]
    axes.set_xlabel(mathtext(label))  # type: ignore[attr-defined]
    return _svg(figure, key)

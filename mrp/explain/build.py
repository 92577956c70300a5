"""From a scored run to the report: each pair's view (its graphs, the metric's detail, the figures of its
item in the JSON result), and the page written to a file.  ``mrp-score --explain`` and
``mrp-convert --to html`` call :func:`write_scored` and :func:`graphs_page`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from mrp.engine import Metric, Run
from mrp.explain.model import PairView, figures, graph_view, pair_view
from mrp.explain.page import report
from mrp.graph import Graph
from mrp.io.write import write_text


def views(metric: Metric, run: Run, only: Optional[str] = None) -> List[PairView]:
    """The view of every pair of a run (``only``: of the pairs with this gold id), in gold order."""
    out: List[PairView] = []
    headline = metric.headlines[0] if metric.headlines else None
    for k, (pair, result) in enumerate(zip(run.pairing.pairs, run.results)):
        if only is not None and pair.gold_entry.id != only:
            continue
        pair = pair.live()
        item = metric.item(pair, result)
        numbers = figures(metric.primary, headline, result.counts, item)
        if result.failure:
            numbers.note = f"scoring failed: {result.failure}"
        out.append(pair_view(k, pair.gold, pair.system, result.detail, numbers, item))
    _unique(out)
    return out


def _unique(found: Sequence[PairView]) -> None:
    """Make the ids the page links by unique (the same id in two frameworks gets ``framework:id``)."""
    seen: Dict[str, int] = {}
    for view in found:
        seen[view.id] = seen.get(view.id, 0) + 1
    for view in found:
        if seen[view.id] > 1:
            view.id = f"{view.framework}:{view.id}"


def write_scored(path: str, metric: Metric, run: Run, result: Dict[str, Any], title: str,
                 only: Optional[str] = None) -> int:
    """Write the report of a scored run (``only``: just the page of the pair with this gold id); returns
    the number of pairs written."""
    found = views(metric, run, only)
    heading = f"{metric.name}: {title}"
    if only is not None:
        page = report(found, _item_only(result, found), f"{heading}: {only}", f"{heading}: pair {only}",
                      only=found[0] if found else None)
    else:
        page = report(found, result, heading, heading)
    write_text(path, page, errors="replace")
    return len(found)


def _item_only(result: Dict[str, Any], found: Sequence[PairView]) -> Dict[str, Any]:
    """The signature and the pair's item of a result (a single pair's page embeds no other pair)."""
    return {"signature": result.get("signature"), "items": [view.item for view in found]}


def graphs_page(graphs: Sequence[Graph], title: str) -> str:
    """The pictures of graphs (no scoring): a table of the graphs and each graph's page."""
    found = [graph_view(k, graph) for k, graph in enumerate(graphs)]
    _unique(found)
    return report(found, {"graphs": len(found)}, title, title, scored=False)

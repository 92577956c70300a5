"""Graph-bank statistics after Kuhlmann and Oepen (2016), as mtool's ``--analyze`` reports them.

:func:`analyze` counts a collection of graphs as they were read (nothing normalized), by mtool's
definitions:

* a node is a *root* without incoming edges, a *singleton* when it is a root without outgoing edges and
  not a top; *reentrant* with more than one incoming edge (parallel edges each count);
* *components* are the undirected connected components without the singletons; a graph is *cyclic* with a
  loop or a directed cycle, a *forest* when acyclic and no node is reentrant, a *tree* when a forest of one
  component; *multi-rooted* with more than one root (singletons included);
* *treewidth* of the undirected graph of the non-singleton nodes (loops left out; 1 at least, and 1 for one
  node or none): mtool runs QuickBB (Gogate and Dechter) with no time limit, a complete search, so its
  value is the exact treewidth, which :func:`mrp.report.treewidth.treewidth` computes by its own branch and
  bound (the min-fill ordering's width, QuickBB's starting bound, is reported beside it);
* *edge density*: edges that are no loop per non-singleton node but one (1 for one node or none);
* for flavor-0 graphs (DM, PSD: nodes are tokens, ids their order) the edge length (id distance), whether
  two edges cross (``a < c < b < d``) and whether the crossing edges split into two non-crossing pages (a
  two-colouring of the crossing graph; mtool's own test misses a conflict found below the span its
  colouring starts from, in an order its sets of edges give, which changes from run to run with
  ``PYTHONHASHSEED``: 50.00 to 57.50 on one file of 40 random DM graphs; never on the shared files).

:func:`mtool_lines` prints mtool's numbered lines (``(01)\\tnumber of graphs\\t87``); :func:`to_json` names
every figure.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from mrp.codecs.mtool_ids import renumbered
from mrp.errors import MRPError
from mrp.graph import Graph
from mrp.report.treewidth import treewidth

__all__ = ["PER_GRAPH", "Analysis", "analyze", "mtool_analysis", "mtool_lines", "to_json"]


#: the per-graph figures kept for distributions
PER_GRAPH = ("nodes", "edges", "treewidth", "edge density", "reentrant nodes")


@dataclass
class Analysis:
    """The sums over a collection of graphs that the statistics are made of."""

    graphs: int = 0
    nodes: int = 0
    edges: int = 0
    tops: int = 0
    labels: int = 0
    properties: int = 0
    anchors: int = 0
    attributes: int = 0
    edge_labels: Set[str] = field(default_factory=set)
    singletons: int = 0
    loops: int = 0
    reentrant: int = 0
    non_top_roots: int = 0
    trees: int = 0
    forests: int = 0
    cyclic: int = 0
    connected: int = 0
    multi_rooted: int = 0
    treewidths: List[int] = field(default_factory=list)
    min_fill_widths: List[int] = field(default_factory=list)
    density: float = 0.0
    #: per graph, in order: nodes, edges, edge density and reentrant nodes (the distributions drawn by
    #: mrp.report.analysis_html)
    per_graph: Dict[str, List[float]] = field(default_factory=lambda: {name: [] for name in PER_GRAPH})
    #: flavor 0 only
    ordered: bool = False
    flavors: Set[Optional[int]] = field(default_factory=set)
    edge_length: int = 0
    noncrossing: int = 0
    page2: int = 0


def _cyclic(graph: Graph, ids: Set[int]) -> bool:
    """A loop, or a directed cycle (what is left after removing sources again and again)."""
    edges = [(e.source, e.target) for e in graph.edges if e.source in ids and e.target in ids]
    if any(a == b for a, b in edges):
        return True
    incoming = {k: 0 for k in ids}
    out: Dict[int, List[int]] = {k: [] for k in ids}
    for a, b in edges:
        incoming[b] += 1
        out[a].append(b)
    ready = [k for k, n in incoming.items() if n == 0]
    removed = 0
    while ready:
        k = ready.pop()
        removed += 1
        for b in out[k]:
            incoming[b] -= 1
            if incoming[b] == 0:
                ready.append(b)
    return removed < len(ids)


def _components(ids: Iterable[int], edges: List[Tuple[int, int]]) -> int:
    parent = {k: k for k in ids}

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a, b in edges:
        parent[root(a)] = root(b)
    return len({root(k) for k in parent})


def _crossings(spans: List[Tuple[int, int]]) -> Dict[Tuple[int, int], Set[Tuple[int, int]]]:
    """Per span, the spans it crosses (``a < c < b < d``): for each span, the spans that start strictly
    inside it, found by bisection in the spans sorted by start (no pair of spans compared that cannot
    cross: a chain's spans meet none)."""
    crossing: Dict[Tuple[int, int], Set[Tuple[int, int]]] = {}
    ordered = sorted(spans)
    starts = [c for c, _ in ordered]
    for a, b in spans:
        for k in range(bisect_right(starts, a), bisect_left(starts, b)):
            c, d = ordered[k]
            if b < d:
                crossing.setdefault((a, b), set()).add((c, d))
                crossing.setdefault((c, d), set()).add((a, b))
    return crossing


def _two_pages(crossing: Dict[Tuple[int, int], Set[Tuple[int, int]]]) -> bool:
    colour: Dict[Tuple[int, int], int] = {}
    for start in sorted(crossing):
        if start in colour:
            continue
        colour[start], stack = 0, [start]
        while stack:
            span = stack.pop()
            for other in crossing[span]:
                if other not in colour:
                    colour[other] = 1 - colour[span]
                    stack.append(other)
                elif colour[other] == colour[span]:
                    return False
    return True


def _distinct_edges(graph: Graph) -> Graph:
    """The graph with each edge once by its ends and label (the first kept), as mtool's edge set holds
    them; the graph itself when no edge repeats."""
    seen: Set[Tuple[int, int, Optional[str]]] = set()
    edges = []
    for edge in graph.edges:
        key = (edge.source, edge.target, edge.label)
        if key not in seen:
            seen.add(key)
            edges.append(edge)
    return graph if len(edges) == len(graph.edges) else replace(graph, edges=edges)


def _add(total: Analysis, graph: Graph, unvisited: int = 0) -> None:
    """Add a graph's counts; ``unvisited`` of its singletons start no component (mtool's renumbered
    nodes)."""
    ids = {node.id for node in graph.nodes}
    tops = set(graph.tops)
    edges = [(e.source, e.target) for e in graph.edges if e.source in ids and e.target in ids]
    incoming = {k: 0 for k in ids}
    outgoing = {k: 0 for k in ids}
    for a, b in edges:
        outgoing[a] += 1
        incoming[b] += 1
    singles = {k for k in ids if incoming[k] == 0 and outgoing[k] == 0 and k not in tops}
    total.graphs += 1
    total.nodes += len(graph.nodes)
    total.edges += len(graph.edges)
    total.tops += sum(node.id in tops for node in graph.nodes)
    total.labels += sum(node.label is not None for node in graph.nodes)
    total.properties += sum(len(node.properties) for node in graph.nodes)
    total.anchors += sum(node.anchors is not None for node in graph.nodes)
    total.attributes += sum(len(edge.attributes) for edge in graph.edges)
    total.edge_labels.update(edge.label for edge in graph.edges if edge.label is not None)
    total.singletons += len(singles)
    total.loops += sum(a == b for a, b in edges)
    total.reentrant += sum(n > 1 for n in incoming.values())
    total.non_top_roots += sum(incoming[k] == 0 and k not in singles and k not in tops for k in ids)
    cyclic = _cyclic(graph, ids)
    components = _components(ids, edges) - len(singles) - unvisited
    forest = not cyclic and all(n <= 1 for n in incoming.values())
    total.cyclic += cyclic
    total.connected += components == 1
    total.forests += forest
    total.trees += forest and components == 1
    total.multi_rooted += sum(n == 0 for n in incoming.values()) > 1
    kept = ids - singles
    plain = [(a, b) for a, b in edges if a != b]
    if len(kept) <= 1:
        width, heuristic, density = 1, 1, 1.0
    else:
        adjacency: Dict[int, Set[int]] = {k: set() for k in kept}
        for a, b in plain:
            adjacency[a].add(b)
            adjacency[b].add(a)
        exact, upper = treewidth(adjacency)
        width, heuristic, density = max(1, exact), max(1, upper), len(plain) / (len(kept) - 1)
    total.treewidths.append(width)
    total.min_fill_widths.append(heuristic)
    total.density += density
    for name, value in zip(PER_GRAPH, (len(graph.nodes), len(graph.edges), width, density,
                                       sum(n > 1 for n in incoming.values()))):
        total.per_graph[name].append(value)
    total.flavors.add(graph.flavor)
    if graph.flavor == 0:
        total.ordered = True
        spans = [(min(e.source, e.target), max(e.source, e.target)) for e in graph.edges]
        crossing = _crossings(spans)
        total.noncrossing += not crossing
        total.page2 += _two_pages(crossing)
        total.edge_length += sum(b - a for a, b in spans)


def analyze(graphs: Iterable[Graph], mtool: bool = False) -> Analysis:
    """The sums of a collection of graphs (their statistics: :func:`to_json`, :func:`mtool_lines`).

    Args:
        graphs: the graphs, as read.
        mtool: count as mtool's own graph counts (``mrp-mtool --analyze``): a repeated edge (same ends and
            label) once, as mtool keeps edges in a set; and a node that the mtool reading renumbered (the
            later node of a duplicated id: :mod:`mrp.codecs.mtool_ids`) as a singleton that is no
            component, as mtool's search of the components visits each id once but counts each node
            object a singleton, so its graph has one component fewer than it has (a tree of one component
            and such a node: not connected, not a tree).  Two pages stay mrp's exact test: mtool's
            misses conflicts and depends on its sets' order (``PYTHONHASHSEED``).

    Returns:
        The sums.
    """
    total = Analysis()
    for graph in graphs:
        if mtool:
            _add(total, _distinct_edges(graph), renumbered(graph))
        else:
            _add(total, graph)
    return total


def _share(part: float, whole: float) -> Optional[float]:
    return 100 * part / whole if whole else None


def to_json(total: Analysis) -> Dict[str, Any]:
    """Every figure by name: counts, and percentages (of graphs, of non-singleton nodes, of all tuples)
    unrounded; None where there is nothing to divide by, or (edge length, crossing) for graphs that are not
    of flavor 0."""
    n, kept = total.graphs, total.nodes - total.singletons
    tuples = total.tops + total.labels + total.properties + total.anchors + total.edges + total.attributes
    ordered = total.ordered
    return {
        "graphs": n, "nodes": total.nodes,
        **{name: {"n": value, "percent": _share(value, tuples)} for name, value in (
            ("tops", total.tops), ("labels", total.labels), ("properties", total.properties),
            ("anchors", total.anchors), ("edges", total.edges), ("attributes", total.attributes))},
        "edge_labels": len(total.edge_labels), "singletons": total.singletons, "loops": total.loops,
        "trees": _share(total.trees, n), "forests": _share(total.forests, n),
        "treewidth_one": _share(total.treewidths.count(1), n),
        "treewidth_average": sum(total.treewidths) / n if n else None,
        "treewidth_max": max(total.treewidths, default=None),
        "treewidth_min_fill_max": max(total.min_fill_widths, default=None),
        "density_average": total.density / n if n else None,
        "reentrant": _share(total.reentrant, kept), "cyclic": _share(total.cyclic, n),
        "not_connected": _share(n - total.connected, n), "multi_rooted": _share(total.multi_rooted, n),
        "non_top_roots": _share(total.non_top_roots, kept),
        "edge_length_average": total.edge_length / total.edges if ordered and total.edges else None,
        "noncrossing": _share(total.noncrossing, n) if ordered else None,
        "pagenumber_two": _share(total.page2, n) if ordered else None,
    }


def _fixed(value: Optional[float], digits: int) -> str:
    return "--" if value is None else f"{value:.{digits}f}"


def mtool_lines(total: Analysis) -> List[str]:
    """mtool's ``--analyze`` output: ``(NN)\\tname\\tvalue`` lines, numbered as it numbers them (the six
    tuple counts only when there is a tuple); ``--`` where mtool divides by zero (it stops there)."""
    figures = to_json(total)
    rows: List[Tuple[str, str]] = [("number of graphs", str(total.graphs)),
                                   ("number of nodes", str(total.nodes))]
    names = (("tops", "tops"), ("labels", "node labels"), ("properties", "node properties"),
             ("anchors", "node anchors"), ("edges", "edges"), ("attributes", "edge attributes"))
    if any(figures[key]["n"] for key, _ in names):
        rows += [(f"number of {name} (percentage)",
                  f"{figures[key]['n']:d} ({_fixed(figures[key]['percent'], 2)})") for key, name in names]
    rows += [("number of edge labels", str(figures["edge_labels"])),
             ("\\percentgraph\\ trees", _fixed(figures["trees"], 2)),
             ("\\percentgraph\\ treewidth one", _fixed(figures["treewidth_one"], 2)),
             ("average treewidth", _fixed(figures["treewidth_average"], 3)),
             ("maximal treewidth", str(figures["treewidth_max"] or 0)),
             ("average edge density", _fixed(figures["density_average"], 3)),
             ("\\percentnode\\ reentrant", _fixed(figures["reentrant"], 2)),
             ("\\percentgraph\\ cyclic", _fixed(figures["cyclic"], 2)),
             ("\\percentgraph\\ not connected", _fixed(figures["not_connected"], 2)),
             ("\\percentgraph\\ multi-rooted", _fixed(figures["multi_rooted"], 2)),
             ("percentage of non-top roots", _fixed(figures["non_top_roots"], 2)),
             ("average edge length", _fixed(figures["edge_length_average"], 3)),
             ("\\percentgraph\\ noncrossing", _fixed(figures["noncrossing"], 2)),
             ("\\percentgraph\\ pagenumber two", _fixed(figures["pagenumber_two"], 2))]
    return [f"({k:02d})\t{name}\t{value}" for k, (name, value) in enumerate(rows, start=1)]


def mtool_analysis(graphs: Iterable[Graph]) -> str:
    """``mrp-mtool --analyze``: mtool's lines for one file's graphs.

    Raises:
        MRPError: graphs of flavor 0 (DM, PSD) beside others (mtool refuses that mix too: its edge
            lengths and crossings are of ordered graphs).
    """
    total = analyze(graphs, mtool=True)
    if total.ordered and len(total.flavors) > 1:
        raise MRPError("--analyze: graphs of flavor 0 (ordered: DM, PSD) cannot be analyzed together with "
                       "others in one file (as mtool); mrp-analyze reports each framework on its own")
    return "".join(line + "\n" for line in mtool_lines(total))

"""mtool's output: its keys, in its order, printed by its hand-rolled JSON writer.

mrp's results carry more (bounds, cut pairs, macro scores, the signature);
mrp-mtool prints only what the reference scorer prints, so that scripts
reading its output keep working: per metric the top-level keys of §6.1/§5 of
the reference notes, per-item ``scores`` with ``--trace`` (by framework for
``mrp``, by graph id for the others; items with an empty system graph left
out for ``mrp``), then ``time`` and ``cpu``.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any, Dict, Iterable, Mapping, Sequence, Set, Tuple

from mrp.graph import Graph
from mrp.metrics import TYPES

#: mtool names the framework of a CoNLL-U graph by the format it was read as: ``--read conllu`` gives
#: ``conllu`` (mrp's reader says ``ud``, the MRP 2020 name; ``ud`` and ``eud`` are the same for both)
FRAMEWORK_OF_FORMAT = {"conllu": "conllu"}

#: the MRP version mtool writes (its ``--version`` default, which mrp-mtool does not take)
MTOOL_VERSION = 1.1
#: an edge's keys as mtool writes them: its attributes under their MRP 2020 name, whatever the file said
_EDGE_KEYS = {"properties": "attributes"}
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}( \(\d{2}:\d{2}\))?")

#: metric -> its top-level keys, in mtool's order
KEYS: Dict[str, Sequence[str]] = {
    "mrp": ("n", "null", "exact", *TYPES, "all", "scores", "time", "cpu"),
    "smatch": ("n", "g", "s", "c", "p", "r", "f", "scores", "time", "cpu"),
    "edm": ("n", "scores", "names", "arguments", "tops", "properties", "all", "time", "cpu"),
    "sdp": ("n", "labeled", "unlabeled", "scores", "time", "cpu"),
    "ucca": ("n", "labeled", "unlabeled", "scores", "time", "cpu"),
}
#: the fields of a count block: in totals, and in per-item scores
TOTAL = ("g", "s", "c", "p", "r", "f", "m")
ITEM = ("g", "s", "c", "m")


def _counts(value: Any, fields: Sequence[str]) -> Any:
    """A count block (or a nest of them) with only mtool's fields."""
    if not isinstance(value, Mapping):
        return value
    if "g" in value:
        return {name: value[name] for name in fields if name in value}
    return {name: _counts(inner, fields) for name, inner in value.items() if isinstance(inner, Mapping)}


def _mrp_item(item: Mapping[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {kind: _counts(item[kind], ITEM) for kind in TYPES if kind in item}
    out["exact"] = bool(item.get("exact", True))
    out["steps"] = int(item.get("steps", 0))
    return out


Null = Set[Tuple[str, str]]


def _scores(metric: str, scores: Mapping[str, Mapping[str, Any]], null: Null) -> Dict[str, Any]:
    if metric == "mrp":
        return {framework: {gid: _mrp_item(item) for gid, item in items.items()
                            if (framework, gid) not in null}
                for framework, items in scores.items()}
    flat: Dict[str, Any] = {}
    for items in scores.values():
        for gid, item in items.items():
            flat[gid] = _counts({k: v for k, v in item.items() if isinstance(v, Mapping) or k in ITEM}, ITEM)
    return flat


def layout(metric: str, result: Mapping[str, Any], trace: bool, null: Set[Tuple[str, str]]) -> Dict[str, Any]:
    """mrp's result of a metric as mtool lays it out (``null``: (framework, id) of empty system graphs)."""
    out: Dict[str, Any] = {}
    for key in KEYS[metric]:
        if key == "scores":
            if trace:
                out[key] = _scores(metric, result.get("scores", {}), null)
        elif key in result:
            out[key] = _counts(result[key], TOTAL)
    return out


def render(result: Mapping[str, Any]) -> str:
    """mtool's JSON text: ``{"key": value`` joined by ``,\\n `` and ``}``, ASCII-escaped as json.dump does."""
    return "{" + ",\n ".join(f'"{key}": {json.dumps(value)}' for key, value in result.items()) + "}\n"


def as_read(graphs: Iterable[Graph], fmt: str) -> None:
    """Name the framework of graphs read as ``fmt`` as mtool names it (:data:`FRAMEWORK_OF_FORMAT`)."""
    framework = FRAMEWORK_OF_FORMAT.get(fmt)
    if framework is not None:
        for graph in graphs:
            graph.framework = framework


def as_written(graph: Graph) -> Graph:
    """A copy of the graph as mtool writes it: every edge has an id (mtool numbers an edge without one by
    the count of distinct edges, by source, target and label, before it: its edges are a set), edges in
    the order of their ids, and a node with an empty anchor list has none (mtool writes anchors only when
    there are some).  A repeated edge is kept (mtool's set drops it)."""
    seen: Set[Tuple[int, int, Any]] = set()
    edges = []
    for edge in graph.edges:
        edges.append(edge if edge.id is not None else replace(edge, id=len(seen)))
        seen.add((edge.source, edge.target, edge.label))
    nodes = [replace(node, anchors=None) if node.anchors == [] else node for node in graph.nodes]
    return replace(graph, nodes=nodes, edges=sorted(edges, key=lambda edge: edge.id or 0))


def mtool_object(obj: Dict[str, Any]) -> Dict[str, Any]:
    """An MRP JSON object (:func:`mrp.codecs.encode`) as mtool's ``Graph.encode`` writes it: version 1.1
    (its ``--version`` default), the time as a date (``2019-04-09 (14:47)`` as ``2019-04-09``), edge
    attributes as ``attributes`` (where the file said ``properties``), and without
    an empty input, label, edge normal or anchor list, the tops, nodes and edges of a graph with no node,
    and the edges of a graph with none."""
    out: Dict[str, Any] = {}
    for key, value in obj.items():
        if key in ("time", "language") and "version" not in out:
            out["version"] = MTOOL_VERSION
        if key == "version":
            value = MTOOL_VERSION
        elif key == "time" and isinstance(value, str):
            value = value[:10] if _TIME.fullmatch(value) else value
        if key != "input" or value:
            out[key] = value
    if not out.get("nodes"):
        for key in ("tops", "nodes", "edges"):
            out.pop(key, None)
    elif not out.get("edges"):
        out.pop("edges", None)
    for key, empty in (("nodes", ("label", "anchors")), ("edges", ("label", "normal", "anchors"))):
        if key in out:
            out[key] = [{_EDGE_KEYS.get(name, name) if key == "edges" else name: value
                         for name, value in item.items() if name not in empty or value} for item in out[key]]
    return out

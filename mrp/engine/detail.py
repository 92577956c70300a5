"""What a pair's explanation needs from its metric: the node correspondence, and every tuple the metric
counted, as matched, missed (gold only) or surplus (system only), naming the nodes it is about.

A metric that aligns nodes fills :attr:`mrp.engine.base.PairCounts.detail` with a :class:`Detail` when
``Options.explain`` is set (``mrp-score --explain``); otherwise nothing here runs, so plain scoring does
not slow down.  A :class:`Fact` names one node (a node's label, property, anchor, top, SMATCH's instance
and attribute triples) or two (an edge, an edge attribute, a relation triple); the explanation draws the
first kind inside the node and the second as an arrow.  Everything is plain data (tuples, strings and
ints), so a detail crosses from a ``--jobs`` worker process like any result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Hashable, List, NamedTuple, Optional, Sequence, Set, Tuple

from mrp.normalize import NormalGraph

MATCHED: str = "matched"
MISSED: str = "missed"
SURPLUS: str = "surplus"
#: Local: a node's triples (name, value) -> copies; Relations: (source, target, name) -> copies
Local = List[Dict[Hashable, int]]
Relations = Dict[Tuple[int, int, Hashable], int]


class Fact(NamedTuple):
    """One counted tuple: its type (as the metric names it), whether it matched, the gold and the system
    node ids it is about (() on the side that lacks it), and what it says besides its nodes."""

    kind: str
    status: str
    gold: Tuple[int, ...]
    system: Tuple[int, ...]
    text: str


@dataclass
class Detail:
    """A pair's correspondence (gold node id, system node id) and its facts, gold order first."""

    correspondence: List[Tuple[int, int]] = field(default_factory=list)
    facts: List[Fact] = field(default_factory=list)
    #: what the metric's tuples are, for the page (e.g. "the MRP metric's tuples")
    source: str = ""


def _anchor_text(text: Optional[str], anchor: Any) -> str:
    """An anchor as the text it covers (positions or spans), else as the positions themselves."""
    if isinstance(anchor, (frozenset, set)):
        positions = sorted(p for p in anchor if isinstance(p, int))
        if text is not None and positions and positions[-1] < len(text):
            pieces: List[str] = []
            last = -2
            for p in positions:
                gap = "" if p == last + 1 or not pieces else " " if text[last + 1:p].isspace() else "\u2026"
                pieces.append(gap + text[p])
                last = p
            return "\u27e8" + "".join(pieces) + "\u27e9"
        return "\u27e8" + ",".join(map(str, positions)) + "\u27e9"
    return "\u27e8" + str(anchor) + "\u27e9"


def _node_facts(graph: NormalGraph) -> List[Tuple[str, int, Tuple[Any, ...], str]]:
    """(type, position, tuple key, text) of every node tuple of a normalized graph."""
    out: List[Tuple[str, int, Tuple[Any, ...], str]] = []
    for k in range(len(graph)):
        if graph.tops[k]:
            out.append(("tops", k, (), "top"))
        if graph.labels[k] is not None:
            out.append(("labels", k, (graph.labels[k],), str(graph.labels[k])))
        for name, value in sorted(graph.properties[k], key=repr):
            out.append(("properties", k, (name, value), f"{name} = {value}"))
        if graph.anchors[k] is not None:
            out.append(("anchors", k, (graph.anchors[k],), _anchor_text(graph.input, graph.anchors[k])))
    return out


def _edge_facts(graph: NormalGraph) -> List[Tuple[str, int, int, Tuple[Any, ...], str]]:
    """(type, source, target, tuple key, text) of every edge and edge attribute."""
    out: List[Tuple[str, int, int, Tuple[Any, ...], str]] = []
    for (source, target, label), attributes in graph.edges.items():
        out.append(("edges", source, target, (label,), "" if label is None else str(label)))
        for name, value in sorted(attributes, key=repr):
            out.append(("attributes", source, target, (label, name, value), f"{label} {name} = {value}"))
    return out


def normal_detail(gold: NormalGraph, system: NormalGraph, mapping: Sequence[int]) -> Detail:
    """The MRP metric's tuples of a pair under a map from gold positions to system positions (-1: none)."""
    forward = {i: j for i, j in enumerate(mapping) if j >= 0}
    back = {j: i for i, j in forward.items()}
    gids, sids = gold.node_ids, system.node_ids
    facts: List[Fact] = []
    seen: Set[Tuple[Any, ...]] = set()
    for kind, k, key, _ in _node_facts(system):
        seen.add((kind, back.get(k, -1 - k)) + key)
    matched_keys: Set[Tuple[Any, ...]] = set()
    for kind, k, key, text in _node_facts(gold):
        j = forward.get(k)
        if j is not None and (kind, k) + key in seen:
            matched_keys.add((kind, j) + key)
            facts.append(Fact(kind, MATCHED, (gids[k],), (sids[j],), text))
        else:
            facts.append(Fact(kind, MISSED, (gids[k],), (), text))
    for kind, k, key, text in _node_facts(system):
        if (kind, k) + key not in matched_keys:
            facts.append(Fact(kind, SURPLUS, (), (sids[k],), text))
    edges = {(kind, back.get(a, -1 - a), back.get(b, -1 - b)) + key
             for kind, a, b, key, _ in _edge_facts(system)}
    for kind, a, b, key, text in _edge_facts(gold):
        if (kind, a, b) + key in edges:
            edges.discard((kind, a, b) + key)
            facts.append(Fact(kind, MATCHED, (gids[a], gids[b]), (sids[forward[a]], sids[forward[b]]), text))
        else:
            facts.append(Fact(kind, MISSED, (gids[a], gids[b]), (), text))
    for kind, a, b, key, text in _edge_facts(system):
        if (kind, back.get(a, -1 - a), back.get(b, -1 - b)) + key in edges:
            facts.append(Fact(kind, SURPLUS, (), (sids[a], sids[b]), text))
    return Detail([(gids[i], sids[j]) for i, j in forward.items()], facts, "the MRP metric's tuples")


def _triple_text(key: Hashable, text: Optional[str] = None) -> Tuple[str, str]:
    """A SMATCH triple's type and text: ``instance`` (its concept), ``top``, else ``triple`` (an anchor as
    the ``text`` it covers)."""
    parts = key if isinstance(key, tuple) else (key,)
    if len(parts) == 2 and parts[0] == "anchor" and isinstance(parts[1], frozenset):
        return "anchor", _anchor_text(text, parts[1])
    shown = [",".join(map(str, sorted(part))) if isinstance(part, frozenset) else str(part) for part in parts]
    if len(shown) == 2 and shown[0] == "instance":
        return "instance", shown[1]
    if len(shown) == 2 and shown[0] == "TOP":
        return "top", "TOP" + (f" {shown[1]}" if shown[1] not in ("", "top") else "")
    return "triple", " = ".join(shown) if len(shown) > 1 else shown[0]


def triple_detail(gold_ids: Sequence[int], system_ids: Sequence[int], gold: Tuple[Local, Relations],
                  system: Tuple[Local, Relations], mapping: Sequence[int], source: str,
                  texts: Tuple[Optional[str], Optional[str]] = (None, None)) -> Detail:
    """SMATCH-style triples of a pair (node-local triples and relations by node position) under a map;
    a triple with more copies on one side than the other counts the excess as missed or surplus."""
    (local_g, rel_g), (local_s, rel_s) = gold, system
    forward = {i: j for i, j in enumerate(mapping) if j >= 0}
    back = {j: i for i, j in forward.items()}
    facts: List[Fact] = []
    for i, triples in enumerate(local_g):
        j = forward.get(i, -1)
        for key, copies in triples.items():
            kind, text = _triple_text(key, texts[0])
            both = min(copies, local_s[j].get(key, 0)) if j >= 0 else 0
            if both:
                facts += [Fact(kind, MATCHED, (gold_ids[i],), (system_ids[j],), text)] * both
            facts += [Fact(kind, MISSED, (gold_ids[i],), (), text)] * (copies - both)
    for j, triples in enumerate(local_s):
        i = back.get(j, -1)
        for key, copies in triples.items():
            kind, text = _triple_text(key, texts[1])
            both = min(copies, local_g[i].get(key, 0)) if i >= 0 else 0
            facts += [Fact(kind, SURPLUS, (), (system_ids[j],), text)] * (copies - both)
    for (a, b, key), copies in rel_g.items():
        c, d = forward.get(a, -1), forward.get(b, -1)
        both = min(copies, rel_s.get((c, d, key), 0)) if c >= 0 and d >= 0 else 0
        text = _triple_text(key)[1]
        ends = (gold_ids[a], gold_ids[b])
        if both:
            facts += [Fact("relation", MATCHED, ends, (system_ids[c], system_ids[d]), text)] * both
        facts += [Fact("relation", MISSED, ends, (), text)] * (copies - both)
    for (c, d, key), copies in rel_s.items():
        a, b = back.get(c, -1), back.get(d, -1)
        both = min(copies, rel_g.get((a, b, key), 0)) if a >= 0 and b >= 0 else 0
        facts += [Fact("relation", SURPLUS, (), (system_ids[c], system_ids[d]), _triple_text(key)[1])] * (
            copies - both)
    return Detail([(gold_ids[i], system_ids[j]) for i, j in forward.items()], facts, source)

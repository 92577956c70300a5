"""Fine-grained AMR scores: SMATCH on the sub-graph of each meaning aspect.

For every aspect, the same rule extracts a sub-graph from the gold and from the
system graph, and the two sub-graphs are scored with SMATCH triples (those of
``--score smatch``: the original tool's for Penman input, the MRP reference's
otherwise, without the TOP triple, since a sub-graph has no root) under the
**exact** optimal alignment of their nodes.  Extraction follows Smatch++
(Opitz, "SMATCH++: Standardized and Extended Evaluation of Semantic Graphs",
2023): a *trigger* selects relations, constants or nodes, and each trigger
brings its context below it.  The aspect names and the concept and reentrancy
aspects come from Damonte et al. (2017, "An Incremental Parser for Abstract
Meaning Representation"), scored here as sub-graphs instead of label lists.

Roles are taken in their normal direction (``x :ARG0-of y`` is the ``ARG0``
relation from ``y`` to ``x``; ``:mod`` counts as written), compared lowercased,
so the sub-graph does not depend on how the Penman tree is written.  What a
trigger brings:

* a relation ``u :role v``: ``u``'s concept, the relation, and ``v`` with its context;
* a constant ``u :role c``: ``u``'s concept and the constant;
* a node ``n`` (by its concept): the relations into ``n`` with their sources'
  concepts, and ``n`` with its context one level deeper (its own relations are
  triggered too, as Smatch++ takes every triple that touches such a node).

The *context* of ``v`` is, as in Smatch++, two levels of relations below it:
the relations and constants of ``v`` and of its children, and the concepts of
its grandchildren (``DEPTH``; ``depth=None`` takes everything reachable).  A
``:wiki`` constant belongs to wikification only.

Per aspect, the trigger (roles as ``:role``, node concepts plain):

- named-entities: ``:name``; ``name``, ``have-name-91``
- negation: ``:polarity``; ``have-polarity-91``
- wikification: ``:wiki`` (each wikified node's concept and its ``:wiki`` value)
- arguments: ``:ARG0``, ``:ARG1``, ... (relations and constants, ``:ARGn-of`` included)
- reentrancies: nodes with two or more incoming relations: those relations and the
  concepts at both ends, without context (as Smatch++ and Damonte et al.)
- concepts: every node's concept (the instance triples), nothing else
- frames: the concepts with a PropBank sense (``-01``, ``-91``, ...), nothing else
- cause: ``:cause``; ``cause-01``
- location: ``:location``, ``:destination``, ``:path``, ``:direction``;
  ``be-located-at-91``, ``be-destined-for-91``
- quantifier: ``:quant``; ``have-quant-91`` and every ``*-quantity``
- time: ``:time``, ``:duration``, ``:frequency``; ``date-entity``, ``date-interval``,
  ``be-temporally-at-91``, ``have-frequency-91``, ``last-01``

Unlike Smatch++, graphs are not standardized first (no re-mapping of core roles
from PropBank descriptions) and no "predicates" (parents with no incoming and a
single outgoing relation) are added.  Aspects are AMR-specific: a graph whose
framework is not ``amr`` has empty sub-graphs for every aspect.

The result has, per aspect: ``items`` (pairs where the gold or the system
sub-graph is non-empty), ``gold`` and ``system`` (pairs where that side has
it), ``g``, ``s``, ``c``, ``p``, ``r``, ``f`` (micro average; 0.0 when
undefined, with ``"empty": true`` when no pair has the aspect), ``exact``
(items whose alignment is proved optimal) and ``bound`` (the summed upper bound
on ``c`` and the F it implies).  An aspect empty on both sides of a pair counts
``g = s = c = 0`` and never reaches the solver.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Pattern, Set, Tuple, Union

from mrp import rules
from mrp.engine import CountPath as Path
from mrp.engine import Metric, Options, Pair, PairCounts, Parameter, Run, prf
from mrp.graph import Edge, Graph, Node
from mrp.metrics.smatch.metric import Local, Relations, score_triples, triples_field
from mrp.metrics.smatch.metric import triples as smatch_triples

#: Levels of relations below a trigger that its sub-graph keeps (Smatch++'s extraction range).
DEPTH: Optional[int] = 2


@dataclass(frozen=True)
class Aspect:
    """What triggers an aspect: roles (relations and constants), node concepts, reentrant nodes."""

    roles: Optional[Pattern[str]] = None
    concepts: Optional[Pattern[str]] = None
    reentrant: bool = False
    #: the sub-graph is the trigger nodes' concepts alone (no relations, no constants)
    concepts_only: bool = False


def _words(*words: str) -> Pattern[str]:
    return re.compile("|".join(re.escape(word) for word in words))


#: The aspects, in output order.
RULES: Dict[str, Aspect] = {
    "named-entities": Aspect(roles=_words("name"), concepts=_words("name", "have-name-91")),
    "negation": Aspect(roles=_words("polarity"), concepts=_words("have-polarity-91")),
    "wikification": Aspect(roles=_words("wiki")),
    "arguments": Aspect(roles=re.compile(r"arg\d+")),
    "reentrancies": Aspect(reentrant=True),
    "concepts": Aspect(concepts=re.compile(r".*", re.DOTALL), concepts_only=True),
    "frames": Aspect(concepts=re.compile(r".+-\d+"), concepts_only=True),
    "cause": Aspect(roles=_words("cause"), concepts=_words("cause-01")),
    "location": Aspect(roles=_words("location", "destination", "path", "direction"),
                       concepts=_words("be-located-at-91", "be-destined-for-91")),
    "quantifier": Aspect(roles=_words("quant"), concepts=re.compile(r"have-quant-91|.+-quantity")),
    "time": Aspect(roles=_words("time", "duration", "frequency"),
                   concepts=_words("date-entity", "date-interval", "be-temporally-at-91",
                                   "have-frequency-91", "last-01")),
}
ASPECTS: Tuple[str, ...] = tuple(RULES)


# --------------------------------------------------------------------------- extraction


def role(label: Optional[str]) -> Tuple[str, bool]:
    """A role lowercased in its normal direction, and whether it was written inverted (``mod`` is not)."""
    text = (label or "").lower()
    normal = None if text == "mod" else rules.normal_role(text, rules.MRP)
    return (text, False) if normal is None else (normal, True)


def _matches(pattern: Optional[Pattern[str]], text: Optional[str]) -> bool:
    return pattern is not None and pattern.fullmatch((text or "").lower()) is not None


@dataclass
class _Arcs:
    """Relations in their normal direction: (source, target) and role per edge index,
    and (edge index, other end) lists by node."""

    ends: List[Tuple[int, int]] = field(default_factory=list)
    roles: List[str] = field(default_factory=list)
    out: Dict[int, List[Tuple[int, int]]] = field(default_factory=dict)
    into: Dict[int, List[Tuple[int, int]]] = field(default_factory=dict)


def _arcs(graph: Graph) -> _Arcs:
    arcs = _Arcs()
    for k, edge in enumerate(graph.edges):
        name, inverted = role(edge.label)
        source, target = (edge.target, edge.source) if inverted else (edge.source, edge.target)
        arcs.ends.append((source, target))
        arcs.roles.append(name)
        arcs.out.setdefault(source, []).append((k, target))
        arcs.into.setdefault(target, []).append((k, source))
    return arcs


@dataclass
class _Selection:
    """What a sub-graph keeps: nodes (with their concept), nodes with all their relations and
    constants (``full``), edges by index, single constants (node id -> property indices), and
    the nodes to expand with the levels of relations to keep below each (``starts``)."""

    nodes: Set[int] = field(default_factory=set)
    full: Set[int] = field(default_factory=set)
    edges: Set[int] = field(default_factory=set)
    constants: Dict[int, Set[int]] = field(default_factory=dict)
    starts: Dict[int, int] = field(default_factory=dict)

    def relation(self, k: int, ends: Tuple[int, int], levels: int) -> None:
        """Keep relation ``k``, its source's concept, and its target with ``levels`` levels below."""
        self.edges.add(k)
        self.nodes.update(ends)
        self.start(ends[1], levels)

    def start(self, node: int, levels: int) -> None:
        self.starts[node] = max(self.starts.get(node, 0), levels)


def _expand(selection: _Selection, arcs: _Arcs) -> None:
    """Add the relations (and their targets) below each start node, as many levels as it asks."""
    budget: Dict[int, int] = {}
    work = list(selection.starts.items())
    while work:
        node, left = work.pop()
        if budget.get(node, -1) >= left:
            continue
        budget[node] = left
        selection.nodes.add(node)
        if left <= 0:
            continue
        selection.full.add(node)
        for k, child in arcs.out.get(node, []):
            selection.edges.add(k)
            work.append((child, left - 1))


def _trigger_constants(graph: Graph, aspect: Aspect, selection: _Selection) -> None:
    for node in graph.nodes:
        for j, name in enumerate(node.properties):
            if _matches(aspect.roles, role(name)[0]):
                selection.nodes.add(node.id)
                selection.constants.setdefault(node.id, set()).add(j)


def _trigger_nodes(graph: Graph, aspect: Aspect, arcs: _Arcs) -> List[int]:
    if aspect.reentrant:
        return [node.id for node in graph.nodes if len(arcs.into.get(node.id, [])) > 1]
    return [node.id for node in graph.nodes if _matches(aspect.concepts, node.label)]


def _select(graph: Graph, aspect: Aspect, depth: Optional[int]) -> _Selection:
    """The parts of a graph that an aspect's triggers select, with their context."""
    selection = _Selection()
    if aspect.concepts_only:
        selection.nodes.update(node.id for node in graph.nodes if _matches(aspect.concepts, node.label))
        return selection
    arcs = _arcs(graph)
    levels = len(graph.nodes) + 1 if depth is None else depth
    for k, name in enumerate(arcs.roles):
        if _matches(aspect.roles, name):
            selection.relation(k, arcs.ends[k], levels)
    _trigger_constants(graph, aspect, selection)
    node_levels = 0 if aspect.reentrant else levels + 1
    for node_id in _trigger_nodes(graph, aspect, arcs):
        for k, _ in arcs.into.get(node_id, []):
            selection.relation(k, arcs.ends[k], node_levels)
        selection.start(node_id, node_levels)
    _expand(selection, arcs)
    return selection


def _node(node: Node, selection: _Selection) -> Node:
    keep = selection.constants.get(node.id, set())
    full = node.id in selection.full
    chosen = [j for j, name in enumerate(node.properties)
              if j in keep or (full and role(name)[0] != "wiki")]
    return Node(id=node.id, label=node.label, properties=[node.properties[j] for j in chosen],
                values=[node.values[j] for j in chosen], anchors=node.anchors if full else None)


def _edge(edge: Edge) -> Edge:
    return Edge(source=edge.source, target=edge.target, label=edge.label, normal=edge.normal,
                attributes=list(edge.attributes), values=list(edge.values), id=edge.id,
                anchors=edge.anchors, legacy=edge.legacy)


def extract(graph: Graph, aspect: str, depth: Optional[int] = DEPTH) -> Graph:
    """The sub-graph of one aspect (possibly without nodes): a new graph, node ids kept, no tops.

    ``depth`` is the number of relation levels kept below a trigger (None: all).
    """
    if aspect not in RULES:
        raise ValueError(f"unknown aspect '{aspect}' (known: {', '.join(ASPECTS)})")
    sub = Graph(id=graph.id, framework=graph.framework, flavor=graph.flavor, input=graph.input)
    if graph.framework != "amr":
        return sub
    selection = _select(graph, RULES[aspect], depth)
    sub.nodes = [_node(node, selection) for node in graph.nodes if node.id in selection.nodes]
    kept = {node.id for node in sub.nodes}
    sub.edges = [_edge(edge) for k, edge in enumerate(graph.edges)
                 if k in selection.edges and edge.source in kept and edge.target in kept]
    return sub


# --------------------------------------------------------------------------- scoring


def triples(graph: Graph, options: Options) -> Tuple[Local, Relations, int]:
    """The SMATCH triples of a sub-graph, as ``--score smatch`` counts them, without a TOP triple."""
    local, relations, total = smatch_triples(graph, options)
    if options.penman and local:
        total -= local[0].pop(("TOP", "top"), 0)  # the tool roots a graph without tops at its first node
    return local, relations, total


def score_subgraphs(gold: Graph, system: Graph, options: Options) -> Dict[str, Any]:
    """SMATCH counts of two sub-graphs under the exact optimal alignment (no solver when one is empty)."""
    local_g, rel_g, g = triples(gold, options) if gold.nodes else ([], {}, 0)
    local_s, rel_s, s = triples(system, options) if system.nodes else ([], {}, 0)
    return score_triples(gold.id, (local_g, rel_g, g), (local_s, rel_s, s), options)


def score_aspects(gold: Graph, system: Graph, options: Options,
                  depth: Optional[int] = DEPTH) -> Dict[str, Dict[str, Any]]:
    """Per aspect: g, s, c, exact, bound, steps, and whether the gold and the system graph have it."""
    scores: Dict[str, Dict[str, Any]] = {}
    for aspect in ASPECTS:
        sub_g, sub_s = extract(gold, aspect, depth), extract(system, aspect, depth)
        item = score_subgraphs(sub_g, sub_s, options)
        item["gold"], item["system"] = bool(sub_g.nodes), bool(sub_s.nodes)
        scores[aspect] = item
    return scores


def _total(items: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The micro-averaged result of one aspect over the items of every pair."""
    had = [item for item in items if item["gold"] or item["system"]]
    g, s, c, bound = (sum(item[key] for item in items) for key in ("g", "s", "c", "bound"))
    out: Dict[str, Any] = {"items": len(had), "gold": sum(item["gold"] for item in items),
                           "system": sum(item["system"] for item in items)}
    out.update(prf(g, s, c))
    if not had:
        out["empty"] = True
    out["exact"] = sum(bool(item["exact"]) for item in had)
    out["bound"] = {"c": bound, "f": prf(g, s, bound)["f"]}
    return out


def _aspect_items(result: PairCounts) -> Dict[str, Dict[str, Any]]:
    """Per aspect the item of a pair (rebuilt from the counts for a pair whose scoring failed)."""
    items = result.extra.get("aspects")
    if items is not None:
        return items  # type: ignore[no-any-return]
    out = {}
    for aspect in ASPECTS:
        g, s, c = result.counts.get((aspect,), (0, 0, 0))
        out[aspect] = {"g": g, "s": s, "c": c, "exact": False, "bound": min(g, s), "gold": g > 0,
                       "system": s > 0}
    return out


def aspect_depth(text: str) -> Optional[int]:
    """``--aspect-depth``: a number of levels, or None for 'full'."""
    if text == "full":
        return None
    if not text.isdigit():
        import argparse

        raise argparse.ArgumentTypeError("must be a number of levels or 'full'")
    return int(text)


class Aspects(Metric):
    """Fine-grained AMR aspects: SMATCH on the sub-graphs of each aspect."""

    name = "aspects"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: sub-graphs (linear); their alignment is SMATCH's search, capped there
    preparation_per_cell = 0
    summary = "fine-grained AMR aspects (named entities, negation, ...), each scored exactly"
    normalization = "case"
    primary = None
    frameworks = ("amr",)
    elsewhere = " (for UMR, try --score ancast or smatch)"
    parameters = (Parameter("aspect_depth", "--aspect-depth",
                            "aspects: relation levels kept below a trigger: 2 (default, as Smatch++ "
                            "extracts) or 'full' (everything reachable from the trigger), e.g. "
                            "--aspect-depth full",
                            kind=aspect_depth, metavar="N|full", default=2,
                            annotation=Union[int, str, None]),)

    def signature_fields(self, options: Options) -> List[str]:
        depth = "full" if options.aspect_depth is None else options.aspect_depth
        return [triples_field(options), f"depth:{depth}"]

    def prepare(self, options: Options) -> None:
        self.load_solver(options)

    def score(self, pair: Pair, options: Options) -> PairCounts:
        items = score_aspects(pair.gold, pair.system, options, options.aspect_depth)
        counts: Dict[Path, Tuple[Any, ...]] = {(aspect,): (item["g"], item["s"], item["c"])
                                               for aspect, item in items.items()}
        cut = next((item["cut"] for item in items.values() if item.get("cut")), None)
        return PairCounts(counts, exact=all(item["exact"] for item in items.values()), cut=cut,
                          extra={"aspects": items})

    def report(self, run: Run) -> Dict[str, Any]:
        per_aspect: Dict[str, List[Dict[str, Any]]] = {aspect: [] for aspect in ASPECTS}
        for result in run.results:
            for aspect, item in _aspect_items(result).items():
                per_aspect[aspect].append(item)
        return {"aspects": {aspect: _total(items) for aspect, items in per_aspect.items()}}


METRIC = Aspects()

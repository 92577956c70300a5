"""What one pair's explanation shows, as plain views: each side's nodes with the tuples they hold, its edges,
the alignment numbers shared by corresponding nodes, the figures of the pair, the lists of tuples per type,
and for UMR the token alignments and document-level relations.

Built from a scored pair (:func:`pair_view`: the metric's :class:`mrp.engine.detail.Detail` and its trace
item) or from one graph alone (:func:`graph_view`, for ``mrp-convert --to html``).  Nothing here is escaped:
the views hold the graphs' own strings, and the writers escape them where they place them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from mrp.engine import MATCHED, MISSED, SURPLUS, Detail, Fact, prf
from mrp.graph import Graph

#: the status of a tuple of a graph drawn alone (no scoring)
PLAIN = "plain"
STATUSES = (MATCHED, MISSED, SURPLUS)


@dataclass
class Row:
    """One tuple shown inside a node (label, property, anchor, top, instance or attribute triple)."""

    kind: str
    status: str
    text: str


@dataclass
class NodeView:
    """A node: its id, the name shown (its variable, else its id), its rows and its alignment number
    (shared with its corresponding node on the other side; 0: unaligned)."""

    id: int
    name: str
    rows: List[Row] = field(default_factory=list)
    align: int = 0


@dataclass
class EdgeView:
    """A tuple between two nodes (edge, edge attribute, relation triple), drawn as an arrow."""

    source: int
    target: int
    kind: str
    status: str
    text: str


@dataclass
class SideView:
    """One graph as drawn: nodes in graph order, and edges."""

    label: str
    nodes: List[NodeView] = field(default_factory=list)
    edges: List[EdgeView] = field(default_factory=list)
    #: node ids the layout starts from (the tops)
    roots: List[int] = field(default_factory=list)
    #: node id -> where its anchoring starts in the sentence (anchored graphs keep the sentence order)
    keys: Dict[int, float] = field(default_factory=dict)
    #: UMR: variable -> the tokens it is aligned to (text), in node order
    tokens: List[Tuple[str, str]] = field(default_factory=list)
    #: UMR: document-level relations (kind, source, label, target, status)
    documents: List[Tuple[str, str, str, str, str]] = field(default_factory=list)

    def names(self) -> Dict[int, str]:
        """Node id -> shown name."""
        return {node.id: node.name for node in self.nodes}


@dataclass
class Figures:
    """A pair's numbers as the JSON result has them: g, s, c (None where the metric has no counts), F,
    proof status and bound, why the search stopped, repairs of the system graph, and a note."""

    g: Optional[float] = None
    s: Optional[float] = None
    c: Optional[float] = None
    f: float = 0.0
    exact: Optional[bool] = None
    bound: Any = None
    cut: Optional[str] = None
    repairs: int = 0
    note: Optional[str] = None


@dataclass
class PairView:
    """Everything one pair's page shows."""

    index: int
    id: str
    framework: str
    text: str
    figures: Figures
    gold: SideView
    system: SideView
    #: (kind, status, description) of every tuple, in detail order
    facts: List[Tuple[str, str, str]] = field(default_factory=list)
    source: str = ""
    #: the per-item object of the JSON result (``--trace``)
    item: Dict[str, Any] = field(default_factory=dict)


def name_of(graph: Graph, node_id: int) -> str:
    """The name a node is shown by: its Penman variable, else its id."""
    variables = graph.variables or {}
    return str(variables.get(node_id, node_id))


def _side(graph: Graph, label: str) -> SideView:
    side = SideView(label, [NodeView(node.id, name_of(graph, node.id)) for node in graph.nodes],
                    roots=list(graph.tops))
    if graph.flavor != 2:  # anchored graphs
        side.keys = {node.id: float(min(a for a, _ in node.anchors)) for node in graph.nodes if node.anchors}
    if graph.framework == "umr" or graph.document is not None:
        from mrp.codecs.umr import token_spans

        words = (graph.input or "").split()
        for node_id, spans in token_spans(graph).items():
            shown = ", ".join(" ".join(words[a - 1:b]) + f" ({a}-{b})" for a, b in spans)
            side.tokens.append((name_of(graph, node_id), shown))
        if graph.document is not None:
            side.documents = [(r.kind, r.source, r.label, r.target, PLAIN) for r in graph.document.relations]
    return side


def _place(side: SideView, positions: Dict[int, NodeView], fact: Fact, ids: Tuple[int, ...]) -> None:
    """Put a fact on a side: a row of its node (``positions``: the side's nodes by id), or an edge."""
    if len(ids) == 1:
        node = positions.get(ids[0])
        if node is None:  # a node the graph does not list: shown all the same
            node = NodeView(ids[0], str(ids[0]))
            side.nodes.append(node)
            positions[node.id] = node
        node.rows.append(Row(fact.kind, fact.status, fact.text))
    elif len(ids) >= 2:
        side.edges.append(EdgeView(ids[0], ids[1], fact.kind, fact.status, fact.text))


def describe(fact: Fact, gold: Dict[int, str], system: Dict[int, str]) -> str:
    """A tuple in words: ``w: want-01`` for a node's, ``w -ARG0-> b`` for an edge's (gold names, system
    names for a surplus tuple)."""
    ids, names = (fact.system, system) if fact.status == SURPLUS else (fact.gold, gold)
    shown = [names.get(k, str(k)) for k in ids]
    if len(shown) == 1:
        return f"{shown[0]}: {fact.text}"
    if len(shown) >= 2:
        return f"{shown[0]} \u2014{fact.text}\u2192 {shown[1]}"
    return fact.text


def _documents(gold: SideView, system: SideView, aligned: Dict[str, str]) -> None:
    """Document-level relations as matched, missed or surplus: a system relation's variables are read as
    their corresponding gold variables (this sentence's), other names as they are."""
    def mapped(name: str) -> str:
        return aligned.get(name, name)

    wanted = {(k, s, lab, t) for k, s, lab, t, _ in gold.documents}
    found = {(k, mapped(s), lab, mapped(t)) for k, s, lab, t, _ in system.documents}
    gold.documents = [(k, s, lab, t, MATCHED if (k, s, lab, t) in found else MISSED)
                      for k, s, lab, t, _ in gold.documents]
    system.documents = [(k, s, lab, t, MATCHED if (k, mapped(s), lab, mapped(t)) in wanted else SURPLUS)
                        for k, s, lab, t, _ in system.documents]


def _counted_documents(gold: SideView, system: SideView, facts: Sequence[Fact]) -> None:
    """Document-level relations as the metric counted them (its ``document`` facts, ``source :label
    target``): a gold relation as its fact says, a system one surplus where the metric says so."""
    said = {fact.text: fact.status for fact in facts if fact.status != SURPLUS}
    surplus = {fact.text for fact in facts if fact.status == SURPLUS}
    gold.documents = [(k, s, lab, t, said.get(f"{s} :{lab} {t}", MISSED))
                      for k, s, lab, t, _ in gold.documents]
    system.documents = [(k, s, lab, t, SURPLUS if f"{s} :{lab} {t}" in surplus else MATCHED)
                        for k, s, lab, t, _ in system.documents]


def figures(primary: Optional[Sequence[str]], headline: Optional[Sequence[str]], counts: Dict[Any, Any],
            item: Dict[str, Any]) -> Figures:
    """A pair's figures: g, s, c and F at the metric's primary count path, else F of its first headline."""
    out = Figures()
    if primary is not None and tuple(primary) in counts:
        g, s, c = counts[tuple(primary)][:3]
        out.g, out.s, out.c, out.f = g, s, c, prf(g, s, c)["f"]
    elif headline is not None:
        node: Any = item
        for step in headline:
            node = node.get(step, {}) if isinstance(node, dict) else {}
        out.f = float(node.get("f", 0.0)) if isinstance(node, dict) else 0.0
    out.exact, out.bound, out.cut = item.get("exact"), item.get("bound"), item.get("cut")
    out.note = item.get("note") or item.get("error")
    return out


def pair_view(index: int, gold: Graph, system: Graph, detail: Optional[Detail], numbers: Figures,
              item: Dict[str, Any]) -> PairView:
    """The view of a scored pair (``detail`` None: a pair whose scoring failed, drawn without matches)."""
    left, right = _side(gold, "gold"), _side(system, "system")
    view = PairView(index, gold.id, gold.framework or "", gold.input or system.input or "", numbers, left,
                    right, item=item)
    view.figures.repairs = len(system.repairs or [])
    if detail is None:
        view.source = "no tuples: scoring this pair failed" if numbers.note else "no tuples"
        return view
    view.source = detail.source
    by_id = {node.id: node for node in left.nodes}, {node.id: node for node in right.nodes}
    for k, (g, s) in enumerate(detail.correspondence, 1):
        for nodes, node_id in zip(by_id, (g, s)):
            if node_id in nodes:
                nodes[node_id].align = k
    for fact in detail.facts:
        if fact.gold:
            _place(left, by_id[0], fact, fact.gold)
        if fact.system:
            _place(right, by_id[1], fact, fact.system)
    gold_names, system_names = left.names(), right.names()
    view.facts = [(fact.kind, fact.status, describe(fact, gold_names, system_names)) for fact in detail.facts]
    counted = [fact for fact in detail.facts if fact.kind == "document"]
    if counted:
        _counted_documents(left, right, counted)
    elif left.documents or right.documents:
        _documents(left, right, {system_names[s]: gold_names[g] for g, s in detail.correspondence
                                 if s in system_names and g in gold_names})
    return view


def graph_view(index: int, graph: Graph) -> PairView:
    """One graph drawn alone: its labels, properties, anchors and tops as rows, its edges as arrows."""
    side = _side(graph, graph.framework or "graph")
    nodes = {node.id: node for node in side.nodes}
    for node in graph.nodes:
        rows = nodes[node.id].rows
        if node.id in graph.tops:
            rows.append(Row("tops", PLAIN, "top"))
        if node.label is not None:
            rows.append(Row("labels", PLAIN, str(node.label)))
        rows += [Row("properties", PLAIN, f"{p} = {v}") for p, v in zip(node.properties, node.values)]
        if node.anchors:
            text = graph.input or ""
            rows.append(Row("anchors", PLAIN, "\u27e8" + " \u2026 ".join(text[a:b] for a, b in node.anchors)
                            + "\u27e9"))
    for edge in graph.edges:
        side.edges.append(EdgeView(edge.source, edge.target, "edges", PLAIN, edge.label or ""))
        side.edges += [EdgeView(edge.source, edge.target, "attributes", PLAIN, f"{edge.label} {a} = {v}")
                       for a, v in zip(edge.attributes, edge.values)]
    numbers = Figures(g=len(graph.nodes), s=len(graph.edges))
    return PairView(index, graph.id, graph.framework or "", graph.input or "", numbers, side,
                    SideView("none"), source="the graph as read")

"""Graphviz DOT output: one ``digraph`` per graph, optionally with scorer differences drawn in.

Each node shows its label (bold), its properties (``name = value``) and the
substring of the input that its anchors cover; tops hang from a small point.
With ``options.errors`` (the layout of the scorer's ``--errors`` output:
``{framework: {graph_id: {"correspondences": ..., "labels": {"missing": ...,
"surplus": ...}, ...}}}``) the graph is drawn as the gold graph, missing gold
tuples in red and surplus system tuples in blue; system nodes are placed on
their corresponding gold nodes, and system nodes without one are drawn apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, TextIO, Tuple

from mrp.codecs.base import Codec, WriteOptions, write_blocks
from mrp.graph import Graph, Node

#: the codec's facts (mrp.codecs reads them): DOT is written, never read
CODEC = Codec(formats={"dot": None}, extensions={".dot": "dot", ".gv": "dot"})

RED = "#d01c1c"
BLUE = "#1f4fd8"


@dataclass
class _Box:
    """What one drawn node shows: rows of (text, color), and its own color."""

    name: str
    rows: List[Tuple[str, Optional[str]]] = field(default_factory=list)
    color: Optional[str] = None
    extra: bool = False


@dataclass
class _Arc:
    source: str
    target: str
    label: str
    color: Optional[str] = None
    notes: List[Tuple[str, Optional[str]]] = field(default_factory=list)
    dashed: bool = False


#: control characters (C0 but tab, DEL, C1) and the Unicode line separators, shown as ``\\xNN`` / ``\\uNNNN``:
#: Graphviz's XML parser refuses them in a label, and they would break the file's lines for other tools
_CONTROL = {code: f"\\x{code:02x}" for code in [*range(0x09), *range(0x0A, 0x20), *range(0x7F, 0xA0)]}
_CONTROL.update({code: f"\\u{code:04x}" for code in (0x2028, 0x2029)})
_QUOTED_CONTROL = {code: "\\" + shown for code, shown in _CONTROL.items()}


def _quote(text: str) -> str:
    """A DOT double-quoted string: a backslash is escaped (Graphviz reads ``\\N``, ``\\G``, ``\\L`` ... in
    labels as the node's name, the graph's, a line break), ``\\n`` and ``\\r`` are Graphviz's line breaks,
    other control characters are shown escaped."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\r", "\\r").translate(_QUOTED_CONTROL) + '"'


def _html(text: str, color: Optional[str] = None, bold: bool = False, italic: bool = False) -> str:
    """An HTML-like label's text: markup escaped, a backslash as a character reference (so that Graphviz
    never reads ``\\N`` as the node's name), control characters shown escaped."""
    import html  # loaded when DOT is written, not when the registry reads this codec's facts

    body = html.escape(text.translate(_CONTROL), quote=True).replace("\\", "&#92;") if text else " "
    if bold:
        body = f"<b>{body}</b>"
    if italic:
        body = f"<i>{body}</i>"
    if color:
        body = f'<font color="{color}">{body}</font>'
    return body


def covered(graph: Graph, anchors: Any) -> str:
    """The text that anchors (span pairs, or sorted character positions) cover in the input."""
    if not anchors:
        return ""
    text = graph.input
    spans: List[Tuple[int, int]] = []
    for item in anchors:
        if isinstance(item, (list, tuple)) and len(item) == 2:
            spans.append((int(item[0]), int(item[1])))
        elif isinstance(item, dict) and "from" in item and "to" in item:
            spans.append((int(item["from"]), int(item["to"])))
        elif isinstance(item, int):
            spans.append((item, item + 1))
    if text is None:
        return " ".join(f"{start}:{end}" for start, end in spans)
    pieces: List[str] = []
    previous_end = 0
    for start, end in sorted(spans):
        if pieces and start <= previous_end + 1:
            pieces[-1] += text[previous_end:end] if start >= previous_end else text[start:end]
        else:
            pieces.append(text[start:end])
        previous_end = end
    return " … ".join(pieces)


def _same(a: Any, b: Any) -> bool:
    return str(a).lower() == str(b).lower()


def _node_box(graph: Graph, node: Node) -> _Box:
    box = _Box(name=f"n{node.id}")
    box.rows.append((node.label if node.label is not None else "", None))
    for name, value in zip(node.properties, node.values):
        box.rows.append((f"{name} = {value}", None))
    if node.anchors:
        box.rows.append((f"⟨{covered(graph, node.anchors)}⟩", None))
    return box


class _Drawing:
    """The boxes, arcs and tops of one graph, with the differences applied."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.boxes: Dict[str, _Box] = {}
        self.order: List[str] = []
        for node in graph.nodes:
            self._add(_node_box(graph, node))
        self.arcs: List[_Arc] = []
        for edge in graph.edges:
            label = edge.label if edge.label is not None else ""
            arc = _Arc(f"n{edge.source}", f"n{edge.target}", label)
            for name, value in zip(edge.attributes, edge.values):
                if str(name).lower() == "remote" and str(value).lower() != "false":
                    arc.dashed = True  # a remote edge (UCCA) is drawn dashed, as UCCA draws it
                arc.notes.append((f"{name} = {value}", None))
            self.arcs.append(arc)
        self.tops: List[Tuple[str, Optional[str]]] = [(f"n{top}", None) for top in graph.tops]
        self.system: Dict[int, str] = {}

    def _add(self, box: _Box) -> None:
        self.boxes[box.name] = box
        self.order.append(box.name)

    def _gold(self, node_id: Any) -> Optional[_Box]:
        return self.boxes.get(f"n{node_id}")

    def _mapped(self, system_id: Any) -> _Box:
        name = self.system.get(system_id)
        if name is None:
            name = f"s{system_id}"
            if name not in self.boxes:
                self._add(_Box(name=name, color=BLUE, extra=True))
            self.system[system_id] = name
        return self.boxes[name]

    def _mark_row(self, box: Optional[_Box], text: str, color: str, match: Any) -> None:
        if box is None:
            return
        for k, (row, old) in enumerate(box.rows):
            if old is None and match(row):
                box.rows[k] = (row, color)
                return
        box.rows.append((text, color))

    def _find_arc(self, source: str, target: str, label: Any) -> Optional[_Arc]:
        for arc in self.arcs:
            if (arc.color is None and arc.source == source and arc.target == target
                    and _same(arc.label, label)):
                return arc
        for edge, arc in zip(self.graph.edges, self.arcs):
            if (arc.color is None and edge.normal is not None and arc.source == target
                    and arc.target == source and _same(edge.normal, label)):
                return arc
        return None

    def apply(self, diff: Mapping[str, Any]) -> None:
        for pair in diff.get("correspondences", []) or []:
            if isinstance(pair, (list, tuple)) and len(pair) == 2 and self._gold(pair[0]) is not None:
                self.system[pair[1]] = f"n{pair[0]}"

        def items(kind: str, side: str) -> List[Any]:
            value = (diff.get(kind) or {}).get(side) or []
            return list(value)

        for top in items("tops", "missing"):
            self.tops = [(name, RED if name == f"n{top}" else color) for name, color in self.tops]
            if (f"n{top}", RED) not in self.tops:
                self.tops.append((f"n{top}", RED))
        for top in items("tops", "surplus"):
            self.tops.append((self._mapped(top).name, BLUE))
        for node, label in items("labels", "missing"):
            box = self._gold(node)
            self._mark_row(box, str(label), RED, lambda row, label=label: _same(row, label))
        for node, label in items("labels", "surplus"):
            self._mapped(node).rows.append((str(label), BLUE))
        for node, name, value in items("properties", "missing"):
            text = f"{name} = {value}"
            self._mark_row(self._gold(node), text, RED, lambda row, text=text: _same(row, text))
        for node, name, value in items("properties", "surplus"):
            self._mapped(node).rows.append((f"{name} = {value}", BLUE))
        for node, anchors in items("anchors", "missing"):
            text = f"⟨{covered(self.graph, anchors)}⟩"
            self._mark_row(self._gold(node), text, RED, lambda row: row.startswith("⟨"))
        for node, anchors in items("anchors", "surplus"):
            self._mapped(node).rows.append((f"⟨{covered(self.graph, anchors)}⟩", BLUE))
        for source, target, label in items("edges", "missing"):
            arc = self._find_arc(f"n{source}", f"n{target}", label)
            if arc is None:
                self.arcs.append(_Arc(f"n{source}", f"n{target}", str(label), RED, dashed=True))
            else:
                arc.color = RED
        for source, target, label in items("edges", "surplus"):
            self.arcs.append(_Arc(self._mapped(source).name, self._mapped(target).name, str(label), BLUE))
        for source, target, label, name, value in items("attributes", "missing"):
            arc = self._find_arc(f"n{source}", f"n{target}", label) or self._any_arc(
                f"n{source}", f"n{target}", label)
            if arc is not None:
                arc.notes = [(note, RED if _same(note, f"{name} = {value}") else color)
                             for note, color in arc.notes]
                if (f"{name} = {value}", RED) not in arc.notes:
                    arc.notes.append((f"{name} = {value}", RED))
        for source, target, label, name, value in items("attributes", "surplus"):
            source_name, target_name = self._mapped(source).name, self._mapped(target).name
            arc = self._any_arc(source_name, target_name, label)
            if arc is None:
                arc = _Arc(source_name, target_name, str(label), BLUE)
                self.arcs.append(arc)
            arc.notes.append((f"{name} = {value}", BLUE))

    def _any_arc(self, source: str, target: str, label: Any) -> Optional[_Arc]:
        for arc in self.arcs:
            if arc.source == source and arc.target == target and _same(arc.label, label):
                return arc
        return None

    def lines(self) -> List[str]:
        out: List[str] = []
        for name in self.order:
            box = self.boxes[name]
            rows = []
            for k, (text, color) in enumerate(box.rows):
                if k == 0 and not box.extra:
                    rows.append(_html(text, color, bold=True))
                elif text.startswith("⟨"):
                    rows.append(_html(text, color, italic=True))
                else:
                    rows.append(_html(text, color))
            attributes = [f"label=<{'<br/>'.join(rows) or ' '}>"]
            if box.color:
                attributes.append(f'color="{box.color}"')
            if box.extra:
                attributes.append('style="dashed"')
            out.append(f"  {_quote(name)} [{', '.join(attributes)}];")
        for k, (name, color) in enumerate(self.tops):
            top = f"top{k}"
            out.append(f"  {_quote(top)} [shape=point, width=0.08, label=\"\"];")
            style = f', color="{color}"' if color else ""
            out.append(f"  {_quote(top)} -> {_quote(name)} [style=bold{style}];")
        for arc in self.arcs:
            parts = [_html(arc.label, arc.color)] + [_html(note, color) for note, color in arc.notes]
            attributes = [f"label=<{'<br/>'.join(parts)}>"]
            if arc.color:
                attributes.append(f'color="{arc.color}"')
                attributes.append(f'fontcolor="{arc.color}"')
            if arc.dashed:
                attributes.append('style="dashed"')
            out.append(f"  {_quote(arc.source)} -> {_quote(arc.target)} [{', '.join(attributes)}];")
        return out


def _diff(errors: Optional[Mapping[str, Any]], graph: Graph) -> Optional[Mapping[str, Any]]:
    if not errors:
        return None
    frameworks = [graph.framework] if graph.framework in errors else list(errors)
    for framework in frameworks:
        table = errors.get(framework) if isinstance(framework, str) else None
        if isinstance(table, Mapping) and graph.id in table:
            found = table[graph.id]
            return found if isinstance(found, Mapping) else None
    return None


def format_graph(graph: Graph, diff: Optional[Mapping[str, Any]] = None) -> str:
    """The DOT source of one graph; ``diff`` is the scorer's error entry for it, if any."""
    drawing = _Drawing(graph)
    if diff:
        drawing.apply(diff)
    title = graph.id if graph.input is None else f"{graph.id}: {graph.input}"
    lines = [
        f"digraph {_quote(str(graph.id))} {{",
        f"  graph [label={_quote(title)}, labelloc=t, fontname=\"Helvetica\"];",
        '  node [shape=box, style="rounded", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    lines.extend(drawing.lines())
    lines.append("}")
    return "\n".join(lines)


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write each graph as a Graphviz ``digraph`` (with differences from ``options.errors``)."""
    def one(graph: Graph) -> str:
        return format_graph(graph, _diff(options.errors, graph))

    write_blocks(graphs, out, options, one, separator="\n")

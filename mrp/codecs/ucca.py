"""UCCA passages in the standard UCCA XML format (read only), converted as mtool converts them.

A file holds one passage (``<root passageID=...>`` with a ``layer`` 0 of
terminals and a ``layer`` 1 of units), or several passages one after the
other.  Each passage becomes one MRP graph (framework ``ucca``, flavor 1):

* the id is the passage id, with WSJ ids mapped as in the MRP data
  (``wsj_0001.1`` -> ``20001001``);
* the input is the passage's sentence from the text table (``--text``), else
  the terminals' texts joined by single spaces;
* for each terminal, in position order, the unit that holds it through a
  ``Terminal`` edge becomes an anchored node (its first terminal creates the
  node, later ones add anchors), so these nodes come first, in the order of
  their first terminal; the terminals are anchored in the input left to right
  (:func:`mrp.codecs.anchoring.align`: other spellings of quotes, dashes and
  ellipses match, as in mtool);
* every other unit becomes an unanchored node, in the order of its span
  (first, then last terminal position, counting punctuation and not counting
  remote children), ties in unit id order;
* every edge between units gives one MRP edge per category tag; a remote
  edge carries ``remote: true``;
* implicit units and the edges to them are left out; units without a parent
  (the passage root) are the tops.

Linkage nodes (type ``LKG``, with ``LR``/``LA`` edges, from UCCA 1.0
annotation) are left out, as the MRP UCCA data carry no linkage; mtool's
converter fails on passages that have them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

from mrp.codecs.anchoring import AnchorError, align
from mrp.codecs.base import Bad, Codec, Item, ReadOptions
from mrp.errors import FormatError, excerpt
from mrp.graph import Edge, Graph, Node
from mrp.io.source import Line

if TYPE_CHECKING:  # the XML parser loads when a passage is read, not when the registry reads CODEC
    import xml.etree.ElementTree as ET

#: the codec's facts (mrp.codecs reads them): UCCA XML passages (never told from their content)
CODEC = Codec(formats={"ucca": "ucca"}, extensions={".xml": "ucca"})

_START = re.compile(r"<root\b")
_END = re.compile(r"</root\s*>")
_IGNORABLE = re.compile(r"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>|\s+", re.DOTALL)


def _true(value: Optional[str]) -> bool:
    return value is not None and value.strip().lower() == "true"


@dataclass
class _Unit:
    """A layer-1 unit: its type, whether it is implicit, and its outgoing edges in child order."""

    id: str
    type: str
    implicit: bool = False
    #: (child id, category tags, remote)
    edges: List[Tuple[str, List[str], bool]] = field(default_factory=list)


def _number(unit_id: str) -> Tuple[str, int]:
    layer, _, number = unit_id.partition(".")
    if not number.isdigit():
        raise Bad(f"node ID {excerpt(unit_id)!r} is not of the form LAYER.NUMBER")
    return layer, int(number)


def _attributes(element: ET.Element) -> Dict[str, str]:
    found = element.find("attributes")
    return dict(found.attrib) if found is not None else {}


def _layers(root: ET.Element) -> Tuple[Dict[int, str], Dict[str, _Unit]]:
    """Terminal texts by position, and layer-1 units by id."""
    terminals: Dict[int, str] = {}
    units: Dict[str, _Unit] = {}
    for layer in root.findall("layer"):
        layer_id = layer.get("layerID")
        for node in layer.findall("node"):
            node_id = node.get("ID")
            if node_id is None:
                raise Bad(f"a node of layer {layer_id} has no ID")
            prefix, number = _number(node_id)
            if prefix != layer_id:
                raise Bad(f"node {node_id} is in layer {layer_id}")
            if node_id in units or (prefix == "0" and number in terminals):
                raise Bad(f"node ID {node_id} occurs twice")
            attributes = _attributes(node)
            if layer_id == "0":
                if "text" not in attributes:
                    raise Bad(f"terminal {node_id} has no text")
                terminals[number] = attributes["text"]
            elif layer_id == "1":
                unit = _Unit(node_id, node.get("type") or "FN", _true(attributes.get("implicit")))
                for edge in node.findall("edge"):
                    child = edge.get("toID")
                    if child is None:
                        raise Bad(f"an edge of unit {node_id} has no toID")
                    tags = [c.get("tag") or "" for c in edge.findall("category")] or [edge.get("type") or ""]
                    unit.edges.append((child, tags, _true(_attributes(edge).get("remote"))))
                units[node_id] = unit
    if not terminals and not units:
        raise Bad("the passage has no layer 0 or layer 1 nodes")
    for unit in units.values():
        unit.edges.sort(key=lambda edge: _number(edge[0]))
        for child, _, _ in unit.edges:
            prefix, number = _number(child)
            if child not in units and not (prefix == "0" and number in terminals):
                raise Bad(f"unit {unit.id} has an edge to the unknown node {excerpt(child)}")
    return terminals, units


def _spans(units: Dict[str, _Unit]) -> Dict[str, Tuple[int, int]]:
    """(first, last) terminal position of every unit over its non-remote descendants; (-1, -1) for none."""
    spans: Dict[str, Tuple[int, int]] = {}
    active: Set[str] = set()
    for start in units:
        stack = [start]
        while stack:
            unit_id = stack[-1]
            if unit_id in spans:
                stack.pop()
                continue
            children = [child for child, _, remote in units[unit_id].edges if not remote and child in units]
            waiting = [child for child in children if child not in spans]
            if waiting:
                if unit_id in active:
                    raise Bad(f"unit {unit_id} contains itself")
                active.add(unit_id)
                stack.extend(waiting)
                continue
            active.discard(unit_id)
            stack.pop()
            positions = [_number(child)[1] for child, _, remote in units[unit_id].edges
                         if not remote and child not in units]
            for child in children:
                if spans[child][0] >= 0:
                    positions += list(spans[child])
            spans[unit_id] = (min(positions), max(positions)) if positions else (-1, -1)
    return spans


def _wsj_id(passage: str) -> str:
    """A passage's graph id (:func:`mrp.codecs.penman.map_wsj_id`: the penman library loads only when a
    passage is read, not when the registry reads this codec's facts)."""
    from mrp.codecs.penman import map_wsj_id

    return map_wsj_id(passage)


def passage_graph(root: ET.Element, options: ReadOptions) -> Graph:
    """The MRP graph of one parsed UCCA XML passage; Bad for a passage that cannot be converted."""
    passage = root.get("passageID")
    if not passage:
        raise Bad("the passage has no passageID")
    gid = _wsj_id(passage)
    terminals, all_units = _layers(root)
    units = {uid: unit for uid, unit in all_units.items() if unit.type != "LKG"}
    if options.text is not None:
        if gid not in options.text:
            raise Bad(f"no sentence for passage '{excerpt(gid)}' in the text table (--text)")
        text = options.text[gid]
    else:
        text = " ".join(terminals[k] for k in sorted(terminals))
    order = sorted(units, key=_number)
    holder: Dict[int, List[str]] = {}
    for uid in order:
        unit = units[uid]
        for child, tags, _ in unit.edges:
            if "Terminal" in tags and child not in all_units:
                if unit.implicit:
                    raise Bad(f"implicit unit {uid} holds terminal {child}")
                holder.setdefault(_number(child)[1], []).append(uid)
    positions = sorted(terminals)
    try:
        anchors = align([terminals[k] for k in positions], text)
    except AnchorError as error:
        raise Bad(f"terminal {positions[error.index]}: {error}") from None
    node_of: Dict[str, int] = {}
    nodes: List[Node] = []
    for position, span in zip(positions, anchors):
        for uid in holder.get(position, []):
            if uid in node_of:
                node = nodes[node_of[uid]]
                assert node.anchors is not None
                node.anchors.append(span)
            else:
                node_of[uid] = len(nodes)
                nodes.append(Node(id=len(nodes), anchors=[span]))
    spans = _spans(units)
    for uid in sorted(order, key=lambda u: spans[u]):
        if not units[uid].implicit and uid not in node_of:
            node_of[uid] = len(nodes)
            nodes.append(Node(id=len(nodes)))
    edges: List[Edge] = []
    has_parent: Set[str] = set()
    for uid in order:
        for child, tags, remote in units[uid].edges:
            if child not in units:
                continue
            has_parent.add(child)
            if units[uid].implicit:
                raise Bad(f"implicit unit {uid} has a child ({child})")
            if child not in node_of:
                continue  # an implicit unit
            for tag in tags:
                if tag != "Terminal":
                    edges.append(Edge(node_of[uid], node_of[child], tag,
                                      attributes=["remote"] if remote else [],
                                      values=[True] if remote else []))
    tops = [node_of[uid] for uid in order if uid not in has_parent and uid in node_of]
    return Graph(id=gid, framework="ucca", flavor=1, input=text, tops=tops, nodes=nodes, edges=edges)


def _passages(lines: Iterable[Union[Line, FormatError]],
              name: str) -> Iterator[Union[Tuple[int, str], FormatError]]:
    """Each ``<root>...</root>`` passage of the file with its first line; a FormatError for anything else."""
    numbers: List[int] = []
    texts: List[str] = []
    for line in lines:
        if isinstance(line, FormatError):
            yield line
            continue
        numbers.append(line.number)
        texts.append(line.text)
    whole = "\n".join(texts)
    starts = [0]
    for text in texts:
        starts.append(starts[-1] + len(text) + 1)

    def line_at(offset: int) -> int:
        low, high = 0, len(texts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return numbers[low] if numbers else 1

    previous = 0
    while True:
        start = _START.search(whole, previous)
        end = _END.search(whole, start.end()) if start else None
        if start is None or end is None:
            break
        yield from _stray(whole, previous, start.start(), line_at, name)
        yield line_at(start.start()), whole[start.start():end.end()]
        previous = end.end()
    yield from _stray(whole, previous, len(whole), line_at, name)


def _stray(whole: str, start: int, end: int, line_at: Callable[[int], int],
           name: str) -> Iterator[FormatError]:
    gap = _IGNORABLE.sub(lambda m: " " * len(m.group(0)), whole[start:end])
    stripped = gap.lstrip()
    if stripped:
        offset = start + len(gap) - len(stripped)
        first = stripped.split("\n")[0]
        what = "an unclosed <root>" if first.startswith("<root") else repr(excerpt(first))
        yield FormatError(f"expected a UCCA XML passage (<root passageID=...>...</root>), found {what}",
                          name, line_at(offset), None, "ucca")


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from UCCA XML passages; a passage that cannot be converted yields a FormatError."""
    import xml.etree.ElementTree as ET

    for item in _passages(lines, name):
        if isinstance(item, FormatError):
            item.framework = "ucca"
            yield item
            continue
        line, chunk = item
        gid: Optional[str] = None
        try:
            root = ET.fromstring(chunk)
            passage = root.get("passageID")
            gid = _wsj_id(passage) if passage else None
            graph = passage_graph(root, options)
        except ET.ParseError as error:
            row = error.position[0] if error.position else 1
            message = str(error).split(":")[0]
            yield FormatError(f"not well-formed XML ({message})", name, line + row - 1, gid, "ucca")
            continue
        except Bad as bad:
            yield FormatError(str(bad), name, line, gid, "ucca")
            continue
        graph.line = line
        yield graph

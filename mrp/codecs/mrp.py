"""MRP JSON lines (MRP 2019/2020): one graph per line, read and written with ujson.

:func:`read` yields graphs, and a FormatError for each line it rejects;
:func:`check` reads the same lines in collecting mode for validation: each
graph object with every problem of the format (one decoder serves both).

Two optional keys beyond the MRP format carry what a UMR file holds besides
the graph (both written only when present, ``"variables"`` for UMR graphs
only, and read back; a graph of another framework has MRP's keys alone):

- ``"variables"``: ``{"NODE ID": "VARIABLE", ...}``, the Penman variable of
  each node (node ids as strings, JSON object keys);
- ``"document"``: ``{"id": DOC, "sentence": N, "variable": "sNs0" or null,
  "relations": [{"kind": "temporal"|"modal"|"coref", "source": S, "label": L,
  "target": T}, ...], "info": [LINE, ...]}`` (see :class:`mrp.graph.Placement`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, TextIO, Union

import ujson

from mrp.codecs.base import Codec, Item, ReadOptions, Unwritable, WriteOptions, cannot_write, write_blocks
from mrp.codecs.mrp_decode import Decoder, Found, decode
from mrp.errors import FormatError
from mrp.graph import (
    Graph,
)
from mrp.io.source import Line

#: a JSON object at the start of a line
_JSON_OBJECT = re.compile(r"\{\s*(\"|\})")


def _sniff(line: str, after: Iterable[str]) -> Optional[str]:
    """A line of JSON objects is MRP."""
    return "mrp" if _JSON_OBJECT.match(line) else None


#: the codec's facts (mrp.codecs reads them): MRP names its frameworks in the graphs
CODEC = Codec(formats={"mrp": None}, extensions={".mrp": "mrp"}, sniff=_sniff)

__all__ = ["Checked", "check", "decode", "dumps", "encode", "read", "write"]

@dataclass
class Checked:
    """A graph object read in collecting mode: the best-effort graph and every problem of the format.

    ``rejected`` is the reader's message when the reader rejects the graph
    (then ``read`` yields a FormatError with it instead of the graph).
    """

    graph: Graph
    problems: List[Found]
    rejected: Optional[str]


def check(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions,
          select: bool = True) -> Iterator[Union[Checked, FormatError]]:
    """MRP JSON lines read in collecting mode: every graph object with all of its problems.

    A line that holds no graph object (not JSON, not an object) yields a
    FormatError; ``options.framework`` is the framework of graphs that name
    none, and (with ``select``) graphs of another framework are left out.
    """
    for line in lines:
        if isinstance(line, FormatError):
            yield line
            continue
        text = line.text
        if not text.strip():
            continue
        try:
            obj = ujson.loads(text)
        except (ValueError, OverflowError) as error:
            yield FormatError(f"invalid JSON: {error}", name, line.number)
            continue
        if not isinstance(obj, dict):
            yield FormatError("not a JSON object", name, line.number)
            continue
        framework = obj.get("framework")
        if select and options.framework is not None and isinstance(framework, str) \
                and framework != options.framework:
            continue
        decoder = Decoder(options.mtool)
        graph = decoder.graph(obj, text, options.framework)
        graph.line = line.number
        yield Checked(graph, decoder.found, decoder.rejected)


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from MRP JSON lines; a line that is not a valid graph yields a FormatError."""
    for item in check(lines, name, options):
        if isinstance(item, FormatError):
            yield item
        elif item.rejected is not None:
            graph = item.graph
            gid = graph.id.encode("utf-8", "backslashreplace").decode("utf-8") if graph.id else None
            yield FormatError(item.rejected, name, graph.line, gid, graph.framework)
        else:
            yield item.graph


def encode(graph: Graph) -> Dict[str, Any]:
    """The MRP JSON object of a graph, keys in the order of the MRP 2019/2020 format."""
    obj: Dict[str, Any] = {"id": graph.id}
    if graph.flavor is not None:
        obj["flavor"] = graph.flavor
    if graph.framework is not None:
        obj["framework"] = graph.framework
    if graph.version is not None:
        obj["version"] = graph.version
    if graph.time is not None:
        obj["time"] = graph.time
    for key in ("language", "source", "provenance", "targets", "input"):
        value = getattr(graph, key)
        if value is not None:
            obj[key] = value
    if graph.tops:
        obj["tops"] = list(graph.tops)
    nodes = []
    for node in graph.nodes:
        item: Dict[str, Any] = {"id": node.id}
        if node.label is not None:
            item["label"] = node.label
        if node.properties or node.anchorings is not None:
            item["properties"] = list(node.properties)
            item["values"] = list(node.values)
        if node.anchors is not None:
            item["anchors"] = [{"from": start, "to": end} for start, end in node.anchors]
        if node.anchorings is not None:
            item["anchorings"] = node.anchorings
        nodes.append(item)
    obj["nodes"] = nodes
    edges = []
    for edge in graph.edges:
        item = {}
        if edge.id is not None:
            item["id"] = edge.id
        item["source"] = edge.source
        item["target"] = edge.target
        if edge.label is not None:
            item["label"] = edge.label
        if edge.normal is not None:
            item["normal"] = edge.normal
        if edge.attributes:
            item["properties" if edge.legacy else "attributes"] = list(edge.attributes)
            item["values"] = list(edge.values)
        if edge.anchors is not None:
            item["anchors"] = [{"from": start, "to": end} for start, end in edge.anchors]
        edges.append(item)
    obj["edges"] = edges
    if graph.variables is not None and graph.framework == "umr":  # MRP's own graphs have none (as mtool)
        obj["variables"] = {str(nid): name for nid, name in graph.variables.items()}
    if graph.document is not None:
        place = graph.document
        obj["document"] = {
            "id": place.document, "sentence": place.sentence, "variable": place.variable,
            "relations": [{"kind": r.kind, "source": r.source, "label": r.label, "target": r.target}
                          for r in place.relations],
            "info": list(place.info),
        }
    return obj


def dumps(graph: Graph) -> str:
    """One MRP JSON line (without the line break); FormatError for a NaN or infinite number."""
    try:
        return ujson.dumps(encode(graph), ensure_ascii=False, escape_forward_slashes=False, allow_nan=False)
    except OverflowError:
        raise cannot_write(graph, "MRP", Unwritable("a number is NaN or Infinity, which JSON does not allow"),
                           ) from None


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write graphs as MRP JSON lines."""
    write_blocks(graphs, out, options, dumps, separator="\n")

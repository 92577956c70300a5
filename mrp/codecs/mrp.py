"""MRP JSON lines (MRP 2019/2020): one graph per line, read and written with ujson.

Two optional keys beyond the MRP format carry what a UMR file holds besides
the graph (both written only when present, and read back):

- ``"variables"``: ``{"NODE ID": "VARIABLE", ...}``, the Penman variable of
  each node (node ids as strings, JSON object keys);
- ``"document"``: ``{"id": DOC, "sentence": N, "variable": "sNs0" or null,
  "relations": [{"kind": "temporal"|"modal"|"coref", "source": S, "label": L,
  "target": T}, ...], "info": [LINE, ...]}`` (see :class:`mrp.graph.Placement`).
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, TextIO, Union

import ujson

from ..errors import FormatError, excerpt
from ..graph import Anchor, Edge, Graph, Node, Placement, Relation, check_references
from ..source import Line
from .base import Item, ReadOptions, WriteOptions, write_blocks

#: A JSON escape of a UTF-16 surrogate: only a lone one (not part of a pair) is a problem.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _Bad(Exception):
    """A problem in one graph object (internal; becomes a FormatError)."""


def _show(value: Any) -> str:
    """A JSON value for a message, cut short when long."""
    return excerpt(ujson.dumps(value))


def _lone_surrogate(obj: Any) -> Optional[str]:
    """The first lone surrogate (``\\udXXX``) in the strings of a decoded object, or None.

    JSON can escape one (``"\\ud800"``), but it is no character: it cannot be
    written as UTF-8, so the graph could be neither printed nor converted.
    """
    try:
        ujson.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        return f"\\u{ord(error.object[error.start]):04x}"
    return None


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"{what} is {_show(value)}, not an integer")
    return value


def _list(obj: Dict[str, Any], key: str, what: str) -> List[Any]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Bad(f"{what}'{key}' is not a list")
    return value


def _str(value: Any, what: str) -> str:
    text = _opt_str(value, what)
    if text is None:
        raise _Bad(f"{what} is null, not a string")
    return text


def _opt_str(value: Any, what: str) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise _Bad(f"{what} is {_show(value)}, not a string")


def _anchors(value: Any, what: str) -> Optional[List[Anchor]]:
    if value is None:
        return None
    if not isinstance(value, list):
        raise _Bad(f"{what}: 'anchors' is not a list")
    spans: List[Anchor] = []
    for anchor in value:
        if not isinstance(anchor, dict) or "from" not in anchor or "to" not in anchor:
            raise _Bad(f"{what}: anchor {_show(anchor)} has no 'from' and 'to'")
        spans.append((_int(anchor["from"], f"{what}: anchor 'from'"),
                      _int(anchor["to"], f"{what}: anchor 'to'")))
    return spans


def _pairs(obj: Dict[str, Any], names: str, what: str) -> tuple:
    keys = _list(obj, names, what)
    values = _list(obj, "values", what)
    if len(keys) != len(values):
        raise _Bad(f"{what}has {len(keys)} {names} but {len(values)} values")
    return keys, values


def decode(obj: Any) -> Graph:
    """A Graph from one decoded MRP JSON object; raises ValueError naming the problem."""
    try:
        return _decode(obj)
    except _Bad as bad:
        raise ValueError(str(bad)) from None


def _decode(obj: Any) -> Graph:
    if not isinstance(obj, dict):
        raise _Bad("not a JSON object")
    if "id" not in obj or obj["id"] is None:
        raise _Bad("graph has no 'id'")
    gid = obj["id"]
    if not isinstance(gid, (str, int)) or isinstance(gid, bool):
        raise _Bad(f"graph id {_show(gid)} is neither a string nor a number")
    framework = _opt_str(obj.get("framework"), "'framework'")
    flavor = obj.get("flavor")
    if flavor is not None:
        flavor = _int(flavor, "'flavor'")
    targets = obj.get("targets")
    if targets is not None and not isinstance(targets, list):
        raise _Bad("'targets' is not a list")
    nodes: List[Node] = []
    for k, item in enumerate(_list(obj, "nodes", "")):
        if not isinstance(item, dict):
            raise _Bad(f"node {k} is not a JSON object")
        if item.get("id") is None:
            raise _Bad(f"node {k} has no 'id'")
        nid = _int(item["id"], f"node {k}: 'id'")
        what = f"node {nid}: "
        properties, values = _pairs(item, "properties", what)
        anchorings = item.get("anchorings")
        nodes.append(Node(
            id=nid,
            label=_opt_str(item.get("label"), f"{what}'label'"),
            properties=[_str(p, f"{what}property name") for p in properties],
            values=values,
            anchors=_anchors(item.get("anchors"), f"node {nid}"),
            anchorings=anchorings,
        ))
    edges: List[Edge] = []
    for k, item in enumerate(_list(obj, "edges", "")):
        if not isinstance(item, dict):
            raise _Bad(f"edge {k} is not a JSON object")
        for end in ("source", "target"):
            if item.get(end) is None:
                raise _Bad(f"edge {k} has no '{end}'")
        what = f"edge {k}: "
        legacy = "attributes" not in item and "properties" in item
        attributes, values = _pairs(item, "properties" if legacy else "attributes", what)
        eid = item.get("id")
        edges.append(Edge(
            source=_int(item["source"], f"{what}'source'"),
            target=_int(item["target"], f"{what}'target'"),
            label=_opt_str(item.get("label"), f"{what}'label'"),
            normal=_opt_str(item.get("normal"), f"{what}'normal'"),
            attributes=[_str(a, f"{what}attribute name") for a in attributes],
            values=values,
            id=None if eid is None else _int(eid, f"{what}'id'"),
            anchors=_anchors(item.get("anchors"), f"edge {k}"),
            legacy=legacy,
        ))
    tops = [_int(t, "top") for t in _list(obj, "tops", "")]
    graph = Graph(
        id=str(gid),
        framework=framework,
        flavor=flavor,
        input=_opt_str(obj.get("input"), "'input'"),
        language=_opt_str(obj.get("language"), "'language'"),
        time=_opt_str(obj.get("time"), "'time'"),
        source=_opt_str(obj.get("source"), "'source'"),
        provenance=_opt_str(obj.get("provenance"), "'provenance'"),
        targets=targets,
        version=obj.get("version"),
        tops=tops,
        nodes=nodes,
        edges=edges,
    )
    problem = check_references(graph)
    if problem is not None:
        raise _Bad(problem)
    if obj.get("variables") is not None:
        graph.variables = _variables(obj["variables"], {node.id for node in nodes})
    if obj.get("document") is not None:
        graph.document = _placement(obj["document"])
    return graph


def _variables(value: Any, known: set) -> Dict[int, str]:
    if not isinstance(value, dict):
        raise _Bad("'variables' is not a JSON object")
    variables: Dict[int, str] = {}
    for key, name in value.items():
        try:
            nid = int(key)
        except ValueError:
            raise _Bad(f"'variables': key {_show(key)} is not a node id") from None
        if nid not in known:
            raise _Bad(f"'variables': node {nid} names no node")
        variables[nid] = _str(name, f"'variables': the variable of node {nid}")
    return variables


def _placement(value: Any) -> Placement:
    if not isinstance(value, dict):
        raise _Bad("'document' is not a JSON object")
    relations = []
    for k, item in enumerate(_list(value, "relations", "'document': ")):
        if not isinstance(item, dict):
            raise _Bad(f"'document': relation {k} is not a JSON object")
        ends = [_str(item.get(key), f"'document': relation {k}: '{key}'")
                for key in ("kind", "source", "label", "target")]
        relations.append(Relation(*ends))
    return Placement(
        document=_str(value.get("id"), "'document': 'id'"),
        sentence=_int(value.get("sentence"), "'document': 'sentence'"),
        variable=_opt_str(value.get("variable"), "'document': 'variable'"),
        relations=relations,
        info=[_str(line, "'document': an 'info' line") for line in _list(value, "info", "'document': ")],
    )


def _identify(obj: Any) -> tuple:
    """Best-effort id and framework of a (possibly broken) graph object, for messages."""
    if isinstance(obj, dict):
        gid = obj.get("id")
        framework = obj.get("framework")
        return (
            str(gid) if isinstance(gid, (str, int)) and not isinstance(gid, bool) else None,
            framework if isinstance(framework, str) else None,
        )
    return None, None


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from MRP JSON lines; a line that is not a valid graph yields a FormatError."""
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
        gid, framework = _identify(obj)
        if options.framework is not None and framework is not None and framework != options.framework:
            continue
        try:
            if _SURROGATE_ESCAPE.search(text):
                lone = _lone_surrogate(obj)
                if lone is not None:
                    if gid is not None:
                        gid = gid.encode("utf-8", "backslashreplace").decode("utf-8")
                    raise _Bad(f"a string holds the lone surrogate {lone}, which is not a character")
            graph = _decode(obj)
        except _Bad as bad:
            yield FormatError(str(bad), name, line.number, gid, framework or options.framework)
            continue
        if graph.framework is None and options.framework is not None:
            graph.framework = options.framework
        graph.line = line.number
        yield graph


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
    if graph.variables is not None:
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
    """One MRP JSON line (without the line break)."""
    return ujson.dumps(encode(graph), ensure_ascii=False, escape_forward_slashes=False)


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write graphs as MRP JSON lines."""
    write_blocks(graphs, out, options, dumps, separator="\n")

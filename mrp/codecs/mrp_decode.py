"""Decoding one MRP JSON object into a Graph, with every problem of the format named.

The one decoder behind both :func:`mrp.codecs.mrp.read` (which rejects a graph
at its first problem) and :func:`mrp.codecs.mrp.check` (validation's
collecting mode).
"""

from __future__ import annotations

import math
import re
from typing import Any, Dict, List, Optional, Set, Tuple

import ujson

from mrp.codecs import frameworks
from mrp.codecs.mtool_ids import fresh_ids
from mrp.errors import excerpt_json
from mrp.graph import (
    Anchor,
    Edge,
    Graph,
    Node,
    Placement,
    Relation,
    length_problems,
    reference_problems,
)

#: A JSON escape of a UTF-16 surrogate: only a lone one (not part of a pair) is a problem.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


#: A problem of a graph object: (where, message); where is "", "node N", "nodes[K]", "edge K" or "top N".
Found = Tuple[str, str]
#: The date forms of ``time`` that the reference tool reads (it drops a graph with any other).
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}( \(\d{2}:\d{2}\))?")


#: Text that may decode to a float that is not finite (ujson reads NaN, Infinity and 1e999).
_MAYBE_NON_FINITE = re.compile(r"NaN|Infinity|[0-9][eE]")


def _non_finite(obj: Any) -> Optional[float]:
    """The first NaN or infinite number in a decoded object, or None (JSON has neither)."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


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


#: the keys of a node (an edge) read by the fast path of Decoder.node (Decoder.edge): nothing to check
#: beyond the types of these (the path for every other object reads them the same way)
_PLAIN_NODE = frozenset(("id", "label"))
_PLAIN_EDGE = frozenset(("source", "target", "label", "normal"))


class Decoder:
    """Decodes one graph object, collecting every problem instead of stopping at the first.

    ``bad`` records a problem that makes the reader reject the graph (the
    first one becomes ``rejected``, worded as the reader words it); ``note``
    records a problem of the format that the reader reads past.  What cannot
    be used is left out of the graph (a node without an integer id, an anchor
    without ``from``); what the model can hold is kept.
    """

    def __init__(self, mtool: bool = False) -> None:
        #: keep a graph with a duplicate node id as mtool does (``ReadOptions.mtool``)
        self.mtool = mtool
        self.found: List[Found] = []
        self.rejected: Optional[str] = None
        #: the ids that nodes left out for a non-integer id would have ("3" and 3.0 name node 3)
        self.unread: Set[int] = set()

    def bad(self, where: str, message: str, reader: Optional[str] = None) -> None:
        self.found.append((where, message))
        if self.rejected is None:
            self.rejected = reader or (f"{where}: {message}" if where else message)

    def note(self, where: str, message: str) -> None:
        self.found.append((where, message))

    def integer(self, value: Any, where: str, what: str, reader: Optional[str] = None) -> Optional[int]:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        message = f"{what} is {excerpt_json(value)}, not an integer"
        self.bad(where, message, reader and f"{reader}{message}")
        return None

    def text(self, value: Any, where: str, what: str) -> Optional[str]:
        """A string (numbers become strings), None when absent or unusable."""
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        self.bad(where, f"{what} is {excerpt_json(value)}, not a string")
        return None

    def listing(self, obj: Dict[str, Any], key: str, where: str) -> List[Any]:
        """The list under a key ([] when absent or null; a problem and [] when not a list)."""
        value = obj.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            prefix = f"{where}: " if where else ""
            self.bad(where, f"'{key}' is {excerpt_json(value)}, not a list", f"{prefix}'{key}' is not a list")
            return []
        return value

    def names(self, item: Dict[str, Any], key: str, where: str, noun: str) -> List[str]:
        """Property or attribute names: strings (numbers become strings; others are kept as JSON)."""
        if item.get(key) is None:
            return []
        names = []
        for k, value in enumerate(self.listing(item, key, where)):
            text = self.text(value, where, f"{noun} name {k}") if value is not None else None
            if value is None:
                self.bad(where, f"{noun} name {k} is null, not a string",
                         f"{where}: {noun} name is null, not a string")
            names.append(excerpt_json(value) if text is None else text)
        return names

    def anchors(self, value: Any, where: str) -> Optional[List[Anchor]]:
        """The usable anchors of a node or edge (None when it has no ``anchors``)."""
        if value is None:
            return None
        if not isinstance(value, list):
            self.bad(where, f"'anchors' is {excerpt_json(value)}, not a list",
                     f"{where}: 'anchors' is not a list")
            return None
        spans: List[Anchor] = []
        for anchor in value:
            if type(anchor) is dict:  # the common case first: two integers
                start, end = anchor.get("from"), anchor.get("to")
                if type(start) is int and type(end) is int:
                    spans.append((start, end))
                    continue
            if not isinstance(anchor, dict) or "from" not in anchor or "to" not in anchor:
                self.bad(where, f"anchor {excerpt_json(anchor)} has no 'from' and 'to'")
                continue
            start = self.integer(anchor["from"], where, "anchor 'from'")
            end = self.integer(anchor["to"], where, "anchor 'to'")
            if start is not None and end is not None:
                spans.append((start, end))
        return spans

    def node(self, k: int, item: Any) -> Optional[Node]:
        """The k-th node, or None when it has no usable id."""
        if type(item) is dict and _PLAIN_NODE.issuperset(item):  # the common case: an id and a label
            nid, label = item.get("id"), item.get("label")
            if type(nid) is int and (label is None or type(label) is str):
                return Node(nid, label)
        if not isinstance(item, dict):
            self.bad(f"nodes[{k}]", f"is {excerpt_json(item)}, not a JSON object",
                     f"node {k} is not a JSON object")
            return None
        if item.get("id") is None:
            self.bad(f"nodes[{k}]", "has no 'id'", f"node {k} has no 'id'")
            return None
        nid = item["id"]
        if type(nid) is not int:
            raw, nid = nid, self.integer(nid, f"nodes[{k}]", "'id'", f"node {k}: ")
            if nid is None:
                self.unread.update(_as_int(raw))
                return None
        where = f"node {nid}"
        label = item.get("label")
        if label is not None and type(label) is not str:
            label = self.text(label, where, "'label'")
        return Node(id=nid, label=label,
                    properties=self.names(item, "properties", where, "property"),
                    values=self.listing(item, "values", where),
                    anchors=self.anchors(item.get("anchors"), where), anchorings=item.get("anchorings"))

    def edge(self, k: int, item: Any) -> Optional[Edge]:
        """The k-th edge, or None when it has no usable source or target."""
        if type(item) is dict and _PLAIN_EDGE.issuperset(item):  # the common case: two ends and a label
            source, target = item.get("source"), item.get("target")
            label, normal = item.get("label"), item.get("normal")
            if type(source) is int and type(target) is int and (label is None or type(label) is str) \
                    and (normal is None or type(normal) is str):
                return Edge(source, target, label, normal)
        where = f"edge {k}"
        if not isinstance(item, dict):
            self.bad(where, f"is {excerpt_json(item)}, not a JSON object", f"edge {k} is not a JSON object")
            return None
        ends: List[Optional[int]] = [item.get("source"), item.get("target")]
        if type(ends[0]) is not int or type(ends[1]) is not int:
            for n, end in enumerate(("source", "target")):
                if ends[n] is None:
                    self.bad(where, f"has no '{end}'", f"edge {k} has no '{end}'")
                else:
                    ends[n] = self.integer(ends[n], where, f"'{end}'")
        legacy = "attributes" not in item and "properties" in item
        attributes = self.names(item, "properties" if legacy else "attributes", where, "attribute")
        values = self.listing(item, "values", where)
        label, normal = item.get("label"), item.get("normal")
        if label is not None and type(label) is not str:
            label = self.text(label, where, "'label'")
        if normal is not None:
            normal = self.text(normal, where, "'normal'")
        eid = None if item.get("id") is None else self.integer(item["id"], where, "'id'")
        anchors = self.anchors(item.get("anchors"), where)
        if ends[0] is None or ends[1] is None:
            return None
        return Edge(source=ends[0], target=ends[1], label=label, normal=normal, attributes=attributes,
                    values=values, id=eid, anchors=anchors, legacy=legacy)

    def identity(self, obj: Dict[str, Any], framework: Optional[str]) -> str:
        """The graph id ("" when it has none), and the problems of the required top-level fields.

        ``framework``: the framework the reader was told (it supplies a missing one; "" when
        a graph without one is readable).
        """
        gid = obj.get("id")
        if gid is None:
            self.bad("", "graph has no 'id'")
        elif not isinstance(gid, (str, int)) or isinstance(gid, bool):
            self.bad("", f"graph id {excerpt_json(gid)} is neither a string nor a number")
        elif gid == "":
            self.note("", "graph id is empty")
        elif not isinstance(gid, str):
            self.note("", f"graph id {gid} is a number, not a string")
        for key in ("framework", "flavor", "version", "time"):
            if obj.get(key) is None:
                if key == "framework" and framework is None:
                    self.bad("", "graph has no 'framework'")
                else:
                    self.note("", f"graph has no '{key}'")
        name = obj.get("framework")
        if isinstance(name, str) and name not in (known := frameworks()):
            self.note("", f"framework '{name}' is not a known framework ({', '.join(sorted(known))})")
        version = obj.get("version")
        if version is not None and (not isinstance(version, (int, float, str)) or isinstance(version, bool)):
            self.note("", f"'version' is {excerpt_json(version)}, not a number")
        time = obj.get("time")
        if isinstance(time, (str, int, float)) and not isinstance(time, bool) \
                and not (isinstance(time, str) and _TIME.fullmatch(time)):
            self.note("", f"'time' is {excerpt_json(time)}, not a date (YYYY-MM-DD, or YYYY-MM-DD (HH:MM))")
        return str(gid) if isinstance(gid, (str, int)) and not isinstance(gid, bool) else ""

    def graph(self, obj: Dict[str, Any], text: str, framework: Optional[str]) -> Graph:
        """The graph of a JSON object decoded from ``text``."""
        if _SURROGATE_ESCAPE.search(text):
            lone = _lone_surrogate(obj)
            if lone is not None:
                self.bad("", f"a string holds the lone surrogate {lone}, which is not a character")
        if _MAYBE_NON_FINITE.search(text):
            number = _non_finite(obj)
            if number is not None:
                self.bad("", f"a number is {number!r} (NaN, Infinity or too large), which JSON "
                             "does not allow")
        gid = self.identity(obj, framework)
        flavor = obj.get("flavor")
        if flavor is not None:
            flavor = self.integer(flavor, "", "'flavor'")
            if flavor is not None and flavor not in (0, 1, 2):
                self.note("", f"flavor {flavor} is not 0, 1 or 2")
        fields = {key: self.text(obj.get(key), "", f"'{key}'")
                  for key in ("framework", "input", "language", "time", "source", "provenance")}
        targets = obj.get("targets")
        if targets is not None and not isinstance(targets, list):
            self.bad("", f"'targets' is {excerpt_json(targets)}, not a list", "'targets' is not a list")
            targets = None
        nodes = [self.node(k, item) for k, item in enumerate(self.listing(obj, "nodes", ""))]
        edges = [self.edge(k, item) for k, item in enumerate(self.listing(obj, "edges", ""))]
        tops = [self.integer(top, "", "top") for top in self.listing(obj, "tops", "")]
        graph = Graph(
            id=gid, framework=fields["framework"] if fields["framework"] is not None else framework or None,
            flavor=flavor, input=fields["input"],
            language=fields["language"], time=fields["time"], source=fields["source"],
            provenance=fields["provenance"], targets=targets, version=obj.get("version"),
            tops=[top for top in tops if top is not None],
            nodes=[node for node in nodes if node is not None],
            edges=[edge for edge in edges if edge is not None],
        )
        if self.mtool:
            graph.repairs = fresh_ids(graph) or None
        for where, message, reader in (*reference_problems(graph, self.unread), *length_problems(graph)):
            if reader is not None:
                self.bad(where, message, reader)
            else:
                self.note(where, message)
        if obj.get("variables") is not None:
            graph.variables = self.variables(obj["variables"], {node.id for node in graph.nodes})
        if obj.get("document") is not None:
            graph.document = self.placement(obj["document"])
        return graph

    def variables(self, value: Any, known: Set[int]) -> Optional[Dict[int, str]]:
        """The UMR ``variables`` key: node id -> Penman variable."""
        if not isinstance(value, dict):
            self.bad("", "'variables' is not a JSON object")
            return None
        variables: Dict[int, str] = {}
        for key, name in value.items():
            try:
                nid = int(key)
            except ValueError:
                self.bad("", f"'variables': key {excerpt_json(key)} is not a node id")
                continue
            if nid not in known:
                self.bad("", f"'variables': node {nid} names no node")
            variable = self.string(name, f"'variables': the variable of node {nid}")
            if variable is not None:
                variables[nid] = variable
        return variables

    def placement(self, value: Any) -> Optional[Placement]:
        """The UMR ``document`` key: the graph's document and its document-level annotation."""
        if not isinstance(value, dict):
            self.bad("", "'document' is not a JSON object")
            return None
        relations = []
        for k, item in enumerate(self.listing(value, "relations", "'document'")):
            if not isinstance(item, dict):
                self.bad("", f"'document': relation {k} is not a JSON object")
                continue
            ends = [self.string(item.get(key), f"'document': relation {k}: '{key}'")
                    for key in ("kind", "source", "label", "target")]
            relations.append(Relation(*(end or "" for end in ends)))
        sentence = value.get("sentence")
        info = [self.string(line, "'document': an 'info' line")
                for line in self.listing(value, "info", "'document'")]
        return Placement(
            document=self.string(value.get("id"), "'document': 'id'") or "",
            sentence=self.integer(sentence, "", "'document': 'sentence'") or 0,
            variable=self.text(value.get("variable"), "", "'document': 'variable'"),
            relations=relations,
            info=[line or "" for line in info],
        )

    def string(self, value: Any, what: str) -> Optional[str]:
        """A required string (numbers become strings); null is a problem."""
        if value is None:
            self.bad("", f"{what} is null, not a string")
            return None
        return self.text(value, "", what)


def _as_int(value: Any) -> List[int]:
    """The integer a node id written as a string or float stands for ([] when none)."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return []
    return [int(number)] if number.is_integer() else []


def decode(obj: Any) -> Graph:
    """A Graph from one decoded MRP JSON object; raises ValueError naming the problem."""
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    decoder = Decoder()
    graph = decoder.graph(obj, "", "")
    if decoder.rejected is not None:
        raise ValueError(decoder.rejected)
    return graph



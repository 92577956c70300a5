"""Submission validation: every problem of a graph file, reported per graph, node and edge.

:func:`validate_file` reads a file and returns a :class:`Report` whose problems
are in file order; :func:`validate_graph` checks one graph of the model.  A
:class:`Problem` prints as one line::

    FILE:LINE: graph ID: WHERE: message

Parts that are unknown are left out (with their ``: ``): the line for a graph
that was not read from a file, the graph for a line that holds no graph (not
UTF-8, not JSON), WHERE for a problem of the whole graph.  WHERE names

- ``node N``: the node whose ``id`` is N (``nodes[K]``, the K-th node counted
  from 0, when the node has no usable id);
- ``edge K``: the K-th edge of the graph's ``edges`` list, counted from 0 (edges
  have no required id; the reader's own messages count them the same way);
- ``top N``: the entry N of ``tops``.

MRP JSON lines are decoded leniently here, alongside the MRP reader, so that
problems the graph model cannot hold once read (a non-integer id, an anchor
without ``from``, ...) are reported one by one, and so is every later problem
of the same graph.  A graph that the reader rejects (and that mrp-score
therefore scores as an empty graph, or refuses as gold) also gets a last line
``graph cannot be read: <the reader's message>``.

The checks, in the order they are reported for a graph:

shape (MRP only)
    the field types of the format (ids, sources, targets and tops are
    integers, labels and names strings, lists are lists, an anchor is
    ``{"from": int, "to": int}``); a lone surrogate escape (``"\\ud800"``),
    which is no character.
graph
    a duplicate graph id (same framework and id as an earlier graph of the
    file; the message names the first line); ``input`` that differs from the
    ``text`` table given for the id; a ``flavor`` that does not fit the
    framework; a framework other than the one asked for.
references
    duplicate node ids, tops and edge ends that name no node, a top listed twice.
lengths
    properties and values (nodes), attributes and values (edges) of different lengths.
anchors
    ``from`` > ``to``; an empty anchor (``from`` = ``to``); an anchor outside
    the input (offsets in code points, so an astral character counts as one);
    an anchor that covers only whitespace.  A graph with anchors but no
    ``input`` cannot be range-checked: it gets one line saying so (its
    anchors are compared unnormalized by the scorers).
framework (from the ``framework`` argument, else the graph's own field)
    AMR: no node or edge has anchors, exactly one top.  DM and PSD: every node
    has exactly one anchor, and the anchored text, trimmed, holds no
    whitespace (a single token).  EDS: every node has anchors.  UCCA: a
    ``remote`` attribute is ``true`` or ``false`` (JSON booleans or strings,
    any case); every node's non-remote incoming edges come from one parent
    (several edges from that parent are one multi-category edge; an edge from
    a second parent must carry ``remote: true``); a node with incoming edges
    has a non-remote one (a primary parent); no edge is a loop; exactly one
    top; a leaf is anchored unless it has the property ``implicit`` (not ``false``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import ujson

from .codecs import ReadOptions, implied_framework, infer_format, reader
from .codecs.mrp import read as read_mrp
from .errors import FormatError, InputError
from .graph import Anchor, Edge, Graph, Node, default_flavor
from .source import Line, display_name, read_lines

#: A problem before it knows its file, line and graph: (where, message).
Found = Tuple[str, str]
#: A JSON escape of a UTF-16 surrogate (a lone one is no character).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


@dataclass
class Problem:
    """One problem: where it is (file, line, graph, node/edge) and what is wrong.

    ``where`` is ``"node N"``, ``"nodes[K]"``, ``"edge K"``, ``"top N"`` or ``""``
    (the whole graph, or a line holding no graph).
    """

    file: Optional[str]
    line: Optional[int]
    graph_id: Optional[str]
    where: str
    message: str

    def __str__(self) -> str:
        """``FILE:LINE: graph ID: WHERE: message``, leaving out the parts that are unknown.

        A lone surrogate (from a JSON escape) is shown as its escape, so the line can be printed.
        """
        parts = []
        if self.file is not None:
            parts.append(self.file if self.line is None else f"{self.file}:{self.line}")
        elif self.line is not None:
            parts.append(f"line {self.line}")
        if self.graph_id is not None:
            parts.append(f"graph {self.graph_id}")
        if self.where:
            parts.append(self.where)
        text = ": ".join(parts + [self.message])
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _plural(count: int, noun: str) -> str:
    """``1 graph``, ``2 graphs``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@dataclass
class Report:
    """The result of validating one file.

    ``graphs``: graph objects found (including the ones that cannot be read);
    ``flawed``: graphs with at least one problem; ``rejected``: graphs the
    reader rejects (mrp-score scores them as empty graphs); ``unreadable_lines``:
    lines that hold no graph (not UTF-8, not JSON, not a JSON object);
    ``fatal``: why the file could not be validated at all, or None.
    """

    name: str
    format: str
    problems: List[Problem] = field(default_factory=list)
    graphs: int = 0
    flawed: int = 0
    rejected: int = 0
    unreadable_lines: int = 0
    fatal: Optional[str] = None

    @property
    def unreadable(self) -> bool:
        """True when the file could not be opened or decoded at all."""
        return self.fatal is not None

    @property
    def clean(self) -> bool:
        """True when the file was read and has no problem."""
        return self.fatal is None and not self.problems

    def summary(self) -> str:
        """One line: ``FILE: N graphs, K problems in M graphs[, U unreadable lines]`` (or the fatal error)."""
        if self.fatal is not None:
            return self.fatal
        text = f"{self.name}: {_plural(self.graphs, 'graph')}, "
        if not self.problems:
            return text + "no problems"
        text += f"{_plural(len(self.problems), 'problem')} in {_plural(self.flawed, 'graph')}"
        if self.unreadable_lines:
            text += f", {_plural(self.unreadable_lines, 'unreadable line')}"
        return text


# ---------------------------------------------------------------------------
# lenient decoding of MRP JSON objects (the shape checks)


def _json(value: Any, limit: int = 60) -> str:
    """A value as JSON for messages, cut to ``limit`` characters."""
    try:
        text = str(ujson.dumps(value, ensure_ascii=False, escape_forward_slashes=False))
    except (TypeError, OverflowError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class _Shape:
    """Decodes one MRP JSON object leniently: a best-effort Graph and every shape problem.

    What cannot be used is reported and left out (a node without an integer id,
    an anchor without ``from``); what the model can hold is kept for the later
    checks (mismatched lengths, ``from`` > ``to``, duplicate node ids).
    """

    def __init__(self) -> None:
        self.found: List[Found] = []

    def add(self, where: str, message: str) -> None:
        """Record a problem."""
        self.found.append((where, message))

    def integer(self, value: Any, where: str, what: str) -> Optional[int]:
        """An integer value, or None after reporting what it is instead."""
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        self.add(where, f"{what} is {_json(value)}, not an integer")
        return None

    def text(self, value: Any, where: str, what: str) -> Optional[str]:
        """A string (numbers become strings, as the reader does), None when absent or unusable."""
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        self.add(where, f"{what} is {_json(value)}, not a string")
        return None

    def listing(self, obj: Dict[str, Any], key: str, where: str) -> List[Any]:
        """The list under a key ([] when absent or null; reported and [] when not a list)."""
        value = obj.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.add(where, f"'{key}' is {_json(value)}, not a list")
            return []
        return value

    def anchors(self, value: Any, where: str) -> Optional[List[Anchor]]:
        """The usable anchors of a node or edge (None when it has no ``anchors``)."""
        if value is None:
            return None
        if not isinstance(value, list):
            self.add(where, f"'anchors' is {_json(value)}, not a list")
            return None
        spans: List[Anchor] = []
        for anchor in value:
            if not isinstance(anchor, dict) or "from" not in anchor or "to" not in anchor:
                self.add(where, f"anchor {_json(anchor)} has no 'from' and 'to'")
                continue
            start = self.integer(anchor["from"], where, "anchor 'from'")
            end = self.integer(anchor["to"], where, "anchor 'to'")
            if start is not None and end is not None:
                spans.append((start, end))
        return spans

    def pairs(self, item: Dict[str, Any], names: str, where: str) -> Tuple[List[str], List[Any]]:
        """Names (properties or attributes) and values; a name that is not a string is reported."""
        noun = "property" if names == "properties" else "attribute"
        keys = [self.name(key, where, f"{noun} name {k}")
                for k, key in enumerate(self.listing(item, names, where))]
        return keys, self.listing(item, "values", where)

    def name(self, value: Any, where: str, what: str) -> str:
        """A property or attribute name: a string (kept as its JSON text when it is not one)."""
        text = self.text(value, where, what)
        if text is not None:
            return text
        if value is None:
            self.add(where, f"{what} is null, not a string")
        return _json(value)

    def surrogates(self, obj: Dict[str, Any], line: str) -> None:
        """A lone surrogate (JSON can escape one, ``"\\ud800"``): no character, it cannot be written."""
        if not _SURROGATE_ESCAPE.search(line):
            return
        try:
            ujson.dumps(obj, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as error:
            lone = f"\\u{ord(error.object[error.start]):04x}"
            self.add("", f"a string holds the lone surrogate {lone}, which is not a character")

    def node(self, k: int, item: Any) -> Optional[Node]:
        """The k-th node, or None when it has no usable id."""
        if not isinstance(item, dict):
            self.add(f"nodes[{k}]", f"is {_json(item)}, not a JSON object")
            return None
        if item.get("id") is None:
            self.add(f"nodes[{k}]", "has no 'id'")
            return None
        nid = self.integer(item["id"], f"nodes[{k}]", "'id'")
        if nid is None:
            return None
        where = f"node {nid}"
        properties, values = self.pairs(item, "properties", where)
        return Node(id=nid, label=self.text(item.get("label"), where, "'label'"),
                    properties=properties, values=values,
                    anchors=self.anchors(item.get("anchors"), where), anchorings=item.get("anchorings"))

    def edge(self, k: int, item: Any) -> Optional[Edge]:
        """The k-th edge, or None when it has no usable source or target."""
        where = f"edge {k}"
        if not isinstance(item, dict):
            self.add(where, f"is {_json(item)}, not a JSON object")
            return None
        ends = []
        for end in ("source", "target"):
            if item.get(end) is None:
                self.add(where, f"has no '{end}'")
            else:
                ends.append(self.integer(item[end], where, f"'{end}'"))
        legacy = "attributes" not in item and "properties" in item
        attributes, values = self.pairs(item, "properties" if legacy else "attributes", where)
        label = self.text(item.get("label"), where, "'label'")
        normal = self.text(item.get("normal"), where, "'normal'")
        eid = None if item.get("id") is None else self.integer(item["id"], where, "'id'")
        anchors = self.anchors(item.get("anchors"), where)
        if len(ends) != 2 or ends[0] is None or ends[1] is None:
            return None
        return Edge(source=ends[0], target=ends[1], label=label, normal=normal, attributes=attributes,
                    values=values, id=eid, anchors=anchors, legacy=legacy)

    def graph(self, obj: Dict[str, Any], line: str) -> Graph:
        """The graph of a JSON object decoded from ``line`` (its id is "" when it has no usable id)."""
        self.surrogates(obj, line)
        gid = obj.get("id")
        if gid is None:
            self.add("", "graph has no 'id'")
        elif not isinstance(gid, (str, int)) or isinstance(gid, bool):
            self.add("", f"graph id {_json(gid)} is neither a string nor a number")
        elif gid == "":
            self.add("", "graph id is empty")
        flavor = obj.get("flavor")
        if flavor is not None:
            flavor = self.integer(flavor, "", "'flavor'")
        fields = {key: self.text(obj.get(key), "", f"'{key}'")
                  for key in ("framework", "input", "language", "time", "source", "provenance")}
        targets = obj.get("targets")
        if targets is not None and not isinstance(targets, list):
            self.add("", f"'targets' is {_json(targets)}, not a list")
            targets = None
        tops = [self.integer(top, "", "top") for top in self.listing(obj, "tops", "")]
        nodes = [self.node(k, item) for k, item in enumerate(self.listing(obj, "nodes", ""))]
        edges = [self.edge(k, item) for k, item in enumerate(self.listing(obj, "edges", ""))]
        return Graph(
            id=_graph_id(obj) or "", framework=fields["framework"], flavor=flavor, input=fields["input"],
            language=fields["language"], time=fields["time"], source=fields["source"],
            provenance=fields["provenance"], targets=targets, version=obj.get("version"),
            tops=[top for top in tops if top is not None],
            nodes=[node for node in nodes if node is not None],
            edges=[edge for edge in edges if edge is not None],
        )


def _graph_id(obj: Dict[str, Any]) -> Optional[str]:
    """The id of a graph object as the reader reads it, or None when it has none."""
    gid = obj.get("id")
    if isinstance(gid, (str, int)) and not isinstance(gid, bool):
        return str(gid)
    return None


# ---------------------------------------------------------------------------
# checks on the graph model


def validate_graph(graph: Graph, framework: Optional[str] = None, *,
                   file: Optional[str] = None) -> List[Problem]:
    """Every problem of a graph: references, lengths, anchors, and the framework's rules.

    ``framework`` chooses the framework rules (default: the graph's own
    ``framework``); a graph that names another framework is a problem.
    Problems carry ``file``, the graph's ``line`` and its id.
    """
    found = _check_graph(graph, framework)
    return [Problem(file, graph.line, graph.id, where, message) for where, message in found]


def _check_graph(graph: Graph, framework: Optional[str]) -> List[Found]:
    """The problems of a graph as (where, message) pairs."""
    found: List[Found] = []
    _check_identity(graph, framework, found)
    _check_references(graph, found)
    _check_lengths(graph, found)
    _check_anchors(graph, found)
    name = framework or graph.framework or ""
    rules = FRAMEWORK_RULES.get(name)
    if rules is not None:
        rules(graph, name, found)
    return found


def _check_identity(graph: Graph, framework: Optional[str], found: List[Found]) -> None:
    """The framework asked for, and a flavor that fits the framework."""
    if framework is not None and graph.framework is not None and graph.framework != framework:
        found.append(("", f"framework is '{graph.framework}', not '{framework}'"))
    expected = default_flavor(graph.framework)
    if graph.flavor is not None and expected is not None and graph.flavor != expected:
        found.append(("", f"flavor {graph.flavor} does not fit framework '{graph.framework}' "
                          f"(flavor {expected})"))


def _check_references(graph: Graph, found: List[Found]) -> None:
    """Duplicate node ids; tops and edge ends that name no node."""
    position: Dict[int, int] = {}
    for k, node in enumerate(graph.nodes):
        if node.id in position:
            first = position[node.id]
            found.append((f"node {node.id}", f"duplicate node id (nodes[{first}] and nodes[{k}])"))
        else:
            position[node.id] = k
    listed = set()
    for top in graph.tops:
        if top not in position:
            found.append((f"top {top}", "names no node"))
        elif top in listed:
            found.append((f"top {top}", "listed twice"))
        listed.add(top)
    for k, edge in enumerate(graph.edges):
        for end, nid in (("source", edge.source), ("target", edge.target)):
            if nid not in position:
                found.append((f"edge {k}", f"{end} {nid} names no node"))


def _count_mismatch(names: Sequence[str], values: Sequence[Any], noun: str) -> Optional[str]:
    """A message when names and values differ in length."""
    if len(names) == len(values):
        return None
    return f"has {_plural(len(names), noun)} but {_plural(len(values), 'value')}"


def _check_lengths(graph: Graph, found: List[Found]) -> None:
    """Properties and values, attributes and values, of the same length."""
    for node in graph.nodes:
        message = _count_mismatch(node.properties, node.values, "property name")
        if message:
            found.append((f"node {node.id}", message))
    for k, edge in enumerate(graph.edges):
        noun = "property name" if edge.legacy else "attribute name"
        message = _count_mismatch(edge.attributes, edge.values, noun)
        if message:
            found.append((f"edge {k}", message))


def _anchored(graph: Graph) -> Iterator[Tuple[str, List[Anchor]]]:
    """(where, anchors) of every node and edge that has anchors."""
    for node in graph.nodes:
        if node.anchors:
            yield f"node {node.id}", node.anchors
    for k, edge in enumerate(graph.edges):
        if edge.anchors:
            yield f"edge {k}", edge.anchors


def anchor_problem(span: Anchor, text: Optional[str]) -> Optional[str]:
    """What is wrong with one anchor (against the input ``text`` when known), or None."""
    start, end = span
    name = f"anchor {start}:{end}"
    if start > end:
        return f"{name} has from > to"
    if start == end:
        return f"{name} is empty"
    if text is None:
        return None
    if start < 0 or end > len(text):
        return f"{name} is outside the input ({_plural(len(text), 'character')})"
    if text[start:end].isspace():
        return f"{name} covers only whitespace"
    return None


def _check_anchors(graph: Graph, found: List[Found]) -> None:
    """Every anchor of every node and edge; one line for a graph without input."""
    unchecked = False
    for where, spans in _anchored(graph):
        for span in spans:
            message = anchor_problem(span, graph.input)
            if message:
                found.append((where, message))
        unchecked = unchecked or graph.input is None
    if unchecked:
        found.append(("", "has anchors but no 'input'; anchors not checked against the input"))


def _check_amr(graph: Graph, name: str, found: List[Found]) -> None:
    """AMR: unanchored, exactly one top."""
    for where, _ in _anchored(graph):
        found.append((where, "has anchors (AMR graphs are unanchored)"))
    if len(graph.tops) != 1:
        count = "no top" if not graph.tops else _plural(len(graph.tops), "top")
        found.append(("", f"has {count} (an AMR graph has exactly one)"))


def _check_tokens(graph: Graph, name: str, found: List[Found]) -> None:
    """DM, PSD: every node is anchored to exactly one token."""
    rule = f"({name.upper()} nodes are anchored to single tokens)"
    text = graph.input
    for node in graph.nodes:
        where = f"node {node.id}"
        if not node.anchors:
            found.append((where, f"has no anchor {rule}"))
        elif len(node.anchors) > 1:
            found.append((where, f"has {len(node.anchors)} anchors {rule}"))
        elif text is not None and anchor_problem(node.anchors[0], text) is None:
            start, end = node.anchors[0]
            if any(c.isspace() for c in text[start:end].strip()):
                found.append((where, f"anchor {start}:{end} spans several tokens {rule}"))


def _check_eds(graph: Graph, name: str, found: List[Found]) -> None:
    """EDS: every node is anchored."""
    for node in graph.nodes:
        if not node.anchors:
            found.append((f"node {node.id}", "has no anchors (EDS nodes are anchored)"))


def _flag(names: Sequence[str], values: Sequence[Any], name: str) -> Optional[Any]:
    """The value of a named property or attribute (the first), or None."""
    for key, value in zip(names, values):
        if key == name:
            return value
    return None


def _true(value: Any) -> bool:
    """True unless a flag value is false (as the scorer's normalization reads it)."""
    return str(value).lower() != "false"


def is_remote(edge: Edge) -> bool:
    """True for a UCCA remote edge (an attribute ``remote`` whose value is not false)."""
    return "remote" in edge.attributes and _true(_flag(edge.attributes, edge.values, "remote"))


def _ucca_edges(graph: Graph, found: List[Found]) -> Dict[int, Tuple[int, int]]:
    """UCCA edges: remote flags, loops, and one primary parent; returns target -> (edge, parent)."""
    primary: Dict[int, Tuple[int, int]] = {}
    for k, edge in enumerate(graph.edges):
        for key, value in zip(edge.attributes, edge.values):
            if key == "remote" and str(value).lower() not in ("true", "false"):
                found.append((f"edge {k}", f"attribute 'remote' is {_json(value)}, not true or false"))
        if edge.source == edge.target:
            found.append((f"edge {k}", f"is a loop on node {edge.source} (UCCA graphs are acyclic)"))
        elif not is_remote(edge):
            first = primary.setdefault(edge.target, (k, edge.source))
            if first[1] != edge.source:
                found.append((f"edge {k}", f"node {edge.target} already has the primary parent {first[1]} "
                                           f"(edge {first[0]}); an edge from another parent must be remote"))
    return primary


def _check_ucca(graph: Graph, name: str, found: List[Found]) -> None:
    """UCCA: remote flags, one primary parent per node, no loops, one top, anchored leaves."""
    primary = _ucca_edges(graph, found)
    parents = {edge.source for edge in graph.edges}
    children = {edge.target for edge in graph.edges if edge.source != edge.target}
    seen = set()
    for node in graph.nodes:
        if node.id in seen:
            continue
        seen.add(node.id)
        where = f"node {node.id}"
        if node.id in children and node.id not in primary:
            found.append((where, "has only remote incoming edges (no primary parent)"))
        implicit = _flag(node.properties, node.values, "implicit")
        if node.id not in parents and not node.anchors and (implicit is None or not _true(implicit)):
            found.append((where, "is a leaf without anchors (UCCA leaves are anchored unless implicit)"))
    if len(graph.tops) != 1:
        count = "no top" if not graph.tops else _plural(len(graph.tops), "top")
        found.append(("", f"has {count} (a UCCA graph has exactly one)"))


#: The framework rules by framework name.
FRAMEWORK_RULES: Dict[str, Callable[[Graph, str, List[Found]], None]] = {
    "amr": _check_amr,
    "dm": _check_tokens,
    "psd": _check_tokens,
    "eds": _check_eds,
    "ucca": _check_ucca,
}


# ---------------------------------------------------------------------------
# files


class _Graphs:
    """What a file validation keeps across graphs: the report and the first line of each id."""

    def __init__(self, report: Report, framework: Optional[str], text: Optional[Mapping[str, str]],
                 keep: Optional[Sequence[str]]) -> None:
        self.report = report
        self.framework = framework
        self.text = text
        self.keep = set(keep) if keep else None
        self.first: Dict[Tuple[Optional[str], str], Optional[int]] = {}

    def skipped(self, framework: Optional[str]) -> bool:
        """True for a graph that selection leaves out."""
        return self.keep is not None and framework is not None and framework not in self.keep

    def line_problem(self, line: Optional[int], message: str, graph_id: Optional[str] = None) -> None:
        """A problem of a line that holds no graph, or of a graph that cannot be read at all."""
        self.report.problems.append(Problem(self.report.name, line, graph_id, "", message))

    def graph(self, graph: Graph, line: Optional[int], found: List[Found], rejected: Optional[str]) -> None:
        """Check one graph after its shape problems ``found``; ``rejected``: the reader's message."""
        self.report.graphs += 1
        gid = graph.id if graph.id != "" else None
        found = list(found)
        if graph.framework is None and self.framework is not None:
            graph.framework = self.framework
        if gid is not None:
            found.extend(self._identity(graph, line))
        found.extend(_check_graph(graph, self.framework))
        if rejected is not None:
            found.append(("", f"graph cannot be read: {rejected}"))
            self.report.rejected += 1
        if found:
            self.report.flawed += 1
        self.report.problems.extend(Problem(self.report.name, line, gid, where, message)
                                    for where, message in found)

    def _identity(self, graph: Graph, line: Optional[int]) -> List[Found]:
        """A duplicate id, and an input that differs from the text table."""
        found: List[Found] = []
        key = (graph.framework, graph.id)
        if key in self.first:
            first = self.first[key]
            found.append(("", "duplicate graph id" + (f" (first at line {first})" if first else "")))
        else:
            self.first[key] = line
        expected = self.text.get(graph.id) if self.text is not None else None
        if expected is not None:
            if graph.input is None:
                graph.input = expected
            elif graph.input != expected:
                found.append(("", "'input' differs from the text given for this id"))
        return found


def _verdict(line: Line, name: str) -> Optional[str]:
    """The MRP reader's message for a line it rejects (None when it reads the graph)."""
    for item in read_mrp([line], name, ReadOptions()):
        if isinstance(item, FormatError):
            return item.message
    return None


def _read_mrp(lines: Iterable[Union[Line, FormatError]], state: _Graphs) -> None:
    """Validate MRP JSON lines, leniently decoded, each also through the MRP reader."""
    for line in lines:
        if isinstance(line, FormatError):
            state.report.unreadable_lines += 1
            state.line_problem(line.line, line.message)
            continue
        if not line.text.strip():
            continue
        try:
            obj = ujson.loads(line.text)
        except (ValueError, OverflowError) as error:
            state.report.unreadable_lines += 1
            state.line_problem(line.number, f"invalid JSON: {error}")
            continue
        if not isinstance(obj, dict):
            state.report.unreadable_lines += 1
            state.line_problem(line.number, "not a JSON object")
            continue
        framework = obj.get("framework")
        if state.skipped(framework if isinstance(framework, str) else None):
            continue
        shape = _Shape()
        graph = shape.graph(obj, line.text)
        graph.line = line.number
        state.graph(graph, line.number, shape.found, _verdict(line, state.report.name))


def _read_other(fmt: str, options: ReadOptions, state: _Graphs,
                lines: Iterable[Union[Line, FormatError]]) -> None:
    """Validate the graphs of a non-MRP format as its reader reads them."""
    passed: List[FormatError] = []

    def watch() -> Iterator[Union[Line, FormatError]]:
        for item in lines:
            if isinstance(item, FormatError):
                passed.append(item)
            yield item

    for item in reader(fmt)(watch(), state.report.name, options):
        if isinstance(item, FormatError):
            if any(item is error for error in passed):
                state.report.unreadable_lines += 1
                state.line_problem(item.line, item.message)
            else:
                state.report.graphs += 1
                state.report.rejected += 1
                state.report.flawed += 1
                state.line_problem(item.line, item.message, item.graph_id)
        elif not state.skipped(item.framework):
            state.graph(item, item.line, [], None)


class _Watched:
    """Numbered lines of a file, noting whether any non-blank line was UTF-8 text.

    A line holding NUL characters does not count as text: a UTF-16 file is
    valid UTF-8 after its byte-order mark, with a NUL beside every ASCII character.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.text = False
        self.undecodable = False

    def __iter__(self) -> Iterator[Union[Line, FormatError]]:
        for item in read_lines(self.path):
            if isinstance(item, FormatError) or "\x00" in item.text:
                self.undecodable = True
            elif item.text.strip():
                self.text = True
            yield item


def validate_file(path: str, fmt: Optional[str] = None, framework: Optional[str] = None,
                  text: Optional[Mapping[str, str]] = None, *, frameworks: Optional[Sequence[str]] = None,
                  no_wiki: bool = False, wsj_ids: bool = False) -> Report:
    """Validate every graph of a file (``-`` for stdin); never raises for bad input.

    ``fmt``: the format (default: from the extension, else mrp); ``framework``:
    the framework whose rules apply (default: each graph's own; for formats
    that name none it is the graph's framework); ``text``: id -> input string
    (anchors SDP/EDS; for MRP it is the expected ``input``); ``frameworks``:
    validate only graphs of these frameworks (mrp-score's selection);
    ``no_wiki``/``wsj_ids``: how AMR Penman is read.  A file that cannot be
    used (missing, a directory, compressed, no UTF-8 line, no graph) gives a
    report with ``fatal`` set and no problems.
    """
    name = display_name(path)
    try:
        fmt = fmt or infer_format(path, "mrp")
        if fmt == "umr":
            from .validate_umr import validate_umr

            return validate_umr(path, framework)
        report = Report(name, fmt)
        state = _Graphs(report, framework, text, frameworks)
        lines = _Watched(path)
        if fmt == "mrp":
            _read_mrp(lines, state)
        else:
            framework = framework or implied_framework(fmt)
            options = ReadOptions(framework, text, no_wiki, wsj_ids)
            state.framework = framework
            state.text = None
            _read_other(fmt, options, state, lines)
    except (InputError, FormatError) as error:
        return Report(name, fmt or "?", fatal=str(error))
    if not lines.text:
        why = ("no line is UTF-8 text" if lines.undecodable
               else "holds no graphs (empty, or only blank lines)")
        return Report(name, fmt, fatal=f"{name}: {why}")
    return report


def validate_for_score(path: str, fmt: str, options: ReadOptions,
                       frameworks: Optional[Sequence[str]] = None) -> Report:
    """Validate a file as mrp-score reads it (its --format, read options and --framework selection).

    For ``mrp-score --validate``: print ``report.problems`` (one per line) and
    ``report.summary()`` on stderr, then score as usual; ``report.unreadable``
    means the scorer cannot read the file either.
    """
    return validate_file(path, fmt, options.framework, options.text, frameworks=frameworks,
                         no_wiki=options.no_wiki, wsj_ids=options.wsj_ids)

"""Elementary Dependency Structures in the native EDS text format: reader and writer.

A graph is an optional ``#id`` line, then ``{top:`` (the top handle, possibly
empty), one node per line, and ``}``::

    handle:label<from:to>("carg"){type PROP val, ...}[ROLE handle, ...]

where the lnk ``<from:to>``, the carg ``("...")`` and the property block
``{...}`` are optional.  Nodes get ids ``0..n-1`` in line order; the carg is the
property ``carg``, placed first; the type letter of the property block is
dropped; the argument list gives the edges.  The input comes from
``options.text`` by id (the format itself has no sentence).
"""

from __future__ import annotations

import json
import re
from typing import Dict, Iterable, Iterator, List, Optional, TextIO, Tuple, Union

from ..errors import FormatError, excerpt
from ..graph import Edge, Graph, Node
from ..source import Line, is_unicode
from .base import Item, ReadOptions, WriteOptions, write_blocks

_NODE = re.compile(
    r"""\s*\|?(?P<handle>[^\s:]+):
    (?P<label>[^\s<(\[{]+|"(?:[^"\\]|\\.)*")
    (?:<(?P<start>-?\d+):(?P<end>-?\d+)>)?
    (?:\("(?P<carg>(?:[^"\\]|\\.)*)"\))?
    (?:\{(?P<properties>[^}]*)\})?
    \[(?P<arguments>[^\]]*)\]\s*,?\s*$""",
    re.VERBOSE,
)
_OPEN = re.compile(r"\s*\{(?P<top>[^\s:]*):(?:\s*\([^)]*\))?\s*$")
_UNSAFE = re.compile(r'[\s<>(){}\[\],"]')


class _Bad(Exception):
    """A problem in one graph (internal; becomes a FormatError)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _unescape(text: str) -> str:
    try:
        value = json.loads(f'"{text}"')
    except ValueError:
        return text
    # an escape of a lone surrogate (\ud800) stays as written, like a bad escape
    return value if isinstance(value, str) and is_unicode(value) else text


def _pairs(text: str, what: str, line: int) -> List[Tuple[str, str]]:
    pairs: List[Tuple[str, str]] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        parts = item.split()
        if len(parts) != 2:
            raise _Bad(f"{what} '{excerpt(item)}' is not 'NAME value'", line)
        pairs.append((parts[0], parts[1]))
    return pairs


class _Builder:
    """The nodes and edges of one graph while its lines are read."""

    def __init__(self, gid: str, top: str, line: int, start: int) -> None:
        self.gid = gid
        self.top = top
        self.line = line
        self.start = start
        self.handles: Dict[str, int] = {}
        self.nodes: List[Node] = []
        self.arguments: List[Tuple[int, str, str, int]] = []

    def add(self, text: str, line: int) -> None:
        match = _NODE.match(text)
        if match is None:
            raise _Bad(f"not an EDS node line: {text.strip()[:80]!r}", line)
        handle = match.group("handle")
        if handle in self.handles:
            raise _Bad(f"node handle '{excerpt(handle)}' is used twice", line)
        node = Node(id=len(self.nodes))
        label = match.group("label")
        node.label = _unescape(label[1:-1]) if label.startswith('"') else label
        if match.group("start") is not None:
            try:
                node.anchors = [(int(match.group("start")), int(match.group("end")))]
            except ValueError:  # more digits than int() takes (sys.get_int_max_str_digits)
                raise _Bad(f"node '{excerpt(handle)}': anchor has too many digits", line) from None
        if match.group("carg") is not None:
            node.properties.append("carg")
            node.values.append(_unescape(match.group("carg")))
        block = match.group("properties")
        if block is not None and block.strip():
            kind, _, rest = block.strip().partition(" ")
            for name, value in _pairs(rest, "property", line):
                node.properties.append(name)
                node.values.append(value)
        for role, target in _pairs(match.group("arguments"), "argument", line):
            self.arguments.append((node.id, role, target, line))
        self.handles[handle] = node.id
        self.nodes.append(node)

    def graph(self, options: ReadOptions) -> Graph:
        edges = []
        for source, role, target, line in self.arguments:
            if target not in self.handles:
                raise _Bad(f"argument {excerpt(role)} names the unknown node '{excerpt(target)}'", line)
            edges.append(Edge(source=source, target=self.handles[target], label=role))
        tops = []
        if self.top:
            if self.top not in self.handles:
                raise _Bad(f"top '{excerpt(self.top)}' names no node", self.line)
            tops.append(self.handles[self.top])
        graph = Graph(id=self.gid, framework=options.framework or "eds", flavor=1,
                      tops=tops, nodes=self.nodes, edges=edges, line=self.start)
        if options.text is not None:
            text = options.text.get(self.gid)
            if text is None:
                raise _Bad(f"no sentence for graph '{self.gid}' in the text table (--text)", self.line)
            graph.input = text
        return graph


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from a native EDS file; a graph that cannot be read yields a FormatError
    and reading goes on after its closing ``}``."""
    gid: Optional[str] = None
    id_line: Optional[int] = None
    builder: Optional[_Builder] = None
    failed: Optional[str] = None  # id of a graph whose remaining lines are skipped
    position = 0
    framework = options.framework or "eds"
    for line in lines:
        if isinstance(line, FormatError):
            if builder is not None:
                line.graph_id = builder.gid
                failed, builder = builder.gid, None
            line.framework = framework
            yield line
            continue
        text = line.text
        stripped = text.strip()
        if failed is not None:
            if stripped == "}":
                failed = None
                continue
            if stripped.startswith("#") or _OPEN.match(text):
                failed = None
            else:
                continue
        if not stripped:
            continue
        if builder is None:
            if stripped.startswith("#"):
                gid = stripped[1:].strip() or None
                id_line = line.number
                continue
            opening = _OPEN.match(text)
            if opening is None:
                yield FormatError(f"expected '#id' or '{{top:', not {stripped[:80]!r}", name,
                                  line.number, gid, framework)
                continue
            builder = _Builder(gid if gid is not None else str(position), opening.group("top"),
                               line.number, id_line if gid is not None and id_line else line.number)
            gid, id_line = None, None
            position += 1
            continue
        if stripped == "}":
            try:
                yield builder.graph(options)
            except _Bad as bad:
                yield FormatError(bad.message, name, bad.line, builder.gid, framework)
            builder = None
            continue
        try:
            builder.add(text, line.number)
        except _Bad as bad:
            yield FormatError(bad.message, name, bad.line, builder.gid, framework)
            failed = builder.gid
            builder = None
    if builder is not None:
        yield FormatError("graph has no closing '}'", name, builder.line, builder.gid, framework)


class _Unwritable(Exception):
    """A graph that the EDS format cannot represent (internal; becomes a FormatError)."""


def _safe(text: str, what: str) -> str:
    if not text or _UNSAFE.search(text):
        raise _Unwritable(f"{what} {text!r} cannot be written in EDS")
    return text


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def format_graph(graph: Graph) -> str:
    """The native EDS text of one graph (``#id`` line, ``{top:``, node lines, ``}``)."""
    try:
        return _format(graph)
    except _Unwritable as error:
        raise FormatError(f"cannot be written as EDS: {error}", graph_id=graph.id,
                          framework=graph.framework) from None


def _format(graph: Graph) -> str:
    handles = {node.id: f"_{k}" for k, node in enumerate(graph.nodes)}
    if len(graph.tops) > 1:
        raise _Unwritable(f"graph has {len(graph.tops)} tops (EDS has one)")
    arguments: Dict[int, List[str]] = {node.id: [] for node in graph.nodes}
    for edge in graph.edges:
        if edge.source not in handles or edge.target not in handles:
            raise _Unwritable(f"edge {edge.source} -> {edge.target} names no node")
        if edge.attributes:
            raise _Unwritable(f"edge {edge.source} -> {edge.target} has attributes")
        role = _safe(edge.label or "", "edge label")
        arguments[edge.source].append(f"{role} {handles[edge.target]}")
    top = ""
    if graph.tops:
        if graph.tops[0] not in handles:
            raise _Unwritable(f"top {graph.tops[0]} names no node")
        top = handles[graph.tops[0]]
    lines = [f"#{graph.id}", f"{{{top}:"]
    for node in graph.nodes:
        if node.label is None:
            raise _Unwritable(f"node {node.id} has no label")
        label = node.label if not _UNSAFE.search(node.label) and node.label else f'"{_quote(node.label)}"'
        parts = [f" {handles[node.id]}:{label}"]
        if node.anchors:
            if len(node.anchors) != 1:
                raise _Unwritable(f"node {node.id} has {len(node.anchors)} anchors (EDS has one span)")
            start, end = node.anchors[0]
            parts.append(f"<{start}:{end}>")
        carg: Optional[str] = None
        others: List[str] = []
        for name, value in zip(node.properties, node.values):
            if name == "carg" and carg is None:
                carg = str(value)
            else:
                others.append(f"{_safe(str(name), 'property name')} {_safe(str(value), 'property value')}")
        if carg is not None:
            parts.append(f'("{_quote(carg)}")')
        if others:
            parts.append("{u " + ", ".join(others) + "}")
        parts.append("[" + ", ".join(arguments[node.id]) + "]")
        lines.append("".join(parts))
    lines.append("}")
    return "\n".join(lines)


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write graphs in the native EDS format, separated by blank lines."""
    write_blocks(graphs, out, options, format_graph)

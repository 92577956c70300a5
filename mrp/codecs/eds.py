"""Elementary Dependency Structures in the native EDS text format: reader and writer.

A graph is an optional ``#id``, then ``{top:`` (the top handle, possibly
empty), its nodes (one per line, or separated by commas on one line), and
``}``; graphs are framed by balanced braces, so a graph may span many lines,
one line (``#2 {e2: e2:_rain_v_1<3:9>[]}``), or share a line with others.
A node is::

    handle:label<from:to>("carg"){type PROP val, ...}[ROLE handle, ...]

where the lnk ``<from:to>``, the carg ``("...")`` and the property block
``{...}`` are optional.  Nodes get ids ``0..n-1`` in order; the carg is the
property ``carg``, placed first; the type letter of the property block is
dropped; the argument list gives the edges.  The input comes from
``options.text`` by id (the format itself has no sentence).
"""

from __future__ import annotations

import json
import re
from typing import Dict, Iterable, Iterator, List, Optional, TextIO, Tuple, Union

from mrp.codecs.base import (
    Bad,
    Codec,
    Item,
    ReadOptions,
    Unwritable,
    WriteOptions,
    cannot_write,
    id_line_safe,
    write_blocks,
)
from mrp.codecs.framing import Chunk, Lines, scan
from mrp.errors import FormatError, excerpt
from mrp.graph import Edge, Graph, Node
from mrp.io.source import Line, is_unicode

#: ``{`` and a top node's name (``{e3:``) at the start of a line
_EDS_TOP = re.compile(r"\{\s*[^\W\d]\w*\s*:")


def _sniff(line: str, after: Iterable[str]) -> Optional[str]:
    """``{`` and a top node's name (``{e3:``) is EDS native text."""
    return "eds" if _EDS_TOP.match(line) else None


#: the codec's facts (mrp.codecs reads them)
CODEC = Codec(formats={"eds": "eds"}, extensions={".eds": "eds"}, sniff=_sniff)

_NODE = re.compile(
    r"""\|?(?P<handle>[^\s:{}\[\],]+):
    (?P<label>[^\s<(\[{]+|"(?:[^"\\]|\\.)*")
    (?:<(?P<start>-?\d+):(?P<end>-?\d+)>)?
    (?:\("(?P<carg>(?:[^"\\]|\\.)*)"\))?
    (?:\{(?P<properties>[^}]*)\})?
    \[(?P<arguments>[^\]]*)\]""",
    re.VERBOSE,
)
_OPEN = re.compile(r"\{(?P<top>[^\s:{}]*):(?:\s*\([^)]*\))?")
#: ``#id`` followed on the same line by a graph: ``#2 {e2: ...}``
_ID_THEN_GRAPH = re.compile(r"#\s*(?P<id>\S*)\s+(?=\{)")
_UNSAFE = re.compile(r'[\s<>(){}\[\],"]')




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
            raise Bad(f"{what} '{excerpt(item)}' is not 'NAME value'", line)
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

    def add(self, match: re.Match[str], line: int) -> None:
        handle = match.group("handle")
        if handle in self.handles:
            raise Bad(f"node handle '{excerpt(handle)}' is used twice", line)
        node = Node(id=len(self.nodes))
        label = match.group("label")
        node.label = _unescape(label[1:-1]) if label.startswith('"') else label
        if match.group("start") is not None:
            try:
                node.anchors = [(int(match.group("start")), int(match.group("end")))]
            except ValueError:  # more digits than int() takes (sys.get_int_max_str_digits)
                raise Bad(f"node '{excerpt(handle)}': anchor has too many digits", line) from None
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
                raise Bad(f"argument {excerpt(role)} names the unknown node '{excerpt(target)}'", line)
            edges.append(Edge(source=source, target=self.handles[target], label=role))
        tops = []
        if self.top:
            if self.top not in self.handles:
                raise Bad(f"top '{excerpt(self.top)}' names no node", self.line)
            tops.append(self.handles[self.top])
        graph = Graph(id=self.gid, framework=options.framework or "eds", flavor=1,
                      tops=tops, nodes=self.nodes, edges=edges, line=self.start)
        if options.text is not None:
            text = options.text.get(self.gid)
            if text is None:
                raise Bad(f"no sentence for graph '{self.gid}' in the text table (--text)", self.line)
            graph.input = text
        return graph


def _skip(text: str, position: int, end: int) -> int:
    """The position after white space and commas (between nodes and graphs)."""
    while position < end and (text[position].isspace() or text[position] == ","):
        position += 1
    return position


class _Frame:
    """One ``{...}`` chunk with the id given before it (None: positional)."""

    def __init__(self, gid: Optional[str], id_line: Optional[int]) -> None:
        self.gid = gid
        self.id_line = id_line
        self.chunk = Chunk()
        self.closed = False


def _frames(lines: Lines, name: str, framework: str) -> Iterator[Union[_Frame, FormatError]]:
    """Graph chunks by balanced braces outside strings, and the text that is neither id nor graph.

    A graph left open ends at a blank line, a ``#id`` line or a line that opens a new
    graph (a node never starts a line with ``{``), so the next graph keeps its id.
    """
    gid: Optional[str] = None
    id_line: Optional[int] = None
    frame: Optional[_Frame] = None
    depth = 0
    for line in lines:
        if isinstance(line, FormatError):
            if frame is not None:
                frame.chunk.bad.append(line)
            else:
                line.framework = framework
                yield line
            continue
        text, position = line.text, 0
        if frame is not None:
            stripped = text.lstrip()
            if not stripped or stripped[0] in "#{":
                yield frame
                frame = None
            else:
                end, depth = scan(text, 0, depth, "{", "}")
                if end < 0:
                    frame.chunk.add(line)
                    continue
                frame.chunk.add(line, 0, end)
                frame.closed = True
                yield frame
                frame, position = None, end
        while True:
            position = _skip(text, position, len(text))
            if position >= len(text):
                break
            if text[position] == "#":
                both = _ID_THEN_GRAPH.match(text, position)
                if both is None:
                    gid, id_line = text[position + 1:].strip() or None, line.number
                    break
                gid, id_line, position = both.group("id") or None, line.number, both.end()
                continue
            if text[position] != "{":
                yield FormatError(f"expected '#id' or '{{top:', not {excerpt(text[position:].strip())!r}",
                                  name, line.number, gid, framework)
                break
            frame = _Frame(gid, id_line)
            gid, id_line = None, None
            end, depth = scan(text, position, 0, "{", "}")
            if end < 0:
                frame.chunk.add(line, position)
                break
            frame.chunk.add(line, position, end)
            frame.closed = True
            yield frame
            frame, position = None, end
    if frame is not None:
        yield frame


def _decode(frame: _Frame, gid: str, options: ReadOptions) -> Graph:
    """The graph of a closed chunk ``{top: node, ...}``; Bad naming the line of a problem."""
    chunk = frame.chunk
    text = chunk.text()
    opening = _OPEN.match(text)
    assert opening is not None
    first = chunk.lines[0].number
    start = frame.id_line if frame.gid is not None and frame.id_line else first
    builder = _Builder(gid, opening.group("top"), first, start)
    position, end = opening.end(), len(text) - 1
    while True:
        position = _skip(text, position, end)
        if position >= end:
            break
        match = _NODE.match(text, position, end)
        if match is None:
            rest = text[position:end].split("\n", 1)[0].strip()
            raise Bad(f"not an EDS node: {excerpt(rest)!r}", chunk.line_at(position))
        builder.add(match, chunk.line_at(match.start()) or first)
        position = match.end()
    return builder.graph(options)


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from a native EDS file (framed by balanced braces: one graph per line, over many
    lines, or several on a line); a graph that cannot be read yields a FormatError."""
    position = 0
    framework = options.framework or "eds"
    for frame in _frames(lines, name, framework):
        if isinstance(frame, FormatError):
            yield frame
            continue
        chunk = frame.chunk
        if not chunk.lines or _OPEN.match(chunk.lines[0].text) is None:
            shown = chunk.lines[0].text.strip() if chunk.lines else ""
            yield FormatError(f"expected '#id' or '{{top:', not {excerpt(shown)!r}", name,
                              chunk.first, frame.gid, framework)
            continue
        gid = frame.gid if frame.gid is not None else str(position)
        position += 1
        if chunk.bad:
            for error in chunk.bad:
                error.graph_id, error.framework = gid, framework
                yield error
            continue
        if not frame.closed:
            yield FormatError("graph has no closing '}'", name, chunk.lines[0].number, gid, framework)
            continue
        try:
            yield _decode(frame, gid, options)
        except Bad as bad:
            yield FormatError(bad.message, name, bad.line, gid, framework)


def _safe(text: str, what: str) -> str:
    if not text or _UNSAFE.search(text):
        raise Unwritable(f"{what} {text!r} cannot be written in EDS")
    return text


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def format_graph(graph: Graph) -> str:
    """The native EDS text of one graph (``#id`` line, ``{top:``, node lines, ``}``)."""
    try:
        return _format(graph)
    except Unwritable as error:
        raise cannot_write(graph, "EDS", error) from None


def _format(graph: Graph) -> str:
    handles = {node.id: f"_{k}" for k, node in enumerate(graph.nodes)}
    if len(graph.tops) > 1:
        raise Unwritable(f"graph has {len(graph.tops)} tops (EDS has one)")
    arguments: Dict[int, List[str]] = {node.id: [] for node in graph.nodes}
    for edge in graph.edges:
        if edge.source not in handles or edge.target not in handles:
            raise Unwritable(f"edge {edge.source} -> {edge.target} names no node")
        if edge.attributes:
            raise Unwritable(f"edge {edge.source} -> {edge.target} has attributes")
        role = _safe(edge.label or "", "edge label")
        arguments[edge.source].append(f"{role} {handles[edge.target]}")
    top = ""
    if graph.tops:
        if graph.tops[0] not in handles:
            raise Unwritable(f"top {graph.tops[0]} names no node")
        top = handles[graph.tops[0]]
    lines = [f"#{id_line_safe(graph.id, ('{',))}", f"{{{top}:"]
    for node in graph.nodes:
        if node.label is None:
            raise Unwritable(f"node {node.id} has no label")
        label = node.label if not _UNSAFE.search(node.label) and node.label else f'"{_quote(node.label)}"'
        parts = [f" {handles[node.id]}:{label}"]
        if node.anchors:
            if len(node.anchors) != 1:
                raise Unwritable(f"node {node.id} has {len(node.anchors)} anchors (EDS has one span)")
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

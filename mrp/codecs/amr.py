"""AMR in Penman notation: reader and writer, through the ``penman`` library.

Reading: blank-line separated blocks (a ``#`` line after graph lines also
starts a new block); ``# ::id`` and ``# ::snt`` metadata give the id and the
input; blocks without a graph (LDC headers, plain comments) are skipped; a
graph without an id gets its position in the file ("0", "1", ...).  Concepts
become node labels, constants become node properties (values are strings, in
order; quoted constants are kept whole), relations between nodes become edges
as written, with ``normal`` for inverted roles (``ARG1-of`` -> ``ARG1``, and
``mod`` -> ``domain``, as in the MRP 2019 AMR data).  Node ids are ``0..n-1``
in order of definition; the first node is the top.

Property values and labels read from Penman are :class:`Quoted` or
:class:`Symbol` strings (plain ``str`` subclasses), so that writing them back
reproduces the quoting of the file.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set, TextIO, Tuple, Union

import penman
from penman._lexer import lex
from penman._parse import _parse as _parse_tokens

from ..errors import FormatError, excerpt
from ..graph import Branch, Edge, Graph, Node
from ..source import Line, is_unicode
from .base import Item, ReadOptions, WriteOptions, write_blocks

_ALIGNMENT = re.compile(r"~(?:[a-z]\.?)?[0-9]+(?:,[0-9]+)*$")
_WSJ = re.compile(r"(?:^|[._])wsj_(\d{4})\.(\d+)$")
_SYMBOL = re.compile(r'[^ \t\r\n\v\f"()/:~]+')
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_MODES = frozenset({"imperative", "interrogative", "expressive"})


class Quoted(str):
    """A string that was written in double quotes in Penman."""

    __slots__ = ()


class Symbol(str):
    """A string that was written without quotes in Penman."""

    __slots__ = ()


class _Bad(Exception):
    """A problem in one graph (internal; becomes a FormatError)."""

    def __init__(self, message: str, line: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def normal_role(label: Optional[str]) -> Optional[str]:
    """The normal (non-inverted) role of an inverted AMR role, else None.

    ``mod`` -> ``domain``; ``X-of`` -> ``X`` unless it is a ``prep-`` role
    (``consist-of`` included, as in the MRP 2019 AMR data).
    """
    if label is None:
        return None
    if label == "mod":
        return "domain"
    if label.endswith("-of-of") or (label.endswith("-of") and not label.startswith("prep-")):
        return label[:-3] or None
    return None


def map_wsj_id(gid: str) -> str:
    """The MRP id of a WSJ-style AMR id (``nw.wsj_0001.1`` -> ``20001001``); other ids unchanged."""
    match = _WSJ.search(gid)
    if match is None:
        return gid
    document, sentence = match.groups()
    return f"2{document}{int(sentence):03d}"


# --------------------------------------------------------------------------- reading


def _blocks(lines: Iterable[Union[Line, FormatError]]) -> Iterator[Tuple[List[Line], List[FormatError]]]:
    """Lines of one graph each (comments and graph lines), split at blank lines and at
    a comment line that follows graph lines; with the unreadable lines of the block."""
    block: List[Line] = []
    bad: List[FormatError] = []
    has_graph = False
    for line in lines:
        if isinstance(line, FormatError):
            bad.append(line)
            continue
        stripped = line.text.strip()
        if not stripped:
            if block or bad:
                yield block, bad
            block, bad, has_graph = [], [], False
            continue
        if stripped.startswith("#"):
            if has_graph:
                yield block, bad
                block, bad, has_graph = [], [], False
        else:
            has_graph = True
        block.append(line)
    if block or bad:
        yield block, bad


def _metadata(comments: List[Line]) -> Dict[str, str]:
    """``::key value`` pairs of the comment lines (``::snt`` and ``::tok`` take the rest of the line)."""
    data: Dict[str, str] = {}
    for line in comments:
        text = line.text.lstrip()[1:]
        for match in re.finditer(r"::(\S+)[ \t]?", text):
            key = match.group(1)
            rest = text[match.end():]
            if key in ("snt", "tok"):
                value = rest
            else:
                value = rest.split(" ::", 1)[0]
            data.setdefault(key, value.strip())
            if key in ("snt", "tok"):
                break
    return data


def _strip_alignment(text: str) -> str:
    if "~" in text:
        return _ALIGNMENT.sub("", text)
    return text


def _constant(text: str) -> str:
    """The value of a Penman constant: a Quoted string for quoted text, else a Symbol."""
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        try:
            value = json.loads(text)
        except ValueError:
            value = text[1:-1]
        if not isinstance(value, str) or not is_unicode(value):
            value = text[1:-1]  # an escape of a lone surrogate stays as written, like a bad escape
        return Quoted(value)
    return Symbol(text)


class _Warnings(logging.Filter):
    """Collects (and silences) the warnings that penman logs for input it tolerates."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: List[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        self.messages.append(record.getMessage())
        return False


_PENMAN_LOGGER = logging.getLogger("penman")


def _tree(graph_lines: List[Line]) -> penman.Tree:
    """The Penman tree of the graph lines; _Bad with the file line of a syntax error."""
    tokens = lex([line.text for line in graph_lines])
    warnings = _Warnings()
    _PENMAN_LOGGER.addFilter(warnings)
    try:
        tree = _parse_tokens(tokens)
        if warnings.messages:
            message, _, text = warnings.messages[0].partition(": ")
            number = next((line.number for line in graph_lines if line.text == text),
                          graph_lines[0].number)
            raise _Bad(f"Penman syntax error: {message.lower()}", number)
        while tokens and tokens.peek().type == "COMMENT":
            tokens.next()
        if tokens:
            extra = tokens.peek()
            raise penman.DecodeError(f"unexpected '{excerpt(extra.text)}' after the end of the graph",
                                     lineno=extra.lineno, offset=extra.offset)
    except penman.DecodeError as error:
        number = graph_lines[-1].number
        if error.lineno:
            number = graph_lines[min(error.lineno, len(graph_lines)) - 1].number
        where = f" (column {error.offset + 1})" if error.offset is not None else ""
        raise _Bad(f"Penman syntax error{where}: {error.message}", number) from None
    finally:
        _PENMAN_LOGGER.removeFilter(warnings)
    return tree


def _preorder(root: Any) -> List[Any]:
    """The nodes of a Penman tree in depth-first order of their definitions (no recursion)."""
    order: List[Any] = []
    stack = [root]
    while stack:
        node = stack.pop()
        order.append(node)
        children = [target for _, target in node[1] if isinstance(target, tuple)]
        stack.extend(reversed(children))
    return order


def _convert(tree: penman.Tree, gid: str, options: ReadOptions) -> Graph:
    order = _preorder(tree.node)
    ids: Dict[int, int] = {}
    variables: Dict[str, int] = {}
    for k, node in enumerate(order):
        ids[id(node)] = k
        var = node[0]
        if var in variables:
            raise _Bad(f"variable '{excerpt(var)}' is defined twice")
        variables[var] = k
    nodes: List[Node] = []
    edges: List[Edge] = []
    layout: Dict[int, List[Branch]] = {}
    for k, (var, branches) in enumerate(order):
        node = Node(id=k)
        written = layout[k] = []
        for role, target in branches:
            if role == "/":
                if target is not None:
                    node.label = _constant(_strip_alignment(target))
                continue
            label = _strip_alignment(role)[1:]
            if isinstance(target, tuple):
                edges.append(Edge(k, ids[id(target)], label, normal_role(label)))
                written.append((label, ids[id(target)], True))
                continue
            if target is None:
                raise _Bad(f"role :{excerpt(label)} of '{excerpt(var)}' has no value")
            text = _strip_alignment(target)
            if not text.startswith('"') and text in variables:
                edges.append(Edge(k, variables[text], label, normal_role(label)))
                written.append((label, variables[text], False))
                continue
            if label == "wiki" and options.no_wiki:
                continue
            node.properties.append(label)
            node.values.append(_constant(text))
            written.append((label, node.values[-1], False))
        nodes.append(node)
    return Graph(id=gid, framework=options.framework or "amr", flavor=2, tops=[0],
                 nodes=nodes, edges=edges, layout=layout)


def tree_graph(tree: penman.Tree, gid: str, options: ReadOptions) -> Tuple[Graph, List[str]]:
    """The graph of a Penman tree as this reader builds it, and the variable of each node (by node id).

    Raises ValueError naming the problem (a variable defined twice, a role without a value).
    """
    try:
        graph = _convert(tree, gid, options)
    except _Bad as bad:
        raise ValueError(bad.message) from None
    return graph, [var for var, _ in _preorder(tree.node)]


def _graph(block: List[Line], position: int, options: ReadOptions) -> Graph:
    """The graph of one block; _BadGraph (with the graph id) when it cannot be read."""
    comments = [line for line in block if line.text.lstrip().startswith("#")]
    graph_lines = [line for line in block if not line.text.lstrip().startswith("#")]
    meta = _metadata(comments)
    gid = meta.get("id") or str(position)
    if options.wsj_ids:
        gid = map_wsj_id(gid)
    try:
        try:
            tree = _tree(graph_lines)
            graph = _convert(tree, gid, options)
        except RecursionError:
            raise _Bad("graph is nested too deeply to be read", graph_lines[0].number) from None
        # the text table wins; a graph missing from it keeps its own ::snt (the CLI warns)
        text = options.text.get(gid) if options.text is not None else None
        graph.input = text if text is not None else meta.get("snt")
    except _Bad as bad:
        raise _BadGraph(gid, bad) from None
    graph.line = block[0].number
    return graph


class _BadGraph(Exception):
    """A graph that cannot be read, with its id (internal; becomes a FormatError)."""

    def __init__(self, gid: str, bad: _Bad) -> None:
        super().__init__(bad.message)
        self.gid = gid
        self.bad = bad


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from a Penman AMR file; a graph that cannot be read yields a FormatError."""
    position = 0
    for block, bad in _blocks(lines):
        if bad:
            gid = _metadata([line for line in block if line.text.lstrip().startswith("#")]).get("id")
            if gid is not None and options.wsj_ids:
                gid = map_wsj_id(gid)
            for error in bad:
                error.graph_id = gid
                yield error
            if any(not line.text.lstrip().startswith("#") for line in block):
                position += 1
            continue
        if all(line.text.lstrip().startswith("#") for line in block):
            continue
        try:
            graph = _graph(block, position, options)
        except _BadGraph as error:
            line = error.bad.line if error.bad.line is not None else block[0].number
            yield FormatError(error.bad.message, name, line, error.gid, options.framework or "amr")
        else:
            yield graph
        position += 1


# --------------------------------------------------------------------------- writing


class _Unwritable(Exception):
    """A graph that Penman cannot represent (internal; becomes a FormatError)."""


def _format_constant(value: Any, role: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = "" if value is None else str(value)
    if isinstance(value, Quoted):
        return json.dumps(text, ensure_ascii=False)
    symbol = _SYMBOL.fullmatch(text) is not None and not text.startswith("#")
    if isinstance(value, Symbol) and symbol:
        return text
    if symbol and (_NUMBER.fullmatch(text) or text in ("-", "+") or (role == "mode" and text in _MODES)):
        return text
    return json.dumps(text, ensure_ascii=False)


def _format_label(label: str) -> str:
    if isinstance(label, Quoted) or _SYMBOL.fullmatch(label) is None or label.startswith("#"):
        return json.dumps(label, ensure_ascii=False)
    return label


def _inverse(label: str) -> str:
    return label[:-3] if label.endswith("-of") else label + "-of"


def _check(graph: Graph) -> int:
    if not graph.nodes:
        raise _Unwritable("graph has no nodes")
    if len(graph.tops) > 1:
        raise _Unwritable(f"graph has {len(graph.tops)} tops (Penman has one root)")
    known = {node.id for node in graph.nodes}
    for edge in graph.edges:
        if edge.source not in known or edge.target not in known:
            raise _Unwritable(f"edge {edge.source} -> {edge.target} names no node")
        if edge.attributes:
            raise _Unwritable(f"edge {edge.source} -> {edge.target} has attributes")
        if edge.label is None or _SYMBOL.fullmatch(edge.label) is None:
            raise _Unwritable(f"edge {edge.source} -> {edge.target} has label {edge.label!r}")
    for node in graph.nodes:
        for name in node.properties:
            if not isinstance(name, str) or _SYMBOL.fullmatch(name) is None:
                raise _Unwritable(f"node {node.id} has property name {name!r}")
    top = graph.tops[0] if graph.tops else graph.nodes[0].id
    if top not in known:
        raise _Unwritable(f"top {top} names no node")
    return top


def _layout(graph: Graph, top: int, strict: bool, ordered: bool) -> Optional[Any]:
    """A Penman tree whose variables are node ids, or None when this layout cannot reach every node.

    The strict layout follows edges as written and nests a node only where it
    comes next in node order, so that reading the output gives the same node
    ids; the relaxed one nests each node at its first visit and may follow an
    edge backwards (writing it with the inverse role).  With ``ordered``, the
    edges of a node are written in their order in the graph, else in the node
    order of their other ends.
    """
    position = {node.id: k for k, node in enumerate(graph.nodes)}
    if strict and position[top] != 0:
        return None
    by_id = {node.id: node for node in graph.nodes}
    forward: Dict[int, List[int]] = {node.id: [] for node in graph.nodes}
    backward: Dict[int, List[int]] = {node.id: [] for node in graph.nodes}
    for k, edge in enumerate(graph.edges):
        forward[edge.source].append(k)
        backward[edge.target].append(k)

    def branches(node_id: int) -> Tuple[int, List[Any]]:
        node = by_id[node_id]
        result: List[Any] = []
        if node.label is not None:
            result.append(("/", _format_label(node.label)))
        for name, value in zip(node.properties, node.values):
            result.append((":" + name, _format_constant(value, name)))
        return (node_id, result)

    def candidates(node_id: int) -> Iterator[Tuple[int, bool]]:
        if ordered:
            items = [(k, False) for k in forward[node_id]]
        else:
            items = [(k, False) for k in sorted(forward[node_id],
                                                key=lambda k: position[graph.edges[k].target])]
        if not strict:
            items += [(k, True) for k in sorted(backward[node_id],
                                                key=lambda k: position[graph.edges[k].source])]
        return iter(items)

    trees = {top: branches(top)}
    visited = {top}
    written: Set[int] = set()
    following = 1
    stack = [(top, candidates(top))]
    while stack:
        current, items = stack[-1]
        for k, inverted in items:
            if k in written:
                continue
            edge = graph.edges[k]
            other = edge.source if inverted else edge.target
            if inverted and other in visited:
                continue
            label = str(edge.label)
            role = ":" + (_inverse(label) if inverted else label)
            written.add(k)
            if other not in visited and (not strict or position[other] == following):
                visited.add(other)
                following += 1
                trees[other] = branches(other)
                trees[current][1].append((role, trees[other]))
                stack.append((other, candidates(other)))
                break
            trees[current][1].append((role, other))
        else:
            stack.pop()
    if len(visited) != len(graph.nodes):
        return None
    return trees[top]


def _variables(root: Any, graph: Graph, given: Optional[Dict[int, str]] = None) -> penman.Tree:
    """A Penman tree with the ``given`` variables, else AMR-style ones (first letter of the concept,
    numbered)."""
    names: Dict[int, str] = dict(given or {})
    counts: Dict[str, int] = {}
    by_id = {node.id: node for node in graph.nodes}
    for node_id, _ in _preorder(root) if given is None else []:
        label = by_id[node_id].label or "x"
        letters = [c for c in str(label).lower() if "a" <= c <= "z"]
        prefix = letters[0] if letters else "x"
        counts[prefix] = counts.get(prefix, 0) + 1
        names[node_id] = prefix if counts[prefix] == 1 else f"{prefix}{counts[prefix]}"

    def rename(node: Any) -> Any:
        node_id, branches = node
        renamed = []
        for role, target in branches:
            if isinstance(target, tuple):
                renamed.append((role, rename(target)))
            elif isinstance(target, int) and role != "/":
                renamed.append((role, names[target]))
            else:
                renamed.append((role, target))
        return (names[node_id], renamed)

    return penman.Tree(rename(root))


def penman_text(graph: Graph, variables: Optional[Dict[int, str]] = None, indent: int = 6) -> str:
    """The Penman text of a graph (no metadata); ``variables``: node id -> variable of every node
    (default: AMR-style ones); FormatError when Penman cannot represent the graph."""
    try:
        top = _check(graph)
        root = (_layout(graph, top, strict=True, ordered=True)
                or _layout(graph, top, strict=True, ordered=False)
                or _layout(graph, top, strict=False, ordered=False))
        if root is None:
            raise _Unwritable("not every node can be reached from the top")
        return penman.format(_variables(root, graph, variables), indent=indent)
    except _Unwritable as error:
        raise FormatError(f"cannot be written as Penman: {error}", graph_id=graph.id,
                          framework=graph.framework) from None
    except RecursionError:
        raise FormatError("cannot be written as Penman: graph is nested too deeply",
                          graph_id=graph.id, framework=graph.framework) from None


def format_graph(graph: Graph) -> str:
    """The Penman text of one graph, with ``# ::id`` and ``# ::snt`` metadata lines."""
    if graph.framework not in (None, "amr"):
        raise FormatError(f"cannot be written as Penman: framework {graph.framework} is not AMR",
                          graph_id=graph.id, framework=graph.framework)
    body = penman_text(graph)
    header = [f"# ::id {graph.id}"]
    if graph.input is not None:
        header.append("# ::snt " + " ".join(graph.input.split()))
    return "\n".join(header + [body])


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write graphs in Penman notation, one block per graph, separated by blank lines."""
    write_blocks(graphs, out, options, format_graph)


def read_string(text: str, options: Optional[ReadOptions] = None) -> List[Union[Graph, FormatError]]:
    """Graphs (or FormatErrors) from Penman text held in a string (for tests and tools)."""
    lines = [Line(k, line) for k, line in enumerate(text.split("\n"), start=1)]
    return list(read(lines, "<string>", options or ReadOptions()))



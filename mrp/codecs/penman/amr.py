"""AMR in Penman notation: reader and writer, through the ``penman`` library's public API.

Reading (here the graph of one frame; a file's frames in order in :mod:`.reading`): one graph per balanced
pair of parentheses (see :mod:`.framing`; a graph left open at the end of its block is closed and text
after a graph is ignored, as the original SMATCH tool reads them, and listed in ``Graph.repairs``;
``ReadOptions.strict`` refuses them); ``# ::id`` and ``# ::snt`` metadata give the id and the input;
blocks without a graph (LDC headers, plain comments) are skipped; a graph without an id gets its position
in the file ("0", "1", ...). Concepts become node labels, constants become node properties (values are
strings, in order; quoted constants are kept whole), relations between nodes become edges as written, with
``normal`` for inverted roles (``ARG1-of`` -> ``ARG1``, and ``mod`` -> ``domain``, as in the MRP 2019 AMR
data). Node ids are ``0..n-1`` in order of definition; the first node is the top.

Property values and labels read from Penman are :class:`Quoted` or
:class:`Symbol` strings (plain ``str`` subclasses), so that writing them back
(:mod:`.writer`) reproduces the quoting of the file.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from typing import Dict, Iterable, Iterator, List, Optional, TextIO, Tuple

import penman

from mrp import rules
from mrp.codecs.base import (
    Bad,
    ReadOptions,
    Unwritable,
    WriteOptions,
    cannot_write,
    id_line_safe,
    write_blocks,
)
from mrp.codecs.penman.deep import deeply
from mrp.codecs.penman.framing import Frame
from mrp.codecs.penman.keep import Style, penman_block
from mrp.codecs.penman.parse import mask, unmask
from mrp.codecs.penman.parse import parse as plain_tree
from mrp.codecs.penman.writer import Quoted, Symbol, preorder
from mrp.errors import excerpt
from mrp.graph import Branch, Edge, Graph, Node
from mrp.io.source import is_unicode
from mrp.memo import Memo

_ALIGNMENT = re.compile(r"~(?:[a-z]\.?)?[0-9]+(?:,[0-9]+)*$")
_WSJ = re.compile(r"(?:^|[._])wsj_(\d{4})\.(\d+)$")


def normal_role(label: Optional[str]) -> Optional[str]:
    """The ``normal`` of an edge read from Penman: the ``mtool`` variant of
    :func:`mrp.rules.normal_role` (``consist-of`` inverted too, as in the MRP 2019 AMR data)."""
    return rules.normal_role(label, rules.MTOOL)


def map_wsj_id(gid: str) -> str:
    """The MRP id of a WSJ-style AMR id (``nw.wsj_0001.1`` -> ``20001001``); other ids unchanged."""
    match = _WSJ.search(gid)
    if match is None:
        return gid
    document, sentence = match.groups()
    return f"2{document}{int(sentence):03d}"


# --------------------------------------------------------------------------- reading


def _strip_alignment(text: str) -> str:
    if "~" in text:
        return _ALIGNMENT.sub("", text)
    return text


def _constant(text: str) -> str:
    """The value of a Penman constant: a Quoted string for quoted text, else a Symbol."""
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        try:
            value = json.loads(text, strict=False)  # raw control characters (a form feed) allowed
        except ValueError:
            value = text[1:-1]
        if not isinstance(value, str) or not is_unicode(value):
            value = text[1:-1]  # an escape of a lone surrogate stays as written, like a bad escape
        return Quoted(value)
    return Symbol(text)


#: the warnings of penman's kept for one graph, and the characters kept of each
_KEPT_WARNINGS, _KEPT_CHARACTERS = 100, 1000


class _Warnings(logging.Filter):
    """Collects (and silences) the warnings that penman logs for input it tolerates."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: List[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if len(self.messages) < _KEPT_WARNINGS:  # a line of a million ':' logs a million warnings, each
            self.messages.append(record.getMessage()[:_KEPT_CHARACTERS])  # quoting it: 22 GB, before
        return False


_PENMAN_LOGGER = logging.getLogger("penman")


@contextlib.contextmanager
def penman_warnings() -> Iterator[List[str]]:
    """The warnings penman logs meanwhile for input it tolerates (each a reading problem to mrp), kept
    from its log.  They are collected whatever level the application set for penman's logger (with the
    level raised, penman would not log them, and a malformed graph would pass as read)."""
    warnings = _Warnings()
    level = _PENMAN_LOGGER.level
    # only where warnings are off: setLevel clears every logger's cache (a cost at every graph read)
    raised = not _PENMAN_LOGGER.isEnabledFor(logging.WARNING)
    _PENMAN_LOGGER.addFilter(warnings)
    if raised:
        _PENMAN_LOGGER.setLevel(logging.WARNING)
    try:
        yield warnings.messages
    finally:
        _PENMAN_LOGGER.removeFilter(warnings)
        if raised:
            _PENMAN_LOGGER.setLevel(level)


def _tree(frame: Frame, close: bool) -> penman.Tree:
    """The Penman tree of a frame's text (with ``close``, closed where it was left open); Bad with
    the file line."""
    chunk = frame.chunk
    text, masked = mask(chunk.text() + ")" * (frame.opened if close else 0))
    node = plain_tree(text)
    if node is not None:  # penman.parse would give the same tree, without warnings
        return penman.Tree(unmask(node, masked))
    with penman_warnings() as messages:
        try:
            tree = penman.parse(text)
        except penman.DecodeError as error:
            piece = len(chunk.lines) - 1
            if error.lineno:
                piece = min(error.lineno, len(chunk.lines)) - 1
            where = ""
            if error.offset is not None:
                where = f" (column {chunk.column(piece, error.offset) + 1})"
            raise Bad(f"Penman syntax error{where}: {error.message}", chunk.lines[piece].number) from None
    if messages:
        message, _, shown = messages[0].partition(": ")
        number = next((line.number for line in chunk.lines if line.text == shown), chunk.first)
        raise Bad(f"Penman syntax error: {message.lower()}", number)
    return penman.Tree(unmask(tree.node, masked), metadata=tree.metadata) if masked else tree


#: role -> its label and ``normal`` (the same few hundred roles recur in every graph), constant text -> its
#: value
_CONSTANTS: Memo[str, str] = Memo(1 << 16)
_ROLES: Memo[str, Tuple[str, Optional[str]]] = Memo(1 << 16)


def _role(role: str) -> Tuple[str, Optional[str]]:
    """A role as written (``:ARG0-of~e.3``) -> its label (``ARG0-of``) and the label's ``normal``."""
    found = _ROLES.get(role)
    if found is None:
        label = _strip_alignment(role)[1:]
        found = _ROLES.keep(role, (label, normal_role(label)))
    return found


def _value(text: str) -> str:
    """:func:`_constant`, remembered (the values are immutable strings)."""
    found = _CONSTANTS.get(text)
    return found if found is not None else _CONSTANTS.keep(text, _constant(text))


def _convert(tree: penman.Tree, gid: str, options: ReadOptions) -> Graph:
    order = preorder(tree.node)
    ids: Dict[int, int] = {}
    variables: Dict[str, int] = {}
    for k, node in enumerate(order):
        ids[id(node)] = k
        var = node[0]
        if var in variables:
            raise Bad(f"variable '{excerpt(var)}' is defined twice")
        variables[var] = k
    nodes: List[Node] = []
    edges: List[Edge] = []
    layout: Dict[int, List[Branch]] = {}
    no_wiki = options.no_wiki
    for k, (var, branches) in enumerate(order):
        node = Node(id=k)
        written: List[Branch] = []
        layout[k] = written
        for role, target in branches:
            if role == "/":
                if target is not None:
                    node.label = _value(_strip_alignment(target) if "~" in target else target)
                continue
            label, normal = _role(role)
            if isinstance(target, tuple):
                other = ids[id(target)]
                edges.append(Edge(k, other, label, normal))
                written.append((label, other, True))
                continue
            if target is None:
                raise Bad(f"role :{excerpt(label)} of '{excerpt(var)}' has no value")
            text = _strip_alignment(target) if "~" in target else target
            attach(node, label, normal, text, variables, edges, written, no_wiki)
        nodes.append(node)
    return Graph(id=gid, framework=options.framework or "amr", flavor=2, tops=[0],
                 nodes=nodes, edges=edges, layout=layout,
                 variables={k: node[0] for k, node in enumerate(order)})


def attach(node: Node, label: str, normal: Optional[str], text: str, variables: Dict[str, int],
           edges: List[Edge], written: List[Branch], no_wiki: bool) -> None:
    """A branch of ``node`` whose target is written as text (``text``, without its alignment): an edge to
    the node of a variable (by number), else a property of ``node`` (``:wiki`` left out with ``no_wiki``);
    the branch is added to ``written`` (the node's layout) as read."""
    if not text.startswith('"') and text in variables:
        other = variables[text]
        edges.append(Edge(node.id, other, label, normal))
        written.append((label, other, False))
        return
    if no_wiki and label == "wiki":
        return
    value = _value(text)
    node.properties.append(label)
    node.values.append(value)
    written.append((label, value, False))


def tree_graph(tree: penman.Tree, gid: str, options: ReadOptions) -> Tuple[Graph, List[str]]:
    """The graph of a Penman tree as this reader builds it, and the variable of each node (by node id).

    Raises ValueError naming the problem (a variable defined twice, a role without a value).
    """
    try:
        graph = _convert(tree, gid, options)
    except Bad as bad:
        raise ValueError(bad.message) from None
    return graph, [var for var, _ in preorder(tree.node)]


def _built(frame: Frame, gid: str, options: ReadOptions) -> Graph:
    """The graph of one frame's text with its content fields (:data:`mrp.graph.TEXT_FIELDS`) and id;
    Bad when it cannot be read."""
    try:
        return _convert(_tree(frame, not options.strict), gid, options)
    except RecursionError:  # read again with room for nesting as deep as the node limit
        try:
            return deeply(lambda: _convert(_tree(frame, not options.strict), gid, options))
        except RecursionError:
            raise Bad("graph is nested too deeply to be read", frame.chunk.first) from None


# --------------------------------------------------------------------------- writing




#: what ends a comment line as mrp reads it (and the white space around it)
_LINE_END = re.compile(r"\s*[\r\n]\s*")


def one_line(text: str) -> str:
    """A text for a ``# ::snt`` line: as it is, except that a line break (and the white space around it)
    becomes one space and white space at either end goes (the reader strips the value); every other
    character (tabs, U+2028, U+0085, ``\\f``) reads back as itself."""
    return _LINE_END.sub(" ", text).strip()


def format_graph(graph: Graph, style: Optional[Style] = None) -> str:
    """The Penman text of one graph: as its file wrote it while unchanged (:mod:`.keep`), else with
    ``# ::id`` and ``# ::snt`` metadata lines; ``style``: penman's layout options."""
    try:
        if graph.framework not in (None, "amr"):
            raise Unwritable(f"framework {graph.framework} is not AMR")
        header = [f"# ::id {id_line_safe(graph.id, (' ::',))}"]
    except Unwritable as error:
        raise cannot_write(graph, "Penman", error) from None
    if graph.input is not None:
        header.append("# ::snt " + one_line(graph.input))
    return penman_block(graph, header, style)


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write graphs in Penman notation, one block per graph, each followed by a blank line (with
    ``Style.metadata``, as penman's CLI: a blank line between graphs, none after the last)."""
    style = options.penman
    if style is None or not style.metadata:
        write_blocks(graphs, out, options, lambda graph: format_graph(graph, style))
        return
    written: List[bool] = []

    def block(graph: Graph) -> str:
        text = format_graph(graph, style)
        lead = "\n" if written else ""
        written.append(True)
        return lead + text

    write_blocks(graphs, out, options, block, separator="\n")

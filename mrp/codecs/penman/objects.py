"""``penman.Graph`` objects read without a round trip through text.

The library accepts ``penman.Graph`` objects; read as text, each would be
encoded by ``penman`` (its tree laid out, then formatted), the text framed, lexed
and parsed back into the same tree.  Here each graph is laid out as
``penman.encode`` lays it out (``penman.configure``) straight into an mrp Graph
(:mod:`.direct`); where that does not follow
penman (epidata penman would warn about or improvise on, a node defined twice),
penman's tree goes to the AMR reader's conversion, with what penman logs
meanwhile kept from the user (:func:`quiet_layout`).  The graph gets what
reading the text would give it: the id and sentence of its metadata, its line
in the text the graphs would make (``mrp.pipeline.inputs`` joins them with blank
lines), position ids for graphs without one, the limits of :mod:`mrp.io.limits`.

That holds only where the text would read back as the tree it was formatted
from: every variable, role, concept and constant one Penman token (with an
alignment), no line break or other whitespace but spaces inside a string, no
missing target, no node with two concepts, metadata on one line each.  Where
any graph of a list falls outside that, :func:`graphs_of` returns None and the
caller reads the text as before.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import penman

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.amr import Bad, _convert, map_wsj_id
from mrp.codecs.penman.direct import fast_graph
from mrp.codecs.penman.framing import Frame
from mrp.codecs.penman.tokens import ATOM, DEPTH, ROLE, TOKENS, VARIABLE, token
from mrp.codecs.penman.writer import quiet_layout
from mrp.errors import FormatError
from mrp.graph import Graph
from mrp.io.limits import MAX_EDGES, MAX_NODES, limit_problem
from mrp.io.source import Line
from mrp.memo import Memo

__all__ = ["graphs_of", "quiet_layout"]


_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def _lines(node: Any) -> Optional[int]:
    """The lines penman's format gives a tree (one per branch after a node's first), or None when
    the text of the tree would not read back as this tree."""
    roles, atoms = TOKENS[ROLE], TOKENS[ATOM]
    lines = 1
    stack = [(node, 0)]
    while stack:
        (var, branches), depth = stack.pop()
        if depth > DEPTH or not token(var, VARIABLE):
            return None
        if branches:
            lines += len(branches) - 1
        concepts = 0
        for role, target in branches:
            if not (type(role) is str and role in roles) and not token(role, ROLE):
                return None
            if role == "/":
                concepts += 1
                if concepts > 1:  # (a / b / c) does not read
                    return None
            if type(target) is str:
                if target not in atoms and not token(target, ATOM):
                    return None
            elif type(target) is tuple and role != "/":
                stack.append((target, depth + 1))
            else:
                return None
    return lines


def _comments(metadata: Any) -> Optional[List[Line]]:
    """The metadata lines penman's format writes (None for a line break in one)."""
    lines = []
    for number, (key, value) in enumerate(metadata.items(), start=1):
        if type(key) is not str or type(value) is not str:
            return None
        text = "# ::{}{}".format(key, " " + value if value else value)
        if _LINE_BREAK.search(text):
            return None
        lines.append(Line(number, text))
    return lines


#: a metadata key that its comment line gives back as it is (``::key``, then a space or the end)
_PLAIN_KEY = re.compile(r"[^\s:]+")
#: keys whose value is the rest of the line
_WHOLE = ("snt", "tok")
_KEYS: Memo[str, bool] = Memo(1 << 10)


def _metadata(metadata: Any) -> Optional[Tuple[Dict[str, str], int]]:
    """The metadata reading the comment lines penman's format writes gives (``Frame.metadata``) and the
    number of those lines; None for a line break in one."""
    meta: Dict[str, str] = {}
    for key, value in metadata.items():
        if type(key) is not str or type(value) is not str:
            return None
        if key not in _KEYS:
            if _PLAIN_KEY.fullmatch(key) is None:
                break
            _KEYS.keep(key, True)
        if ("::" in value and key not in _WHOLE) or _LINE_BREAK.search(value):
            break
        meta[key] = value.strip()
    else:
        return meta, len(meta)
    comments = _comments(metadata)  # what the lines give, where a key, a value or a line break is odd
    return None if comments is None else (Frame(comments=comments).metadata(), len(comments))


def _filled(graph: Graph, meta: Dict[str, str], first: int, options: ReadOptions) -> Graph:
    """A graph given its input (from the text table, else its metadata) and its line."""
    text = options.text.get(graph.id) if options.text is not None else None
    graph.input = text if text is not None else meta.get("snt")
    graph.line = first
    return graph


def _laid_out(item: Any, options: ReadOptions, direct: bool) -> Optional[Tuple[Any, int]]:
    """A graph as laid out (an mrp Graph, or else penman's tree) and the lines of its text; None when its
    text might read otherwise.  Without ``direct``, always penman's tree."""
    if direct:
        try:
            found = fast_graph(item, options)
        except (TypeError, ValueError, AttributeError):  # not a triple, an unhashable or odd variable or
            found = None  # role: penman's layout has its say
        if found is not None:
            return found
    with quiet_layout():
        tree = penman.configure(item)
    count = _lines(tree.node)
    return None if count is None else (tree, count)


def graphs_of(items: Sequence[Any], name: str, options: ReadOptions,
              direct: bool = True) -> Optional[List[Union[Graph, FormatError]]]:
    """The graphs (or FormatErrors) reading the Penman text of ``penman.Graph`` objects would give, in
    order, with the AMR reader's options (the framework already set); None where reading that text
    might give something else.  Each graph is laid out by :mod:`.direct` where it can be, else by
    penman (always, without ``direct``)."""
    trees: List[Tuple[Any, Dict[str, str], int]] = []
    for item in items:
        if not isinstance(item, penman.Graph):
            return None
        found = _metadata(item.metadata)
        if found is None:
            return None
        laid = _laid_out(item, options, direct)
        if laid is None:
            return None
        trees.append((laid[0], found[0], found[1] + laid[1]))
    framework = options.framework or "amr"
    out: List[Union[Graph, FormatError]] = []
    line = 1
    for position, (tree, meta, count) in enumerate(trees):
        gid = meta.get("id")
        if gid is not None and options.wsj_ids:
            gid = map_wsj_id(gid)
        gid = gid or str(position)
        first = line
        line += count + 1  # its comment lines and tree, and a blank line between two graphs
        if isinstance(tree, Graph):
            graph = tree
            graph.id = gid
            if len(graph.nodes) <= MAX_NODES and len(graph.edges) <= MAX_EDGES:
                # its values are strings, it has no anchors, targets or version: no other limit applies
                out.append(_filled(graph, meta, first, options))
                continue
        else:
            try:
                graph = _convert(tree, gid, options)
            except Bad as bad:
                out.append(FormatError(bad.message, name, first, gid, framework))
                continue
        _filled(graph, meta, first, options)
        problem = limit_problem(graph)
        out.append(graph if problem is None else FormatError(problem, name, first, gid, framework))
    return out

"""``penman.Graph`` objects read without a round trip through text.

The library accepts ``penman.Graph`` objects; read as text, each would be
encoded by ``penman`` (its tree laid out, then formatted), the text framed, lexed
and parsed back into the same tree.  Here the tree that ``penman.encode`` lays out
(``penman.configure``) goes to the AMR reader's conversion directly, and the
graph gets what reading the text would give it: the id and sentence of its
metadata, its line in the text the graphs would make (``mrp.api.inputs`` joins
them with blank lines), position ids for graphs without one, the limits of
:mod:`mrp.io.limits`.

That holds only where the text would read back as the tree it was formatted
from: every variable, role, concept and constant one Penman token (with an
alignment), no line break or other whitespace but spaces inside a string, no
missing concept or target, metadata on one line each.  Where any graph of a
list falls outside that, :func:`graphs_of` returns None and the caller reads the
text as before.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, Union

import penman

from mrp.codecs.amr import Bad, _convert, map_wsj_id
from mrp.codecs.base import ReadOptions
from mrp.codecs.penman_frames import Frame
from mrp.errors import FormatError
from mrp.graph import Graph
from mrp.io.limits import limit_problem
from mrp.io.source import Line

__all__ = ["graphs_of"]

_ALIGNMENT = r"(?:~(?:[a-z]\.?)?[0-9]+(?:,[0-9]+)*)?"
#: characters that end a line for ``str.splitlines`` (penman's lexer) or that are whitespace; a symbol
#: holds none of them, nor a backslash (an escape to mrp's framing), and does not start with '#' (a comment)
_SYMBOL = r"[^\s\"()/:~#\\\x1c-\x1f\x85\u2028\u2029][^\s\"()/:~\\\x1c-\x1f\x85\u2028\u2029]*"
#: a quoted string whose only whitespace is spaces
_STRING = r"\"(?:[^\"\\\s\x1c-\x1f\x85\u2028\u2029]|[ ]|\\[^\s\x1c-\x1f\x85\u2028\u2029])*\""
_VARIABLE = re.compile(_SYMBOL)
_ATOM = re.compile(f"(?:{_SYMBOL}|{_STRING}){_ALIGNMENT}")
_ROLE = re.compile(r":[^\s\"()/:~\\\x1c-\x1f\x85\u2028\u2029]*" + _ALIGNMENT)
_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


#: deeper trees are read as text (where penman's parser, recursive, may fail on them)
_DEPTH = 100


#: texts known to be one token of their kind (variables, roles, atoms recur across graphs)
_TOKENS: Dict[Any, Set[str]] = {_VARIABLE: set(), _ROLE: {"/"}, _ATOM: set()}


def _token(text: Any, pattern: Any) -> bool:
    """True when a text is one token of a kind (``pattern``) in penman's text."""
    known = _TOKENS[pattern]
    if text in known:
        return type(text) is str
    if type(text) is not str or pattern.fullmatch(text) is None:
        return False
    if len(known) >= 1 << 16:
        known.clear()
    known.add(text)
    return True


def _lines(node: Any) -> Optional[int]:
    """The lines penman's format gives a tree (one per branch after a node's first), or None when
    the text of the tree would not read back as this tree."""
    roles, atoms = _TOKENS[_ROLE], _TOKENS[_ATOM]
    lines = 1
    stack = [(node, 0)]
    while stack:
        (var, branches), depth = stack.pop()
        if depth > _DEPTH or not _token(var, _VARIABLE):
            return None
        if branches:
            lines += len(branches) - 1
        for role, target in branches:
            if not (type(role) is str and role in roles) and not _token(role, _ROLE):
                return None
            if type(target) is str:
                if target not in atoms and not _token(target, _ATOM):
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


def graphs_of(items: Sequence[Any], name: str,
              options: ReadOptions) -> Optional[List[Union[Graph, FormatError]]]:
    """The graphs (or FormatErrors) reading the Penman text of ``penman.Graph`` objects would give, in
    order, with the AMR reader's options (the framework already set); None where reading that text
    might give something else."""
    trees: List[Tuple[Any, List[Line], int]] = []
    for item in items:
        if not isinstance(item, penman.Graph):
            return None
        tree = penman.configure(item)
        count = _lines(tree.node)
        comments = _comments(tree.metadata)
        if count is None or comments is None:
            return None
        trees.append((tree, comments, count))
    framework = options.framework or "amr"
    out: List[Union[Graph, FormatError]] = []
    line = 1
    for position, (tree, comments, count) in enumerate(trees):
        meta = Frame(comments=comments).metadata()
        gid = meta.get("id")
        if gid is not None and options.wsj_ids:
            gid = map_wsj_id(gid)
        gid = gid or str(position)
        first = line
        line += len(comments) + count + 1  # a blank line between two graphs
        try:
            graph = _convert(tree, gid, options)
        except Bad as bad:
            out.append(FormatError(bad.message, name, first, gid, framework))
            continue
        text = options.text.get(gid) if options.text is not None else None
        graph.input = text if text is not None else meta.get("snt")
        graph.line = first
        problem = limit_problem(graph)
        out.append(graph if problem is None else FormatError(problem, name, first, gid, framework))
    return out

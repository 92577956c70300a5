"""A fast reader of plain Penman trees: the tree ``penman.parse`` gives, for text in the plain grammar.

The plain grammar is ``node := "(" SYMBOL ["/" (SYMBOL | STRING) [ALIGNMENT]] edge* ")"`` and
``edge := ROLE [ALIGNMENT] ((SYMBOL | STRING) [ALIGNMENT] | node)``, over the tokens of ``penman``'s
lexer (the same character classes; no token spans a line).  Text outside it (a comment, a missing
concept or target, an unexpected character, an unclosed node, a line separator other than ``\\n``,
nesting deeper than :data:`MAX_DEPTH`) gives None: the caller then asks ``penman.parse``, whose
errors and warnings stay the reader's.  Tokens after the first node are ignored, as ``penman.parse``
ignores them.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["MAX_DEPTH", "mask", "parse", "unmask"]

#: Deeper nesting is left to penman (whose recursion decides what such a graph gives).
MAX_DEPTH = 200

_SPACE = " \t\r\n\v\f"
# penman's token classes: comment, string, parentheses and slash, role, symbol, alignment, any other
# character; strings and comments end with their line
_TOKEN = re.compile(
    r'#[^\n]*'
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
    r'|[()/]'
    rf'|:[^{_SPACE}"()/:~]*'
    rf'|[^{_SPACE}"()/:~]+'
    r'|~(?:[a-z]\.?)?[0-9]+(?:,[0-9]+)*'
    rf'|[^{_SPACE}]'
)
#: characters ``str.splitlines`` breaks lines at, besides "\n" (penman lexes line by line)
_OTHER_BREAKS = re.compile("[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")

Node = Tuple[Optional[str], List[Tuple[str, Any]]]


#: a token's class by its first character: ( ) / : ~ " # or s (a symbol, any other first character)
_KINDS = {first: first for first in '()/:~"#'}


def parse(text: str) -> Optional[Node]:
    """The root node ``(variable, [(role, target), ...])`` of the first graph of ``text`` as
    ``penman.parse(text).node`` gives it, or None when ``text`` is not in the plain grammar."""
    if _OTHER_BREAKS.search(text) is not None:
        return None
    tokens = _TOKEN.findall(text)
    if '"' in tokens or "~" in tokens:
        return None  # a string left open, or a ~ that is no alignment: penman refuses them
    kinds = [_KINDS.get(token[0], "s") for token in tokens]
    count = len(tokens)
    if count < 3 or kinds[0] != "(":
        return None
    stack: List[Node] = []
    position = 0
    while True:
        # at "(": open a node
        if position + 1 >= count or kinds[position + 1] != "s" or len(stack) >= MAX_DEPTH:
            return None
        node: Node = (tokens[position + 1], [])
        position += 2
        if position < count and kinds[position] == "/":
            position += 1
            if position >= count or kinds[position] not in 's"':
                return None  # a missing concept: penman warns
            concept = tokens[position]
            position += 1
            if position < count and kinds[position] == "~":
                concept += tokens[position]
                position += 1
            node[1].append(("/", concept))
        if stack:
            stack[-1][1][-1] = (stack[-1][1][-1][0], node)
        stack.append(node)
        # the node's edges, and the nodes it closes
        while True:
            if position >= count:
                return None  # left open: penman says where
            kind = kinds[position]
            if kind == ")":
                position += 1
                done = stack.pop()
                if not stack:
                    return done
                continue
            if kind != ":":
                return None
            role = tokens[position]
            position += 1
            if position < count and kinds[position] == "~":
                role += tokens[position]
                position += 1
            if position >= count:
                return None
            kind = kinds[position]
            if kind in 's"':
                target = tokens[position]
                position += 1
                if position < count and kinds[position] == "~":
                    target += tokens[position]
                    position += 1
                stack[-1][1].append((role, target))
                continue
            if kind == "(":
                stack[-1][1].append((role, None))  # its node comes next
                break
            return None  # a missing target (penman warns) or an unexpected token


#: where the stand-ins of masked line separators are taken from (Supplementary Private Use Area-A)
_STAND_INS = 0xF0000


def mask(text: str) -> Tuple[str, Dict[str, str]]:
    """The text with each line separator other than ``\\n`` inside a quoted string (U+2028, U+0085,
    ``\\f``, ``\\r``, ...) replaced by a stand-in character that the text does not hold, and the stand-ins'
    table.  A file's lines end at ``\\n`` only (as the original SMATCH tool reads them), but penman's lexer
    splits its text with ``str.splitlines``, which would cut such a string in two; masked, the string stays
    one token.  Outside strings the separators stay (penman takes them for white space, as everyone does).

    Args:
        text: Penman text.

    Returns:
        The masked text (of the same length) and the table stand-in -> separator (empty: nothing masked).
    """
    if _OTHER_BREAKS.search(text) is None:
        return text, {}
    table: Dict[str, str] = {}
    chosen: Dict[str, str] = {}
    pieces: List[str] = []
    end = 0
    code = _STAND_INS
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] != '"' or _OTHER_BREAKS.search(token) is None:
            continue
        pieces.append(text[end:match.start()])
        for separator in set(_OTHER_BREAKS.findall(token)) - set(chosen):
            while chr(code) in text:
                code += 1
            chosen[separator] = chr(code)
            table[chr(code)] = separator
            code += 1
        pieces.append(_OTHER_BREAKS.sub(lambda found: chosen[found.group()], token))
        end = match.end()
    pieces.append(text[end:])
    return "".join(pieces), table


def unmask(root: Any, table: Dict[str, str]) -> Any:
    """A tree's node ``(variable, [(role, target), ...])`` with the stand-ins of :func:`mask` put back in
    every text (variables, roles, concepts, constants), at any depth (without recursion).

    Args:
        root: the root node, as ``penman.parse(text).node`` or :func:`parse` gives it.
        table: the stand-ins, as :func:`mask` gives them.

    Returns:
        The root node with the separators back (the same node when the table is empty).
    """
    if not table:
        return root
    pattern = re.compile("|".join(map(re.escape, table)))

    def text(value: Any) -> Any:
        return pattern.sub(lambda found: table[found.group()], value) if isinstance(value, str) else value

    top: List[Any] = [None]
    stack: List[Tuple[Any, List[Any], int, Optional[str]]] = [(root, top, 0, None)]
    while stack:
        node, parent, index, role = stack.pop()
        edges: List[Any] = []
        made = (text(node[0]), edges)
        parent[index] = made if role is None else (role, made)
        for label, target in node[1]:
            if isinstance(target, tuple):
                edges.append(None)
                stack.append((target, edges, len(edges) - 1, text(label)))
            else:
                edges.append((text(label), text(target)))
    return top[0]

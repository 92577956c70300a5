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
from typing import Any, List, Optional, Tuple

__all__ = ["MAX_DEPTH", "parse"]

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

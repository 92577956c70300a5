"""Which texts penman's format writes as one token of a kind, the test that a tree laid out from a
``penman.Graph`` reads back from its text as itself (see :mod:`.objects`)."""

from __future__ import annotations

import re
from typing import Any, Dict

from mrp.memo import Memo

_ALIGNMENT = r"(?:~(?:[a-z]\.?)?[0-9]+(?:,[0-9]+)*)?"
#: characters that end a line for ``str.splitlines`` (penman's lexer) or that are whitespace; a symbol
#: holds none of them, nor a backslash (an escape to mrp's framing), and does not start with '#' (a comment)
_SYMBOL = r"[^\s\"()/:~#\\\x1c-\x1f\x85\u2028\u2029][^\s\"()/:~\\\x1c-\x1f\x85\u2028\u2029]*"
#: a quoted string whose only whitespace is spaces
_STRING = r"\"(?:[^\"\\\s\x1c-\x1f\x85\u2028\u2029]|[ ]|\\[^\s\x1c-\x1f\x85\u2028\u2029])*\""
VARIABLE = re.compile(_SYMBOL)
ATOM = re.compile(f"(?:{_SYMBOL}|{_STRING}){_ALIGNMENT}")
ROLE = re.compile(r":[^\s\"()/:~\\\x1c-\x1f\x85\u2028\u2029]*" + _ALIGNMENT)

#: deeper trees are read as text (where penman's parser, recursive, may fail on them)
DEPTH = 100

#: texts known to be one token of their kind (variables, roles, atoms recur across graphs)
TOKENS: Dict[Any, Memo[str, bool]] = {VARIABLE: Memo(1 << 16), ROLE: Memo(1 << 16), ATOM: Memo(1 << 16)}
#: the instance role, which the role pattern (a colon first) does not match; not in the memo, whose
#: entries may be forgotten
INSTANCE = "/"


def token(text: Any, pattern: Any) -> bool:
    """True when a text is one token of a kind (``pattern``) in penman's text."""
    known = TOKENS[pattern]
    if text in known:
        return type(text) is str
    if type(text) is not str:
        return False
    if pattern.fullmatch(text) is None:
        return pattern is ROLE and text == INSTANCE
    return known.keep(text, True)

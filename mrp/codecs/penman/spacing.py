"""How a Penman text spaces its roles: the whitespace after each role's name, in the order written,
where it does not start with a space (some readers, such as AnCast 0.1.1, end a role's name only at a
space)."""

from __future__ import annotations

import re
from typing import Dict, Optional

#: a role followed by whitespace other than a space (most texts have none: then nothing is scanned)
_ODD = re.compile(r':[^\s()"]+[^\S ]')


def breaks(text: str) -> Optional[Dict[int, str]]:
    """Role number (counted in the text, from 0) -> the whitespace after the role's name, for the roles
    whose whitespace does not start with a space; None when there are none.  Quoted strings are
    skipped."""
    if text.isprintable() or not _ODD.search(text):
        return None  # (every white space character but the space is unprintable)
    found: Dict[int, str] = {}
    number = 0
    k = 0
    quoted = False
    while k < len(text):
        ch = text[k]
        if quoted:
            if ch == "\\":
                k += 2
                continue
            quoted = ch != '"'
        elif ch == '"':
            quoted = True
        elif ch == ":" and (k == 0 or text[k - 1].isspace() or text[k - 1] in "()"):
            end = k + 1
            while end < len(text) and not text[end].isspace() and text[end] not in '()"':
                end += 1
            space = end
            while space < len(text) and text[space].isspace():
                space += 1
            if end < len(text) and text[end].isspace() and text[end] != " ":
                found[number] = text[end:space]
            number += 1
            k = end
            continue
        k += 1
    return found or None

"""Token -> character anchoring: where each token of a tokenized sentence sits in the raw text.

Tokens are matched left to right against the text, skipping whitespace.  A
token that is not spelled exactly as in the text may still match when the two
differ only in the spelling of quotes (`` '' " “ ” ‘ ’ ` '), dashes (-- ---
– —), ellipses (... . . . …) or PTB bracket escapes (-LRB- for "(" etc.).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List, Optional, Pattern, Sequence, Tuple

from mrp.errors import excerpt
from mrp.graph import Anchor

#: Groups of interchangeable spellings; longer spellings first within each group.
_GROUPS: Tuple[Tuple[str, ...], ...] = (
    ("``", "''", "“", "”", "„", '"'),
    ("‘", "’", "‚", "`", "'"),
    ("---", "--", "—", "–"),
    ("...", ". . .", "…"),
    ("-LRB-", "("),
    ("-RRB-", ")"),
    ("-LSB-", "["),
    ("-RSB-", "]"),
    ("-LCB-", "{"),
    ("-RCB-", "}"),
)

_ALTERNATIVES = {spelling: group for group in _GROUPS for spelling in group}
#: Spellings that may start a unit, longest first, so that "---" wins over "--".
_SPELLINGS = sorted(_ALTERNATIVES, key=len, reverse=True)
_SPACE = " \t\n\r\f\v\u00a0"


class AnchorError(ValueError):
    """A token that cannot be found in the text; ``index`` is its 0-based position."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


@lru_cache(maxsize=4096)
def _pattern(token: str) -> Optional[Pattern[str]]:
    """A regular expression matching the token with quote/dash/ellipsis variants, or None."""
    parts: List[str] = []
    varied = False
    i = 0
    while i < len(token):
        for spelling in _SPELLINGS:
            if token.startswith(spelling, i):
                group = _ALTERNATIVES[spelling]
                ordered = [spelling] + [s for s in group if s != spelling]
                parts.append("(?:" + "|".join(re.escape(s) for s in ordered) + ")")
                i += len(spelling)
                varied = True
                break
        else:
            char = token[i]
            if char == "-":
                parts.append("(?:-|–|—|‐)")
                varied = True
            elif char in _SPACE:
                parts.append(r"\s+")
                varied = True
            else:
                parts.append(re.escape(char))
            i += 1
    return re.compile("".join(parts)) if varied else None


def _skip_space(text: str, cursor: int) -> int:
    while cursor < len(text) and text[cursor] in _SPACE:
        cursor += 1
    return cursor


def align(tokens: Sequence[str], text: str) -> List[Anchor]:
    """The (start, end) character span of every token in ``text``, in token order.

    Raises :class:`AnchorError` naming the first token that cannot be found
    at the current position.  A sentence-final "." token that the text spells
    only once (as the last character of an abbreviation such as "Corp.") is
    anchored to that period.
    """
    spans: List[Anchor] = []
    cursor = 0
    for index, token in enumerate(tokens):
        cursor = _skip_space(text, cursor)
        if token and text.startswith(token, cursor):
            end = cursor + len(token)
            spans.append((cursor, end))
            cursor = end
            continue
        pattern = _pattern(token) if token else None
        match = pattern.match(text, cursor) if pattern is not None else None
        if match is not None and match.end() > cursor:
            spans.append((cursor, match.end()))
            cursor = match.end()
            continue
        if token == "." and spans and text[spans[-1][1] - 1: spans[-1][1]] == ".":
            previous_end = spans[-1][1]
            if cursor >= len(text) or not text.startswith(".", cursor):
                spans.append((previous_end - 1, previous_end))
                continue
        context = text[cursor: cursor + 20]
        raise AnchorError(
            f"token {index + 1} '{excerpt(token)}' does not match the text at character {cursor} "
            f"({context!r})", index)
    return spans

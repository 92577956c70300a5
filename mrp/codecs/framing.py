"""Cutting a file into graph-sized chunks by the format's own syntax, before any graph is decoded.

A chunk is the text of one graph as pieces of numbered lines (several graphs may
share a line), with the unreadable lines that fell inside it.  Each reader frames
its format here (blank-line blocks, balanced brackets outside strings) and then
decodes each chunk alone, so that one broken graph never moves the next one's id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, List, Optional, Tuple, Union

from mrp.errors import FormatError
from mrp.io.source import Line
from mrp.memo import Memo

Lines = Iterable[Union[Line, FormatError]]


@dataclass
class Chunk:
    """Pieces of lines that hold one graph (in order), and the unreadable lines among them."""

    lines: List[Line] = field(default_factory=list)
    bad: List[FormatError] = field(default_factory=list)
    #: the column (0-based) where each piece starts in its line
    starts: List[int] = field(default_factory=list)

    def add(self, line: Line, start: int = 0, end: Optional[int] = None) -> None:
        """Add ``line.text[start:end]`` as the next piece."""
        self.lines.append(line if start == 0 and end is None else Line(line.number, line.text[start:end]))
        self.starts.append(start)

    def __bool__(self) -> bool:
        return bool(self.lines or self.bad)

    @property
    def first(self) -> Optional[int]:
        """The number of the chunk's first line (None for an empty chunk)."""
        if not self.bad:
            return min(line.number for line in self.lines) if self.lines else None
        numbers = [line.number for line in self.lines] + [e.line for e in self.bad if e.line is not None]
        return min(numbers) if numbers else None

    def text(self) -> str:
        """The pieces joined by line breaks."""
        return "\n".join(line.text for line in self.lines)

    def line_at(self, offset: int) -> Optional[int]:
        """The file line of a character offset into :meth:`text` (the last line past the end)."""
        for line in self.lines:
            if offset <= len(line.text):
                return line.number
            offset -= len(line.text) + 1
        return self.lines[-1].number if self.lines else None

    def column(self, piece: int, offset: int) -> int:
        """The 0-based column in its file line of an offset into the ``piece``-th piece."""
        return offset + (self.starts[piece] if piece < len(self.starts) else 0)


def blocks(lines: Lines, starts_block: Optional[Callable[[Line, Chunk], bool]] = None) -> Iterator[Chunk]:
    """Blank-line separated blocks, each with its unreadable lines.

    ``starts_block(line, block)`` may end the current block before a line too (a
    ``#id`` line after token rows, for example).
    """
    block = Chunk()
    for line in lines:
        if isinstance(line, FormatError):
            block.bad.append(line)
            continue
        if not line.text.strip():
            if block:
                yield block
            block = Chunk()
            continue
        if block and starts_block is not None and starts_block(line, block):
            yield block
            block = Chunk()
        block.add(line)
    if block:
        yield block


def scan(text: str, start: int, depth: int, opening: str, closing: str) -> Tuple[int, int]:
    """Follow brackets outside double-quoted strings (with backslash escapes) from ``start``.

    Returns ``(end, depth)``: ``end`` is the index just after the bracket that brings
    the depth back to 0 (or -1 when the text ends first, or at a closing bracket
    without an opening one when ``depth`` is 0), and the depth reached.  A string
    left open ends with the text (strings do not span lines).  A line met before is not followed
    again (a file often repeats its graphs' lines): the answer is a function of the arguments alone.
    """
    key = (text, start, depth, opening)
    found = _SCANNED.get(key)
    if found is None:
        found = _SCANNED.keep(key, _scan(text, start, depth, opening, closing))
    return found


#: (text, start, depth, opening bracket) -> what :func:`scan` found, for this many lines at most
_SCANNED: Memo[Tuple[str, int, int, str], Tuple[int, int]] = Memo(1 << 14)


def _scan(text: str, start: int, depth: int, opening: str, closing: str) -> Tuple[int, int]:
    """:func:`scan`, followed."""
    quoted = False
    for match in _SIGNIFICANT[opening + closing].finditer(text, start):
        c = match.group()
        if len(c) == 2:  # an escape: the escaped character, outside strings an ordinary one
            if quoted:
                continue
            c = c[1]
        if quoted:
            if c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == opening:
            depth += 1
        elif c == closing:
            if depth == 0:
                return -1, depth
            depth -= 1
            if depth == 0:
                return match.end(), 0
    return -1, depth


#: bracket pair -> the characters that matter to :func:`scan` (an escape takes the next character)
_SIGNIFICANT = {pair: re.compile(r'\\.|["' + re.escape(pair) + "]") for pair in ("()", "{}")}

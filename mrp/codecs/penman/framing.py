"""Framing Penman text: one graph per chunk, by balanced parentheses outside strings.

A graph starts with ``(`` and ends where its parentheses balance; several graphs may
share a block or a line.  Comment lines (``#`` first) before a graph are its
metadata; a blank line or a comment line ends a graph, so a graph left open there is
closed by the reader (as the original SMATCH tool reads it) and the next graph keeps
its own id.  Text after a graph that is not another graph is kept apart: SMATCH
ignores it, except a ``)`` without its ``(``, which SMATCH refuses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, Iterator, List, Optional

from mrp.codecs.framing import Chunk, Lines, scan
from mrp.errors import FormatError
from mrp.io.source import Line

#: what matters when looking for the next graph: strings (with their escapes) and "("
_SIGNIFICANT = re.compile(r'\\.|["(]')


@dataclass
class Frame:
    """The lines of one Penman graph: its comments, its text, and what the framing found."""

    comments: List[Line] = field(default_factory=list)
    chunk: Chunk = field(default_factory=Chunk)
    #: parentheses still open where the graph's block ended
    opened: int = 0
    #: text after the end of the graph that is no graph (pieces)
    trailing: List[Line] = field(default_factory=list)
    started: bool = False
    closed: bool = False

    @property
    def first(self) -> Optional[int]:
        """The first line of the frame (its first comment line, else its first graph line)."""
        first = self.chunk.first
        if not self.comments:
            return first
        earliest = min(line.number for line in self.comments)
        return earliest if first is None or earliest < first else first

    def has_graph(self) -> bool:
        """True when the frame holds graph text (or unreadable lines), not only comments."""
        return bool(self.chunk)

    def metadata(self) -> Dict[str, str]:
        """``::key value`` pairs of the comment lines (:func:`metadata`)."""
        return metadata([line.text for line in self.comments])


#: a ``::key`` of a comment line, and the space or tab after it
_KEY = re.compile(r"::(\S+)[ \t]?")


def metadata(comments: Iterable[str]) -> Dict[str, str]:
    """``::key value`` pairs of comment lines (``::snt`` and ``::tok`` take the rest of the line).

    Args:
        comments: the texts of a frame's comment lines, in order.

    Returns:
        Each key's first value.
    """
    data: Dict[str, str] = {}
    for comment in comments:
        text = comment.lstrip()[1:]
        for match in _KEY.finditer(text):
            key = match.group(1)
            rest = text[match.end():]
            value = rest if key in ("snt", "tok") else rest.split(" ::", 1)[0]
            data.setdefault(key, value.strip())
            if key in ("snt", "tok"):
                break
    return data


def _next_open(text: str, position: int) -> int:
    """The index of the next ``(`` outside a string at or after ``position``, or len(text)."""
    quoted = False
    for match in _SIGNIFICANT.finditer(text, position):
        c = match.group()
        if len(c) == 2:  # an escape: the escaped character, outside strings an ordinary one
            if quoted:
                continue
            c = c[1]
        if c == '"':
            quoted = not quoted
        elif c == "(" and not quoted:
            return match.end() - 1
    return len(text)


def frames(lines: Lines) -> Iterator[Frame]:
    """The frames of a Penman file in order; frames with comments only are yielded too (the
    reader skips them unless they hold unreadable lines)."""
    frame = Frame()
    depth = 0
    for line in lines:
        if isinstance(line, FormatError):
            if frame.closed:  # a new line after a whole graph: the next graph's
                yield frame
                frame, depth = Frame(), 0
            frame.chunk.bad.append(line)
            continue
        text = line.text
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            if frame.has_graph() or not stripped:
                frame.opened = depth if frame.started and not frame.closed else 0
                if frame.has_graph() or frame.comments:
                    yield frame
                frame, depth = Frame(), 0
            if stripped:
                frame.comments.append(line)
            continue
        position = 0
        if frame.started and not frame.closed:
            end, depth = scan(text, 0, depth, "(", ")")
            if end < 0:
                frame.chunk.add(line)
                continue
            frame.chunk.add(line, 0, end)
            frame.closed, position = True, end
        while True:
            while position < len(text) and text[position].isspace():
                position += 1
            if position >= len(text):
                break
            if text[position] == "(":
                if frame.closed:
                    yield frame
                    frame = Frame()
                frame.started = True
                end, depth = scan(text, position, 0, "(", ")")
                if end < 0:
                    frame.chunk.add(line, position)
                    break
                frame.chunk.add(line, position, end)
                frame.closed, position = True, end
                continue
            end = _next_open(text, position)
            if frame.closed:
                frame.trailing.append(Line(line.number, text[position:end].rstrip()))
            else:  # text before any graph: part of the next graph's text (or a frame of its own)
                frame.chunk.add(line, position, end)
            position = end
    frame.opened = depth if frame.started and not frame.closed else 0
    if frame.has_graph() or frame.comments:
        yield frame

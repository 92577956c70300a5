"""The progress line of a long run on stderr, and per-pair problems."""

from __future__ import annotations

import sys
import time
from typing import Optional, TextIO

from ..errors import excerpt
from ..graph import Graph
from ..score.metrics import Progress

#: seconds between redraws of the progress line
INTERVAL = 0.2


class Line(Progress):
    """`pairs done/total, pairs/s, ETA, cut` redrawn in place when ``show``; problems always printed."""

    def __init__(self, program: str, file: str, show: bool, stream: Optional[TextIO] = None) -> None:
        self.program = program
        self.file = file
        self.show = show
        self.stream = stream or sys.stderr
        self.total = self.done = self.cut = 0
        self.started = self.drawn = 0.0
        self.visible = False

    def start(self, total: int) -> None:
        self.total, self.done, self.cut = total, 0, 0
        self.started = self.drawn = time.monotonic()

    def advance(self, cut: bool) -> None:
        self.done += 1
        self.cut += cut
        now = time.monotonic()
        if self.show and (now - self.drawn >= INTERVAL or self.done == self.total):
            self.drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        text = (f"{self.program}: {self.done}/{self.total} pairs, {rate:.0f} pairs/s, "
                f"ETA {left:.0f}s, {self.cut} cut")
        self.stream.write("\r" + text + "\033[K")
        self.stream.flush()
        self.visible = True

    def _clear(self) -> None:
        if self.visible:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.visible = False

    def problem(self, graph: Graph, message: str) -> None:
        self._clear()
        print(f"{self.file}:{graph.line or '?'}: graph {excerpt(graph.id)}: {excerpt(message, 400)}",
              file=self.stream)

    def finish(self) -> None:
        self._clear()


def terminal(stream: TextIO) -> bool:
    """Whether the stream is an interactive terminal."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

"""The progress line of a long run on stderr, and per-pair problems."""

from __future__ import annotations

import sys
import threading
import time
from typing import Optional, TextIO

from mrp.engine import Progress
from mrp.errors import excerpt
from mrp.graph import Graph

#: seconds between redraws of the progress line
INTERVAL = 0.2
#: pairs done before an ETA is shown (the first pairs compile or warm up, and mislead)
ETA_AFTER = 5
#: seconds one pair may run before the line says that it is still running
SLOW = 2.0
#: seconds between checks of the heartbeat thread
BEAT = 0.5
#: what compiling the solver takes, as said to the user (measured: 30-55 s on a 2-core machine)
COMPILE_SECONDS = "30-60"


class Line(Progress):
    """`pairs done/total, pairs/s, ETA, cut` redrawn in place when ``show``; problems always printed."""

    def __init__(self, program: str, file: str, show: bool, stream: Optional[TextIO] = None) -> None:
        self.program = program
        self.file = file
        self.show = show
        self.stream = stream or sys.stderr
        self.total = self.done = self.cut = 0
        self.started = self.drawn = self.last = 0.0
        self.visible = False
        self._lock = threading.Lock()
        self._stop: Optional[threading.Event] = None

    def start(self, total: int) -> None:
        self.total, self.done, self.cut = total, 0, 0
        self.started = self.drawn = self.last = time.monotonic()
        if self.show and total:
            self._stop = threading.Event()
            threading.Thread(target=self._beat, args=(self._stop,), name="mrp-progress", daemon=True).start()

    def compiling(self) -> None:
        """Say that the solver's kernels are being compiled (where the line is shown)."""
        if not self.show:
            return
        with self._lock:
            self._clear()
            self.stream.write(f"{self.program}: compiling the solver's kernels, once for this installation "
                              f"(about {COMPILE_SECONDS} s; no pair's time runs meanwhile, later runs start "
                              "at once)\n")
            self.stream.flush()

    def _beat(self, stop: threading.Event) -> None:
        """During a long pair, show that it still runs."""
        while not stop.wait(BEAT):
            with self._lock:
                if stop.is_set():
                    return
                now = time.monotonic()
                if now - self.last >= SLOW:
                    self._draw(now)

    def advance(self, cut: bool) -> None:
        with self._lock:
            self.done += 1
            self.cut += cut
            now = self.last = time.monotonic()
            if self.show and (now - self.drawn >= INTERVAL or self.done == self.total):
                self._draw(now)

    def text(self, now: float) -> str:
        """The progress line at a moment: pairs done, rate, ETA (after a few pairs), cut, a running pair."""
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        parts = [f"{self.program}: {self.done}/{self.total} pairs"]
        if self.done >= ETA_AFTER:
            left = (self.total - self.done) / rate if rate > 0 else 0.0
            parts.append(f"{rate:.0f} pairs/s, ETA {left:.0f}s")
        parts.append(f"{self.cut} cut")
        running = now - self.last
        if self.done < self.total and running >= SLOW:
            parts.append(f"pair {self.done + 1} running for {running:.0f}s")
        return ", ".join(parts)

    def _draw(self, now: float) -> None:
        self.drawn = now
        self.stream.write("\r" + self.text(now) + "\033[K")
        self.stream.flush()
        self.visible = True

    def _clear(self) -> None:
        if self.visible:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.visible = False

    def problem(self, graph: Graph, message: str) -> None:
        with self._lock:
            self._clear()
            print(f"{self.file}:{graph.line or '?'}: graph {excerpt(graph.id)}: {excerpt(message, 400)}",
                  file=self.stream)

    def finish(self) -> None:
        with self._lock:
            if self._stop is not None:
                self._stop.set()
                self._stop = None
            self._clear()


def terminal(stream: TextIO) -> bool:
    """Whether the stream is an interactive terminal."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

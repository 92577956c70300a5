"""The garbage collector paused while graphs are read or scored."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["collector_paused"]


@contextmanager
def collector_paused(freeze: bool = True) -> Iterator[None]:
    """No garbage collection while a file is read or pairs are scored (graphs, triples and results hold no
    cycles; the collector would only walk them again and again: about half the reading time, a quarter of
    a corpus call's).  The collector's state is restored whatever happens; with ``freeze`` (reading), the
    objects made are then moved out of the collector's way for the rest of the run.

    Args:
        freeze: move the objects made out of the collector's way afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        if freeze:
            gc.freeze()

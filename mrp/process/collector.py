"""The garbage collector paused while graphs are read or scored."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["collector_paused", "own_process"]

#: whether this process is an mrp command's own (:func:`own_process`): only then may reading freeze the heap
_owned = False


def own_process() -> None:
    """Say that this process is an mrp command's own, not a caller's that uses the library: what it reads
    may then be frozen out of the collector's way for the rest of the run (:func:`collector_paused`).  A
    library call never freezes: ``gc.freeze()`` moves every object of the process into the permanent
    generation, the caller's cyclic garbage too, which would then never be collected (a reward function
    called once per sampled graph would leak the training loop's garbage at each call)."""
    global _owned
    _owned = True


@contextmanager
def collector_paused(freeze: bool = True) -> Iterator[None]:
    """No garbage collection while a file is read or pairs are scored (graphs, triples and results hold no
    cycles; the collector would only walk them again and again: about half the reading time, a quarter of
    a corpus call's).  The collector's state is restored whatever happens; with ``freeze`` (reading), in a
    command's own process (:func:`own_process`), the objects made are then moved out of the collector's way
    for the rest of the run.

    Args:
        freeze: move the objects made out of the collector's way afterwards (in a command's own process).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        if freeze and _owned:
            gc.freeze()

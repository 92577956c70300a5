"""The limits of a pair, owned by the driver for every metric: its clock (``--timeout``) and its memory cap
(``--max-memory``).

Three things hold them, whatever the metric:

* **a declared cost.**  Each metric states what its preparation of a pair (the work before any search of
  its own, which caps itself) takes, as a function of the pair's sizes: :class:`Cost`, from
  :meth:`mrp.engine.base.Metric.preparation`.  The driver compares it with the cap before anything is
  built: a pair whose preparation would exceed ``--max-memory`` is not prepared, and is reported cut as
  "limit" (the same answer on every machine: it depends on the sizes only).
* **cooperative checks.**  Preparation that may grow (AnCast's descendant sets) calls :func:`check` with
  the bytes it holds now and then; it raises :class:`Overrun` when the pair's clock has run out or the
  bytes exceed the cap.
* **a guard.**  While a pair is scored in the main thread, a CPU timer (``ITIMER_PROF``: the process's
  CPU, every thread) raises :class:`Overrun` at the pair's timeout plus :data:`GRACE`, wherever the metric
  is (between two Python instructions; the compiled search stops at its own deadline, before).

An :class:`Overrun` never reaches the user: the driver reports the pair cut ("timeout" or "limit") with
the metric's :meth:`mrp.engine.base.Metric.cut` result, whose counts are a lower bound and whose bound
is valid.  :class:`Overrun` derives from BaseException, so that no ``except Exception`` of a metric
swallows it.
"""

from __future__ import annotations

import _signal  # signal's C functions: its wrappers make an enum of a handler, raising for a function
import contextlib
import signal
import threading
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from mrp.solver import time_left as left
from mrp.solver import within_memory as within

__all__ = ["CUT", "GRACE", "SEARCH_GRACE", "Cost", "Overrun", "Sizes", "budget", "check", "guarded"]

#: CPU seconds past the pair's timeout at which the guard stops a metric that has not stopped by itself
GRACE = 0.3
#: the same for a metric whose search the solver stops at the pair's time (``Metric.stopped_by_solver``): it
#: then maps the pair in linear time, which its plain-Python twins (before the kernels are compiled) take
#: seconds for; the guard stops only a search that does not stop (with GRACE, such a pair counted nothing)
SEARCH_GRACE = 2.0
#: CPU seconds the metric's cut result of a stopped pair may take after that (it counts the graphs alone;
#: beyond, the pair counts nothing): a pair ends within its timeout and GRACE + CUT + CUT / 2 = 0.45 s
CUT = 0.1


class Overrun(BaseException):
    """A pair's clock ran out ("timeout") or its memory cap was reached ("limit") while it was scored.

    Args:
        why: "timeout" or "limit".
    """

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class Sizes:
    """What a pair's costs are a function of: the nodes and edges of its gold and system graph."""

    gold_nodes: int
    gold_edges: int
    system_nodes: int
    system_edges: int

    @property
    def items(self) -> int:
        """Nodes and edges of both graphs."""
        return self.gold_nodes + self.gold_edges + self.system_nodes + self.system_edges


@dataclass(frozen=True)
class Cost:
    """What a metric's preparation of a pair takes (estimated before anything is built)."""

    #: CPU seconds (an estimate: what a pair of these sizes takes on a machine like the project's CI)
    seconds: float
    #: bytes, above the process before the pair
    bytes: int


_PAIR = threading.local()


@contextlib.contextmanager
def budget(timeout: Optional[float], max_memory: Optional[int]) -> Iterator[None]:
    """The limits of the pair scored inside (in this thread), for :func:`check`.

    Args:
        timeout: the pair's seconds (``--timeout``; None: no cap), counted on its clock
            (:func:`mrp.solver.watchdog.start_pair`).
        max_memory: the pair's bytes (``--max-memory``; None: no cap).
    """
    before = getattr(_PAIR, "limits", None)
    _PAIR.limits = (timeout, max_memory)
    try:
        yield
    finally:
        _PAIR.limits = before


def check(held: int = 0) -> None:
    """Stop the pair being scored in this thread when its clock has run out or ``held`` bytes exceed its
    memory cap (nothing when no pair is being scored under :func:`budget`).

    Args:
        held: the bytes the caller's structures take now.

    Raises:
        Overrun: "limit" or "timeout".
    """
    limits = getattr(_PAIR, "limits", None)
    if limits is None:
        return
    timeout, max_memory = limits
    if not within(held, max_memory):
        raise Overrun("limit")
    remaining = left(timeout)
    if remaining is not None and remaining <= 0:
        raise Overrun("timeout")


#: whether the guard's timer is armed (a signal arriving after it was disarmed does nothing)
_ARMED = [False]


def _overrun(signum: int, frame: Any) -> None:
    if _ARMED[0]:
        _ARMED[0] = False
        raise Overrun("timeout")


@contextlib.contextmanager
def guarded(timeout: Optional[float], grace: float = GRACE) -> Iterator[None]:
    """Raise :class:`Overrun` ("timeout") inside once the process has spent ``timeout`` + ``grace`` CPU
    seconds from now; nothing when there is no timeout, outside the main thread, or without POSIX
    interval timers (the cooperative checks then hold alone).  The caller catches the Overrun around this
    (it may arrive as the block ends).

    Args:
        timeout: the pair's seconds (None: no guard).
        grace: the seconds past it (:data:`GRACE`; :data:`CUT` for a stopped pair's cut result).
    """
    if (timeout is None or not hasattr(signal, "setitimer") or _ARMED[0]
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    previous = _signal.signal(signal.SIGPROF, _overrun)
    _ARMED[0] = True
    _signal.setitimer(signal.ITIMER_PROF, max(timeout, 0.0) + grace)
    try:
        yield
    finally:
        _ARMED[0] = False
        _signal.setitimer(signal.ITIMER_PROF, 0)
        _signal.signal(signal.SIGPROF, previous)

"""A per-process timer thread that stops a running search when its time is up, and the clock of the pair
being scored (a pair's time cap counts from its start: normalizing and building count too)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Tuple

from mrp.solver import Abandoned

if TYPE_CHECKING:  # numpy is not imported to start a pair's clock
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np


#: the longest single wait (a deadline years away, or infinite, must not overflow the lock's timeout)
_LONGEST = 86400.0


class Watchdog:
    """Sets ``stop[0] = 1`` when an armed deadline passes; one thread serves every pair in turn.

    The thread is woken only for a deadline earlier than the time it sleeps until: pairs armed one after
    the other have later and later deadlines, so the thread sleeps on (waking it for each pair would hand
    the interpreter to it and back, a measurable cost per small pair), and when it wakes it waits again
    for the deadline armed by then, or fires it.
    """

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._stop: Optional[np.ndarray] = None
        #: the stop flag of the pair armed last, kept when its deadline passes (until disarmed)
        self._armed: Optional[np.ndarray] = None
        self._deadline: Optional[float] = None
        #: when the thread wakes by itself (None: it waits to be notified, or is not waiting)
        self._wakes: Optional[float] = None
        thread = threading.Thread(target=self._run, name="mrp-watchdog", daemon=True)
        thread.start()

    def arm(self, stop: np.ndarray, seconds: float) -> None:
        """Set ``stop[0]`` after ``seconds`` unless disarmed before."""
        with self._condition:
            self._stop = self._armed = stop
            deadline = self._deadline = time.monotonic() + max(0.0, seconds)
            if self._wakes is None or deadline < self._wakes:
                self._condition.notify()

    def disarm(self) -> None:
        """Cancel the armed deadline."""
        with self._condition:
            self._stop = self._armed = None
            self._deadline = None

    def armed(self) -> Optional[np.ndarray]:
        """The stop flag of the pair armed last, whether its deadline has passed or not (None: disarmed)."""
        with self._condition:
            return self._armed

    def left(self) -> Optional[float]:
        """Seconds until the armed deadline (None: none armed)."""
        with self._condition:
            return None if self._deadline is None else max(0.0, self._deadline - time.monotonic())

    @contextlib.contextmanager
    def paused(self) -> Iterator[float]:
        """The armed deadline does not pass while inside, and afterwards lies as much later as the time spent
        inside (a pair waiting for the solver's kernels to be compiled: not its work)."""
        with self._condition:
            stop, deadline = self._stop, self._deadline
            self._stop = self._deadline = None
        began = time.monotonic()
        try:
            yield began
        finally:
            _PAUSED[0] += time.monotonic() - began
            if deadline is not None and stop is not None:
                self.arm(stop, deadline - began)

    def _run(self) -> None:
        with self._condition:
            while True:
                if self._deadline is None:
                    self._wakes = None
                    self._condition.wait()
                    continue
                left = self._deadline - time.monotonic()
                if left > 0:
                    self._wakes = self._deadline
                    self._condition.wait(min(left, _LONGEST))  # a far deadline: wake and wait again
                    self._wakes = None
                    continue
                if self._stop is not None:
                    self._stop[0] = 1
                self._stop = None
                self._deadline = None


#: seconds this process's pairs' clocks have stood still (Watchdog.paused), subtracted by :func:`clock`
_PAUSED = [0.0]


def clock() -> float:
    """The clock of pairs' time caps: ``time.monotonic()`` less the time it stood still (a pair waiting
    for the solver's kernels to be compiled).  Deadlines computed from it keep what the wait took."""
    return time.monotonic() - _PAUSED[0]


_WATCHDOG: Optional[Watchdog] = None
_OWNER = -1


def watchdog() -> Watchdog:
    """This process's watchdog (a forked worker starts its own)."""
    global _WATCHDOG, _OWNER
    if _WATCHDOG is None or _OWNER != os.getpid():
        _WATCHDOG = Watchdog()
        _OWNER = os.getpid()
    return _WATCHDOG


_PAIR = threading.local()


def start_pair() -> None:
    """A pair starts now (in this thread): caps count from here (until :func:`end_pair`)."""
    _PAIR.started = clock()


def end_pair() -> None:
    """The pair scored in this thread is done: a later call's cap counts from its own start again, not from
    this pair's (a pair clock left behind would cut a later pair solved directly, with no time given)."""
    _PAIR.started = None


@contextlib.contextmanager
def pair_clock() -> Iterator[None]:
    """A pair scored inside (in this thread): caps count from its start (:func:`start_pair`), and from
    nothing left behind afterwards (:func:`end_pair`)."""
    start_pair()
    try:
        yield
    finally:
        end_pair()


def spent() -> float:
    """Seconds since the pair being scored in this thread started (:func:`start_pair`; 0 when none did)."""
    started = getattr(_PAIR, "started", None)
    return 0.0 if started is None else max(0.0, clock() - started)


def left(timeout: Optional[float]) -> Optional[float]:
    """Seconds left of a pair's ``timeout`` (None: no cap), counted from :func:`start_pair` when the pair
    was started in this thread, else from now."""
    if timeout is None:
        return None
    started = getattr(_PAIR, "started", None)
    return timeout if started is None else max(0.0, timeout - (clock() - started))


_EXECUTOR: Optional[ThreadPoolExecutor] = None
_EXECUTOR_PID = -1


def interruptible(solve: Callable[..., Any], arguments: Tuple[Any, ...], stop: np.ndarray) -> Any:
    """Run the compiled search in a helper thread so that Ctrl-C in the main thread stops it at once.

    Args:
        solve: the function to run.
        arguments: its arguments.
        stop: the pair's stop flag, set when the main thread is interrupted.

    Returns:
        What ``solve`` returns.
    """
    global _EXECUTOR, _EXECUTOR_PID
    from concurrent.futures import ThreadPoolExecutor

    if _EXECUTOR is None or _EXECUTOR_PID != os.getpid():  # a forked worker needs its own thread
        _EXECUTOR = ThreadPoolExecutor(1, thread_name_prefix="mrp-solver")
        _EXECUTOR_PID = os.getpid()
    future = _EXECUTOR.submit(solve, *arguments)
    try:
        return future.result()
    except BaseException:  # Ctrl-C, or the driver's guard (mrp.engine.limits): the search stops too
        if future.done():  # the search's own exception
            raise
        stop[0] = 1
        try:
            future.result()
        except Abandoned:  # a plain-Python twin that ran on past its stop (mrp.solver.plain)
            pass
        raise

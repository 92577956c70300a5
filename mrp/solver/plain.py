"""The solver's kernels run as plain Python: the very functions numba compiles, interpreted.

A kernel's source is Python; numba compiles it, and until it has (tens of
seconds on a fresh installation, mrp.solver.warmup), the same source can run
in the interpreter on the same numpy arrays and give the same numbers: the same
map, value, bound and steps, since it is the same program.  Each kernel's
*twin* is a copy of its Python function whose module globals have every kernel
replaced by that kernel's twin, so that a twin calls twins all the way down
(the kernels themselves stay untouched).

A twin is plain Python, and a pair's time cap must hold for it too
(``MRP_COMPILE=plain``): :func:`watched` runs one, and when it still runs
:data:`GRACE` seconds after its stop flag was set, sets the flag to
:data:`~mrp.solver.ABANDON` (the root's rows and the assignment's set-up stop at
once: a root past its first round returns the bound and map of its rounds
before); when it still runs a grace later, the interpreter stops it at its next
bytecode (:class:`~mrp.solver.Abandoned`): building the candidates, the index
of positive rewards, the row and column maxima read no flag, and as plain
Python each takes seconds on a 2,000-node pair.
"""

from __future__ import annotations

import sys
import threading
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

from mrp.solver import ABANDON, Abandoned

__all__ = ["GRACE", "twin", "watched"]

#: Seconds a twin may run on after its stop flag was set before the flag is set to ABANDON, and again before
#: it is interrupted: a stopped search returns within them, a root in its first round (which a plain stop
#: lets finish, for a valid bound: 27 s on a 2,000-node pair) does not.
GRACE = 0.15

#: a kernel's Python function -> its twin
_TWINS: Dict[Any, Callable[..., Any]] = {}
#: a module's name -> its globals with kernels replaced by their twins
_SPACES: Dict[str, Dict[str, Any]] = {}


def _compiled(value: Any) -> bool:
    """Whether ``value`` is a numba dispatcher (a function it compiles)."""
    return hasattr(value, "py_func") and hasattr(value, "overloads")


def _space(module: str) -> Dict[str, Any]:
    """The globals of ``module`` with every kernel replaced by its twin (made once; cycles allowed)."""
    space = _SPACES.get(module)
    if space is None:
        space = _SPACES[module] = {}
        values = dict(vars(sys.modules[module]))
        space.update(values)
        for name, value in values.items():
            if _compiled(value):
                space[name] = twin(value)
    return space


def twin(kernel: Any) -> Callable[..., Any]:
    """The plain-Python twin of a numba kernel (or of any function numba compiles).

    Args:
        kernel: a numba dispatcher of one of the solver's modules.

    Returns:
        A function that runs the kernel's source in the interpreter, calling the twins of the kernels
        it calls.
    """
    function = kernel.py_func
    found = _TWINS.get(function)
    if found is None:
        found = types.FunctionType(function.__code__, _space(function.__module__), function.__name__,
                                   function.__defaults__, function.__closure__)
        found.__kwdefaults__ = function.__kwdefaults__
        found.__doc__ = function.__doc__
        _TWINS[function] = found
    return found


class _Interrupted(BaseException):
    """Raised inside a twin's thread to abandon it (no ``except Exception`` on its way can keep it)."""


def _interrupt(ident: int, exception: Optional[type]) -> None:
    """Raise ``exception`` in thread ``ident`` at its next bytecode (None: withdraw one not raised yet);
    nothing where the interpreter offers no way (no ``ctypes.pythonapi``: the call then runs to its end)."""
    try:
        import ctypes

        raise_in = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except (ImportError, AttributeError):
        return
    raise_in(ctypes.c_ulong(ident), None if exception is None else ctypes.py_object(exception))


def watched(function: Callable[..., Any], args: Tuple[Any, ...], stop: Any,
            grace: Optional[float] = None) -> Any:
    """``function(*args)`` run in this thread: when it still runs ``grace`` seconds after ``stop[0]`` was
    set, ``stop[0]`` is set to :data:`~mrp.solver.ABANDON`, and when it still runs ``grace`` seconds later,
    it is interrupted.

    Args:
        function: a twin (plain Python: the interpreter can stop it at any bytecode).
        args: its arguments.
        stop: a one-element array, set non-zero by another thread (the pair's watchdog, Ctrl-C).
        grace: seconds of each of the two waits (None: :data:`GRACE`).

    Returns:
        What ``function`` returns (when ``stop[0]`` is ABANDON, what a kernel returns when abandoned).

    Raises:
        Abandoned: the call was interrupted (its frames are unwound: nothing of it is kept).
    """
    grace = GRACE if grace is None else grace
    ident = threading.get_ident()
    lock = threading.Lock()
    state: List[bool] = [True, False]  # running, interrupted
    finished = threading.Event()

    def watch() -> None:
        while not stop[0]:
            if finished.wait(0.01):
                return
        if finished.wait(grace):
            return
        stop[0] = max(stop[0], ABANDON)
        if finished.wait(grace):
            return
        with lock:  # this thread holds it while it interrupts, and only while the call runs
            if state[0]:
                state[1] = True
                _interrupt(ident, _Interrupted)

    watcher = threading.Thread(target=watch, name="mrp-plain-cap", daemon=True)
    try:
        try:
            watcher.start()
            result = function(*args)
        finally:
            # The interruption, if any, is raised anywhere up to here (once): it is caught below.  After
            # the lock no new one can come, and one not raised yet is withdrawn.
            lock.acquire()
            state[0] = False
            lock.release()
            if state[1]:
                _interrupt(ident, None)
    except _Interrupted:
        raise Abandoned(f"a plain-Python kernel ran {2 * grace:g} s past its stop") from None
    finally:
        finished.set()
        if watcher.ident is not None:
            watcher.join()
    return result

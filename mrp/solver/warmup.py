"""The solver's kernels made ready before any pair is scored: loaded from numba's cache, or, on a fresh
installation, compiled by a background process while the same kernels run as plain Python.

numba compiles (or loads from its cache) a kernel at its first call.  Were
that first call a pair's, the pair's ``--timeout`` would pay for compiling and
the pair would be cut where a warm run proves it.  So a metric that searches
calls :func:`ready` before its first pair:

- When numba's cache holds every kernel, they are loaded (well under a second).
- Otherwise a compiler process (mrp.solver.background) fills the cache, and
  until it has, every kernel called from Python runs as its plain-Python twin
  (mrp.solver.plain): the same program, so the same map, value, bound and
  steps.  A pair too large for the interpreter (more than :data:`PLAIN_CELLS`
  node pairs, or a document) waits for the compiler instead; as soon as the
  compiler has finished, the compiled kernels are loaded and used.  One
  :class:`CompileWarning` says so.
- Where no compiler process can be started (Windows, ``MRP_COMPILE=here``),
  the kernels are compiled here, before any pair, as they always were.

``MRP_COMPILE=plain`` runs every kernel as plain Python and compiles nothing
(slow on large pairs; for checking that both give the same numbers).  A pair's
call that runs on past its time cap is abandoned there (``_only_plain``).
Forked workers inherit the state.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple

import numpy as np

from mrp import compiled
from mrp.errors import MRPWarning
from mrp.solver import ABANDON, Abandoned, background
from mrp.solver.plain import twin, watched
from mrp.solver.problem import Problem
from mrp.solver.watchdog import watchdog

__all__ = ["CompileWarning", "PLAIN_CELLS", "PLAIN_SECONDS", "SLOW", "compile_all", "ready", "tiny_problem",
           "waited"]

#: seconds after which loading counts as compiling (a cached load takes well under one)
SLOW = 1.0
#: Problems of at most this many node pairs run as plain Python while the kernels compile (the largest
#: coli sentence pair: 80 x 80); larger ones wait for the compiled kernels
PLAIN_CELLS = 10_000
#: CPU seconds a kernel call on a Problem runs as plain Python at most (and a tenth of what the pair's time
#: cap leaves); after that its result is dropped and the call waits for the compiled kernel.  The slowest
#: coli pair as plain Python (1,000 search steps on 37 x 33 nodes) takes 3.2 s.
PLAIN_SECONDS = 5.0

_READY = False
_LOCK = threading.RLock()


class CompileWarning(MRPWarning):
    """The solver's kernels are not compiled yet (once per installation)."""


class _WouldCompile(Exception):
    """numba was about to compile a kernel while only loading was wanted."""


_GUARD = threading.local()
#: what to call (once) when a pair first waits for the background compiler: ready()'s ``compiling``
_TELL: List[Callable[[], None]] = []


def _listen() -> None:
    """Make numba's compile events raise :class:`_WouldCompile` in a thread that only loads."""
    from numba.core import event

    class Guard(event.Listener):  # type: ignore[misc]  # numba is untyped
        def on_start(self, ev: Any) -> None:
            if getattr(_GUARD, "loading", False):
                raise _WouldCompile()

        def on_end(self, ev: Any) -> None:
            pass

    event.register("numba:compile", Guard())


_listen()


def tiny_problem() -> Problem:
    """Two gold nodes joined by an edge against two system nodes joined by an edge."""
    ints = lambda *values: np.array(values, np.int64)  # noqa: E731
    return Problem(U=np.array([[1, 0], [0, 1]], np.int64), src=ints(0), tgt=ints(1), lab=ints(0),
                   cptr=ints(0, 1), cc=ints(0), cd=ints(1), cf=ints(0), cw=ints(1), ssrc=ints(0),
                   stgt=ints(1), complete=True)


def _solve() -> None:
    """The kernels a pair searched alone calls (mrp.solver.kernel.solved: ``settle``, then ``resume``, as
    documents call them in mrp.solver.handover), with the argument types both give them."""
    from mrp.solver.kernel import solved

    value, bound, _, exact, _ = solved(tiny_problem(), 10, 10, np.zeros(1, np.int64), np.zeros(0, np.int64))
    if (value, bound, exact) != (3, 3, True):
        raise RuntimeError(f"the solver's self-test gave {value} of {bound}, not 3 of 3")


def _rows() -> Any:
    from mrp.solver.problem import triple_rows

    return triple_rows([{"a": 1}, {"b": 1}], [{"a": 2}, {"b": 1}], {(0, 1, "r"): 1, (0, 0, "s"): 1},
                       {(0, 1, "r"): 1, (0, 0, "s"): 3})


def _building() -> None:
    """The kernels that build Problems (mrp.solver.assemble), with the argument types every pair gives
    them: a node reward, an edge and a loop."""
    from mrp.solver.problem import from_rows

    built = from_rows(_rows())
    if built.U.tolist() != [[5, 0], [0, 1]] or built.cw.tolist() != [1]:
        raise RuntimeError(f"building a Problem's self-test gave {built.U.tolist()} and {built.cw.tolist()}")


def _batches() -> None:
    """The kernel that builds and searches many small pairs at once (mrp.solver.batch)."""
    from mrp.solver.batch import search_rows

    searched = search_rows([_rows()], 10, 10)[0]
    if searched is None or (searched.value, searched.bound, searched.mapping) != (7, 7, [0, 1]):
        raise RuntimeError(f"the solver's self-test of many pairs gave {searched}")


def _renumbering() -> None:
    """The kernel that renumbers many pairs' triples with run-wide ids (mrp.solver.renumber.renumbered): the
    rows of triple_rows (keys in another order on each side, a gold key system does not have)."""
    from mrp.solver.batch_rows import Interned
    from mrp.solver.problem import triple_rows

    local_g: List[Dict[Hashable, int]] = [{"c": 1, "a": 1}, {"b": 1}]
    local_s: List[Dict[Hashable, int]] = [{"b": 2}, {"a": 1}]
    rel_g: Dict[Tuple[int, int, Hashable], int] = {(0, 1, "r"): 1, (0, 0, "s"): 1}
    rel_s: Dict[Tuple[int, int, Hashable], int] = {(0, 0, "s"): 3, (0, 1, "r"): 1}
    interned = Interned()
    coded = interned.coded(local_g, rel_g), interned.coded(local_s, rel_s)
    rows = interned.batch([coded]).rows(0)
    if rows != triple_rows(local_g, local_s, rel_g, rel_s):
        raise RuntimeError(f"the solver's self-test of renumbering many pairs gave {rows}")


def _scanning() -> None:
    """The Penman codec's compiled scan (mrp.codecs.penman.scanner): plain texts read by it from now on.
    Where only loading is wanted, the scan is only found in numba's cache, and loaded at its first text:
    a process that reads no Penman text (EDS, UMR) does not pay for it."""
    from mrp.codecs.penman import warm_scan

    if not warm_scan(lazily=getattr(_GUARD, "loading", False)):
        raise _WouldCompile()


#: the kernels in the order runs need them, each made ready by calling it: (what, how)
STEPS: List[Tuple[str, Callable[[], Any]]] = [
    ("building Problems (assemble.rewards, assemble.candidates)", _building),
    ("a pair alone, and documents (kernel.settle, kernel.resume)", _solve),
    ("many pairs at once (batch.search_all)", _batches),
    ("many pairs' triples renumbered (renumber.renumbered)", _renumbering),
    ("plain Penman texts scanned (codecs.penman.scanner)", _scanning)]


def compile_all(say: Optional[Callable[[int, int, str], None]] = None) -> None:
    """Compile (or load) every kernel in this process, in the order runs need them.

    Args:
        say: called as ``say(done, total, what)`` before each step and once at the end.
    """
    with _compiled_calls():
        for k, (what, step) in enumerate(STEPS):
            if say is not None:
                say(k, len(STEPS), what)
            step()
        if say is not None:
            say(len(STEPS), len(STEPS), "done")


class _compiled_calls:
    """Calls from Python go to the compiled kernels while inside (the route is set aside)."""

    def __enter__(self) -> None:
        self.saved = compiled.current_route()
        compiled.route(None)

    def __exit__(self, *exc: Any) -> None:
        compiled.route(self.saved)


def _load() -> bool:
    """Load every kernel from numba's cache, compiling nothing; False when one is not there."""
    _GUARD.loading = True
    try:
        compile_all()
        return True
    except _WouldCompile:
        return False
    finally:
        _GUARD.loading = False


def _compile_here(compiling: Optional[Callable[[], None]]) -> None:
    """Compile every kernel in this process; ``compiling()`` is called when that takes over SLOW seconds."""
    done = threading.Event()
    teller: Optional[threading.Thread] = None
    if compiling is not None:
        def tell() -> None:
            if not done.wait(SLOW):
                compiling()

        teller = threading.Thread(target=tell, name="mrp-compiling", daemon=True)
        teller.start()
    try:
        compile_all()
    finally:
        done.set()
        if teller is not None:
            teller.join()  # no thread left behind: later forks must find this process single-threaded


def _plain(args: Tuple[Any, ...]) -> bool:
    """Whether a kernel call may run as plain Python while the kernels compile: no Problem larger than
    PLAIN_CELLS node pairs."""
    return not any(isinstance(a, Problem) and a.U.size > PLAIN_CELLS for a in args)


def _stop_of(kernel: Any, args: Tuple[Any, ...]) -> int:
    """The position of a kernel's ``stop`` argument (the flag that ends its search), or -1."""
    code = kernel.py_func.__code__
    names = code.co_varnames[:code.co_argcount]
    return names.index("stop") if "stop" in names and names.index("stop") < len(args) else -1


def _cpu_clock() -> Callable[[], float]:
    """A clock of the calling thread's CPU time, readable from any thread (the wall clock where there is
    none): a loaded machine does not shorten a twin's budget."""
    try:
        which = time.pthread_getcpuclockid(threading.get_ident())
        time.clock_gettime(which)
    except (AttributeError, OSError):
        return time.monotonic
    return lambda: time.clock_gettime(which)


def _budgeted(kernel: Any, args: Tuple[Any, ...], left: Optional[float]) -> Tuple[bool, Any]:
    """The kernel's twin run on ``args`` for PLAIN_SECONDS at most (a tenth of what the pair's cap leaves
    at most): (True, its result), or (False, None) when it ran out of time (the result is dropped: the
    compiled kernel runs instead, from the start).  The caller's stop flag stops the twin as it would
    stop the kernel.  Calls without a Problem (building one; many small pairs at once, outside any
    pair's clock) run to their end."""
    at = _stop_of(kernel, args)
    if at < 0 or not any(isinstance(a, Problem) for a in args):  # building, and batches of small pairs
        return True, twin(kernel)(*args)  # (at most TOGETHER_STEPS steps each): bounded work, no clock
    theirs = args[at]
    mine = np.zeros(1, np.int64)
    budget = PLAIN_SECONDS if left is None else min(PLAIN_SECONDS, 0.1 * left)
    finished = threading.Event()
    late: List[bool] = []
    clock = _cpu_clock()

    def watch() -> None:
        end = clock() + budget
        while not finished.wait(0.01):
            if theirs[0]:
                mine[0] = theirs[0]
                return
            if clock() >= end:
                late.append(True)
                mine[0] = ABANDON  # its result is dropped: the root's long loops stop too
                return

    watcher = threading.Thread(target=watch, name="mrp-plain", daemon=True)
    watcher.start()
    try:
        result = twin(kernel)(*(args[:at] + (mine,) + args[at + 1:]))
    finally:
        finished.set()
        watcher.join()
    if late:
        return False, None
    return True, result


def _switch() -> None:
    """The compiler has finished: load its kernels (compile here what it left out) and call them."""
    with _LOCK:
        if compiled.current_route() is None:
            return
        if not _load():
            compile_all()
        compiled.route(None)


def _route(kernel: Any, args: Tuple[Any, ...]) -> Any:
    """A kernel called from Python while the compiler process runs: its twin, or the compiled kernel once
    the compiler has finished (waited for when the call is too large for the interpreter)."""
    if background.finished():
        _switch()
        return kernel(*args)
    left = watchdog().left()
    with watchdog().paused():  # the pair's clock stops for the twin (a second at most) and for the wait
        if _plain(args):
            done, result = _budgeted(kernel, args, left)
            if done:
                return result
        try:
            _TELL.pop()()
        except IndexError:
            pass
        background.wait()
        _switch()
    return kernel(*args)


def _only_plain(kernel: Any, args: Tuple[Any, ...]) -> Any:
    """A kernel call under ``MRP_COMPILE=plain``: its twin, watched by :func:`~mrp.solver.plain.watched`
    through its stop flag (or, building a Problem, the armed pair's): abandoned when it runs on past its
    pair's time; once the flag holds :data:`~mrp.solver.ABANDON`, the pair's later calls raise
    :class:`~mrp.solver.Abandoned` at once (there is no compiled kernel to wait for:
    :func:`mrp.solver.solve.solve_problem` answers without them)."""
    at = _stop_of(kernel, args)
    stop = args[at] if at >= 0 else watchdog().armed()
    if stop is None:
        return twin(kernel)(*args)
    if stop[0] >= ABANDON:
        raise Abandoned("the pair's plain-Python kernels were abandoned")
    return watched(twin(kernel), args, stop)


def ready(compiling: Optional[Callable[[], None]] = None) -> None:
    """Make the solver's kernels ready in this process, once (see the module's description).

    Args:
        compiling: called when the kernels are compiled in this process (it takes a while).
    """
    global _READY
    if _READY:
        return
    with _LOCK:
        if _READY:
            return
        how = os.environ.get("MRP_COMPILE", "")
        if how == "plain":
            compiled.route(_only_plain)
        elif not _load():
            if background.start():
                if compiling is not None:
                    _TELL.append(compiling)
                warnings.warn("the solver's kernels are not compiled yet (once per installation): a "
                              "background process compiles them (`mrp-warm-up` does it ahead); meanwhile "
                              "they run as plain Python, with the same results", CompileWarning, stacklevel=3)
                compiled.route(_route)
            else:
                warnings.warn("the solver's kernels are not compiled yet (once per installation): compiling "
                              "them now, before any pair (`mrp-warm-up` does it ahead)", CompileWarning,
                              stacklevel=3)
                _compile_here(compiling)
        _READY = True


def waited(tick: Optional[Callable[[], None]] = None,
           say: Optional[Callable[[int, int, str], None]] = None) -> None:
    """Wait for a compiler process of this cache to finish, then make every kernel ready here, compiling
    what is still missing: what ``mrp-warm-up`` does.

    Args:
        tick: called about twice a second while a compiler process runs.
        say: called as :func:`compile_all` calls it, when something is compiled here.
    """
    global _READY
    background.wait(tick)
    with _LOCK:
        if not _load():
            compile_all(say)
        compiled.route(None)
        _READY = True
